"""The one switch between the quick run and the deep one (tests/conftest.py): `AMUNRE_DEEP=1` turns on
the deep hypothesis profile and what only the deep run plays; a value that says neither yes nor no stops
pytest before any test runs, naming what was expected."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SHOW = ("import conftest; from hypothesis import settings; "
        "print(conftest.DEEP, settings.default.max_examples, conftest.deep_only.args[0])")


def run_seen(**env: str) -> str:
    """What tests/conftest.py makes of the environment `env` (the switch's variables unset otherwise)."""
    base = {k: v for k, v in os.environ.items() if k not in ("AMUNRE_DEEP", "HYPOTHESIS_PROFILE")}
    done = subprocess.run([sys.executable, "-c", SHOW], cwd=TESTS, env={**base, **env}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("env, deep", [
    ({}, False), ({"AMUNRE_DEEP": "0"}, False), ({"AMUNRE_DEEP": ""}, False),
    ({"AMUNRE_DEEP": "1"}, True), ({"AMUNRE_DEEP": " Yes "}, True), ({"HYPOTHESIS_PROFILE": "deep"}, True),
])
def test_amunre_deep_turns_on_the_deep_profile_and_the_deep_only_tests(env, deep):
    is_deep, examples, skipped = run_seen(**env)
    assert is_deep == str(deep) and skipped == str(not deep)
    assert int(examples) == (1000 if deep else 25)


def test_an_amunre_deep_that_is_neither_yes_nor_no_is_refused(monkeypatch):
    """pytest shows a UsageError as its one-line message, no traceback, and runs no test."""
    import conftest

    monkeypatch.setenv("AMUNRE_DEEP", "maybe")
    with pytest.raises(pytest.UsageError) as refused:
        conftest.pytest_configure(None)
    assert str(refused.value) == "AMUNRE_DEEP is 'maybe'; expected 1 (the deep run) or 0 / unset (the quick one)"
