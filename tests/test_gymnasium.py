"""The Gymnasium environment (`amunre.rl.gymnasium`, the extra `amunre[rl]`).

- `gymnasium.make("amunre/AmunRe-v0", ...)` works after importing the module, and Gymnasium's
  own `check_env` passes on it;
- `reset(seed=s)` plays the game of seed s with the opponents seeded as `amunre run` seeds
  them: a learning seat answering as an agent would gives that agent's very game; a seeded
  sequence of resets repeats;
- the mask (in the observation, `info` and `action_masks()`) is the learning seat's legal
  actions; an action outside it ends the episode with the illegal reward (or raises);
- the reward comes at the end, as the game's rewards say; bad arguments are clear errors;
- without the extra, making the environment names it.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium", reason="the Gymnasium environment needs the optional extra: "
                                        "pip install 'amunre[rl]' (gymnasium, pettingzoo, numpy)")
import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import amunre.rl.gymnasium
from amunre.agents import make_agent
from amunre.core.engine import play_game
from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.loader import load_variant
from amunre.rl.gymnasium import ENV_ID, AmunreEnv
from amunre.rl.rewards import final_rewards

REPO = Path(__file__).resolve().parent.parent


def play_out(env, seed: int, choose) -> tuple[list, float, int]:
    """Reset with `seed` and step with `choose(env, observation, info)` to the end; returns the
    observations, the final reward and the number of steps."""
    observation, info = env.reset(seed=seed)
    seen = [observation]
    steps = 0
    while True:
        observation, reward, terminated, truncated, info = env.step(choose(env, observation, info))
        seen.append(observation)
        steps += 1
        assert not truncated
        if terminated:
            return seen, reward, steps
        assert reward == 0


def first_legal(env, observation, info) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def test_made_by_its_registered_id_and_gymnasium_s_checker_passes():
    assert amunre.rl.gymnasium.ENV_ID in gymnasium.registry
    env = gymnasium.make(ENV_ID, variant="classic2003", opponents="greedy,random")
    assert isinstance(env.unwrapped, AmunreEnv) and env.unwrapped.n_players == 3
    check_env(env.unwrapped, skip_render_check=True)
    check_env(AmunreEnv(variant="expert2016", opponents=["random"] * 3, seat=2), skip_render_check=True)


def test_reset_with_a_seed_plays_the_game_of_amunre_run_with_that_seed():
    """The learning seat answering as `greedy` would gives the game `amunre run --agents` plays."""
    variant = load_variant("classic2003")
    lineup = ["planner", "greedy", "random", "greedy"]
    env = AmunreEnv(variant, opponents=lineup[:1] + lineup[2:], seat=1, reward="score")
    learner = make_agent("greedy", 5, 1)

    def as_greedy(env, observation, info):
        game = env.game
        option = learner.choose(game.view(1), game.pending)
        return env.actions.id_of(game.pending.kind, option)

    _, reward, steps = play_out(env, 5, as_greedy)
    expected = play_game(variant, [make_agent(spec, 5, p) for p, spec in enumerate(lineup)], 5)
    assert [p.score for p in env.game.state.players] == [p.score for p in expected.state.players]
    assert env.game.answers == expected.answers and steps > 20
    assert reward == pytest.approx(final_rewards(expected.state, "score")[1])


def test_seeded_resets_repeat_and_unseeded_ones_follow_from_the_seed():
    runs = []
    for _ in range(2):
        env = gymnasium.make(ENV_ID, opponents="random,random,random")
        first = play_out(env, 9, first_legal)
        env.reset()
        runs.append((first, env.unwrapped.game.seed))
    (seen_a, reward_a, steps_a), seed_a = runs[0]
    (seen_b, reward_b, steps_b), seed_b = runs[1]
    assert (reward_a, steps_a, seed_a) == (reward_b, steps_b, seed_b) and seed_a != 9
    assert all(np.array_equal(a["observation"], b["observation"]) for a, b in zip(seen_a, seen_b))
    other = gymnasium.make(ENV_ID, opponents="random,random,random")
    assert not np.array_equal(other.reset(seed=10)[0]["observation"], seen_a[0]["observation"])


def test_the_mask_is_the_learning_seat_s_legal_actions_and_the_reward_comes_at_the_end():
    env = AmunreEnv(opponents="random,greedy,random", seat=3)
    rng = random.Random(2)
    observation, info = env.reset(seed=4)
    kinds = set()
    while True:
        request = env.game.pending
        assert request.player == 3
        kinds.add(request.kind)
        expected = {env.actions.id_of(request.kind, o) for o in request.options} - {None}
        for mask in (observation["action_mask"], info["action_mask"], env.action_masks()):
            assert set(np.flatnonzero(mask)) == expected
        assert env.observation_space.contains(observation)
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(sorted(expected))))
        if terminated:
            break
        assert reward == 0
    assert env.game.finished and not info["action_mask"].any() and {"bid", "offer"} <= kinds
    assert reward == final_rewards(env.game.state, "win")[3]


def test_an_illegal_action_ends_the_episode_or_raises():
    env = AmunreEnv(opponents="random,random")
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not env.game.finished and not info["action_mask"].any()
    with pytest.raises(IllegalAnswerError, match="call reset"):
        env.step(illegal)
    strict = AmunreEnv(opponents="random,random", illegal_reward=None)
    strict.reset(seed=1)
    answers = list(strict.game.answers_so_far())
    with pytest.raises(IllegalAnswerError, match=f"action {illegal} .* is not legal for the learning seat 0"):
        strict.step(illegal)
    assert strict.game.answers_so_far() == answers  # nothing changed
    strict.step(first_legal(strict, None, {"action_mask": strict.action_masks()}))


@pytest.mark.parametrize("kwargs, message", [
    ({"opponents": "greedy,nobody"}, r"unknown agent 'nobody' \(choose from .*greedy.*or one's own as module:Class, "
                                     r"e\.g\. mypkg\.bots:Cautious, or \./file\.py:Class\)"),
    ({"opponents": "human,greedy,random"}, "'human' cannot play in the environment: its seats play unattended"),
    ({"opponents": "greedy,human:x=1"}, "'human' cannot play in the environment"),
    ({"opponents": "random"}, "classic2003 is played by 3, 4, 5 players, so name 2, 3, 4 opponents, not 1"),
    ({"opponents": 3}, "opponents must be a comma-separated text"),
    ({"opponents": ""}, "opponents must name one agent spec per other seat"),
    ({"seat": 4}, "seat must be a whole number from 0 to 3"),
    ({"reward": "points"}, "reward"),
    ({"illegal_reward": "lose"}, "illegal_reward must be a number or None"),
    ({"variant": "no-such-variant"}, "no-such-variant"),
    ({"render_mode": "rgb_array"}, "render_mode"),
])
@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array':UserWarning")  # (Gymnasium's own remark first)
def test_bad_arguments_are_clear_errors(kwargs, message):
    with pytest.raises(AmunreError, match=message):
        gymnasium.make(ENV_ID, **kwargs)


def test_the_example_in_docs_research_md_runs(capsys):
    code = (REPO / "docs" / "research.md").read_text(encoding="utf-8").split("```python\n")[1].split("```")[0]
    assert "amunre/AmunRe-v0" in code
    names: dict = {}
    exec(compile(code, "docs/research.md", "exec"), names)
    game = names["env"].unwrapped.game
    assert game.finished and game.seed == 7
    assert names["reward"] == final_rewards(game.state, "win")[0]
    assert capsys.readouterr().out == f"reward of the learning seat: {names['reward']}\n"


def test_render_ansi_tells_the_play_by_play():
    env = AmunreEnv(opponents="random,random", render_mode="ansi")
    _, info = env.reset(seed=3)
    text = env.render()
    assert text.startswith("Amun-Re") and env.render() == ""
    env.step(first_legal(env, None, info))
    assert "player_0 (learning)" in env.render()


MISSING_EXTRA = """
import sys
sys.modules["gymnasium"] = None  # as if the extra were not installed
import amunre.rl.gymnasium as gym_env
try:
    gym_env.AmunreEnv()
except ImportError as error:
    print(type(error).__name__, error)
"""


def test_without_the_extra_the_environment_names_it():
    run = subprocess.run([sys.executable, "-c", MISSING_EXTRA], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("MissingExtraError the Gymnasium environment needs the optional extra: "
                                 "pip install 'amunre[rl]'"), run.stdout
