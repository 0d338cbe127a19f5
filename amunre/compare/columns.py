"""A batch's per-game numbers kept column-wise: per row, a list of its value in each game.

`amunre compare` reads a batch's numbers row by row (`amunre.compare.tally`), so they are
kept that way from the start: a row is one list over the batch's games, `None` where a game
has no value for it (a row it never met, or a mean of no events). A row none of the games
has is not kept at all. A game's own record, a dict of its rows (`--records`), is made
only where one is asked for (`record`); a row read with a number for the games that lack it
(the re-scoring's reads) is `numbers`.
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import itemgetter
from typing import Any

import attrs


@attrs.define
class Columns:
    """The numbers of `games` games of one column of a comparison: row key -> per game value."""

    games: int
    rows: dict[str, list[Any]] = attrs.Factory(dict)
    #: the rows some game has no value for (their lists hold a None): known as they are made,
    #: so that a reader need not look for None through every row (a comparison per game)
    gaps: set[str] = attrs.Factory(set)

    @classmethod
    def of_records(cls, records: list[dict[str, Any]]) -> Columns:
        """The columns of per-game records (dicts of row key -> value; a row a game lacks: absent),
        the rows in the order the games first have them."""
        if not records:
            return cls(0)
        keys = dict.fromkeys(chain.from_iterable(records))  # (every row, in that order: in C)
        everywhere = set(records[0]).intersection(*records[1:])
        # the rows every game has, read a game at a time by one `itemgetter` and turned into
        # rows by `zip`; the others by `dict.get` mapped over the records (None where absent)
        found: dict[str, list[Any]] = {}
        full = [key for key in keys if key in everywhere]
        if len(full) > 1:
            found = dict(zip(full, map(list, zip(*map(itemgetter(*full), records)))))
        elif full:
            found = {full[0]: list(map(itemgetter(full[0]), records))}
        return cls(len(records), {key: found[key] if key in everywhere else list(map(dict.get, records, repeat(key)))
                                  for key in keys}, {key for key in keys if key not in everywhere})

    def add(self, key: str, found: list[Any], gaps: bool) -> None:
        """Row `key`'s values, one a game (`gaps`: whether some are None)."""
        self.rows[key] = found
        if gaps:
            self.gaps.add(key)

    def record(self, game: int) -> dict[str, Any]:
        """Game `game`'s rows (counted from 0): the ones it has a value for."""
        return {key: found[game] for key, found in self.rows.items() if found[game] is not None}

    def numbers(self, key: str, missing: Any) -> list[Any]:
        """Row `key`'s value in each game, `missing` where a game has none (the row's own list
        where every game has it: not a copy, only to be read)."""
        found = self.rows.get(key)
        if found is None:
            return [missing] * self.games
        if key in self.gaps:
            return [missing if value is None else value for value in found]
        return found
