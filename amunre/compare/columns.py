"""A batch's per-game numbers kept column-wise: per row, a list of its value in each game.

`amunre compare` reads a batch's numbers row by row (`amunre.compare.tally`), so they are
kept that way from the start: a row is one list over the batch's games, `None` where a game
has no value for it (a row it never met, or a mean of no events). A row none of the games
has is not kept at all. A game's own record, a dict of its rows (`--records`, the
re-scoring's reads), is made only where one is asked for (`record`, `records`).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

import attrs


@attrs.define
class Columns:
    """The numbers of `games` games of one column of a comparison: row key -> per game value."""

    games: int
    rows: dict[str, list[Any]] = attrs.Factory(dict)

    @classmethod
    def of_records(cls, records: list[dict[str, Any]]) -> Columns:
        """The columns of per-game records (dicts of row key -> value; a row a game lacks: absent)."""
        keys = set().union(*records)
        # (`dict.get` mapped over the records: the loop in C)
        return cls(len(records), {key: list(map(dict.get, records, repeat(key))) for key in keys})

    def record(self, game: int) -> dict[str, Any]:
        """Game `game`'s rows (counted from 0): the ones it has a value for."""
        return {key: found[game] for key, found in self.rows.items() if found[game] is not None}

    def records(self, keys) -> list[dict[str, Any]]:
        """Every game's record restricted to `keys` (a key a game has no value for: absent)."""
        keys = [key for key in keys if key in self.rows]
        found = [self.rows[key] for key in keys]
        if not any(None in values for values in found):  # (every game has them all: made in C)
            return [dict(zip(keys, values)) for values in zip(*found)] if keys else [{} for _ in range(self.games)]
        return [{key: value for key, value in zip(keys, values) if value is not None} for values in zip(*found)]
