"""The OpenSpiel game `python_amunre` (`amunre.rl.openspiel`, the extra `amunre[openspiel]`).

OpenSpiel's own checks that apply to a Python game with imperfect information and chance, as
its tests of its Python games run them (open_spiel/python/games/*_test.py,
open_spiel/python/tests/games_sim_test.py):

- `pyspiel.random_sim_test` with serialization (the C++ API checks: legal actions sorted and
  empty for the others, unique action strings, clones, observation and information-state
  tensors of the declared sizes, returns within bounds and summing to the utility sum);
- the simulation of games_sim_test: clones, `serialize_game_and_state` and pickle round trips;
- the C++ `ResampleInfostateTest`, written here in Python (pyspiel does not expose it): a
  resampled state has the seat's information state and tensor, and the same player to move;
- OpenSpiel's ISMCTS bot plays a whole game through `evaluate_bots` (the example).

And amunre's own: the seed's chance nodes give the game of `amunre run --seed`, the returns
are the game's, the observation is the PettingZoo environment's vector, and no observation or
information state shows another seat's sealed answer before the reveal.
"""

from __future__ import annotations

import pickle
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the OpenSpiel game needs the optional extra: pip install 'amunre[openspiel]' "
                                      "(open_spiel, numpy)")
import numpy as np
import pyspiel

import amunre.rl.openspiel as amunre_openspiel
from amunre.core.engine import Game
from amunre.loader import load_variant
from amunre.loader.files import available_variants
from amunre.rl.actions import action_space
from amunre.rl.observation import ObservationLayout
from amunre.rl.rewards import final_rewards

REPO = Path(__file__).resolve().parent.parent


def load(variant: str = "classic2003", players: int = 4):
    return pyspiel.load_game(f"python_amunre(variant={variant},players={players})")


def random_states(game, seed: int):
    """Yield each state of one game played at random (chance and players), as it stands."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        yield state
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    yield state


# -- OpenSpiel's own checks -------------------------------------------------------------------
def test_openspiel_random_sim_test_with_serialization():
    pyspiel.random_sim_test(load("classic2003", 3), num_sims=1, serialize=True, verbose=False)


def test_games_sim_test_s_simulation_clones_and_serializes():
    """open_spiel/python/tests/games_sim_test.py's `sim_game`, for this game."""
    game = load("classic2003", 3)
    assert game.min_utility() < game.max_utility()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    next_check, actions = 1, 0
    for state in random_states(game, 0):
        actions += 1
        if actions >= next_check:
            new_game, new_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
            assert (str(new_game), str(new_state)) == (str(game), str(state))
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
            assert new_state.history() == state.history()
            next_check *= 2
        if not state.is_terminal() and not state.is_chance_node():
            clone = state.clone()
            assert (str(clone), clone.history()) == (str(state), state.history())
    assert state.is_terminal() and not state.legal_actions() and actions > 100
    assert all(not state.legal_actions(p) for p in range(3))
    assert state.returns() == [state.player_return(p) for p in range(3)]


def test_a_resampled_state_has_the_seat_s_information_state():
    """OpenSpiel's ResampleInfostateTest (C++), for the player to move, at every decision."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = differs = 0
    for state in random_states(load("expert2016", 4), 1):
        if state.is_chance_node():
            continue
        player = state.current_player() if not state.is_terminal() else 0
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.current_player() == state.current_player()
        assert sorted(other.legal_actions()) == state.legal_actions()
        checked += 1
        differs += str(other.clone()) != str(state)  # (a clone of a sample is a sample)
        if not state.is_terminal() and checked % 16 == 0:  # a sample plays on to its own end
            while not other.is_terminal():
                other.apply_action(other.legal_actions()[0])
            assert sum(other.returns()) == pytest.approx(1)
    assert checked > 100 and differs == checked
    with pytest.raises(Exception, match="cannot be serialized"):
        pickle.dumps(other)


def test_ismcts_plays_a_game_through_evaluate_bots_in_the_example(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["openspiel_ismcts.py", "--games", "1", "--simulations", "2", "--players", "3"])
    runpy.run_path(str(REPO / "examples" / "openspiel_ismcts.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "game 1: ISMCTS in seat 0, returns" in out and "won" in out


# -- amunre's own -------------------------------------------------------------------------------
def test_the_seed_s_chance_nodes_give_the_game_of_that_seed_and_the_returns_are_its_own():
    game = load("classic2003", 4)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == amunre_openspiel.FIRST_BYTE_OUTCOMES
    for byte in (12345).to_bytes(amunre_openspiel.SEED_BYTES, "big"):
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1)
        state.apply_action(byte)
    assert str(state) == str(game.new_initial_state_of_seed(12345))
    mirror = Game(load_variant("classic2003"), 4, 12345)
    space = action_space(mirror.variant)
    while not state.is_terminal():
        assert state.current_player() == mirror.pending.player
        assert state.legal_actions() == sorted(space.legal(mirror.pending))
        action = state.legal_actions()[-1]
        state.apply_action(action)
        mirror.answer(space.option(action)[1])
    assert mirror.finished and state.returns() == final_rewards(mirror.state, "win")
    assert sum(state.returns()) == pytest.approx(1)
    with pytest.raises(Exception, match="not legal|game is over"):
        state.apply_action(0)


def test_the_example_in_docs_research_md_runs(capsys):
    section = (REPO / "docs" / "research.md").read_text(encoding="utf-8").split("## OpenSpiel: the whole game", 1)[1]
    code = section.split("```python\n")[1].split("```")[0]
    assert "python_amunre" in code
    names: dict = {}
    exec(compile(code, "docs/research.md", "exec"), names)
    state, game = names["state"], names["game"]
    assert state.is_terminal() and state.play.seed == 7
    assert state.returns() == final_rewards(state.play.game.state, "win")
    assert capsys.readouterr().out.splitlines() == [
        str(state.returns()), f"{game.information_state_tensor_size()} {game.observation_tensor_size()}"]


def test_the_observation_is_the_pettingzoo_vector_and_the_information_state_adds_the_record():
    game = load("classic2003", 3)
    variant = load_variant("classic2003")
    layout = ObservationLayout(variant, 3, action_space(variant))
    assert game.observation_tensor_size() == layout.size
    assert game.information_state_tensor_size() == layout.size + 3 * game.num_distinct_actions()
    state = game.new_initial_state_of_seed(3)
    for _ in range(25):
        state.apply_action(state.legal_actions()[0])
    for seat in range(3):
        vector = layout.encode(state.play.game, seat)
        assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), vector)
        info = np.asarray(state.information_state_tensor(seat))
        known = state.record(seat)  # the public answers and its own sealed ones
        assert np.array_equal(info[:layout.size], vector) and info[layout.size:].sum() == len(known)
        assert 20 < len(known) <= 25
        assert state.observation_string(seat) in state.information_state_string(seat)


def test_no_seat_sees_another_s_sealed_answer_before_the_reveal():
    """In the secret offering, the others' observations and information states do not change
    with a seat's answer until the batch is revealed."""
    game = load("classic2003", 4)
    checked = 0
    for state in random_states(game, 5):
        if state.is_chance_node() or state.is_terminal():
            continue
        request = state.play.game.pending
        if not request.simultaneous or len(state.legal_actions()) < 2:
            continue
        seat = request.player
        twins = [state.clone(), state.clone()]
        for twin, action in zip(twins, state.legal_actions()[:2]):
            twin.apply_action(action)
        if not twins[0].play.game.pending or not twins[0].play.game.pending.simultaneous:
            continue  # the batch was revealed by this answer
        for other in range(4):
            if other != seat:
                assert twins[0].information_state_string(other) == twins[1].information_state_string(other)
                assert twins[0].information_state_tensor(other) == twins[1].information_state_tensor(other)
        assert twins[0].information_state_string(seat) != twins[1].information_state_string(seat)
        checked += 1
    assert checked > 0


def test_the_game_type_admits_every_shipped_variant_s_player_counts():
    for variant_id in available_variants():
        counts = load_variant(variant_id).players
        assert amunre_openspiel.FEWEST_PLAYERS <= min(counts) and max(counts) <= amunre_openspiel.MOST_PLAYERS


def test_bad_parameters_are_clear_errors():
    with pytest.raises(Exception, match="no-such-variant"):
        load("no-such-variant", 4)
    with pytest.raises(Exception, match="classic2003 is played by 3, 4, 5 players, not 7"):
        load("classic2003", 7)


MISSING_EXTRA = """
import sys
sys.modules["pyspiel"] = None  # as if the extra were not installed
try:
    import amunre.rl.openspiel
except ImportError as error:
    print(type(error).__name__, error)
"""


def test_without_the_extra_importing_the_game_names_it():
    run = subprocess.run([sys.executable, "-c", MISSING_EXTRA], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("MissingExtraError the OpenSpiel game needs the optional extra: "
                                 "pip install 'amunre[openspiel]'"), run.stdout
