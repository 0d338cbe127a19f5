"""The module names from before the layers (`amunre.contract`, `amunre.position.read`) still
import, as the very modules they are now, with a warning that names the new place: a plug-in
written against them keeps working (docs/architecture.md)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from amunre._moved import MOVED, new_name

SCRIPT = """
import warnings
warnings.simplefilter("error", DeprecationWarning)
try:
    from amunre.contract import Rule
except DeprecationWarning as warning:
    print(warning)
"""


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_name_is_the_module_it_is_now(old):
    with pytest.warns(DeprecationWarning, match=f"{old} is now {MOVED[old]}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old]) and module.__name__ == MOVED[old]
    assert module.__spec__.name == MOVED[old]  # (its own, not the old name's)


def test_a_module_of_an_old_package_is_not_loaded_twice():
    with pytest.warns(DeprecationWarning):
        old = importlib.import_module("amunre.position.read")
    assert old is importlib.import_module("amunre.planning.position.read")
    assert new_name("amunre.position.read") == "amunre.planning.position.read" and new_name("amunre.rules") is None


def test_a_plugin_importing_an_old_name_is_told_where_it_is_now():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "amunre.contract is now amunre.core.contract: import it from there" in run.stdout


def test_nothing_in_amunre_imports_an_old_name():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    import re

    pattern = re.compile(r"\b(?:from|import)\s+(" + "|".join(re.escape(name) for name in MOVED) + r")\b")
    found = [f"{path.relative_to(root)}: {m.group(1)}" for folder in ("amunre", "tests", "benchmarks", "examples")
             for path in (root / folder).rglob("*.py")
             # (and the benchmark that times a checkout from before the layers too, by its old names)
             if path.name not in ("_moved.py", "test_moved_names.py", "play_random.py")
             for m in pattern.finditer(path.read_text(encoding="utf-8"))]
    assert not found, found


def test_a_bot_reading_the_views_old_names_of_rule_data_is_told_what_to_read():
    """The offering level and the provinces on auction moved from the state into their modules'
    data (published by name): a bot written against `view.offering_level` / `view.on_auction`
    reads the same values, with a DeprecationWarning naming `view.published`."""
    from amunre.core.engine import Game
    from amunre.loader import load_variant

    game = Game(load_variant("classic2003"), 3, 4)
    while game.pending is not None and game.pending.kind != "bid":
        game.answer(game.pending.options[0])
    view = game.view(game.pending.player)
    with pytest.warns(DeprecationWarning, match=r"view.published\('offering_level', 0\)"):
        assert view.offering_level == view.published("offering_level", 0)
    with pytest.warns(DeprecationWarning, match=r"view.published\('on_auction', \(\)\)"):
        assert view.on_auction == tuple(view.published("on_auction")) != ()
