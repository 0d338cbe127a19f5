"""An agent never changes the game it is asked about: the conformance invariant [untouched].

The checker (`amunre.testing`, `GameChecker.ask`) compares the game in full before and after
each `choose()`: its state (players, provinces, supplies, piles, every rule module's data, the
random streams' counters), the pending request and every answer given. Here it runs over every
variant file with every built-in agent (random, greedy, planner, mcts at a small budget, and a
human seat whose person asks for every screen the seat offers before answering), and over
classic2003 with a plug-in scoring rule that keeps a count in its own data and declares no
`points_for` (tests/plugins/counting_rule.py): a planner values it by playing it, which once
counted its hypothetical runs into the live game (1,582 runs instead of 2 in a four-planner
game, seed 3; the property failed at the first decision). A cheating agent shows the check can
still fail, and `amunre check` runs it for any agent named, an installed package's too.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import covered_variant_files, installed_env, variant_at, variant_label

from amunre.agents import make_agent
from amunre.agents.human import HumanAgent
from amunre.agents.terminal import Terminal
from amunre.testing import ConformanceError
from amunre.testing.checker import GameChecker
from amunre.testing.suite import play_checked

PLUGINS = Path(__file__).resolve().parent / "plugins"
TALLY = PLUGINS / "tally.toml"
#: The built-in bots, each at a budget that keeps a game quick (mcts: a few playouts a decision).
BOTS = ("random", "greedy", "planner", "mcts:iterations=2:rollout=random")
#: Only the invariant under test: the game's other checks are the conformance suite's.
ONLY_UNTOUCHED = {"views_every": 0, "counterfactual": False, "illegal_every": 0, "roundtrip_every": 0}


@pytest.fixture
def tally():
    """The counting plug-in registered in-process (as an installed package's would be)."""
    sys.path.insert(0, str(PLUGINS))
    try:
        from counting_rule import Tally

        from amunre.core.registry import RULES, all_rules

        all_rules()
        RULES["tally"] = Tally
        yield
        RULES.pop("tally", None)
    finally:
        sys.path.remove(str(PLUGINS))


def _variants():
    return [pytest.param(path, id=variant_label(path)) for path in covered_variant_files()]


def _seats(variant) -> int:
    """The most players the variant allows: the most agents asked about one game."""
    return max(variant.players)


@pytest.mark.parametrize("agent", BOTS)
@pytest.mark.parametrize("path", _variants())
def test_no_built_in_bot_changes_the_game_while_choosing(path, agent):
    variant = variant_at(path)
    checker = play_checked(variant, _seats(variant), 11, agent, **ONLY_UNTOUCHED)
    assert checker.game.finished and checker.decisions > 0


class _Asking:
    """A person at a human seat who, at every decision, asks for the coming scoring (`p`),
    the cards (`c`), the board (`v`) and the help (`?`), then answers with an option drawn by
    `rng`: every screen the seat shows is worked out from the live game."""

    def __init__(self, rng):
        self.rng = rng
        self.options = 1
        self._typed = iter(())

    def readline(self) -> str:
        line = next(self._typed, None)
        if line is None:
            self._typed = iter(["p\n", "c\n", "v\n", "?\n", f"{self.rng.randrange(self.options)}\n"])
            line = next(self._typed)
        return line


class _HumanSeat:
    """A human seat fed by `_Asking`, as `amunre run` seats a person."""

    def __init__(self, rng):
        self.stdin = _Asking(rng)
        self.human = HumanAgent(Terminal(err=io.StringIO(), stdin=self.stdin, wrap=False, echo=False, width=100))

    def choose(self, view, request):
        self.stdin.options = len(request.options)
        return self.human.choose(view, request)


def _play_with_a_person(variant, seat_of_person: int, seed: int) -> GameChecker:
    import random

    checker = GameChecker(variant, _seats(variant), seed, "human,random", **ONLY_UNTOUCHED)
    agents = [make_agent("random", seed, p) for p in range(checker.n)]
    agents[seat_of_person] = _HumanSeat(random.Random(seed))
    game = checker.game
    while game.pending is not None:
        checker.step(checker.ask(agents[game.pending.player]))
    return checker


@pytest.mark.parametrize("path", _variants())
def test_a_human_seat_asking_for_every_screen_changes_nothing(path):
    checker = _play_with_a_person(variant_at(path), 0, 5)
    assert checker.game.finished


# -- a plug-in that keeps data in the game ------------------------------------------------------

@pytest.mark.parametrize("agent", BOTS)
def test_a_plugin_that_counts_its_runs_counts_only_the_real_ones(tally, agent):
    """The plug-in's count, after a game, is the number of kingdom scorings: none of the
    planner's hypothetical plays of it reached the game (they did: 1,582 of them)."""
    from amunre.loader import load_variant

    variant = load_variant(TALLY)
    checker = play_checked(variant, 4, 3, agent, **ONLY_UNTOUCHED)
    assert checker.game.state.rules["scoring:tally"] == {"runs": len(variant.edition.kingdoms)}


def test_a_person_asking_for_the_coming_scoring_does_not_run_the_plugin(tally):
    """The human seat's `p` plays the scoring on a position of its own (it played it on the
    game's own module data)."""
    from amunre.loader import load_variant

    variant = load_variant(TALLY)
    checker = _play_with_a_person(variant, 1, 3)
    assert checker.game.state.rules["scoring:tally"] == {"runs": len(variant.edition.kingdoms)}


def test_what_a_view_hands_out_of_a_modules_data_is_a_copy(tally):
    from amunre.core.engine import Game
    from amunre.loader import load_variant

    game = Game(load_variant(TALLY), 3, 1)
    handed = game.view(0).rules
    handed["scoring:tally"]["runs"] = 99
    handed["province_draw"].clear()
    assert game.state.rules["scoring:tally"] == {"runs": 0}
    assert game.state.rules["province_draw"]


class _Cheat:
    """Reaches past its view into the game (what Python cannot forbid) and counts a run."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, view, request):
        view._game.state.rules["scoring:tally"]["runs"] += 1
        return request.options[self.rng.randrange(len(request.options))]


def test_an_agent_that_writes_into_the_game_fails_the_check(tally):
    """The check can fail: an agent that changes the game while choosing is named, with what
    it changed."""
    import random

    from amunre.loader import load_variant

    checker = GameChecker(load_variant(TALLY), 3, 2, "cheat", **ONLY_UNTOUCHED)
    with pytest.raises(ConformanceError) as info:
        checker.ask(_Cheat(random.Random(2)))
    assert info.value.invariant == "untouched"
    assert "state.rules.scoring:tally.runs differ before and after its choose()" in str(info.value)


@pytest.mark.parametrize("meddle,said", [
    (lambda game, request: game.state.draws.__setitem__("cards", 99), "state.draws"),
    (lambda game, request: setattr(game.state.players[1], "gold", 0), "state.players[1].gold"),
    (lambda game, request: request.options.reverse(), "request"),
    (lambda game, request: game.answers.append(0), "answers"),
])
def test_every_part_of_the_game_is_compared(meddle, said):
    """The random streams' counters, the holdings, the request and the answers each count."""
    from amunre.loader import load_variant

    class Meddler:
        def choose(self, view, request):
            choice = request.options[0]
            meddle(view._game, request)
            return choice

    checker = GameChecker(load_variant("classic2003"), 3, 2, "meddler", **ONLY_UNTOUCHED)
    with pytest.raises(ConformanceError, match=r"\[untouched\]") as info:
        checker.ask(Meddler())
    assert said in str(info.value)


class _Raising:
    def choose(self, view, request):
        raise RuntimeError("its own bug")


class _Stray:
    def choose(self, view, request):
        return 12345


class _Exiting:
    def choose(self, view, request):
        raise SystemExit(0)  # (`amunre check` ended with exit 0 and no report)


class _Uncomparable:
    """An answer that cannot even be compared or shown (amunre check called it its own bug)."""

    def __eq__(self, other):
        raise TypeError("no comparing me")

    __hash__ = None

    def __repr__(self):
        raise TypeError("no showing me")


class _Odd:
    def choose(self, view, request):
        return _Uncomparable()


@pytest.mark.parametrize("agent,said", [
    (_Raising(), "raised RuntimeError: its own bug"),
    (_Stray(), "answered 12345, which is not one of the options of 'bid'"),
    (_Exiting(), "raised SystemExit: 0"),
    (_Odd(), "answered a _Uncomparable that cannot be shown, which is not one of the options of 'bid'"),
])
def test_an_agent_that_raises_or_answers_no_option_is_reported_as_the_agents_failure(agent, said):
    """Its bug is the agent's, said as such (`amunre check` called it a bug in amunre)."""
    from amunre.loader import load_variant

    checker = GameChecker(load_variant("classic2003"), 3, 2, "third", **ONLY_UNTOUCHED)
    with pytest.raises(ConformanceError) as info:
        checker.ask(agent)
    assert info.value.invariant == "agent"
    assert "invariant [agent] failed: the agent (third) of player" in str(info.value) and said in str(info.value)


# -- `amunre check` runs it for any agent named, an installed package's too ---------------------

PACKAGE = '''
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "amunre-isolation-fixtures"
version = "0.1"

[project.entry-points."amunre.rules"]
tally = "counting_rule:Tally"

[project.entry-points."amunre.agents"]
cheat = "isolation_agents:Cheat"
raising = "isolation_agents:Raising"
tidy = "isolation_agents:Tidy"

[tool.setuptools]
py-modules = ["counting_rule", "isolation_agents"]
'''

AGENTS = '''
"""Two third-party agents: one reaches into the game while choosing, one only reads its view."""


class Cheat:
    def __init__(self, rng, **params):
        self.rng = rng

    def choose(self, view, request):
        view._game.state.rules["scoring:tally"]["runs"] += 1
        return request.options[self.rng.randrange(len(request.options))]


class Raising:
    def __init__(self, rng, **params):
        pass

    def choose(self, view, request):
        raise RuntimeError("its own bug")


class Tidy:
    def __init__(self, rng, **params):
        self.rng = rng

    def choose(self, view, request):
        view.rules["scoring:tally"]["runs"] += 1  # its own copy
        return request.options[self.rng.randrange(len(request.options))]
'''


#: The tests of the installed agents share a worker (`--dist loadgroup`): the module's fixture `installed`
#: is then built once, not once on each worker (a pip install, with its isolated build, each time)
ONE_INSTALL = pytest.mark.xdist_group("isolation-installed")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """An environment with a package that adds the counting rule and two agents installed."""
    root = tmp_path_factory.mktemp("isolation")
    src = root / "src"
    src.mkdir()
    (src / "counting_rule.py").write_text((PLUGINS / "counting_rule.py").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    (src / "isolation_agents.py").write_text(textwrap.dedent(AGENTS), encoding="utf-8")
    (src / "pyproject.toml").write_text(PACKAGE, encoding="utf-8")
    return installed_env(src, root / "site")


def _check(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amunre", "check", str(TALLY), "--games", "1", "--players", "3",
                           *args], capture_output=True, text=True, env=env, timeout=300)


@ONE_INSTALL
def test_amunre_check_fails_an_installed_agent_that_changes_the_game(installed):
    run = _check(installed, "--agents", "cheat")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "invariant [untouched] failed: the agent (cheat) of player" in run.stderr
    assert "Traceback" not in run.stderr


@ONE_INSTALL
def test_amunre_check_reports_an_installed_agents_bug_as_the_agents(installed):
    run = _check(installed, "--agents", "raising")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "invariant [agent] failed: the agent (raising) of player" in run.stderr
    assert "raised RuntimeError: its own bug" in run.stderr and "bug in amunre" not in run.stderr


@ONE_INSTALL
@pytest.mark.parametrize("agents", ["tidy", "planner"])
def test_amunre_check_passes_an_agent_that_only_thinks_on_what_it_is_handed(installed, agents):
    run = _check(installed, "--agents", agents)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "all invariants held" in run.stdout



def _arena(env, lineup) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amunre", "arena", "--variant", str(TALLY), "--agents", lineup,
                           "--games", "3", "--workers", "2", "--json"], capture_output=True, text=True, env=env,
                          timeout=300)


@ONE_INSTALL
def test_arena_seats_an_installed_agent_in_worker_processes_and_names_its_failure(installed):
    """An entry point's agent plays in the arena as a built-in does; when its choose raises,
    the run stops with its name, seat and decision (exit 1), not amunre's traceback."""
    run = _arena(installed, "tidy,greedy,random")
    assert run.returncode == 0, run.stderr
    assert [entry["seats"] for entry in json.loads(run.stdout)["agents"]] == [[1, 1, 1]] * 3
    run = _arena(installed, "greedy,raising,random")
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stderr.startswith("error: agent 'raising' in seat ") and "at decision " in run.stderr
    assert "raised RuntimeError: its own bug (" in run.stderr and "Traceback" not in run.stderr
