"""Kingdom scoring items (R-SCO-01..05), one rule module each, in the variant's order.

`temples`: each temple in an own province scores the offering level.
`pyramids`: 1 point per pyramid in own provinces (a double counts 2).
`complete_sets` (2003): `points` per complete set, a set being one pyramid in each of the
player's provinces; a player holding fewer than `set_size` provinces has no set.
`fewest_pyramids` (2016): `points` per pyramid in the player's province with the fewest.
`nile_sides`: per side of the Nile the owner of the province with the most pyramids scores
`points`; ties go to more stones, then all tied score (A-NILE sets the comparison).
`bonus_cards`: each player plays bonus cards, one of each kind, `points` each if met.

The pure counting functions take plain data so position files and tests can call them.
"""

from __future__ import annotations

import attrs

from amunre.decisions import decide
from amunre.mechanics import add_points, play_card
from amunre.model import BONUS_CARDS, CARD_ID, doc
from amunre.registry import register
from amunre.rules.base import NoParams, Rule


def pyramids_in(state, owned) -> int:
    return sum(state.provinces[i].pyramid_count() for i in owned)


def stones_in(state, owned) -> int:
    return sum(state.provinces[i].stones for i in owned)


@register
class Temples(Rule):
    id = "temples"
    kind = "scoring"
    summary = "Each temple in an own province scores the offering level."
    Params = NoParams

    def run(self, game):
        state = game.state
        board = game.variant.board.provinces
        for p in state.turn_order():
            temples = sum(board[i].temples for i in state.players[p].provinces)
            add_points(game, p, self.id, temples * state.offering_level)
        return
        yield


@register
class Pyramids(Rule):
    id = "pyramids"
    kind = "scoring"
    summary = "1 point per pyramid in own provinces, a double counting 2."
    Params = NoParams

    def run(self, game):
        state = game.state
        for p in state.turn_order():
            add_points(game, p, self.id, pyramids_in(state, state.players[p].provinces))
        return
        yield


@attrs.frozen
class SetParams:
    points: int = doc("Points per set.", default=3)
    set_size: int = doc("Provinces a player must hold for a complete set.", default=3)


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
    Params = SetParams

    def run(self, game):
        state = game.state
        for p in state.turn_order():
            counts = [state.provinces[i].pyramid_count() for i in state.players[p].provinces]
            add_points(game, p, self.id, self.params.points * complete_sets(counts, self.params.set_size))
        return
        yield


@attrs.frozen
class FewestParams:
    points: int = doc("Points per pyramid in the province with the fewest.", default=3)


@register
class FewestPyramids(Rule):
    id = "fewest_pyramids"
    kind = "scoring"
    summary = "Points per pyramid in the player's own province with the fewest pyramids."
    Params = FewestParams

    def run(self, game):
        state = game.state
        for p in state.turn_order():
            counts = [state.provinces[i].pyramid_count() for i in state.players[p].provinces]
            add_points(game, p, self.id, self.params.points * min(counts, default=0))
        return
        yield


@attrs.frozen
class NileParams:
    points: int = doc("Points for the winner of each side.", default=5)


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
    Params = NileParams

    def run(self, game):
        state = game.state
        rulings = game.variant.rulings
        board = game.variant.board.provinces
        for side in ("west", "east"):
            for p in nile_winners(state, board, side, rulings.nile_compare, rulings.nile_min_pyramids):
                add_points(game, p, f"{self.id}_{side}", self.params.points)
        return
        yield


@attrs.frozen
class BonusParams:
    points: int = doc("Points per bonus card whose condition is met.", default=3)
    scribes_symbols: int = doc("Card symbols Master of Scribes needs over own provinces.", default=7)
    farmers_needed: int = doc("Farmers Master of Farmers needs over own provinces.", default=9)


def bonus_met(kind: str, state, board, owned, params: BonusParams) -> bool:
    """Whether a bonus card's condition holds for a player's provinces (R-SCO-05)."""
    if not owned:
        return False
    infos = [board[i] for i in owned]
    if kind == "master_of_scribes":
        return sum(info.card_symbols for info in infos) >= params.scribes_symbols
    if kind == "master_of_farmers":
        return sum(state.provinces[i].all_farmers() for i in owned) >= params.farmers_needed
    attribute = {"upper_lower": "half", "west_east": "side", "nile_frontier": "nile"}[kind]
    return len({getattr(info, attribute) for info in infos}) == 1


@register
class BonusCards(Rule):
    id = "bonus_cards"
    kind = "scoring"
    summary = "Bonus cards score when their condition is met; one of each kind per scoring."
    Params = BonusParams

    def run(self, game):
        state = game.state
        board = game.variant.board.provinces
        for p in state.turn_order():
            hand = state.players[p].hand
            owned = state.players[p].provinces
            played: set[str] = set()
            while True:
                kinds = [k for k in BONUS_CARDS if hand[CARD_ID[k]] and k not in played]
                if not kinds:
                    break
                kind = yield from decide(p, "play_bonus", [None] + kinds)
                if kind is None:
                    break
                played.add(kind)
                play_card(game, p, CARD_ID[kind])
                met = bonus_met(kind, state, board, owned, self.params)
                add_points(game, p, f"{self.id}:{kind}", self.params.points if met else 0)
