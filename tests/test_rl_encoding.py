"""The observation encoder and the action mask, written straight from the state (issue 39),
give exactly what the first encoder gave (kept in tests/rl_reference.py): every section of
the vector and every mask entry, for every seat, along random games of every variant file
found (as the rule tests find them: editions, house rules, a designer's own), some in each of their player counts.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="the encoder needs the optional extra: pip install 'amunre[rl]'")
import numpy as np
from helpers import covered_variant_files, variant_at, variant_label
from rl_reference import reference_encode, reference_mask

from amunre.core.engine import Game
from amunre.rl.actions import action_space
from amunre.rl.observation import ObservationLayout
from amunre.rl.pettingzoo import action_mask

#: positions compared per variant file (each for every seat): thousands over all the files
POSITIONS = 240
#: every how many decisions a position is compared: so that the positions spread over whole games
EVERY = 5


def compare_along_games(variant, players: int, positions: int, seed: int) -> tuple[int, int]:
    """Play random games, comparing the two encoders for every seat every `EVERY` decisions
    and at each game's end; returns how many positions were compared."""
    space = action_space(variant)
    layout = ObservationLayout(variant, players, space)
    rng = random.Random(seed)
    compared = 0
    game_seed = seed
    while compared < positions:
        game = Game(variant, players, game_seed)
        game_seed += 1
        decision = 0
        while True:
            decision += 1
            if decision % EVERY and game.pending is not None:
                game.answer(rng.choice(game.pending.options))
                continue
            for seat in range(players):
                expected = reference_encode(layout, game, seat)
                got = layout.encode(game, seat)
                if not np.array_equal(got, expected):
                    wrong = [name for name, start, stop, _ in layout.sections
                             if not np.array_equal(got[start:stop], expected[start:stop])]
                    raise AssertionError(f"{variant.id}, {players} players, game {game.seed}, decision "
                                         f"{len(game.answers_so_far())}, seat {seat}: sections {wrong} differ")
                assert np.array_equal(action_mask(space, game, seat), reference_mask(space, game, seat))
            compared += 1
            if game.pending is None or compared >= positions:
                break
            game.answer(rng.choice(game.pending.options))
    return compared, game_seed - seed


@pytest.mark.parametrize("path", [pytest.param(path, id=variant_label(path)) for path in covered_variant_files()])
def test_the_fast_encoder_writes_what_the_first_one_wrote(path):
    variant = variant_at(path)
    counts = list(variant.players)
    each = POSITIONS // len(counts)
    for players in counts:
        compared, games = compare_along_games(variant, players, each, seed=11 * players)
        assert compared >= each and games >= 2, "the positions must spread over whole games, their ends included"
