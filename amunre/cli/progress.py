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


def play_on_executor(workers: int | None, scheduler: str | None, total: int, play, decimals: int = 0):
    """Run `play(executor, advance)` on the executor the flags name, with the progress bar;
    returns what it returned and the executor's description.

    The first Ctrl-C (or SIGTERM) stops the run, which returns what finished (its
    `interrupted` says so); any after it only hurries the stop (see `_first_stop_only`), so
    that the command still reports the games finished and exits 130."""
    from amunre.compare.executors import make_executor

    with _first_stop_only():
        with make_executor(workers, scheduler) as executor, games_progress(total, decimals=decimals) as advance:
            return play(executor, advance), executor.description


@contextlib.contextmanager
def _first_stop_only() -> Iterator[None]:
    """For the block, Ctrl-C's and SIGTERM's handlers act once: the first raises as ever, and
    any after it is dropped. A second Ctrl-C at a run being stopped would otherwise land
    anywhere in the stop and escape it as a bare "interrupted", the games finished untold;
    the local pool hears it meanwhile as "kill the workers now" (its own handlers, set
    while it stops). Only in the main thread, for signals with a Python handler."""
    from amunre.compare.executors.signals import handlers_replaced

    stopped: list[int] = []

    def once(signum, handler):
        def first_only(number, frame):
            if not stopped:
                stopped.append(number)
                handler(number, frame)

        return first_only

    with handlers_replaced(once):
        yield
