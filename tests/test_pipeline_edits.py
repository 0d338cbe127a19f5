"""Pipelines addressable by id, groups of steps, and `[rulings]` composed from the modules.

A file that `extends` another edits the parent's pipeline entries by id (replace, remove,
insert, move, change params); a phase may group steps under one heading; a variant sets
only the rulings it changes, each belonging to a module it uses. Each operation and each of
its errors is tested here.
"""

from __future__ import annotations

from pathlib import Path

from helpers import problems_of

from amunre.agents import make_agents
from amunre.core.engine import play_game
from amunre.loader import load_variant
from amunre.testing import check_variant

HEAD = 'extends = "classic2003"\n[edition]\nid = "edit-test"\nname = "an edited pipeline"\n'


def write(tmp_path: Path, body: str, name: str = "v.toml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def ids(specs) -> list[str]:
    return [s.id for s in specs]


CLASSIC_SCORING = ["pyramids", "complete_sets", "nile_sides", "temples", "bonus_cards"]  # the 2003 rulebook's order


# -- the operations ------------------------------------------------------------------------
def test_replace_an_entry_by_id_keeps_its_place(tmp_path):
    v = load_variant(write(tmp_path, '[[scoring]]\nid = "complete_sets"\nrule = "fewest_pyramids"\nname = "sets"\n'))
    assert ids(v.scoring) == CLASSIC_SCORING
    replaced = v.scoring[CLASSIC_SCORING.index("complete_sets")]
    assert (replaced.rule, replaced.name, replaced.params.points) == ("fewest_pyramids", "sets", 3)


def test_remove_an_entry_by_id(tmp_path):
    v = load_variant(write(tmp_path, '[[scoring]]\nid = "bonus_cards"\nremove = true\n'))
    assert ids(v.scoring) == CLASSIC_SCORING[:-1]
    assert "bonus_cards:upper_lower" not in [item.key for item in v.modules.items]


def test_insert_after_before_and_at_the_end(tmp_path):
    body = ('[[scoring]]\nid = "fewest"\nrule = "fewest_pyramids"\nafter = "pyramids"\n'
            '[[scoring]]\nid = "temples_again"\nrule = "temples"\nbefore = "temples"\n'
            '[[scoring]]\nid = "last"\nrule = "pyramids"\n')
    v = load_variant(write(tmp_path, body))
    assert ids(v.scoring) == ["pyramids", "fewest", "complete_sets", "nile_sides", "temples_again", "temples",
                              "bonus_cards", "last"]


def test_change_params_of_an_entry_by_id_and_move_it(tmp_path):
    body = '[[scoring]]\nid = "nile_sides"\nbefore = "pyramids"\n[scoring.params]\npoints = 4\n'
    v = load_variant(write(tmp_path, body))
    assert ids(v.scoring) == ["nile_sides", "pyramids", "complete_sets", "temples", "bonus_cards"]
    assert v.scoring[0].params.points == 4 and v.scoring[0].name == "Nile side"


def test_an_edited_game_plays_and_differs(tmp_path):
    base = load_variant("classic2003")
    v = load_variant(write(tmp_path, '[[scoring]]\nid = "complete_sets"\nremove = true\n'))
    game = play_game(v, make_agents(["greedy"] * 4, 3), 3)
    items = {key.split(":", 1)[1] for p in game.state.players for key in p.breakdown}
    assert "complete_sets" not in items and "pyramids" in items
    assert "complete_sets" in {k.split(":", 1)[1] for p in play_game(base, make_agents(["greedy"] * 4, 3), 3)
                               .state.players for k in p.breakdown}


# -- their errors --------------------------------------------------------------------------
def test_unknown_anchor_is_reported_with_a_suggestion(tmp_path):
    path = write(tmp_path, '[[scoring]]\nid = "x"\nrule = "pyramids"\nafter = "pyramid"\n')
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}:8: scoring[0].after: no entry 'pyramid' to place it next to "
                              "(did you mean 'pyramids'? expected one of: ")


def test_removing_an_unknown_id_is_reported(tmp_path):
    path = write(tmp_path, '[[scoring]]\nid = "bonus"\nremove = true\n')
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}:7: scoring[0].remove: no entry 'bonus' to remove (did you mean")


def test_a_new_id_without_a_rule_is_reported(tmp_path):
    path = write(tmp_path, '[[scoring]]\nid = "nile_side"\n[scoring.params]\npoints = 4\n')
    (problem,) = problems_of(path)
    assert "scoring[0]: no entry 'nile_side' in the pipeline it extends" in problem
    assert "did you mean 'nile_sides'?" in problem


def test_duplicate_ids_are_reported(tmp_path):
    path = write(tmp_path, '[[scoring]]\nid = "pyramids"\nname = "a"\n[[scoring]]\nid = "pyramids"\nname = "b"\n')
    (problem,) = problems_of(path)
    assert problem == f"{path}:8: scoring[1]: entry 'pyramids' is edited twice in this file (expected one entry per id)"
    plain = tmp_path / "plain.toml"
    text = (Path(load_variant("classic2003").source).read_text(encoding="utf-8")
            .replace('rule = "pyramids"\nname = "pyramids"', 'rule = "temples"\nname = "pyramids"'))
    plain.write_text(text, encoding="utf-8")
    assert any("duplicate entry id 'temples'" in p for p in problems_of(plain))


def test_after_and_before_together_are_reported(tmp_path):
    path = write(tmp_path, '[[scoring]]\nid = "x"\nrule = "pyramids"\nafter = "temples"\nbefore = "temples"\n')
    assert problems_of(path) == [f"{path}:9: scoring[0].before: an entry goes either `after` or `before` "
                                 "another (expected one of them)"]


def test_an_insert_that_breaks_the_round_order_is_reported(tmp_path):
    path = write(tmp_path, '[[phases]]\nid = "auction2"\nrule = "auction"\nbefore = "province_draw"\n')
    found = problems_of(path)
    assert f"{path}:7: phases[0].rule: 'auction' needs 'provinces' from an earlier phase of the round " \
           "(expected one of province_draft, province_draw before it)" in found


# -- groups: one heading over several steps ------------------------------------------------
GROUP = '''
[[phases]]
id = "province_draw"
remove = true

[[phases]]
id = "auction"
remove = true

[[phases]]
id = "auction_phase"
name = "Auction Phase"
before = "market"
steps = [{ rule = "province_draw", name = "draw" },
         { rule = "auction", name = "bid", params = { protection_skip = 3 } }]
'''


def test_a_group_runs_its_steps_under_one_heading(tmp_path):
    v = load_variant(write(tmp_path, GROUP))
    assert ids(v.phases) == ["province_draw", "auction", "market", "offering", "harvest"]
    assert [s.group for s in v.phases[:3]] == ["auction_phase", "auction_phase", None]
    assert v.phases[1].params.protection_skip == 3
    events = []
    game = play_game(v, make_agents(["greedy"] * 4, 2), 2, [events.append])
    headings = [e["name"] for e in events if e["event"] == "phase"][:4]
    assert headings == ["Auction Phase", v.phases[2].name, v.phases[3].name, v.phases[4].name]
    assert all(len(p.provinces) == 3 for p in game.state.players)


def test_a_step_of_a_group_is_edited_by_id(tmp_path):
    grouped = write(tmp_path, GROUP, "grouped.toml")
    child = tmp_path / "child.toml"
    child.write_text(f'extends = "{grouped.name}"\n[edition]\nid = "child"\n'
                     '[[phases]]\nid = "auction"\n[phases.params]\nbid_spaces = [0, 2, 4, 8]\n', encoding="utf-8")
    v = load_variant(child)
    assert v.phases[1].group == "auction_phase"
    assert v.phases[1].params.bid_spaces == (0, 2, 4, 8) and v.phases[1].params.protection_skip == 3


def test_a_grouped_variant_passes_the_conformance_suite(tmp_path):
    report = check_variant(write(tmp_path, GROUP), seeds=range(2), players=[3])
    assert report.games == 4


def test_a_group_without_an_id_or_with_a_rule_is_reported(tmp_path):
    text = Path(load_variant("classic2003").source).read_text(encoding="utf-8")
    bad = text.replace(
        '[[phases]]\nrule = "province_draw"\nname = "phase 1: place the province cards"\n',
        '[[phases]]\nrule = "market"\nsteps = [{ rule = "province_draw" }]\n')
    path = tmp_path / "bad.toml"
    path.write_text(bad, encoding="utf-8")
    found = problems_of(path)
    assert any("phases[0]: a group of `steps` has no `rule` or `params` of its own" in p for p in found)
    path.write_text(bad.replace('rule = "market"\nsteps', 'steps'), encoding="utf-8")
    assert any("phases[0]: a group of `steps` needs an `id`" in p for p in problems_of(path))


# -- rulings composed from the modules -----------------------------------------------------
def test_a_file_sets_only_the_rulings_it_changes(tmp_path):
    v = load_variant(write(tmp_path, "[rulings]\nnile_compare = \"side_total\"\n"))
    base = load_variant("classic2003")
    assert v.rulings.nile_compare == "side_total"
    assert v.rulings.evolve(nile_compare="province") == base.rulings


def test_rulings_left_out_take_the_module_defaults(tmp_path):
    text = Path(load_variant("classic2003").source).read_text(encoding="utf-8")
    no_rulings = text.split("# Rulings (SPEC")[0]
    path = tmp_path / "bare.toml"
    path.write_text(no_rulings, encoding="utf-8")
    v = load_variant(path)
    from amunre.rules.auction import Rulings as AuctionRulings

    assert v.rulings.of(AuctionRulings) == AuctionRulings()
    assert v.rulings.finite_supply is True and v.rulings.nile_min_pyramids == 1


def test_an_unknown_ruling_is_reported_with_a_close_match(tmp_path):
    path = write(tmp_path, "[rulings]\nsell_card_to_bid = false\n")
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}:6: rulings.sell_card_to_bid: unknown ruling "
                              "(did you mean 'sell_cards_to_bid'? expected one of: ")


def test_a_ruling_of_a_module_the_variant_does_not_use_is_reported(tmp_path):
    path = write(tmp_path, '[[scoring]]\nid = "nile_sides"\nremove = true\n[rulings]\nnile_compare = "side_total"\n')
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}:9: rulings.nile_compare: ruling of rule module 'nile_sides', "
                              "which this variant does not use (expected one of: ")
    # inherited from the parent, it leaves with the module the child removed
    v = load_variant(write(tmp_path, '[[scoring]]\nid = "nile_sides"\nremove = true\n', "inherited.toml"))
    assert "nile_compare" not in v.rulings.as_dict()


# -- found by an independent review ---------------------------------------------------------
def test_a_group_cannot_move_next_to_its_own_step(tmp_path):
    grouped = write(tmp_path, GROUP, "grouped.toml")
    child = tmp_path / "child.toml"
    child.write_text(f'extends = "{grouped.name}"\n[edition]\nid = "child"\n'
                     '[[phases]]\nid = "auction_phase"\nafter = "auction"\n', encoding="utf-8")
    assert problems_of(child) == [f"{child}:6: phases[0].after: entry 'auction_phase' cannot be placed next to "
                                  "itself or one of its own steps (expected the id of another entry)"]


def test_remove_must_be_true_or_false_and_alone(tmp_path):
    path = write(tmp_path, '[[scoring]]\nid = "bonus_cards"\nremove = "yes"\n')
    assert problems_of(path) == [f"{path}:7: scoring[0].remove: wrong type: got \"yes\", a string "
                                 "(expected true or false)"]
    path = write(tmp_path, '[[scoring]]\nid = "bonus_cards"\nremove = true\nafter = "pyramids"\n', "b.toml")
    assert problems_of(path) == [f"{path}:8: scoring[0].after: a removed entry takes no other keys "
                                 "(expected only its id (or its rule) and remove = true)"]


def test_two_entries_of_one_rule_score_apart(tmp_path):
    v = load_variant(write(tmp_path, '[[scoring]]\nid = "temples_twice"\nrule = "temples"\nafter = "pyramids"\n'))
    labels = {item.key: item.label for item in v.modules.items}
    assert labels["temples"] == "temples" and labels["temples_twice"] == "temples_twice"
    game = play_game(v, make_agents(["greedy"] * 3, 1), 1)
    for player in game.state.players:
        assert player.breakdown["0:temples"] == player.breakdown["0:temples_twice"]
        assert sum(player.breakdown.values()) == player.score


def test_one_offering_per_round_and_groups_one_level_deep(tmp_path):
    path = write(tmp_path, '[[phases]]\nid = "offering2"\nrule = "offering"\n')
    assert any("'offering' may appear only once per round" in p for p in problems_of(path))
    nested = GROUP.replace('steps = [{ rule = "province_draw", name = "draw" },',
                           'steps = [{ id = "inner", steps = [{ rule = "province_draw" }] },')
    assert any("a step of a group cannot be a group itself" in p
               for p in problems_of(write(tmp_path, nested, "n.toml")))


# -- ids across pipelines: a lookup by id finds the entry meant -------------------------------


def test_an_entry_id_is_unique_across_all_pipelines(tmp_path):
    """A phase, a scoring entry and a final scoring entry cannot share an id: an id edits an
    entry and looks its module up, whichever pipeline it stands in."""
    path = write(tmp_path, '[[final_scoring]]\nid = "temples"\nrule = "gold_ranking"\n')
    assert problems_of(path) == [
        f"{path}:6: final_scoring[0].id: duplicate entry id 'temples' (also at scoring[3]) (expected each id "
        "once across [[phases]], [[scoring]] and [[final_scoring]]; give one of them its own `id`)"]
    path = write(tmp_path, '[[phases]]\nid = "harvest"\nname = "gather"\n[[scoring]]\nid = "gather"\n'
                 'rule = "pyramids"\n[[phases]]\nid = "offering"\n', "p.toml")
    assert load_variant(path)  # ids of their own: fine
    path = write(tmp_path, '[[scoring]]\nid = "market"\nrule = "temples"\nafter = "pyramids"\n', "s.toml")
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}:6: scoring[0].id: duplicate entry id 'market' (also at phases[2])")


def test_a_set_id_clashing_with_another_pipeline_is_reported_at_the_set(capsys):
    """`--set phases.harvest.id=bonus_cards` used to pass `validate`, then crash the game
    where the greedy agent looked the bonus cards' rule up: it is one problem at the `--set`,
    for every command that loads the variant."""
    from helpers import run_cli

    setting = "phases.harvest.id=bonus_cards"
    wanted = (f"--set {setting}: duplicate entry id 'bonus_cards' (also at scoring[4]) (expected each id once "
              "across [[phases]], [[scoring]] and [[final_scoring]]; give one of them its own `id`)")
    assert problems_of("classic2003", [setting]) == [wanted]
    for command in (["validate", "classic2003"], ["run", "--players", "3"]):
        code, out, err = run_cli(capsys, *command, "--set", setting)
        assert code != 0 and wanted in out + err and "Traceback" not in out + err and "internal error" not in err
    # the clash is named where the user wrote it, whichever entry comes first
    (problem,) = problems_of("classic2003", ["phases.auction.id=harvest"])
    assert problem.startswith("--set phases.auction.id=harvest: duplicate entry id 'harvest' (also at phases[4])")
    (problem,) = problems_of("classic2003", ["final_scoring.gold_ranking.id=province_draw"])
    assert problem.startswith("--set final_scoring.gold_ranking.id=province_draw: duplicate entry id "
                              "'province_draw' (also at phases[0])")


def test_an_entry_id_naming_another_entrys_rule_is_reported():
    """With the bonus cards' entry renamed, a harvest with id "bonus_cards" is unique, but a
    lookup of the rule `bonus_cards` by id would find the harvest: refused too."""
    (problem,) = problems_of("classic2003", ["scoring.bonus_cards.id=bonus_points", "phases.harvest.id=bonus_cards"])
    assert problem == ("--set phases.harvest.id=bonus_cards: entry id 'bonus_cards' of phases[4] is also the rule "
                       "of scoring[4]: a lookup of 'bonus_cards' could not tell them apart (expected an id that is "
                       "no other entry's rule id)")
    # an entry that keeps the id of a rule nobody else uses is fine (secret-hands-2003 does)
    assert load_variant("classic2003", ["phases.province_draw.rule=province_draft"])


def test_a_lookup_by_id_finds_the_entry_meant():
    """`Modules.rule` reads an entry id first, else a rule id; entries renamed away from their
    rule ids are still found by rule id, and a game with them plays (the greedy agent looks
    the harvest and the bonus cards up by rule id)."""
    import attrs
    import pytest

    from amunre.core.errors import AmunreError

    variant = load_variant("monumental-pyramids")
    modules = variant.modules
    assert modules.rule("pyramids_again").spec.id == "pyramids_again"
    assert modules.rule("pyramids").spec.id == "pyramids" and modules.rule("scoring:pyramids").spec.id == "pyramids"
    assert modules.rule("nothing") is None
    renamed = load_variant("classic2003", ["phases.harvest.id=gather", "scoring.bonus_cards.id=bonus_points"])
    assert renamed.modules.rule("harvest").spec.id == "gather"
    assert renamed.modules.rule("bonus_cards").spec.id == "bonus_points"
    game = play_game(renamed, make_agents(["greedy"] * 3, 2), 2)
    assert game.state.finished
    # a variant built around the loader with a clashing id: the lookup refuses, never guesses
    plain = load_variant("classic2003")
    harvest = plain.phases[-1]
    clashing = attrs.evolve(plain, phases=plain.phases[:-1] + (attrs.evolve(harvest, id="bonus_cards"),))
    with pytest.raises(AmunreError, match="rule 'bonus_cards' cannot be looked up by id"):
        clashing.modules.rule("bonus_cards")
    assert clashing.modules.rule("auction").spec.id == "auction"


def test_a_value_read_but_published_by_no_module_is_reported(tmp_path):
    """`Rule.reads_published` as names a module cannot go without: the auction auctions the
    round's provinces a draw publishes; without any draw the file is refused at load, the
    reader named with the value, not in the middle of a game."""
    path = write(tmp_path, '[[phases]]\nid = "province_draw"\nremove = true\n')
    found = problems_of(path)
    assert any("rule module 'auction' reads 'round_provinces', which no rule module of the variant publishes"
               in problem and "such as province_draft, province_draw" in problem for problem in found), found


def test_a_value_read_with_a_stand_in_plays_without_its_publisher(tmp_path):
    """`Rule.reads_published` as a mapping: what a module reads where nobody publishes the
    name. A house rule without the offering still loads and plays: the harvest and the temples
    read the level their mapping gives, the gold ranking no theft cards."""
    path = write(tmp_path, '[[phases]]\nid = "offering"\nremove = true\n')
    variant = load_variant(path)
    assert "offering_level" not in variant.modules.published_at
    game = play_game(variant, make_agents(["greedy"] * 4, 3), 3)
    assert game.state.finished
    for key in ("harvest", "temples"):
        module = variant.modules.rule(key)
        assert module.published(game.state, "offering_level") == module.reads_published["offering_level"]
    ranking = variant.modules.rule("gold_ranking")
    assert ranking.counted_gold(game.state) == [player.gold for player in game.state.players]


def test_two_rule_modules_publishing_one_value_are_reported(tmp_path):
    """One rule module of a variant publishes each name (its readers would not know whose to
    read): a second draw of the round's provinces beside the first is refused."""
    path = write(tmp_path, '[[phases]]\nid = "draft"\nrule = "province_draft"\nafter = "province_draw"\n')
    found = problems_of(path)
    assert any("publishes 'round_provinces', which rule module 'province_draw' publishes already" in problem
               for problem in found), found
