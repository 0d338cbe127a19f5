"""Who wins (R-GAME-06): points, then pyramids, then stones in own provinces; players with
equal standing share the victory. One function decides, for the engine and the final table."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from amunre.core.counting import pyramids_in, stones_in

if TYPE_CHECKING:
    from amunre.core.state import GameState

SPEC_IDS = ("R-GAME-06",)

#: What ranks a player: his points alone, or his whole standing.
_Key = TypeVar("_Key", int, tuple[int, int, int])


def standing(state: GameState, player: int) -> tuple[int, int, int]:
    """What decides the game: points, then pyramids, then stones in own provinces."""
    owned = state.players[player].provinces
    return (state.players[player].score, pyramids_in(state, owned), stones_in(state, owned))


def winners(state: GameState) -> list[int]:
    """The players with the best standing."""
    keys = [standing(state, p) for p in range(state.n_players)]
    best = max(keys)
    return [p for p, key in enumerate(keys) if key == best]


def ranks(state: GameState) -> list[int]:
    """Rank per player (1 = winner): 1 + the players with a strictly better standing."""
    scores = [player.score for player in state.players]
    if len(set(scores)) == len(scores):  # (distinct points decide alone: no tie-break to count)
        return _ranked(scores)
    return _ranked([standing(state, p) for p in range(state.n_players)])


def _ranked(keys: list[_Key]) -> list[int]:
    """Per key (a player's points, or his whole `standing`), 1 + how many keys are strictly better."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]
