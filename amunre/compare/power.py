"""How large a difference a comparison could have found, and how many games would find one:
the paired t-test's power (docs/compare.md, "No detectable difference").

For a paired test at two-sided level `alpha` over `n` games whose per-game differences have
standard deviation `sd`, the smallest true difference found with probability `power` is about

    (t(1 - alpha/2; n - 1) + t(power; n - 1)) * sd / sqrt(n)

(the usual approximation to the noncentral t: the far tail, which the test also rejects in, is
left out, so the power is at least the one asked). `games_needed` inverts it: the fewest games
whose smallest detectable difference is no larger than the one given.
"""

from __future__ import annotations

import math

from amunre.compare.stats import t_quantile

#: The power the "no detectable difference" figures are given at.
POWER = 0.8
#: The most games `games_needed` answers (a larger need is reported as more than this).
MOST_GAMES = 10**9


def _quantiles(df: float, alpha: float, power: float) -> float:
    # two-sided at 1 - alpha, one-sided at power (the two-sided quantile of level 2 power - 1)
    return t_quantile(df, 1 - alpha) + t_quantile(df, 2 * power - 1)


def detectable(sd: float, n: int, alpha: float, power: float = POWER) -> float:
    """The smallest difference a paired test at `alpha` over `n` games of per-game sd `sd`
    finds with probability `power` (NaN for fewer than two games or no sd)."""
    if n < 2 or not math.isfinite(sd):
        return math.nan
    return _quantiles(n - 1, alpha, power) * sd / math.sqrt(n)


def games_needed(sd: float, difference: float, alpha: float, power: float = POWER) -> int | None:
    """The fewest games (at least 2) whose paired test at `alpha` finds `difference` with
    probability `power`, for per-game differences of sd `sd`; None where it is more than
    `MOST_GAMES` (or the sd is unknown)."""
    if not math.isfinite(sd) or difference <= 0:
        return None
    if sd == 0:
        return 2
    # the normal approximation first (a t with very many degrees of freedom), then the few
    # extra games the t's heavier tails ask for
    n = max(2, math.ceil((_quantiles(10**7, alpha, power) * sd / difference) ** 2))
    if n > MOST_GAMES:
        return None
    while detectable(sd, n, alpha, power) > difference:
        n += 1
    return n
