"""A problem that hides another is reported together with it where the second can be known
without the first: a parent that cannot be found (with "did you mean"); a place that does
not exist for a new entry that also lacks its rule, names an unknown one, or has bad params;
a misspelt key beside a bad value in the same table."""

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


def test_a_misplaced_new_entry_also_says_its_rule_is_unknown(capsys, tmp_path):
    """A bad `after` leaves the entry out of the pipeline (nothing half-applied), but its
    unknown rule id is known without its place: both reported, each at its key."""
    path = tmp_path / "after.toml"
    code, out = validated(capsys, path, 'extends = "classic2003"\n\n[edition]\nid = "y"\n\n'
                                        '[[scoring]]\nid = "extra"\nrule = "pyramidz"\nafter = "templez"\n')
    assert code == 1
    assert f"{path}:8: scoring[0].rule: unknown rule module 'pyramidz' (did you mean 'pyramids'?" in out
    assert f"{path}:9: scoring[0].after: no entry 'templez' to place it next to (did you mean 'temples'?" in out
    assert f"{path}: 2 problems" in out


def test_a_misplaced_entry_also_reports_its_params(capsys, tmp_path):
    """Its params are checked against its rule as if it stood anywhere: a misspelt one and a
    value out of range, beside the bad `before` (and `after` with `before`)."""
    path = tmp_path / "before.toml"
    code, out = validated(capsys, path, 'extends = "classic2003"\n\n[edition]\nid = "y"\n\n'
                                        '[[scoring]]\nid = "extra"\nrule = "complete_sets"\nbefore = "nowhere"\n'
                                        '[scoring.params]\npointz = 2\nset_size = -1\n')
    assert code == 1
    assert f"{path}:9: scoring[0].before: no entry 'nowhere' to place it next to" in out
    assert f"{path}:11: scoring[0].params.pointz: unknown parameter (did you mean 'points'?" in out
    assert f"{path}:12: scoring[0].params.set_size: -1 is out of range" in out
    assert f"{path}: 3 problems" in out
    code, out = validated(capsys, path, 'extends = "classic2003"\n\n[edition]\nid = "y"\n\n'
                                        '[[scoring]]\nid = "extra"\nrule = "nothing"\nbefore = "temples"\n'
                                        'after = "pyramids"\n')
    assert code == 1
    assert "scoring[0].before: an entry goes either `after` or `before` another" in out
    assert "scoring[0].rule: unknown rule module 'nothing'" in out


def test_a_misspelt_parameter_does_not_hide_a_bad_value_beside_it(capsys, tmp_path):
    """An unknown key in a params table (or any typed table) and a bad value of a known key
    of the same table: both, each at its line; the key the misspelt one may be meant for is
    not called missing."""
    path = tmp_path / "points.toml"
    code, out = validated(capsys, path, 'extends = "classic2003"\n\n[edition]\nid = "y"\n\n'
                                        '[[final_scoring]]\nid = "gold_ranking"\n[final_scoring.params]\n'
                                        'theft_valu = 2\npoints = [1, -2]\n')
    assert code == 1
    assert f"{path}:9: final_scoring[0].params.theft_valu: unknown parameter (did you mean 'theft_value'?" in out
    assert f"{path}:10: final_scoring[0].params.points[1]: -2 is out of range (expected a value >= 0)" in out
    assert f"{path}: 2 problems" in out
    code, out = validated(capsys, path, 'extends = "classic2003"\n\n[edition]\nid = "y"\nnmae = "z"\n'
                                        'rounds_per_kingdom = 0\n')
    assert code == 1
    assert "edition.nmae: unknown key (did you mean 'name'?" in out
    assert "edition.rounds_per_kingdom: 0 is too small" in out and "missing" not in out
