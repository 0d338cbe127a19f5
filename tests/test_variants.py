"""Variant files: loading, `extends`, `[params.<rule>]` overrides, and validation that
reports every problem at once as `file:line: key.path: what (expected)`."""

from __future__ import annotations

import os
from pathlib import Path

import attrs
import pytest
import tomli_w
from conftest import variant_files
from helpers import problems_of, write
from hypothesis import given
from hypothesis import strategies as st

from amunre.core.errors import UnknownVariantError, VariantError
from amunre.core.model import Components, Edition
from amunre.loader import available_variants, load_variant, resolve_path
from amunre.loader.checks import OR_A_PLUGIN
from amunre.loader.resources import load_schema, variants_dir
from amunre.loader.tomlpos import format_path, key_lines, line_for, parse_path
from amunre.testing import docgen

REPO = Path(__file__).resolve().parent.parent
CLASSIC = variants_dir() / "classic2003.toml"


# -- the shipped files -------------------------------------------------------------------


def test_classic2003_loads_with_its_values():
    v = load_variant("classic2003")
    assert v.id == "classic2003"
    assert v.edition.players == (3, 4, 5)
    assert v.edition.rounds_per_kingdom == 3
    assert [s.rule for s in v.phases] == ["province_draw", "auction", "market", "offering", "harvest"]
    assert [s.rule for s in v.scoring] == ["pyramids", "complete_sets", "nile_sides", "temples", "bonus_cards"]
    assert [s.rule for s in v.final_scoring] == ["gold_ranking"]
    assert v.phases[1].params.bid_spaces == (0, 1, 3, 6, 10, 15, 21, 28, 36)
    assert v.phases[3].params.level_floors == (3, 13, 23)
    assert v.components.deck_size == 39
    assert v.components.starting_cards == ("architect",)
    assert v.rulings.nile_compare == "province" and v.rulings.adjustment_must_move is True
    assert len(v.board) == 15 and v.board.provinces[0].name == "Buto"
    assert v.term("architect") == "builder"
    assert v.resolved["edition"]["id"] == "classic2003" and "extends" not in v.resolved


@pytest.mark.parametrize("vid", sorted(available_variants()))
def test_every_shipped_variant_loads(vid):
    v = load_variant(vid)
    assert v.id == vid
    assert v.phases and len(v.board) >= 15


def test_available_variants_skips_boards_and_finds_editions():
    found = available_variants()
    assert found["classic2003"] == CLASSIC
    assert "amunre" not in found  # the board file's id
    assert all(p.parent in (variants_dir(), variants_dir() / "house") for p in found.values())


def test_unknown_variant_lists_the_available_ones():
    with pytest.raises(UnknownVariantError) as info:
        load_variant("classic2004")
    message = str(info.value)
    assert "'classic2004'" in message
    for vid in available_variants():
        assert vid in message
    assert "\n" not in message


def test_missing_variant_file():
    with pytest.raises(UnknownVariantError, match="does not exist"):
        resolve_path("no/such/file.toml")


def test_a_broken_symbolic_link_says_how_it_is_broken(tmp_path):
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    (tmp_path / "dangling.toml").symlink_to("nowhere.toml")
    with pytest.raises(UnknownVariantError, match="'.*a.toml' is a symbolic link loop"):
        resolve_path(str(tmp_path / "a.toml"))
    with pytest.raises(UnknownVariantError, match="is a symbolic link to 'nowhere.toml', which does not exist"):
        resolve_path(str(tmp_path / "dangling.toml"))


# -- extends and overrides ---------------------------------------------------------------


def test_extends_with_one_change(tmp_path):
    child = write(tmp_path / "hr.toml", """
extends = "classic2003"

[edition]
id = "temple-harvest"
name = "Temples at every harvest"

[rulings]
temples_score_at_harvest = true
""")
    base, v = load_variant("classic2003"), load_variant(child)
    assert v.id == "temple-harvest" and v.edition.name == "Temples at every harvest"
    assert v.rulings.temples_score_at_harvest is True
    assert base.rulings.temples_score_at_harvest is False
    # everything else is inherited unchanged
    assert v.rulings.evolve(temples_score_at_harvest=False) == base.rulings
    assert v.edition.players == base.edition.players and v.edition.board == "board.toml"
    assert v.components == base.components and v.phases == base.phases and v.scoring == base.scoring
    assert v.board == base.board
    assert v.resolved["rulings"]["temples_score_at_harvest"] is True
    assert v.resolved["rulings"]["nile_compare"] == "province"
    assert v.source == str(child)


def test_extends_by_relative_path_and_arrays_replace_whole(tmp_path):
    rel = os.path.relpath(CLASSIC, tmp_path)
    child = write(tmp_path / "short.toml", f"""
extends = "{rel}"

[edition]
id = "short"
players = [3, 4]

[[final_scoring]]
rule = "gold_ranking"
name = "gold, flatter"
[final_scoring.params]
points = [3, 2, 1]
""")
    v = load_variant(child)
    assert v.edition.players == (3, 4)
    assert len(v.final_scoring) == 1
    assert v.final_scoring[0].name == "gold, flatter"
    assert v.final_scoring[0].params.points == (3, 2, 1)
    assert len(v.phases) == 5  # inherited


def test_extends_chain_of_three(tmp_path):
    write(tmp_path / "a.toml", """
extends = "classic2003"
[edition]
id = "a"
[rulings]
bribery_scope = "whole_phase"
""")
    c = write(tmp_path / "b.toml", """
extends = "a.toml"
[edition]
id = "b"
[components]
starting_gold = 25
""")
    v = load_variant(c)
    assert v.rulings.bribery_scope == "whole_phase"
    assert v.components.starting_gold == 25 and v.components.farmers == 45


def test_params_override_changes_one_param(tmp_path):
    child = write(tmp_path / "skip.toml", """
extends = "classic2003"
[edition]
id = "big-blockade"

[params.auction]
protection_skip = 3

[params.bonus_cards]
points = 4
""")
    base, v = load_variant("classic2003"), load_variant(child)
    assert v.phases[1].rule == "auction"
    assert v.phases[1].params.protection_skip == 3
    assert v.phases[1].params.bid_spaces == base.phases[1].params.bid_spaces
    assert v.phases[1].name == base.phases[1].name
    assert v.scoring[4].params.points == 4 and v.scoring[4].params.scribes_symbols == 7
    assert v.phases[3] == base.phases[3] and v.scoring[:4] == base.scoring[:4]
    assert v.resolved["phases"][1]["params"]["protection_skip"] == 3
    assert "params" not in v.resolved
    # the parent's data is not touched
    assert load_variant("classic2003").phases[1].params.protection_skip == 2


def test_params_override_problems_point_at_the_override(tmp_path):
    child = write(tmp_path / "p.toml", """
extends = "classic2003"
[edition]
id = "p"

[params.auction]
protection_skip = "three"
bid_spaces = [1, 3, 6]

[params.fewest_pyramids]
points = 2

[params.auktion]
protection_skip = 3
""")
    problems = problems_of(child)
    assert problems == [
        f"{child}:6: params.auction.protection_skip: wrong type: got \"three\", a string (expected an integer)",
        # the module's own check runs beside the type error, on the parameters that typed
        f"{child}:7: params.auction.bid_spaces: bid_spaces must start at 0 and strictly increase "
        "(checked by rule module 'auction')",
        f"{child}:9: params.fewest_pyramids: no pipeline entry uses rule 'fewest_pyramids' "
        "(expected a rule of the pipeline: auction, bonus_cards, complete_sets, gold_ranking, harvest, "
        "market, nile_sides, offering, province_draw, pyramids, temples)",
        f"{child}:12: params.auktion: unknown rule module 'auktion' (did you mean 'auction'? expected one of: "
        "auction, bonus_cards, complete_sets, fewest_pyramids, gold_ranking, harvest, market, nile_sides, "
        "offering, province_draft, province_draw, pyramids, temples)",
    ]


def test_rule_module_checks_are_reported(tmp_path):
    child = write(tmp_path / "c.toml", """
extends = "classic2003"
[edition]
id = "six"
players = [3, 4, 5, 6]

[params.auction]
bid_spaces = [1, 3, 6]
""")
    problems = problems_of(child)
    # the province count comes from the house rule's own `players` line, not its parent's entry
    assert problems == [
        f"{child}:4: edition.players: 6 players over 3 rounds need 18 provinces but the board "
        "has 15 (lower the player counts or the rounds) (checked by rule module 'province_draw')",
        f"{child}:7: params.auction.bid_spaces: bid_spaces must start at 0 and strictly increase "
        "(checked by rule module 'auction')",
    ]


PIPELINE_HEAD = """
extends = "classic2003"
[edition]
id = "pipeline-test"
name = "a pipeline under test"
"""


def test_pipeline_phase_needing_an_earlier_phase_is_reported(tmp_path):
    # the auction moved (by id) before the draw that gives it provinces
    path = write(tmp_path / "p.toml", PIPELINE_HEAD + '[[phases]]\nid = "auction"\nbefore = "province_draw"\n')
    assert problems_of(path) == [
        f"{path}:5: phases[0].rule: 'auction' needs 'provinces' from an earlier phase of the round "
        "(expected one of province_draft, province_draw before it)"
    ]


def test_pipeline_once_per_round_phases_may_not_repeat(tmp_path):
    body = "".join(f'[[phases]]\nid = "{r}2"\nrule = "{r}"\nafter = "auction"\n' for r in ("province_draw", "auction"))
    found = problems_of(write(tmp_path / "p.toml", PIPELINE_HEAD + body))
    assert [p.split(": ", 2)[1] for p in found] == ["phases[0].rule", "phases[1].rule"]
    assert all("may appear only once per round" in p for p in found)


def test_pipeline_without_an_acquiring_phase_is_reported(tmp_path):
    body = '[[phases]]\nid = "auction"\nremove = true\n'
    (problem,) = problems_of(write(tmp_path / "p.toml", PIPELINE_HEAD + body))
    assert "no phase of the round provides 'ownership'" in problem and "auction" in problem


def test_extends_cycle(tmp_path):
    write(tmp_path / "one.toml", 'extends = "two.toml"\n[edition]\nid = "one"\n')
    write(tmp_path / "two.toml", '# the other half\nextends = "one.toml"\n[edition]\nid = "two"\n')
    problems = problems_of(tmp_path / "one.toml")
    assert problems == [
        f"{tmp_path / 'two.toml'}:2: extends: extends cycle: {tmp_path / 'one.toml'} -> {tmp_path / 'two.toml'} "
        f"-> {tmp_path / 'one.toml'} (expected a chain that ends in a file without `extends`)"
    ]


def test_extends_self_and_missing_parent(tmp_path):
    me = write(tmp_path / "me.toml", 'extends = "me.toml"\n')
    assert "extends cycle" in problems_of(me)[0]
    orphan = write(tmp_path / "orphan.toml", '# no such parent\nextends = "classic1999"\n')
    (only,) = problems_of(orphan)
    assert only.startswith(f"{orphan}:2: extends: cannot find 'classic1999' (did you mean 'classic2003'? "
                           f"expected a shipped variant id (")
    assert "classic2003" in only


def test_child_needs_its_own_id(tmp_path):
    same = write(tmp_path / "same.toml", 'extends = "classic2003"\n[edition]\nid = "classic2003"\n')
    assert problems_of(same) == [
        f"{same}:3: edition.id: 'classic2003' is the id of the file it extends (expected an id of its own)"
    ]


# -- validation: everything at once --------------------------------------------------------

BAD = """
extends = "classic2003"

[edition]
id = "bad"
players = [1, 3, 4]
colour = "red"

[components]
starting_gold = "twenty"
starting_cards = ["architect", "wizard"]

[components.deck]
architect = 2

[[phases]]
rule = "province_draw"

[[phases]]
rule = "auktion"

[[phases]]
rule = "market"
[phases.params]
architect_stones = 2.5
speed = 3

[[phases]]
rule = "pyramids"

[rulings]
nile_compare = "sideways"
bribery_scope = true
"""


def test_bad_prices_are_each_reported_at_their_own_key(tmp_path):
    """A negative price, one too high, a misspelt kind key (with the key meant), a wrong type and
    a bad value of another parameter beside them: each is reported, at its line, none hidden
    behind another (a wrong type, or a first value out of range, once hid the rest)."""
    bad = write(tmp_path / "prices.toml", """
extends = "classic2003"
[edition]
id = "bad-prices"
name = "bad prices"
[params.market]
stones_price_step = -1
cards_first_price = 101
stone_first_price = 2
farmers_price_step = "two"
architect_stones = 0
""")
    keys = ("architect_stones, cards_first_price, cards_price_step, farmers_first_price, farmers_price_step, "
            "first_price, price_step, stones_first_price, stones_price_step")
    assert problems_of(bad) == [
        f"{bad}:6: params.market.stones_price_step: -1 is out of range (expected a value >= 0)",
        f"{bad}:7: params.market.cards_first_price: 101 is out of range (expected a value <= 100)",
        f"{bad}:8: params.market.stone_first_price: unknown parameter (did you mean 'stones_first_price'? "
        f"expected one of: {keys})",
        f"{bad}:9: params.market.farmers_price_step: wrong type: got \"two\", a string (expected an integer)",
        f"{bad}:10: params.market.architect_stones: 0 is out of range (expected a value >= 1)",
    ]


def test_bad_file_reports_every_problem_with_lines(tmp_path):
    bad = write(tmp_path / "bad.toml", BAD)
    problems = problems_of(bad)
    cards = ("architect, big_harvest, bribery, free_farmer, master_of_farmers, master_of_scribes, "
             "nile_frontier, offering_adjustment, protection, treasury, upper_lower, west_east")
    assert problems == [
        f"{bad}:5: edition.players[0]: 1 is too small (expected at least 2)",
        f"{bad}:6: edition.colour: unknown key (expected one of: board, id, kingdoms, name, players, "
        "rounds_per_kingdom, summary)",
        f"{bad}:9: components.starting_gold: wrong type: got \"twenty\", a string (expected an integer >= 0)",
        f"{bad}:10: components.starting_cards[0]: 4 players need 4 'architect' cards from the deck but it "
        "holds 2 (expected components.deck.architect >= 4)",
        f"{bad}:10: components.starting_cards[1]: 'wizard' is not a card kind (expected one of: {cards})",
        f"{bad}:19: phases[1].rule: unknown rule module 'auktion' (did you mean 'auction'? expected one of: "
        "auction, bonus_cards, complete_sets, fewest_pyramids, gold_ranking, harvest, market, nile_sides, "
        f"offering, province_draft, province_draw, pyramids, temples{OR_A_PLUGIN})",
        f"{bad}:24: phases[2].params.architect_stones: wrong type: got 2.5, a float (expected an integer)",
        f"{bad}:25: phases[2].params.speed: unknown parameter "
        "(expected one of: architect_stones, cards_first_price, cards_price_step, farmers_first_price, "
        "farmers_price_step, first_price, price_step, stones_first_price, stones_price_step)",
        f"{bad}:28: phases[3].rule: 'pyramids' is a scoring rule, not a phase rule "
        "(expected in [[phases]] one of: auction, harvest, market, offering, province_draft, province_draw)",
        f"{bad}:31: rulings.nile_compare: \"sideways\" is not allowed (expected one of: \"province\", \"side_total\")",
        f"{bad}:32: rulings.bribery_scope: wrong type: got true, a boolean (expected a string; one of: "
        "\"one_rebid\", \"whole_phase\")",
    ]
    # the error's text is the same lines
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    assert str(info.value) == "\n".join(problems)


def test_problems_in_an_inherited_key_point_at_the_parent(tmp_path):
    parent = write(tmp_path / "parent.toml", CLASSIC.read_text(encoding="utf-8").replace(
        'bribery_scope = "whole_phase"', 'bribery_scope = "often"').replace(
        'id = "classic2003"', 'id = "parent"'))
    child = write(tmp_path / "child.toml", """
extends = "parent.toml"
[edition]
id = "child"
[rulings]
nile_compare = "everywhere"
""")
    parent_line = next(i for i, line in enumerate(parent.read_text().splitlines(), 1) if "often" in line)
    assert problems_of(child) == [
        f"{child}:5: rulings.nile_compare: \"everywhere\" is not allowed (expected one of: \"province\", "
        "\"side_total\")",
        f"{parent}:{parent_line}: rulings.bribery_scope: \"often\" is not allowed (expected one of: "
        "\"one_rebid\", \"whole_phase\")",
    ]


def test_missing_keys_and_unknown_tables(tmp_path):
    bad = write(tmp_path / "thin.toml", """
[edition]
id = "thin"
name = "Thin"
players = [3]
board = "board.toml"
kingdoms = ["Old"]

[weather]
rain = true
""")
    problems = problems_of(bad)
    assert f"{bad}:1: edition.rounds_per_kingdom: missing (expected an integer >= 1)" in problems
    assert f"{bad}:1: components: missing (expected a table)" in problems
    assert f"{bad}:1: phases: missing (expected an array of tables)" in problems
    assert any(p.startswith(f"{bad}:8: weather: unknown table (") for p in problems)
    assert len(problems) == 4  # [rulings] may be left out: every ruling has its module default


def test_missing_board_file(tmp_path):
    bad = write(tmp_path / "noboard.toml", """
extends = "classic2003"
[edition]
id = "noboard"
board = "nile.toml"
""")
    (only,) = problems_of(bad)
    assert only.startswith(f"{bad}:4: edition.board: board file 'nile.toml' not found (expected a file next to")


def test_bad_board_is_reported_in_the_board_file(tmp_path):
    board = write(tmp_path / "tiny.toml", """
id = "tiny"
[[provinces]]
name = "Here"
half = "lower"
side = "west"
nile = true
card_limit = 9
""")
    bad = write(tmp_path / "tinyboard.toml", 'extends = "classic2003"\n[edition]\nid = "t"\nboard = "tiny.toml"\n')
    assert problems_of(bad) == [
        f"{board}:7: provinces[0].card_limit: 9 is out of range for Here (expected 0 to 4)",
    ]


def test_syntax_error_gives_its_line(tmp_path):
    bad = write(tmp_path / "syntax.toml", '[edition]\nid = "x"\nname = \n')
    (only,) = problems_of(bad)
    assert only.startswith(f"{bad}:3: TOML syntax error: ")
    assert "line 3" in only


def test_syntax_error_in_a_parent(tmp_path):
    write(tmp_path / "broken.toml", '[edition\n')
    child = write(tmp_path / "kid.toml", 'extends = "broken.toml"\n')
    (only,) = problems_of(child)
    assert only.startswith(f"{tmp_path / 'broken.toml'}:1: TOML syntax error: ")


def test_module_checks_report_beside_type_errors(tmp_path):
    """A type error elsewhere does not hold back a rule module's own check: the three
    problems of this file come in one report, not one after each fix."""
    bad = write(tmp_path / "three.toml", """
extends = "classic2003"
[edition]
id = "three"
rounds_per_kingdom = 5
[components]
starting_gold = "lots"
[rulings]
bribery_scope = 3
""")
    assert problems_of(bad) == [
        f"{bad}:4: edition.rounds_per_kingdom: 5 players over 5 rounds need 25 provinces but the board has 15 "
        "(lower the player counts or the rounds) (checked by rule module 'province_draw')",
        f"{bad}:6: components.starting_gold: wrong type: got \"lots\", a string (expected an integer >= 0)",
        f"{bad}:8: rulings.bribery_scope: wrong type: got 3, an integer (expected a string; one of: \"one_rebid\", "
        "\"whole_phase\")",
    ]


def test_a_deck_count_out_of_range_is_one_problem_at_its_key(tmp_path):
    bad = write(tmp_path / "deck.toml", 'extends = "classic2003"\n[edition]\nid = "d"\n'
                '[components.deck]\narchitect = -1\n')
    # not also at `components.deck`, and no derived "the deck holds -1" from the starting cards
    assert problems_of(bad) == [f"{bad}:5: components.deck.architect: -1 is too small (expected at least 0)"]
    (only,) = problems_of("classic2003", ["components.deck.bribery=101"])
    assert only == "--set components.deck.bribery=101: 101 is too large (expected at most 100)"


def test_a_check_that_needs_a_broken_value_waits_for_its_fix(tmp_path):
    """province_draw's check needs the rounds and the board: with either broken it says
    nothing (its answer depends on the fix) rather than guess or report its own failure."""
    rounds = write(tmp_path / "rounds.toml", 'extends = "classic2003"\n[edition]\nid = "r"\n'
                   'rounds_per_kingdom = "five"\n')
    assert problems_of(rounds) == [
        f"{rounds}:4: edition.rounds_per_kingdom: wrong type: got \"five\", a string (expected an integer >= 1)"]
    board = write(tmp_path / "tiny.toml", 'id = "tiny"\n[[provinces]]\nname = 7\n')
    both = write(tmp_path / "both.toml", 'extends = "classic2003"\n[edition]\nid = "b"\n'
                 'board = "tiny.toml"\nrounds_per_kingdom = 5\n')
    assert all(str(board) in line for line in problems_of(both))


def _wrong_type(value):
    """A value of another TOML type than `value`."""
    return '"text"' if isinstance(value, (bool, int)) else "7" if isinstance(value, str) else None


def _settable_keys(path):
    """(`--set` key, wrong value) for every scalar of a variant's edition, components,
    rulings and pipeline params."""
    data = load_variant(path).resolved
    keys = []
    for table in ("edition", "components", "rulings"):
        for key, value in data.get(table, {}).items():
            if _wrong_type(value):
                keys.append((f"{table}.{key}", _wrong_type(value)))
    from amunre.loader.pipelines import PIPELINES, entry_id, flat_entries

    for pipeline in PIPELINES:
        for _, entry, _ in flat_entries(data.get(pipeline), (pipeline,)):
            for key, value in entry.get("params", {}).items():
                if _wrong_type(value):
                    keys.append((f"{pipeline}.{entry_id(entry)}.params.{key}", _wrong_type(value)))
    return [(path, key, wrong) for key, wrong in keys]


SETTABLE = [case for path in variant_files() for case in _settable_keys(path)]


@given(st.sampled_from(SETTABLE))
def test_one_wrong_value_is_one_problem(case):
    """The stand-ins for a part that failed to type never make a rule module's check report
    something else: one wrong value in any shipped variant gives exactly one problem."""
    path, key, wrong = case
    (only,) = problems_of(path, [f"{key}={wrong}"])
    assert only.startswith(f"--set {key}={wrong}: ") and "wrong type" in only


# -- the schema stays in step with the model ---------------------------------------------


@pytest.mark.parametrize("table, cls", [("edition", Edition), ("components", Components)])
def test_schema_tables_match_the_model(table, cls):
    schema = load_schema("variant")["properties"][table]
    fields = attrs.fields(cls)
    assert set(schema["properties"]) == {f.name for f in fields}
    # required in a file without `extends` (a house rule gives only what it changes)
    required = load_schema("variant")["else"]["properties"][table]["required"]
    assert set(required) == {f.name for f in fields if f.default is attrs.NOTHING}
    for f in fields:
        options = getattr(f.validator, "options", None)
        if options is not None:
            assert schema["properties"][f.name]["enum"] == list(options)


# -- tomlpos -----------------------------------------------------------------------------


def test_key_lines_tracks_tables_arrays_and_inline_values():
    text = '''# top
title = "x"
a.b."c d" = { x = 1, y = [2,
  3] }
s = """one
two"""
[edition]
id = "e"
[[phases]]
rule = "a"
[[phases]]
rule = "b"
[phases.params]
bid_spaces = [0, 1]
[[phases.sub]]
q = 1
[rulings]
z = 'lit'
'''
    lines = key_lines(text)
    assert lines[("title",)] == 2
    assert lines[("a", "b", "c d", "x")] == 3
    assert lines[("a", "b", "c d", "y", 1)] == 4
    assert lines[("s",)] == 5
    assert lines[("edition", "id")] == 8
    assert lines[("phases", 0)] == 9 and lines[("phases", 0, "rule")] == 10
    assert lines[("phases", 1, "rule")] == 12
    assert lines[("phases", 1, "params", "bid_spaces")] == 14
    assert lines[("phases", 1, "sub", 0, "q")] == 16
    assert lines[("rulings", "z")] == 18
    assert line_for(lines, ("phases", 1, "params", "missing")) == 13
    assert line_for(lines, ("nothing",)) is None


def test_key_lines_of_the_shipped_file():
    text = CLASSIC.read_text(encoding="utf-8")
    lines = key_lines(text)
    source = text.splitlines()
    for path, line in lines.items():
        last = [p for p in path if isinstance(p, str)][-1]
        assert last in source[line - 1], (format_path(path), line)
    assert source[lines[("phases", 1, "params", "bid_spaces")] - 1].startswith("bid_spaces")


KEYS = st.text(alphabet="abz_-. 09", min_size=1, max_size=6)
SCALARS = st.one_of(
    st.integers(-10**6, 10**6), st.booleans(), st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet="ab #'\"\\=[]{},\n", max_size=8), st.lists(st.integers(0, 9), max_size=4),
)
TABLES = st.recursive(
    st.dictionaries(KEYS, SCALARS, max_size=4),
    lambda inner: st.dictionaries(KEYS, st.one_of(SCALARS, inner, st.lists(inner, min_size=1, max_size=3)),
                                  max_size=4),
    max_leaves=20,
)


def _paths(data, prefix=()):
    for key, value in data.items():
        path = prefix + (key,)
        yield path, key
        if isinstance(value, dict):
            yield from _paths(value, path)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for i, element in enumerate(value):
                yield from _paths(element, path + (i,))


@given(TABLES, st.booleans())
def test_key_lines_finds_every_key_tomli_w_writes(data, multiline):
    text = tomli_w.dumps(data, multiline_strings=multiline)
    lines = key_lines(text)
    source = text.splitlines()
    for path, key in _paths(data):
        assert path in lines, (format_path(path), text)
        written = source[lines[path] - 1]
        assert key in written or key in written.replace("\\", ""), (format_path(path), written)


def test_format_and_parse_paths():
    path = ("phases", 2, "params", "bid spaces")
    assert format_path(path) == 'phases[2].params."bid spaces"'
    assert parse_path(format_path(path)) == path
    assert format_path(("components", "deck", "architect")) == "components.deck.architect"


# -- generated docs ----------------------------------------------------------------------


@pytest.mark.parametrize("name, make", sorted(docgen.DOCS.items()))
def test_generated_docs_are_current(name, make):
    from conftest import project_variant_files

    committed = (REPO / "docs" / name).read_text(encoding="utf-8")
    # the index lists the project's own variant files, not one a designer dropped into variants/
    made = make(files=project_variant_files()) if name == "rules-index.md" else make()
    assert committed == made, f"docs/{name} is out of date: run `python -m amunre.testing.docgen`"


def test_a_generated_doc_is_its_template_with_the_code_filling_in(tmp_path, monkeypatch):
    """The prose lives in docs/templates/ (a writer edits Markdown); the code fills in only the
    `{{ name }}` blocks, and a block the template lacks or a name the code does not fill is an
    error rather than a silent gap."""
    template = (REPO / "docs" / "templates" / "decisions.md").read_text(encoding="utf-8")
    assert "{{ kinds }}" in template and "| kind | asked by |" in template
    monkeypatch.setattr(docgen, "TEMPLATES", tmp_path)
    (tmp_path / "decisions.md").write_text(template.replace("engine takes it", "engine answers it"), encoding="utf-8")
    assert "engine answers it" in docgen.decisions_markdown()
    (tmp_path / "decisions.md").write_text(template.replace("{{ kinds }}", "{{ kind }}"), encoding="utf-8")
    with pytest.raises(ValueError, match="the template uses"):
        docgen.decisions_markdown()


def test_rule_modules_doc_names_every_builtin_rule():
    text = docgen.rule_modules_markdown()
    for rule_id in ("auction", "market", "offering", "harvest", "province_draw", "gold_ranking", "bonus_cards"):
        assert f"`{rule_id}`" in text
    assert "protection_skip" in text and "`2`" in text


def test_variant_files_finds_any_toml_spelling_and_keeps_broken_files(tmp_path):
    from amunre.loader import variant_files

    (tmp_path / "house").mkdir()
    write(tmp_path / "board.toml", '[[provinces]]\nname = "X"\n')
    write(tmp_path / "plain.toml", '[edition]\nid = "plain"\n')
    write(tmp_path / "house" / "dotted.toml", 'extends = "classic2003"\nedition.id = "dotted"\n')
    write(tmp_path / "house" / "broken.toml", "[edition\n")
    found = [p.relative_to(tmp_path).as_posix() for p in variant_files(tmp_path)]
    assert found == ["plain.toml", "house/broken.toml", "house/dotted.toml"]


def test_a_rule_that_is_not_a_string_is_reported_not_crashed(tmp_path):
    path = write(tmp_path / "p.toml", PIPELINE_HEAD + "[[phases]]\nrule = [1]\n")
    assert problems_of(path) == [f"{path}:6: phases[0].rule: wrong type: got an array (expected a string)"]


# -- [terms] ---------------------------------------------------------------------------


def test_an_unknown_term_is_reported_with_the_closest_key(tmp_path):
    bad = write(tmp_path / "t.toml", 'extends = "supermeeple2016"\n[edition]\nid = "t"\n[terms]\n'
                'favr = "Gunst"\noffering_level_2 = "3 bis 12"\noffering_level_21 = "too far"\n')
    problems = problems_of(bad)
    assert len(problems) == 2
    assert problems[0].startswith(f"{bad}:5: terms.favr: unknown term (no word of the engine, its rule modules "
                                  "or cards) (did you mean 'favor'? expected one of: ")
    assert problems[1].startswith(f"{bad}:7: terms.offering_level_21: unknown term")


@pytest.mark.parametrize("path", variant_files(), ids=lambda p: p.stem)
def test_every_word_a_game_prints_is_a_term_a_variant_may_set(path, monkeypatch):
    """The known terms are complete: every key the engine, the modules and the play-by-play
    ask a variant for while a game is played and narrated is one a file may set."""
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.model import Variant
    from amunre.core.registry import all_rules
    from amunre.core.terms import is_known, known_terms
    from amunre.core.words import Narrator

    variant = load_variant(path)
    asked = set()
    real = Variant.term
    monkeypatch.setattr(Variant, "term", lambda self, key: asked.add(key) or real(self, key))
    n = max(variant.players)
    lines = []
    play_game(variant, make_agents(["greedy"] * n, 3), 3, [Narrator(variant, lines.append)])
    rules = all_rules()
    used = {s.rule for s in variant.phases + variant.scoring + variant.final_scoring}
    known = known_terms([rules[r] for r in used], variant.cards)
    assert lines and asked
    assert {key for key in asked if not is_known(key, known)} == set()


def test_two_phases_providing_the_round_provinces_are_refused(tmp_path):
    bad = write(tmp_path / "two.toml", 'extends = "supermeeple2016"\n[edition]\nid = "two"\n'
                '[[phases]]\nid = "draft"\nrule = "province_draft"\nbefore = "market"\n')
    # one problem at the draft's entry: it lays out the round's provinces the draw lays out (both
    # provide the round's provinces and publish them; the first said at a key is the one shown)
    (only,) = problems_of(bad)
    assert only.startswith(f"{bad}:6: ") and "'province_draft'" in only and "'province_draw'" in only, only
    assert "remove one of them" in only, only


def test_a_problem_of_two_keys_is_reported_at_the_one_the_user_wrote(tmp_path):
    """provinces_per_player (in the 2016 file) against rounds_per_kingdom (in the house
    rule, or a --set): the house rule's line, or the --set, is named."""
    house = write(tmp_path / "r4.toml", 'extends = "supermeeple2016"\n[edition]\nid = "r4"\nplayers = [3]\n'
                  'rounds_per_kingdom = 4\n')
    (only,) = problems_of(house)
    assert only.startswith(f"{house}:5: edition.rounds_per_kingdom: provinces_per_player is 3 but each kingdom "
                           "has 4 rounds")
    (only,) = problems_of("supermeeple2016", ["edition.rounds_per_kingdom=4", "edition.players=[3]"])
    assert only.startswith("--set edition.rounds_per_kingdom=4: provinces_per_player is 3")
    (only,) = problems_of("supermeeple2016", ["components.deck.architect=0"])
    assert only.startswith("--set components.deck.architect=0: 5 players need 5 'architect' cards")
