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
from amunre.compare.executors.signals import Handler, handlers_replaced
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
        # Ctrl-C (and the command line's SIGTERM) are held while this thread is inside
        # concurrent.futures' locks, and delivered between waits (see _signals_held)
        with _signals_held() as held:
            try:
                # the pool starts its processes as tasks come in: keep Ctrl-C away from them
                # while they start (see _worker_init)
                with _sigint_blocked():
                    for i, task in enumerate(tasks):
                        future = pool.submit(fn, *task)
                        futures[future] = i
                        self._pending.add(future)
                held.deliver()
                left = set(futures)
                while left:
                    done, left = wait(left, timeout=WAIT_STEP, return_when=FIRST_COMPLETED)
                    held.deliver()
                    for future in sorted(done, key=futures.__getitem__):
                        self._pending.discard(future)
                        yield futures[future], _result(future)
                        held.deliver()
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
          raising (a traceback, workers unreaped) if one was cancelled meanwhile.
        - Ctrl-C and SIGTERM are held for the whole stop, so that none breaks it half-way
          (workers left running, a lock taken): another Ctrl-C meanwhile only hurries it (the
          workers are killed outright, no more waiting), and is dropped, the run being
          stopped already."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        with _signals_held(deliver_at_end=False) as held:
            processes, writer = _handles(pool)
            thread = _no_wakeup_at_exit(pool)  # before shutdown, which forgets the thread
            pool.shutdown(wait=False, cancel_futures=True)  # the pool's thread cancels what has not started
            _kill(processes, writer, hurry=held.any)
            _manager_ended(thread, hurry=held.any)

    def close(self) -> None:
        self._stop(list(self._pending))
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # idle workers exit at once when the pool's thread sends them its stop; a Ctrl-C
        # meanwhile stops them outright instead (never by interrupting a Thread.join), and is
        # delivered once they are gone
        with _signals_held() as held:
            processes, writer = _handles(pool)
            thread = _no_wakeup_at_exit(pool)
            pool.shutdown(wait=False)
            if not _exited(processes, STOP_TIMEOUT, hurry=held.any):
                _kill(processes, writer, hurry=held.any)
            _manager_ended(thread, hurry=held.any)


def _result(future: Future):
    """A finished batch's result; a worker killed from outside is the user's problem to know
    of (out of memory, kill), not a bug of amunre's."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise AmunreError("a worker process died before finishing its games (killed from outside, "
                          "or out of memory?); expected every worker to finish: try fewer --workers") from None


class _Held:
    """The signals `_signals_held` has held so far, and what their handlers were."""

    def __init__(self):
        self.signals: list[tuple[int, Any]] = []
        self.handlers: dict[int, Handler] = {}

    def any(self) -> bool:
        return bool(self.signals)

    def hold(self, signum: int, handler: Handler) -> Handler:
        """A handler for `signum` that keeps the signal until `deliver` (`handlers_replaced`)."""
        self.handlers[signum] = handler
        return lambda number, frame: self.signals.append((number, frame))

    def deliver(self) -> None:
        """Run the handler of each signal held so far (raising its KeyboardInterrupt or
        Terminated); called where this thread holds no lock."""
        while self.signals:
            number, frame = self.signals.pop(0)
            self.handlers[number](number, frame)


@contextlib.contextmanager
def _signals_held(deliver_at_end: bool = True):
    """Hold SIGINT's and SIGTERM's Python handlers for the block; yields a `_Held`. At the
    end the handlers are back and, with `deliver_at_end`, what is still held is delivered.

    A KeyboardInterrupt raised inside concurrent.futures' `wait` or `as_completed` can leave a
    future's lock taken (they take every future's lock in turn, outside a `try`): the pool's
    thread then blocks for ever on it, cancelling, and the exit waits for that thread (seen
    after two Ctrl-C 0.2 s apart). Only in the main thread, for signals with a Python handler
    (see `handlers_replaced`)."""
    held = _Held()
    try:
        with handlers_replaced(held.hold):
            yield held
    finally:  # the handlers are back by now
        if deliver_at_end:
            held.deliver()
        else:
            held.signals.clear()


def _handles(pool: ProcessPoolExecutor) -> tuple[list, Any]:
    """A pool's worker processes and this process's writing end of the pipe they send their
    results through. Both are private, but the only handles on them (Python 3.14's
    terminate_workers() neither waits for the workers nor closes the pipe)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    return processes, writer


def _kill(processes, writer, hurry) -> None:
    """Stop these workers now (SIGTERM: a spawned worker dies at once, quietly; SIGKILL if
    one is still there after STOP_TIMEOUT, or once `hurry()` says so: another Ctrl-C), then
    close `writer` so that a reader left half-way through a killed worker's message gets
    end-of-file."""
    for process in processes:
        process.terminate()
    try:
        if _exited(processes, STOP_TIMEOUT, hurry):
            return
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


def _manager_ended(thread: threading.Thread | None, hurry) -> None:
    """Wait (up to STOP_TIMEOUT, or until `hurry()`) until a pool's own thread has wound down,
    by polling, so that nothing of the pool runs on when the command reports and exits.
    Polling rather than `Thread.join`, which a Ctrl-C would break (see `_kill_pool`)."""
    if thread is None:
        return
    deadline = time.monotonic() + STOP_TIMEOUT
    while thread.is_alive() and time.monotonic() < deadline and not hurry():
        time.sleep(0.002)


def _exited(processes, timeout: float, hurry=None) -> bool:
    """Wait until every process has exited and been reaped; False at the timeout, or as soon
    as `hurry()` says so (another Ctrl-C, held: see `_signals_held`).

    The pool's thread reaps its workers too, at the same time: a process it reaped shows no
    exit code here for a moment (this thread's waitpid found nothing left to reap), so this
    waits for every exit code rather than reap them itself."""
    from multiprocessing.connection import wait as ready

    left = {process.sentinel for process in processes}
    deadline = time.monotonic() + timeout
    while left and (remaining := deadline - time.monotonic()) > 0:
        if hurry is not None and hurry():
            return False
        left.difference_update(ready(list(left), min(remaining, WAIT_STEP)))
    # a process closes its end of the sentinel a moment before it can be reaped
    while any(process.exitcode is None for process in processes):
        if time.monotonic() > deadline or (hurry is not None and hurry()):
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
