"""A plug-in scoring rule that keeps a count in its own data: a test fixture.

`tally` scores one point per pyramid a player has, and counts in its data how many times it
has run. It declares no `points_for`, so a planner values it by playing it on a position of
its own; it keeps data, so a hypothetical play that shares the live game's data would count
runs that never happened. In a game, it runs once per kingdom's scoring: the count at the end
is the number of kingdoms. The isolation tests (tests/test_agent_isolation.py) register it
in-process and play `tally.toml` (classic2003 with it).
"""

from __future__ import annotations

from amunre.core.contract import Rule
from amunre.core.mechanics import score_each


class Tally(Rule):
    id = "tally"
    kind = "scoring"
    summary = "One point per pyramid, and a count of how many times it ran (a test plug-in)."

    def initial_state(self, game):
        return {"runs": 0}

    def run(self, game):
        state = game.state
        state.rules[self.key]["runs"] += 1

        def score(player, heard):
            held = sum(state.provinces[pid].pyramid_count() for pid in state.players[player].provinces)
            return held, None

        score_each(game, self.item_key, "tally", score)
        return
        yield  # a step that asks nothing
