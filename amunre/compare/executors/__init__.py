"""Where batches of games run: the executor interface, `make_executor`, and this process.

An executor calls `fn(*task)` for every task and yields `(index, result)` as each finishes,
in whatever order they finish. `amunre compare` hands it `amunre.compare.jobs.play_batch`
and tasks `(job, seeds)`; a task is plain data, so the same task gives the same result on
any executor: determinism comes from the seeds, never from which worker ran a batch or when.
Callers that need an order sort by index.

- `InProcessExecutor`: one at a time, in this process (`--workers 1`), here;
- `ProcessExecutor`: a pool of local processes (`--workers W`, by default one per usable CPU),
  in `amunre.compare.executors.processes`;
- `DaskExecutor`: the workers of a running Dask scheduler (`--scheduler tcp://HOST:PORT`),
  in `amunre.compare.executors.on_dask` (`distributed`, behind the dask extra, is imported
  there only when a Dask executor is made or run).

Stopping early is always safe: closing `run`'s generator, an exception from `fn` or a
Ctrl-C while iterating cancels every task not yet started and stops local workers that are
still busy, so nothing hangs and no process is left behind. An exception raised by `fn` in a
worker is raised again in the caller. `make_executor` picks one from the command line's
options. Use an executor as a context manager (or call `close`) to release its workers.
All three are importable from here: `from amunre.compare.executors import make_executor,
ProcessExecutor, DaskExecutor`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, Protocol, runtime_checkable

from amunre.core import arguments

__all__ = ["DaskExecutor", "Executor", "InProcessExecutor", "ProcessExecutor", "checked_tasks", "make_executor",
           "usable_cpus"]


@runtime_checkable
class Executor(Protocol):
    """Runs batches: `workers` at once, described for the user by `description`."""

    workers: int
    description: str

    def run(self, fn: Callable[..., Any], tasks: list[tuple]) -> Iterator[tuple[int, Any]]:
        """Call fn(*tasks[i]) for every i, in parallel; yield (i, result) as each finishes."""

    def close(self) -> None:
        """Release the workers; tasks still under way are cancelled."""

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc) -> None: ...


class _Closing:
    """`with executor:` closes it at the end, however the block ends."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, not the machine's count: a
    container or `taskset` often allows fewer)."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def make_executor(workers: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor for `--workers` and `--scheduler`: the Dask cluster when a scheduler is
    given (its workers, not `workers`, set the parallelism); otherwise `workers` local
    processes, by default one per usable CPU, and this process alone for 1."""
    if workers is not None:
        workers = arguments.whole_number("workers", workers, low=1, expected="a number of worker processes, 1 or "
                                         "more", hint="or None: one per usable CPU")
    if scheduler is not None:
        return DaskExecutor(arguments.text("scheduler", scheduler, "expected a Dask scheduler's address, "
                                           "tcp://HOST:PORT, or None for local processes"))
    if workers is None:
        workers = usable_cpus()
    return InProcessExecutor() if workers == 1 else ProcessExecutor(workers)


def checked_tasks(fn: object, tasks: object) -> list[tuple]:
    """`Executor.run`'s arguments, checked before any task runs: `fn` a callable (a module's
    function, for a worker elsewhere to import), `tasks` a list of argument tuples."""
    if not callable(fn):
        raise arguments.wrong_type("fn", fn, "a callable", "expected a module's function, e.g. play_batch")
    listed = arguments.listed("tasks", tasks, "a list of argument tuples", "expected e.g. [(jobs, 0, 0, 100)]")
    for i, task in enumerate(listed):
        if not isinstance(task, tuple):
            raise arguments.wrong_type(f"tasks[{i}]", task, "a tuple of fn's arguments")
    return listed


class InProcessExecutor(_Closing):
    """Runs the tasks one after another in this process: no start-up cost and nothing to
    pickle, the simplest path to debug."""

    workers = 1
    description = "this process"

    def run(self, fn, tasks):
        for i, task in enumerate(checked_tasks(fn, tasks)):
            yield i, fn(*task)

    def close(self) -> None:
        pass


# The other two executors build on `_Closing` and `checked_tasks` above, so they are imported
# once those are defined (`make_executor` and the names this package offers need them).
from amunre.compare.executors.on_dask import DaskExecutor  # noqa: E402
from amunre.compare.executors.processes import ProcessExecutor  # noqa: E402
