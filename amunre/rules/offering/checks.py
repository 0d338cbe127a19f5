"""The offering's conformance checks (`Event.check`): what must hold right after one of its
events, read by `amunre check`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.rules.offering.levels import LEVEL

if TYPE_CHECKING:
    from amunre.core.state import GameState


def _level_placed(event: dict[str, Any], state: GameState) -> str | None:
    """The conformance check of the `level` event: the level it reports is the game's now, and
    an offering always sets one (1 at least). (A check has no module: the level is found in
    the data that holds it, the one module of the variant publishing it.)"""
    level = next((data[LEVEL] for data in state.rules.values() if isinstance(data, dict) and LEVEL in data), None)
    if level != event["level"] or event["level"] < 1:
        return (f"the level event says {event['level']} (total {event['total']}), "
                f"the game's level is {level}")
    return None
