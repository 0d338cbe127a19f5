"""The executor interface (`Executor`), what every executor shares (closing, checking its
tasks, the CPUs this process may use), and the executor of this process (`InProcessExecutor`):
what `amunre.compare.executors` and its pool and Dask executors stand on."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, Protocol, runtime_checkable

from amunre.core import arguments


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
