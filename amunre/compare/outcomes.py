"""Two one-number rows of how even a game's outcomes are, as Ludii's evaluation defines them
(Ludeme/Ludii, Evaluation/src/metrics/single/outcome; docs/compare.md, "Balance and outcome
uniformity"):

- **Balance**: 1 minus the largest gap between two seats' win rates (1: every seat wins as
  often; 0: one seat always wins, another never). A shared win counts its share here, where
  Ludii credits nobody for a draw.
- **Outcome uniformity**: 1 minus the mean over the seats of the variance of each seat's rank
  utility over the games, the utility running from 1 (first) to -1 (last) in even steps, tied
  players at the mean of the places they share (1: every seat ends in the same place every
  game; lower: results swing from game to game).

Both are functions of the whole run, not means of per-game numbers. Their intervals and paired
differences use each game's linearised contribution (its influence on the number: for
Balance the gap between the seats that win most and least, for uniformity each seat's squared
distance from its mean utility), whose mean is the number itself; Student's interval over
those, and the paired t-test between columns, game by game. They come from the tally's joint
outcomes (`Tally.outcomes`: every column's ranks per game), so they cost no row in the games.
"""

from __future__ import annotations

import math
from collections import Counter

import attrs

from amunre.compare import stats

#: The rows' keys and words.
BALANCE = "balance"
UNIFORMITY = "outcome_uniformity"
LABELS = {
    BALANCE: "balance of the seats' win rates (Ludii's Balance)",
    UNIFORMITY: "outcome uniformity of the seats' ranks (Ludii's)",
}


def utilities(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's rank utility (Ludii's `RankUtils.rankToUtil`): 1 for first, -1 for last,
    even steps between; players tied at rank r (competition ranks: 1 + the players ahead)
    share the mean of the places they fill."""
    n = len(ranks)
    if n < 2:
        return tuple(1.0 for _ in ranks)
    return tuple(1 - (rank + (ranks.count(rank) - 1) / 2 - 1) * 2 / (n - 1) for rank in ranks)


def win_shares(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's share of the win: 1, 1/k of a k-way shared win, or 0."""
    winners = ranks.count(1)
    return tuple(1 / winners if rank == 1 else 0.0 for rank in ranks)


def balance(rates) -> float:
    """Ludii's Balance of the seats' win rates: 1 less the largest gap between two of them."""
    rates = list(rates)
    return 1 - (max(rates) - min(rates))


def outcome_uniformity(games) -> float:
    """Ludii's OutcomeUniformity of per-game utility tuples (one per seat): 1 less the mean
    over the seats of the sample variance of its utility."""
    games = [tuple(game) for game in games]
    seats = list(zip(*games))
    return 1 - sum(stats.Moments.of(seat).sd ** 2 for seat in seats) / len(seats)


@attrs.frozen
class Contributions:
    """Per outcome, a column's linearised contribution to one number (their mean is it)."""

    value: float
    of: dict  # a seed's outcome (its rotations' ranks tuples) -> its contribution


def _games(counts: Counter) -> Counter:
    """Games per ranks tuple, from units (seeds) per tuple of their rotations' ranks."""
    games: Counter = Counter()
    for unit, k in counts.items():
        for ranks in unit:
            games[ranks] += k
    return games


def _per_unit(counts: Counter, per_game: dict) -> dict:
    """A unit's contribution: the mean of its rotations' games' (one observation per seed)."""
    return {unit: sum(per_game[ranks] for ranks in unit) / len(unit) for unit in counts}


def balance_contributions(counts: Counter) -> Contributions | None:
    """Balance over the seeds `counts` holds (their rotations' ranks tuples -> seeds): its
    value, and per seed the mean over its games of 1 less the gap between the seats with the
    highest and the lowest win rate in the column."""
    games = _games(counts)
    n = sum(games.values())
    if not n:
        return None
    seats = len(next(iter(games)))
    rates = [sum(win_shares(ranks)[s] * k for ranks, k in games.items()) / n for s in range(seats)]
    most, least = rates.index(max(rates)), rates.index(min(rates))
    of = {ranks: 1 - (win_shares(ranks)[most] - win_shares(ranks)[least]) for ranks in games}
    return Contributions(balance(rates), _per_unit(counts, of))


def uniformity_contributions(counts: Counter) -> Contributions | None:
    """Outcome uniformity over the games of the seeds `counts` holds: its value, and per seed
    the mean over its games of 1 less the seats' mean squared distance from their mean
    utility (times n/(n-1) over the n games, as the sample variance is)."""
    games = _games(counts)
    n = sum(games.values())
    if n < 2:
        return None
    seats = len(next(iter(games)))
    means = [sum(utilities(ranks)[s] * k for ranks, k in games.items()) / n for s in range(seats)]
    of = {ranks: 1 - sum((u - m) ** 2 for u, m in zip(utilities(ranks), means)) / seats * n / (n - 1)
          for ranks in games}
    value = sum(of[ranks] * k for ranks, k in games.items()) / n
    return Contributions(value, _per_unit(counts, of))


def _moments(weighted) -> stats.Moments:
    """The moments of values given as (value, how many games) pairs."""
    weighted = [(v, k) for v, k in weighted if k]
    n = sum(k for _, k in weighted)
    if not n:
        return stats.Moments(0, math.nan, 0.0)
    mean = math.fsum(v * k for v, k in weighted) / n
    return stats.Moments(n, mean, math.fsum(k * (v - mean) ** 2 for v, k in weighted))


def _within(e: stats.Estimate) -> stats.Estimate:
    return e if math.isnan(e.low) else attrs.evolve(e, low=max(0.0, e.low), high=min(1.0, e.high))


def outcome_rows(comparison, slope: tuple[float, ...] | None) -> list[tuple]:
    """The Balance and outcome uniformity rows as (key, label, values, versus, adjacent,
    trend): every column's value with its interval, its paired difference from the first
    column and from the one before, and with `slope` (a numeric sweep's least-squares weights)
    its slope (Holm's correction not yet: `run.summarize` makes them rows of the table)."""
    joint: Counter = comparison.tally.outcomes
    joint = Counter({units: k for units, k in joint.items() if units and all(all(unit) for unit in units)})
    columns = len(comparison.columns)
    if not joint:
        return []
    per_column = [Counter() for _ in range(columns)]
    for games, k in joint.items():
        for c in range(columns):
            per_column[c][games[c]] += k
    rows = []
    for key, contributions in ((BALANCE, balance_contributions), (UNIFORMITY, uniformity_contributions)):
        found = [contributions(counts) for counts in per_column]
        if any(f is None for f in found):
            continue
        values = [_within(stats.estimate_of(_moments((f.of[ranks], k) for ranks, k in counts.items())))
                  for f, counts in zip(found, per_column)]

        def compared(c: int, before: int):
            d = _moments((found[c].of[games[c]] - found[before].of[games[before]], k)  # noqa: B023
                         for games, k in joint.items())
            if d.n < 2:
                return None
            first = _moments((found[before].of[games[before]], k) for games, k in joint.items())  # noqa: B023
            other = _moments((found[c].of[games[c]], k) for games, k in joint.items())  # noqa: B023
            correlation, pairing = stats.pairing_of(first, other, d)
            return attrs.evolve(stats.paired_of(d), correlation=correlation, pairing=pairing)

        versus = [None] + [compared(c, 0) for c in range(1, columns)]
        adjacent = [None] * min(2, columns) + [compared(c, c - 1) for c in range(2, columns)]
        trend = None
        if slope is not None:
            m = _moments((sum(w * f.of[g] for w, f, g in zip(slope, found, games)), k) for games, k in joint.items())
            trend = stats.paired_of(m) if m.n >= 2 else None
        rows.append((key, LABELS[key], values, versus, adjacent, trend))
    return rows
