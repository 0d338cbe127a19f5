"""One's own agent, named by its code (`mypkg.bots:Cautious`, `./my_bot.py:Cautious`): its spec's
convention, its parameters, that `arena` and `compare` seat it as they seat a built-in (the same
rotation and seeds, in worker processes too), and that its failures are said as its own."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from helpers import run_cli, write

from amunre.agents import is_own, make_agent, split_spec
from amunre.agents.greedy import GreedyAgent
from amunre.core.errors import ArgumentValueError

BOTS = '''
"""Agents of a researcher's own, for the tests."""
from amunre.agents.greedy import GreedyAgent


class Copy(GreedyAgent):
    """greedy itself: seated as the built-in is, it must play the very same games."""


class Tuned:
    def __init__(self, rng, caution: float = 0.5, depth: int = 2, loud: bool = False, name="plain"):
        self.rng, self.caution, self.depth, self.loud, self.name = rng, caution, depth, loud, name

    def choose(self, view, request):
        return request.options[0]


class NoRng:
    def choose(self, view, request):
        return request.options[-1]


class Needy:
    def __init__(self, level):
        self.level = level

    def choose(self, view, request):
        return request.options[0]


class RaisesInBids:
    def choose(self, view, request):
        if request.kind == "bid":
            return {}["no such key"]
        return request.options[0]


class Illegal:
    def choose(self, view, request):
        return "nonsense"


class NoChoose:
    pass


NOT_CALLABLE = 3
'''


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """A folder with bots.py and a package mybots/ holding the same, the current directory;
    whatever a test adds to sys.path or sys.modules is taken back."""
    write(tmp_path / "bots.py", BOTS)
    (tmp_path / "mybots").mkdir()
    write(tmp_path / "mybots" / "__init__.py", "")
    write(tmp_path / "mybots" / "strategies.py", BOTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield tmp_path
    for name in [n for n in sys.modules if n.split(".")[0] in ("bots", "mybots") or n.startswith("amunre_own_agent_")]:
        del sys.modules[name]


# -- the spec ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec, kind, params", [
    ("mypkg.bots:Cautious", "mypkg.bots:Cautious", {}),
    ("mypkg.bots:Cautious:caution=0.7:depth=3", "mypkg.bots:Cautious", {"caution": "0.7", "depth": "3"}),
    ("./my_bot.py:Cautious:caution=0.7", "./my_bot.py:Cautious", {"caution": "0.7"}),
    ("bots:Cautious", "bots:Cautious", {}),
    ("C:\\bots\\my_bot.py:Cautious:x=1", "C:\\bots\\my_bot.py:Cautious", {"x": "1"}),
    ("planner:gold=0.3", "planner", {"gold": "0.3"}),  # a built-in's spec reads as it did
    ("greedy", "greedy", {}),
])
def test_a_spec_names_code_by_a_name_without_an_equals_sign(spec, kind, params):
    assert split_spec(spec) == (kind, params)
    assert is_own(kind) == (":" in kind)


@pytest.mark.parametrize("spec, said", [
    ("planner:wrong", "'wrong' is not KEY=VALUE"),  # a known kind takes parameters only
    ("bots:not a name", "is not a Python name"),
])
def test_a_spec_that_fits_neither_shape_is_refused(spec, said):
    with pytest.raises(ArgumentValueError, match=said):
        split_spec(spec)


def test_parameters_reach_the_class_as_its_defaults_types_and_rng_when_it_takes_one(bots):
    agent = make_agent("./bots.py:Tuned:caution=0.7:depth=3:loud=yes:name=bold", 5, 1)
    assert (agent.caution, agent.depth, agent.loud, agent.name) == (0.7, 3, True, "bold")
    from amunre.agents import agent_rng

    assert agent.rng.random() == agent_rng(5, 1).random()  # the seat's own generator, as a built-in's
    assert type(make_agent("./bots.py:NoRng", 5, 1)).__name__ == "NoRng"
    assert make_agent("bots:Tuned", 0, 0).caution == 0.5  # a module on the current directory


@pytest.mark.parametrize("spec, said", [
    ("./bots.py:Tuned:speed=2", "agent './bots.py:Tuned' takes no parameter 'speed' (its parameters: caution, "
                                "depth, loud, name)"),
    ("./bots.py:Tuned:depth=deep", "depth='deep' is not a int (expected one like its default, 2)"),
    ("./bots.py:Tuned:loud=perhaps", "loud='perhaps' is not a bool"),
    ("./bots.py:Needy", "agent './bots.py:Needy' needs level"),
    ("./bots.py:Nope", "the file ./bots.py has no 'Nope' (expected a class or factory there; its classes: "),
    ("./bots.py:NOT_CALLABLE", "NOT_CALLABLE in the file ./bots.py is a int, not a class or factory"),
    ("./bots.py:NoChoose", "made NoChoose, which has no choose(view, request)"),
    ("./missing.py:Bot", "no file ./missing.py"),
    ("nosuch.module:Bot", "the module nosuch.module could not be loaded: ModuleNotFoundError: No module named "
                          "'nosuch'"),
])
def test_an_own_agent_that_cannot_be_made_is_refused_by_name(bots, spec, said):
    with pytest.raises(ArgumentValueError) as info:
        make_agent(spec, 0, 0)
    assert said in str(info.value)


def test_a_file_that_fails_to_load_says_where(bots):
    write(bots / "broken.py", "import json\nraise RuntimeError('not ready')\n")
    write(bots / "typo.py", "class Bot:\n    def choose(self view, request):\n        pass\n")
    with pytest.raises(ArgumentValueError) as info:
        make_agent("./broken.py:Bot", 0, 0)
    assert "the file ./broken.py could not be loaded: RuntimeError: not ready (" in str(info.value)
    assert "broken.py, line 2, in <module>)" in str(info.value)
    with pytest.raises(ArgumentValueError, match="typo.py could not be loaded: SyntaxError"):
        make_agent("./typo.py:Bot", 0, 0)


def test_a_file_imports_the_files_beside_it(bots, capsys, monkeypatch):
    """`from frugal_parts import Frugal` in an agent file finds frugal_parts.py in its folder,
    wherever the command runs from (here its parent), and the path is as it was afterwards."""
    (bots / "elsewhere").mkdir()
    write(bots / "elsewhere" / "frugal_parts.py", "from amunre.agents.greedy import GreedyAgent as Frugal\n")
    write(bots / "elsewhere" / "faulty.py", "from frugal_parts import Frugal\n\n\nclass Faulty(Frugal):\n"
          "    pass\n")
    monkeypatch.delitem(sys.modules, "frugal_parts", raising=False)  # (made by this test: gone after it)
    path_before = list(sys.path)
    code, out, err = run_cli(capsys, "arena", "--agents", "elsewhere/faulty.py:Faulty,random,random", "--games", "3",
                             "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["agents"][0]["games"] == 3
    assert sys.path == path_before
    assert isinstance(make_agent("elsewhere/faulty.py:Faulty", 0, 0), GreedyAgent)


# -- seated as the built-ins are -------------------------------------------------------------


@pytest.mark.parametrize("copy", ["./bots.py:Copy", "mybots.strategies:Copy"])
def test_arena_seats_an_own_agent_with_the_builtins_rotation_and_seeds(bots, capsys, copy):
    """A copy of greedy, named by its code and played in two worker processes, wins exactly
    what `greedy` wins in its place: the same games, seat by seat."""
    def run(first, workers):
        code, out, err = run_cli(capsys, "arena", "--variant", "long-kingdoms", "--agents", f"{first},random,greedy",
                                 "--games", "6", "--seed", "4", "--workers", workers, "--json")
        assert code == 0, err
        return json.loads(out)["agents"]

    mine, builtin = run(copy, "2"), run("greedy", "1")
    assert mine[0]["spec"] == copy
    for entry in (mine, builtin):
        del entry[0]["spec"]
    assert mine == builtin


def test_compare_plays_an_own_agent_in_worker_processes(bots, capsys):
    code, out, err = run_cli(capsys, "compare", "long-kingdoms", "--agents", "./bots.py:Copy,random,random",
                             "--games", "2", "--workers", "2", "--json")
    assert code == 0, err
    assert "./bots.py:Copy" in out


# -- its failures are its own ----------------------------------------------------------------


@pytest.mark.parametrize("command", ["arena", "compare", "bench"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_own_agent_that_raises_is_named_with_its_seat_and_decision(bots, capsys, command, workers):
    lineup = "./bots.py:RaisesInBids,greedy,random"
    argv = {"arena": ["arena", "--variant", "long-kingdoms", "--agents", lineup, "--games", "3"],
            "compare": ["compare", "long-kingdoms", "--agents", lineup, "--games", "1"],
            "bench": ["bench", "--variant", "long-kingdoms", "--agents", lineup, "--games", "2"]}[command]
    code, out, err = run_cli(capsys, *argv, "--workers", workers)
    assert code == 1, err
    assert "Traceback" not in err and (out == "" or command == "bench")  # (bench prints its build first)
    assert err.startswith("error: agent './bots.py:RaisesInBids' in seat ")
    assert "at decision " in err and "('bid', kingdom 1, round 1;" in err
    assert "raised KeyError: 'no such key' (" in err and "bots.py, line " in err and ", in choose)" in err


def test_an_own_agent_that_answers_no_option_is_named_with_its_seat_and_decision(bots, capsys):
    code, out, err = run_cli(capsys, "arena", "--variant", "long-kingdoms", "--agents",
                             "greedy,./bots.py:Illegal,random", "--games", "3", "--workers", "1")
    assert code == 1, err
    assert "error: agent './bots.py:Illegal' in seat " in err
    assert "answered 'nonsense', which is not one of the " in err and "Traceback" not in err


def test_the_rerun_the_failure_names_plays_the_same_failure(bots, capsys):
    code, _, err = run_cli(capsys, "arena", "--variant", "long-kingdoms", "--agents",
                           "greedy,./bots.py:RaisesInBids,random", "--games", "3", "--workers", "1")
    assert code == 1
    rerun = err.split("`amunre run ")[1].split("`")[0].split()
    code, _, again = run_cli(capsys, "run", "--variant", "long-kingdoms", "--quiet", *rerun)
    assert code == 1 and "Traceback" not in again
    assert again.split("raised ")[1] == err.split("raised ")[1]


@pytest.mark.parametrize("spec, said", [
    ("./bots.py:Nope", "has no 'Nope'"),
    ("./bots.py:Tuned:speed=2", "takes no parameter 'speed'"),
    ("nosuch.module:Bot", "No module named 'nosuch'"),
])
def test_arena_refuses_an_own_agent_that_cannot_be_made_before_any_game(bots, capsys, spec, said):
    code, out, err = run_cli(capsys, "arena", "--agents", f"{spec},greedy,greedy", "--games", "3", "--workers", "2")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and said in err and "Traceback" not in err


def test_a_builtin_agents_bug_stays_a_bug_of_amunre(monkeypatch):
    """Only one's own agent's exception is said as its own: a built-in's is amunre's bug."""
    from amunre.agents.playing import play_reporting
    from amunre.core.engine import Game
    from amunre.loader import load_variant

    def broken(self, view, request):
        raise ZeroDivisionError("amunre's own bug")

    monkeypatch.setattr(GreedyAgent, "choose", broken)
    game = Game(load_variant("classic2003"), 3, 1)
    with pytest.raises(ZeroDivisionError):
        play_reporting(game, [GreedyAgent(None)] * 3, ["greedy"] * 3)


# -- the example agent ------------------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "my_agent.py"


def test_the_example_agent_plays_in_the_arena_against_the_builtins(capsys):
    """examples/my_agent.py, as docs/agents.md runs it: a file spec with a parameter, the
    seats rotated, against greedy and random; it keeps to its cap in every offer it makes."""
    code, out, err = run_cli(capsys, "arena", "--variant", "long-kingdoms", "--agents",
                             f"{EXAMPLE}:Thrifty:share=0.5,greedy,random", "--games", "6", "--workers", "1", "--json")
    assert code == 0, err
    entries = json.loads(out)["agents"]
    assert entries[0]["spec"].endswith("my_agent.py:Thrifty:share=0.5") and entries[0]["seats"] == [2, 2, 2]
    assert len(EXAMPLE.read_text(encoding="utf-8").splitlines()) <= 30


def test_the_example_agent_offers_at_most_its_share():
    from amunre.core.engine import Game
    from amunre.loader import load_variant

    game = Game(load_variant("classic2003"), 4, 3)
    thrifty = make_agent(f"{EXAMPLE}:Thrifty:share=0.5", 3, 0)
    others = [make_agent("greedy", 3, seat) for seat in range(1, 4)]
    offers = 0
    while game.pending is not None:
        request = game.pending
        view = game.view(request.player)
        if request.player == 0:
            choice = thrifty.choose(view, request)
            if request.kind == "offer" and choice[0] == "gold":
                offers += 1
                assert choice[1] <= 0.5 * view.me.gold
        else:
            choice = others[request.player - 1].choose(view, request)
        game.answer(choice)
    assert offers > 0
