"""Rule `pyramids` (R-SCO-02): at a kingdom's scoring 1 point per pyramid in own provinces,
a double pyramid counting 2."""

from __future__ import annotations

from amunre.contract import NoParams, Rule
from amunre.counting import pyramids_in
from amunre.mechanics import add_points
from amunre.registry import register


@register
class Pyramids(Rule):
    id = "pyramids"
    kind = "scoring"
    summary = "1 point per pyramid in own provinces, a double counting 2."
    spec_ids = ("R-SCO-02",)
    Params = NoParams

    def run(self, game):
        state = game.state
        for p in state.turn_order():
            add_points(game, p, self.item_key, pyramids_in(state, state.players[p].provinces))
        return
        yield
