"""The Dask executor: `DaskExecutor`, on the workers of a running Dask scheduler.

Checks the address, that a Dask scheduler answers there and that its workers run this very
amunre (version and code fingerprint: `amunre_identity`, `code_fingerprint`); each task is
checked again on its worker (`_on_worker`), a run left with no worker at all is an error
(`_Workerless`), and a failure on a worker is one error naming the worker. `distributed`
(the dask extra) is imported only inside the functions that use it, so this module imports
without it. The interface it implements is `amunre.compare.executors.Executor`.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from amunre.compare.executors.base import _Closing, checked_tasks
from amunre.core import arguments
from amunre.core.errors import AmunreError, ArgumentValueError

#: How long `DaskExecutor` tries to reach a scheduler before giving up.
CONNECT_TIMEOUT = 10.0
#: How long a run on a Dask cluster waits while the cluster has no worker at all (they all
#: died or left) before it gives up with an error: time for a restarted worker to come back.
NO_WORKERS_TIMEOUT = 30.0
#: How often a run on a Dask cluster that is waiting for results asks the scheduler for its workers.
WORKERS_POLL = 1.0
#: What `--scheduler` accepts: a Dask scheduler's TCP (or TLS) address with its port.
_ADDRESS = re.compile(r"(?P<scheme>tcp|tls)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>[0-9]{1,5})")
DASK_EXTRA = "--scheduler needs the dask extra: pip install 'amunre[dask]'"


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

    package = Path(__file__).resolve().parent.parent.parent  # amunre/, from amunre/compare/executors/
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
