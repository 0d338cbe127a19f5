"""A numpy integer equal to an int option is that option (issue 39: a policy's `argmax`
answered without `int()`): the game keeps the plain int, so its log stays JSON; any other
value of another type than the option's (numpy's bool or float, an integer for a bool
option) stays refused, naming the options."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("numpy", reason="numpy comes with the optional extra: pip install 'amunre[rl]'")
import numpy as np
from helpers import classic

from amunre.core.decisions import integer_option
from amunre.core.engine import Game
from amunre.core.errors import IllegalAnswerError


def game_asking(kind_test) -> Game:
    """A random classic2003 game run on until its pending request passes `kind_test`."""
    game = Game(classic(), 4, 11)
    rng = random.Random(11)
    while not kind_test(game.pending):
        game.answer(rng.choice(game.pending.options))
    return game


def int_options(request) -> bool:
    return all(type(option) is int for option in request.options) and len(request.options) > 1


def test_a_numpy_integer_equal_to_an_int_option_is_that_option():
    game = game_asking(int_options)
    request = game.pending
    option = request.options[-1]
    game.answer(np.int64(option))
    assert game.pending is not request
    kept = game.answers_so_far()[-1]
    assert type(kept) is int and kept == option
    json.dumps(game.answers_so_far())  # (a numpy int64 would not serialize)


@pytest.mark.parametrize("wrong", [np.float64, np.bool_])
def test_numpy_values_of_other_types_stay_refused(wrong):
    game = game_asking(int_options)
    request = game.pending
    with pytest.raises(IllegalAnswerError, match="expected one of"):
        game.answer(wrong(request.options[-1]))
    assert game.pending is request


def test_an_integer_is_not_a_bool_option_nor_an_option_it_does_not_equal():
    assert integer_option(np.int64(1), [True, False]) is None
    assert integer_option(np.int64(3), [0, 1, 2]) is None
    assert integer_option(np.uint8(2), [0, 1, 2]) == 2
    assert integer_option(2, [0, 1, 2]) is None  # (an int is looked up as itself, not here)
