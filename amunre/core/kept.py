"""What a long-lived process keeps of things it may be asked for again, in bounded memory: an
`OrderedDict` used least recently first (an entry asked for again is moved to the end), trimmed
to its most recent entries. The server's caches and compare's per-process variants share it."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


def keep_most_recent(kept: OrderedDict[Any, Any], most: int) -> None:
    """Drop the least recently used entries of `kept` beyond `most`."""
    while len(kept) > most:
        kept.popitem(last=False)
