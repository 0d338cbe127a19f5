"""The games progress bar of the long commands (`compare`, `arena`): on stderr, only when it
is a terminal (a pipe or a file gets nothing), with games per second; gone when done."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def games_progress(total: int, decimals: int = 0) -> Iterator[Callable[[int], None] | None]:
    """A callback advancing the bar by n games, or None when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    with progress:
        task = progress.add_task("games", total=total, rate="")

        def advance(n: int) -> None:
            progress.advance(task, n)
            elapsed = progress.tasks[0].elapsed or 0
            if elapsed > 0:
                progress.update(task, rate=f"{progress.tasks[0].completed / elapsed:,.{decimals}f} games/s")

        yield advance
