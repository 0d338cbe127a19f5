"""Rule `complete_sets` (R-SCO-03, 2003): `points` per complete set of pyramids, a set being
one pyramid in each of the player's provinces; a player holding fewer than `set_size`
provinces has no set. Its 2016 counterpart is `fewest_pyramids`."""

from __future__ import annotations

import attrs

from amunre.contract import Rule
from amunre.mechanics import add_points
from amunre.model import bounded, doc
from amunre.registry import register


@attrs.frozen
class SetParams:
    points: int = doc("Points per set.", default=3, validator=bounded(0, 100))
    set_size: int = doc("Provinces a player must hold for a complete set.", default=3,
                        validator=bounded(1, 15))


def complete_sets(pyramid_counts: list[int], set_size: int) -> int:
    """Complete sets: one pyramid in each province, only with at least `set_size` provinces."""
    if len(pyramid_counts) < set_size:
        return 0
    return min(pyramid_counts)


@register
class CompleteSets(Rule):
    id = "complete_sets"
    kind = "scoring"
    summary = "Points per complete set of pyramids (one in each of the player's provinces)."
    spec_ids = ("R-SCO-03",)
    Params = SetParams

    def run(self, game):
        state = game.state
        for p in state.turn_order():
            counts = [state.provinces[i].pyramid_count() for i in state.players[p].provinces]
            add_points(game, p, self.item_key, self.params.points * complete_sets(counts, self.params.set_size))
        return
        yield
