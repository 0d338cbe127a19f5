"""The offering level a total reaches (`level_for`), and the names the offering publishes its
level and theft cards under (`Rule.publishes`): the offering's play, its words, its checks and
its appraisals all use them, so they live apart from each of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

#: The names it publishes its data under (`Rule.publishes`): the level, the theft cards by seat.
LEVEL = "offering_level"
THEFT_CARDS = "theft_cards"


def level_for(total: int, floors: Iterable[int]) -> int:
    """Offering level for a total: 1 plus the number of floors reached."""
    level = 1
    for floor in floors:
        if total >= floor:
            level += 1
    return level
