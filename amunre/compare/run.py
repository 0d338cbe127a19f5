"""Run a comparison: the same seeds for every column, in batches, then one summary per row.

A column is a variant (or one value of a `--sweep`) with the lineup of agents. Game i of
every column is played with seed `game_seed(S, i)` (common random numbers), so a column's
difference from the first is measured game by game. Batches of games go to an executor
(`amunre.compare.executors`); a batch plays its games in every column, so an interrupted
run still holds whole pairs. The batches' tallies are merged in batch order
(`amunre.compare.tally`): memory stays bounded however many games, and nothing depends on
the worker count or the order batches finish in.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import attrs

from amunre.compare import stats
from amunre.compare.collect import (
    CORE_RATES,
    CORE_ROWS,
    ITEM_ROWS,
    core_label,
    kingdom_of,
    missing_means_zero,
    seat_key,
)
from amunre.compare.jobs import Job, game_seed, play_batch, rotations  # noqa: F401 (game_seed: the run's seeds)
from amunre.compare.kingdom_words import kingdom_name, kingdom_words
from amunre.compare.ordered import merge_in_order
from amunre.compare.tally import Tally, merge, slope_weights
from amunre.core import arguments


@attrs.define
class Column:
    """One column: what it is called, the variant, and the job its games run as."""

    label: str
    variant: object
    job: Job
    setting: str = ""  # the `--sweep` KEY=VALUE of this column, if any
    #: the variant as the user named it (`amunre.cli.file_names.variant_shown`): a shipped
    #: variant's id, a designer's file by the path he gave; "" where not known
    named: str = ""


@attrs.define
class Row:
    """One row of the table: a number per column, and each column against the first."""

    key: str
    label: str
    kind: str  # "mean", "rate" (a proportion of games: Wilson's interval, Newcombe's for a Δ) or "share"
    values: list  # an Estimate per column, None where the column has no such number
    versus: list  # a Paired per column (None for the first and where not comparable)
    adjacent: list = attrs.Factory(list)  # a Paired per column against the one before it (a sweep's steps)
    trend: object = None  # a numeric sweep's slope per unit of the swept value (a Paired), else None
    #: a by-kingdom row's (`summarize_by_kingdom`): its kingdom (from 0), the whole game's row
    #: it splits, and per column that kingdom's name there (None where the column has no such kingdom)
    kingdom: int | None = None
    row: str = ""
    kingdoms: list = attrs.Factory(list)


@attrs.define
class Comparison:
    columns: list[Column]
    players: int
    agents: tuple
    seed: int
    games_asked: int
    tally: Tally  # the finished games, every column
    interrupted: str = ""  # what stopped it early: "KeyboardInterrupt" (Ctrl-C) or "Terminated" (SIGTERM)
    elapsed: float = 0.0
    settings: tuple = ()  # the `--set KEY=VALUE` texts applied to every column

    @property
    def games(self) -> int:
        return self.tally.games


#: Batches a run is cut into at least (when it has that many games), so that every worker of
#: a usual cluster gets several and all finish together.
BATCHES = 64


def batch_size(games: int) -> int:
    """Games per batch: big enough that scheduling costs little, small enough that the work
    spreads and progress moves. It depends on the games alone, never on the workers, so the
    same batches merge in the same order whatever runs them (`amunre.compare.tally`)."""
    games = arguments.whole_number("games", games, low=0)
    return max(1, min(250, math.ceil(games / BATCHES)))


def run_comparison(columns: list[Column], games: int, seed: int, executor,
                   on_progress: Callable[[int], None] | None = None, keep_records: bool = False,
                   settings=()) -> Comparison:
    """Play `games` games in every column on `executor`; a KeyboardInterrupt stops it and the
    batches finished so far are kept (`interrupted` says so). A batch plays its seeds in
    every column, so what is kept is always whole pairs. A mixed lineup plays each seed in
    every rotation over the seats (`jobs.rotations`): `games` rounded up to whole rotations.
    `settings` are the `--set` texts the columns were loaded with, recorded for the report."""
    jobs = tuple(column.job for column in columns)
    seeds = math.ceil(games / rotations(jobs[0].agents))
    size = batch_size(seeds)
    xs = swept_values(columns)
    slope = slope_weights(xs) if xs else None
    tasks = [(jobs, seed, first, min(size, seeds - first), keep_records, slope) for first in range(0, seeds, size)]
    total = Tally()
    start = time.perf_counter()
    interrupted = merge_in_order(executor.run(play_batch, tasks), lambda part: merge(total, part),
                                 (lambda part: on_progress(part.games * len(columns))) if on_progress else None)
    return Comparison(columns, columns[0].job.players, columns[0].job.agents, seed, games, total,
                      interrupted, time.perf_counter() - start, tuple(settings))


def swept_values(columns: list[Column]) -> list[float] | None:
    """A sweep's values when every one is a number (its columns' `KEY=VALUE` settings), in
    column order; None for anything else (variants side by side, a sweep of lists or words)."""
    import tomllib

    if len(columns) < 2 or not all(column.setting for column in columns):
        return None
    xs = []
    for column in columns:
        try:
            value = tomllib.loads("x = " + column.setting.partition("=")[2].strip())["x"]
        except tomllib.TOMLDecodeError:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        xs.append(float(value))
    return xs


# -- the table ------------------------------------------------------------------------------


def _row_order(key: str, item_order: dict) -> tuple:
    if key in CORE_ROWS:  # how the game was won first, its length and gold last
        return (4 if key in ("gold_end", "rounds", "decisions") else 0, list(CORE_ROWS).index(key), 0, key)
    if key.startswith("win.seat"):
        return (1, int(key[len("win.seat"):]), 0, key)
    if key.startswith("win.agent."):
        return (1, 1000, 0, key)
    if key.startswith("points."):
        return (2, item_order.get(key[len("points."):], len(item_order)), 0, key)
    for rank, prefix in enumerate(ITEM_ROWS):  # the strategy rows: by kind, each in item order
        if key.startswith(prefix):
            return (3, rank, item_order.get(key[len(prefix):], len(item_order)), key)
    group, _, rest = key.partition(".")
    return (3, len(ITEM_ROWS), group, int(rest) if rest.isdigit() else rest)


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
    of each column. The by-kingdom rows are apart (`summarize_by_kingdom`)."""
    columns = comparison.columns
    rows_meta = comparison.tally.rows or [{} for _ in columns]
    modes: dict[str, str] = {}
    labels: dict[str, str] = {}
    for c, column in enumerate(columns):
        for key in CORE_ROWS:
            labels.setdefault(key, core_label(column.variant, key))
            modes.setdefault(key, "core")
        for seat in range(comparison.players):
            labels.setdefault(seat_key(seat), core_label(column.variant, seat_key(seat)))
            modes.setdefault(seat_key(seat), "rate")
        for key, (label, mode, _) in rows_meta[c].items():
            if kingdom_of(key) is None:
                labels.setdefault(key, label)
                modes.setdefault(key, mode)
    item_order = _item_order(columns)
    rows = _rows(comparison, sorted(labels, key=lambda k: _row_order(k, item_order)), labels, modes)
    # the one-number balance rows after the seats' win rates, in the same Holm family
    from amunre.compare.outcomes import outcome_rows

    after = max((i + 1 for i, row in enumerate(rows) if row.key.startswith("win.")), default=len(rows))
    xs = swept_values(columns)
    rows[after:after] = [Row(key, label, "mean", values, versus, adjacent, trend) for key, label, values, versus,
                         adjacent, trend in outcome_rows(comparison, slope_weights(xs) if xs else None)]
    _adjust(rows, len(columns))
    return rows


def summarize_by_kingdom(comparison: Comparison) -> list[Row]:
    """The rule modules' rows per kingdom, a row per statistic and kingdom (the statistic's
    kingdoms together, in the main table's order), the kingdoms compared by their place in the
    game: the label names the kingdom in each column's words where they differ, and says which
    columns have no such kingdom (their cell is empty). Holm's correction runs over these rows
    as a family of their own, apart from the main table's (docs/compare.md, "By kingdom")."""
    columns = comparison.columns
    rows_meta = comparison.tally.rows or [{} for _ in columns]
    modes: dict[str, str] = {}
    labels: dict[str, str] = {}
    place: dict[str, tuple[int, str]] = {}
    for column_meta in rows_meta:
        for key, (label, mode, _) in column_meta.items():
            found = kingdom_of(key)
            if found is not None and key not in labels:
                labels[key], modes[key], place[key] = label, mode, found
    item_order = _item_order(columns)
    ordered = sorted(labels, key=lambda k: (_row_order(place[k][1], item_order), place[k][0]))
    rows = _rows(comparison, ordered, labels, modes)
    for row in rows:
        row.kingdom, row.row = place[row.key]
        row.kingdoms = [kingdom_name(column.variant, row.kingdom) for column in columns]
        row.label = f"{row.label}, {kingdom_words(columns, row.kingdom, row.kingdoms)}"
    _adjust(rows, len(columns))
    return rows


def _item_order(columns) -> dict[str, int]:
    item_order: dict[str, int] = {}
    for column in columns:
        for item in column.variant.modules.item_labels:
            item_order.setdefault(item, len(item_order))
    return item_order


def _rows(comparison: Comparison, keys: list[str], labels: dict[str, str], modes: dict[str, str]) -> list[Row]:
    """The rows of `keys`, in that order: each column's estimate, its paired difference from the
    first column and from the one before, a numeric sweep's trend (Holm's correction not yet)."""
    columns = comparison.columns
    tally = comparison.tally
    rows_meta = tally.rows or [{} for _ in columns]
    groups = {key: meta[2] for column_meta in rows_meta for key, meta in column_meta.items()}

    def moments(found: dict, key: str, mode: str):
        m = found.get(key) if found else None
        if m is None and missing_means_zero(mode):  # no game had its events: 0 in each
            m = stats.Moments.zeros(tally.units)
        return m if m is not None and m.n else None

    rows = []
    for key in keys:
        mode = modes[key]
        # a proportion of games ("rate": each game 0 or 1, or a share of a win) has Wilson's
        # interval; with rotations a seed's number is the mean of its rotations', still in
        # [0, 1], and Wilson's interval over the seeds holds for it too (a value in [0, 1] of
        # mean p varies at most as p(1 - p) does): wider than Student's, never collapsed to a
        # point. A share within a game (of the points, of the rounds) is a mean: Student's.
        kind = "rate" if mode == "rate" or key in CORE_RATES else "share" if mode in ("share", "fraction") else "mean"
        has = [_has_row(rows_meta[c], key, mode, groups) for c in range(len(columns))]
        values = []
        for c in range(len(columns)):
            m = moments(tally.values[c], key, mode) if has[c] and tally.values else None
            if m is None:
                values.append(None)
            elif kind == "rate":
                values.append(stats.rate_of(m))
            elif kind == "share":  # a share lies in [0, 1], whatever Student's interval says
                e = stats.estimate_of(m)  # a mean of per-game shares: no interval from one game
                if not math.isnan(e.low) and e.sd == 0:
                    # the same share in every game (an item nobody scored: 0 each time) is no
                    # certainty: Wilson's interval, which holds for any mean of values in [0, 1]
                    low, high = stats.wilson(m.mean * m.n, m.n)
                    values.append(attrs.evolve(e, low=low, high=high))
                else:
                    values.append(e if math.isnan(e.low) else
                                  attrs.evolve(e, low=max(0.0, e.low), high=min(1.0, e.high)))
            else:
                values.append(stats.estimate_of(m))
        # (called within this iteration only: the row's key, mode and columns are this one's)
        def compared(found: list, c: int, before: int):
            d = moments(found[c], key, mode) if has[before] and has[c] and found else None  # noqa: B023
            if d is None or d.n < (1 if kind == "rate" else 2):  # noqa: B023
                return None
            first = moments(tally.values[before], key, mode) or stats.Moments.zeros(0)  # noqa: B023
            other = moments(tally.values[c], key, mode) or stats.Moments.zeros(0)  # noqa: B023
            correlation, pairing = stats.pairing_of(first, other, d)
            if kind == "rate":  # noqa: B023 (two proportions of the same seeds: Newcombe's paired interval)
                return attrs.evolve(stats.proportion_difference(first, other, d, correlation), pairing=pairing)
            return attrs.evolve(stats.paired_of(d), correlation=correlation, pairing=pairing)

        versus = [None] + [compared(tally.versus, c, 0) for c in range(1, len(columns))]
        # the second column's step is its difference from the first (filled in after Holm)
        adjacent = [None] * min(2, len(columns)) + [compared(tally.adjacent, c, c - 1) for c in range(2, len(columns))]
        slope = moments(tally.trend, key, mode) if tally.trend and all(has) else None
        trend = stats.paired_of(slope) if slope is not None and slope.n >= 2 else None
        if any(value is not None for value in values):  # a row no column has says nothing
            rows.append(Row(key, labels[key], kind, values, versus, adjacent, trend))
    return rows


def _adjust(rows: list[Row], columns: int) -> None:
    """Holm's correction over the rows as families, in place: every difference from the first
    column; every step between neighbouring columns; every trend."""
    _holm([(row.versus, c) for row in rows for c in range(1, columns) if row.versus[c] is not None])
    _holm([(row.adjacent, c) for row in rows for c in range(2, columns) if row.adjacent[c] is not None])
    if columns > 1:
        for row in rows:
            row.adjacent[1] = row.versus[1]
    trends = [row for row in rows if row.trend is not None]
    for row, adjusted in zip(trends, stats.holm([row.trend.p for row in trends])):
        row.trend = attrs.evolve(row.trend, p_holm=adjusted)


def _holm(family: list[tuple[list, int]]) -> None:
    """Holm's correction over a family of tests, each `(list, index)` of a Paired, in place."""
    for (found, c), adjusted in zip(family, stats.holm([found[c].p for found, c in family])):
        found[c] = attrs.evolve(found[c], p_holm=adjusted)
