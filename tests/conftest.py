"""Shared test set-up: the quick and the deep run, hypothesis profiles and the variant files under test.

The quick run (the default) keeps every test and every kind of check, with fewer games and examples
where a test plays many. The deep run, `AMUNRE_DEEP=1 pytest` (for manual runs), plays the big game
counts and every edition's whole game in the browser, under the hypothesis profile `deep`; the older
`HYPOTHESIS_PROFILE=deep pytest` means the same. Tests read `DEEP`, or mark what only the deep run
plays with `deep_only`.
"""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("deep", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ON, OFF = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")
#: Whether this is the deep run: AMUNRE_DEEP=1, or the deep hypothesis profile named outright
DEEP = (os.environ.get("AMUNRE_DEEP", "").strip().lower() in ON
        or os.environ.get("HYPOTHESIS_PROFILE", "").strip() == "deep")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "").strip() or ("deep" if DEEP else "ci"))
#: A test (or a parameter) that only the deep run plays; the quick run skips it, saying how to run it
deep_only = pytest.mark.skipif(not DEEP, reason="the deep run plays this one: AMUNRE_DEEP=1 pytest")

REPO = Path(__file__).resolve().parent.parent
VARIANTS_DIR = REPO / "variants"


def variant_files() -> list[Path]:
    """Every variant file the suite runs its rule tests over: those in the checkout's variants/
    (editions and house rules, a file dropped into variants/house/ included), found by globbing,
    then those of the `AMUNRE_PATH` folders (a designer's own, as `amunre variants` finds
    them). Board files are left out; files that fail to parse are kept (and fail)."""
    from amunre.loader import variant_files as find
    from amunre.loader.files import variant_locations

    files = find(VARIANTS_DIR)
    return files + [path for _, path, where in variant_locations() if where != "shipped" and path not in files]


def project_variant_files() -> list[Path]:
    """The variant files of the project itself: those of variants/ under version control
    (`project_files`)."""
    from amunre.loader import variant_files as find

    return project_files(find(VARIANTS_DIR))


def project_files(paths) -> list[Path]:
    """Those of `paths` the project keeps under version control.

    The tests of the project's own conventions (its generated docs list every variant file,
    each carries a `#:schema` line, a house rule is a short example) cover these; a file a
    designer drops into variants/ is covered by every rule test but by none of these. Outside
    a git checkout (an unpacked source archive) every file counts."""
    import subprocess

    inside = VARIANTS_DIR.resolve()
    paths = [path for path in paths if Path(path).resolve().is_relative_to(inside)]  # never an AMUNRE_PATH file
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--", "variants"], cwd=REPO, capture_output=True,
                                check=True, timeout=30).stdout.decode("utf-8").split("\0")
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return paths
    tracked = {(REPO / name).resolve() for name in listed if name}
    return [path for path in paths if Path(path).resolve() in tracked] if tracked else paths


def pytest_configure(config):
    """Refuse an AMUNRE_DEEP that says neither yes nor no (a typo would run the quick suite unnoticed). With
    AMUNRE_REQUIRE_COMPILED set (tests/test_compiled_build.py runs tests so), stop at once unless
    the amunre imported is the compiled build: those tests are meant to vouch for it, not for the .py files."""
    deep = os.environ.get("AMUNRE_DEEP", "").strip().lower()
    if deep not in ON + OFF:
        raise pytest.UsageError(f"AMUNRE_DEEP is {deep!r}; expected 1 (the deep run) or 0 / unset (the quick one)")
    if not os.environ.get("AMUNRE_REQUIRE_COMPILED"):
        return
    import amunre.core.engine
    from amunre.cli.buildinfo import COMPILED_SUFFIXES, compiled_modules

    if not amunre.core.engine.__file__.endswith(COMPILED_SUFFIXES) or not compiled_modules():
        pytest.exit(f"AMUNRE_REQUIRE_COMPILED is set, but amunre.core.engine came from {amunre.core.engine.__file__}",
                    returncode=3)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Keep the tests of one `xdist_group` on one worker under `--dist loadgroup`, as pytest-xdist means to.

    xdist marks a grouped test by a suffix of its node id (`...::test@group`, which its scheduler reads), set
    as `item._nodeid`; pytest 9 keeps the id as `item._id` and ignores that, so every group was silently
    spread over the workers (each building its module's costly fixture again). Here the suffix is set where
    pytest reads it, on a worker of a loadgroup run only, and only where xdist's own did not take."""
    if getattr(config, "workerinput", None) is None or not config.getvalue("loadgroup"):
        return
    for item in items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(groups)
        if groups and not item.nodeid.endswith(suffix) and hasattr(item, "_id"):
            item._id = type(item._id).parse(item.nodeid + suffix)
