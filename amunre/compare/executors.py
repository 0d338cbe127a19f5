"""Where batches of games run: this process, local processes, or a Dask cluster.

An executor calls `fn(*task)` for every task and yields `(index, result)` as each finishes,
in whatever order they finish. `amunre compare` hands it `amunre.compare.jobs.play_batch`
and tasks `(job, seeds)`; a task is plain data, so the same task gives the same result on
any executor: determinism comes from the seeds, never from which worker ran a batch or when.
Callers that need an order sort by index.

- `InProcessExecutor`: one at a time, in this process (`--workers 1`);
- `ProcessExecutor`: a pool of local processes (`--workers W`, by default one per usable CPU);
- `DaskExecutor`: the workers of a running Dask scheduler (`--scheduler tcp://HOST:PORT`).

Stopping early is always safe: closing `run`'s generator, an exception from `fn` or a
Ctrl-C while iterating cancels every task not yet started and stops local workers that are
still busy, so nothing hangs and no process is left behind. An exception raised by `fn` in a
worker is raised again in the caller. `make_executor` picks one from the command line's
options. Use an executor as a context manager (or call `close`) to release its workers.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import re
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, runtime_checkable

from amunre.core import arguments
from amunre.core.errors import AmunreError, ArgumentValueError

#: How long `DaskExecutor` tries to reach a scheduler before giving up.
CONNECT_TIMEOUT = 10.0
#: How long a stopped local worker may take to exit before it is killed outright.
STOP_TIMEOUT = 5.0
#: How long a run on a Dask cluster waits while the cluster has no worker at all (they all
#: died or left) before it gives up with an error: time for a restarted worker to come back.
NO_WORKERS_TIMEOUT = 30.0
#: How often a run on a Dask cluster that is waiting for results asks the scheduler for its workers.
WORKERS_POLL = 1.0
#: What `--scheduler` accepts: a Dask scheduler's TCP (or TLS) address with its port.
_ADDRESS = re.compile(r"(?P<scheme>tcp|tls)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>[0-9]{1,5})")
DASK_EXTRA = "--scheduler needs the dask extra: pip install 'amunre[dask]'"


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


class ProcessExecutor(_Closing):
    """A pool of `workers` local processes (`concurrent.futures.ProcessPoolExecutor`),
    started at the first `run` and kept for the next ones until `close`.

    The processes are *spawned*, not forked: each starts a fresh interpreter and receives
    only `fn` (by name) and the task's data, exactly as a Dask worker on another machine
    does. So a local run exercises the same path as a cluster and cannot lean on anything
    the parent happened to hold (a variant it loaded, a rule registered in memory, the
    command line's SIGTERM handler). Forking would also copy a process that may run other
    threads (a Dask client's, the pool's own), which can deadlock a child, and it is no
    longer Python's default on every platform; spawn behaves the same on Linux, macOS and
    Windows. It costs well under a second per process, once per pool. As with any spawned
    process, a script that uses this must guard its entry point (`if __name__ ==
    "__main__":`), since each worker imports the script's module; the `amunre` command and
    `python -m amunre` need nothing.

    Runs of one executor do not overlap: a run that stops early stops the whole pool, and
    the next run starts a new one.
    """

    def __init__(self, workers: int):
        workers = arguments.whole_number("workers", workers, low=1)
        self.workers = workers
        self.description = f"{workers} local processes" if workers > 1 else "1 local process"
        self._pool: ProcessPoolExecutor | None = None
        self._pending: set[Future] = set()  # futures of a run under way, for `close`

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init)
        return self._pool

    def run(self, fn, tasks):
        tasks = checked_tasks(fn, tasks)  # before a process is started
        pool = self._get_pool()
        futures: dict[Future, int] = {}
        try:
            # the pool starts its processes as tasks come in: keep Ctrl-C away from them
            # while they start (see _worker_init)
            with _sigint_blocked():
                for i, task in enumerate(tasks):
                    future = pool.submit(fn, *task)
                    futures[future] = i
                    self._pending.add(future)
            for future in as_completed(futures):
                self._pending.discard(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    # a worker killed from outside (out of memory, kill): the user's problem to
                    # know of, not a bug of amunre's
                    raise AmunreError("a worker process died before finishing its games (killed from outside, "
                                      "or out of memory?); expected every worker to finish: try fewer --workers"
                                      ) from None
                yield futures[future], result
        finally:
            # closed early, fn raised, or Ctrl-C: drop the rest (nothing left when all finished)
            self._stop(futures)

    def _stop(self, futures) -> None:
        """If some of these tasks have not finished, stop the whole pool at once rather than
        wait for the running ones (a batch can take long, and its result would be dropped);
        the others never start. A pool that lost a worker (killed from outside) is dropped
        too: it takes no more tasks."""
        self._pending.difference_update(futures)
        if any(not future.done() or (not future.cancelled() and isinstance(future.exception(), BrokenProcessPool))
               for future in futures):
            self._kill_pool()

    def _kill_pool(self) -> None:
        """Stop every worker now and let the pool wind down by itself.

        - A worker killed while it sends a result leaves the pool's reader thread waiting for
          the rest of that message, for ever (seen: 1 Ctrl-C in 15): the pipe stays open as
          long as this process holds a writing end too. So once the workers are gone this
          process closes its own writing end: the reader gets end-of-file, takes the pool for
          broken and ends.
        - Nothing here joins the pool's thread, nor cancels a future: on Python 3.11 a Ctrl-C
          that interrupts `Thread.join` marks the thread as ended while it still runs (the
          exit then skips it and waits for workers that never got their stop; seen with two
          Ctrl-C 0.2 s apart), and the pool's thread fails every unfinished future itself,
          raising (a traceback, workers unreaped) if one was cancelled meanwhile. Waiting for
          the workers' sentinels is safe to interrupt: another Ctrl-C while they exit only
          kills them outright."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes, writer = _handles(pool)
        pool.shutdown(wait=False, cancel_futures=True)  # the pool's thread cancels what has not started
        try:
            _kill(processes, writer)
        finally:
            _manager_ended(pool)

    def close(self) -> None:
        self._stop(list(self._pending))
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # idle workers exit at once when the pool's thread sends them its stop; a Ctrl-C
        # meanwhile stops them outright instead (never by interrupting a Thread.join)
        processes, writer = _handles(pool)
        pool.shutdown(wait=False)
        try:
            if not _exited(processes, STOP_TIMEOUT):
                _kill(processes, writer)
        except KeyboardInterrupt:
            _kill(processes, writer)
            raise
        finally:
            _manager_ended(pool)


def _handles(pool: ProcessPoolExecutor) -> tuple[list, Any]:
    """A pool's worker processes and this process's writing end of the pipe they send their
    results through. Both are private, but the only handles on them (Python 3.14's
    terminate_workers() neither waits for the workers nor closes the pipe)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    return processes, writer


def _kill(processes, writer) -> None:
    """Stop these workers now (SIGTERM: a spawned worker dies at once, quietly; SIGKILL if
    one is still there after STOP_TIMEOUT or at another Ctrl-C), then close `writer` so that
    a reader left half-way through a killed worker's message gets end-of-file."""
    for process in processes:
        process.terminate()
    try:
        try:
            if _exited(processes, STOP_TIMEOUT):
                return
        except KeyboardInterrupt:  # a second Ctrl-C: no more waiting
            pass
        for process in processes:
            process.kill()
        _exited(processes, STOP_TIMEOUT)
    finally:
        if writer is not None:
            with contextlib.suppress(OSError):
                writer.close()


def _manager_ended(pool: ProcessPoolExecutor) -> None:
    """Wait (up to STOP_TIMEOUT) until the pool's own thread has wound down, by polling.

    At exit, concurrent.futures wakes every pool's thread through a pipe that the thread
    closes as it ends; when the two meet (Python 3.11, seen once in CI after two Ctrl-C) the
    exit prints an OSError traceback. Once the thread has ended, the exit finds the pipe
    closed and leaves it. Polling rather than `Thread.join`, which a Ctrl-C would break (see
    `_kill_pool`); a Ctrl-C meanwhile is raised when the short wait is over."""
    thread = getattr(pool, "_executor_manager_thread", None)
    if thread is None:
        return
    deadline = time.monotonic() + STOP_TIMEOUT
    interrupted = None
    while thread.is_alive() and time.monotonic() < deadline:
        try:
            time.sleep(0.002)
        except KeyboardInterrupt as stop:  # the workers are gone: the thread ends in moments
            interrupted = stop
    if interrupted is not None:
        raise interrupted


def _exited(processes, timeout: float) -> bool:
    """Wait until every process has exited and been reaped; False at the timeout.

    The pool's thread reaps its workers too, at the same time: a process it reaped shows no
    exit code here for a moment (this thread's waitpid found nothing left to reap), so this
    waits for every exit code rather than reap them itself."""
    from multiprocessing.connection import wait

    left = {process.sentinel for process in processes}
    deadline = time.monotonic() + timeout
    while left and (remaining := deadline - time.monotonic()) > 0:
        left.difference_update(wait(list(left), remaining))
    # a process closes its end of the sentinel a moment before it can be reaped
    while any(process.exitcode is None for process in processes):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def _worker_init() -> None:
    """In each local worker: ignore Ctrl-C, and exit with the parent.

    A Ctrl-C at the terminal reaches the whole process group; only the parent should act on
    it (it stops the workers), instead of every worker printing a KeyboardInterrupt
    traceback. SIGINT arrives blocked (`_sigint_blocked` in the parent, inherited with the
    signal mask), so one pressed while the worker was starting is discarded here.

    A parent killed outright (SIGKILL, out of memory) cannot stop its workers, and an idle
    worker would wait for tasks forever: a thread watches the parent and ends the worker
    when it is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), name="exit-with-parent", daemon=True).start()


def _exit_with(parent_sentinel) -> None:
    from multiprocessing.connection import wait

    wait([parent_sentinel])
    os._exit(1)


@contextlib.contextmanager
def _sigint_blocked():
    """Block SIGINT in this thread for the block: a process started meanwhile inherits the
    mask, and this thread gets a Ctrl-C pressed meanwhile as soon as the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _probe(address: str, timeout: float) -> None:
    """Ask `address` what it is, all within about `timeout`, and fail unless a Dask scheduler
    answers. `Client` bounds the TCP connection by its timeout but not the handshake after it,
    so something else listening on the port would keep it waiting forever; and a worker's or
    a nanny's address (easy to copy from the wrong log line) would fail inside `Client` with
    a message about its internals, then leave a client that complains again on exit."""
    import asyncio

    from distributed.comm import connect
    from distributed.security import Security

    async def attempt():
        comm = await connect(address, timeout=timeout, **Security().get_connection_args("client"))
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            await comm.close()

    # one second more than connect's own bound, so that its message ("Timed out trying to
    # connect ...") wins when nothing listens at all; in a thread of its own, which works
    # even where this thread already runs an event loop (a notebook)
    with ThreadPoolExecutor(1, thread_name_prefix="dask-probe") as thread:
        identity = thread.submit(asyncio.run, asyncio.wait_for(attempt(), timeout + 1)).result()
    kind = identity.get("type") if isinstance(identity, dict) else None
    if kind == "Scheduler":
        return
    if kind in ("Worker", "Nanny"):
        scheduler = identity.get("scheduler")
        hint = f"this worker's scheduler is {scheduler}" if isinstance(scheduler, str) else \
            "the scheduler's address is the one its workers were started with"
        raise AmunreError(f"--scheduler {address} is a Dask {kind.lower()}, not the scheduler "
                          f"(expected the address a `dask scheduler` listens on; {hint})")
    raise ValueError("not a Dask scheduler's answer")  # worded by the caller


def amunre_identity() -> tuple[str, str]:
    """The amunre version and code fingerprint of the process that runs this (asked of each
    Dask worker, and compared with this process's)."""
    from amunre import __version__

    return __version__, code_fingerprint()


def code_fingerprint() -> str:
    """A hash of the installed amunre's code and data: every .py file of the package and
    every shipped variant, board and schema file, by relative path and content. The version
    number stays the same while the code changes (a checkout with local edits, a build
    between releases); the games depend on the code, so workers must match it exactly.

    Hashed once per process (some 2 MB to read, about 10 ms), and again only when a file's
    size or modification time has changed since (a long-lived process whose files were
    edited meanwhile, as in a checkout being worked on)."""
    from pathlib import Path

    from amunre.loader.resources import schemas_dir, variants_dir

    package = Path(__file__).resolve().parent.parent
    files = []
    for name, folder, pattern in (("amunre", package, "*.py"), ("variants", variants_dir(), "*"),
                                  ("schemas", schemas_dir(), "*")):
        for path in sorted(folder.rglob(pattern)):
            if "__pycache__" in path.parts or path.suffix == ".pyc" or not path.is_file():
                continue
            status = path.stat()
            files.append((f"{name}/{path.relative_to(folder).as_posix()}", path, status.st_size, status.st_mtime_ns))
    stamp = tuple((label, size, mtime) for label, _, size, mtime in files)
    if _FINGERPRINT.get("stamp") != stamp:
        import hashlib

        digest = hashlib.sha256()
        for label, path, _, _ in files:
            digest.update(f"{label}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
        _FINGERPRINT.update(stamp=stamp, value=digest.hexdigest()[:16])
    return _FINGERPRINT["value"]


_FINGERPRINT: dict = {}


def _on_worker(expected: tuple, fn, *args):
    """Run on a Dask worker: `fn(*args)`, if the worker runs the amunre `expected` (version and
    code fingerprint: a worker that joined after the check at connection is checked here, by
    each task); an exception raised there names the worker (a note), so that the user learns
    which machine failed."""
    try:
        here = amunre_identity()
        if here != tuple(expected):
            raise AmunreError(f"it runs amunre {here[0]} with code fingerprint {here[1]}, not {expected[0]} with "
                              f"{expected[1]} as here, so it could play other games from the same seeds")
        return fn(*args)
    except BaseException as exc:
        try:
            from distributed import get_worker

            exc.add_note(f"{_WORKER_NOTE}{get_worker().address}")
        except Exception:  # noqa: BLE001 - not on a worker (a test calls it): no address to add
            pass
        raise


_WORKER_NOTE = "raised on the Dask worker "
_UNKNOWN_RULE = re.compile(r"unknown rule module '([^']*)'")


class DaskExecutor(_Closing):
    """The workers of a running Dask scheduler (`dask scheduler`, `dask worker ...`), through
    a `distributed.Client`. Each task is one `client.submit(fn, *task, pure=False)`
    (pure=False: two equal tasks are still two runs). `workers` is the number of worker
    threads the scheduler reports when connecting (at least 1); workers may join later."""

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT):
        match = _ADDRESS.fullmatch(address)
        if not match or not 1 <= int(match["port"]) <= 65535:
            raise ArgumentValueError(
                f"--scheduler {arguments.shown(address)} is not a Dask scheduler address "
                f"(expected tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786, where a `dask scheduler` listens)")
        try:
            import distributed
        except ImportError:
            raise AmunreError(DASK_EXTRA) from None
        self.address = address
        # distributed logs its own tracebacks when the scheduler goes away; the user gets our
        # one-line error instead
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name == "distributed" or name.startswith("distributed."):  # each has its own level
                logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            _probe(address, timeout)
            self._client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except AmunreError:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever the other end did, it is not a scheduler we can use
            if isinstance(exc, TimeoutError) and not str(exc):
                exc = f"something accepted the connection but gave no Dask answer within {timeout:g} s"
            elif isinstance(exc, (MemoryError, ValueError)):
                # Dask read another protocol's bytes as a message length (e.g. an HTTP server)
                exc = "something answered there, but not in Dask's protocol"
            raise AmunreError(
                f"cannot connect to a Dask scheduler at {address} "
                f"(expected tcp://HOST:PORT of a running `dask scheduler`): {exc}") from None
        try:
            self._check_versions()
            threads = sum(self._client.nthreads().values())
            if not threads:  # the tasks would wait for ever, silently
                raise AmunreError(f"the Dask scheduler at {address} has no workers (expected at least one "
                                  f"`dask worker {address}` connected to it)")
        except BaseException:
            self._client.close()
            raise
        self.workers = max(1, threads)
        count = f"{threads} worker{'s' if threads != 1 else ''}" if threads else "no workers yet"
        self.description = f"Dask scheduler {address} ({count})"
        self._pending: set = set()

    def _check_versions(self) -> None:
        """Every worker connected now must run this amunre, code and all: the rules are code,
        so other code could play other games from the same seeds."""
        from amunre import __version__

        install = (f"install this same amunre on every worker (the release: pip install "
                   f"'amunre[dask]=={__version__}'; changed code: the same checkout or wheel)")
        try:
            identities = self._client.run(amunre_identity)
        except Exception as exc:  # noqa: BLE001 - whatever the worker's import failed with
            raise AmunreError(
                f"the Dask workers at {self.address} cannot run amunre ({type(exc).__name__}: {exc}); "
                f"{install}") from None
        here = amunre_identity()
        other = {worker: tuple(identity) for worker, identity in identities.items() if tuple(identity) != here}
        if other:
            listed = ", ".join(
                f"{worker} has {version}" if version != here[0] else
                f"{worker} has {version} with other code (fingerprint {code})"
                for worker, (version, code) in sorted(other.items()))
            raise AmunreError(
                f"the Dask workers at {self.address} must run the same amunre as here, {here[0]} "
                f"(code fingerprint {here[1]}), or they may play other games from the same seeds: {listed}; "
                f"{install}")

    def run(self, fn, tasks):
        import distributed

        tasks = checked_tasks(fn, tasks)
        futures: dict = {}
        expected = amunre_identity()  # each task checks its worker runs this (a worker may join late)
        try:
            for i, task in enumerate(tasks):
                future = self._client.submit(_on_worker, expected, fn, *task, pure=False,
                                             key=f"{getattr(fn, '__name__', 'task')}-{uuid.uuid4().hex}")
                futures[future] = i
                self._pending.add(future)
            completed = distributed.as_completed(futures, loop=self._client.loop)
            watch = _Workerless(self._client, self.address, len(futures))
            while not completed.is_empty():
                if not completed.has_ready():
                    watch.check(len(futures))  # every worker gone: an error after a while, not a wait for ever
                    time.sleep(0.02)
                    continue
                future = next(completed)
                i = futures.pop(future)  # forgotten once read: the cluster may free the result
                self._pending.discard(future)
                if future.status == "error":
                    raise self._failure(future) from None
                try:
                    result = future.result()
                except (distributed.client.FutureCancelledError, OSError) as exc:
                    # the scheduler went away (or cancelled our work): the cluster's problem,
                    # not a bug of amunre's
                    raise AmunreError(f"lost the Dask scheduler at {self.address} before the games were done "
                                      f"({type(exc).__name__}); expected it to run until the end") from None
                yield i, result
        finally:
            self._cancel(futures)

    def _failure(self, future) -> BaseException:
        """What to raise for a task that failed on a worker: a problem of the worker's
        machine (its amunre, its files, a plug-in missing) as one error naming the worker and
        what to do; any other exception (a bug) as it is, with a note naming the worker."""
        import distributed

        exc = future.exception()
        notes = getattr(exc, "__notes__", None) or []
        worker = next((note[len(_WORKER_NOTE):] for note in notes if note.startswith(_WORKER_NOTE)), None)
        where = f"the Dask worker {worker}" if worker else f"a Dask worker of {self.address}"
        if isinstance(exc, distributed.KilledWorker):
            return AmunreError(f"the Dask workers of {self.address} died running one batch of games, every time it "
                               f"was tried ({exc}); expected them to finish: out of memory, or killed from outside?")
        if isinstance(exc, AmunreError):
            text = str(exc)
            missing = _UNKNOWN_RULE.search(text)
            hint = (f"install the plug-in that provides rule module {missing[1]!r} on every worker (rule modules "
                    f"travel as names, not as code), or the same amunre as here" if missing else
                    "expected it to run the same amunre as here, with the same plug-ins")
            return AmunreError(f"{where} cannot play these games: {text}; {hint}")
        if isinstance(exc, (OSError, ImportError, MemoryError)):
            return AmunreError(f"{where} failed: {type(exc).__name__}: {exc} (expected it to run the same amunre "
                               f"as here, completely installed, with the same plug-ins)")
        try:
            future.result()  # re-raised with the worker's traceback
        except BaseException as raised:  # noqa: BLE001 - handed on as it is
            return raised
        return exc

    def _cancel(self, futures) -> None:
        """Cancel what has not finished: the scheduler drops the tasks not yet started (a
        task already running on a worker thread finishes there, unread)."""
        left = [future for future in futures if not future.done()]
        for future in futures:
            self._pending.discard(future)
        if left:
            self._client.cancel(left)

    def close(self) -> None:
        self._cancel(list(self._pending))
        self._client.close()


class _Workerless:
    """Watches a Dask run for a cluster left with no worker at all (every worker died or
    left): the tasks would wait for ever, silently. Asks the scheduler at most every
    WORKERS_POLL seconds; NO_WORKERS_TIMEOUT seconds without a worker is an error."""

    def __init__(self, client, address: str, tasks: int):
        self._client, self._address, self._tasks = client, address, tasks
        self._asked = time.monotonic()
        self._since: float | None = None  # when the cluster was first seen without workers

    def check(self, left: int) -> None:
        now = time.monotonic()
        if now - self._asked < WORKERS_POLL:
            return
        self._asked = now
        try:
            threads = sum(self._client.nthreads().values())
        except Exception:  # noqa: BLE001 - the scheduler gone: its futures say so, with their own error
            return
        if threads:
            self._since = None
            return
        self._since = self._since if self._since is not None else now
        if now - self._since >= NO_WORKERS_TIMEOUT:
            done = self._tasks - left
            raise AmunreError(
                f"the Dask scheduler at {self._address} has had no workers for {NO_WORKERS_TIMEOUT:g} s, with "
                f"{left} of {self._tasks} batches of games still to play ({done} done): every worker died or "
                f"left (expected at least one `dask worker {self._address}` connected until the end)")
