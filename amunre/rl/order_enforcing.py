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

from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

#: The attributes read straight from the wrapped environment (once it was reset).
DELEGATED = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos")


def _delegated(name: str) -> property:
    def read(self):
        if not self._has_reset:  # (PettingZoo's wrapper says the same)
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read, doc=f"The wrapped environment's `{name}` (an AttributeError before reset()).")


class QuickOrderEnforcingWrapper(OrderEnforcingWrapper):
    """`OrderEnforcingWrapper` with `last()`, `step()`, `agent_iter()` and the attributes of
    `DELEGATED` reaching the wrapped environment directly, each with the wrapper's own checks."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return QuickIterable(self, max_iter)


class QuickIterable(AECOrderEnforcingIterable):
    """What `agent_iter()` gives: PettingZoo's iterable, iterated by `QuickIterator`."""

    def __iter__(self):
        return QuickIterator(self.env, self.max_iter)


class QuickIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator, its checks in one call rather than three."""

    def __next__(self):
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"  # (PettingZoo's)
        wrapper._has_updated = False
        return inner.agent_selection


for _name in DELEGATED:
    setattr(QuickOrderEnforcingWrapper, _name, _delegated(_name))
del _name
