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

from amunre.compare.executors.base import Executor, InProcessExecutor, checked_tasks, usable_cpus
from amunre.compare.executors.on_dask import DaskExecutor
from amunre.compare.executors.processes import ProcessExecutor
from amunre.core import arguments

__all__ = ["DaskExecutor", "Executor", "InProcessExecutor", "ProcessExecutor", "checked_tasks", "make_executor",
           "usable_cpus"]


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
