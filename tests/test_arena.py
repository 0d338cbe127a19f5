"""`amunre arena`: the seats really rotate, the numbers do not depend on the workers, the JSON
follows its schema, a known difference in strength shows, and bad input is one clear line."""

from __future__ import annotations

import json
from collections import Counter

import jsonschema
import pytest
from helpers import Inline, ctrl_c_once, ctrl_c_twice, run_cli

import amunre.compare.arena as arena_module
from amunre.agents import make_agents
from amunre.compare.arena import play_rotations, run_arena, seat_of, seating
from amunre.compare.jobs import game_seed, job_for
from amunre.core.engine import play_game
from amunre.loader import load_variant
from amunre.loader.resources import load_schema


def _job(lineup, vid="classic2003"):
    variant = load_variant(vid)
    return variant, job_for(variant, (), len(lineup), tuple(lineup))


# -- the rotation ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_rotation_puts_every_entry_in_every_seat_once(players):
    lineup = tuple(f"agent{i}" for i in range(players))
    for entry in range(players):
        seats = [seat_of(entry, turn, players) for turn in range(players)]
        assert sorted(seats) == list(range(players))
        for turn, seat in enumerate(seats):
            assert seating(lineup, turn)[seat] == lineup[entry]
    assert seating(lineup, 0) == list(lineup)


def test_the_games_really_seat_the_agents_in_rotation(monkeypatch):
    """Every game's agents, as handed to the engine: the one greedy entry sits in seat r in
    game r of each rotation (so in every seat once per rotation), and each game has its own
    seed f(S, g)."""
    seen = []

    def spy(names, seed):
        seen.append((list(names), seed))
        return make_agents(names, seed)

    monkeypatch.setattr(arena_module, "make_agents", spy)
    variant, job = _job(["greedy", "random", "random", "random"])
    arena = run_arena(variant, job, 12, 9, Inline())
    assert [seed for _, seed in seen] == [game_seed(9, g) for g in range(12)]
    assert [names.index("greedy") for names, _ in seen] == [0, 1, 2, 3] * 3
    assert all(Counter(names) == Counter(job.agents) for names, _ in seen)
    assert arena.tally.seats == [[3, 3, 3, 3]] * 4


def test_each_entry_gets_its_own_seats_results():
    """The tally of one rotation against the games replayed by hand, entry by entry."""
    variant, job = _job(["random", "greedy", "random"])
    part = play_rotations(job, 4, 2, 1)  # rotation 2: games 6, 7, 8
    wins, scores = [[], [], []], [[], [], []]
    for turn in range(3):
        seed = game_seed(4, 6 + turn)
        names = [job.agents[(seat - turn) % 3] for seat in range(3)]
        game = play_game(variant, make_agents(names, seed), seed)
        for entry in range(3):
            seat = (entry + turn) % 3
            wins[entry].append(1 / len(game.state.winners) if seat in game.state.winners else 0.0)
            scores[entry].append(game.state.players[seat].score)
    assert [m.mean for m in part.wins] == pytest.approx([sum(w) / 3 for w in wins])
    assert [m.mean for m in part.scores] == pytest.approx([sum(s) / 3 for s in scores])
    assert part.games == 3 and part.seats == [[1, 1, 1]] * 3


def test_an_interrupted_run_keeps_whole_rotations():
    variant, job = _job(["greedy", "random", "random"])
    arena = run_arena(variant, job, 30, 0, Inline(stop_after=3))  # 10 batches of one rotation
    assert arena.interrupted == "KeyboardInterrupt"
    assert arena.games == 9 and arena.tally.seats == [[3, 3, 3]] * 3


# -- strength ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lineup, strong", [(["greedy", "random", "random", "random"], 0),
                                            (["random", "random", "random", "greedy"], 3)])
def test_greedy_beats_three_random_agents(capsys, lineup, strong):
    """A known difference in strength shows, and is credited to the right entry: over 40 games
    greedy's win-rate interval lies above 1/4 and each random agent's below it (over seeds 0
    to 149, greedy's lower bound was never under 80%: this cannot pass by luck, and fails if
    the seats' results were credited to the wrong entries)."""
    code, out, err = run_cli(capsys, "arena", "--agents", ",".join(lineup), "--games", "40", "--workers", "1",
                             "--json")
    assert code == 0, err
    doc = json.loads(out)
    for entry in doc["agents"]:
        if entry["position"] == strong + 1:
            assert entry["win_rate"]["low"] > 0.25 and entry["versus_equal_share"] == "above", entry
        else:
            assert entry["win_rate"]["high"] < 0.25 and entry["versus_equal_share"] == "below", entry
    greedy = doc["agents"][strong]["score"]
    assert all(greedy["low"] > entry["score"]["high"] for entry in doc["agents"] if entry["spec"] == "random")


# -- the command ------------------------------------------------------------------------------


def test_arena_prints_a_row_per_entry(capsys):
    code, out, err = run_cli(capsys, "arena", "--variant", "supermeeple2016", "--agents", "greedy,random,greedy",
                             "--games", "6", "--workers", "1")
    assert code == 0 and err == "", err  # no progress bar when not on a terminal
    for words in ("supermeeple2016, 3 players, 6 games (2 rotations of the seats), seed 0", "win rate",
                  "mean Victory Points (95%)", "equal share 1/n: 33.3% (3 players)", "Wilson"):
        assert words in out, words
    rows = [line for line in out.splitlines() if "greedy" in line or "random" in line]
    assert len(rows) == 3 and sum("greedy" in line for line in rows) == 2  # the same spec twice: two entries


def test_arena_json_follows_its_schema_and_is_the_same_for_any_worker_count(capsys):
    argv = ["arena", "--agents", "greedy,random,random", "--games", "24", "--seed", "3", "--json",
            "--set", "components.starting_gold=25"]
    code, one, err = run_cli(capsys, *argv, "--workers", "1")
    assert code == 0, err
    doc = json.loads(one)
    jsonschema.validate(doc, load_schema("arena"))
    assert doc["games"] == doc["games_asked"] == 24 and doc["rotations"] == 8 and not doc["interrupted"]
    assert doc["lineup"] == ["greedy", "random", "random"] and doc["set"] == ["components.starting_gold=25"]
    assert doc["equal_share"] == pytest.approx(1 / 3)
    assert [a["seats"] for a in doc["agents"]] == [[8, 8, 8]] * 3 and all(a["games"] == 24 for a in doc["agents"])
    assert sum(a["win_rate"]["mean"] for a in doc["agents"]) == pytest.approx(1)  # shared wins count their share
    code, two, err = run_cli(capsys, *argv, "--workers", "2")
    assert code == 0, err
    assert json.loads(two) == doc


def test_a_dask_cluster_plays_the_same_numbers(capsys):
    """`--scheduler` goes through compare's Dask executor: the same JSON as one process."""
    import logging

    distributed = pytest.importorskip(
        "distributed", reason="the dask extra (distributed) is not installed: pip install '.[dask]'")
    argv = ["arena", "--agents", "greedy,random,random,random", "--games", "16", "--seed", "11", "--json"]
    code, one, err = run_cli(capsys, *argv, "--workers", "1")
    assert code == 0, err
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster:
        code, two, err = run_cli(capsys, *argv, "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    assert json.loads(two) == json.loads(one)


def test_the_smallest_run_is_one_rotation(capsys):
    code, out, err = run_cli(capsys, "arena", "--variant", "long-kingdoms", "--agents", "random,random,random",
                             "--games", "3", "--workers", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("arena"))
    assert all(a["seats"] == [1, 1, 1] and a["win_rate"]["n"] == 3 for a in doc["agents"])


@pytest.mark.parametrize("variant, named, expected", [
    ("classic2003", "greedy", ["greedy", "planner", "planner", "planner"]),
    ("classic2003", "random,greedy", ["random", "greedy", "planner", "planner"]),
    ("classic2003", "random,greedy,random", ["random", "greedy", "random"]),  # 3 players: allowed as named
])
def test_seats_nobody_names_play_the_default_agent(capsys, variant, named, expected):
    """The planner is arena's default agent: the seats a lineup leaves empty, up to 4 players."""
    code, out, err = run_cli(capsys, "arena", "--variant", variant, "--agents", named,
                             "--games", str(len(expected)), "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["lineup"] == expected


@pytest.mark.parametrize("argv, expected", [
    (["--agents", "nosuch,greedy,greedy,greedy"], "unknown agent 'nosuch' in --agents (expected agent kinds from:"),
    (["--agents", "greedy,random,random,random,random,random"],
     "--agents names 6 agents, but classic2003 is played by 3, 4 or 5 players (expected one agent per seat"),
    (["--variant", "expert2016", "--agents", "greedy,random,random,random,random", "--games", "5"],
     "expert2016 is played by 3 or 4 players"),
    (["--agents", "greedy,random,random,random", "--games", "0"], "'0' is not a whole number from 1"),
    (["--agents", "greedy,random,random,random", "--games", "10"],
     "--games 10 is not a multiple of the 4 players (expected whole rotations of the seats, each agent in each "
     "seat once per rotation: e.g. 8 or 12)"),
    (["--agents", "greedy,random,random", "--games", "2"], "e.g. 3)"),
    (["--variant", "nosuch", "--agents", "greedy,random,random"], "unknown variant 'nosuch'"),
    (["--agents", "human,greedy,greedy"], "'human' cannot play unattended"),
    (["--agents", "greedy:depth=2,random,random"], "agent 'greedy' takes no parameters"),
    (["--agents", "greedy,,random"], "--agents has an empty name"),
    (["--agents", ""], "--agents is empty"),
    ([], "Missing option '--agents'"),
    (["--agents", "greedy,random,random", "--workers", "0"], "is not a whole number from 1"),
    (["--agents", "greedy,random,random", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
     "expected one of them"),
    (["--agents", "greedy,random,random", "--scheduler", "nonsense"], "is not a Dask scheduler address"),
    (["--agents", "greedy,random,random", "--set", "components.starting_gold=-1"], "-1 is too small"),
])
def test_bad_input_is_one_clear_line(capsys, argv, expected):
    code, out, err = run_cli(capsys, "arena", *argv)
    assert code == 2, (out, err)
    assert err.startswith("error: ") and expected in err and err.count("\n") == 1, err
    assert out == "" and "Traceback" not in err


def test_ctrl_c_reports_the_games_finished_so_far(tmp_path):
    """SIGINT to a running arena: it stops, reports the games finished (whole rotations) and
    their numbers, and exits 130; the workers go with it."""
    runs = ctrl_c_once(["arena", "--agents", "random,random,greedy", "--games", "3000000", "--workers", "2",
                        "--json"], tmp_path)
    for code, out, err in runs:
        assert code == 130, err
        assert err.startswith("interrupted: ") and " of 3000000 games finished (" in err and "Traceback" not in err
        if not out:
            assert err.startswith("interrupted: 0 of 3000000") and out == ""  # nothing finished: nothing to show
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("arena"))
    assert doc["interrupted"] and 0 < doc["games"] < 3_000_000 and doc["games"] % 3 == 0
    assert all(a["seats"] == [doc["rotations"]] * 3 for a in doc["agents"])


def test_a_second_ctrl_c_ends_the_run_at_once(tmp_path):
    """Two Ctrl-C 0.2 s apart with local workers: exit 130 with the games finished, no hang."""
    code, err = ctrl_c_twice(["arena", "--agents", "random,random,random", "--games", "3000000", "--workers", "2"],
                             tmp_path)
    assert code == 130, err
    assert err.startswith("interrupted: ") and " of 3000000 games finished (" in err and "Traceback" not in err, err
