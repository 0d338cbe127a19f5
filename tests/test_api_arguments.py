"""Every function and class of the Python API the docs show, called with wrong arguments:
a wrong argument is a `TypeError` or `ValueError` of amunre's own (`amunre.core.errors`), naming the
argument and what was expected, within seconds; never an error from inside the function
(`make_agent(5, 1, 0)` was an AttributeError, `overrides=5` a bare TypeError), never silently
accepted (`make_agent("random", None, None)` was).

What a wrong argument raises (amunre/core/errors.py): `ArgumentTypeError` (a TypeError) or
`ArgumentValueError` (a ValueError), both `ArgumentError`s; and where the docs promise a
domain error, that one, which is a ValueError too: `UnknownVariantError` (an id or path that
leads to no variant), `VariantError` (an override that makes no valid variant: the loader's
one error listing every problem, docs/security.md), `IllegalAnswerError` (an answer that is
not a legal option, README "For game-AI work"). Every one is an `AmunreError`, so the
command line shows each as one clean line, as before.

The API, found by grepping README.md and docs/*.md for the Python they show (`SHOWN` below
says where each is shown):

- README: `amunre.load_variant`, `Game(variant, players, seed)`, `game.answer`,
  `game.view`, `game.clone()` (no arguments), `game.determinize(player, rng)`,
  `amunre.rl.pettingzoo.env(...)`; `amunre.play_game` (amunre/__init__'s docstring) and
  `Game.from_state` (the engine's prepared positions) with them.
- docs/agents.md: `agent_names()` (no arguments), `make_agent(spec, seed, player)`,
  `env(variant, players, reward, render_mode, overrides)`, `raw_env(...)`,
  `amunre.rl.pettingzoo.action_space`, `env.reset(seed=...)`, `env.step`,
  `env.action_to_string`, `env.string_to_action`, `view.sample_game(rng)`.
- docs/arena.md: `amunre.compare.jobs.game_seed(S, g)`.
- docs/scaling.md: `make_executor(workers, scheduler)`, `executor.run(fn, tasks)`,
  `job_for(variant, overrides, players, agents)`, `play_batch(jobs, run seed, first, count)`,
  `amunre.compare.run.batch_size`.
- docs/performance.md: `amunre.compare.bench.clone_cost`.

Named in the docs and left out, each for a reason:

- `GameState.from_dict` / `state.to_dict()` (README), `view.rule(id)` and
  `amunre.core.view.hide_from` (docs/agents.md), `amunre.planning.worth.Worth` (docs/agents.md): they live
  in amunre/core/state.py, amunre/core/view.py and amunre/planning/worth.py, which other work changes now;
  `view.sample_game` is covered, as it is `Game.determinize`.
- The rule-author API of docs/architecture.md and docs/rule-modules.md (`Rule`, `Decision`,
  `Event`, `Statistic`, `ruling`, `decide`, `add_points`, `pay`, `score_each`, the narration
  helpers `w.*`, `round_provinces.lay_out`): the engine calls it, from the inside of a game,
  on every move; a module that calls it wrongly breaks the rule-author contract, which
  `amunre check` and `RuleModuleError` report (docs/architecture.md), and checking each call
  would cost the games their speed (docs/performance.md).
- `amunre.compare.stats` (docs/compare.md names the module, not a function to call).

The deep run (`AMUNRE_DEEP=1`) draws 1,000 wrong values for each argument, the `ci` profile 25.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import conftest
import pytest
from helpers import time_limit
from hypothesis import given, settings
from hypothesis import strategies as st

from amunre import Game, load_variant, play_game
from amunre.agents import agent_names, make_agent
from amunre.compare.bench import clone_cost
from amunre.compare.executors import ProcessExecutor, make_executor
from amunre.compare.jobs import game_seed, job_for, play_batch
from amunre.compare.run import batch_size
from amunre.core.arguments import MAX_SEED
from amunre.core.errors import (
    AmunreError,
    ArgumentError,
    ArgumentTypeError,
    ArgumentValueError,
    IllegalAnswerError,
    UnknownVariantError,
    VariantError,
)
from amunre.core.model import Variant

DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)
CLASSIC = load_variant("classic2003")
FIRST = Game(CLASSIC, 4, 1).pending.player  # the seat asked first in game 1 (determinize asks for it)
STATE = Game(CLASSIC, 4, 1).state
JOB = job_for(CLASSIC, (), 4, ["random"])


@attrs.frozen
class Api:
    """One public callable: how to call it (`call(**arguments)`, on a fresh object where it is a
    method), a good value of each argument, which values each takes (a call with any other
    must raise), and the words a message about each must hold."""

    shown: str  # where the docs show it
    call: Callable[..., Any]
    good: dict[str, Any]
    takes: dict[str, Callable[[Any], bool]]  # the values an argument takes: they may be right
    words: dict[str, tuple[str, ...]] = attrs.field(factory=dict)  # an argument's words, when not its own name
    # values it takes that would take long to run (a batch of 10**9 games): not tried
    slow: dict[str, Callable[[Any], bool]] = attrs.field(factory=dict)


def whole(low: int | None = None, high: int | None = None) -> Callable[[Any], bool]:
    return lambda value: type(value) is int and (low is None or value >= low) and (high is None or value <= high)


def iterable_of(kind: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """Any iterable but a text or a mapping, of items `kind` takes."""
    return lambda value: (hasattr(value, "__iter__") and not isinstance(value, (str, bytes, Mapping))
                          and all(kind(item) for item in value))


def listed_of(kind: Callable[[Any], bool], sizes: tuple[int, ...] | None = None) -> Callable[[Any], bool]:
    """A list or tuple of items `kind` takes (of one of `sizes` items)."""
    return lambda value: (isinstance(value, (list, tuple)) and all(kind(item) for item in value)
                          and (sizes is None or len(value) in sizes))


def none_or(kind: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or kind(value)


def text(value: Any) -> bool:
    return isinstance(value, str)


def variant(value: Any) -> bool:
    return isinstance(value, (Variant, str, os.PathLike))


def never(value: Any) -> bool:
    return False


SEED = whole(0, MAX_SEED)
OVERRIDES = iterable_of(text)
LISTENERS = none_or(iterable_of(callable))


def _fresh_game() -> Game:
    return Game(CLASSIC, 4, 1)


def _sample(rng):
    game = _fresh_game()
    return game.view(game.pending.player).sample_game(rng)


def _env_api() -> dict[str, Api]:
    """The PettingZoo environment's calls, where its extra is installed."""
    try:
        from amunre.rl.pettingzoo import REWARDS, action_space, env, raw_env
        env(CLASSIC)
    except ImportError:
        return {}
    raw = raw_env(CLASSIC)
    space_size = len(raw.actions)

    def step(action):
        raw.reset(seed=1)
        raw.step(action)

    good = {"variant": CLASSIC, "players": 4, "reward": "win", "render_mode": None, "overrides": ()}
    takes = {"variant": variant, "players": whole(3, 5), "reward": lambda value: value in REWARDS,
             "render_mode": lambda value: value in (None, "human", "ansi"), "overrides": OVERRIDES}
    action = {"action": whole(0, space_size - 1)}
    return {
        "amunre.rl.pettingzoo.env": Api("docs/agents.md", env, good, takes),
        "amunre.rl.pettingzoo.raw_env": Api("docs/agents.md", raw_env, good, takes),
        "amunre.rl.pettingzoo.action_space": Api("docs/agents.md", action_space, {"variant": CLASSIC},
                                              {"variant": variant}),
        "env.reset": Api("docs/agents.md", raw.reset, {"seed": 1}, {"seed": none_or(SEED)}),
        "env.step": Api("docs/agents.md", step, {"action": 0}, action),
        "env.action_to_string": Api("docs/agents.md", raw.action_to_string, {"action": space_size - 1}, action),
        "env.string_to_action": Api("docs/agents.md", raw.string_to_action, {"text": "architect: null"},
                                    {"text": text}, words={"text": ("action",)}),
    }


def _run(fn, tasks):
    with make_executor(1) as executor:
        return list(executor.run(fn, tasks))


def _any(*arguments):
    """A task's function that takes any arguments (what a task's own function raises is its own)."""
    return arguments


def _executor(workers, scheduler):
    make_executor(workers, scheduler).close()


def _many(limit: int) -> Callable[[Any], bool]:
    """A right count above `limit`: right, and slow to play."""
    return lambda value: isinstance(value, int) and value > limit


#: Every public callable the docs show, by the name they show it under.
API: dict[str, Api] = {
    "amunre.load_variant": Api("README", load_variant, {"id_or_path": "classic2003", "overrides": ()},
                               {"id_or_path": variant, "overrides": OVERRIDES}),
    "amunre.Game": Api("README", Game, {"variant": CLASSIC, "n_players": 4, "seed": 1, "listeners": None},
                       {"variant": variant, "n_players": whole(3, 5), "seed": SEED, "listeners": LISTENERS},
                       words={"n_players": ("players",), "listeners": ("listener",)}),
    "amunre.Game.from_state": Api("amunre.core.engine", Game.from_state,
                                  {"variant": CLASSIC, "state": STATE, "listeners": None},
                                  {"variant": variant, "state": never, "listeners": LISTENERS},
                                  words={"listeners": ("listener",)}),
    "amunre.play_game": Api("amunre/__init__.py", play_game,
                            {"variant": CLASSIC, "agents": [make_agent("random", 1, seat) for seat in range(3)],
                             "seed": 1, "listeners": None},
                            {"variant": variant, "agents": never, "seed": SEED, "listeners": LISTENERS},
                            words={"listeners": ("listener",)}),
    "game.answer": Api("README", lambda choice: _fresh_game().answer(choice), {"choice": None}, {"choice": never}),
    "game.view": Api("README", lambda player: _fresh_game().view(player), {"player": 0}, {"player": whole(0, 3)}),
    "game.determinize": Api("README", lambda player, rng: _fresh_game().determinize(player, rng),
                            {"player": FIRST, "rng": random.Random(1)},
                            {"player": lambda value: type(value) is int and value == FIRST, "rng": never}),
    "view.sample_game": Api("docs/agents.md", _sample, {"rng": random.Random(1)}, {"rng": never}),
    "amunre.agents.make_agent": Api("docs/agents.md", make_agent, {"spec": "random", "seed": 1, "player": 0},
                                    {"spec": text, "seed": SEED, "player": whole(0)},
                                    words={"spec": ("spec", "agent")}),
    **_env_api(),
    "amunre.compare.jobs.game_seed": Api("docs/arena.md", game_seed, {"seed": 0, "index": 0},
                                         {"seed": SEED, "index": whole(0)}),
    "amunre.compare.jobs.job_for": Api("docs/scaling.md", job_for,
                                       {"variant": CLASSIC, "overrides": (), "players": 4, "agents": ["random"]},
                                       {"variant": variant, "overrides": OVERRIDES, "players": whole(3, 5),
                                        "agents": listed_of(text, (1, 4))},
                                       words={"agents": ("agent",)}),
    "amunre.compare.jobs.play_batch": Api("docs/scaling.md", play_batch,
                                          {"jobs": (JOB,), "run_seed": 0, "first": 0, "count": 0,
                                           "keep_records": False, "slope": None},
                                          {"jobs": never, "run_seed": SEED, "first": whole(0), "count": whole(0),
                                           "keep_records": lambda value: isinstance(value, bool),
                                           "slope": none_or(listed_of(lambda item: type(item) in (int, float)))},
                                          slow={"count": _many(2)}),
    "amunre.compare.executors.make_executor": Api("docs/scaling.md", _executor, {"workers": 1, "scheduler": None},
                                                  {"workers": none_or(whole(1)), "scheduler": none_or(text)},
                                                  slow={"scheduler": lambda value: isinstance(value, str)
                                                        and value.startswith(("tcp://", "tls://"))}),
    "executor.run": Api("docs/scaling.md", _run, {"fn": _any, "tasks": [(0, 0)]},
                        {"fn": callable, "tasks": listed_of(lambda task: isinstance(task, tuple))},
                        slow={"fn": callable}),  # a callable is right: what it raises is its own
    "amunre.compare.run.batch_size": Api("docs/scaling.md", batch_size, {"games": 100}, {"games": whole(0)}),
    "amunre.compare.bench.clone_cost": Api("docs/performance.md", clone_cost,
                                       {"variant": CLASSIC, "players": 3, "agent": "random", "seed": 0, "repeat": 1,
                                        "determinize": False},
                                       {"variant": variant, "players": whole(3, 5), "agent": text, "seed": SEED,
                                        "repeat": whole(1), "determinize": lambda value: isinstance(value, bool)},
                                       slow={"repeat": _many(2)}),
}

#: Values of every type but the right one, and of the right type but out of range: None,
#: bools, whole numbers up to 2**70, floats (NaN, infinities), texts (huge ones, NUL, paths),
#: bytes, lists, tuples, dicts, sets and plain objects.
WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=20), st.binary(max_size=8),
    st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=5), st.none()), max_size=3),
    st.lists(st.integers(-3, 3), max_size=3).map(tuple),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2), st.frozensets(st.integers(), max_size=2),
    st.sampled_from([object(), object, print, Ellipsis, 1j, range(3), "x" * 100_000, "\x00", "..", "/", "setup.py",
                     "classic2003", "random", "components.starting_gold=25", [["x"]], [b"x"]]),
)

#: The errors a wrong argument may raise: amunre's own, and TypeError or ValueError.
ALLOWED = (ArgumentTypeError, ArgumentValueError, UnknownVariantError, VariantError, IllegalAnswerError)

CASES = [(name, argument) for name, api in API.items() for argument in api.good]


def test_each_argument_says_which_values_it_takes():
    for name, api in API.items():
        assert set(api.takes) == set(api.good), name
        for argument, value in api.good.items():
            assert api.takes[argument](value) or api.takes[argument] is never, (name, argument)


def test_the_list_names_every_documented_callable():
    """A reviewable list: each entry says where the docs show it, and the issue's own examples are in it."""
    assert {"amunre.load_variant", "amunre.Game", "amunre.agents.make_agent", "amunre.play_game"} <= set(API)
    for api in API.values():
        assert api.shown.startswith(("README", "docs/", "amunre")), api


@pytest.mark.parametrize("name, argument", CASES, ids=[f"{name}({argument})" for name, argument in CASES])
@settings(max_examples=1000 if DEEP else 25, deadline=None)
@given(value=WRONG)
def test_a_wrong_argument_is_a_type_or_value_error_naming_it(name, argument, value):
    api = API[name]
    takes = api.takes[argument](value)
    slow = api.slow.get(argument)
    if takes and slow is not None and slow(value):
        return  # right, and slow to run
    arguments = {**api.good, argument: value}
    with time_limit(20):
        try:
            api.call(**arguments)
        except ALLOWED as error:
            message = str(error)
            assert message and all(len(line) < 2000 for line in message.splitlines()), message[:3000]
            if isinstance(error, ArgumentError):  # one short line naming the argument
                assert len(message) < 600 and "\n" not in message, message
                words = api.words.get(argument, (argument,))
                assert any(word in message for word in words), (words, message)
            assert isinstance(error, (TypeError, ValueError)) and isinstance(error, AmunreError)
        else:
            assert takes, f"{name} took {argument}={value!r:.200}"


# -- the cases, one by one ---------------------------------------------------------

def test_a_spec_that_is_no_text_is_a_type_error_naming_the_spec():
    with pytest.raises(ArgumentTypeError, match=r"^spec must be a str, not 5 \(an int\) \(expected an agent spec"):
        make_agent(5, 1, 0)


@pytest.mark.parametrize("seed, player, expected", [
    (None, 0, r"^seed must be a whole number from 0 to \d+, not None \(a NoneType\)$"),
    ("x", 0, r"^seed must be a whole number from 0 to \d+, not 'x' \(a str\)$"),
    (-1, 0, r"^seed must be a whole number from 0 to \d+, not -1 \(an int\)$"),
    (1, None, r"^player must be a whole number of at least 0, not None \(a NoneType\) \(expected a seat number"),
    (1, "y", r"^player must be a whole number of at least 0, not 'y' \(a str\)"),
    (1, 1.0, r"^player must be a whole number of at least 0, not 1.0 \(a float\)"),
    (1, -1, r"^player must be a whole number of at least 0, not -1 \(an int\)"),
])
def test_make_agent_refuses_a_seed_or_seat_that_is_no_whole_number(seed, player, expected):
    with pytest.raises((TypeError, ValueError), match=expected):
        make_agent("random", seed, player)


@pytest.mark.parametrize("overrides, error, expected", [
    (5, ArgumentTypeError, r"^overrides must be a list of KEY=VALUE texts, not 5 \(an int\)"),
    (None, ArgumentTypeError, r"^overrides must be a list of KEY=VALUE texts, not None"),
    ({"components.starting_gold": 25}, ArgumentTypeError, r"^overrides must be a list of KEY=VALUE texts, not a "
                                                          r"mapping"),
    ([25], ArgumentTypeError, r"^overrides\[0\] must be a KEY=VALUE text, not 25 \(an int\)"),
    ("components.starting_gold=25", ArgumentTypeError, r"^overrides must be a list of KEY=VALUE texts, not the text "
                                                       r"'components.starting_gold=25' \(expected e.g. "
                                                       r"overrides=\['components.starting_gold=25'\]\)$"),
    (["components.starting_gold=x"], VariantError, r"--set components.starting_gold=x"),
])
def test_load_variant_refuses_overrides_that_are_no_list_of_texts(overrides, error, expected):
    with pytest.raises(error, match=expected):
        load_variant("classic2003", overrides=overrides)


def test_overrides_of_any_iterable_of_texts_apply():
    for overrides in (["components.starting_gold=25"], ("components.starting_gold=25",),
                      (text for text in ["components.starting_gold=25"])):
        assert load_variant("classic2003", overrides=overrides).components.starting_gold == 25


@pytest.mark.parametrize("id_or_path", [None, 5, b"classic2003", ["classic2003"]])
def test_a_variant_named_by_no_text_or_path_is_a_type_error(id_or_path):
    with pytest.raises(ArgumentTypeError, match=r"^id_or_path must be a shipped variant id or a variant file's path"):
        load_variant(id_or_path)


def test_an_unknown_variant_is_a_value_error():
    with pytest.raises(ValueError, match="unknown variant 'no-such'"):
        load_variant("no-such")


def test_an_illegal_answer_is_a_value_error():
    with pytest.raises(ValueError):
        _fresh_game().answer("not an option")


@pytest.mark.parametrize("call, error, expected", [
    (lambda: play_game(CLASSIC, None, 1), ArgumentTypeError, r"^agents must be a list of agents, one a seat, not "
                                                             r"None"),
    (lambda: play_game(CLASSIC, ["random"] * 4, 1), ArgumentTypeError,
     r"^agents\[0\] must be an agent \(an object with choose\(view, request\)\), not 'random'"),
    (lambda: game_seed(None, 0), ArgumentTypeError, r"^seed must be a whole number"),
    (lambda: game_seed(0, -1), ArgumentValueError, r"^index must be a whole number of at least 0, not -1"),
    (lambda: job_for(CLASSIC, (), 4, "random"), ArgumentTypeError, r"^agents must be a list of agent specs, not "
                                                                   r"'random'"),
    (lambda: job_for(CLASSIC, (), 4, ["random"] * 3), ArgumentValueError, r"^agents must be one agent spec or 4"),
    (lambda: job_for("classic2003", 5, 4, ["random"]), ArgumentTypeError, r"^overrides must be a list"),
    (lambda: play_batch([], 0, 0, 1), ArgumentValueError, r"^jobs must hold at least one Job"),
    (lambda: play_batch((JOB,), 0, 0, "1"), ArgumentTypeError, r"^count must be a whole number of at least 0"),
    (lambda: make_executor(0), ArgumentValueError, r"^workers must be a number of worker processes, 1 or more, not 0"),
    (lambda: make_executor(2.5), ArgumentTypeError, r"^workers must be a number of worker processes"),
    (lambda: make_executor(None, 8786), ArgumentTypeError, r"^scheduler must be a str, not 8786"),
    (lambda: _run(game_seed, (0, 0)), ArgumentTypeError, r"^tasks\[0\] must be a tuple of fn's arguments, not 0"),
    (lambda: list(ProcessExecutor(2).run(None, [])), ArgumentTypeError, r"^fn must be a callable, not None"),
    (lambda: batch_size(None), ArgumentTypeError, r"^games must be a whole number of at least 0, not None"),
    (lambda: clone_cost(CLASSIC, 3, None), ArgumentTypeError, r"^agent must be a str, not None"),
    (lambda: clone_cost(CLASSIC, 3, "random", repeat=0), ArgumentValueError, r"^repeat must be a whole number of "
                                                                             r"at least 1, not 0"),
    (lambda: Game(CLASSIC, 4, 1, listeners={"not": "a list"}), ArgumentTypeError, r"^listeners must be a list of "
                                                                                  r"callables"),
])
def test_a_wrong_argument_of_the_documented_functions_is_named(call, error, expected):
    with time_limit(20), pytest.raises(error, match=expected):
        call()


def test_a_process_executor_checks_its_tasks_before_starting_a_process():
    executor = ProcessExecutor(2)
    with pytest.raises(ArgumentTypeError):
        list(executor.run(game_seed, None))
    assert executor._pool is None
    executor.close()


def test_the_argument_errors_are_amunre_errors_and_python_s_own():
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentValueError, ValueError)
    for error in ALLOWED:
        assert issubclass(error, AmunreError) and issubclass(error, (TypeError, ValueError))
    assert agent_names()  # (no arguments to check)
