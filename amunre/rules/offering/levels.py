"""The offering level a total reaches (`level_for`): the offering's play, its words and its
appraisals all ask it, so it lives apart from each of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


def level_for(total: int, floors: Iterable[int]) -> int:
    """Offering level for a total: 1 plus the number of floors reached."""
    level = 1
    for floor in floors:
        if total >= floor:
            level += 1
    return level
