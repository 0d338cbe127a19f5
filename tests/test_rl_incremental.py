"""The environments keep each seat's observation vector and rewrite only what changed since that
seat's last observation (`amunre.rl.observation_writer`, issue 39): the kept vector equals a
fresh one (`ObservationLayout.encode`, itself held to the first encoder by test_rl_encoding.py)
for every seat at every decision of whole games of every variant file, with the history too, on
a clone and a determinized game observed through the same writer, and through the environments.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="the writer needs the optional extra: pip install 'amunre[rl]'")
import numpy as np
from helpers import covered_variant_files, variant_at, variant_label

from amunre.core.engine import Game
from amunre.loader import load_variant
from amunre.rl.actions import action_space
from amunre.rl.history import RoundHistory
from amunre.rl.observation import ObservationLayout
from amunre.rl.observation_writer import ObservationWriter


def differing_sections(layout, got, expected) -> list[str]:
    return [name for name, start, stop, _ in layout.sections
            if not np.array_equal(got[start:stop], expected[start:stop])]


def check_every_seat(layout, writer, game, history=None, where: str = "") -> None:
    """Every seat's kept vector, brought up to date now, equals a fresh one."""
    for seat in range(game.n_players):
        kept = writer.observe(game, seat, history)
        fresh = layout.encode(game, seat, history)
        if not np.array_equal(kept, fresh):
            raise AssertionError(f"{where}decision {len(game.answers_so_far())}, seat {seat}: the kept vector's "
                                 f"sections {differing_sections(layout, kept, fresh)} differ from a fresh one's")


@pytest.mark.parametrize("path", [pytest.param(path, id=variant_label(path)) for path in covered_variant_files()])
def test_the_kept_vectors_equal_fresh_ones_at_every_decision_of_whole_games(path):
    variant = variant_at(path)
    space = action_space(variant)
    for players in sorted({min(variant.players), max(variant.players)}):
        layout = ObservationLayout(variant, players, space)
        writer = ObservationWriter(layout)  # one writer for both games: a new game is only another state
        rng = random.Random(players)
        for seed in (3, 4):
            game = Game(variant, players, seed)
            decisions = 0
            while game.pending is not None:
                check_every_seat(layout, writer, game, where=f"{variant.id}, {players} players, game {seed}, ")
                game.answer(rng.choice(game.pending.options))
                decisions += 1
            check_every_seat(layout, writer, game, where=f"{variant.id}, {players} players, game {seed} over, ")
            assert decisions > 50, "whole games, from the first decision to the end"


def test_the_kept_vectors_with_the_history_equal_fresh_ones():
    variant = variant_at(covered_variant_files()[0])
    players = min(variant.players)
    layout = ObservationLayout(variant, players, action_space(variant), history=True)
    writer = ObservationWriter(layout)
    history = RoundHistory(players, len(variant.board))
    game = Game(variant, players, 5, [history])
    rng = random.Random(5)
    while game.pending is not None:
        check_every_seat(layout, writer, game, history)
        game.answer(rng.choice(game.pending.options))
    check_every_seat(layout, writer, game, history)
    assert history.rounds > 1 and layout.encode(game, 0, history)[layout.slices["history.bids"]].any(), \
        "the history must have shown rounds for the test to mean something"


def test_a_clone_and_a_determinized_game_observed_through_the_same_writer():
    """What the writer keeps is compared with the state each time, whichever game it is: a clone
    going another way, a determinized game whose hidden facts differ, then the first game again."""
    variant = variant_at(covered_variant_files()[0])
    players = max(variant.players)
    layout = ObservationLayout(variant, players, action_space(variant))
    writer = ObservationWriter(layout)
    game = Game(variant, players, 9)
    rng = random.Random(9)
    branched = 0
    while game.pending is not None:
        if len(game.answers) % 17 == 5:
            twin = game.clone()
            for _ in range(6):
                if twin.pending is None:
                    break
                check_every_seat(layout, writer, twin, where="the clone, ")
                twin.answer(rng.choice(twin.pending.options))
            seat = game.pending.player
            check_every_seat(layout, writer, game.determinize(seat, random.Random(len(game.answers))),
                             where="the determinized game, ")
            branched += 1
        check_every_seat(layout, writer, game)
        game.answer(rng.choice(game.pending.options))
    assert branched > 5


def test_the_environments_observations_equal_fresh_ones_and_stay_the_callers():
    """PettingZoo's `last()` and Gymnasium's observation are fresh encodings, and one kept by a
    learner is not written into by the steps that follow."""
    from amunre.rl.gymnasium import AmunreEnv as GymEnv
    from amunre.rl.pettingzoo import env

    environment = env("classic2003", 3)
    environment.reset(seed=2)
    layout, kept = environment.unwrapped.layout, []
    rng = random.Random(2)
    for agent in environment.agent_iter():
        observation, _reward, terminated, truncated, _info = environment.last()
        game = environment.unwrapped.game
        seat = environment.unwrapped.agent_name_mapping[agent]
        assert np.array_equal(observation["observation"], layout.encode(game, seat))
        if terminated or truncated:
            environment.step(None)
            continue
        kept.append((observation["observation"], observation["observation"].copy()))
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert all(np.array_equal(vector, copy) for vector, copy in kept) and len(kept) > 50

    single = GymEnv("classic2003", opponents="random,random")
    observation, info = single.reset(seed=4)
    first_vector = observation["observation"]
    first = first_vector.copy()
    over, steps = False, 0
    while not over:
        assert np.array_equal(observation["observation"], single.layout.encode(single.game, single.seat))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, _reward, over, _truncated, info = single.step(action)
        steps += 1
    assert np.array_equal(first_vector, first) and steps > 20


def test_openspiel_s_observation_tensors_through_its_kept_vectors_equal_fresh_ones():
    """OpenSpiel's observer keeps each seat's vector across the states it is asked about (clones
    and branches among them): each tensor still equals a fresh encoding of that state."""
    pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel game needs the optional extra")
    import amunre.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_amunre(variant=classic2003,players=3)")
    variant = load_variant("classic2003")
    layout = ObservationLayout(variant, 3, action_space(variant))
    rng = np.random.RandomState(7)
    state, compared = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        branch = state.clone()
        branch.apply_action(int(rng.choice(branch.legal_actions())))
        for observed in (branch, state):
            if observed.play.game is not None:
                for seat in range(3):
                    assert np.array_equal(np.asarray(observed.observation_tensor(seat), np.float32),
                                          layout.encode(observed.play.game, seat))
                    compared += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert compared > 300


def test_a_bad_seat_or_array_is_a_clear_error():
    from amunre.core.errors import ArgumentTypeError, ArgumentValueError

    variant = load_variant("classic2003")
    layout = ObservationLayout(variant, 3, action_space(variant))
    game = Game(variant, 3, 1)
    for bad, error in ((3, ArgumentValueError), (-1, ArgumentValueError), (1.0, ArgumentTypeError),
                       (True, ArgumentTypeError)):
        with pytest.raises(error, match="seat must be a seat number from 0 to 2"):
            layout.encode(game, bad)
        with pytest.raises(error, match="seat must be a seat number from 0 to 2"):
            ObservationWriter(layout).observe(game, bad)
    strided = np.zeros((layout.size, 2), np.float32)[:, 0]  # the right shape, not contiguous
    for out in (np.zeros(layout.size), np.zeros(layout.size + 1, np.float32), strided):
        with pytest.raises(ArgumentTypeError, match="C-contiguous float32 numpy array"):
            layout.encode_into(out, game, 0)
    assert np.array_equal(ObservationWriter(layout).observe(game, np.int64(2)), layout.encode(game, 2))
