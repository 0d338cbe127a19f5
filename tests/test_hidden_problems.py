"""A problem that hides another is reported together with it where the second can be known
without the first: a parent that cannot be found (with "did you mean"), and a place that does
not exist for a new entry that also lacks its rule."""

from __future__ import annotations

from helpers import run_cli


def validated(capsys, path, text: str) -> tuple:
    """`amunre validate` of a file holding `text`: (exit code, stdout)."""
    path.write_text(text, encoding="utf-8")
    code, out, _ = run_cli(capsys, "validate", str(path))
    return code, out


def test_an_unknown_parent_still_reports_the_files_own_problems(capsys, tmp_path):
    path = tmp_path / "typo.toml"
    code, out = validated(capsys, path, 'extends = "supermeeple2061"\n\n[edition]\nid = "x"\nplayrs = 3\n\n'
                                        '[components]\nstarting_gold = "lots"\n')
    assert code == 1
    assert f"{path}:1: extends: cannot find 'supermeeple2061' (did you mean 'supermeeple2016'?" in out
    assert f"{path}:5: edition.playrs: unknown key (did you mean 'players'?" in out
    assert f"{path}:8: components.starting_gold: wrong type" in out
    assert "missing" not in out  # what the parent would have given is not asked for
    assert f"{path}: 3 problems" in out


def test_a_misplaced_new_entry_also_says_it_has_no_rule(capsys, tmp_path):
    code, out = validated(capsys, tmp_path / "after.toml", 'extends = "classic2003"\n\n[edition]\nid = "y"\n\n'
                                                           '[[scoring]]\nid = "extra"\nafter = "pyramidz"\n')
    assert code == 1
    assert "scoring[0].after: no entry 'pyramidz' to place it next to (did you mean 'pyramids'?" in out
    assert "scoring[0]: an entry needs `rule`" in out
