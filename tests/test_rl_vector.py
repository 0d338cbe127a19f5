"""The vector environment (`amunre.rl.vector`): N games stepped together as numpy batches.

- reset and step give batches of the shapes and types of its spaces;
- each row's mask is exactly its game's legal actions, and `sample_legal` draws only those;
- row i plays the very game of a PettingZoo environment reset with seed s + i (observations,
  masks, rewards, and the next game after the end);
- an illegal action or a malformed batch is a clear error, and no game moves.
"""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the vector environment needs the optional extra: pip install 'amunre[rl]'")
import numpy as np
from gymnasium.vector import VectorEnv

from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.rl.pettingzoo import action_mask, raw_env
from amunre.rl.vector import AmunreVectorEnv, sample_legal


def test_batches_have_the_shapes_of_the_spaces():
    envs = AmunreVectorEnv(3, variant="classic2003", players=4)
    assert isinstance(envs, VectorEnv) and envs.num_envs == 3
    observations, infos = envs.reset(seed=1)
    size, count = envs.layout.size, len(envs.actions)
    assert observations["observation"].shape == (3, size) and observations["observation"].dtype == np.float32
    assert observations["action_mask"].shape == (3, count) and observations["action_mask"].dtype == np.int8
    assert envs.observation_space.contains(observations)
    assert infos["seat"].shape == (3,)
    rng = np.random.default_rng(1)
    observations, rewards, terminated, truncated, infos = envs.step(sample_legal(observations["action_mask"], rng))
    assert envs.observation_space.contains(observations)
    assert rewards.shape == terminated.shape == truncated.shape == (3,)
    assert infos["rewards"].shape == (3, 4)


def test_each_mask_is_its_game_s_legal_actions_and_only_those_are_drawn():
    envs = AmunreVectorEnv(4, variant="expert2016", players=3)
    observations, infos = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        masks = observations["action_mask"]
        for i, game in enumerate(envs.games):
            seat = game.pending.player
            assert infos["seat"][i] == seat
            assert np.array_equal(masks[i], action_mask(envs.actions, game, seat))
            assert np.array_equal(observations["observation"][i], envs.layout.encode(game, seat))
        actions = sample_legal(masks, rng)
        assert all(masks[i, a] == 1 for i, a in enumerate(actions))
        observations, _rewards, _terminated, _truncated, infos = envs.step(actions)


def test_sample_legal_draws_every_legal_action_and_refuses_an_empty_row():
    masks = np.zeros((2, 6), dtype=np.int8)
    masks[0, [1, 4, 5]] = 1
    masks[1, 2] = 1
    rng = np.random.default_rng(0)
    drawn = {tuple(sample_legal(masks, rng)) for _ in range(200)}
    assert {a for a, _ in drawn} == {1, 4, 5} and {b for _, b in drawn} == {2}
    masks[1, 2] = 0
    with pytest.raises(AmunreError, match="row 1 of the masks has no legal action"):
        sample_legal(masks, rng)


@pytest.mark.parametrize("reward", ["win", "score"])
def test_row_i_plays_the_game_of_a_single_environment_seeded_s_plus_i(reward):
    n, seed = 3, 40
    envs = AmunreVectorEnv(n, variant="classic2003", players=4, reward=reward)
    singles = [raw_env("classic2003", 4, reward=reward) for _ in range(n)]
    observations, infos = envs.reset(seed=seed)
    for i, single in enumerate(singles):
        single.reset(seed=seed + i)
    rng = np.random.default_rng(seed)
    ended = [0] * n
    while min(ended) < 2:  # every row through the end of its game and the whole next one
        for i, single in enumerate(singles):
            agent = single.agent_selection
            seen = single.observe(agent)
            assert infos["seat"][i] == single.agent_name_mapping[agent]
            assert np.array_equal(observations["observation"][i], seen["observation"])
            assert np.array_equal(observations["action_mask"][i], seen["action_mask"])
        actions = sample_legal(observations["action_mask"], rng)
        observations, rewards, terminated, _truncated, infos = envs.step(actions)
        for i, single in enumerate(singles):
            seat = single.game.pending.player
            single.step(int(actions[i]))
            if terminated[i]:
                assert single.game.finished
                finals = single.final_rewards()
                assert rewards[i] == finals[f"player_{seat}"]
                assert list(infos["rewards"][i]) == [finals[name] for name in single.possible_agents]
                ended[i] += 1
                single.reset()  # the next game: of the seed this one's seed draws next
            else:
                assert not single.game.finished and rewards[i] == 0 and not infos["rewards"][i].any()


def test_an_illegal_action_is_refused_and_no_game_moves():
    envs = AmunreVectorEnv(2, variant="classic2003", players=4)
    observations, _infos = envs.reset(seed=3)
    answers = [list(game.answers_so_far()) for game in envs.games]
    actions = sample_legal(observations["action_mask"], np.random.default_rng(3))
    illegal = int(np.flatnonzero(observations["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAnswerError, match=rf"actions\[1\]: action {illegal} .* is not legal in game 1"):
        envs.step([actions[0], illegal])
    with pytest.raises(AmunreError, match=r"actions\[0\]: no action 99999"):
        envs.step([99999, actions[1]])
    assert [list(game.answers_so_far()) for game in envs.games] == answers


@pytest.mark.parametrize("call, message", [
    (lambda: AmunreVectorEnv(0), "num_envs must be a whole number from 1"),
    (lambda: AmunreVectorEnv(2, players=9), "9"),
    (lambda: AmunreVectorEnv(2, reward="points"), "reward"),
    (lambda: AmunreVectorEnv(2, copy="yes"), "copy must be True or False"),
    (lambda: AmunreVectorEnv(2).step([0, 0]), "call reset"),
    (lambda: _reset(AmunreVectorEnv(2)).step([0]), "actions must be 2 whole numbers"),
    (lambda: _reset(AmunreVectorEnv(2)).step("0 1"), "actions must be 2 whole numbers"),
    (lambda: AmunreVectorEnv(2).reset(seed=-1), "seed"),
])
def test_bad_arguments_are_clear_errors(call, message):
    with pytest.raises(AmunreError, match=message):
        call()


def _reset(envs):
    envs.reset(seed=0)
    return envs


def test_without_copies_the_batches_are_the_environment_s_own_arrays():
    envs = AmunreVectorEnv(2, copy=False)
    observations, _infos = envs.reset(seed=5)
    first = observations["observation"]
    observations, *_ = envs.step(sample_legal(observations["action_mask"], np.random.default_rng(5)))
    assert observations["observation"] is first


def test_the_docs_example_runs_and_names_the_benchmark():
    from pathlib import Path

    docs = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text(encoding="utf-8")
    part = docs.split("## Many games at once: the vector environment", 1)[1]
    code = part.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "docs/research.md", "exec"), namespace)  # (the project's own doc)
    envs = namespace["envs"]
    assert namespace["observations"]["observation"].shape == (8, envs.layout.size)
    assert "benchmarks/rl_speed.py" in docs and "AmunreVectorEnv(num_envs=8" in docs
