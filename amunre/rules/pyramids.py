"""Rule `pyramids` (R-SCO-02): at a kingdom's scoring `single` points per single pyramid in
own provinces and `double` per double pyramid (1 and 2 in both editions: a double counts as
two pyramids)."""

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
class PyramidParams:
    single: int = doc("Points per single pyramid in own provinces.", default=1, validator=bounded(0, 100))
    double: int = doc("Points per double pyramid in own provinces (the rulebooks: it counts as two pyramids).",
                      default=2, validator=bounded(0, 100))


def pyramid_counts(e: dict[str, Any], w: Words) -> str:
    """"Sawu 3 (a double), Kharga 1, Amarna 0": [province, singles, doubles] per own province,
    a double counting 2."""
    parts = []
    for pid, singles, doubles in e["provinces"]:
        note = ""
        if doubles:
            counts = [w.count(doubles, "double_pyramid")] + ([w.count(singles, "pyramid")] if singles else [])
            note = f" ({w.join(counts)})"
        parts.append(f"{w.province(pid)} {singles + 2 * doubles}{note}")
    return ", ".join(parts)


def _pyramids_line(e: dict[str, Any], w: Words) -> str:
    return w.scored(e, pyramid_counts(e, w) or 'no province')


@register
class Pyramids(Rule, ValuationFacet):
    id = "pyramids"
    kind = "scoring"
    reads = frozenset({"provinces", "pyramids"})  # what `points_for`/`income_for` read
    summary = "Points per pyramid in own provinces: `single` per single pyramid, `double` per double (1 and 2)."
    spec_ids = ("R-SCO-02",)
    params = takes(PyramidParams)
    events = {
        "pyramid_points": Event("A player's pyramids score (`provinces`: [province, singles, doubles] of each own "
                                "province; `points`, and his `total`).", _pyramids_line),
    }

    def points_for(self, state: GameState, player: int) -> dict[str, int]:
        single, double = self.params.single, self.params.double
        provinces = state.provinces
        # (a list summed, not a generator: the planner asks this for every holding it values)
        return {self.item_key: sum([single * provinces[i].pyramids + double * provinces[i].doubles
                                    for i in state.players[player].provinces])}

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state

        def score(p: int, heard: bool) -> tuple[int, dict[str, Any] | None]:
            provinces = state.provinces
            return self.points_for(state, p)[self.item_key], {"provinces": [
                [i, provinces[i].pyramids, provinces[i].doubles]
                for i in state.players[p].provinces]} if heard else None

        score_each(game, self.item_key, "pyramid_points", score)
        return
        yield
