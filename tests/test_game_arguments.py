"""`Game(variant, players, seed)` from Python with bad arguments: always the project's own
error naming the argument and what is expected, never an error from its inside (an
unhashable list, a float where a count is needed, a variant id where a Variant is expected
is simply loaded). The deep run (`AMUNRE_DEEP=1`) runs 10,000 argument triples."""

from __future__ import annotations

import conftest
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amunre.core.decisions import from_json_value, to_json_value
from amunre.core.engine import Game
from amunre.core.errors import AmunreError, ArgumentTypeError
from amunre.loader import load_variant

DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)
FUZZ = settings(max_examples=10_000 if DEEP else 25)
CLASSIC = load_variant("classic2003")

junk = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 2**70), st.floats(allow_nan=True), st.text(max_size=30),
    st.lists(st.integers(0, 6), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.binary(max_size=5), st.tuples(st.integers()),
)


@pytest.mark.parametrize("args, message", [
    ((CLASSIC, [4], 1), r"n_players must be a whole number, not \[4\] \(a list\) \(expected one of 3, 4, 5 for "
                        r"classic2003\)"),
    ((CLASSIC, 4.0, 1), r"n_players must be a whole number, not 4.0 \(a float\)"),
    ((CLASSIC, 4, 1.5), r"seed must be a whole number from 0 to \d+, not 1.5 \(a float\)"),
    ((None, 4, 1), r"variant must be a loaded Variant, not None \(a NoneType\)"),
    (("no-such-variant", 4, 1), r"variant must be a loaded Variant, not 'no-such-variant'"),
])
def test_a_bad_argument_is_named_with_what_is_expected(args, message):
    with pytest.raises(AmunreError, match=message):
        Game(*args)


def test_a_variant_id_is_refused_naming_what_loads_it():
    """The core reads no file: a variant's id or path is loaded first (`amunre.load_variant`)."""
    with pytest.raises(ArgumentTypeError, match=r"variant must be a loaded Variant, not 'classic2003' .*"
                                                r"expected amunre.load_variant\('classic2003'\) first"):
        Game("classic2003", 4, 1)


@FUZZ
@given(variant=st.one_of(st.just(CLASSIC), st.just("classic2003"), junk), players=st.one_of(st.sampled_from([3, 4, 5]),
       junk), seed=st.one_of(st.integers(0, 2**63 - 1), junk))
def test_any_arguments_give_a_game_or_a_clear_error(variant, players, seed):
    try:
        game = Game(variant, players, seed)
    except AmunreError as error:
        assert len(str(error)) < 600 and "\n" not in str(error)
    else:
        assert game.pending is not None and game.n_players in CLASSIC.players


@pytest.mark.parametrize("call, message", [
    (lambda g: Game(CLASSIC, 4, 1, listeners=5), r"listeners must be a list of callables, not 5 \(an int\)"),
    (lambda g: Game(CLASSIC, 4, 1, listeners=[5]), r"listener must be a callable"),
    (lambda g: Game.from_state(CLASSIC, None), r"state must be a GameState"),
    (lambda g: g.view(7), r"player must be a seat number from 0 to 3 \(a game of 4\), not 7 \(an int\)"),
    (lambda g: g.view("0"), r"player must be a seat number from 0 to 3 \(a game of 4\), not '0' \(a str\)"),
    (lambda g: g.view(-1), r"player must be a seat number from 0 to 3 \(a game of 4\), not -1"),
])
def test_a_bad_call_on_a_game_is_named(call, message):
    game = Game(CLASSIC, 4, 1)
    game.view(3)  # a view already made: -1 must not find it
    with pytest.raises(AmunreError, match=message):
        call(game)


def test_an_answer_nested_too_deep_is_an_illegal_answer():
    from amunre.core.errors import IllegalAnswerError

    game = Game(CLASSIC, 4, 1)
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(IllegalAnswerError, match="nested too deep|illegal answer"):
        game.answer(deep)
    # a million deep, as a list (JSON's form) and as a tuple (the engine's): refused, not walked (on the
    # compiled build an unbounded walk would overflow the C stack: docs/performance.md)
    deep_list: list = []
    deep_tuple: tuple = ()
    for _ in range(1_000_000):
        deep_list, deep_tuple = [deep_list], (deep_tuple,)
    for answer in (deep_list, deep_tuple):
        with pytest.raises(IllegalAnswerError, match="nested too deep"):
            game.answer(answer)
    with pytest.raises(RecursionError):
        to_json_value(deep_tuple)
    with pytest.raises(RecursionError):
        from_json_value(deep_list)
    assert game.answers_so_far() == []  # nothing was applied
    huge = list(range(100_000))
    with pytest.raises(IllegalAnswerError) as info:
        game.answer(huge)
    assert len(str(info.value)) < 1000
