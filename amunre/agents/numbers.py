"""How an agent spec's parameters read a number (`mcts:iterations=200`): plain decimals only."""

from __future__ import annotations

import math
import re

#: A plain decimal number: no underscores, exponents or digits of other scripts.
_PLAIN_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")


def plain_number(text: str) -> float:
    """An agent parameter's number: a plain decimal of at most 20 characters, else NaN, which
    every range check refuses (`float` would take `1_0`, `1e400` or an Arabic-Indic digit)."""
    return float(text) if len(text) <= 20 and _PLAIN_NUMBER.fullmatch(text) else math.nan
