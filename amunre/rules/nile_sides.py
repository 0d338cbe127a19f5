"""Rule `nile_sides` (R-SCO-04): for each side of the Nile, the owner of the province with the
most pyramids on that side scores `points`; ties go to more stones, then every tied owner
scores. A-NILE sets what competes (single provinces, or each player's side total) and how
many pyramids the winner needs at least. It scores one item per side."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.contract import Event, Rule, ScoringItem, answers, ruling, takes
from amunre.core.counting import pyramids_in, stones_in
from amunre.core.facets import ValuationFacet
from amunre.core.fields import bounded, doc
from amunre.core.mechanics import add_points
from amunre.core.registry import register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from amunre.core.board import Province
    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.state import GameState
    from amunre.core.words import Words

SIDES = ("west", "east")
#: What a pyramid counts in `NileSides.points_for`'s one number per competitor, where a
#: stone counts 1: far more than the stones that ever stand together on a side.
_PYRAMID_WEIGHT = 1 << 20


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


def nile_winners(state: GameState, board: Sequence[Province], side: str, compare: str,
                 min_pyramids: int) -> list[int]:
    """Players who score a side of the Nile (A-NILE). Only owned provinces compete."""
    return nile_contest(state, board, side, compare, min_pyramids)[0]


def nile_contest(state: GameState, board: Sequence[Province], side: str, compare: str,
                 min_pyramids: int) -> tuple[list[int], list[list[int | None]]]:
    """(the players who score a side of the Nile, the competitors with the most pyramids
    there as [province or None, owner, pyramids, stones]): the leaders the line names."""
    # (pyramids, stones, owner, province) per competitor: a province or a player's side total
    entries: list[tuple[int, int, int, int | None]] = []
    if compare == "province":
        for i, prov in enumerate(state.provinces):
            if prov.owner is not None and board[i].side == side:
                entries.append((prov.pyramid_count(), prov.stones, prov.owner, i))
    else:
        for p, player in enumerate(state.players):
            mine = [i for i in player.provinces if board[i].side == side]
            if mine:
                entries.append((pyramids_in(state, mine), stones_in(state, mine), p, None))
    if not entries:
        return [], []
    best = max(e[0] for e in entries)
    tied = [e for e in entries if e[0] == best]
    leaders = [[e[3], e[2], e[0], e[1]] for e in tied]
    if best < min_pyramids:
        return [], leaders
    most_stones = max(e[1] for e in tied)
    return sorted({e[2] for e in tied if e[1] == most_stones}), leaders


def _side_line(e: dict[str, Any], w: Words) -> str:
    """Who has the most pyramids on a side, how a tie went, and who scores."""
    side = e["side"]
    leaders = e["leaders"]

    def name(entry: list[Any]) -> str:
        pid, owner = entry[0], entry[1]
        return f"{w.province(pid)} ({w.who(owner)})" if pid is not None else w.who(owner)

    head = f"  {side.capitalize()} side of the Nile: "
    if not leaders:
        return head + "no province there has an owner; nobody scores."
    best = leaders[0][2]
    if not e["winners"]:
        if best == 0:
            return head + f"no {w.t('pyramid')} stands in an owned province; nobody scores."
        return head + (f"the most is {w.count(best, 'pyramid')}, fewer than the {e['least']} needed; "
                       "nobody scores.")
    what = "has" if len(leaders) == 1 else "have"
    owners = {x[1] for x in leaders}
    if len(leaders) > 1 and len(owners) == 1:  # one player's provinces: he scores once
        whose = f"both {w.who(leaders[0][1])}'s" if len(leaders) == 2 else f"all {w.who(leaders[0][1])}'s"
        text = (f"{w.join([w.province(x[0]) for x in leaders])}, {whose}, "
                f"{what} the most {w.noun(2, 'pyramid')} ({best})")
    else:
        text = f"{w.join([name(x) for x in leaders])} {what} the most {w.noun(2, 'pyramid')} ({best})"
    if len(leaders) > 1:
        stones = ", ".join(f"{w.province(x[0]) if x[0] is not None else w.who(x[1])} {x[3]}" for x in leaders)
        if len({x[3] for x in leaders}) > 1:
            text += f"; the tie goes to the most {w.t('stones')} ({stones})"
        elif len(owners) == 1:
            text += f" and as many {w.t('stones')} ({leaders[0][3]})"
        else:
            scores = "so each of them scores" if len(owners) == len(leaders) else "so each owner scores once"
            text += f" and as many {w.t('stones')} ({leaders[0][3]}), {scores}"
    gains = "; ".join(f"{w.who(p)} scores {w.count(e['points'], 'points')}, {w.total(total)}"
                      for p, total in zip(e["winners"], e["totals"]))
    return head + f"{text}: {gains}."


@register
class NileSides(Rule, ValuationFacet):
    id = "nile_sides"
    kind = "scoring"
    reads = frozenset({"provinces", "pyramids", "stones"})  # what `points_for`/`income_for` read
    summary = "The most pyramids on each side of the Nile score; ties by stones, then shared."
    spec_ids = ("R-SCO-04", "A-NILE")
    params = takes(NileParams)
    rulings = answers(Rulings)
    events = {
        "nile_side": Event("A side of the Nile is scored: the `leaders` (most pyramids there: [province or null "
                           "for a player's side total, owner, pyramids, stones]), the `winners`, the `points` each "
                           "and their `totals`, and the `least` pyramids a winner needs.", _side_line),
    }

    def score_items(self) -> list[ScoringItem]:
        return [ScoringItem(f"{self.item_key}_{side}", f"{self.name} ({side})") for side in SIDES]

    @functools.cached_property
    def _sides(self) -> tuple[str, ...]:
        """The side of the Nile of each province, by id."""
        return tuple(info.side for info in self.variant.board.provinces)

    @functools.cached_property
    def _side_at(self) -> tuple[int, ...]:
        """The index in `SIDES` of each province's side of the Nile, by id."""
        return tuple(SIDES.index(side) for side in self._sides)

    @functools.cached_property
    def _provinces_by_side(self) -> tuple[tuple[int, ...], ...]:
        """The ids of the provinces on each side of the Nile, in `SIDES` order."""
        return tuple(tuple(pid for pid, at in enumerate(self._side_at) if at == side) for side in range(len(SIDES)))

    @functools.cached_property
    def _side_items(self) -> tuple[str, ...]:
        """The scoring item of each side, in `SIDES` order."""
        return tuple(f"{self.item_key}_{side}" for side in SIDES)

    def points_for(self, state: GameState, player: int) -> dict[str, float]:
        """As `run` scores (the contest of `nile_contest`), both sides in one pass: the
        planner asks this for every holding it values."""
        least, points = self.rulings.nile_min_pyramids * _PYRAMID_WEIGHT, self.params.points
        west, east = self._side_items  # (the two of SIDES, written out: a dict display is quicker)
        if self.rulings.nile_compare == "province":  # (the common case: one pass a side, nothing built)
            provinces = state.provinces
            scores = []
            for on_side in self._provinces_by_side:
                # the best of a competitor, as one number (pyramids first, stones breaking ties:
                # fewer than _PYRAMID_WEIGHT ever stand together), and whether the player has it
                best, mine = -1, False
                for pid in on_side:
                    prov = provinces[pid]
                    owner = prov.owner
                    if owner is None:
                        continue
                    counts = (prov.pyramids + 2 * prov.doubles) * _PYRAMID_WEIGHT + prov.stones
                    if counts > best:
                        best, mine = counts, owner == player
                    elif counts == best and owner == player:
                        mine = True
                scores.append(points if mine and best >= least else 0)
            return {west: scores[0], east: scores[1]}
        side_at = self._side_at
        top, has = [-1] * len(SIDES), [False] * len(SIDES)
        totals: dict[tuple[int, int], int] = {}
        for p, holder in enumerate(state.players):
            for i in holder.provinces:
                prov = state.provinces[i]
                totals[p, side_at[i]] = (totals.get((p, side_at[i]), 0)
                                         + (prov.pyramids + 2 * prov.doubles) * _PYRAMID_WEIGHT + prov.stones)
        for (owner, side), counts in totals.items():
            best = top[side]
            if counts > best:
                top[side], has[side] = counts, owner == player
            elif owner == player and counts == best:
                has[side] = True
        return {west: points if top[0] >= least and has[0] else 0, east: points if top[1] >= least and has[1] else 0}

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        board = game.variant.board.provinces
        told = "nile_side" in game.hearing
        for side in SIDES:
            winners, leaders = nile_contest(state, board, side, self.rulings.nile_compare,
                                            self.rulings.nile_min_pyramids)
            for p in winners:
                add_points(game, p, f"{self.item_key}_{side}", self.params.points, told=told)
            if "nile_side" in game.hearing:
                game.emit("nile_side", side=side, item=f"{self.item_key}_{side}", leaders=leaders, winners=winners,
                          points=self.params.points, totals=[state.players[p].score for p in winners],
                          least=self.rulings.nile_min_pyramids)
        return
        yield
