"""`Moments.of` takes shortcuts for compare's many rows of alike numbers: they must give the very
bits the general formula gives (the report's numbers do not change with them)."""

from __future__ import annotations

import math
import random

import pytest

from amunre.compare.stats import Moments


def general(values: list) -> tuple:
    """The moments as the general case works them out: an exact sum, then the deviations."""
    n = len(values)
    mean = math.fsum(values) / n
    if min(values) == mean == max(values):
        return n, mean, 0.0
    return n, mean, math.fsum([(v - mean) ** 2 for v in values])


def bits(number: float) -> tuple:
    """A float told apart from every other, -0.0 from 0.0 and NaN equal to NaN."""
    return ("nan",) if number != number else (number, math.copysign(1.0, number), type(number))


EDGES = [[0] * 5, [0.0, -0.0], [-0.0, -0.0], [-0.0, 0], [0, 0.0], [3] * 7, [3, 3.0], [0.1] * 3, [1 / 3] * 7,
         [2 ** 60] * 3, [2 ** 52] * 4, [1.0, math.nan], [0, math.nan], [math.nan] * 2, [True, True],
         [True, False, 2], [1, 2, 3], [1.5, 2], [math.inf] * 2, [math.inf, 1], [-4] * 9]


def drawn(count: int) -> list[list]:
    rng = random.Random(37)
    out = []
    for _ in range(count):
        size = rng.randint(1, 40)
        pick = rng.choice([lambda: rng.randint(-5, 30), lambda: rng.choice([0, 0.0, 2, 2.0, 1 / 3]),
                           lambda: rng.random() * 100, lambda: rng.randint(0, 3) / 4, lambda: 7])
        out.append([pick() for _ in range(size)])
    return out


@pytest.mark.parametrize("values", EDGES + drawn(400))
def test_moments_equal_the_general_formula_bit_for_bit(values):
    found = Moments.of(values)
    n, mean, m2 = general(values)
    assert found.n == n
    assert bits(found.mean) == bits(mean), values
    assert bits(found.m2) == bits(m2), values
