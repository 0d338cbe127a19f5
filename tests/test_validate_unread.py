"""A parameter that its module reads only under some rulings (`doc(..., read_when=...)`), set
where the variant's rulings leave it unread: loading warns (`Variant.warnings`), `amunre
validate` prints the warning with its file, line and key and still exits 0."""

from __future__ import annotations

import json

import attrs
import jsonschema
from helpers import run_cli, write

from amunre.loader import available_variants, load_variant
from amunre.loader.resources import load_schema
from amunre.rules.gold_ranking import GoldParams

#: A house rule that sets the gold ranking's theft value but keeps classic2003's A-THEFTGOLD (false).
UNREAD = """
extends = "classic2003"

[edition]
id = "theft-worth-5"
name = "a held theft card worth 5"
summary = "classic2003 whose held theft card would count 5 in the gold ranking."

[params.gold_ranking]
theft_value = 5
"""


def line_of(path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


def test_the_gold_rankings_theft_value_declares_the_ruling_it_is_read_under():
    field = attrs.fields_dict(GoldParams)["theft_value"]
    assert field.metadata["read_when"] == {"theft_counts_in_gold": True}


def test_validate_warns_at_the_key_naming_the_ruling_and_exits_0(capsys, tmp_path):
    path = write(tmp_path / "theft.toml", UNREAD)
    code, out, err = run_cli(capsys, "validate", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"{path}: ok"
    warning = lines[1]
    assert warning.startswith(f"{path}:{line_of(path, 'theft_value')}: params.gold_ranking.theft_value: warning: ")
    assert "theft_counts_in_gold (A-THEFTGOLD) = true" in warning and "has false" in warning
    assert len(lines) == 2


def test_validate_json_lists_the_warning_and_the_file_stays_valid(capsys, tmp_path):
    path = write(tmp_path / "theft.toml", UNREAD)
    code, out, _ = run_cli(capsys, "validate", "--json", str(path), "classic2003")
    assert code == 0
    report = json.loads(out)
    jsonschema.Draft202012Validator(load_schema("validate-report")).validate(report)
    assert [r["valid"] for r in report] == [True, True]
    [warning] = report[0]["warnings"]
    assert (warning["file"], warning["line"], warning["path"]) == (
        str(path), line_of(path, "theft_value"), "params.gold_ranking.theft_value")
    assert report[1]["warnings"] == []


def test_no_warning_where_the_ruling_reads_it(tmp_path):
    path = write(tmp_path / "theft.toml", UNREAD + "\n[rulings]\ntheft_counts_in_gold = true\n")
    assert load_variant(path).warnings == ()
    assert load_variant(tmp_path / "theft.toml").rulings.theft_counts_in_gold is True


def test_only_the_file_being_loaded_or_a_set_is_warned(tmp_path):
    write(tmp_path / "theft.toml", UNREAD)
    child = write(tmp_path / "child.toml", """
extends = "theft.toml"

[edition]
id = "child"
name = "child"
summary = "a child that changes nothing of the gold ranking"
""")
    assert load_variant(child).warnings == ()  # its parent's key: the parent is warned when it is loaded
    [warning] = load_variant("classic2003", ["final_scoring.gold_ranking.params.theft_value=4"]).warnings
    assert warning.line is None and warning.text.startswith("--set final_scoring.gold_ranking.params.theft_value=4: "
                                                            "warning: not read: gold_ranking reads theft_value")


def test_a_command_that_loads_the_variant_says_the_warning_on_stderr_and_plays(capsys, tmp_path):
    path = write(tmp_path / "theft.toml", UNREAD)
    code, out, err = run_cli(capsys, "run", "--variant", str(path), "--agents", "random", "--seed", "1")
    assert code == 0, err
    assert "params.gold_ranking.theft_value: warning: not read" in err and out


def test_no_shipped_variant_has_a_warning():
    for name in available_variants():
        assert load_variant(name).warnings == (), name
