"""The PettingZoo AEC environment (`amunre.rl.pettingzoo`, the extra `amunre[rl]`).

- PettingZoo's own `api_test` (every shipped variant) and `seed_test` pass;
- `reset(seed=s)` plays the game of seed s, and seeds without a seed follow from the last;
- the action mask is exactly the pending request's options (ids in the space), for the seat
  asked, and all 0 for every other seat;
- an observation holds only its seat's view: drawing again what the seat may not know (the
  other hands, the piles, the province deck or hands) leaves it unchanged; a secret answer
  changes no observation before the batch is revealed;
- rewards come at the end only, as documented; an illegal action is refused, nothing changed;
- docs/agents.md lists the observation's sections and the action spaces as the code builds
  them; the example script plays a game.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the optional extra: "
                                         "pip install 'amunre[rl]' (pettingzoo, numpy)")
import numpy as np
from pettingzoo.test import api_test, seed_test

from amunre.core.engine import Game
from amunre.core.errors import AmunreError, IllegalAnswerError, UnknownVariantError
from amunre.core.view import hide_from
from amunre.loader import load_variant
from amunre.loader.files import available_variants
from amunre.rl.actions import action_space
from amunre.rl.pettingzoo import action_mask, env, raw_env

REPO = Path(__file__).resolve().parent.parent
#: PettingZoo's generic remarks on a dict observation (its own classic games are exempted by name)
DICT_REMARKS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


def players_for(variant_id: str) -> int:
    counts = load_variant(variant_id).players
    return 4 if 4 in counts else counts[0]


def random_play(environment, seed: int, check=None) -> dict:
    """Play a whole game choosing random legal ids; `check(env, agent, observation)` at each
    live turn. Returns each agent's reward at its end."""
    rng = random.Random(seed)
    environment.reset(seed=seed)
    rewards = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            rewards[agent] = reward
            environment.step(None)
            continue
        assert reward == 0
        if check is not None:
            check(environment, agent, observation)
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return rewards


# -- PettingZoo's own tests -----------------------------------------------------------------
@pytest.mark.filterwarnings(*DICT_REMARKS)
@pytest.mark.parametrize("variant_id", sorted(available_variants()))
def test_pettingzoo_api_test(variant_id):
    api_test(env(variant=variant_id, players=players_for(variant_id)), num_cycles=1000)


@pytest.mark.parametrize("variant_id, players", [("classic2003", 4), ("expert2016", 3),
                                                 ("cards-as-gold-offering", 5)])
def test_pettingzoo_seed_test(variant_id, players):
    seed_test(lambda: env(variant=variant_id, players=players), num_cycles=500)


# -- seeds ----------------------------------------------------------------------------------
def test_reset_with_a_seed_plays_the_game_of_that_seed():
    environment = env(players=3)
    played = []
    random_play(environment, 11, lambda e, agent, obs: played.append(e.unwrapped.game.pending.player))
    game = environment.unwrapped.game
    mirror = Game(load_variant("classic2003"), 3, 11)
    for answer in game.answers:
        mirror.answer(answer)
    assert mirror.finished and [p.score for p in mirror.state.players] == [p.score for p in game.state.players]
    assert len(played) == len(game.answers)  # every decision asked was a turn of its seat


def test_resets_without_a_seed_follow_from_the_last_seed():
    first, second = raw_env(), raw_env()
    seeds = []
    for environment in (first, second):
        environment.reset(seed=5)
        environment.reset()
        seeds.append(environment.game.seed)
        environment.reset()
        seeds.append(environment.game.seed)
    assert seeds[:2] == seeds[2:] and len({5, *seeds[:2]}) == 3
    with pytest.raises(AmunreError, match="seed must be a whole number"):
        first.reset(seed=-1)


# -- the action mask ------------------------------------------------------------------------
@pytest.mark.parametrize("variant_id, players", [("classic2003", 4), ("expert2016", 4)])
def test_the_mask_is_the_pending_request_s_options(variant_id, players):
    space = action_space(load_variant(variant_id))
    asked = set()

    def check(environment, agent, observation):
        game = environment.unwrapped.game
        request = game.pending
        asked.add(request.kind)
        assert agent == f"player_{request.player}"
        expected = {space.id_of(request.kind, o) for o in request.options} - {None}
        assert set(np.flatnonzero(observation["action_mask"])) == expected
        for action in expected:
            kind, option = space.option(action)
            assert kind == request.kind and option in request.options
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        assert environment.observation_space(agent).contains(observation)

    random_play(env(variant=variant_id, players=players), 3, check)
    assert {"bid", "offer"} <= asked


# -- what an observation holds --------------------------------------------------------------
@pytest.mark.parametrize("variant_id", ["classic2003", "expert2016"])
def test_an_observation_does_not_change_with_what_the_seat_may_not_know(variant_id):
    environment = raw_env(variant_id, 4)
    layout, variant = environment.layout, environment.variant
    rng = random.Random(0)
    samples = redrawn = 0

    def check(environment, agent, observation):
        nonlocal samples, redrawn
        game = environment.game
        if len(game.answers_so_far()) % 7:
            return
        samples += 1
        seat = game.pending.player
        other = game.determinize(seat, rng)  # the other hands, piles and secrets drawn again
        assert np.array_equal(layout.encode(other, seat), observation["observation"])
        assert np.array_equal(action_mask(environment.actions, other, seat), observation["action_mask"])
        redrawn += any(a.hand != b.hand for a, b in zip(game.state.players, other.state.players))
        # a seat not asked now: the same after its hidden facts are drawn again
        watcher = (seat + 1) % 4
        twin = game.clone()
        hide_from(variant, twin.state, watcher, rng)
        assert np.array_equal(layout.encode(twin, watcher), layout.encode(game, watcher))

    random_play(environment, 1, check)
    assert samples > 10 and redrawn > samples // 2, "the hidden hands were hardly drawn again: the test checks nothing"


@pytest.mark.parametrize("variant_id, kind", [("classic2003", "offer"), ("expert2016", "pick_province")])
def test_a_secret_answer_shows_in_no_observation_before_the_reveal(variant_id, kind):
    environment = raw_env(variant_id, 4)
    environment.reset(seed=2)
    game = environment.game
    rng = random.Random(2)
    while not (game.pending.kind == kind and game.pending.simultaneous):
        game.answer(rng.choice(game.pending.options))
    first = game.pending
    seen = []
    for choice in (first.options[0], first.options[-1]):
        twin = game.clone()
        twin.answer(choice)
        assert twin.pending.simultaneous and twin.pending.player != first.player
        seen.append([(environment.layout.encode(twin, s), action_mask(environment.actions, twin, s))
                     for s in range(4) if s != first.player])
    assert first.options[0] != first.options[-1]
    for (obs_a, mask_a), (obs_b, mask_b) in zip(*seen):
        assert np.array_equal(obs_a, obs_b) and np.array_equal(mask_a, mask_b)


def test_the_layout_covers_the_vector_and_relative_seats():
    environment = raw_env("classic2003", 4)
    layout = environment.layout
    assert layout.sections[0][1] == 0 and layout.sections[-1][2] == layout.size
    assert all(a[2] == b[1] for a, b in zip(layout.sections, layout.sections[1:]))
    environment.reset(seed=4)
    game = environment.game
    seat = game.pending.player
    for looker in range(4):
        players = environment.layout.encode(game, looker)[layout.slices["players"]]
        assert players[0] == game.state.players[looker].gold  # each seat sees itself first
        assert players[5 * ((seat - looker) % 4)] == game.state.players[seat].gold
        seat_part = environment.layout.encode(game, looker)[layout.slices["seat"]]
        assert list(seat_part).index(1) == looker


# -- rewards, illegal actions, errors -------------------------------------------------------
def test_rewards_at_the_end_win_or_score():
    environment = env(players=4)
    rewards = random_play(environment, 8)
    state = environment.unwrapped.game.state
    winners = state.winners
    assert rewards == {f"player_{p}": (1 / len(winners) if p in winners else 0.0) for p in range(4)}
    environment = env(players=4, reward="score")
    rewards = random_play(environment, 8)
    scores = [p.score for p in environment.unwrapped.game.state.players]
    assert rewards == {f"player_{p}": scores[p] - (sum(scores) - scores[p]) / 3 for p in range(4)}
    assert abs(sum(rewards.values())) < 1e-9


def test_an_illegal_action_is_refused_and_changes_nothing():
    environment = env(players=4)
    environment.reset(seed=0)
    agent, game = environment.agent_selection, environment.unwrapped.game
    answers = list(game.answers)
    mask = environment.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAnswerError, match=rf"action {illegal} \(.*\) is not legal for {agent}"):
        environment.step(illegal)
    with pytest.raises(AmunreError, match="no action 100000"):
        environment.step(100000)
    with pytest.raises(AmunreError, match="whole number"):
        environment.step(None)
    assert environment.agent_selection == agent and game.answers == answers
    environment.step(int(np.flatnonzero(mask)[0]))
    assert environment.action_to_string(0) == environment.unwrapped.actions.to_string(0)
    assert environment.string_to_action(environment.action_to_string(7)) == 7


def test_a_step_after_every_agent_is_done_is_a_clear_error():
    """Once the game is over and every agent was stepped with None, the raw environment says
    to reset (no bare KeyError), and reset() plays on. (`env()`'s PettingZoo wrapper warns
    and ignores such a step itself.)"""
    environment = raw_env(players=3)
    random_play(environment, seed=5)
    assert not environment.agents
    for action in (None, 0):
        with pytest.raises(IllegalAnswerError, match=r"game is over and every agent is done.*call reset\(\)"):
            environment.step(action)
    environment.reset(seed=6)
    assert environment.agents and environment.agent_selection in environment.agents


def test_bad_arguments_are_clear_errors():
    with pytest.raises(UnknownVariantError):
        env(variant="no-such-edition")
    with pytest.raises(AmunreError, match="long-kingdoms is played by 3 players, not 4"):
        env(variant="long-kingdoms", players=4)
    with pytest.raises(AmunreError, match="reward must be one of win, score"):
        env(reward="points")
    with pytest.raises(AmunreError, match="render_mode must be one of human, ansi"):
        env(render_mode="rgb_array")


def test_ansi_rendering_tells_the_game_in_the_edition_s_words():
    environment = env(render_mode="ansi")
    environment.reset(seed=3)
    text = environment.render()
    assert "Hans im Glück" in text and "player_" in text
    environment.step(int(np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])[0]))
    assert "bidding marker" in environment.render()


# -- docs and the example -------------------------------------------------------------------
def test_docs_describe_the_layout_and_the_action_spaces():
    docs = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")
    assert docs.startswith("# ") and "\n## PettingZoo environment\n" in docs
    for variant_id in ("classic2003", "expert2016", "secret-hands-2003"):
        for name, _start, _stop, _ in raw_env(variant_id, 4).layout.sections:
            assert f"`{name}`" in docs, f"docs/agents.md does not name the observation section {name}"
    from conftest import project_variant_files

    for variant_id in (load_variant(path).id for path in project_variant_files()):
        row = f"| `{variant_id}` | {len(action_space(load_variant(variant_id)))} |"
        assert row in docs, f"docs/agents.md's table of action space sizes lacks or misstates {row}"
    assert "examples/pettingzoo_random.py" in docs and raw_env().layout.size == 422 and "422" in docs


def test_the_example_script_plays_a_game():
    run = subprocess.run([sys.executable, str(REPO / "examples" / "pettingzoo_random.py"), "--show", "2",
                          "--players", "3"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert re.match(r"player_\d: bid: bid \d+ on ", lines[0])
    assert len([line for line in lines if re.match(r"player_\d: \d+ points, reward (0|1|0\.5|0\.33+)$", line)]) == 3


def test_bad_constructor_arguments_are_clear_errors():
    pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed: pip install '.[rl]'")
    import numpy as np

    from amunre.core.errors import AmunreError
    from amunre.rl.pettingzoo import env

    for variant in (None, 5):
        with pytest.raises(AmunreError, match="variant must be a variant id, a variant file's path or a loaded"):
            env(variant=variant)
    with pytest.raises(AmunreError, match="overrides must be a list of KEY=VALUE texts"):
        env(overrides="components.starting_gold=5")
    game = env(players=np.int64(4))  # numpy's integers are whole numbers too
    game.reset(seed=1)
    assert len(game.agents) == 4


def test_every_encoding_the_contract_allows_has_a_size():
    """The loader accepts the encodings `amunre.core.contract` lists; the observation sizes and
    writes each."""
    from amunre.core.contract import CONTEXT_ENCODINGS, OBSERVATION_ENCODINGS
    from amunre.rl.observation import CONTEXT_SIZES, RULE_DATA_SIZES, WRITERS

    assert tuple(RULE_DATA_SIZES) == OBSERVATION_ENCODINGS and tuple(CONTEXT_SIZES) == CONTEXT_ENCODINGS
    assert set(WRITERS) == set(OBSERVATION_ENCODINGS) | set(CONTEXT_ENCODINGS)


def test_env_s_wrapper_checks_the_order_as_pettingzoo_s_own_wrapper_does():
    """`env()` wraps in a subclass of PettingZoo's order-enforcing wrapper that reads the hot
    attributes directly (`amunre.rl.order_enforcing`): every misuse is still refused as
    PettingZoo's own wrapper refuses it, and a whole game plays alike through both."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    def misuses(environment) -> list[str]:
        seen = []
        for misuse in (lambda: environment.agent_selection, lambda: environment.agents,
                       lambda: environment.rewards, lambda: environment.terminations, lambda: environment.last(),
                       lambda: environment.step(0), lambda: environment.agent_iter()):
            try:
                misuse()
            except Exception as error:  # noqa: BLE001 - the very exception is what is compared
                seen.append(type(error).__name__)
            else:
                seen.append("nothing")
        environment.reset(seed=1)
        loop = iter(environment.agent_iter())
        next(loop)
        try:
            next(loop)  # twice without a step between
        except AssertionError:
            seen.append("AssertionError")
        return seen

    ours, theirs = env("classic2003", 3), OrderEnforcingWrapper(raw_env("classic2003", 3))
    assert isinstance(ours, OrderEnforcingWrapper)
    assert misuses(ours) == misuses(theirs)
    assert "nothing" not in misuses(env("classic2003", 3))[:5]
    assert random_play(env("classic2003", 3), 6) == random_play(OrderEnforcingWrapper(raw_env("classic2003", 3)), 6)
