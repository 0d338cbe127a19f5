"""`amunre compare`: the statistics against known values, a game's record against the game
itself, common random numbers, interruption, and the command end to end (table, sweep,
JSON against its schema, CSV, plot, bad input)."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import statistics
import sys
from collections import OrderedDict

import jsonschema
import pytest
from conftest import variant_files
from helpers import Inline, ctrl_c_once, ctrl_c_twice, run_cli

from amunre.agents import make_agents
from amunre.compare import stats
from amunre.compare.collect import CLOSE, CORE_EVENTS, StatsCollector
from amunre.compare.jobs import job_for, play_batch
from amunre.compare.run import Column, game_seed, run_comparison, summarize
from amunre.core.engine import Game, play_on
from amunre.loader import as_variant, load_variant
from amunre.loader.resources import load_schema

VARIANT_FILES = variant_files()


# -- statistics against known values -------------------------------------------------------


@pytest.mark.parametrize("df, expected", [(1, 12.7062047), (3, 3.1824463), (10, 2.2281389), (29, 2.0452296),
                                          (1_000_000, 1.9599664)])
def test_student_t_quantiles_match_the_tables(df, expected):
    assert stats.t_quantile(df) == pytest.approx(expected, abs=1e-6)


def test_the_t_tail_and_the_normal_quantile():
    assert 2 * stats.t_sf(2.2281389, 10) == pytest.approx(0.05, abs=1e-7)
    assert stats.t_sf(0, 5) == pytest.approx(0.5)
    assert stats.normal_quantile(0.975) == pytest.approx(1.959963985, abs=1e-9)
    assert stats.normal_quantile(0.001) == pytest.approx(-3.090232306, abs=1e-8)


def test_wilson_interval_of_a_binomial_proportion():
    assert stats.wilson(5, 10) == pytest.approx((0.2365931, 0.7634069), abs=1e-6)
    low, high = stats.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775328, abs=1e-6)  # exactly 0: no rounding residue
    low, high = stats.wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(1 - 0.2775328, abs=1e-6)
    assert stats.wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)


def test_paired_t_test_on_differences():
    # differences 1, 1, 2, 1: mean 1.25, sd 0.5, t = 5 on 3 degrees of freedom
    result = stats.paired([1, 2, 3, 4], [2, 3, 5, 5])
    assert result.diff == 1.25 and result.n == 4
    assert result.p == pytest.approx(0.015392, abs=1e-6)
    assert (result.low, result.high) == pytest.approx((1.25 - 3.1824463 * 0.25, 1.25 + 3.1824463 * 0.25))
    assert stats.paired([1, 2, 3], [1, 2, 3]).p == 1.0  # no difference at all
    assert stats.paired([1, 2, 3], [2, 3, 4]).p == 0.0  # the same difference in every game


def test_holm_adjusts_in_step_down_order():
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5, 0.9]) == [1.0, 1.0]


def test_estimate_of_known_values():
    e = stats.estimate([2, 4, 4, 4, 5, 5, 7, 9])
    assert e.mean == 5 and e.sd == pytest.approx(2.1380899)
    assert e.high - e.mean == pytest.approx(2.3646243 * 2.1380899 / math.sqrt(8), abs=1e-6)


# -- one game's record ---------------------------------------------------------------------


@pytest.mark.parametrize("vid, players", [("classic2003", 4), ("supermeeple2016", 3), ("expert2016", 4)])
def test_a_record_adds_up_to_the_game_it_records(vid, players):
    """Points per item times players is the game's total score; the seats' win shares sum
    to 1; the offering level shares sum to 1; the decisions are the game's answers."""
    variant = load_variant(vid)
    for seed in range(3):
        collector = StatsCollector(variant)
        game = Game(variant, players, seed, [collector])
        agents = make_agents(["greedy"] * players, seed)
        while game.pending is not None:
            game.answer(agents[game.pending.player].choose(game.view(game.pending.player), game.pending))
        values = collector.record(game)
        points = sum(v for k, v in values.items() if k.startswith("points."))
        assert points * players == pytest.approx(sum(p.score for p in game.state.players))
        assert sum(v for k, v in values.items() if k.startswith("win.")) == pytest.approx(1)
        assert sum(v for k, v in values.items() if k.startswith("offering_level.")) == pytest.approx(1)
        assert values["winning_score"] == max(p.score for p in game.state.players)
        assert values["decisions"] == len(game.answers)
        assert values["gold_end"] == pytest.approx(sum(p.gold for p in game.state.players) / players)
        built = sum(prov.pyramid_count() for prov in game.state.provinces)
        assert 0 < built <= values["pyramids_built"]  # a double pyramid is built over a single


def test_the_collectors_listener_hears_a_game_as_the_collector_itself_does():
    """`StatsCollector.listener` (what a batch gives the engine) carries the collector's
    `listens_to`, `options_offered` and `answers_summed` for `Game.listen`, and the same
    game heard through it or through the collector gives the same record."""
    variant = load_variant("classic2003")
    records = []
    for through_listener in (False, True):
        collector = StatsCollector(variant)
        listener = collector.listener if through_listener else collector
        assert listener.listens_to is collector.listens_to
        assert listener.options_offered is collector.options_offered
        assert listener.answers_summed is collector.answers_summed
        game = Game(variant, 4, 5, [listener])
        play_on(game, make_agents(["greedy"] * 4, 5))
        records.append(collector.record(game))
    assert any(key.startswith("options.") for key in records[1])  # (the engine counted into it)
    assert records[0] == records[1]


def test_a_process_keeps_the_templates_of_the_variants_most_recently_asked_for(monkeypatch):
    """`StatsCollector.prepare` keeps `TEMPLATES_KEPT` templates and lets the least recently
    asked for go first, so a long-lived worker of many comparisons does not grow; one asked for
    again is the same template (not made again) and counts as recent."""
    from amunre.compare import collect

    monkeypatch.setattr(collect, "_TEMPLATES", OrderedDict())
    monkeypatch.setattr(collect, "TEMPLATES_KEPT", 2)
    first, second, third = (as_variant("classic2003", [f"scoring.bonus_cards.params.points={points}"])
                            for points in (2, 4, 6))
    kept_first = StatsCollector.prepare(first)
    StatsCollector.prepare(second)
    assert StatsCollector.prepare(first) is kept_first  # (now the most recent)
    StatsCollector.prepare(third)
    assert [template.variant for template in collect._TEMPLATES.values()] == [first, third]
    assert StatsCollector.prepare(second).variant is second and len(collect._TEMPLATES) == 2


def test_a_worker_keeps_the_variants_of_the_jobs_most_recently_played(monkeypatch):
    """`load_job_variant` loads a job's variant once and keeps `VARIANTS_KEPT` of them, the least
    recently played let go first (and loaded again when asked for)."""
    from amunre.compare import jobs as compare_jobs

    monkeypatch.setattr(compare_jobs, "_loaded", OrderedDict())
    monkeypatch.setattr(compare_jobs, "VARIANTS_KEPT", 2)
    made = [compare_jobs.job_for("classic2003", [f"scoring.bonus_cards.params.points={points}"], 4, ["random"])
            for points in (2, 4, 6)]
    loaded = compare_jobs.load_job_variant(made[0])
    compare_jobs.load_job_variant(made[1])
    assert compare_jobs.load_job_variant(made[0]) is loaded
    compare_jobs.load_job_variant(made[2])
    assert list(compare_jobs._loaded) == [made[0].key, made[2].key]
    again = compare_jobs.load_job_variant(made[1])
    assert again.modules.rule("bonus_cards").params.points == 4 and len(compare_jobs._loaded) == 2


def test_a_collector_copied_from_its_variants_template_shares_no_container_with_it():
    """`StatsCollector.for_variant` copies a collector made once per variant (`prepare`) and
    never played: each copy's dicts, lists and sets, and its statistics' slots, are its own;
    one that plays a game leaves the template and the next copy as a new collector is."""
    from amunre.compare.collect import _TEMPLATES

    variant = load_variant("classic2003")
    template = StatsCollector.prepare(variant)
    assert StatsCollector.prepare(variant) is template and _TEMPLATES[id(variant)] is template
    played, fresh = StatsCollector.for_variant(variant), StatsCollector.for_variant(variant)
    made = StatsCollector(variant)
    for copy in (played, fresh):
        for name, value in vars(copy).items():
            if isinstance(value, (dict, list, set)):
                assert value is not vars(template)[name], name
        assert copy.listener is not template.listener and copy.listener.options_offered is copy.options_offered
        for readies, theirs in zip(copy._by_event.values(), template._by_event.values()):
            assert all(mine is not other and mine.slots is not other.slots for mine, other in zip(readies, theirs))
    assert played._score_ready is played._by_event["score"][0]
    game = Game(variant, 4, 3, [played.listener])
    play_on(game, make_agents(["random"] * 4, 3))
    record = played.record(game)
    assert len(played._slot_keys) > len(made._slot_keys)  # (the game taught it rows)
    for untouched in (template, fresh):
        assert (untouched._slot_keys, untouched.labels, untouched.modes) == (made._slot_keys, made.labels, made.modes)
        assert all(ready.slots == {} for readies in untouched._by_event.values() for ready in readies)
    again = StatsCollector(variant)
    game = Game(variant, 4, 3, [again.listener])
    play_on(game, make_agents(["random"] * 4, 3))
    assert again.record(game) == record


def test_a_run_after_another_in_one_process_gives_the_bytes_of_a_fresh_process(capsys):
    """Nothing a run's collectors learn reaches a later run of the same variants in the same
    process (their collectors are copies of one template per variant): a short run after a
    longer one prints the JSON the same run prints in a new process."""
    import subprocess
    from pathlib import Path

    argv = ["compare", "classic2003", "supermeeple2016", "--agents", "random", "--workers", "1", "--json"]
    code, out, err = run_cli(capsys, *argv, "--games", "8", "--seed", "4")
    assert code == 0, err
    code, after, err = run_cli(capsys, *argv, "--games", "2", "--seed", "9")
    assert code == 0, err
    repo = Path(__file__).resolve().parents[1]
    fresh = subprocess.run([sys.executable, "-m", "amunre", *argv, "--games", "2", "--seed", "9"], capture_output=True,
                           text=True, env=dict(os.environ, PYTHONPATH=str(repo)), timeout=300, check=True).stdout
    assert after == fresh


@pytest.mark.parametrize("path", VARIANT_FILES, ids=[f.stem for f in VARIANT_FILES])
def test_the_closeness_lead_and_strategy_numbers_are_the_games_own(path):
    """Each new row recomputed from what the game's own events and state say: the margin and
    spread of the final scores, a close game, the first kingdom's leader and the lead changes
    (from every `scoring_end`), the start player's win, the rounds, and per scoring item the
    winner's and the others' shares (which sum to 1 over the items) and the largest item."""
    variant = load_variant(path)
    players = min(variant.players)
    for seed in range(3):
        collector = StatsCollector(variant)
        heard = []
        game = Game(variant, players, seed, [collector, heard.append])
        play_on(game, make_agents(["greedy"] * players, seed))
        values = collector.record(game)
        scores = sorted((p.score for p in game.state.players), reverse=True)
        assert values["margin"] == scores[0] - scores[1] >= 0
        assert values["spread"] == pytest.approx(statistics.pstdev(scores))
        assert values["close"] == (1.0 if scores[0] - scores[1] <= CLOSE else 0.0)
        winners = game.state.winners
        start = next(e for e in heard if e["event"] == "setup")["start_player"]
        assert values["start_player_wins"] == (1 / len(winners) if start in winners else 0.0)
        ends = [e["scores"] for e in heard if e["event"] == "scoring_end"]
        assert len(ends) == len(variant.edition.kingdoms)
        leaders = [{p for p, s in enumerate(end) if s == max(end)} for end in ends] + [set(winners)]
        assert values["leader_wins"] == pytest.approx(
            sum(1 / len(winners) for p in leaders[0] if p in winners) / len(leaders[0]))
        assert values["lead_changes"] == sum(1 for a, b in zip(leaders, leaders[1:]) if not a & b)
        assert values["rounds"] == sum(1 for e in heard if e["event"] == "round") == \
            len(variant.edition.kingdoms) * variant.edition.rounds_per_kingdom
        items = list(variant.modules.item_labels)
        shares = [values.get("item_share.winner." + item, 0.0) for item in items]
        if all(game.state.players[w].score > 0 for w in winners):
            assert sum(shares) == pytest.approx(1)
        others = [values.get("item_share.others." + item, 0.0) for item in items]
        if any(p not in winners and game.state.players[p].score > 0 for p in range(players)):
            assert sum(others) == pytest.approx(1)
        assert any(k.startswith("item_wins.") for k in values)  # someone's largest item


def test_the_collector_hears_only_the_events_with_statistics():
    variant = load_variant("classic2003")
    collector = StatsCollector(variant)
    declaring = {name for name, event in variant.modules.events.items() if event.statistics}
    assert {"score", "pyramid", "acquire", "level", "offers", "pass", "play"} <= declaring
    # the core's score events are read from the players' breakdown at the end, not heard
    assert collector.points_by_breakdown
    assert collector.listens_to == (declaring - {"score"}) | CORE_EVENTS
    game = Game(variant, 4, 1, [collector])
    # the bids, the purchases and the options per decision are counted where the engine asks
    assert not {"pay", "bid", "purchase", "decision", "answer"} & game.hearing and "acquire" in game.hearing


def test_a_games_record_does_not_depend_on_the_games_before_it_in_the_batch():
    jobs = (job_for(load_variant("classic2003"), (), 4, ["random"]),)
    whole = play_batch(jobs, 5, 0, 6, True)
    tail = play_batch(jobs, 5, 3, 3, True)
    assert [r["seed"] for r in whole.records] == [game_seed(5, i) for i in range(6)]
    assert whole.records[3:] == tail.records
    assert whole.rows[0]["auction_price"][1] == "mean"


def test_a_batch_tallies_its_games_and_their_differences():
    """The tally of a batch holds the moments of its records, column by column, and of each
    column minus the first game by game: checked against the records themselves."""
    jobs = tuple(job_for(load_variant(v), (), 4, ["random"]) for v in ("classic2003", "supermeeple2016"))
    batch = play_batch(jobs, 2, 0, 8, True)
    first = [r["values"][0]["decisions"] for r in batch.records]
    second = [r["values"][1]["decisions"] for r in batch.records]
    assert batch.values[0]["decisions"] == stats.Moments.of(first)
    assert batch.versus[1]["decisions"] == stats.Moments.of(b - a for a, b in zip(first, second))
    assert sum(batch.winning_scores[1].values()) == 8


def test_merged_moments_equal_the_pooled_values():
    values = [3.0, 7.5, 1.0, 4.25, 9.0, 2.0, 2.0]
    merged = stats.Moments.of(values[:3]).merge(stats.Moments.of(values[3:]))
    whole = stats.Moments.of(values)
    assert merged.n == whole.n and merged.mean == pytest.approx(whole.mean) and merged.m2 == pytest.approx(whole.m2)
    with_zeros = stats.Moments.of(values).merge(stats.Moments.zeros(3))
    assert with_zeros.mean == pytest.approx(stats.Moments.of(values + [0, 0, 0]).mean)
    assert with_zeros.sd == pytest.approx(stats.Moments.of(values + [0, 0, 0]).sd)


def test_the_batches_do_not_depend_on_the_workers():
    from amunre.compare.run import batch_size

    assert batch_size(10) == 1 and batch_size(10_000) == 157 and batch_size(10_000_000) == 250


def test_game_seeds_are_distinct_63_bit_and_differ_between_runs():
    seeds = [game_seed(0, i) for i in range(20_000)]
    assert len(set(seeds)) == len(seeds) and all(0 <= s < 2**63 for s in seeds)
    assert not set(seeds[:1000]) & {game_seed(1, i) for i in range(1000)}


# -- a comparison --------------------------------------------------------------------------


def _columns(*vids, players=4):
    return [Column(v, load_variant(v), job_for(load_variant(v), (), players, ["random"])) for v in vids]


def test_every_column_plays_the_same_seeds_and_rows_come_from_each_columns_rules():
    comparison = run_comparison(_columns("classic2003", "supermeeple2016"), 40, 7, Inline())
    assert comparison.games == 40 and not comparison.interrupted
    rows = {row.key: row for row in summarize(comparison)}
    assert rows["points.complete_sets"].values[1] is None  # the 2016 edition scores no complete sets
    assert rows["points.fewest_pyramids"].values[0] is None
    assert rows["points.complete_sets"].versus[1] is None
    assert rows["decisions"].versus[1] is not None and rows["decisions"].versus[1].n == 40
    assert rows["win.seat1"].kind == "rate" and rows["winning_score"].kind == "mean"


def test_the_same_variant_twice_differs_in_nothing():
    rows = summarize(run_comparison(_columns("classic2003", "classic2003"), 30, 1, Inline()))
    assert all(r.versus[1] is None or (r.versus[1].diff == 0 and not r.versus[1].significant) for r in rows)


def test_an_interrupted_run_keeps_only_whole_pairs():
    comparison = run_comparison(_columns("classic2003", "supermeeple2016"), 40, 0, Inline(stop_after=3))
    assert comparison.interrupted
    # three batches of one game were finished, each in both columns
    assert comparison.games == 3
    assert [column["decisions"].n for column in comparison.tally.values] == [3, 3]
    assert comparison.tally.versus[1]["decisions"].n == 3


# -- the command ---------------------------------------------------------------------------


def test_compare_prints_a_table_with_every_row_and_the_rule_differences(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "supermeeple2016", "--games", "30", "--workers", "1",
                             "--agents", "random")
    assert code == 0 and err == "", err  # no progress bar when not on a terminal
    # every label starts upper-case, whichever words it starts with (an edition's term or not)
    for words in ("│ Winning score (points)", "│ Win rate, seat 1", "│ Points per player: temples",
                  "│ Points per player: complete sets", "│ Victory Points per player: province with the fewest",
                  "│ Gold paid per province in the auction", "│ Sacrifice: level 2 (share of rounds)",
                  "│ Pyramid builds", "│ Games decided by a tie-break", "│ Gold per player at the end",
                  "│ Decisions asked per game", "Δ", "Holm", "[terminology]", "Victory Points"):
        assert words in out, words


def test_compare_json_follows_its_schema_and_is_the_same_for_any_worker_count(capsys):
    argv = ["compare", "classic2003", "supermeeple2016", "--games", "24", "--agents", "random", "--json", "--seed", "3"]
    code, one, err = run_cli(capsys, *argv, "--workers", "1")
    assert code == 0, err
    doc = json.loads(one)
    jsonschema.validate(doc, load_schema("compare"))
    assert doc["games"] == 24 and doc["rotations"] == 1
    code, two, err = run_cli(capsys, *argv, "--workers", "2")
    assert code == 0, err
    assert json.loads(two) == doc


def test_records_are_a_line_per_game_column_and_seat_and_add_up_to_the_table(capsys, tmp_path):
    """--records: every seed in every rotation of a mixed lineup, each seat's agent rotated;
    each column's points and ranks add up to what the JSON says of the same games."""
    path = tmp_path / "records.csv"
    code, out, err = run_cli(capsys, "compare", "classic2003", "supermeeple2016", "--games", "6", "--players", "3",
                             "--agents", "greedy,random,random", "--workers", "2", "--seed", "3", "--json",
                             "--records", str(path))
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rotations"] == 3 and doc["games"] == 6  # 2 seeds, each in the lineup's 3 rotations
    # a seed's rotations share its deal: one observation each (their mean), not three
    assert all(v is None or v["n"] <= 2 for row in doc["rows"] for v in row["values"])
    assert all(v["n"] == 2 for row in doc["rows"] if row["key"] in ("winning_score", "margin", "win.seat1")
               for v in row["values"])
    lines = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert len(lines) == 6 * 2 * 3  # games, columns, seats
    seeds = sorted({int(line["seed"]) for line in lines})
    assert seeds == sorted(game_seed(3, i) for i in range(2))
    for seed in seeds:
        for rotation in range(3):
            seats = [line for line in lines if int(line["seed"]) == seed and int(line["rotation"]) == rotation
                     and line["column"] == "classic2003"]
            assert [line["agent"] for line in seats] == [("greedy", "random", "random")[(s + rotation) % 3]
                                                         for s in range(3)]
            assert min(int(line["rank"]) for line in seats) == 1
    for column in ("classic2003", "supermeeple2016"):
        mine = [line for line in lines if line["column"] == column]
        winning = {}
        for line in mine:
            key = (line["seed"], line["rotation"])
            winning[key] = max(winning.get(key, 0), int(line["points"]))
            items = sum(float(v) for k, v in line.items() if k.startswith("points.") and v != "")
            assert items == int(line["points"])
        row = next(r for r in doc["rows"] if r["key"] == "winning_score")
        c = [col["label"] for col in doc["columns"]].index(column)
        assert sum(winning.values()) / len(winning) == pytest.approx(row["values"][c]["mean"])
    agents = {r["key"]: r for r in doc["rows"] if r["key"].startswith("win.agent.")}
    assert set(agents) == {"win.agent.greedy", "win.agent.random"}


def test_a_sweep_has_a_column_per_value_on_the_same_seeds(capsys, tmp_path):
    path = tmp_path / "sweep.csv"
    code, out, err = run_cli(capsys, "compare", "classic2003", "--sweep", "components.starting_gold=10,40",
                             "--games", "30", "--agents", "random", "--workers", "1", "--json", "--csv", str(path))
    assert code == 0, err
    doc = json.loads(out)
    assert [c["label"] for c in doc["columns"]] == ["components.starting_gold=10", "components.starting_gold=40"]
    gold = next(r for r in doc["rows"] if r["key"] == "auction_price")  # richer players bid higher
    assert gold["versus_first"][1]["diff"] > 0 and gold["versus_first"][1]["significant"]
    assert "starting_gold" in " ".join(doc["differences"][0]["lines"])
    lines = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert len(lines) == 2 * (len(doc["rows"]) + len(doc["by_kingdom"]))  # the JSON's rows, by kingdom too
    row = next(line for line in lines if line["key"] == "auction_price" and line["column"].endswith("=40"))
    assert float(row["diff"]) == pytest.approx(gold["versus_first"][1]["diff"])
    first = next(r for r in doc["by_kingdom"] if r["key"] == "kingdom1.auction_price")
    row = next(line for line in lines if line["key"] == "kingdom1.auction_price" and line["column"].endswith("=40"))
    assert float(row["p_holm"]) == pytest.approx(first["versus_first"][1]["p_holm"])
    assert first["trend"] is not None  # a numeric sweep's slope, by kingdom too


def test_the_plot_is_written(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
    path = tmp_path / "compare.png"
    code, out, err = run_cli(capsys, "compare", "classic2003", "supermeeple2016", "--games", "20", "--agents",
                             "random", "--workers", "1", "--plot", str(path))
    assert code == 0, err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_a_missing_plot_extra_is_named_before_any_game(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run_cli(capsys, "compare", "classic2003", "--games", "100000", "--plot", str(tmp_path / "x.png"))
    assert code == 2 and err == "error: --plot needs matplotlib: pip install 'amunre[plot]'\n"


@pytest.mark.parametrize("argv, expected", [
    ([], "no variant given (expected VARIANT...: ids or .toml files"),
    (["classic2003", "supermeeple2016", "--sweep", "components.starting_gold=1,2"], "--sweep varies one variant"),
    (["classic2003", "--sweep", "components.starting_gold=15"], "expected at least two values"),
    (["classic2003", "--sweep", "components.starting_gold"], "is not KEY=V1,V2,..."),
    (["classic2003", "--sweep", "components.starting_gold=5,5"], "gives one value twice: 5 and 5"),
    (["classic2003", "--sweep", "components.starting_gold=20,0x14"], "gives one value twice: 20 and 0x14"),
    (["classic2003", "--sweep", "components.starting_gold=5,x"], "--sweep components.starting_gold=x: wrong type"),
    (["classic2003", "--sweep", "extends=a,b"], "--sweep cannot change `extends`"),
    (["classic2003", "--plot", "a\\tb.svg"], "--plot a\\tb.svg is not a .png file"),
    (["classic2003", "expert2016", "--players", "5"], "expert2016 is played by 3, 4"),
    (["classic2003", "--players", "\uff14"], "--players must be a count every variant allows"),
    (["classic2003", "--agents", "human"], "cannot play unattended"),
    (["classic2003", "--agents", "greedy,random"], "names 2 agents for 4 players"),
    (["classic2003", "--records"], "Option '--records' requires an argument"),
    (["classic2003", "--html", "report.txt"], "--html report.txt is not an .html file (expected FILE.html)"),
    (["classic2003", "--records", "a.csv", "--records", "b.csv"],
     "--records is given 2 times (a.csv and b.csv), but a run writes one such file (expected one --records)"),
    (["classic2003", "--html", "same.html", "--records", "./same.html"],
     "--records and --html name the same file, same.html (expected two files"),
    (["classic2003", "--games", "0"], "is not a whole number from 1"),
    (["classic2003", "--workers", "0"], "is not a whole number from 1"),
    (["classic2003", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "expected one of them"),
    (["classic2003", "--plot", "out.svg"], "is not a .png file"),
    (["classic2003", "--csv", ""], "--csv is empty (expected a file path)"),
    (["classic2003", "--csv", "-"], "--csv -: the CSV is written to a file, not to stdout"),
    (["classic2003", "--set", "components.starting_gold=20", "--set", "components.starting_gold=25"],
     "sets components.starting_gold a second time (first with --set components.starting_gold=20)"),
    (["classic2003", "--plot", " "], "--plot is empty (expected a file path)"),
    (["classic2003", "--csv", "/nonexistent-dir/x.csv"], "cannot write the CSV --csv"),
    (["nosuch"], "unknown variant 'nosuch'"),
    # what is wrong with a --sweep's values, by name
    (["classic2003", "--sweep", "components.starting_gold=15,,20"],
     "--sweep components.starting_gold=15,,20: value 2 of 3 is empty (expected a value between every two commas"),
    (["classic2003", "--sweep", "components.starting_gold=15,20,"], "value 3 of 3 is empty"),
    (["classic2003", "--sweep", "components.starting_gold=[1,2"],
     "--sweep components.starting_gold=[1,2: a [ is never closed (expected KEY=V1,V2,..., where a comma inside"),
    (["classic2003", "--sweep", "components.starting_gold=1,2]"], "a ] closes nothing"),
    (["classic2003", "--sweep", "components.starting_gold=[1,{2]"], "a ] where } should close"),
    (["classic2003", "--sweep", 'edition.name="a,b'], 'a " quote is never closed'),
    # options that contradict each other: refused, not one of them silently dropped
    (["classic2003", "--sweep", "components.starting_gold=1,2", "--sweep", "rulings.bribery_scope=a,b"],
     "--sweep is given 2 times (--sweep components.starting_gold=1,2 and --sweep rulings.bribery_scope=a,b), "
     "but a run varies one key"),
    (["classic2003", "--sweep", "components.starting_gold=15,20", "--set", "components.starting_gold=25"],
     "--set components.starting_gold=25 changes the key --sweep components.starting_gold=15,20 varies"),
    (["classic2003", "--sweep", "components.starting_gold=15,20", "--set", "components={starting_gold=25}"],
     "changes the key --sweep components.starting_gold=15,20 varies"),
    (["classic2003", "--csv", "same.png", "--plot", "./same.png"],
     "--csv and --plot name the same file, ./same.png (expected two files"),
])
def test_bad_input_is_one_clear_line(capsys, argv, expected):
    if "--plot" in argv:
        pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
    code, out, err = run_cli(capsys, "compare", *argv)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and expected in err, err
    assert "Traceback" not in err


def test_a_set_that_fails_in_one_variant_of_several_names_it(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "expert2016",
                             "--set", "params.province_draft.hand_size=1", "--set", "components.starting_gold=-1")
    assert code == 2
    lines = err.removeprefix("error: ").splitlines()
    assert lines[0].startswith("classic2003: --set params.province_draft.hand_size=1: no pipeline entry uses")
    assert "expert2016: --set params.province_draft.hand_size=1: unknown parameter" in err
    # every column's problems at once
    assert sum(line.endswith("-1 is too small (expected at least 0)") for line in lines) == 2


def test_the_sweeps_differences_name_both_values(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "--sweep", "components.starting_gold=20,21",
                             "--games", "2", "--agents", "random", "--workers", "1", "--json")
    assert code == 0, err
    diff = json.loads(out)["differences"][0]
    assert diff["lines"][0] == ("classic2003 with --sweep components.starting_gold=20 vs "
                                "classic2003 with --sweep components.starting_gold=21")
    assert diff["diff"]["a"]["set"] == ["components.starting_gold=20"]


def test_a_difference_too_small_to_show_has_no_sign_and_one_game_is_singular():
    from amunre.compare.report import diff_text, legend
    from amunre.compare.run import Row

    row = Row("offering_level.1", "level 1", "share", [], [])
    assert diff_text(row, stats.Paired(-0.0001, 0, 0, 1.0, 10)) == "0.0 pt"
    assert diff_text(row, stats.Paired(0.02, 0, 0, 1.0, 10)) == "+2.0 pt"
    comparison = run_comparison(_columns("classic2003"), 1, 0, Inline())
    assert "over 1 game (" in legend(comparison)


def test_ctrl_c_reports_the_games_finished_so_far(tmp_path):
    """SIGINT to a running compare: it stops, reports the games every column finished, and
    exits 130; the workers go with it."""
    # 6,400 games asked: batches of 100 (games / 64), so the first Ctrl-C, after 3 CPU s, finds games finished
    # (at 1,000,000 a batch holds 250, none had finished by then and a second run was started), and far
    # more than are played before any of the Ctrl-Cs
    runs = ctrl_c_once(["compare", "classic2003", "supermeeple2016", "--games", "6400", "--agents", "random",
                        "--workers", "2", "--json"], tmp_path)
    for code, out, err in runs:
        assert code == 130, err
        assert "interrupted: " in err and " of 6400 games finished in every column" in err, err
        assert "Traceback" not in err
        if not out:
            assert "interrupted: 0 of 6400" in err and out == ""  # nothing finished: nothing to show
    doc = json.loads(out)
    assert doc["interrupted"] and 0 < doc["games"] < 6400 and doc["games_asked"] == 6400
    jsonschema.validate(doc, load_schema("compare"))


def test_one_game_has_no_interval_but_a_proportions(capsys):
    """With a single game a mean has no spread: no sd and no interval, never a false ± 0, and
    a share of rounds (a mean of each game's share) neither, never a false 0–100%; a
    proportion of games has Wilson's interval from one game on."""
    code, out, err = run_cli(capsys, "compare", "classic2003", "--games", "1", "--workers", "1", "--json")
    assert code == 0, err
    rows = {row["key"]: row["values"][0] for row in json.loads(out)["rows"]}
    for key in ("winning_score", "decisions", "offering_level.1", "auction_price"):
        assert rows[key]["n"] == 1 and rows[key]["sd"] is None and rows[key]["low"] is None, key
        assert rows[key]["high"] is None, key
    for key in ("win.seat1", "win.seat4", "tie_break"):
        value = rows[key]
        assert value["n"] == 1 and value["sd"] is None, key
        assert (value["low"], value["high"]) == pytest.approx(stats.wilson(value["mean"], 1)), key
    assert stats.wilson(0, 1) == pytest.approx((0.0, 0.7934506), abs=1e-6)


def test_newcombes_paired_interval_matches_his_published_example():
    """Newcombe (1998), example (a): 36 pairs both positive, 12 first only, 2 second only, 0
    neither: a difference of 0.2, his method 10 interval 0.0569 to 0.3404."""
    first = [1] * 36 + [0] * 12 + [1] * 2
    other = [1] * 36 + [1] * 12 + [0] * 2
    a, b, d = stats.Moments.of(first), stats.Moments.of(other), stats.Moments.of(y - x for x, y in zip(first, other))
    correlation, _ = stats.pairing_of(a, b, d)
    found = stats.proportion_difference(a, b, d, correlation)
    assert (found.diff, found.low, found.high) == pytest.approx((0.2, 0.0569, 0.3404), abs=1e-4)
    assert found.p < 0.05
    # every game moved alike is no certainty, and from one pair on there is an interval
    ones, zeros = stats.Moments.of([1] * 5), stats.Moments.of([0] * 5)
    five = stats.proportion_difference(zeros, ones, ones)
    assert 0 < five.low < 1 and five.high == 1.0 and 0 < five.p < 0.05
    one = stats.proportion_difference(stats.Moments.of([0]), stats.Moments.of([1]), stats.Moments.of([1]))
    assert -1 < one.low < 0 < one.high == 1.0 and one.p > 0.05
    same = stats.proportion_difference(ones, ones, stats.Moments.of([0] * 5))
    assert same.diff == 0 and same.p == 1.0 and same.low < 0 < same.high


@pytest.mark.parametrize("extra", [["--agents", "random"], ["--players", "3", "--agents", "greedy,random,random"]],
                         ids=["one-agent", "rotated"])
def test_every_proportion_has_wilsons_interval_and_its_count(capsys, extra):
    """A proportion of games (a seat's win rate, an item's largest-item win rate, an agent's
    win rate per seat) is never `100.0% (100.0%–100.0%)` or `0.0% (0.0%–0.0%)` (a t-interval
    on a proportion): Wilson's interval of its count, shown as `k of n` in the table, the
    JSON and the CSV; the difference of two is Newcombe's paired interval, never a point."""
    argv = ["compare", "classic2003", "supermeeple2016", "--games", "5", "--workers", "1", "--seed", "2", *extra]
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("compare"))
    rates = [row for row in doc["rows"] if row["kind"] == "rate"]
    assert {row["key"].split(".")[0] for row in rates} >= {"win", "item_wins", "close", "tie_break"}
    assert any(row["key"].startswith("item_wins.") for row in rates)
    for row in rates:
        for value in row["values"]:
            if value is None:
                continue
            k, n = value["successes"], value["n"]
            assert k == pytest.approx(value["mean"] * n) and 0 <= k <= n, row["key"]
            assert (value["low"], value["high"]) == pytest.approx(stats.wilson(k, n)), row["key"]
            assert value["low"] < value["high"], row["key"]  # never a point
        for versus in row["versus_first"][1:]:
            if versus is not None:
                assert versus["low"] < versus["high"] and -1 <= versus["low"] and versus["high"] <= 1, row["key"]
    assert all(v is None or v["successes"] is None for row in doc["rows"] if row["kind"] != "rate"
               for v in row["values"])
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert "(0.0%–0.0%)" not in out and "(100.0%–100.0%)" not in out
    assert " of 5)" in out or (" of 2)" in out and "--players" in extra)


def test_a_second_ctrl_c_ends_the_run_at_once(tmp_path):
    """Two Ctrl-C 0.2 s apart with local workers (the second while the first stops them):
    the run ends with 130 and the games finished, never hangs (it did: the exit waited for
    workers that were never told to stop)."""
    code, err = ctrl_c_twice(["compare", "classic2003", "supermeeple2016", "--games", "1000000", "--agents",
                               "random", "--workers", "2"], tmp_path)
    assert code == 130, err
    assert " of 1000000 games finished in every column" in err and "Traceback" not in err, err


EARLY_CTRL_C = """
import builtins, os, signal
real_import = builtins.__import__
def interrupt_at(name, *args, **kwargs):
    if name == "amunre.cli.common":  # a Ctrl-C while the command line's modules load
        builtins.__import__ = real_import
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, *args, **kwargs)
builtins.__import__ = interrupt_at
from amunre.cli import main
main()
"""


@pytest.mark.parametrize("argv", [["compare", "classic2003"], ["variants"]])
def test_ctrl_c_while_the_command_line_loads_is_one_line_and_130(tmp_path, argv):
    import os
    import signal
    import subprocess
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-c", EARLY_CTRL_C, *argv], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(repo)), timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "interrupted\n", "")


def test_an_option_without_its_value_points_to_the_commands_help(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "--games")
    assert code == 2 and err == "error: Option '--games' requires an argument. (see 'amunre compare --help')\n"


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="needs /proc (Linux), a folder that takes no new file")
def test_an_output_in_a_folder_that_takes_no_new_file_says_so(capsys):
    """/proc/version exists: "No such file or directory" would mislead."""
    code, out, err = run_cli(capsys, "compare", "classic2003", "--csv", "/proc/version")
    assert code == 2 and err == ("error: cannot write the CSV --csv '/proc/version': no new file can be made in its "
                                 "folder '/proc' (No such file or directory), and the file is written whole beside "
                                 "its place, then renamed into it (expected a path in a writable folder)\n")


def test_set_values_are_recorded_in_the_header_the_json_and_the_csv(capsys, tmp_path):
    argv = ["compare", "classic2003", "supermeeple2016", "--set", "components.starting_gold=25", "--set",
            "rulings.bribery_scope=whole_phase", "--games", "2", "--agents", "random", "--workers", "1"]
    settings = ["components.starting_gold=25", "rulings.bribery_scope=whole_phase"]
    code, out, err = run_cli(capsys, *argv, "--json", "--csv", str(tmp_path / "set.csv"))
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("compare"))
    assert doc["set"] == settings
    diff = doc["differences"][0]
    assert diff["diff"]["a"]["set"] == settings and diff["diff"]["b"]["set"] == settings
    assert diff["lines"][0] == (f"classic2003 with --set {settings[0]} --set {settings[1]} vs "
                                f"supermeeple2016 with --set {settings[0]} --set {settings[1]}")
    lines = list(csv.DictReader(io.StringIO((tmp_path / "set.csv").read_text(encoding="utf-8"))))
    assert {line["set"] for line in lines} == {"; ".join(settings)}
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert f"seed 0; --set {settings[0]}; --set {settings[1]}; " in out.splitlines()[0]
    # a sweep's differences name its value first, then the --set values
    code, out, err = run_cli(capsys, "compare", "classic2003", "--sweep", "components.starting_gold=15,20", "--set",
                             settings[1], "--games", "2", "--agents", "random", "--workers", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["set"] == [settings[1]] and [c["setting"] for c in doc["columns"]] == [
        "components.starting_gold=15", "components.starting_gold=20"]
    assert doc["differences"][0]["diff"]["b"]["set"] == ["components.starting_gold=20", settings[1]]


def test_without_set_the_json_says_so():
    from amunre.compare.report import to_json

    comparison = run_comparison(_columns("classic2003"), 1, 0, Inline())
    assert to_json(comparison, summarize(comparison), [])["set"] == []


def _terminal(monkeypatch, columns: int):
    """Make the command see a terminal of `columns` characters (plain text, no colours)."""
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.mark.parametrize("argv, headers", [
    (["classic2003", "--sweep", "components.starting_gold=15,20,25"], ["=15", "=20", "=25"]),
    (["classic2003", "supermeeple2016", "expert2016"], ["classic2003", "supermeeple2016", "expert2016"]),
    (["classic2003", "supermeeple2016"], ["classic2003", "supermeeple2016"]),
])
def test_an_80_column_terminal_gets_a_readable_table(capsys, monkeypatch, argv, headers):
    """Every line fits, no heading or number is cut (`…`), the labels keep some width, each
    difference from the first stands under its column's number; the title, the legend and
    the rule differences wrap too."""
    _terminal(monkeypatch, 80)
    code, out, err = run_cli(capsys, "compare", *argv, "--games", "20", "--agents", "random", "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80, "\n".join(line for line in lines if len(line) > 80)
    assert "…" not in out[:out.index("± and (low–high)")]  # (a long word in the rule differences may be cut)
    heading = next(line for line in lines if line.startswith("┃"))
    assert [cell.strip() for cell in heading.strip("┃").split("┃")][1:] == headers
    assert "│ Winning score (points)" in out and "│ Games decided by a" in out  # labels keep some width
    assert "Δ +" in out or "Δ -" in out or "Δ 0.0" in out  # stacked under the number, not a column of its own
    assert "(paired t-test, Holm's correction over every Δ of the table)" in " ".join(out.split())
    if "--sweep" in argv:
        assert "--sweep components.starting_gold=15,20,25" in out.replace("\n", " ")  # the key, said once
        assert out.count("classic2003 with --sweep components.starting_gold=15 vs") == 2


def test_piped_output_keeps_the_wide_table(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "--sweep", "components.starting_gold=15,20,25",
                             "--games", "20", "--agents", "random", "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith("seed 0; --sweep components.starting_gold=15,20,25; " + lines[0].rsplit("; ", 1)[1])
    heading = next(line for line in lines if line.startswith("┃"))
    assert [cell.strip() for cell in heading.strip("┃").split("┃")][1:] == ["=15", "=20", "Δ", "=25", "Δ", "slope"]
    assert any(len(line) > 100 for line in lines)  # one line per row, as before


def test_the_sweeps_rule_differences_are_apart(capsys):
    code, out, err = run_cli(capsys, "compare", "classic2003", "--sweep", "components.starting_gold=15,20,25",
                             "--games", "2", "--agents", "random", "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    for value in (20, 25):
        heading = lines.index(f"classic2003 with --sweep components.starting_gold=15 vs classic2003 with --sweep "
                              f"components.starting_gold={value}")
        assert lines[heading - 1] == ""


def test_a_mean_and_its_interval_have_the_same_decimals():
    from amunre.compare.report import diff_text, value_text
    from amunre.compare.run import Row

    big = stats.Estimate(207.5, 4.1, 205.24, 209.76, 30)
    row = Row("decisions", "decisions asked per game", "mean", [big, big], [])
    assert value_text(row, big) == "207.5 ± 2.3"
    assert diff_text(row, stats.Paired(-4.756, -6, -3, 0.001, 30, 0.001)) == "-4.8 ▼"
    small = stats.Estimate(3.86, 1.2, 3.68, 4.04, 30)
    row = Row("winning_score", "winning score (points)", "mean", [small, big], [])
    assert value_text(row, small) == "3.9 ± 0.2 (sd 1.2)"  # the row's largest mean sets its decimals
    row = Row("winning_score", "winning score (points)", "mean", [small], [])
    assert value_text(row, small) == "3.86 ± 0.18 (sd 1.20)"
