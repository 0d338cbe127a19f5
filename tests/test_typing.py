"""The engine and the rule modules type-check under mypy in strict mode (pyproject.toml, [tool.mypy]).

The compiled build (setup.py) compiles these files and plug-ins implement the contract they type:
a new untyped function, a wrong return type or a bare `dict` in them fails this test.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is part of the test extra: pip install '.[test]'")

REPO = Path(__file__).resolve().parent.parent


def run_mypy(*args: str) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(REPO / "pyproject.toml"), *args])
    return out + err, status


def test_engine_and_rule_modules_pass_mypy_strict(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)  # the configured file list is relative to the repository
    report, status = run_mypy("--cache-dir", str(tmp_path / "cache"))
    assert status == 0, report
    assert "Success: no issues found" in report


def test_the_configured_check_is_strict_and_covers_the_core(tmp_path, monkeypatch):
    """The same configuration refuses an untyped function, so the check above can fail."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True
    assert {"amunre/core/engine.py", "amunre/core/contract.py", "amunre/rules"} <= set(config["files"])
    planted = tmp_path / "planted.py"
    planted.write_text("def untyped(x):\n    return x\n")
    report, status = run_mypy("--cache-dir", str(tmp_path / "cache"), str(planted))
    assert status == 1 and "Function is missing a type annotation" in report, report
