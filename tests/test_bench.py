"""`amunre bench` end to end with tiny settings (what it prints, not how fast: no timed
assertions), and the measuring library `amunre.compare.bench` it stands on."""

import platform
import re

import pytest
from helpers import classic, run_cli

from amunre.agents import make_agents
from amunre.cli.buildinfo import COMPILED_SUFFIXES, compiled_modules, describe_build
from amunre.compare.bench import Rates, Tally, clone_cost, measure, play_for
from amunre.compare.executors import InProcessExecutor
from amunre.compare.jobs import job_for
from amunre.core.engine import Game, play_on

ROWS = ("games ", "decisions asked ", "engine steps ")


def header(workers: int) -> list[str]:
    """The two lines of the table's header, words split by blanks."""
    w = f"{workers} worker{'s' if workers != 1 else ''}"
    return [f"1 process 1 process {w} {w} speed-up", "per second CPU wall CPU wall (wall)"]


@pytest.mark.parametrize("workers", [1, 2])
def test_bench_prints_every_column_for_one_and_several_workers(capsys, workers):
    code, out, err = run_cli(capsys, "bench", "--games", "1", "--agents", "random", "--workers", str(workers))
    assert code == 0, err
    assert "classic2003: loads in " in out
    assert "classic2003, 4 players, random in every seat" in out
    lines = [" ".join(line.split()) for line in out.splitlines()]
    top = lines.index(header(workers)[0])
    assert lines[top + 1] == header(workers)[1]
    for row, line in zip(ROWS, lines[top + 2:top + 5]):
        assert line.startswith(row) and line.endswith("x") and len(line.split()) == len(row.split()) + 5, line
    assert f"on {workers} worker" in out and "after 5 warm-up games each" in out
    assert "decisions asked" in out and "engine steps (forced decisions included)" in out
    assert "CPU share: " in out and "per worker" in out
    assert re.search(r"clone: \d+ us median, \d+ us p95 per Game.clone\(\) "
                     r"\(CPU time, at each of the \d+ decisions", out)
    assert re.search(r"determinize: \d+ us median, \d+ us p95 per sample_game\(\) of the asked seat", out)


def test_bench_prints_games_per_second(capsys):
    """Moved from test_cli: every agent kind asked for gets its own table (random and greedy
    by default)."""
    code, out, err = run_cli(capsys, "bench", "--games", "3", "--workers", "1")
    assert code == 0, err
    assert out.count("\nengine steps ") == 2 and "random in every seat" in out and "greedy in every seat" in out
    assert "classic2003: loads in " in out


def test_bench_measures_every_variant_given_for_some_seconds(capsys):
    code, out, err = run_cli(capsys, "bench", "--variant", "classic2003", "--variant", "supermeeple2016",
                             "--players", "3", "--agents", "random", "--seconds", "0.05", "--workers", "1")
    assert code == 0, err
    assert "classic2003, 3 players, random in every seat" in out
    assert "supermeeple2016, 3 players, random in every seat" in out
    assert out.count("\nengine steps ") == 2


def test_bench_takes_set(capsys):
    code, out, err = run_cli(capsys, "bench", "--games", "1", "--agents", "random", "--workers", "1",
                             "--set", "components.starting_gold=25")
    assert code == 0, err
    assert "decisions asked " in out


@pytest.mark.parametrize("argv, expected", [
    (["--workers", "0"], "'0' is not a whole number from 1 to 1024"),
    (["--workers", "x"], "'x' is not a whole number from 1 to 1024"),
    (["--seconds", "-1"], "'-1' is not a number of seconds above 0"),
    (["--seconds", "0"], "'0' is not a number of seconds above 0"),
    (["--seconds", "nan"], "'nan' is not a number of seconds above 0"),
    (["--seconds", "1e9"], "'1e9' is not a number of seconds above 0"),
    (["--seconds", "86401"], "at most 86400"),
    (["--games", "0"], "is not a whole number from 1 to 10000000"),
    (["--players", "9"], "--players must be one of 3, 4, 5 for classic2003, not '9'"),
    (["--variant", "classic2003", "--variant", "nosuch"], "unknown variant 'nosuch'"),
    (["--agents", "random,wizard"], "unknown agent 'wizard'"),
])
def test_bench_bad_input_gives_one_clear_line_and_exit_2(capsys, argv, expected):
    code, out, err = run_cli(capsys, "bench", "--games", "1", *argv)
    assert code == 2, (out, err)
    assert expected in err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err + out and out == ""


# -- the library -------------------------------------------------------------------------------


def test_play_for_counts_games_asked_decisions_and_steps():
    job = job_for(classic(), (), 4, ("random",))
    tally = play_for(job, 0, 2, None, warmup=1)
    assert tally.games == 2
    assert 0 < tally.asked < tally.steps  # forced decisions are steps, never asked
    assert tally.cpu > 0 and tally.wall > 0 and tally.end >= tally.start
    again = play_for(job, 0, 2, None, warmup=0)
    assert (again.games, again.asked, again.steps) == (tally.games, tally.asked, tally.steps)  # seeded


def test_play_for_with_seconds_plays_at_least_one_game():
    job = job_for(classic(), (), 3, ("random",))
    tally = play_for(job, 5, None, 1e-6, warmup=0)
    assert tally.games >= 1


def test_rates_of_workers_sum_counts_and_span_the_wall_clock():
    a = Tally(games=10, asked=100, steps=150, cpu=1.0, wall=1.0, start=100.0, end=101.0)
    b = Tally(games=6, asked=60, steps=90, cpu=0.5, wall=1.0, start=100.5, end=101.5)
    rates = Rates.of([a, b])
    assert (rates.games, rates.asked, rates.steps, rates.cpu, rates.wall) == (16, 160, 240, 1.5, 1.5)
    assert rates.per_cpu("games") == pytest.approx(16 / 1.5)
    assert rates.per_wall("steps") == pytest.approx(240 / 1.5)
    assert rates.cpu_share() == pytest.approx(1.5 / 3.0)
    assert Rates.of([a]).wall == 1.0


def test_measure_in_this_process_and_the_clone_cost():
    with InProcessExecutor() as executor:
        m = measure(classic(), 3, "random", executor, games=1, warmup=0)
    assert (m.variant_id, m.players, m.agent, m.workers) == ("classic2003", 3, "random", 1)
    assert m.single.games == 1 and m.parallel.games == 1
    assert m.speedup() > 0
    assert 0 < m.clone.median_us <= m.clone.p95_us and m.clone.decisions >= 2
    assert 0 < m.determinize.median_us <= m.determinize.p95_us and m.determinize.decisions == m.clone.decisions
    game = Game(classic(), 4, 0)
    play_on(game, make_agents(["greedy"] * 4, 0))
    cost = clone_cost(classic(), 4, "greedy", repeat=1)
    assert cost.decisions == len(game.answers_so_far())  # every decision asked, none forced


def test_bench_and_version_say_which_build_runs(capsys):
    """`amunre bench` and `amunre --version` name the build: pure Python or how many modules compiled."""
    from amunre import __version__

    expected = describe_build()
    code, out, err = run_cli(capsys, "bench", "--games", "1", "--agents", "random", "--workers", "1")
    assert code == 0, err
    assert out.splitlines()[0] == f"amunre {__version__}, {expected}, Python {platform.python_version()}"
    code, out, err = run_cli(capsys, "--version")
    assert code == 0, err
    assert out.strip() == f"amunre, version {__version__} ({expected})"


def test_compiled_modules_are_found_beside_their_sources(tmp_path, monkeypatch):
    """A compiled file in the package (as a compiled install has) is named by its module, __init__ by its package."""
    import amunre

    package = tmp_path / "amunre"
    (package / "rules").mkdir(parents=True)
    (package / "core").mkdir()
    suffix = COMPILED_SUFFIXES[0]
    for name in (f"core/engine{suffix}", "core/engine.py", f"rules/market{suffix}", f"rules/__init__{suffix}",
                 "core/view.py"):
        (package / name).write_text("")
    monkeypatch.setattr(amunre, "__path__", [str(package)])
    assert compiled_modules() == ["amunre.core.engine", "amunre.rules", "amunre.rules.market"]
    assert describe_build() == "compiled (Cython): 3 modules"


def test_bench_json_follows_its_schema_and_its_rates_are_its_counts(capsys):
    import json

    import jsonschema

    from amunre.loader.resources import load_schema

    code, out, err = run_cli(capsys, "bench", "classic2003", "supermeeple2016", "--games", "2", "--agents", "random",
                             "--workers", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("bench"))
    assert [m["variant_id"] for m in doc["measurements"]] == ["classic2003", "supermeeple2016"]
    assert doc["build"]["compiled_modules"] == compiled_modules()  # the build measured, as found on disk
    for m in doc["measurements"]:
        single = m["single"]
        assert single["games"] == 2
        assert single["per_cpu_second"]["games"] == pytest.approx(single["games"] / single["cpu"])
