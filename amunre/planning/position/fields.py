"""What a position file holds: the counts a province may carry, the supplies, and `Position`."""

from __future__ import annotations

import attrs

from amunre.core.state import GameState

#: Counts a player's province may hold, and those an unowned one may.
PROVINCE_COUNTS = ("farmers", "free_farmers", "stones", "pyramids", "doubles")
UNOWNED_COUNTS = ("stones", "pyramids", "doubles")
#: Supply keys of a position -> (GameState attribute, Components attribute).
SUPPLIES = {
    "farmers": ("supply_farmers", "farmers"),
    "stones": ("supply_stones", "stones"),
    "pyramids": ("supply_pyramids", "pyramids"),
    "doubles": ("supply_doubles", "double_pyramids"),
}
#: Answers `score_position` gives to bonus-card decisions.


@attrs.frozen
class Position:
    """A checked position: the game state and the players' names (the state has no names)."""

    state: GameState
    names: tuple[str, ...]
    variant: str | None = None  # the variant id the file names, if any


def player_entries(data) -> list[dict]:
    players = data.get("players")
    if not isinstance(players, list):
        return []
    return [p if isinstance(p, dict) else {} for p in players]


def player_names(data) -> list[str]:
    return [p.get("name") if isinstance(p.get("name"), str) else f"player {i + 1}"
            for i, p in enumerate(player_entries(data))]
