"""What a comparison keeps of its games: per column and row, the moments of the per-game
numbers, and of their per-game difference from the first column (`stats.Moments`).

A batch of seeds, played in every column by one worker, becomes one `Tally`; the run merges
the batches' tallies in batch order, so memory does not grow with the number of games and
the result does not depend on the worker count or the order batches finish in (a batch's
seeds do not depend on the workers either: `amunre.compare.run.batch_size`).

A row that counts (a sum, a per-player sum, a share: `collect.missing_means_zero`) is 0 in
a game without its events; a mean of nothing is no value, and such a game is left out of
that row's numbers and of its pairs.
"""

from __future__ import annotations

from collections import Counter
from operator import sub
from typing import Any

import attrs

from amunre.compare.collect import RANKS, missing_means_zero
from amunre.compare.columns import Columns
from amunre.compare.stats import Moments


@attrs.define
class Tally:
    """The numbers of `games` games in every column."""

    games: int = 0
    values: list[dict] = attrs.Factory(list)  # per column: row key -> Moments
    versus: list[dict] = attrs.Factory(list)  # per column: row key -> Moments of (this - first); {} for the first
    rows: list[dict] = attrs.Factory(list)  # per column: row key -> (label, per_game mode, statistic key template)
    winning_scores: list[Counter] = attrs.Factory(list)  # per column: winning score -> games (for the plot)
    # per column from the third: row key -> Moments of (this - the column before); {} for the first
    # two (the second's step is its difference from the first: `versus`)
    adjacent: list[dict] = attrs.Factory(list)
    trend: dict = attrs.Factory(dict)  # a numeric sweep's: row key -> Moments of each game's least-squares slope
    # with --records: {"seed", "rotation", "values": [a record per column], "seats": [per column, a dict per seat]}
    records: list[dict] = attrs.Factory(list)
    #: the paired units the moments count: the games, or with a rotated lineup the seeds (the
    #: rotations of a seed share its deal, so they are one observation, their numbers averaged)
    units: int = 0
    #: how many seeds ended in each joint outcome: per seed, every column's ranks of the seats
    #: (`collect.RANKS`) in each rotation of the lineup; a finite set of outcomes, so the memory
    #: is bounded.
    #: The one-number outcome rows are read from it (`amunre.compare.outcomes`)
    outcomes: Counter = attrs.Factory(Counter)
    #: with two columns or more: identical games and the first column's games re-scored by each
    #: other column's scoring (`amunre.compare.rescore.RescoreTally`)
    rescore: Any = None


def slope_weights(xs: list[float]) -> tuple[float, ...] | None:
    """Least-squares weights: sum(w_c * y_c) is the slope of y against x (None for fewer
    than two distinct values)."""
    mean = sum(xs) / len(xs)
    spread = sum((x - mean) ** 2 for x in xs)
    return tuple((x - mean) / spread for x in xs) if spread > 0 else None


def tally_batch(columns: list[Columns], rows: list[dict], games: list[tuple[int, int]], keep_records: bool,
                seats: list[list] | None = None, slope: tuple[float, ...] | None = None) -> Tally:
    """The tally of one batch: `columns[c]` is column c's numbers, row by row, in games
    `games` (each one's seed and the lineup's rotation, in the columns' order); `seats[c][i]`,
    game i's seats' records (with `keep_records`). `slope`: a numeric sweep's least-squares
    weights per column (`slope_weights`): each game's slope of a row against the swept value
    is the weighted sum of its columns' numbers."""
    modes = {key: meta[1] for column_rows in rows for key, meta in column_rows.items()}
    # the ranks are no row: taken out of the columns before anything else reads them
    outcomes = _outcomes([column.rows.pop(RANKS, None) or [()] * len(games) for column in columns], games)
    scores = [Counter(column.rows.get("winning_score", ())) for column in columns]  # (a batch of no game: none)
    kept = ([{"seed": seed, "rotation": rotation, "values": [column.record(i) for column in columns],
              "seats": [column_seats[i] for column_seats in seats] if seats else []}
             for i, (seed, rotation) in enumerate(games)] if keep_records else [])
    played = len(games)
    seeds = _seeds(games)
    units = len(seeds) if seeds is not None else played

    # a row's number in a game without it: 0 for a row that counts, else none (core rows: every
    # game has them)
    zeros = {key: 0.0 if missing_means_zero(mode) else None for key, mode in modes.items()}

    def numbers(column: Columns, key: str) -> tuple[list, bool]:
        """A row's numbers in a column (per seed with rotations), and whether some are None."""
        found, zero = column.rows[key], zeros.get(key)
        if key not in column.gaps:  # (known from the columns: no look for None through the row)
            return (_per_seed(found, seeds, zero) if seeds is not None else found), False
        if seeds is not None:
            found = _per_seed(found, seeds, zero)
            return found, zero is None and None in found
        if zero is not None:
            return column.numbers(key, zero), False
        return found, True

    # each column's numbers per row, read once (the differences and the trend read them again),
    # the rows with a game of no number (a mean of nothing), and the moments of each row; in one
    # pass a column
    per_row: list[dict] = []  # per column: row key -> its numbers
    gappy: list[set[str]] = []  # per column: the rows with a game of no number
    values: list[dict] = []  # per column: row key -> Moments
    same_as_first: list[set[str]] = []  # per column: the rows whose numbers equal the first column's
    for c, column in enumerate(columns):
        found_rows, gaps_of, moments, alike = {}, set(), {}, set()
        # (the first column's numbers again, a rule that changes no play, often: its moments)
        firsts, first_moments = (per_row[0], values[0]) if c else ({}, {})
        column_gaps = column.gaps
        for key, found in column.rows.items():
            gaps = False
            if seeds is not None or key in column_gaps:  # (else the numbers as the columns keep them)
                found, gaps = numbers(column, key)
                if gaps:
                    gaps_of.add(key)
            found_rows[key] = found
            first = firsts.get(key)
            if first is not None and first == found:  # (equal numbers give the same bits)
                alike.add(key)
                moments[key] = first_moments[key]
            else:
                moments[key] = Moments.of([v for v in found if v is not None] if gaps else found)
        per_row.append(found_rows)
        gappy.append(gaps_of)
        values.append(moments)
        same_as_first.append(alike)

    def column_numbers(c: int, key: str) -> tuple[list, bool]:
        found = per_row[c].get(key)
        if found is not None:
            return found, key in gappy[c]
        zero = zeros.get(key)  # (a row the column has in no game)
        return [zero] * units, zero is None

    def differences(before: int, after: int) -> dict:
        pairs = {}
        # the rows whose numbers equal the first column's (found with their moments): no difference
        # in any pair, the moments of that many zeros (as `Moments.of` gives them)
        alike = same_as_first[after] if before == 0 else ()
        for key in per_row[after].keys() | per_row[before].keys():
            if key in alike:
                firsts = per_row[0][key]
                paired = len(firsts) - firsts.count(None) if key in gappy[0] else len(firsts)
                if paired:
                    pairs[key] = Moments(paired, 0.0, 0.0)
                continue
            (firsts, gaps_before), (seconds, gaps_after) = column_numbers(before, key), column_numbers(after, key)
            if gaps_before or gaps_after:
                diffs = [b - a for a, b in zip(firsts, seconds) if a is not None and b is not None]
            else:  # (the same differences, looped in C)
                diffs = list(map(sub, seconds, firsts))
            if diffs:  # no pair at all: no entry (an empty one would hold a NaN mean)
                pairs[key] = Moments.of(diffs)
        return pairs

    versus = [differences(0, c) if c else {} for c in range(len(per_row))]
    adjacent = [differences(c - 1, c) if c > 1 else {} for c in range(len(per_row))]
    trend = {}
    if slope is not None:
        for key in set().union(*per_row):
            per_game = [sum(w * v for w, v in zip(slope, game))
                        for game in zip(*(column_numbers(c, key)[0] for c in range(len(per_row)))) if None not in game]
            if per_game:
                trend[key] = Moments.of(per_game)
    return Tally(played, values, versus, rows, scores, adjacent, trend, kept, units=units, outcomes=outcomes)


def _outcomes(ranks: list[list[tuple]], games: list[tuple[int, int]]) -> Counter:
    """The joint outcomes of a batch: per seed, every column's ranks in each of its rotations
    (a tuple of rank tuples per column: a seed's rotations are one observation), counted."""
    by_seed: dict[int, list[int]] = {}
    for i, (seed, _) in enumerate(games):
        by_seed.setdefault(seed, []).append(i)
    return Counter(tuple(tuple(column[i] for i in found) for column in ranks) for found in by_seed.values())


def _seeds(games: list[tuple[int, int]]) -> list[list[int]] | None:
    """The games of each seed (their places in `games`), seed by seed in order of first play;
    None where every game has a seed of its own (no rotations)."""
    if len({seed for seed, _ in games}) == len(games):
        return None
    by_seed: dict[int, list[int]] = {}
    for i, (seed, _) in enumerate(games):
        by_seed.setdefault(seed, []).append(i)
    return list(by_seed.values())


def _per_seed(found: list, seeds: list[list[int]], zero: float | None) -> list:
    """One number per seed: the mean of its rotations' (`zero` where a rotation has none: 0
    for a row that counts; a mean of nothing is left out, and a seed with no number has
    `zero`)."""
    out = []
    for games in seeds:
        numbers = [v for v in (zero if found[i] is None else found[i] for i in games) if v is not None]
        out.append(sum(numbers) / len(numbers) if numbers and any(found[i] is not None for i in games) else zero)
    return out


def merge(total: Tally, part: Tally) -> Tally:
    """`total` with `part`'s games after its own (merged in place and returned)."""
    if not total.values:
        total.values = [{} for _ in part.values]
        total.versus = [{} for _ in part.versus]
        total.adjacent = [{} for _ in part.adjacent]
        total.rows = [{} for _ in part.rows]
        total.winning_scores = [Counter() for _ in part.winning_scores]
    for c in range(len(part.values)):
        total.rows[c].update(part.rows[c])
    modes = {key: meta[1] for column_rows in total.rows for key, meta in column_rows.items()}
    for into, more in zip(total.values + total.versus + total.adjacent + [total.trend],
                          part.values + part.versus + part.adjacent + [part.trend]):
        for key in sorted(into.keys() | more.keys()):
            zero = missing_means_zero(modes.get(key, "core"))
            before, after = into.get(key), more.get(key)
            if before is None and zero:  # the games so far had none of its events: 0 each
                before = Moments.zeros(total.units)
            if after is None and zero:
                after = Moments.zeros(part.units)
            into[key] = after if before is None else before if after is None else before.merge(after)
    for into, more in zip(total.winning_scores, part.winning_scores):
        into.update(more)
    total.outcomes.update(part.outcomes)
    total.records += part.records
    if part.rescore is not None:
        total.rescore = part.rescore if total.rescore is None else total.rescore.merge(part.rescore)
    total.games += part.games
    total.units += part.units
    return total
