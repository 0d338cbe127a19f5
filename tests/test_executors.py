"""Where batches run (`amunre.compare.executors`): this process, local processes, a Dask
cluster. Every executor gives the same results as this process for the same tasks; an error
in a task reaches the caller; stopping early (closing the generator, Ctrl-C) cancels the rest
promptly and leaves no worker process behind; a bad, unreachable or unusable `--scheduler`
is one clear error. The Dask tests start a real cluster on loopback (skipped, with the
reason, when the dask extra is not installed).

The generic tests use standard-library functions as tasks (`time.sleep`,
`operator.truediv`, `signal.getsignal`): a worker process or a Dask worker imports them by
name, whatever its `sys.path`.
"""

from __future__ import annotations

import logging
import multiprocessing
import operator
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import attrs
import pytest

import amunre
import amunre.compare.executors.on_dask as on_dask
from amunre.compare.executors import (
    DaskExecutor,
    Executor,
    InProcessExecutor,
    ProcessExecutor,
    make_executor,
    usable_cpus,
)
from amunre.compare.jobs import game_seed, job_for, play_batch
from amunre.core.errors import AmunreError
from amunre.loader import load_variant

KINDS = ["in-process", "processes", "dask"]
#: Far above anything these tests should take: a bound on "it returned", not a benchmark.
PROMPT = 8.0


@pytest.fixture(scope="module")
def dask_cluster():
    """A real Dask cluster on loopback: a scheduler and two single-threaded worker processes."""
    distributed = pytest.importorskip(
        "distributed", reason="the dask extra (distributed) is not installed: pip install '.[dask]'")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=":0",  # any free port (None still takes 8787, which may be taken)
        silence_logs=logging.CRITICAL)
    yield cluster
    cluster.close()


@pytest.fixture(params=KINDS)
def executor(request):
    """Each kind of executor, as `make_executor` builds it from the command line's options."""
    if request.param == "dask":
        options = {"scheduler": request.getfixturevalue("dask_cluster").scheduler_address}
    else:
        options = {"workers": 1 if request.param == "in-process" else 2}
    with make_executor(**options) as executor:
        yield executor


@pytest.fixture(scope="module")
def tasks():
    """A few batches of a run seeded 1 in two editions, four random players, every game's record kept."""
    jobs = tuple(job_for(load_variant(name), (), 4, ["random"]) for name in ("classic2003", "supermeeple2016"))
    return [(jobs, 1, first, count, True) for first, count in ((0, 3), (3, 3), (6, 2), (8, 1))]


@pytest.fixture(scope="module")
def expected(tasks):
    with InProcessExecutor() as executor:
        return list(executor.run(play_batch, tasks))


def own_children() -> set[int]:
    """This process's live child processes started by multiprocessing (pool workers, and
    the Dask cluster's workers when it runs)."""
    return {child.pid for child in multiprocessing.active_children()}


def test_every_executor_plays_the_same_games_as_this_process(executor, tasks, expected):
    assert isinstance(executor, Executor)
    got = list(executor.run(play_batch, tasks))
    assert sorted(i for i, _ in got) == list(range(len(tasks)))
    assert sorted(got, key=lambda pair: pair[0]) == expected
    # every game is there once, played in both editions
    records = [record for _, batch in expected for record in batch.records]
    assert [record["seed"] for record in records] == [game_seed(1, i) for i in range(9)]
    assert all(len(record["values"]) == 2 for record in records)


def test_the_in_process_order_is_the_task_order(tasks, expected):
    assert [i for i, _ in expected] == list(range(len(tasks)))


def test_an_error_in_a_task_reaches_the_caller(executor):
    with pytest.raises(ZeroDivisionError):
        list(executor.run(operator.truediv, [(1, 1), (1, 0), (2, 1)]))
    # and the executor still works afterwards
    assert sorted(executor.run(operator.truediv, [(6, 3), (1, 2)])) == [(0, 2.0), (1, 0.5)]


def test_a_worker_that_dies_is_a_clear_error_not_a_bug():
    """A local worker that dies (the out-of-memory killer, a kill; here it exits at once) is
    reported as such, with what to try; the next run gets a fresh pool."""
    with make_executor(2) as pool:
        with pytest.raises(AmunreError, match="a worker process died before finishing its games"):
            list(pool.run(os._exit, [(3,)]))
        assert sorted(pool.run(operator.truediv, [(6, 3)])) == [(0, 2.0)]


def test_closing_early_cancels_the_rest_promptly(executor):
    before = own_children()
    tasks = [(0.5,)] * 40  # 20 s of work on one worker, 10 s on two
    start = time.perf_counter()
    results = executor.run(time.sleep, tasks)
    first = next(results)
    results.close()
    assert time.perf_counter() - start < PROMPT
    assert first[1] is None
    assert own_children() <= before  # no pool worker left running


def test_an_interrupt_while_waiting_stops_local_workers_promptly():
    """A Ctrl-C that arrives while the parent waits for results: it unwinds at once, the
    running workers are stopped, the executor can run again afterwards."""
    before = own_children()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with SIGINT ignored
    working = threading.Event()  # set at the first result: the workers are up and playing
    sent: list[float] = []  # when the Ctrl-C went
    cancelled = False

    def interrupt_once_working() -> None:
        # From another thread, so that it lands while this one waits in `run` for the next
        # result (each task takes a second), however long the pool took to start.
        if working.wait(timeout=120) and not cancelled:
            sent.append(time.perf_counter())
            os.kill(os.getpid(), signal.SIGINT)

    interrupter = threading.Thread(target=interrupt_once_working)
    try:
        with ProcessExecutor(2) as executor:
            interrupter.start()
            with pytest.raises(KeyboardInterrupt):
                for _ in executor.run(time.sleep, [(1.0,)] * 20):
                    working.set()
            assert sent and time.perf_counter() - sent[0] < PROMPT
            assert own_children() <= before
            assert list(executor.run(operator.add, [(1, 2)])) == [(0, 3)]
    finally:
        cancelled = True  # no Ctrl-C after the test, whatever failed
        working.set()
        if interrupter.is_alive():
            interrupter.join()
        signal.signal(signal.SIGINT, previous)


def test_an_interrupt_in_the_callers_loop_stops_local_workers():
    before = own_children()
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        with ProcessExecutor(2) as executor:
            for _ in executor.run(time.sleep, [(0.5,)] * 40):
                raise KeyboardInterrupt
    assert time.perf_counter() - start < PROMPT
    assert own_children() <= before


PARENT = """
import multiprocessing, time
from amunre.compare.executors import ProcessExecutor
executor = ProcessExecutor(2)
list(executor.run(time.sleep, [(0.1,), (0.1,)]))  # both workers started, now idle
print(*(child.pid for child in multiprocessing.active_children()), flush=True)
time.sleep(60)
"""


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting to be reaped counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process states from /proc (Linux)")
def test_local_workers_exit_when_the_parent_is_killed_outright():
    """SIGKILL gives the parent no chance to stop its workers: they notice and exit."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) >= 2 and not any(gone(pid) for pid in workers)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + PROMPT
    while not all(gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if not gone(pid)]
    for pid in left:  # do not leave them behind when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers outlived their parent"


def test_local_workers_leave_ctrl_c_to_the_parent():
    with ProcessExecutor(2) as executor:
        handlers = [handler for _, handler in executor.run(signal.getsignal, [(signal.SIGINT,)] * 4)]
    assert handlers == [signal.SIG_IGN] * 4


def test_make_executor_follows_the_options():
    assert isinstance(make_executor(workers=1), InProcessExecutor)
    three = make_executor(workers=3)
    assert isinstance(three, ProcessExecutor) and three.workers == 3
    assert three.description == "3 local processes"
    default = make_executor()
    assert default.workers == usable_cpus() >= 1
    assert isinstance(default, InProcessExecutor if usable_cpus() == 1 else ProcessExecutor)
    for executor in (three, default):
        executor.close()  # nothing started: processes start at the first run
    assert InProcessExecutor().description == "this process"


@pytest.mark.parametrize("workers", [0, -2])
def test_fewer_than_one_worker_is_an_error(workers):
    with pytest.raises(AmunreError, match=rf"workers must be a number of worker processes, 1 or more, not {workers}"):
        make_executor(workers=workers)


def test_a_scheduler_without_the_dask_extra_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(AmunreError) as error:
        make_executor(scheduler="tcp://127.0.0.1:8786")
    assert str(error.value) == "--scheduler needs the dask extra: pip install 'amunre[dask]'"


@pytest.mark.parametrize("address", [
    "127.0.0.1:8786", "http://127.0.0.1:8786", "tcp://127.0.0.1", "tcp://127.0.0.1:0", "tcp://127.0.0.1:70000",
    "tcp://:8786", "tcp://host name:8786", "", "tcp://127.0.0.1:8786/x"])
def test_a_malformed_scheduler_address_is_an_error(address):
    with pytest.raises(AmunreError, match=r"is not a Dask scheduler address \(expected tcp://HOST:PORT"):
        make_executor(scheduler=address)


def free_port() -> int:
    """A loopback port nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_scheduler_is_an_error_quickly():
    pytest.importorskip("distributed", reason="the dask extra (distributed) is not installed: pip install '.[dask]'")
    address = f"tcp://127.0.0.1:{free_port()}"
    start = time.perf_counter()
    with pytest.raises(AmunreError) as error:
        DaskExecutor(address, timeout=1)
    assert time.perf_counter() - start < PROMPT
    message = str(error.value)
    assert address in message and "tcp://HOST:PORT of a running `dask scheduler`" in message


def test_something_else_listening_is_an_error_not_a_hang():
    """A port that accepts connections but never answers (not a Dask scheduler)."""
    pytest.importorskip("distributed", reason="the dask extra (distributed) is not installed: pip install '.[dask]'")
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        start = time.perf_counter()
        with pytest.raises(AmunreError, match="gave no Dask answer within 1 s") as error:
            DaskExecutor(address, timeout=1)
        assert time.perf_counter() - start < PROMPT
    assert address in str(error.value)


def test_a_workers_address_is_named_as_one_with_its_schedulers(dask_cluster):
    """A worker's address given as the scheduler's: one clear error naming the scheduler,
    quickly, and no client left to complain later."""
    worker = next(iter(dask_cluster.scheduler_info["workers"]))
    start = time.perf_counter()
    with pytest.raises(AmunreError) as error:
        DaskExecutor(worker, timeout=5)
    assert time.perf_counter() - start < PROMPT
    assert str(error.value) == (f"--scheduler {worker} is a Dask worker, not the scheduler (expected the address "
                                f"a `dask scheduler` listens on; this worker's scheduler is "
                                f"{dask_cluster.scheduler_address})")


def test_the_dask_executor_reports_the_cluster(dask_cluster):
    address = dask_cluster.scheduler_address
    with make_executor(scheduler=address) as executor:
        assert isinstance(executor, DaskExecutor)
        assert executor.workers == 2
        assert executor.description == f"Dask scheduler {address} (2 workers)"


def test_dask_workers_on_another_amunre_version_are_an_error(dask_cluster, monkeypatch):
    theirs = amunre.__version__
    monkeypatch.setattr(amunre, "__version__", "0.0.0+other")
    with pytest.raises(AmunreError, match=rf"must run the same amunre as here, 0\.0\.0\+other .*: "
                                          rf"tcp://127\.0\.0\.1:[0-9]+ has {re.escape(theirs)}, "):
        make_executor(scheduler=dask_cluster.scheduler_address)


def test_dask_workers_with_other_code_of_the_same_version_are_an_error(dask_cluster, monkeypatch):
    """The version number stays while the code changes: the workers' code must be this code
    (the workers compute their fingerprint themselves; here this process's is made to differ)."""
    theirs = on_dask.code_fingerprint()
    assert re.fullmatch("[0-9a-f]{16}", theirs) and on_dask.code_fingerprint() == theirs
    monkeypatch.setattr(on_dask, "code_fingerprint", lambda: "0123456789abcdef")
    with pytest.raises(AmunreError) as error:
        make_executor(scheduler=dask_cluster.scheduler_address)
    version = re.escape(amunre.__version__)
    assert re.fullmatch(
        rf"the Dask workers at {dask_cluster.scheduler_address} must run the same amunre as here, {version} "
        rf"\(code fingerprint 0123456789abcdef\), or they may play other games from the same seeds: "
        rf"tcp://127\.0\.0\.1:[0-9]+ has {version} with other code \(fingerprint {theirs}\), "
        rf"tcp://127\.0\.0\.1:[0-9]+ has {version} with other code \(fingerprint {theirs}\); "
        rf"install this same amunre on every worker .*", str(error.value)), str(error.value)


def test_a_failure_on_a_dask_worker_names_the_worker_and_the_error(dask_cluster):
    """Not 'lost the scheduler': the worker that failed, and what it raised."""
    with make_executor(scheduler=dask_cluster.scheduler_address) as executor:
        with pytest.raises(AmunreError) as error:
            list(executor.run(open, [("/nonexistent-amunre-folder/file.json",)]))
    workers = set(dask_cluster.scheduler_info["workers"])
    message = str(error.value)
    assert re.fullmatch(r"the Dask worker (\S+) failed: FileNotFoundError: \[Errno 2\] No such file or directory: "
                        r"'/nonexistent-amunre-folder/file\.json' \(expected it to run the same amunre as here, "
                        r"completely installed, with the same plug-ins\)", message), message
    assert message.split()[3] in workers


def test_a_rule_module_missing_on_a_dask_worker_says_to_install_the_plug_in(dask_cluster):
    job = job_for(load_variant("classic2003"), (), 4, ["random"])
    assert 'rule = "temples"' in job.variant_text
    # as if the column's variant used a plug-in's rule module that the workers do not have
    job = attrs.evolve(job, variant_text=job.variant_text.replace('rule = "temples"', 'rule = "house_temples"', 1))
    with make_executor(scheduler=dask_cluster.scheduler_address) as executor:
        with pytest.raises(AmunreError) as error:
            list(executor.run(play_batch, [((job,), 0, 0, 1)]))
    message = str(error.value)
    worker = message.split()[3]
    assert worker in set(dask_cluster.scheduler_info["workers"]), message
    assert message.startswith(f"the Dask worker {worker} cannot play these games: classic2003 (as sent to this "
                              f"process, line "), message
    assert "unknown rule module 'house_temples'" in message and "/tmp" not in message and "amunre-job" not in message
    assert message.endswith("; install the plug-in that provides rule module 'house_temples' on every worker "
                            "(rule modules travel as names, not as code), or the same amunre as here"), message


def test_a_dask_cluster_left_without_workers_is_an_error_not_a_wait(monkeypatch):
    """Every worker gone mid-run (died, stopped): an error after NO_WORKERS_TIMEOUT, not a
    silent wait for ever."""
    distributed = pytest.importorskip(
        "distributed", reason="the dask extra (distributed) is not installed: pip install '.[dask]'")
    monkeypatch.setattr(on_dask, "NO_WORKERS_TIMEOUT", 2.0)
    monkeypatch.setattr(on_dask, "WORKERS_POLL", 0.2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster:
        with make_executor(scheduler=cluster.scheduler_address) as executor:
            results = executor.run(time.sleep, [(0.3,)] * 40)
            assert next(results)[1] is None
            cluster.scale(0)  # the only worker leaves
            start = time.perf_counter()
            with pytest.raises(AmunreError) as error:
                list(results)
            assert time.perf_counter() - start < 2.0 + PROMPT
    assert re.fullmatch(rf"the Dask scheduler at {cluster.scheduler_address} has had no workers for 2 s, with "
                        rf"[0-9]+ of 40 batches of games still to play \([0-9]+ done\): every worker died or left "
                        rf"\(expected at least one `dask worker {cluster.scheduler_address}` connected until the "
                        rf"end\)", str(error.value)), str(error.value)


def test_the_code_fingerprint_follows_the_files(tmp_path, monkeypatch):
    """Hashed once, and again when a file changes (a checkout edited under a running process)."""
    import shutil

    import amunre.loader.resources

    schemas = tmp_path / "schemas"
    shutil.copytree(amunre.loader.resources.schemas_dir(), schemas)
    monkeypatch.setattr(amunre.loader.resources, "schemas_dir", lambda: schemas)
    first = on_dask.code_fingerprint()
    assert on_dask.code_fingerprint() == first
    schema = schemas / "compare.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    os.utime(schema, ns=(schema.stat().st_atime_ns, schema.stat().st_mtime_ns + 10**9))
    changed = on_dask.code_fingerprint()
    assert changed != first and re.fullmatch("[0-9a-f]{16}", changed)


def test_a_task_runs_only_where_amunre_is_the_same_code():
    """Each Dask task checks its worker's amunre version and code fingerprint (a worker that
    joins after the check at connection would otherwise play other games unseen)."""
    from amunre.compare.executors.on_dask import _on_worker, amunre_identity

    assert _on_worker(amunre_identity(), operator.add, 1, 2) == 3
    with pytest.raises(AmunreError, match="it runs amunre .* with code fingerprint .*, not 0.0.0 with abc as here"):
        _on_worker(("0.0.0", "abc"), operator.add, 1, 2)
