"""The compiled build (`AMUNRE_COMPILE=1 pip install .`, docs/performance.md) plays the same games.

Where a C compiler and Python's headers are present, this builds it from a copy of the sources (the
build writes its files into the tree it builds) into a folder of its own, as a user's install does, and
runs on it the tests that vouch for identical play: the golden playthroughs and rulebook examples,
the conformance suite, the hidden-information property, the plug-in test and the bad answers, over the
editions (not the house rules: data over the same compiled modules). The pure build runs them in the
rest of the suite, over every variant file.

The build here is made at the C optimisation level 0 (AMUNRE_COMPILE_OPT=0): the same Cython translation,
the same modules, a quarter of the compiler's time (72 against 172 CPU seconds for the whole build), and
its games play as fast as the pure build's. What it proves is identical play; speed is measured on the
default build (docs/performance.md).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest
from helpers import offline_build_possible

REPO = Path(__file__).resolve().parent.parent
#: What the compiled build is held to: identical games (goldens, conformance, views) and the contract.
SELECTION = [
    "tests/test_golden_examples.py", "tests/test_golden_2016.py", "tests/test_playthroughs.py",
    "tests/test_conformance.py", "tests/test_views.py", "tests/test_plugin.py", "tests/test_game_arguments.py",
    "tests/test_replay.py", "tests/test_branching.py", "tests/test_planner.py",
    # of bench, that it says which build runs: its columns and options are the pure command line's
    "tests/test_bench.py::test_bench_and_version_say_which_build_runs",
]
#: Tests of the selection whose code is none of the compiled modules': compare's report of a plug-in's
#: statistic (amunre.compare stays pure Python; the plug-in's games are played by the tests kept)
NOT_COMPILED_CODE = ["test_compare_reports_the_plugins_statistic_and_item_without_knowing_them"]
#: The C optimisation level of the build tested (above): identical play is what is checked, not speed
TEST_OPT_LEVEL = "0"
#: The tests that run over every variant file are held to in the compiled build for the editions only: a house
#: rule is data over the very compiled modules the editions play (the pure build checks every variant file), and
#: each house rule's run costs the compiled check as much as an edition's.
HOUSE_RULES = sorted(path.stem for path in (REPO / "variants" / "house").glob("*.toml"))
EDITIONS_ONLY = f"not ({' or '.join(HOUSE_RULES)})" if HOUSE_RULES else ""
SELECTED = " and ".join([*([EDITIONS_ONLY] if EDITIONS_ONLY else []), *(f"not {name}" for name in NOT_COMPILED_CODE)])
SOURCES = ["amunre", "variants", "schemas", "buildsupport", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md"]


def _compiler_missing() -> str | None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) here: the compiled build is optional"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h) here: the compiled build is optional"
    return None


# meant to keep the module on one worker (`--dist loadgroup`); the build is made once because the module has
# a single test that uses it (below)
pytestmark = [pytest.mark.skipif(_compiler_missing() is not None, reason=str(_compiler_missing())),
              pytest.mark.xdist_group("compiled-build")]


#: Bump to throw away every cached build (say, after a change to how the build is made outside SOURCES).
CACHE_FORMAT = 2


def _sources_key() -> str:
    """A digest of everything the build reads (every file of SOURCES, the interpreter, pip's
    options): a cached build is reused only for the very sources it was built from."""
    digest = hashlib.sha256(f"{CACHE_FORMAT} {TEST_OPT_LEVEL} {sys.version} {sysconfig.get_platform()}".encode())
    for name in SOURCES:
        path = REPO / name
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path] if path.is_file() else []
        for file in files:
            if "__pycache__" in file.parts or file.suffix in (".so", ".c", ".pyc"):
                continue
            digest.update(file.relative_to(REPO).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def _build(root: Path) -> Path:
    """Build and install the compiled build of this checkout into `root`/site, as `pip install` does."""
    source, site = root / "source", root / "site"
    source.mkdir()
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
        elif path.is_file():
            shutil.copy2(path, source / name)
    cmd = [sys.executable, "-m", "pip", "install", str(source), "--target", str(site), "--no-deps", "--quiet",
           "--disable-pip-version-check"]
    if importlib.util.find_spec("Cython") is not None and offline_build_possible():
        cmd += ["--no-build-isolation", "--no-index"]  # everything the build needs is here: fetch nothing
    done = subprocess.run(cmd, env={**os.environ, "AMUNRE_COMPILE": "1", "AMUNRE_COMPILE_OPT": TEST_OPT_LEVEL},
                          capture_output=True, text=True, timeout=1200)
    if done.returncode != 0 and "No matching distribution found for Cython" in done.stdout + done.stderr:
        pytest.skip("Cython is neither installed nor to be fetched here (offline?): the compiled build needs it")
    assert done.returncode == 0, done.stdout + done.stderr
    shutil.rmtree(source)
    return site


@pytest.fixture(scope="module")
def compiled_site(pytestconfig, tmp_path_factory) -> Path:
    """A folder holding the compiled build of this checkout, installed as `pip install` does.

    Building takes minutes, so a build is kept in pytest's cache folder under a digest of its
    sources and reused while none of them changes (`pytest --cache-clear` builds afresh). Without
    pytest's cache (`-p no:cacheprovider`) every run builds."""
    cache = getattr(pytestconfig, "cache", None)
    if cache is None:
        return _build(tmp_path_factory.mktemp("compiled"))
    kept = cache.mkdir("compiled-build") / _sources_key()
    if not (kept / "site").is_dir():
        shutil.rmtree(kept, ignore_errors=True)  # (a build appears there whole, by a rename: this one is broken)
        building = Path(tempfile.mkdtemp(prefix="building-", dir=kept.parent))
        try:
            _build(building)
            try:
                building.rename(kept)  # whole or not at all: an interrupted build is never reused
            except OSError:  # another worker finished the same build first, and may be running it: use it
                pass
        finally:
            shutil.rmtree(building, ignore_errors=True)
        for old in kept.parent.iterdir():  # one build is kept: those of older sources go
            if old != kept and not old.name.startswith("building-"):
                shutil.rmtree(old, ignore_errors=True)
    return kept / "site"


def _in_compiled(site: Path, *args: str, timeout: float = 900, **env: str) -> subprocess.CompletedProcess:
    # the outer venv's interpreter and dependencies, amunre from the compiled folder (ahead on the path)
    return subprocess.run([sys.executable, *args], cwd=site.parent, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(site), **env})


def _check_imports_its_compiled_modules(site: Path) -> None:
    sys.path.insert(0, str(REPO / "buildsupport"))
    try:
        from compiled import module_names
    finally:
        sys.path.remove(str(REPO / "buildsupport"))

    shown = _in_compiled(site, "-c", "import amunre.core.engine, amunre.cli.buildinfo as b; "
                         "print(amunre.core.engine.__file__); print(b.describe_build()); print(*b.compiled_modules())")
    assert shown.returncode == 0, shown.stderr
    engine_file, described, names = shown.stdout.splitlines()
    assert engine_file.startswith(str(site)) and not engine_file.endswith(".py")
    expected = module_names(REPO)
    assert names.split() == expected  # every module setup.py lists, and no other
    assert described == f"compiled (Cython): {len(expected)} modules"
    version = _in_compiled(site, "-m", "amunre", "--version")
    assert version.returncode == 0 and f"({described})" in version.stdout, version.stdout + version.stderr


def _check_plays_the_same_games(site: Path) -> None:
    # on every CPU, as the suite runs: a chain this long on one worker would otherwise be the suite's last minutes
    # (--dist loadgroup as the suite's own run: test_plugin's installed plug-in is then built once, not per worker)
    run = _in_compiled(site, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-n", "auto",
                       "--dist", "loadgroup", "-k", SELECTED, *(str(REPO / name) for name in SELECTION),
                       AMUNRE_REQUIRE_COMPILED="1")
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and " failed" not in run.stdout


# One test, not two: the build takes minutes, and two tests of this module may run on two workers at
# once (the xdist_group mark above keeps them on one only under --dist loadgroup, not under plain -n),
# each making the same build.
def test_compiled_build_imports_its_compiled_modules_and_plays_the_same_games(compiled_site):
    _check_imports_its_compiled_modules(compiled_site)  # first: a build of the wrong modules fails fast
    _check_plays_the_same_games(compiled_site)
