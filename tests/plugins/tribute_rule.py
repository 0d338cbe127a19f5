"""A plug-in phase that offers each player a free tribute of 3 points: a test fixture.

`tribute` asks every player, in turn order, yes or no; yes scores 3 points at once and costs
nothing. Its decision declares no appraisal, so a planner answers it by looking one step
ahead (tests/test_planner.py): points an option scores at once must count there, or the
planner refuses a gift.
"""

from __future__ import annotations

from amunre.core.contract import Decision, Rule
from amunre.core.decisions import decide
from amunre.core.mechanics import add_points

#: The points a tribute scores.
POINTS = 3


class Tribute(Rule):
    id = "tribute"
    kind = "phase"
    summary = "Each player may take a free tribute of 3 points (a test plug-in)."
    decisions = {"tribute": Decision(options="yes or no", json="a boolean",
                                     describe=lambda take, words: "take the tribute" if take else "refuse it")}

    def run(self, game):
        for player in game.state.turn_order():
            if (yield from decide(player, "tribute", [False, True])):
                add_points(game, player, self.item_key, POINTS)
