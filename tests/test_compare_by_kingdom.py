"""`amunre compare` by kingdom: every rule module's row also counted within each kingdom
(`kingdomK.ROW`), shown in a table of its own, in `--json` (`by_kingdom`), `--csv` and
`--records`.

The property: a sum or a per-player row's kingdoms add up to the game's, and a share's levels
to 1 within each kingdom, over every variant file (each with its own kingdoms) and a house rule
of three kingdoms. The demonstration a designer needs: a second pyramids item scored at the
New Kingdom's end only (variants/house/new-kingdom-pyramids.toml) makes the planner, which
looks past its kingdom, build more pyramids in the Old Kingdom.

Games of the demonstration per column: 60 in the quick `ci` profile, up to 8 times that in
`deep` (`HYPOTHESIS_PROFILE=deep`), as tests/test_planner_behaviour.py keys its games;
`AMUNRE_BEHAVIOUR_GAMES=n` sets it outright.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import jsonschema
import pytest
from conftest import REPO, variant_files
from helpers import Inline, run_cli
from hypothesis import settings

from amunre.agents import make_agents
from amunre.compare import stats
from amunre.compare.collect import KINGDOM_PREFIX, StatsCollector, kingdom_key, kingdom_of
from amunre.compare.jobs import job_for
from amunre.compare.run import Column, run_comparison, summarize, summarize_by_kingdom
from amunre.core.engine import Game, play_on
from amunre.loader import load_variant
from amunre.loader.resources import load_schema

#: A house rule of three kingdoms (the shipped editions have two).
THREE = """extends = "classic2003"
[edition]
id = "three-kingdoms"
name = "2003 in three kingdoms"
kingdoms = ["Old Kingdom", "Middle Kingdom", "New Kingdom"]
"""

#: The demonstration's games per column: 60 in the quick profile, up to 8 times that deeper.
GAMES = int(os.environ.get("AMUNRE_BEHAVIOUR_GAMES") or 60 * min(8, max(1, settings.default.max_examples // 25)))


@pytest.fixture(scope="module")
def three(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("three") / "three-kingdoms.toml"
    path.write_text(THREE, encoding="utf-8")
    return path


def _played(variant, players: int, seed: int) -> tuple[StatsCollector, dict]:
    collector = StatsCollector(variant)
    game = Game(variant, players, seed, [collector])
    play_on(game, make_agents(["random"] * players, seed))
    return collector, collector.record(game)


def _check_adds_up(variant) -> None:
    kingdoms = len(variant.edition.kingdoms)
    players = min(variant.players)
    for seed in range(2):
        collector, values = _played(variant, players, seed)
        rows = [key for key in collector.modes if key in collector.kingdom_keys]
        assert rows, "no rule module's statistic"
        for key in rows:
            split = [kingdom_key(key, k) for k in range(kingdoms)]
            # the collector's keys are the variant's kingdoms, no more
            assert collector.kingdom_keys[key] == tuple(split)
            assert kingdom_key(key, kingdoms) not in collector.modes
            assert all(collector.modes[k] == collector.modes[key] for k in split)
            if collector.modes[key] in ("sum", "per_player"):
                assert sum(values.get(k, 0) for k in split) == pytest.approx(values.get(key, 0)), key
        for k in range(kingdoms):  # a share's levels make up the kingdom's events
            shares = [v for name, v in values.items()
                      if kingdom_of(name) and kingdom_of(name)[0] == k and collector.modes[name] == "share"]
            assert not shares or sum(shares) == pytest.approx(1)
        assert all(kingdom_of(name)[0] < kingdoms for name in values if kingdom_of(name))


@pytest.mark.parametrize("path", variant_files(), ids=[f.stem for f in variant_files()])
def test_a_sum_rows_kingdoms_add_up_to_the_game(path):
    """Over every variant file, each with its own kingdoms: a sum or per-player row's values per
    kingdom add up to the game's (the final scoring counts in the last kingdom); a share's
    levels add up to 1 within a kingdom."""
    _check_adds_up(load_variant(path))


def test_a_house_rule_of_three_kingdoms_has_three(three):
    variant = load_variant(three)
    _check_adds_up(variant)
    _, values = _played(variant, 4, 0)
    assert {kingdom_of(k)[0] for k in values if kingdom_of(k)} == {0, 1, 2}
    assert values["kingdom3.points.gold_ranking"] > 0 == values["kingdom2.points.gold_ranking"]  # the final scoring


def test_the_by_kingdom_keys_read_back():
    assert kingdom_key("points.pyramids", 0) == "kingdom1.points.pyramids"
    assert kingdom_of("kingdom12.offering_level.3") == (11, "offering_level.3")
    assert kingdom_of("points.pyramids") is None and kingdom_of(KINGDOM_PREFIX + "x.y") is None
    assert kingdom_of("kingdom0.auction_price") is None


def test_kingdoms_are_compared_by_place_and_the_label_names_each_sides(three):
    """classic2003 (two kingdoms) against three: the second kingdom's label names both sides'
    names, the third's says classic2003 has none, and its cell there is empty; the by-kingdom
    rows are a Holm family of their own and none is in the main table."""
    columns = [Column(label, variant, job_for(variant, (), 4, ["random"]))
               for label, variant in (("classic2003", load_variant("classic2003")),
                                      ("three-kingdoms", load_variant(three)))]
    comparison = run_comparison(columns, 8, 1, Inline())
    main = summarize(comparison)
    rows = {row.key: row for row in summarize_by_kingdom(comparison)}
    assert not any(kingdom_of(row.key) for row in main)
    first = rows["kingdom1.pyramids_built"]
    assert first.label.endswith(", Old Kingdom") and first.kingdom == 0 and first.row == "pyramids_built"
    second = rows["kingdom2.pyramids_built"]
    assert second.label.endswith(", kingdom 2 (New Kingdom in classic2003; Middle Kingdom in three-kingdoms)")
    third = rows["kingdom3.pyramids_built"]
    assert third.label.endswith(", kingdom 3 (New Kingdom in three-kingdoms; none in classic2003)")
    assert third.values[0] is None and third.values[1] is not None and third.versus[1] is None
    assert third.kingdoms == [None, "New Kingdom"]
    # the same seeds and the same rules in the first kingdom: the very same numbers
    assert first.versus[1].diff == 0
    tested = [row.versus[1] for row in rows.values() if row.versus[1] is not None]
    assert [p.p_holm for p in tested] == pytest.approx(stats.holm([p.p for p in tested]))


def test_json_csv_and_records_carry_the_by_kingdom_rows(capsys, tmp_path):
    """--json's by_kingdom (against its schema), a --csv line per by-kingdom row and column, and
    the --records columns kingdomK.ROW, whose mean over the games is the JSON's."""
    records, table = tmp_path / "records.csv", tmp_path / "rows.csv"
    code, out, err = run_cli(capsys, "compare", "classic2003", str(REPO / "variants/house/new-kingdom-pyramids.toml"),
                             "--games", "6", "--agents", "random", "--workers", "1", "--json",
                             "--records", str(records), "--csv", str(table))
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("compare"))
    by_kingdom = {row["key"]: row for row in doc["by_kingdom"]}
    assert {"kingdom1.pyramids_built", "kingdom2.pyramids_built", "kingdom2.points.pyramids_again"} <= set(by_kingdom)
    built = by_kingdom["kingdom1.pyramids_built"]
    assert (built["row"], built["kingdom"], built["kingdoms"]) == ("pyramids_built", 1, ["Old Kingdom"] * 2)
    again = by_kingdom["kingdom2.points.pyramids_again"]
    assert again["values"][0] is None and again["values"][1]["mean"] > 0  # classic2003 has no such item
    lines = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8"))))
    assert len(lines) == 2 * (len(doc["rows"]) + len(doc["by_kingdom"]))
    lines = list(csv.DictReader(io.StringIO(records.read_text(encoding="utf-8"))))
    assert [name for name in lines[0] if kingdom_of(name)] == list(by_kingdom)
    for c, column in enumerate(("classic2003", "new-kingdom-pyramids")):
        games = {line["seed"]: line for line in lines if line["column"] == column}  # a line per seat: one game's
        for key in ("kingdom1.pyramids_built", "kingdom2.pyramids_built", "kingdom1.auction_price"):
            mean = sum(float(line[key]) for line in games.values()) / len(games)
            assert mean == pytest.approx(by_kingdom[key]["values"][c]["mean"])
        # a row the column does not have is empty; an item that scores nothing in a kingdom is 0
        assert all((line["kingdom1.points.pyramids_again"] == "") == (column == "classic2003") for line in lines
                   if line["column"] == column)
        assert all(line["kingdom1.points.pyramids_again"] in ("", "0") for line in lines)


def test_the_terminal_shows_a_by_kingdom_table(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "--games", "3", "--agents", "random", "--workers", "1")
    assert code == 0, err
    assert out.index("Decisions asked per game") < out.index("By kingdom") < out.index("Pyramid builds (single or "
                                                                                        "double), Old Kingdom")
    assert "│ Points per player: gold, New Kingdom" in out and "By kingdom: each rule module's row" in out


def test_a_pyramid_item_of_the_last_kingdom_moves_the_first_kingdoms_builds():
    """The designer's question, "does the change act in the first kingdom?": with a second
    pyramids item scored at the New Kingdom's end only, the planner builds more pyramids in
    the Old Kingdom, where nothing of the rules changed. At 60 games a column (the quick
    profile, run seed 0) the Old Kingdom's builds move +0.20 a game with a raw p of 0.03, which
    Holm's correction over the by-kingdom family (34 tests) does not keep: the row and its
    direction are asserted, its mark from 400 games a column on (by hand at 400: 9.25 -> 9.49,
    +0.24 [+0.17, +0.31], p after Holm 4e-9; the deep profile plays 480)."""
    columns = [Column(label, load_variant(ref), job_for(load_variant(ref), (), 4, ["planner"]))
               for label, ref in (("classic2003", "classic2003"),
                                  ("new-kingdom-pyramids", REPO / "variants/house/new-kingdom-pyramids.toml"))]
    comparison = run_comparison(columns, GAMES, 0, Inline())
    rows = {row.key: row for row in summarize_by_kingdom(comparison)}
    old = rows["kingdom1.pyramids_built"]
    assert old.label == "pyramid builds (single or double), Old Kingdom"
    assert old.versus[1].diff > 0, old.versus[1]
    assert rows["kingdom2.pyramids_built"].versus[1].diff > 0
    if GAMES >= 400:
        assert old.versus[1].significant, old.versus[1]
    print(f"\nOld Kingdom pyramid builds over {GAMES} games: {old.values[0].mean:.2f} -> {old.values[1].mean:.2f}, "
          f"diff {old.versus[1].diff:+.3f} [{old.versus[1].low:+.3f}, {old.versus[1].high:+.3f}], "
          f"p = {old.versus[1].p:.3g}, after Holm {old.versus[1].p_holm:.3g}")
