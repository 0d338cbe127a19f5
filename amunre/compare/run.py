"""Run a comparison: the same seeds for every column, in batches, then one summary per row.

A column is a variant (or one value of a `--sweep`) with the lineup of agents. Game i of
every column is played with seed `game_seed(S, i)` (common random numbers), so a column's
difference from the first is measured game by game. Batches of seeds go to an executor
(`amunre.compare.executors`) in an order that alternates the columns, so that an
interrupted run still holds whole pairs; only seeds every column finished are reported.
Nothing depends on the worker count or the order batches finish in.
"""

from __future__ import annotations

import math
import time
from typing import Callable

import attrs

from amunre.compare import stats
from amunre.compare.collect import CORE_ROWS, core_label, missing_means_zero, seat_key
from amunre.compare.jobs import Job, play_batch

_MASK = (1 << 64) - 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed` (SplitMix64 of the pair): runs seeded
    0 and 1 share no games, and any game can be replayed alone with `amunre run --seed`."""
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) >> 1  # 63 bits: any seed `amunre run` takes


@attrs.define
class Column:
    """One column: what it is called, the variant, and the job its games run as."""

    label: str
    variant: object
    job: Job
    setting: str = ""  # the `--sweep` KEY=VALUE of this column, if any


@attrs.define
class Row:
    """One row of the table: a number per column, and each column against the first."""

    key: str
    label: str
    kind: str  # "mean", "rate" (a Wilson interval) or "share"
    values: list  # an Estimate per column, None where the column has no such number
    versus: list  # a Paired per column (None for the first and where not comparable)


@attrs.define
class Comparison:
    columns: list[Column]
    players: int
    agents: tuple
    seed: int
    games_asked: int
    seeds: list[int]  # the seeds every column finished, in game order
    records: list[dict]  # per column: seed -> values
    rows_meta: list[dict]  # per column: row key -> (label, per_game mode)
    interrupted: str = ""  # what stopped it early: "KeyboardInterrupt" (Ctrl-C) or "Terminated" (SIGTERM)
    elapsed: float = 0.0

    @property
    def games(self) -> int:
        return len(self.seeds)


def batch_size(games: int, columns: int, workers: int) -> int:
    """Games per batch: big enough that scheduling costs little, small enough that every
    worker gets several batches (so all finish together) and progress moves."""
    per_worker = games * columns / max(1, workers)
    return max(1, min(250, math.ceil(per_worker / 8)))


def run_comparison(columns: list[Column], games: int, seed: int, executor,
                   on_progress: Callable[[int], None] | None = None) -> Comparison:
    """Play `games` seeds in every column on `executor`; a KeyboardInterrupt stops it and the
    games finished in every column so far are kept (`interrupted` says so)."""
    seeds = [game_seed(seed, i) for i in range(games)]
    size = batch_size(games, len(columns), executor.workers)
    batches = [seeds[i:i + size] for i in range(0, games, size)]
    tasks, owners = [], []
    for batch in batches:  # column by column within each batch of seeds: pairs finish together
        for c, column in enumerate(columns):
            tasks.append((column.job, batch))
            owners.append(c)
    records: list[dict] = [{} for _ in columns]
    meta: list[dict] = [{} for _ in columns]
    interrupted = ""
    start = time.perf_counter()
    results = executor.run(play_batch, tasks)
    try:
        for index, (batch_records, rows) in results:
            c = owners[index]
            meta[c].update(rows)
            for record in batch_records:
                records[c][record["seed"]] = record["values"]
            if on_progress:
                on_progress(len(batch_records))
    except KeyboardInterrupt as stop:
        interrupted = type(stop).__name__  # Terminated (SIGTERM) or KeyboardInterrupt (Ctrl-C)
    finally:
        close = getattr(results, "close", None)
        if close:
            close()
    done = [s for s in seeds if all(s in column_records for column_records in records)]
    return Comparison(columns, columns[0].job.players, columns[0].job.agents, seed, games, done, records, meta,
                      interrupted, time.perf_counter() - start)


# -- the table ------------------------------------------------------------------------------


def _row_order(key: str, item_order: dict) -> tuple:
    if key in CORE_ROWS:
        return (0 if key == "winning_score" else 4, list(CORE_ROWS).index(key), 0, key)
    if key.startswith("win.seat"):
        return (1, int(key[len("win.seat"):]), 0, key)
    if key.startswith("points."):
        return (2, item_order.get(key[len("points."):], len(item_order)), 0, key)
    group, _, rest = key.partition(".")
    return (3, 0, group, int(rest) if rest.isdigit() else rest)


def _has_row(meta: dict, key: str, mode: str, groups: dict) -> bool:
    """Whether a column's rules give this row: the game's own rows always; a module's row
    when seen in its games, or when it is a share of a statistic seen there (an offering
    level no game of this column reached is a share of 0, not a missing row)."""
    if key in CORE_ROWS or key.startswith("win.") or key in meta:
        return True
    return mode == "share" and any(template == groups[key] for _, _, template in meta.values())


def summarize(comparison: Comparison) -> list[Row]:
    """Every row, in table order: the game's own, the seats' win rates, points per scoring
    item (in the first column's order), the modules' other statistics; Holm over the rows
    of each column."""
    columns = comparison.columns
    seeds = comparison.seeds
    modes: dict[str, str] = {}
    labels: dict[str, str] = {}
    for c, column in enumerate(columns):
        for key in CORE_ROWS:
            labels.setdefault(key, core_label(column.variant, key))
            modes.setdefault(key, "core")
        for seat in range(comparison.players):
            labels.setdefault(seat_key(seat), core_label(column.variant, seat_key(seat)))
            modes.setdefault(seat_key(seat), "rate")
        for key, (label, mode, _) in comparison.rows_meta[c].items():
            labels.setdefault(key, label)
            modes.setdefault(key, mode)
    groups = {key: meta[2] for column_meta in comparison.rows_meta for key, meta in column_meta.items()}
    item_order: dict[str, int] = {}
    for column in columns:
        for item in column.variant.modules.item_labels:
            item_order.setdefault(item, len(item_order))
    rows = []
    for key in sorted(labels, key=lambda k: _row_order(k, item_order)):
        mode = modes[key]
        per_column = []
        for c, column in enumerate(columns):
            if not _has_row(comparison.rows_meta[c], key, mode, groups):
                per_column.append(None)  # not a statistic of this column's rules
                continue
            zero = missing_means_zero(mode)
            per_column.append([comparison.records[c][s].get(key, 0.0 if zero else None) for s in seeds])
        values = []
        for column_values in per_column:
            if column_values is None:
                values.append(None)
                continue
            present = [v for v in column_values if v is not None]
            if not present:
                values.append(None)
            elif mode == "rate" or key == "tie_break":
                values.append(stats.rate(present))
            elif mode == "share":  # a share lies in [0, 1], whatever Student's interval says
                e = stats.estimate(present)
                values.append(attrs.evolve(e, low=max(0.0, e.low), high=min(1.0, e.high)))
            else:
                values.append(stats.estimate(present))
        versus = [None]
        for column_values in per_column[1:]:
            first = per_column[0]
            if first is None or column_values is None:
                versus.append(None)
                continue
            pairs = [(a, b) for a, b in zip(first, column_values) if a is not None and b is not None]
            versus.append(stats.paired([a for a, _ in pairs], [b for _, b in pairs]) if len(pairs) >= 2 else None)
        kind = "rate" if mode == "rate" or key == "tie_break" else "share" if mode == "share" else "mean"
        rows.append(Row(key, labels[key], kind, values, versus))
    for c in range(1, len(columns)):
        tested = [row for row in rows if row.versus[c] is not None]
        for row, adjusted in zip(tested, stats.holm([row.versus[c].p for row in tested])):
            row.versus[c] = attrs.evolve(row.versus[c], p_holm=adjusted)
    return rows
