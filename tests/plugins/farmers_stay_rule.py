"""A plug-in house rule whose farmers stay on their provinces into the next kingdom: a test fixture.

`farmers_stay` declares that it keeps the farmers (`Rule.keeps_between_kingdoms`): the core's
transition (R-GAME-05) then leaves every province's farmers where they are, while the province
still goes back to auction. It has no code of its own. A planner looking past the kingdom
learns it by playing the transition (`amunre.planning.horizon.carried`): a farmer bought now
then pays a share of the next kingdom's harvests (tests/test_planner.py,
tests/test_planner_behaviour.py).
"""

from __future__ import annotations

from amunre.core.contract import Rule


class FarmersStay(Rule):
    id = "farmers_stay"
    kind = "phase"
    summary = "Farmers stay on their provinces into the next kingdom (a test plug-in)."
    keeps_between_kingdoms = frozenset({"farmers"})

    def run(self, game):
        return
        yield  # a phase that asks nothing
