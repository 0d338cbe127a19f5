"""Counting helpers the engine, the rules and the agents share: pyramids, stones, farmers,
a province's income, and a number with its noun. Plain functions over the state and the
board, no rule knowledge."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Container, Iterable

    from amunre.core.board import Board
    from amunre.core.state import GameState
    from amunre.core.view import PlayerView


def plural(count: int, one: str, many: str | None = None) -> str:
    """`count` with the noun it counts, singular for 1: "1 game", "3 games", "0 decisions"
    (`many` defaults to `one` + "s"). Where a word is the edition's, `Words.count` says it."""
    return f"{count} {one if count == 1 else (many if many is not None else one + 's')}"


def pyramids_in(state: GameState, owned: Iterable[int]) -> int:
    """Pyramids in these provinces, a double counting 2."""
    return sum(state.provinces[i].pyramid_count() for i in owned)


def stones_in(state: GameState, owned: Iterable[int]) -> int:
    """Stones in these provinces."""
    return sum(state.provinces[i].stones for i in owned)


def farmers_in(state: GameState, owned: Iterable[int]) -> int:
    """Farmers in these provinces, on fields or not."""
    return sum(state.provinces[i].all_farmers() for i in owned)


def province_income(state: GameState | PlayerView, board: Board, pid: int, level: int, camel_levels: Container[int],
                    bonus: int = 0) -> int:
    """Gold one province yields at offering level `level` (the value the offering publishes):
    each farmer the level (plus `bonus`), its gold mine, and its caravan at the levels in
    `camel_levels`. `state` may be a seat's view (it shows every fact this reads)."""
    info = board.provinces[pid]
    prov = state.provinces[pid]
    gold = (prov.farmers + prov.free_farmers) * (level + bonus) + info.mine
    if info.caravan and level in camel_levels:
        gold += info.caravan
    return gold
