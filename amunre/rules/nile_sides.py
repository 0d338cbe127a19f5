"""Rule `nile_sides` (R-SCO-04): for each side of the Nile, the owner of the province with the
most pyramids on that side scores `points`; ties go to more stones, then every tied owner
scores. A-NILE sets what competes (single provinces, or each player's side total) and how
many pyramids the winner needs at least. It scores one item per side."""

from __future__ import annotations

import attrs

from amunre.contract import Rule, ScoringItem, ruling
from amunre.counting import pyramids_in, stones_in
from amunre.mechanics import add_points
from amunre.model import bounded, doc
from amunre.registry import register

SIDES = ("west", "east")


@attrs.frozen
class NileParams:
    points: int = doc("Points for the winner of each side.", default=5, validator=bounded(0, 100))


@attrs.frozen
class Rulings:
    nile_compare: str = ruling(
        "A-NILE", "`province` compares single provinces per side (the rulebooks); `side_total` compares each "
        "player's total pyramids on a side (the 2016 overview's wording).", "province",
        validator=attrs.validators.in_(("province", "side_total")))
    nile_min_pyramids: int = ruling("A-NILE", "Pyramids the side winner needs at least.", 1,
                                    validator=bounded(0, 100))


def nile_winners(state, board, side: str, compare: str, min_pyramids: int) -> list[int]:
    """Players who score a side of the Nile (A-NILE). Only owned provinces compete."""
    # (pyramids, stones, owner) per competitor: a province or a player's side total
    entries = []
    if compare == "province":
        for i, prov in enumerate(state.provinces):
            if prov.owner is not None and board[i].side == side:
                entries.append((prov.pyramid_count(), prov.stones, prov.owner))
    else:
        for p, player in enumerate(state.players):
            mine = [i for i in player.provinces if board[i].side == side]
            if mine:
                entries.append((pyramids_in(state, mine), stones_in(state, mine), p))
    if not entries:
        return []
    best = max(e[0] for e in entries)
    if best < min_pyramids:
        return []
    tied = [e for e in entries if e[0] == best]
    most_stones = max(e[1] for e in tied)
    return sorted({e[2] for e in tied if e[1] == most_stones})


@register
class NileSides(Rule):
    id = "nile_sides"
    kind = "scoring"
    summary = "The most pyramids on each side of the Nile score; ties by stones, then shared."
    spec_ids = ("R-SCO-04", "A-NILE")
    Params = NileParams
    Rulings = Rulings

    def score_items(self) -> list[ScoringItem]:
        return [ScoringItem(f"{self.item_key}_{side}", f"{self.name} ({side})") for side in SIDES]

    def run(self, game):
        state = game.state
        board = game.variant.board.provinces
        for side in SIDES:
            for p in nile_winners(state, board, side, self.rulings.nile_compare, self.rulings.nile_min_pyramids):
                add_points(game, p, f"{self.item_key}_{side}", self.params.points)
        return
        yield
