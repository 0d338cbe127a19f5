"""Rule `fewest_pyramids` (R-SCO-03, 2016): `points` per pyramid in the player's own
province with the fewest pyramids. Its 2003 counterpart is `complete_sets`."""

from __future__ import annotations

import attrs

from amunre.contract import Rule
from amunre.mechanics import add_points
from amunre.model import bounded, doc
from amunre.registry import register


@attrs.frozen
class FewestParams:
    points: int = doc("Points per pyramid in the province with the fewest.", default=3, validator=bounded(0, 100))


@register
class FewestPyramids(Rule):
    id = "fewest_pyramids"
    kind = "scoring"
    summary = "Points per pyramid in the player's own province with the fewest pyramids."
    spec_ids = ("R-SCO-03",)
    Params = FewestParams

    def run(self, game):
        state = game.state
        for p in state.turn_order():
            counts = [state.provinces[i].pyramid_count() for i in state.players[p].provinces]
            add_points(game, p, self.item_key, self.params.points * min(counts, default=0))
        return
        yield
