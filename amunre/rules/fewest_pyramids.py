"""Rule `fewest_pyramids` (R-SCO-03, 2016): `points` per pyramid in the player's own
province with the fewest pyramids. Its 2003 counterpart is `complete_sets`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.contract import Event, Rule, takes
from amunre.core.facets import ValuationFacet
from amunre.core.fields import bounded, doc
from amunre.core.mechanics import score_each
from amunre.core.registry import register

if TYPE_CHECKING:
    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.state import GameState
    from amunre.core.words import Words


@attrs.frozen
class FewestParams:
    points: int = doc("Points per pyramid in the province with the fewest.", default=3, validator=bounded(0, 100))


def _fewest_line(e: dict[str, Any], w: Words) -> str:
    counts = e["counts"]
    if not counts:
        why = "no province"
    else:
        pid, least = min(counts, key=lambda c: c[1])
        why = (f"{w.province(pid)} has {w.count(least, 'pyramid')} x {e['each']}" if least else
               f"{w.province(pid)} has no {w.t('pyramid')}")
        why += " (" + ", ".join(f"{w.province(i)} {n}" for i, n in counts) + ")"
    return w.scored(e, why)


@register
class FewestPyramids(Rule, ValuationFacet):
    id = "fewest_pyramids"
    kind = "scoring"
    reads = frozenset({"provinces", "pyramids"})  # what `points_for`/`income_for` read
    summary = "Points per pyramid in the player's own province with the fewest pyramids."
    spec_ids = ("R-SCO-03",)
    params = takes(FewestParams)
    events = {
        "fewest_points": Event("A player's own province with the fewest pyramids scores (`counts`: [province, "
                               "pyramids] of each own province; `each` pyramid's points; `points`, and his "
                               "`total`).", _fewest_line),
    }

    def points_for(self, state: GameState, player: int) -> dict[str, int]:
        counts = [state.provinces[i].pyramid_count() for i in state.players[player].provinces]
        return {self.item_key: self.params.points * min(counts, default=0)}

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state

        def score(p: int, heard: bool) -> tuple[int, dict[str, Any] | None]:
            owned = state.players[p].provinces
            counts = [state.provinces[i].pyramid_count() for i in owned]
            return self.points_for(state, p)[self.item_key], {
                "each": self.params.points, "counts": [list(c) for c in zip(owned, counts)]} if heard else None

        score_each(game, self.item_key, "fewest_points", score)
        return
        yield
