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

import attrs

from amunre.compare.collect import missing_means_zero
from amunre.compare.stats import Moments


@attrs.define
class Tally:
    """The numbers of `games` games in every column."""

    games: int = 0
    values: list[dict] = attrs.Factory(list)  # per column: row key -> Moments
    versus: list[dict] = attrs.Factory(list)  # per column: row key -> Moments of (this - first); {} for the first
    rows: list[dict] = attrs.Factory(list)  # per column: row key -> (label, per_game mode, statistic key template)
    winning_scores: list[Counter] = attrs.Factory(list)  # per column: winning score -> games (for the plot)
    records: list[dict] = attrs.Factory(list)  # with --records: {"seed", "values": [a record per column]}


def tally_batch(records: list[list[dict]], rows: list[dict], seeds: list[int], keep_records: bool) -> Tally:
    """The tally of one batch: `records[c][i]` is column c's numbers for game `seeds[i]`."""
    modes = {key: meta[1] for column_rows in rows for key, meta in column_rows.items()}

    def numbers(column_records, key):
        zero = 0.0 if missing_means_zero(modes.get(key, "core")) else None  # core rows: every game has them
        return [record.get(key, zero) for record in column_records]

    values, versus = [], []
    first = records[0]
    for c, column_records in enumerate(records):
        keys = {key for record in column_records for key in record}
        values.append({key: Moments.of(v for v in numbers(column_records, key) if v is not None) for key in keys})
        if not c:
            versus.append({})
            continue
        pairs = {}
        for key in keys | {key for record in first for key in record}:
            diffs = [b - a for a, b in zip(numbers(first, key), numbers(column_records, key))
                     if a is not None and b is not None]
            pairs[key] = Moments.of(diffs)
        versus.append(pairs)
    scores = [Counter(record["winning_score"] for record in column_records) for column_records in records]
    kept = ([{"seed": seed, "values": [column_records[i] for column_records in records]}
             for i, seed in enumerate(seeds)] if keep_records else [])
    return Tally(len(seeds), values, versus, rows, scores, kept)


def merge(total: Tally, part: Tally) -> Tally:
    """`total` with `part`'s games after its own (merged in place and returned)."""
    if not total.values:
        total.values = [{} for _ in part.values]
        total.versus = [{} for _ in part.versus]
        total.rows = [{} for _ in part.rows]
        total.winning_scores = [Counter() for _ in part.winning_scores]
    for c in range(len(part.values)):
        total.rows[c].update(part.rows[c])
    modes = {key: meta[1] for column_rows in total.rows for key, meta in column_rows.items()}
    for into, more in zip(total.values + total.versus, part.values + part.versus):
        for key in sorted(into.keys() | more.keys()):
            zero = missing_means_zero(modes.get(key, "core"))
            before, after = into.get(key), more.get(key)
            if before is None and zero:  # the games so far had none of its events: 0 each
                before = Moments.zeros(total.games)
            if after is None and zero:
                after = Moments.zeros(part.games)
            into[key] = after if before is None else before if after is None else before.merge(after)
    for into, more in zip(total.winning_scores, part.winning_scores):
        into.update(more)
    total.records += part.records
    total.games += part.games
    return total
