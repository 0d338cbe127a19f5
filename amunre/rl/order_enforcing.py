"""PettingZoo's order-enforcing wrapper, with the attributes every step reads delegated directly
(`QuickOrderEnforcingWrapper`: what `amunre.rl.pettingzoo.env()` returns).

PettingZoo's own wrapper reaches the wrapped environment's `agent_selection`, `agents`,
`rewards`... through `__getattr__`, which Python calls only after the ordinary look-up failed,
an AttributeError made and dropped each time: five of them in each `last()`, two in each step
of `agent_iter()` and one in each `step()`, about a sixth of a step's time (docs/research.md).
This subclass keeps the wrapper and its checks (each of these attributes is still an
AttributeError before `reset()`, the order errors are PettingZoo's own) and reads them as
properties. Imported only once the optional extra is there (`amunre.rl.pettingzoo.env`).
"""

from __future__ import annotations

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

#: The attributes read straight from the wrapped environment (once it was reset).
DELEGATED = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos")


def _delegated(name: str) -> property:
    def read(self):
        if not self._has_reset:  # (PettingZoo's wrapper says the same)
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read, doc=f"The wrapped environment's `{name}` (an AttributeError before reset()).")


class QuickOrderEnforcingWrapper(OrderEnforcingWrapper):
    """`OrderEnforcingWrapper` with `last()` and the attributes of `DELEGATED` read directly."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


for _name in DELEGATED:
    setattr(QuickOrderEnforcingWrapper, _name, _delegated(_name))
