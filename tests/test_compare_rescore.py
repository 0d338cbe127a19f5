"""`amunre compare`: how much of a rule change is arithmetic (the first column's games re-scored
by another column's scoring) and whether two columns played the very same games.

A do-nothing house rule plays the same games (N of N identical) and re-scores to the first
column exactly. A house rule that only adds scoring (variants/house/monumental-pyramids.toml, a
second pyramids item) re-scores by the arithmetic its own parameters give on the pyramids the
first variant's games counted at each scoring, worked out here from those games' events. A pair
whose scoring cannot read the other's positions (another number of kingdoms) says why in one
line. Each item's re-scored points are also split by kingdom: the kingdoms add up to the game,
a do-nothing rule re-scores each kingdom to the first column's by-kingdom row, and the
monumental pyramids' kingdoms follow the pyramids held at that kingdom's scoring. And
`--json`, `--records` and the terminal agree."""

from __future__ import annotations

import csv
import io
import json
import math

import jsonschema
import pytest
from conftest import REPO
from helpers import Inline, run_cli

from amunre.agents import make_agents
from amunre.compare.collect import kingdom_key
from amunre.compare.jobs import game_seed, job_for
from amunre.compare.rescore import POINTS, SCORE_ROWS, rescore_problem, summarize_rescored
from amunre.compare.run import Column, run_comparison, summarize, summarize_by_kingdom
from amunre.core.engine import Game, play_on
from amunre.loader import as_variant, load_variant
from amunre.loader.resources import load_schema
from amunre.rules.gold_ranking import gold_ranking
from amunre.rules.pyramids import Pyramids

#: A house rule that changes nothing but its name.
NOTHING = """extends = "classic2003"
[edition]
id = "do-nothing"
name = "2003, renamed"
summary = "classic2003 under another name."
"""

#: A house rule of three kingdoms: its scoring has a kingdom the 2003 games never scored.
THREE = """extends = "classic2003"
[edition]
id = "three-kingdoms"
name = "2003 in three kingdoms"
kingdoms = ["Old Kingdom", "Middle Kingdom", "New Kingdom"]
"""

MONUMENTAL = str(REPO / "variants" / "house" / "monumental-pyramids.toml")
GAMES, SEED = 12, 5


def _columns(*variants):
    return [Column(v.id, v, job_for(v, (), 4, ["random"])) for v in variants]


def _file(tmp_path, text: str, name: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_variant(path)


def test_a_do_nothing_house_rule_plays_the_same_games_and_re_scores_to_the_first_column(tmp_path):
    first, same = load_variant("classic2003"), _file(tmp_path, NOTHING, "nothing.toml")
    comparison = run_comparison(_columns(first, same), GAMES, SEED, Inline())
    (found,) = summarize_rescored(comparison)
    assert (found.identical, found.games, found.absent, found.guessed) == (GAMES, GAMES, "", 0)
    rows = {row.key: row for row in summarize(comparison)}
    keys = [row.key for row in found.rows]
    assert keys[:len(SCORE_ROWS)] == list(SCORE_ROWS)
    assert {key for key in keys if key.startswith(POINTS)} == {POINTS + item for item in first.modules.item_labels}
    for row in found.rows:
        assert row.value.mean == pytest.approx(rows[row.key].values[0].mean, abs=1e-9), row.key
        assert row.value.n == GAMES
        assert row.arithmetic.diff == pytest.approx(0, abs=1e-9) and row.play.diff == pytest.approx(0, abs=1e-9)
    # each item in each kingdom, as the by-kingdom table has the first column's games
    by_kingdom = {row.key: row for row in summarize_by_kingdom(comparison)}
    kingdoms = range(len(first.edition.kingdoms))
    assert [row.key for row in found.by_kingdom] == [kingdom_key(POINTS + item, k)
                                                     for item in first.modules.item_labels for k in kingdoms]
    for row in found.by_kingdom:
        assert row.label == by_kingdom[row.key].label
        assert row.value.mean == pytest.approx(by_kingdom[row.key].values[0].mean, abs=1e-9), row.key
        assert row.arithmetic.diff == pytest.approx(0, abs=1e-9) and row.play.diff == pytest.approx(0, abs=1e-9)


class PyramidsHeld:
    """Hears a game's scorings: (kingdom, player, singles, doubles) each time its `pyramids`
    entry scores a player (one line per player and scoring)."""

    listens_to = frozenset({"scoring", "pyramid_points"})

    def __init__(self):
        self.kingdom, self.held = 0, []

    def __call__(self, event):
        if event["event"] == "scoring":
            self.kingdom = event["kingdom"]
        elif event["item"] == "pyramids":
            self.held.append((self.kingdom, event["player"], sum(s for _, s, _ in event["provinces"]),
                              sum(d for _, _, d in event["provinces"])))


def _pyramid_points(entries, held, item=None) -> list[float]:
    """Each player's points from the pyramids `entries` ((item, params, kingdoms) of a variant's
    pyramids entries; `item`: that one only) on the pyramids `held` at each scoring."""
    per_player = [0.0] * 4
    for kingdom, player, singles, doubles in held:
        for key, params, scored_in in entries:
            if kingdom in scored_in and item in (None, key):
                per_player[player] += params.single * singles + params.double * doubles
    return per_player


def _expected_monumental(first, other, games: int, seed: int) -> dict[str, list[float]]:
    """Per game of `first` (random seats, as compare plays them): the winning score re-scored by
    `other` and its points per player of each of its pyramid items, worked out from the pyramids
    each player held at each scoring (the `pyramid_points` events) and `other`'s parameters."""
    kingdoms = len(first.edition.kingdoms)

    def entries(variant):  # each pyramids entry: its item, parameters and the kingdoms it scores in
        return [(m.item_key, m.params, {k for k in range(kingdoms) if m in variant.modules.scoring_in(k)})
                for m in variant.modules.scoring if isinstance(m, Pyramids)]

    before, after = entries(first), entries(other)
    out: dict[str, list[float]] = {"winning_score": [], "first_winning_score": []}
    for index in range(games):
        play_seed = game_seed(seed, index)
        heard = PyramidsHeld()
        game = Game(first, 4, play_seed, [heard])
        play_on(game, make_agents(["random"] * 4, play_seed))
        scores = [p.score for p in game.state.players]
        rescored = [s - a + b for s, a, b in zip(scores, _pyramid_points(before, heard.held),
                                                 _pyramid_points(after, heard.held))]
        out["winning_score"].append(max(rescored))
        out["first_winning_score"].append(max(scores))
        for key, _, _ in after:
            out.setdefault(POINTS + key, []).append(sum(_pyramid_points(after, heard.held, key)) / 4)
            for k in range(kingdoms):  # each kingdom's: the pyramids held at its own scoring
                held = [line for line in heard.held if line[0] == k]
                out.setdefault(kingdom_key(POINTS + key, k), []).append(sum(_pyramid_points(after, held, key)) / 4)
    return out


def test_a_scoring_only_house_rule_re_scores_by_its_own_arithmetic():
    first, other = load_variant("classic2003"), load_variant(MONUMENTAL)
    comparison = run_comparison(_columns(first, other), GAMES, SEED, Inline())
    (found,) = summarize_rescored(comparison)
    assert not found.absent and found.guessed == 0
    rows = {row.key: row for row in found.rows}
    expected = _expected_monumental(first, other, GAMES, SEED)
    added = [key for key in expected if key.startswith(POINTS) and key[len(POINTS):] not in first.modules.item_labels]
    assert added  # the house rule's own item, which the first variant's games never scored
    for key in added:  # all its points are arithmetic: the first column scores none of them
        assert rows[key].value.mean == pytest.approx(sum(expected[key]) / GAMES)
        assert rows[key].arithmetic.diff == pytest.approx(sum(expected[key]) / GAMES)
    # and so in each kingdom, by the pyramids held at that kingdom's scoring
    by_kingdom = {row.key: row for row in found.by_kingdom}
    split = [key for key in expected if key.startswith("kingdom") and key.endswith(tuple(added))]
    assert len(split) == len(added) * len(first.edition.kingdoms)
    for key in split:
        assert by_kingdom[key].value.mean == pytest.approx(sum(expected[key]) / GAMES), key
        assert by_kingdom[key].arithmetic.diff == pytest.approx(sum(expected[key]) / GAMES), key
    assert all(sum(expected[key]) > 0 for key in split)  # every kingdom's scoring counts pyramids here
    gained = [after - before for after, before in zip(expected["winning_score"], expected["first_winning_score"])]
    assert sum(gained) > 0
    assert rows["winning_score"].arithmetic.diff == pytest.approx(sum(gained) / GAMES)
    assert rows["winning_score"].value.mean == pytest.approx(sum(expected["winning_score"]) / GAMES)
    # the interval is the paired one over the games' own differences
    low, high = rows["winning_score"].arithmetic.low, rows["winning_score"].arithmetic.high
    assert low <= sum(gained) / GAMES <= high and (high - low > 0 or len(set(gained)) == 1)
    # random seats do not read the scoring: the same answers, so changed play adds nothing, but
    # the games' scoring events differ, so no game is the first column's
    assert all(row.play.diff == pytest.approx(0, abs=1e-9) for row in found.rows)
    assert found.identical == 0


def test_the_kingdoms_of_a_re_scored_item_add_up_to_the_game():
    """Between two editions (items on one side only, other modules in another order): an item's
    re-scored points, its arithmetic and its play, kingdom by kingdom, add up to the game's; each
    by-kingdom label is the by-kingdom table's, and every item has a row per kingdom."""
    first, other = load_variant("classic2003"), load_variant("supermeeple2016")
    comparison = run_comparison(_columns(first, other), GAMES, SEED, Inline())
    (found,) = summarize_rescored(comparison)
    assert not found.absent
    whole = {row.key: row for row in found.rows}
    kingdoms = len(first.edition.kingdoms)
    assert len(found.by_kingdom) == kingdoms * len([key for key in whole if key.startswith(POINTS)])
    table = {row.key: row for row in summarize_by_kingdom(comparison)}
    for row in found.by_kingdom:
        assert row.key == kingdom_key(row.row, row.kingdom) and row.label.startswith(whole[row.row].label)
        if row.key in table:
            assert row.label == table[row.key].label
    for key, row in whole.items():
        if not key.startswith(POINTS):
            continue
        parts = [one for one in found.by_kingdom if one.row == key]
        assert [one.kingdom for one in parts] == list(range(kingdoms))
        assert sum(one.value.mean for one in parts) == pytest.approx(row.value.mean, abs=1e-9), key
        assert sum(one.arithmetic.diff for one in parts) == pytest.approx(row.arithmetic.diff, abs=1e-9), key
        assert sum(one.play.diff for one in parts) == pytest.approx(row.play.diff, abs=1e-9), key


def test_a_pair_it_cannot_re_score_says_why_in_one_line(tmp_path, capsys):
    three = tmp_path / "three.toml"
    three.write_text(THREE, encoding="utf-8")
    problem = rescore_problem(load_variant("classic2003"), load_variant(three))
    assert "3 kingdoms" in problem and "\n" not in problem
    code, out, err = run_cli(capsys, "compare", "classic2003", str(three), "--games", "3", "--workers", "1",
                             "--agents", "random", "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("compare"))
    assert doc["rescored"] == [{"column": "three-kingdoms", "absent": problem, "guessed": 0, "rows": [],
                                "by_kingdom": []}]
    assert doc["identical"] == [{"column": "three-kingdoms", "identical": 0, "games": 3}]
    code, out, err = run_cli(capsys, "compare", "classic2003", str(three), "--games", "3", "--workers", "1",
                             "--agents", "random")
    assert code == 0, err
    assert f"No re-scoring of the first column's games by three-kingdoms's scoring: {problem}" in out
    assert "three-kingdoms: 0 of 3 games identical to classic2003's" in out.split("\n")[1]  # at the top


def test_json_records_and_terminal_agree(tmp_path, capsys):
    records = tmp_path / "records.csv"
    argv = ["compare", "classic2003", MONUMENTAL, "--games", "4", "--workers", "1", "--agents", "random"]
    code, out, err = run_cli(capsys, *argv, "--json", "--records", str(records))
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("compare"))
    (rescored,) = doc["rescored"]
    assert rescored["absent"] is None and rescored["rows"]
    lines = list(csv.DictReader(io.StringIO(records.read_text(encoding="utf-8"))))
    second = [line for line in lines if line["column"] == "monumental-pyramids"]
    firsts = [line for line in lines if line["column"] == "classic2003"]
    assert second and all(line["identical"] == "0" for line in second) and all(not line["identical"] for line in firsts)
    assert rescored["by_kingdom"]
    for row in rescored["rows"] + rescored["by_kingdom"]:
        per_game = {line["seed"]: float(line["rescored." + row["key"]]) for line in second}  # a game's, on each seat
        assert sum(per_game.values()) / len(per_game) == pytest.approx(row["value"]["mean"])
        assert row["value"]["n"] == len(per_game) == 4
    main = {row["key"]: row for row in doc["rows"]}
    arithmetic = {row["key"]: row["arithmetic"]["diff"] for row in rescored["rows"]}
    play = {row["key"]: row["play"]["diff"] for row in rescored["rows"]}
    for key in SCORE_ROWS:  # arithmetic and play add up to the main table's Δ
        assert arithmetic[key] + play[key] == pytest.approx(main[key]["versus_first"][1]["diff"])
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert "classic2003's games re-scored by monumental-pyramids's scoring" in out
    winning = next(row for row in rescored["rows"] if row["key"] == "winning_score")
    shown = f"{winning['arithmetic']['diff']:+.2f} ({winning['arithmetic']['low']:+.2f} to"
    assert shown in out, shown
    # the by-kingdom table after it: a kingdom's arithmetic on the line of its label
    assert "classic2003's games re-scored by monumental-pyramids's scoring, by kingdom" in out
    after = out.split("re-scored by monumental-pyramids's scoring, by kingdom", 1)[1]
    added = next(row for row in rescored["by_kingdom"] if row["arithmetic"]["diff"])
    line = next(line for line in after.splitlines() if added["label"][1:] in line)
    assert f"{added['arithmetic']['diff']:+.2f} ({added['arithmetic']['low']:+.2f} to" in line, line
    assert not math.isnan(winning["arithmetic"]["low"])


#: A house rule that pays more for gold: its final scoring (which asks each player how many
#: cards to sell) differs, so it is played again on each game's last position.
RICHER_GOLD = "final_scoring.gold_ranking.params.points=[9, 6, 3]"


class GoldCounted:
    """Hears the gold as the ranking counted it (after the sales), once per game."""

    listens_to = frozenset({"gold_counted"})

    def __call__(self, event):
        self.gold = list(event["gold"])


def test_a_scoring_that_asks_decisions_is_played_again_with_the_games_answers():
    """The gold ranking asks each player how many cards to sell: re-scored with the game's own
    answers, its points are the house rule's for the gold the game counted."""
    first, other = load_variant("classic2003"), as_variant("classic2003", [RICHER_GOLD])
    (ranking,) = other.modules.final_scoring
    assert ranking.params.points != first.modules.final_scoring[0].params.points
    comparison = run_comparison(_columns(first, other), GAMES, SEED, Inline())
    (found,) = summarize_rescored(comparison)
    assert not found.absent and found.guessed == 0
    expected = []
    for index in range(GAMES):
        play_seed = game_seed(SEED, index)
        heard = GoldCounted()
        play_on(Game(first, 4, play_seed, [heard]), make_agents(["random"] * 4, play_seed))
        expected.append(sum(gold_ranking(heard.gold, ranking.params.points, ranking.rulings.gold_ties)) / 4)
    rows = {row.key: row for row in found.rows}
    assert rows["points.gold_ranking"].value.mean == pytest.approx(sum(expected) / GAMES)
    first_points = {row.key: row for row in summarize(comparison)}["points.gold_ranking"].values[0].mean
    assert rows["points.gold_ranking"].arithmetic.diff == pytest.approx(sum(expected) / GAMES - first_points)
    assert rows["points.gold_ranking"].arithmetic.diff > 0


def test_every_scoring_played_again_on_the_kept_positions_gives_the_games_own_scores(tmp_path, monkeypatch):
    """The kept positions and the game's answers reproduce its scores when every module is
    played again (no points copied from the game): the machinery a changed scoring relies on."""
    from amunre.compare import rescore

    def every(kingdom, first_modules, other_modules):
        return rescore.ScoringPlan(kingdom, (), tuple((m, rescore._formula(m)) for m in other_modules))

    monkeypatch.setattr(rescore, "scoring_plan", every)
    first, same = load_variant("classic2003"), _file(tmp_path, NOTHING, "nothing.toml")
    comparison = run_comparison(_columns(first, same), GAMES, SEED, Inline())
    (found,) = summarize_rescored(comparison)
    assert found.guessed == 0
    rows = {row.key: row for row in summarize(comparison)}
    for row in found.rows:
        assert row.value.mean == pytest.approx(rows[row.key].values[0].mean, abs=1e-9), row.key
        assert row.arithmetic.diff == pytest.approx(0, abs=1e-9) and row.arithmetic.high == row.arithmetic.low


def test_a_changed_scoring_module_keeps_the_games_points_of_the_formula_modules_before_it(monkeypatch):
    """Bonus cards scoring 4 ask decisions, so each kingdom's scoring is played again from them
    on; the formula modules before them, the first variant's own, keep the game's points: the
    same re-scoring as playing every module again."""
    from amunre.compare import rescore

    first, other = load_variant("classic2003"), as_variant("classic2003", ["scoring.bonus_cards.params.points=4"])
    for kingdom in range(len(first.edition.kingdoms)):
        mine, theirs = other.modules.scoring_in(kingdom), first.modules.scoring_in(kingdom)
        changed = next(i for i, (a, b) in enumerate(zip(mine, theirs)) if not rescore._same_module(a, b))
        assert changed > 0 and all(rescore._formula(m) for m in mine[:changed])  # (else nothing to keep)
        plan = rescore.scoring_plan(kingdom, theirs, mine)
        assert plan.copied == tuple(item.key for m in mine[:changed] for item in m.score_items())
        assert [m for m, _ in plan.played] == list(mine[changed:])

    def rows(comparison):
        (found,) = summarize_rescored(comparison)
        assert not found.absent and found.guessed == 0
        return {row.key: (row.value.mean, row.value.sd) for row in found.rows}

    kept = rows(run_comparison(_columns(first, other), GAMES, SEED, Inline()))
    monkeypatch.setattr(rescore, "scoring_plan", lambda kingdom, first_modules, other_modules: rescore.ScoringPlan(
        kingdom, (), tuple((m, rescore._formula(m)) for m in other_modules)))
    assert kept == rows(run_comparison(_columns(first, other), GAMES, SEED, Inline()))


#: A house rule whose bonus cards score 4: some games identical to classic2003's, some not.
BONUS4 = """extends = "classic2003"
[edition]
id = "bonus4"
name = "2003, bonus cards score 4"
summary = "classic2003 whose bonus cards score 4."
[params.bonus_cards]
points = 4
"""


def _every_event(variant, seed):
    """A game's answers and every event of it (a listener that hears all), in order."""
    heard: list = []
    game = Game(variant, 4, seed, [heard.append])
    play_on(game, make_agents(["random"] * 4, seed))
    return game.answers, heard


@pytest.mark.parametrize("text", [NOTHING, BONUS4])
def test_identical_games_agree_with_comparing_every_event(tmp_path, text):
    # compare hears only the events that declare statistics and reads the points from the
    # breakdown: its verdict must be the one a comparison of every event and answer gives
    first, other = load_variant("classic2003"), _file(tmp_path, text, "house.toml")
    comparison = run_comparison(_columns(first, other), GAMES, SEED, Inline(), keep_records=True)
    found = [record["identical"][1] for record in comparison.tally.records]
    full = [_every_event(first, game_seed(SEED, i)) == _every_event(other, game_seed(SEED, i)) for i in range(GAMES)]
    assert found == full
    assert text is NOTHING and all(found) or text is BONUS4 and any(found) and not all(found)


def _players(breakdowns):
    """Finished players as a re-scoring reads them: a score (their breakdown's sum) and a breakdown."""
    from types import SimpleNamespace

    return [SimpleNamespace(score=sum(found.values()), breakdown=found) for found in breakdowns]


@pytest.mark.parametrize("extra", [False, True])
def test_a_re_scoring_that_copies_every_item_gives_the_games_points_by_item_and_kingdom(tmp_path, extra):
    """A do-nothing rule copies every scoring item's points from the game: each row is the
    breakdown's own sum per player (and an item a phase scored in one kingdom, unknown to the
    variant's scoring, keeps its points there), the rows in the order of the items, each item's
    kingdoms before the item itself."""
    from amunre.compare.rescore import Rescorer

    first, same = load_variant("classic2003"), _file(tmp_path, NOTHING, "nothing.toml")
    rescorer = Rescorer(same, first)
    assert not rescorer.positions  # (nothing is played again: no position to keep)
    breakdowns = [{"0:pyramids": 3, "1:pyramids": 5, "1:gold_ranking": 6},
                  {"0:temples": 2, "1:pyramids": 1, "0:bonus_cards:upper_lower": 3}]
    if extra:
        breakdowns[1]["0:a_phase_item"] = 4
    players = _players(breakdowns)
    values, guessed = rescorer.rescore(players, {}, [])
    assert not guessed
    items = list(rescorer.items) + (["a_phase_item"] if extra else [])
    expected_keys = list(SCORE_ROWS)
    for item in items:
        expected_keys += [kingdom_key(POINTS + item, k) for k in range(2)] + [POINTS + item]
    assert list(values) == expected_keys
    for item in items:
        by_kingdom = [sum(found.get(f"{k}:{item}", 0) for found in breakdowns) / 2 for k in range(2)]
        assert [values[kingdom_key(POINTS + item, k)] for k in range(2)] == by_kingdom, item
        assert values[POINTS + item] == sum(by_kingdom), item
    scores = sorted((player.score for player in players), reverse=True)
    assert (values["winning_score"], values["margin"]) == (scores[0], scores[0] - scores[1])
