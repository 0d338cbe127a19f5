"""Rule `complete_sets` (R-SCO-03, 2003): `points` per complete set of pyramids, a set being
one pyramid in each of the player's provinces; a player holding fewer than `set_size`
provinces has no set. Its 2016 counterpart is `fewest_pyramids`."""

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
class SetParams:
    points: int = doc("Points per set.", default=3, validator=bounded(0, 100))
    set_size: int = doc("Provinces a player must hold for a complete set.", default=3,
                        validator=bounded(1, 15))


def complete_sets(pyramid_counts: list[int], set_size: int) -> int:
    """Complete sets: one pyramid in each province, only with at least `set_size` provinces."""
    if len(pyramid_counts) < set_size:
        return 0
    return min(pyramid_counts)


def counts_text(e: dict[str, Any], w: Words) -> str:
    """"Sawu 4, Kharga 1, Amarna 1": pyramids per own province, a double counting 2."""
    return ", ".join(f"{w.province(pid)} {count}" for pid, count in e["counts"]) or "no province"


def _sets_line(e: dict[str, Any], w: Words) -> str:
    sets = e["sets"]
    if len(e["counts"]) < e["set_size"]:
        why = f"no set with {len(e['counts'])} of the {e['set_size']} provinces a set needs"
    elif sets:
        why = f"{sets} set{'s' if sets != 1 else ''} x {e['each']}"
    else:
        bare = [w.province(pid) for pid, count in e["counts"] if not count]
        why = f"no set, {w.join(bare)} {'has' if len(bare) == 1 else 'have'} no {w.t('pyramid')}"
    return w.scored(e, f"{why} ({w.noun(2, 'pyramid')}: {counts_text(e, w)})")


@register
class CompleteSets(Rule, ValuationFacet):
    id = "complete_sets"
    kind = "scoring"
    reads = frozenset({"provinces", "pyramids"})  # what `points_for`/`income_for` read
    summary = "Points per complete set of pyramids (one in each of the player's provinces)."
    spec_ids = ("R-SCO-03",)
    params = takes(SetParams)
    events = {
        "set_points": Event("A player's complete sets score (`counts`: [province, pyramids] of each own "
                            "province; `sets`, `each` set's points, the `set_size`; `points`, and his `total`).",
                            _sets_line),
    }

    def points_for(self, state: GameState, player: int) -> dict[str, float]:
        provinces = state.provinces  # (a list: the planner asks this for every holding it values)
        counts = [provinces[i].pyramid_count() for i in state.players[player].provinces]
        return {self.item_key: self.params.points * complete_sets(counts, self.params.set_size)}

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        params = self.params

        def score(p: int, heard: bool) -> tuple[int, dict[str, Any] | None]:
            owned = state.players[p].provinces
            counts = [state.provinces[i].pyramid_count() for i in owned]
            sets = complete_sets(counts, params.set_size)
            return params.points * sets, {"sets": sets, "each": params.points, "set_size": params.set_size,
                                          "counts": [list(c) for c in zip(owned, counts)]} if heard else None

        score_each(game, self.item_key, "set_points", score)
        return
        yield
