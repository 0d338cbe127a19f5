"""The picture facet of the rule contract: markers a module puts on the table.

A module that puts on the table what the game state does not hold (the auction's bid markers
on province cards) adds `PictureFacet` to its bases and follows the events to move them, so
that a picture of the board (`amunre render`, the replay viewer, the browser table) shows
them. Without it nothing of the module's is drawn beyond the state.
"""

from __future__ import annotations

from typing import Any


class PictureFacet:
    """Markers on the table: see the module docstring."""

    def table_markers(self, event: dict[str, Any], markers: dict[int, tuple[int, int, str]]) -> None:
        """Follow `event` in `markers`: the markers this module puts on the table that the game
        state does not hold (bid markers on province cards). `markers` maps a player to
        `(province id, amount, note)`, the note in the variant's words ("" for none); the
        module adds, moves and removes its own entries. It hears every event of the game in
        order, its own and the others'."""
