"""The variant file as a product: `amunre variants`, `show`, `validate`, `diff`, and `--set`
on every command that takes a variant. Bad input never ends in a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from helpers import problems_of, run_cli, write

from amunre.core.errors import VariantError
from amunre.loader import available_variants, load_variant
from amunre.loader.resources import load_schema, variants_dir

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted(available_variants())


def same_rules(a, b) -> None:
    """Two variants play the same game: every typed part of them is equal."""
    for part in ("edition", "components", "terms", "phases", "scoring", "final_scoring", "rulings", "cards"):
        if part == "edition":
            assert a.edition.players == b.edition.players and a.edition.kingdoms == b.edition.kingdoms
            assert (a.edition.id, a.edition.name, a.edition.summary, a.edition.rounds_per_kingdom) == (
                b.edition.id, b.edition.name, b.edition.summary, b.edition.rounds_per_kingdom)
        else:
            assert getattr(a, part) == getattr(b, part), part
    assert a.board.provinces == b.board.provinces


# -- amunre variants ---------------------------------------------------------------------


def test_variants_lists_id_title_extends_players_where_from_and_summary(capsys):
    code, out, err = run_cli(capsys, "variants")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["id", "title", "extends", "players", "from", "summary"]
    assert all(" shipped " in line for line in lines[1:])
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == set(SHIPPED)
    classic = load_variant("classic2003")
    assert classic.edition.name in rows["classic2003"] and classic.edition.summary in rows["classic2003"]
    assert " - " in rows["classic2003"] and "3,4,5" in rows["classic2003"]
    if "expert2016" in rows:
        assert "supermeeple2016" in rows["expert2016"].split("  Amun")[1]


def test_variants_finds_house_rules_in_subfolders(capsys, tmp_path, monkeypatch):
    for name in ("classic2003.toml", "board.toml"):
        shutil.copy(variants_dir() / name, tmp_path / name)
    (tmp_path / "house" / "clubs").mkdir(parents=True)
    write(tmp_path / "house" / "clubs" / "rich.toml", """
extends = "classic2003"
[edition]
id = "rich-club"
name = "[bold]Rich[/bold] club"
summary = "More gold"
[components]
starting_gold = 30
""")
    monkeypatch.setattr("amunre.loader.files.variants_dir", lambda: tmp_path)
    assert set(available_variants()) == {"classic2003", "rich-club"}
    code, out, err = run_cli(capsys, "variants")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.startswith("rich-club"))
    assert "[bold]Rich[/bold] club" in row and "classic2003" in row and "More gold" in row


# -- amunre show -------------------------------------------------------------------------


@pytest.mark.parametrize("vid", SHIPPED)
def test_show_output_loads_as_the_same_variant(capsys, tmp_path, vid):
    code, out, err = run_cli(capsys, "show", vid)
    assert code == 0, err
    saved = write(tmp_path / "resolved.toml", out)  # no board next to it: a shipped board by name
    again = load_variant(saved)
    same_rules(load_variant(vid), again)
    data = again.resolved
    assert "extends" not in data and "params" not in data
    # complete: every ruling in use and every parameter of every entry, defaults included
    assert set(data["rulings"]) == set(load_variant(vid).rulings.as_dict())
    for pipeline in ("phases", "scoring", "final_scoring"):
        for spec in getattr(again, pipeline):
            import attrs

            assert set(attrs.asdict(spec.params)) == set(_entry(data[pipeline], spec.id)["params"])


def _entry(entries, eid):
    for entry in entries:
        if entry.get("id") == eid:
            return entry
        if "steps" in entry:
            found = _entry(entry["steps"], eid)
            if found:
                return found
    return None


def test_show_writes_defaults_the_file_leaves_out(capsys, tmp_path):
    house = write(tmp_path / "house.toml", """
extends = "classic2003"
[edition]
id = "house"
[rulings]
nile_compare = "side_total"
""")
    code, out, _ = run_cli(capsys, "show", str(house), "--set", "components.starting_gold=25")
    assert code == 0
    assert 'nile_compare = "side_total"' in out and "starting_gold = 25" in out
    assert "nile_min_pyramids = 1" in out  # a default no file writes
    assert "# with --set components.starting_gold=25" in out
    same_rules(load_variant(house, ["components.starting_gold=25"]), load_variant(write(tmp_path / "s.toml", out)))


def test_show_of_a_variant_with_its_own_board_loads_beside_it(capsys, tmp_path):
    home = tmp_path / "home"
    (home / "boards").mkdir(parents=True)
    shutil.copy(variants_dir() / "board.toml", home / "boards" / "myboard.toml")
    write(home / "mine.toml", 'extends = "classic2003"\n[edition]\nid = "mine"\nboard = "boards/myboard.toml"\n')
    code, out, _ = run_cli(capsys, "show", str(home / "mine.toml"))
    assert code == 0 and 'board = "boards/myboard.toml"' in out
    assert f"# its board is a file of {home.resolve()}: save this file there, or copy the board beside it" in out
    again = load_variant(write(home / "resolved.toml", out))
    assert Path(again.board.source).resolve() == (home / "boards" / "myboard.toml").resolve()
    # saved elsewhere, the board is missing there, and the report says so
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (only,) = problems_of(write(elsewhere / "resolved.toml", out))
    assert "edition.board: board file 'boards/myboard.toml' not found" in only


def test_show_prints_file_strings_literally(capsys, tmp_path):
    house = write(tmp_path / "markup.toml", """
extends = "classic2003"
[edition]
id = "markup"
name = "[red]not red[/red] \\\\ [link=x]"
[terms]
architect = "[bold]builder[/bold]"
""")
    code, out, _ = run_cli(capsys, "show", str(house))
    assert code == 0
    assert 'name = "[red]not red[/red] \\\\ [link=x]"' in out
    assert 'architect = "[bold]builder[/bold]"' in out


# -- amunre validate ---------------------------------------------------------------------


def test_validate_ok_files_exit_0(capsys):
    files = [str(variants_dir() / f"{vid}.toml") for vid in ("classic2003", "supermeeple2016")]
    code, out, err = run_cli(capsys, "validate", *files)
    assert code == 0, out + err
    assert out.splitlines() == [f"{f}: ok" for f in files]


TYPICAL = """
extends = "classic2003"

[edition]
id = "Big Gold"
name = "More gold"

[components]
starting_gold = "30"

[rulings]
bribery_scop = "whole_phase"

[[phases]]
id = "auction"
params = { protection_skipp = 3 }
"""


def test_validate_reports_every_problem_at_once_and_exits_1(capsys, tmp_path):
    bad = write(tmp_path / "bad.toml", TYPICAL)
    good = str(variants_dir() / "classic2003.toml")
    code, out, _ = run_cli(capsys, "validate", good, str(bad))
    assert code == 1
    assert out.splitlines() == [
        f"{good}: ok",
        f'{bad}:4: edition.id: "Big Gold" has characters that are not allowed '
        "(expected it to match ^[a-z0-9][a-z0-9_-]*$)",
        f'{bad}:8: components.starting_gold: wrong type: got "30", a string (expected an integer >= 0)',
        f"{bad}:11: rulings.bribery_scop: unknown ruling (did you mean 'bribery_scope'? expected one of: "
        + ", ".join(sorted(load_variant("classic2003").rulings.as_dict())) + ")",
        f"{bad}:15: phases[0].params.protection_skipp: unknown parameter (did you mean 'protection_skip'? "
        "expected one of: bid_spaces, protection_skip)",
        f"{bad}: 4 problems",
    ]


def test_validate_json_is_structured(capsys, tmp_path):
    bad = write(tmp_path / "bad.toml", TYPICAL)
    syntax = write(tmp_path / "syntax.toml", '[edition]\nid = "x"\nname = \n')
    code, out, _ = run_cli(capsys, "validate", "--json", "classic2003", str(bad), str(syntax))
    assert code == 1
    report = json.loads(out)
    jsonschema.Draft202012Validator(load_schema("validate-report")).validate(report)
    assert [r["valid"] for r in report] == [True, False, False]
    problems = report[1]["problems"]
    assert [(p["file"], p["line"], p["path"]) for p in problems] == [
        (str(bad), 4, "edition.id"), (str(bad), 8, "components.starting_gold"),
        (str(bad), 11, "rulings.bribery_scop"), (str(bad), 15, "phases[0].params.protection_skipp")]
    assert problems[1]["message"] == 'wrong type: got "30", a string'
    assert problems[1]["expected"] == "expected an integer >= 0"
    (only,) = report[2]["problems"]
    assert (only["line"], only["column"]) == (3, 8) and only["message"].startswith("TOML syntax error")


@pytest.mark.parametrize("content, expected", [
    (None, "does not exist"),
    ("DIR", "is a directory"),
    (b"\x00\x01\xfe\xff\x80garbage\x00", "not UTF-8 text (byte 0xfe at offset 2)"),
    ('[edition]\nname = "Caf\xe9"\n'.encode("latin-1"), "not UTF-8 text (byte 0xe9"),
    (b"\x00\x01\x02 valid utf-8 but not toml", "TOML syntax error"),
    ("x = " + "[" * 5000 + "]" * 5000, "nesting too deep at line 1"),
    ("a" + ".a" * 3000 + " = 1\n", "nesting too deep at line 1"),
    ("[edition]\n" + "x = " + "{ y = " * 200 + "1" + " }" * 200 + "\n", "nesting too deep at line 2"),
])
def test_validate_never_crashes_on_junk(capsys, tmp_path, content, expected):
    target = tmp_path / "junk.toml"
    if content == "DIR":
        target.mkdir()
    elif isinstance(content, bytes):
        target.write_bytes(content)
    elif content is not None:
        target.write_text(content, encoding="utf-8")
    for argv in (["validate", str(target)], ["validate", "--json", str(target)], ["run", "--variant", str(target)]):
        code, out, err = run_cli(capsys, *argv)
        assert code == (2 if argv[0] == "run" else 1)
        assert expected in out + err and "Traceback" not in out + err
    code, out, _ = run_cli(capsys, "validate", "--json", str(target))
    (problem,) = json.loads(out)[0]["problems"]
    assert problem["file"] == str(target) and expected in problem["message"]


def test_validate_with_set_checks_the_changed_file(capsys):
    code, out, _ = run_cli(capsys, "validate", "classic2003", "--set", "rulings.bribery_scope=sometimes")
    assert code == 1
    assert out.splitlines()[0] == ('--set rulings.bribery_scope=sometimes: "sometimes" is not allowed '
                                   '(expected one of: "one_rebid", "whole_phase")')


# -- amunre diff -------------------------------------------------------------------------


def test_diff_of_the_two_editions(capsys):
    code, out, err = run_cli(capsys, "diff", "classic2003", "supermeeple2016")
    assert code == 0, err
    lines = out.splitlines()
    groups = [line for line in lines if line.startswith("[")]
    assert groups == ["[edition]", "[terminology]", "[components]", "[pipeline]", "[scoring]", "[params]", "[rulings]"]

    def row(key, group=None):
        start = lines.index(f"[{group}]") if group else 0
        return next(line.split() for line in lines[start:] if line.strip().startswith(key + " "))

    assert row("farmers", "components")[:3] == ["farmers", "45", "48"]
    assert row("architect") == ["architect", "builder", "Architect"]
    assert row("favor")[1:] == ["power", "card", "Favor", "card"]
    assert "complete_sets" in " ".join(row("scoring.order")) and "fewest_pyramids" in " ".join(row("scoring.order"))
    assert row("scoring.complete_sets")[-1] == "-" and row("scoring.fewest_pyramids")[1] == "-"
    phases = " ".join(row("phases.order"))
    assert "province_draw, auction, market, offering, harvest" in phases
    assert "auction_phase[province_draw, auction], market, offering, harvest" in phases
    assert row("adjustment_must_move")[:2] == ["adjustment_must_move", "(A-ADJUST)"]
    components = lines[lines.index("[components]"):lines.index("[pipeline]")]
    assert not any(line.strip().startswith("stones ") for line in components)  # the same in both: not shown


def test_diff_names_each_key_as_its_module_does_piped_and_on_a_terminal(capsys, monkeypatch):
    """Piped, each line of a group whose keys a module names ends with that name (the field's
    own documentation), the key first as before; on a terminal the key's cell says the name
    with the key beside, as `amunre compare` does. A group nothing names keeps three columns."""
    import sys

    import attrs

    from amunre.compare.rule_names import key_name, words
    from amunre.loader import load_variant
    from amunre.loader.compare import compare, key_text

    a, b = load_variant("classic2003"), load_variant("supermeeple2016")
    groups = compare(a, b)
    farmers = words(attrs.fields_dict(type(a.components))["farmers"].metadata["doc"])
    assert farmers and key_name("components", "farmers", (a, b)) == farmers
    named = [(group, row, key_name(group, row["key"], (a, b))) for group, rows in groups.items() for row in rows]
    assert {group for group, _, name in named if name} >= {"components", "params", "rulings"}
    code, out, err = run_cli(capsys, "diff", "classic2003", "supermeeple2016")
    assert code == 0, err
    lines = out.splitlines()
    for group, row, name in named:
        start = lines.index(f"[{group}]")
        line = next(line for line in lines[start:] if line.startswith(f"  {key_text(row)} "))
        if name:
            assert line.endswith(f"  {name}"), line
            assert lines[start + 1].split()[-1] == "name"
        else:
            assert lines[start + 1].split()[-1] != "name"
    # compare's piped rule differences are these very lines
    code, out, err = run_cli(capsys, "compare", "classic2003", "supermeeple2016", "--games", "1", "--workers", "1",
                             "--agents", "random", "--json")
    assert code == 0, err
    assert json.loads(out)["differences"][0]["lines"] == lines
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run_cli(capsys, "diff", "classic2003", "supermeeple2016")
    assert code == 0, err
    flat = " ".join(out.replace("│", " ").split())
    assert f"{farmers} — farmers" in flat
    ruling = next(row for row in groups["rulings"])
    assert f"— {key_text(ruling)}" in flat and " ".join(key_name("rulings", ruling["key"], (a, b)).split()[:4]) in flat


def _unnamed(rows: list[dict]) -> list[dict]:
    """`diff --json` rows without their `name` (test_diff_json_names_each_key_as_the_terminal_does checks it)."""
    return [{key: value for key, value in row.items() if key != "name"} for row in rows]


def test_diff_json_has_the_same_content(capsys):
    code, out, _ = run_cli(capsys, "diff", "classic2003", "supermeeple2016", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["a"]["id"] == "classic2003" and doc["b"]["id"] == "supermeeple2016"
    groups = doc["groups"]
    assert {"key": "farmers", "a": 45, "b": 48} in _unnamed(groups["components"])
    assert {"key": "architect", "a": "builder", "b": "Architect"} in groups["terminology"]
    order = next(r for r in groups["pipeline"] if r["key"] == "phases.order")
    assert order["a"] == ["province_draw", "auction", "market", "offering", "harvest"]
    assert order["b"][0] == {"group": "auction_phase", "steps": ["province_draw", "auction"]}
    scoring = {r["key"]: r for r in groups["scoring"]}
    assert scoring["scoring.complete_sets"]["b"] is None
    assert scoring["scoring.fewest_pyramids"]["b"]["rule"] == "fewest_pyramids"
    rulings = {r["key"]: r for r in groups["rulings"]}
    assert _unnamed([rulings["adjustment_must_move"]]) == [
        {"key": "adjustment_must_move", "a": True, "b": False, "spec": "A-ADJUST"}]
    # every row differs
    assert all(r["a"] != r["b"] for rows in groups.values() for r in rows)


def test_diff_json_names_each_key_as_the_terminal_does(capsys):
    """Issue 37: a row of `--json` carries the key's name from its module, the words the
    terminal and the piped text show beside the key; a row nothing names has none."""
    from amunre.compare.rule_names import key_name

    a, b = load_variant("classic2003"), load_variant("supermeeple2016")
    code, out, _ = run_cli(capsys, "diff", "classic2003", "supermeeple2016", "--json")
    assert code == 0
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("diff"))
    rows = [(group, row) for group, found in doc["groups"].items() for row in found]
    named = [row for _, row in rows if "name" in row]
    assert named and any(group == "rulings" for group, row in rows if "name" in row)
    for group, row in rows:
        expected = key_name(group, row["key"], (a, b))
        assert row.get("name", "") == expected, (group, row["key"])


def test_diff_of_a_variant_with_itself_and_set(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "diff", "classic2003", str(variants_dir() / "classic2003.toml"))
    assert code == 0 and out.splitlines()[-1] == "no differences in the effective rules"
    code, out, _ = run_cli(capsys, "diff", "classic2003", "classic2003", "--json",
                           "--set", "params.auction.protection_skip=3", "--set", "rulings.nile_compare=side_total")
    groups = json.loads(out)["groups"]
    assert _unnamed(groups["params"]) == [{"key": "phases.auction.protection_skip", "a": 2, "b": 3}]
    assert _unnamed(groups["rulings"]) == [
        {"key": "nile_compare", "a": "province", "b": "side_total", "spec": "A-NILE"}]


def test_diff_with_set_names_the_changed_side(capsys):
    code, out, _ = run_cli(capsys, "diff", "classic2003", "classic2003", "--set", "params.auction.protection_skip=3")
    lines = out.splitlines()
    assert code == 0 and lines[0].endswith(" with --set params.auction.protection_skip=3")
    assert lines[3].split()[:5] == ["key", "classic2003", "classic2003", "with", "--set"]
    code, out, _ = run_cli(capsys, "diff", "classic2003", "classic2003", "--json",
                           "--set", "rulings.nile_compare=side_total")
    assert json.loads(out)["b"]["set"] == ["rulings.nile_compare=side_total"]


def test_show_says_which_player_counts_a_module_rules_out(capsys):
    code, out, _ = run_cli(capsys, "show", "expert2016")
    assert code == 0 and "players = [3, 4, 5]" in out
    assert "# played by 3 or 4 players: rule module 'province_draft' does not allow 5 (see its rulings)" in out
    code, out, _ = run_cli(capsys, "show", "expert2016", "--set", "rulings.draft_five_players=true")
    assert "# played by" not in out


def test_validate_of_an_empty_name_says_so(capsys):
    code, out, _ = run_cli(capsys, "validate", "")
    assert code == 1 and out.startswith("'': an empty variant name '' (available: ")
    assert out.splitlines()[-1] == "'': 1 problem"


def test_diff_of_an_unknown_variant_is_one_line(capsys):
    code, _, err = run_cli(capsys, "diff", "classic2003", "nosuch")
    assert code == 2 and err.startswith("error: unknown variant 'nosuch'") and err.count("\n") == 1


# -- --set -------------------------------------------------------------------------------


def test_set_changes_the_variant_and_is_checked_like_a_file():
    v = load_variant("classic2003", ["components.starting_gold=25", "rulings.bribery_scope=one_rebid",
                                     "edition.rounds_per_kingdom=4", "edition.players=[3]",
                                     "phases.auction.params.protection_skip=3",
                                     'terms."architect"="Baumeister"', "components.deck = { architect = 9 }",
                                     "scoring.nile_sides.name=Nile"])
    assert v.components.starting_gold == 25 and v.rulings.bribery_scope == "one_rebid"
    assert v.edition.rounds_per_kingdom == 4 and v.terms["architect"] == "Baumeister"
    assert next(s for s in v.phases if s.id == "auction").params.protection_skip == 3
    assert v.components.deck["architect"] == 9 and v.components.deck["bribery"] == 2  # a table merges
    assert next(s for s in v.scoring if s.id == "nile_sides").name == "Nile"
    g = load_variant("supermeeple2016", ["phases.auction.params.protection_skip=4", "phases.auction_phase.name=Bids"])
    auction = next(s for s in g.phases if s.id == "auction")
    assert auction.params.protection_skip == 4 and auction.heading == "Bids"


@pytest.mark.parametrize("setting, expected", [
    ("rulings.bribery_scop=whole_phase", "--set rulings.bribery_scop=whole_phase: unknown ruling (did you mean "
                                         "'bribery_scope'? "),
    ("components.startng_gold=25", "--set components.startng_gold=25: unknown key (did you mean 'starting_gold'? "),
    ("components.starting_gold=-1", "--set components.starting_gold=-1: -1 is too small (expected at least 0)"),
    ("components.starting_gold=lots", '--set components.starting_gold=lots: wrong type: got "lots", a string '
                                      "(expected an integer >= 0)"),
    ("phases.auctoin.params.protection_skip=3", "--set phases.auctoin.params.protection_skip=3: no entry 'auctoin' "
                                                "in [[phases]] (did you mean 'auction'? "),
    ("phases.auction.params.protection_skipp=3", "--set phases.auction.params.protection_skipp=3: unknown parameter "
                                                 "(did you mean 'protection_skip'? "),
    ("phases.auction.params.bid_spaces=[0, \"x\"]", "phases.auction.params.bid_spaces[1]: wrong type"),
    ("params.auctoin.protection_skip=3", "unknown rule module 'auctoin' (did you mean 'auction'? "),
    ("phases.auction=3", "expected phases.<entry id>.<key>"),
    ("components.starting_gold.x=1", "components.starting_gold is not a table"),
    ("extends=supermeeple2016", "--set cannot change `extends`"),
    ("edition.board=/etc/passwd", "--set edition.board=/etc/passwd: '/etc/passwd' is not a .toml board file"),
    ("edition.board=nosuch.toml", "--set edition.board=nosuch.toml: board file 'nosuch.toml' not found"),
    ("starting_gold", "--set starting_gold: not KEY=VALUE (expected KEY=VALUE"),
    ("components.starting_gold=", "no value after '='"),
    ("a b=1", "'a b' is not a TOML key"),
    ('edition.name="unclosed', ": not a TOML value"),
    ("edition.name=1\nx = 2", ": more than one value (expected a single TOML value)"),
    ("edition.name=[" + "[" * 100 + "]" * 101, "nests too deep"),
])
def test_set_errors_name_the_argument(capsys, setting, expected):
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", [setting, "components.farmers=50"])
    assert any(expected in line for line in info.value.problems), info.value.problems
    code, out, err = run_cli(capsys, "show", "classic2003", "--set", setting)
    assert code == 2 and expected in err and "Traceback" not in err and out == ""


def test_set_reports_every_bad_argument_and_file_problems_together(tmp_path):
    bad = write(tmp_path / "bad.toml", 'extends = "classic2003"\n[edition]\nid = "b"\n[components]\nstones = "many"\n')
    with pytest.raises(VariantError) as info:
        load_variant(bad, ["rulings.nile_compare=everywhere", "components.farmers=lots"])
    assert info.value.problems == [
        '--set rulings.nile_compare=everywhere: "everywhere" is not allowed '
        '(expected one of: "province", "side_total")',
        '--set components.farmers=lots: wrong type: got "lots", a string (expected an integer >= 0)',
        f'{bad}:5: components.stones: wrong type: got "many", a string (expected an integer >= 0)',
    ]


def test_set_of_a_ruling_of_an_unused_module_is_an_error():
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", ["rulings.draft_five_players=true"])
    (line,) = info.value.problems
    assert line.startswith(("--set rulings.draft_five_players=true: ruling of rule module 'province_draft', "
                            "which this variant does not use",
                            "--set rulings.draft_five_players=true: unknown ruling"))


def test_set_of_another_rule_replaces_the_entry_as_a_file_that_extends_does():
    """`--set phases.<id>.rule=<other>` drops the old rule's params and rulings with it, as a
    child file's entry of another rule does; what the change breaks is named at the --set."""
    variant = load_variant("classic2003", ["phases.province_draw.rule=province_draft"])
    entry = next(spec for spec in variant.phases if spec.id == "province_draw")
    assert entry.rule == "province_draft"
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", ["phases.auction.rule=market"])
    assert info.value.problems == [
        "--set phases.auction.rule=market: no phase of the round provides 'ownership': players would "
        "never acquire provinces (expected a phase such as auction)"]
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", ["phases.market.rule=auction"])
    assert info.value.problems == [
        "--set phases.market.rule=auction: 'auction' may appear only once per round "
        "(expected a single entry for it in [[phases]])"]


POSITION = REPO / "tests" / "positions" / "e06_final_scoring.toml"


@pytest.mark.parametrize("argv", [
    ["run", "--quiet", "--seed", "1"],
    ["check", "classic2003", "--games", "1", "--players", "3", "--agents", "random"],
    ["bench", "--games", "1", "--agents", "random"],
    ["board"],
    ["score", str(POSITION), "--variant", "classic2003"],
    ["show", "classic2003"],
    ["diff", "classic2003", "classic2003"],
    ["validate", "classic2003"],
])
def test_every_command_taking_a_variant_takes_set(capsys, argv):
    code, out, err = run_cli(capsys, *argv, "--set", "components.starting_gold=25")
    assert code == 0, err
    code, out, err = run_cli(capsys, *argv, "--set", "rulings.bribery_scop=whole_phase")
    assert code == (1 if argv[0] == "validate" else 2)
    assert "--set rulings.bribery_scop=whole_phase: unknown ruling (did you mean 'bribery_scope'?" in out + err
    assert "Traceback" not in out + err


def test_run_with_set_plays_the_changed_rules_and_its_log_replays(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "run", "--seed", "3", "--json", "--set", "components.starting_gold=200")
    rich = json.loads(out)
    code, out, _ = run_cli(capsys, "run", "--seed", "3", "--json")
    assert sum(p["gold"] for p in rich["players"]) > sum(p["gold"] for p in json.loads(out)["players"])
    log = tmp_path / "g.jsonl"
    code, out, err = run_cli(capsys, "run", "--seed", "3", "--quiet", "--log", str(log),
                             "--set", "components.starting_gold=200", "--set", "rulings.nile_compare=side_total")
    assert code == 0, err
    assert Path(f"{log}.variant.toml").is_file()
    # the command `run` prints is the one that replays it (replay opens no file the log names)
    assert f"check it with: amunre replay {log} --variant {log}.variant.toml" in out
    code, out, err = run_cli(capsys, "replay", str(log), "--variant", f"{log}.variant.toml")
    assert code == 0 and "replay OK" in out, err


# -- docs/editions.md --------------------------------------------------------------------


def test_editions_doc_is_current_and_is_the_diff():
    from amunre.testing import docgen

    committed = (REPO / "docs" / "editions.md").read_text(encoding="utf-8")
    assert committed == docgen.editions_markdown(), \
        "docs/editions.md is out of date: run `python -m amunre.testing.docgen`"
    assert "| `farmers` | 45 | 48 |" in committed
    assert "| `architect` | builder | Architect |" in committed
    assert "| `scoring.complete_sets` | complete_sets \"complete sets\" | - |" in committed
    assert ("## expert2016 vs supermeeple2016" in committed) == ("expert2016" in available_variants())


def test_docgen_writes_the_schema_beside_the_docs(tmp_path):
    from amunre.testing import docgen

    assert docgen.main(["--out", str(tmp_path / "docs")]) == 0
    assert (tmp_path / "schemas" / "variant.schema.json").read_text(encoding="utf-8") == \
        (REPO / "schemas" / "variant.schema.json").read_text(encoding="utf-8")
    assert (tmp_path / "docs" / "editions.md").is_file()


def test_the_validation_report_in_authoring_md_is_what_validate_prints(capsys, tmp_path, monkeypatch):
    import re

    doc = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Checking a file"):]
    example = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    shown = re.search(r"```console\n\$ amunre validate my-rule.toml\n(.*?)```", section, re.S).group(1)
    write(tmp_path / "my-rule.toml", example)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(capsys, "validate", "my-rule.toml")
    assert code == 1
    assert out == shown, "docs/authoring.md shows another report: paste the output of `amunre validate my-rule.toml`"


def test_file_strings_reach_the_terminal_literally(capsys, tmp_path):
    house = write(tmp_path / "markup.toml", """
extends = "classic2003"
[edition]
id = "markup"
name = "[red]Red[/red] [bold]game"
[terms]
gold = "[i]coins[/i]"
[[scoring]]
id = "pyramids"
name = "[blink]pyramids[/blink]"
""")
    code, out, err = run_cli(capsys, "run", "--variant", str(house), "--seed", "2", "--quiet")
    assert code == 0, err
    assert "[red]Red[/red] [bold]game" in out and "[i]coins[/i]" in out and "[blink]pyramids[/blink]" in out
    code, out, err = run_cli(capsys, "score", str(POSITION), "--variant", str(house))
    assert code == 0, err
    assert "[red]Red[/red] [bold]game" in out
    code, out, _ = run_cli(capsys, "diff", "classic2003", str(house))
    assert "[red]Red[/red] [bold]game" in out and "[i]coins[/i]" in out


def test_terminal_tables_show_file_strings_literally(capsys, tmp_path, monkeypatch):
    import sys

    house = write(tmp_path / "markup.toml", 'extends = "classic2003"\n[edition]\nid = "markup"\n'
                                            'name = "[red]Red[/red] game"\n[terms]\ngold = "[i]coins[/i]"\n')
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run_cli(capsys, "diff", "classic2003", str(house))
    assert code == 0, err
    assert "[red]Red[/red]" in out and "[i]coins[/i]" in out and "terminology" in out
    code, out, err = run_cli(capsys, "variants")
    assert code == 0, err
    assert "classic2003" in out and "supermeeple2016" in out


@pytest.mark.parametrize("pair", [("classic2003", "supermeeple2016"), ("classic2003", "expert2016"),
                                  ("supermeeple2016", "variants/house/nile-side-totals.toml")])
def test_diff_json_follows_its_schema(capsys, pair):
    import json

    import jsonschema

    from amunre.loader.resources import load_schema

    repo = Path(__file__).resolve().parents[1]
    refs = [str(repo / ref) if ref.endswith(".toml") else ref for ref in pair]
    code, out, err = run_cli(capsys, "diff", *refs, "--set", "components.starting_gold=25", "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("diff"))
    assert doc["b"]["set"] == ["components.starting_gold=25"] and any(doc["groups"].values())


@pytest.fixture
def installed_tall(tmp_path, monkeypatch):
    """The `tall_pyramids` plug-in (tests/plugins/tall_pyramids_rule.py) installed as a
    package would be: its module and a dist-info whose `amunre.rules` entry point names it,
    on the path, and the registry loaded again with it (put back afterwards)."""
    from amunre.core import registry

    plugins = Path(__file__).resolve().parent / "plugins"
    site = tmp_path / "site"
    (site / "amunre_tall_pyramids-0.1.dist-info").mkdir(parents=True)
    shutil.copy(plugins / "tall_pyramids_rule.py", site / "tall_pyramids_rule.py")
    (site / "amunre_tall_pyramids-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: amunre-tall-pyramids\nVersion: 0.1\n", encoding="utf-8")
    (site / "amunre_tall_pyramids-0.1.dist-info" / "entry_points.txt").write_text(
        "[amunre.rules]\ntall_pyramids = tall_pyramids_rule:TallPyramids\n", encoding="utf-8")
    registry.all_rules()
    packages = registry.__dict__.setdefault("PLUGIN_PACKAGES", {})
    kept = [(table, dict(table)) for table in (registry.RULES, registry.BROKEN_PLUGINS, packages)]
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(registry, "_loaded", False)
    try:
        registry.all_rules()
        assert "tall_pyramids" in registry.RULES, registry.BROKEN_PLUGINS
        yield plugins / "tall.toml"
    finally:
        for table, before in kept:
            table.clear()
            table.update(before)
        monkeypatch.setattr(registry, "_loaded", True)


TALL_NEEDS = ("classic2003-tall needs the plug-in rule tall_pyramids (module tall_pyramids_rule, "
              "package amunre-tall-pyramids)")


def test_a_variant_whose_plugin_is_not_installed_says_a_plugin_may_be_missing(capsys):
    """Without its plug-in installed, the variant cannot load: `validate`, `diff` and `compare`
    say at its `rule` line that the id is none of the built-in modules, or a plug-in's that
    needs its package installed: one clear message, no traceback, nothing played."""
    from amunre.core.registry import all_rules

    plugins = Path(__file__).resolve().parent / "plugins"
    tall = str(plugins / "tall.toml")
    assert "tall_pyramids" not in all_rules()
    said = f"{tall}:11: scoring[0].rule: unknown rule module 'tall_pyramids' ("
    code, out, err = run_cli(capsys, "validate", tall)
    assert code == 1 and said in out and out.rstrip().endswith(f"temples; or a plug-in's rule module, once the "
                                                               "package that provides it is installed)"
                                                               f"\n{tall}: 1 problem"), out
    for argv in (["diff", "classic2003", tall], ["compare", "classic2003", tall, "--games", "1", "--workers", "1"]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and not out and said in err and "once the package that provides it is installed" in err
        assert "Traceback" not in err and err.count("\n") == 1, err


def test_diff_and_the_compare_report_name_the_plugin_a_variant_needs(capsys, tmp_path, installed_tall):
    """A variant whose rules are not all built in says so, naming each such rule id, the
    module its class comes from and the package that registers it: in `amunre diff` (plain
    and JSON), in compare's rule differences and on its HTML page. Built-in rules alone: no word."""
    tall = str(installed_tall)
    code, out, err = run_cli(capsys, "diff", "classic2003", tall)
    assert code == 0, err
    assert out.splitlines()[1] == TALL_NEEDS, out
    code, out, err = run_cli(capsys, "diff", "classic2003", tall, "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("diff"))
    assert doc["a"]["plugins"] == []
    assert doc["b"]["plugins"] == [{"rule": "tall_pyramids", "module": "tall_pyramids_rule",
                                    "package": "amunre-tall-pyramids"}]
    code, out, err = run_cli(capsys, "diff", "classic2003", "supermeeple2016")
    assert code == 0 and "plug-in" not in out, out
    code, out, err = run_cli(capsys, "compare", "classic2003", tall, "--games", "2", "--workers", "1")
    assert code == 0, err
    assert TALL_NEEDS in out, out
    pytest.importorskip("matplotlib", reason="the report's pictures need the plot extra: pip install '.[plot]'")
    page = tmp_path / "report.html"
    code, out, err = run_cli(capsys, "compare", "classic2003", tall, "--games", "2", "--workers", "1", "--json",
                             "--html", str(page))
    assert code == 0, err
    assert json.loads(out)["differences"][0]["lines"][1] == TALL_NEEDS
    html_text = page.read_text(encoding="utf-8")
    assert ("needs the plug-in rule tall_pyramids (module tall_pyramids_rule, package amunre-tall-pyramids)"
            in html_text)
