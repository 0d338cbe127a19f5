"""The statistics of `amunre compare`, written out (no SciPy): means with Student-t
confidence intervals, Wilson intervals for every proportion of games (win rates), the paired
t-test on common random numbers (Newcombe's paired score interval for a difference of two
proportions), and Holm's correction over the rows of a table.

Why these: every variant plays the same seeds, so the per-game difference between two
variants removes most of the luck of the deal, and a paired test on those differences is
far more sensitive than comparing two means. Holm's step-down correction keeps the chance
of marking any row of a column by luck at 5% or less, without Bonferroni's loss of power.
"""

from __future__ import annotations

import math
from functools import lru_cache

import attrs

#: Two-sided level of every interval and test.
LEVEL = 0.95
#: Integers below this add up exactly in a float (2 ** 53).
_EXACT = 2 ** 53


@attrs.frozen
class Estimate:
    """A mean with its spread and a 95% interval over `n` games."""

    mean: float
    sd: float
    low: float
    high: float
    n: int


@attrs.frozen
class Paired:
    """A column against the first on the same seeds: mean difference, its interval, and the
    paired t-test's two-sided p-value (`p_holm` after Holm's correction over the rows)."""

    diff: float
    low: float
    high: float
    p: float
    n: int
    p_holm: float = 1.0
    #: the per-game correlation of the two columns, and the paired interval's width over the
    #: unpaired one's (`pairing_of`): what common random numbers bought on this row
    correlation: float = math.nan
    pairing: float = math.nan

    @property
    def significant(self) -> bool:
        return self.p_holm < 1 - LEVEL


@attrs.frozen
class Moments:
    """Count, mean and sum of squared deviations of some values: what an estimate needs,
    kept without the values. Two are merged exactly as their values would be pooled (Chan,
    Golub and LeVeque's pairwise update), so a comparison streams batch after batch in
    bounded memory; merged in the same order, the same batches give the same bits."""

    n: int
    mean: float
    m2: float

    @classmethod
    def of(cls, values) -> Moments:
        if type(values) is not list:  # (a list is only read: not copied)
            values = list(values)
        n = len(values)
        if not n:
            return cls(0, math.nan, 0.0)
        first = values[0]
        alike = values.count(first) == n  # (one pass; min and max would take two)
        if alike and (first == 0 or (type(first) is int and abs(first) * n < _EXACT)):
            # all alike and whole (a row of zeros, often: compare has many): n times an integer
            # sums exactly, so its mean is the integer itself, as `fsum` would give it
            return cls(n, float(first) if first else 0.0, 0.0)
        mean = math.fsum(values) / n
        if alike and first == mean:  # all alike: no deviation to add
            return cls(n, mean, 0.0)
        return cls(n, mean, math.fsum([(v - mean) ** 2 for v in values]))

    @classmethod
    def zeros(cls, n: int) -> Moments:
        """`n` values of 0 (a game without a counted row's events)."""
        return cls(n, 0.0 if n else math.nan, 0.0)

    def merge(self, other: Moments) -> Moments:
        if not other.n:
            return self
        if not self.n:
            return other
        n = self.n + other.n
        delta = other.mean - self.mean
        return Moments(n, self.mean + delta * other.n / n, self.m2 + other.m2 + delta * delta * self.n * other.n / n)

    @property
    def sd(self) -> float:
        """The sample standard deviation (0 for fewer than two values)."""
        return math.sqrt(max(0.0, self.m2) / (self.n - 1)) if self.n >= 2 else (0.0 if self.n else math.nan)


def mean_sd(values) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for fewer than two values)."""
    m = Moments.of(values)
    return m.mean, m.sd


def estimate(values) -> Estimate:
    """Mean, sd and the Student-t 95% interval of the mean."""
    return estimate_of(Moments.of(values))


def estimate_of(m: Moments) -> Estimate:
    if m.n < 2:  # one game has no spread: no sd, no interval
        return Estimate(m.mean, math.nan, math.nan, math.nan, m.n)
    half = t_quantile(m.n - 1) * m.sd / math.sqrt(m.n)
    return Estimate(m.mean, m.sd, m.mean - half, m.mean + half, m.n)


def wilson(successes: float, n: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson's score interval for a proportion (a shared win counts its share). The one
    interval of every proportion: compare's rows of games and the arena's win rates."""
    if n <= 0:
        return math.nan, math.nan
    return _wilson_z(successes, n, normal_quantile(0.5 + level / 2))


def _wilson_z(successes: float, n: int, z: float) -> tuple[float, float]:
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # no success (or no failure) puts that end at 0 (or 1) exactly, not at a rounding error
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def proportion_difference(first: Moments, other: Moments, d: Moments, correlation: float = math.nan) -> Paired:
    """`other` minus `first` for two proportions of the same games (each game a 0 or 1, or a
    share of a win), paired by seed: Newcombe's hybrid score interval for paired proportions
    (1998, his method 10). Each column's Wilson interval gives the distance on its side, and
    the two are combined with the per-game correlation of the columns (the phi coefficient of
    the 2x2 table for 0/1 games; 0 where a column does not vary, as Newcombe sets it). Unlike
    the paired t-interval it never collapses to a point when every game moved alike (5 of 5
    against 0 of 5 is not a certainty) and it holds from one pair on. The difference is the
    mean of the per-game differences (`d`); each side's proportion and its Wilson interval
    are the column's own over its games (the same games where every game has the row). The
    p-value inverts the interval: the largest level at which it still excludes 0."""
    n = d.n
    if n < 1 or first.n < 1 or other.n < 1:
        return Paired(d.mean if n else math.nan, math.nan, math.nan, 1.0, n, correlation=correlation)
    diff = d.mean
    phi = 0.0 if math.isnan(correlation) else correlation
    p1, p2 = first.mean, other.mean

    def bounds(z: float) -> tuple[float, float]:
        l1, u1 = _wilson_z(p1 * first.n, first.n, z)
        l2, u2 = _wilson_z(p2 * other.n, other.n, z)
        below = (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2
        above = (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2
        return max(-1.0, diff - math.sqrt(max(0.0, below))), min(1.0, diff + math.sqrt(max(0.0, above)))

    low, high = bounds(normal_quantile(0.5 + LEVEL / 2))
    if diff == 0:
        p = 1.0
    else:
        # the z at which the end nearer 0 reaches it (the interval widens with z): bisection
        def excludes(z: float) -> bool:
            lo, hi = bounds(z)
            return lo > 0 or hi < 0

        z_low, z_high = 0.0, 40.0
        if excludes(z_high):
            p = 0.0
        else:
            for _ in range(80):
                mid = (z_low + z_high) / 2
                if excludes(mid):
                    z_low = mid
                else:
                    z_high = mid
            p = math.erfc(z_high / math.sqrt(2))
    return Paired(diff, low, high, p, n, correlation=correlation)


def rate(values) -> Estimate:
    """A win rate from per-game shares (0, 1, or 1/k for a k-way shared win), Wilson interval."""
    return rate_of(Moments.of(values))


def rate_of(m: Moments) -> Estimate:
    """A proportion of games: Wilson's interval exists from one game on (a mean's needs two:
    `estimate_of`); the sd only from two."""
    if m.n < 1:
        return Estimate(m.mean, math.nan, math.nan, math.nan, m.n)
    low, high = wilson(m.mean * m.n, m.n)
    return Estimate(m.mean, m.sd if m.n >= 2 else math.nan, low, high, m.n)


def paired(first, other) -> Paired:
    """`other` minus `first`, game by game on the same seeds: the paired t-test."""
    return paired_of(Moments.of(b - a for a, b in zip(first, other)))


def paired_of(d: Moments) -> Paired:
    """The paired t-test from the moments of the per-game differences."""
    n, mean, sd = d.n, d.mean, d.sd
    if n < 2:
        return Paired(mean, math.nan, math.nan, 1.0, n)
    if sd == 0:
        # every game moved by the same amount: certain, unless that amount is nothing
        return Paired(mean, mean, mean, 1.0 if mean == 0 else 0.0, n)
    se = sd / math.sqrt(n)
    t = mean / se
    half = t_quantile(n - 1) * se
    return Paired(mean, mean - half, mean + half, 2 * t_sf(abs(t), n - 1), n)


def pairing_of(first: Moments, other: Moments, d: Moments) -> tuple[float, float]:
    """(correlation, pairing) of two columns on the same seeds, from the moments of each
    and of their per-game difference: var(d) = var(a) + var(b) - 2 cov(a, b). `pairing` is
    the paired interval's width over the width of an interval that ignored the pairing
    (Welch's, of two independent means): below 1 where the seeds share their luck. Exact
    where both columns have a value in every game; for a mean of events a game may lack, an
    estimate from the games each column has. NaN where a column does not vary."""
    var_a, var_b, var_d = first.sd ** 2, other.sd ** 2, d.sd ** 2
    if not (first.n >= 2 and other.n >= 2 and d.n >= 2) or var_a <= 0 or var_b <= 0:
        return math.nan, math.nan
    correlation = max(-1.0, min(1.0, (var_a + var_b - var_d) / (2 * math.sqrt(var_a * var_b))))
    unpaired = math.sqrt(var_a / first.n + var_b / other.n)
    return correlation, (d.sd / math.sqrt(d.n)) / unpaired


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


# -- distributions --------------------------------------------------------------------------


def normal_quantile(p: float) -> float:
    """The standard normal quantile (Acklam's rational approximation, refined by one Newton
    step on erfc: accurate to about 1e-12)."""
    if not 0 < p < 1:
        raise ValueError("p must lie strictly between 0 and 1")
    a = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
         1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
    b = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
         6.680131188771972e+01, -1.328068155288572e+01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
         -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    elif p > 1 - low:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    else:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    return x - e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with `df` degrees of freedom, t >= 0."""
    x = df / (df + t * t)
    return 0.5 * _betainc(df / 2, 0.5, x)


# Kept per (df, level): a table asks for the same few quantiles hundreds of times (every row's interval
# and difference at the same game count), and each is a hundred bisection steps of `t_sf`
@lru_cache(maxsize=4096)
def t_quantile(df: float, level: float = LEVEL) -> float:
    """The two-sided `level` quantile of Student's t (bisection on `t_sf`)."""
    tail = (1 - level) / 2
    low, high = 0.0, 1.0
    while t_sf(high, df) > tail:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if t_sf(mid, df) > tail:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Lentz's continued fraction)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)) / a
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1 - x)
    tiny = 1e-300
    f, c, d = 1.0, 1.0, 0.0
    for i in range(400):
        m = i // 2
        if i == 0:
            numerator = 1.0
        elif i % 2 == 0:
            numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 + numerator * d
        d = tiny if abs(d) < tiny else d
        d = 1.0 / d
        c = 1.0 + numerator / c
        c = tiny if abs(c) < tiny else c
        f *= c * d
        if abs(1.0 - c * d) < 1e-14:
            break
    return front * (f - 1.0)
