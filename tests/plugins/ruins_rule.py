"""A plug-in house rule whose pyramids and stones fall between kingdoms: a test fixture.

`ruins` clears every province's pyramids and stones (back to the supply) when a kingdom after
the first begins. A planner looking past the kingdom learns that from playing the transition
(`amunre.planning.horizon.carried`): a pyramid built now is then worth nothing later
(tests/test_planner.py).
"""

from __future__ import annotations

from amunre.core.contract import Rule


class Ruins(Rule):
    id = "ruins"
    kind = "phase"
    summary = "Pyramids and stones fall between kingdoms (a test plug-in)."

    def start_kingdom(self, game):
        state = game.state
        if state.kingdom == 0:
            return
        for prov in state.provinces:
            state.supply_pyramids += prov.pyramids
            state.supply_doubles += prov.doubles
            state.supply_stones += prov.stones
            prov.pyramids = prov.doubles = prov.stones = 0

    def run(self, game):
        return
        yield  # a phase that asks nothing
