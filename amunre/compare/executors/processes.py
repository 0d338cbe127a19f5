"""The local process pool: `ProcessExecutor`, its spawned workers, and how they are stopped.

Runs batches on `workers` spawned local processes (`--workers W`); keeps Ctrl-C for the
parent (workers ignore SIGINT, started with it blocked), makes workers exit with a parent
killed outright, and stops a pool under way at once, leaving no process behind. The
interface it implements is `amunre.compare.executors.Executor`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from amunre.compare.executors.base import _Closing, checked_tasks
from amunre.core import arguments
from amunre.core.errors import AmunreError

#: How long a stopped local worker may take to exit before it is killed outright.
STOP_TIMEOUT = 5.0
#: How long one wait for finished batches lasts before a held Ctrl-C is delivered (seconds).
WAIT_STEP = 0.05


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
            # Ctrl-C (and the command line's SIGTERM) are held while this thread is inside
            # concurrent.futures' locks and delivered between waits (see _signals_held)
            with _signals_held() as deliver:
                # the pool starts its processes as tasks come in: keep Ctrl-C away from them
                # while they start (see _worker_init)
                with _sigint_blocked():
                    for i, task in enumerate(tasks):
                        future = pool.submit(fn, *task)
                        futures[future] = i
                        self._pending.add(future)
                deliver()
                left = set(futures)
                while left:
                    done, left = wait(left, timeout=WAIT_STEP, return_when=FIRST_COMPLETED)
                    deliver()
                    for future in sorted(done, key=futures.__getitem__):
                        self._pending.discard(future)
                        yield futures[future], _result(future)
                        deliver()
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
        thread = _no_wakeup_at_exit(pool)  # before shutdown, which forgets the thread
        pool.shutdown(wait=False, cancel_futures=True)  # the pool's thread cancels what has not started
        try:
            _kill(processes, writer)
        finally:
            _manager_ended(thread)

    def close(self) -> None:
        self._stop(list(self._pending))
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # idle workers exit at once when the pool's thread sends them its stop; a Ctrl-C
        # meanwhile stops them outright instead (never by interrupting a Thread.join)
        processes, writer = _handles(pool)
        thread = _no_wakeup_at_exit(pool)
        pool.shutdown(wait=False)
        try:
            if not _exited(processes, STOP_TIMEOUT):
                _kill(processes, writer)
        except KeyboardInterrupt:
            _kill(processes, writer)
            raise
        finally:
            _manager_ended(thread)


def _result(future: Future):
    """A finished batch's result; a worker killed from outside is the user's problem to know
    of (out of memory, kill), not a bug of amunre's."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise AmunreError("a worker process died before finishing its games (killed from outside, "
                          "or out of memory?); expected every worker to finish: try fewer --workers") from None


@contextlib.contextmanager
def _signals_held():
    """Hold SIGINT and SIGTERM's Python handlers for the block; yields `deliver`, which runs
    the handler of any signal held so far (raising its KeyboardInterrupt or Terminated) and is
    called where this thread holds no lock. Whatever is still held is delivered at the end.

    A KeyboardInterrupt raised inside concurrent.futures' `wait` or `as_completed` can leave a
    future's lock taken (they take every future's lock in turn, outside a `try`): the pool's
    thread then blocks for ever on it, cancelling, and the exit waits for that thread (seen
    after two Ctrl-C 0.2 s apart). Only in the main thread (the only one Python signals);
    elsewhere, and for a signal without a Python handler, nothing changes."""
    held: list[tuple[int, Any]] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(signum)
            if callable(handler):
                handlers[signum] = handler
                signal.signal(signum, lambda number, frame: held.append((number, frame)))

    def deliver() -> None:
        while held:
            number, frame = held.pop(0)
            handlers[number](number, frame)

    try:
        yield deliver
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        deliver()


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


def _no_wakeup_at_exit(pool: ProcessPoolExecutor) -> threading.Thread | None:
    """Take a pool about to be shut down off the list that concurrent.futures wakes at exit;
    returns the pool's thread (`shutdown` forgets it).

    Its exit hook checks that a pool thread's wakeup pipe is open and then writes to it, while
    the thread may close that pipe in between as it ends (Python 3.11; CI saw the OSError
    traceback after a Ctrl-C, once in some hundred runs). `shutdown` wakes the thread itself,
    so the exit has nothing to tell it; the thread is not a daemon, so the exit still waits
    for it to end."""
    from concurrent.futures import process

    thread = getattr(pool, "_executor_manager_thread", None)
    if thread is not None:
        getattr(process, "_threads_wakeups", {}).pop(thread, None)
    return thread


def _manager_ended(thread: threading.Thread | None) -> None:
    """Wait (up to STOP_TIMEOUT) until a pool's own thread has wound down, by polling, so that
    nothing of the pool runs on when the command reports and exits. Polling rather than
    `Thread.join`, which a Ctrl-C would break (see `_kill_pool`). A Ctrl-C meanwhile (the
    second of a run being stopped, or one as a finished run closes) only ends the wait: the
    workers are gone and the thread ends in moments by itself; raising it here would escape
    the stop that is reporting the games finished."""
    if thread is None:
        return
    deadline = time.monotonic() + STOP_TIMEOUT
    with contextlib.suppress(KeyboardInterrupt):
        while thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.002)


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
