"""Whatever a caller passes to the PettingZoo environment (`amunre.rl.pettingzoo`), a bad
argument is one `AmunreError` naming the argument and what was expected, as the rest of the
module raises: never an error from inside (`TypeError: 'NoneType' object is not iterable`,
a `RecursionError`), never a hang, never a message that echoes a huge value whole.

The regression tests pin arguments that once got an error from inside: `overrides=None` or
`[1]`, and `string_to_action` of brackets nested 5,000 deep. The hypothesis tests throw hostile
`overrides` (any type, endless iterators), constructor arguments and action texts at it;
the `ci` profile runs a few dozen examples, the deep run (`AMUNRE_DEEP=1`) 10,000 of each.
"""

from __future__ import annotations

import itertools

import conftest
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the optional extra: "
                                         "pip install 'amunre[rl]' (pettingzoo, numpy)")
import numpy as np
from helpers import time_limit
from hypothesis import event, given, settings
from hypothesis import strategies as st

from amunre.core.errors import AmunreError
from amunre.loader import load_variant
from amunre.rl.pettingzoo import MAX_OVERRIDES, REWARDS, env

DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)
FUZZ = settings(max_examples=10_000 if DEEP else 25, deadline=None)

#: Longest message an argument's error may give (the values it names are cut).
MAX_MESSAGE = 400

CLASSIC = env()
SPACE = CLASSIC.unwrapped.actions


def refused(call) -> str:
    """The message of the AmunreError `call()` raises (checked short), within 20 seconds."""
    with time_limit(20), pytest.raises(AmunreError) as info:
        call()
    message = str(info.value)
    assert message and len(message) < MAX_MESSAGE, message[:2000]
    return message


# -- the review's findings ---------------------------------------------------------------

@pytest.mark.parametrize("overrides, expected", [
    (None, "overrides must be a list of KEY=VALUE texts, not None (a NoneType) (expected a list of KEY=VALUE "
           "texts such as ['components.starting_gold=25'], or () for none)"),
    ([1], "overrides[0] must be a KEY=VALUE text, not 1 (an int) (expected a list of KEY=VALUE texts"),
    (["components.starting_gold=25", b"x=1"], "overrides[1] must be a KEY=VALUE text, not b'x=1' (a bytes)"),
    (5, "overrides must be a list of KEY=VALUE texts, not 5 (an int)"),
    ({"components.starting_gold": 25}, "overrides must be a list of KEY=VALUE texts, not a mapping"),
    ("components.starting_gold=25", "overrides must be a list of KEY=VALUE texts, not the text "
                                    "'components.starting_gold=25' (expected e.g. "
                                    "overrides=['components.starting_gold=25'])"),
    (itertools.repeat("components.starting_gold=25"), f"overrides: more than {MAX_OVERRIDES} texts"),
])
def test_bad_overrides_are_an_error_naming_the_argument(overrides, expected):
    assert refused(lambda: env(overrides=overrides)).startswith(expected)


def test_good_overrides_of_any_iterable_apply():
    for overrides in (["components.starting_gold=25"], ("components.starting_gold=25",),
                      (text for text in ["components.starting_gold=25"]), ()):
        assert env(overrides=overrides).unwrapped.variant.components.starting_gold == (25 if overrides != () else 20)


@pytest.mark.parametrize("kwargs, expected", [
    ({"players": 4.0}, "players must be a whole number, not 4.0 (a float) (expected one of 3, 4, 5 for classic2003)"),
    ({"players": True}, "players must be a whole number, not True (a bool)"),
    ({"players": [4]}, "players must be a whole number, not [4] (a list)"),
    ({"players": "4"}, "players must be a whole number, not '4' (a str)"),
    ({"players": 2**80}, f"classic2003 is played by 3, 4, 5 players, not {2**80}"),
    ({"variant": 123}, "variant must be a variant id, a variant file's path or a loaded Variant, not 123 (an int)"),
    ({"reward": "x"}, "reward must be one of win, score, not 'x' (a str)"),
    ({"reward": np.array(["win"])}, "reward must be one of win, score, not array(['win']"),
    ({"render_mode": "x"}, "render_mode must be one of human, ansi or None, not 'x' (a str)"),
    ({"render_mode": ["ansi"]}, "render_mode must be one of human, ansi or None, not ['ansi'] (a list)"),
])
def test_bad_constructor_arguments_name_the_argument_and_what_is_expected(kwargs, expected):
    assert refused(lambda: env(**kwargs)).startswith(expected)


@pytest.mark.parametrize("text, expected", [
    ("bid: " + "[" * 5000 + "]" * 5000, "no action of classic2003 reads 'bid: [[[[["),
    ("bid: " + "[" * 500 + "]" * 500, "no action of classic2003 reads 'bid: [[[[["),  # deep for the option's key
    ("offer: " + "x" * 1_000_000, "no action of classic2003 reads 'offer: xxxx"),
    (5, "an action's text must be a str, not 5 (an int)"),
    (None, "an action's text must be a str, not None (a NoneType)"),
    (b"bid: [3, 6, []]", "an action's text must be a str, not b'bid: [3, 6, []]' (a bytes)"),
])
def test_string_to_action_of_any_text_is_an_action_or_a_clear_error(text, expected):
    assert refused(lambda: CLASSIC.unwrapped.string_to_action(text)).startswith(expected)


def test_string_to_action_still_reads_words_and_json():
    for action in (0, 7, len(SPACE) - 1):
        assert CLASSIC.unwrapped.string_to_action(CLASSIC.unwrapped.action_to_string(action)) == action
    assert CLASSIC.unwrapped.string_to_action("architect: null") == SPACE.id_of("architect", None)


# -- fuzz ----------------------------------------------------------------------------------

ODD = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30), st.binary(max_size=10),
    st.sampled_from([np.int64(4), np.float64(4.0), np.array([4]), np.array(["win"]), object(), type, 2**200,
                     "x" * 100_000, "\x00", "\x1b[2J", "../../etc/passwd", "classic2003", "win", "ansi", 4, 3]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)

SET_TEXTS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["components.starting_gold=25", "components.starting_gold=-1",
                     "components.starting_gold=" + "9" * 5000,
                     "edition.name=" + "n" * 10_000, "=", "x", "phases.auction.params.protection_skip=3",
                     "edition.board=/etc/passwd", "extends=classic2003", "a.b.c.d.e.f=1", "components=[]"]),
    st.builds(lambda key, value: f"{key}={value}",
              st.sampled_from(["components.starting_gold", "edition.rounds_per_kingdom", "edition.players",
                               "rulings.x", "terms.gold", "edition.kingdoms"]),
              st.sampled_from(["1", "0", "-5", "[1, 2]", '"x"', "true", "1e400", "nan", "{", "[" * 100, "30"])),
)

HOSTILE_OVERRIDES = st.one_of(
    ODD,
    st.lists(st.one_of(SET_TEXTS, ODD), max_size=4),
    st.lists(SET_TEXTS, max_size=4).map(tuple),
    st.lists(SET_TEXTS, max_size=4).map(iter),
    st.lists(SET_TEXTS, max_size=4).map(lambda texts: dict.fromkeys(texts, 1)),
    st.sampled_from(["endless", "many"]),
)


@FUZZ
@given(HOSTILE_OVERRIDES)
def test_any_overrides_build_an_environment_or_raise_a_clear_error(overrides):
    if overrides == "endless":
        overrides = itertools.cycle(["components.starting_gold=25"])
    elif overrides == "many":
        overrides = [f"components.starting_gold={n % 30}" for n in range(MAX_OVERRIDES + 1)]
    with time_limit(20):
        try:
            built = env(overrides=overrides)
        except AmunreError as exc:  # one line, or a VariantError's problems one a line
            assert str(exc) and all(len(line) < 2_000 for line in str(exc).splitlines()), str(exc)[:3000]
            event(f"refused: {type(exc).__name__}")
            return
    event("built")
    assert built.unwrapped.variant.id == "classic2003"


GOOD = {"variant": st.sampled_from(["classic2003", "expert2016", "long-kingdoms"]), "players": st.integers(3, 5),
        "reward": st.sampled_from(REWARDS), "render_mode": st.sampled_from([None, "human", "ansi"])}
BAD = {"variant": ODD, "players": st.one_of(st.integers(-10, 12), ODD), "reward": ODD, "render_mode": ODD}


@FUZZ
@given(st.data())
def test_any_constructor_arguments_build_exactly_when_each_is_valid(data):
    """Good arguments, one of them (or none) drawn from anything."""
    bad = data.draw(st.sampled_from([None, *GOOD]))
    kwargs = {name: data.draw(BAD[name] if name == bad else GOOD[name]) for name in GOOD}
    variant, players = kwargs["variant"], kwargs["players"]
    valid_variant = isinstance(variant, str) and variant in ("classic2003", "expert2016", "long-kingdoms")
    valid = (valid_variant and type(players) in (int, np.int64) and players in load_variant(variant).players
             and isinstance(kwargs["reward"], str) and kwargs["reward"] in REWARDS
             and (kwargs["render_mode"] is None or kwargs["render_mode"] in ("human", "ansi")))
    with time_limit(20):
        try:
            env(**kwargs)
        except AmunreError as exc:
            assert not valid, exc
            assert len(str(exc)) < MAX_MESSAGE or "unknown variant" in str(exc), str(exc)[:2000]
            event(f"refused: bad {bad}")
            return
    assert valid, kwargs
    event("built")


#: Texts that read like actions and are not quite, or are something else altogether.
ACTION_TEXTS = st.one_of(
    st.text(max_size=60),
    st.builds(lambda kind, rest: f"{kind}:{rest}", st.sampled_from(list(SPACE.kinds) + ["x", ""]),
              st.one_of(st.text(max_size=40), st.sampled_from(["null", "[3, 6, []]", "true", "1e999", "NaN", "{}",
                                                               '"' + "a" * 100_000 + '"', "9" * 5000]))),
    st.builds(lambda kind, depth, closed: f"{kind}: " + "[" * depth + ("]" * depth if closed else ""),
              st.sampled_from(list(SPACE.kinds)), st.integers(0, 100_000), st.booleans()),
    st.builds(lambda action, edit: edit(CLASSIC.unwrapped.action_to_string(action)),
              st.integers(0, len(SPACE) - 1),
              st.sampled_from([str.upper, lambda t: "  " + t + "\t", lambda t: t.replace(" ", "\u00a0"),
                               lambda t: t + "x", lambda t: t[:-1], lambda t: t * 1000])),
    ODD,
)


#: Longest message of an unknown action text: the text cut short, and up to three actions
#: it is close to, whole (the longest action text of the shipped variants has 117 characters).
MAX_ACTION_MESSAGE = MAX_MESSAGE + 3 * 130


@FUZZ
@given(ACTION_TEXTS)
def test_any_text_is_an_action_or_a_clear_error(text):
    with time_limit(20):
        try:
            action = CLASSIC.unwrapped.string_to_action(text)
        except AmunreError as exc:
            assert len(str(exc)) < MAX_ACTION_MESSAGE and "\n" not in str(exc), str(exc)[:2000]
            event("refused")
            return
    assert 0 <= action < len(SPACE)
    assert CLASSIC.unwrapped.string_to_action(CLASSIC.unwrapped.action_to_string(action)) == action
    event("read")
