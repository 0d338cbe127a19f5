"""A table for hypothetical positions: what a rule module's `run` or `start_kingdom` needs of a
game, for a position nobody watches (no events, no seat to ask, nothing revealed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amunre.core.model import Variant
    from amunre.core.state import GameState
    from amunre.core.view import PlayerView


class Table:
    """The game a module plays on a hypothetical `state` of `variant`: nobody hears it."""

    hearing: frozenset[str] = frozenset()

    def __init__(self, variant: Variant, state: GameState) -> None:
        self.variant, self.state = variant, state
        self.n_players = state.n_players

    def emit(self, _event: str, **data: object) -> None:
        pass

    def reveal(self) -> None:
        pass

    def view(self, player: int) -> PlayerView:
        from amunre.core.view import PlayerView

        # (a view of this table has no phase, nor a game to sample: it is not a `Game`)
        return PlayerView(self, player)  # type: ignore[arg-type]
