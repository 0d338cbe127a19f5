"""A `[[scoring]]` entry that scores in some kingdoms only (`kingdoms = ["New Kingdom"]`):
what the loader makes of the key and says of a wrong one, `Modules.scoring_in`, the game's flow
(R-GAME-01) and the faces that show a variant (`amunre show`, `amunre diff`). The shipped
example is variants/house/new-kingdom-pyramids.toml.
"""

from __future__ import annotations

import json

import pytest
from helpers import problems_of, run_cli, write

from amunre.agents import make_agents
from amunre.core.engine import play_game
from amunre.core.errors import AmunreError
from amunre.loader import load_variant
from amunre.planning.position import score_position

HOUSE = "new-kingdom-pyramids"


def _scored_by_kingdom(events) -> dict[int, dict[str, list[int]]]:
    """Kingdom index -> scoring item -> the points of each `score` event in that kingdom's scoring."""
    out: dict[int, dict[str, list[int]]] = {}
    kingdom = None
    for e in events:
        if e["event"] == "scoring":
            kingdom = e["kingdom"]
        elif e["event"] == "scoring_end":
            kingdom = None
        elif e["event"] == "score" and kingdom is not None:
            out.setdefault(kingdom, {}).setdefault(e["item"], []).append(e["points"])
    return out


def test_r_sco_02_new_kingdom_pyramids_scores_its_second_pyramid_item_in_the_new_kingdom_only():
    """R-SCO-02 with a house rule's `kingdoms`: the Old Kingdom's scoring has no points for
    `pyramids_again`, the New Kingdom's scores it like the first pyramid item (1 a pyramid, 2 a
    double), for every player; read from the events and from the breakdown."""
    variant = load_variant(HOUSE)
    events: list[dict] = []
    game = play_game(variant, make_agents(["greedy"] * 4, 3), 3, [events.append])
    scored = _scored_by_kingdom(events)
    assert "pyramids" in scored[0] and "pyramids_again" not in scored[0]
    assert scored[1]["pyramids_again"] == scored[1]["pyramids"] and len(scored[1]["pyramids"]) == 4
    assert sum(scored[1]["pyramids_again"]) > 0  # (pyramids stood at the New Kingdom's end: not vacuous)
    for player in game.state.players:
        assert "0:pyramids_again" not in player.breakdown
        assert player.breakdown["1:pyramids_again"] == player.breakdown["1:pyramids"]


def test_scoring_in_is_every_entry_in_every_kingdom_of_the_editions():
    """Without `kingdoms`, each kingdom scores every entry: `scoring_in(k)` is `scoring` itself."""
    for vid in ("classic2003", "supermeeple2016", "monumental-pyramids"):
        modules = load_variant(vid).modules
        for k in range(len(load_variant(vid).edition.kingdoms)):
            assert modules.scoring_in(k) == modules.scoring
            assert modules.scoring_in(k) is modules.scoring


def test_scoring_in_leaves_out_an_entry_before_its_kingdom_and_asks_a_kingdom_that_exists():
    variant = load_variant(HOUSE)
    modules = variant.modules
    assert [s.kingdoms for s in variant.scoring if s.id == "pyramids_again"] == [(1,)]
    assert all(s.kingdoms is None for s in variant.scoring if s.id != "pyramids_again")
    assert [m.key for m in modules.scoring_in(0)] == [m.key for m in modules.scoring if m.spec.id != "pyramids_again"]
    assert modules.scoring_in(1) == modules.scoring
    assert modules.scoring_in(0) is modules.scoring_in(0)  # worked out once
    for wrong in (2, -1, "1"):
        with pytest.raises(AmunreError, match="no kingdom"):
            modules.scoring_in(wrong)


def test_r_game_01_the_flow_scores_each_kingdoms_own_items():
    """R-GAME-01: the plan runs at each kingdom's end the modules of `scoring_in(k)`, in order."""
    from amunre.core.flow import flow_plan

    variant = load_variant(HOUSE)
    plan = flow_plan(variant)
    ends = [i for i, (step, _) in enumerate(plan) if step is not None and step.__name__ == "_scoring_step"]
    for k, start in enumerate(ends):
        ran = []
        for step, arg in plan[start + 1:]:
            if step is not None and step.__name__ == "_scoring_end_step":
                break
            if step is None:
                ran.append(arg)
        assert tuple(ran) == variant.modules.scoring_in(k)


def test_a_position_scores_the_items_of_its_own_kingdom():
    """`score_position` (`amunre score`, the human seat's projection) scores the items of the
    position's kingdom: no `pyramids_again` in the Old Kingdom, both pyramid items in the New."""
    from amunre.core.engine import Game

    variant = load_variant(HOUSE)
    state = Game(variant, 3, 1).state.clone()
    state.kingdom = 0
    names = [item.name for item in score_position(variant, state).items]
    assert "pyramids (New Kingdom bonus)" not in names and len(names) == len(variant.scoring) - 1
    state.kingdom = 1
    names = [item.name for item in score_position(variant, state).items]
    assert names[:2] == ["pyramids", "pyramids (New Kingdom bonus)"] and len(names) == len(variant.scoring)


def test_an_extending_file_sets_kingdoms_on_an_inherited_entry_by_id(tmp_path):
    path = write(tmp_path / "late-temples.toml", """
extends = "classic2003"

[edition]
id = "late-temples"

[[scoring]]
id = "temples"
kingdoms = ["New Kingdom", "Old Kingdom"]
""")
    variant = load_variant(path)
    temples = next(s for s in variant.scoring if s.id == "temples")
    assert temples.kingdoms == (0, 1)  # each once, in play order: every kingdom, as without the key
    assert [s.id for s in variant.scoring] == [s.id for s in load_variant("classic2003").scoring]


BAD = """
extends = "classic2003"

[edition]
id = "bad-kingdoms"

[[phases]]
id = "auction"
kingdoms = ["New Kingdom"]

[[scoring]]
id = "pyramids_again"
rule = "pyramids"
kingdoms = ["Middle Kingdom"]

[[scoring]]
id = "temples"
kingdoms = []

[[scoring]]
id = "nile_sides"
kingdoms = ["New Kingdom", "New Kingdom"]

[[final_scoring]]
id = "gold_ranking"
kingdoms = ["New Kingdom"]
"""


def test_a_wrong_kingdoms_is_a_problem_at_its_file_line_and_key_and_validate_exits_1(capsys, tmp_path):
    """A kingdom the edition does not have, an empty list, a kingdom twice, and the key on a
    phase or a final scoring item: each reported with its file, line and key, all at once."""
    bad = write(tmp_path / "bad.toml", BAD)
    expected = [
        f"{bad}:8: phases[0].kingdoms: `kingdoms` belongs to [[scoring]] entries only: a [[phases]] entry runs "
        "once per round (expected no `kingdoms` here; a [[scoring]] entry, scored at a kingdom's end, takes it)",
        f'{bad}:13: scoring[0].kingdoms: "Middle Kingdom" is not a kingdom of this edition (did you mean '
        "'Old Kingdom'? expected each of the edition's kingdoms at most once: Old Kingdom, New Kingdom)",
        f"{bad}:17: scoring[1].kingdoms: an empty list: the entry would score at no kingdom's end (expected one "
        "or more of the edition's kingdoms: Old Kingdom, New Kingdom; leave `kingdoms` out to score at the end "
        "of every kingdom)",
        f'{bad}:21: scoring[2].kingdoms: "New Kingdom" is named twice (expected each of the edition\'s kingdoms '
        "at most once: Old Kingdom, New Kingdom)",
        f"{bad}:25: final_scoring[0].kingdoms: `kingdoms` belongs to [[scoring]] entries only: a [[final_scoring]] "
        "entry runs once, after the last kingdom's scoring (expected no `kingdoms` here; a [[scoring]] entry, "
        "scored at a kingdom's end, takes it)",
    ]
    assert problems_of(bad) == expected
    code, out, _ = run_cli(capsys, "validate", str(bad))
    assert code == 1 and out.splitlines() == expected + [f"{bad}: 5 problems"]


def test_a_house_rule_that_renames_the_kingdoms_is_told_at_its_own_line(tmp_path):
    path = write(tmp_path / "ages.toml", """
extends = "new-kingdom-pyramids"

[edition]
id = "ages"
kingdoms = ["First Age", "Second Age"]
""")
    assert problems_of(path) == [
        f"{path}:5: edition.kingdoms: the [[scoring]] entry 'pyramids_again' names \"New Kingdom\", which is not "
        "a kingdom of this edition (expected each of the edition's kingdoms at most once: First Age, Second Age)"]


def test_set_gives_an_entry_its_kingdoms_and_is_checked_like_a_file():
    variant = load_variant("classic2003", ['scoring.temples.kingdoms=["Old Kingdom"]'])
    assert next(s for s in variant.scoring if s.id == "temples").kingdoms == (0,)
    assert problems_of("classic2003", ["scoring.temples.kingdoms=[]"]) == [
        "--set scoring.temples.kingdoms=[]: an empty list: the entry would score at no kingdom's end (expected "
        "one or more of the edition's kingdoms: Old Kingdom, New Kingdom; leave `kingdoms` out to score at the "
        "end of every kingdom)"]


def test_show_writes_the_kingdoms_by_name_and_loads_as_the_same_variant(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "show", HOUSE)
    assert code == 0 and 'name = "pyramids (New Kingdom bonus)"\nkingdoms = ["New Kingdom"]\n' in out
    assert out.count("kingdoms = ") == 2  # the edition's, and the one entry's
    saved = write(tmp_path / "shown.toml", out)
    assert load_variant(saved).scoring == load_variant(HOUSE).scoring
    code, out, _ = run_cli(capsys, "show", "classic2003")
    assert out.count("kingdoms = ") == 1  # an entry without the key is shown as before


def test_diff_says_where_an_entry_scores_in_plain_words(capsys):
    code, out, _ = run_cli(capsys, "diff", "monumental-pyramids", HOUSE)
    assert code == 0
    row = next(line for line in out.splitlines() if line.strip().startswith("scoring.pyramids_again"))
    assert row.split("  ")[-1].strip() == 'pyramids "pyramids (New Kingdom bonus)", only at the end of: New Kingdom'
    code, out, _ = run_cli(capsys, "diff", "classic2003", HOUSE, "--json")
    rows = json.loads(out)["groups"]["scoring"]
    assert {"key": "scoring.pyramids_again", "a": None,
            "b": {"rule": "pyramids", "name": "pyramids (New Kingdom bonus)", "kingdoms": ["New Kingdom"]}} in rows


def _doc_example(heading: str) -> str:
    """The first TOML example under `heading` in docs/variant-format.md."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "variant-format.md").read_text(encoding="utf-8")
    section = doc[doc.index(f"## {heading}\n"):]
    return re.search(r"```toml\n(.*?)```", section, re.S).group(1)


def test_values_per_kingdom_as_the_variant_format_shows_them(tmp_path):
    """docs/variant-format.md's "Values per kingdom" example: one rule in two entries, each
    scoring in its own kingdom with its own points; a seeded game's Nile sides score the Old
    Kingdom's entry's points in the Old Kingdom and the other's in the New, under one name."""
    variant = load_variant(write(tmp_path / "rising-nile.toml", _doc_example("Values per kingdom")))
    entries = {s.id: s for s in variant.scoring if s.rule == "nile_sides"}
    assert set(entries) == {"nile_sides", "nile_sides_new"}
    assert entries["nile_sides"].name == entries["nile_sides_new"].name
    events: list = []
    play_game(variant, make_agents(["greedy"] * 4, 4), 2, [events.append])
    scored = _scored_by_kingdom(events)
    for k, kingdom in enumerate(variant.edition.kingdoms):
        (eid,) = [s.id for s in entries.values() if s.kingdoms is None or k in s.kingdoms]
        nile = {item: points for item, points in scored[k].items() if item.startswith("nile_sides")}
        assert nile and all(item.startswith(f"{eid}_") for item in nile), (kingdom, nile)
        assert {p for points in nile.values() for p in points} <= {0, entries[eid].params.points}, (kingdom, nile)
    assert entries["nile_sides"].params.points != entries["nile_sides_new"].params.points


def test_the_prices_example_of_the_variant_format_is_the_shipped_cheap_stones():
    """docs/variant-format.md's "Prices per kind" example sets what variants/house/cheap-stones.toml
    sets: the same market params once loaded."""
    import tomllib

    example = tomllib.loads(_doc_example("Prices per kind"))
    shipped = load_variant("cheap-stones")
    assert example["extends"] == tomllib.loads(open(shipped.source, encoding="utf-8").read())["extends"]
    settings = [f"params.market.{key}={value}" for key, value in example["params"]["market"].items()]
    changed = load_variant(example["extends"], settings)
    market = [s.params for s in changed.phases if s.rule == "market"]
    assert market == [s.params for s in shipped.phases if s.rule == "market"]
