"""Merge the results of a run's tasks in task order, whatever order they finish in.

`amunre compare` and `amunre arena` cut a run into batches and merge each batch's tally
into the total. Floating-point sums depend on their order, so merging in batch order is
what makes a run's numbers the same bits for any worker count or scheduler. A Ctrl-C or
SIGTERM stops the run; the batches finished by then are merged (in task order too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator


def merge_in_order(results: Iterator[tuple[int, object]], merge: Callable[[object], None],
                   on_part: Callable[[object], None] | None = None) -> str:
    """Merge each (index, part) of `results` with `merge`, in index order; `on_part` hears of
    each part as it arrives (progress). Returns what stopped the run early:
    "KeyboardInterrupt" (Ctrl-C), "Terminated" (SIGTERM) or "" (nothing)."""
    waiting: dict[int, object] = {}  # parts finished before an earlier one
    next_index = 0
    interrupted = ""
    try:
        for index, part in results:
            waiting[index] = part
            while next_index in waiting:
                merge(waiting.pop(next_index))
                next_index += 1
            if on_part:
                on_part(part)
    except KeyboardInterrupt as stop:
        interrupted = type(stop).__name__  # Terminated (SIGTERM) is a KeyboardInterrupt too
    finally:
        close = getattr(results, "close", None)
        if close:
            close()
    for index in sorted(waiting):  # after a stop: the parts that did finish
        merge(waiting[index])
    return interrupted
