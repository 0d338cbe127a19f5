"""The optional public history of the last round in the observation (`history=True`,
`amunre.rl.history`): its sections close the layout (the default layout is unchanged), it
shows the last complete round's bids, revealed offers and thefts by relative seat, and it
leaks nothing: a sealed offer changes no other seat's observation before the reveal (the
pattern of tests/test_pettingzoo.py, on games replayed with their history kept).
"""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("pettingzoo", reason="the environments need the optional extra: pip install 'amunre[rl]'")
import numpy as np

from amunre.core.engine import Game
from amunre.core.errors import AmunreError
from amunre.rl.gymnasium import AmunreEnv as GymEnv
from amunre.rl.history import RoundHistory
from amunre.rl.pettingzoo import raw_env
from amunre.rl.vector import AmunreVectorEnv


def section(layout, vector, name):
    return vector[layout.slices[name]]


def test_the_history_sections_close_the_layout_and_the_default_is_unchanged():
    plain, kept = raw_env("classic2003", 4).layout, raw_env("classic2003", 4, history=True).layout
    assert kept.sections[:len(plain.sections)] == plain.sections
    names = [name for name, *_ in kept.sections[len(plain.sections):]]
    assert names == ["history.bids", "history.offers", "history.thefts"]
    provinces = len(kept.variant.board)
    assert kept.size == plain.size + provinces * 4 + 4 + 4
    for make in (lambda: raw_env(history="yes"), lambda: GymEnv(history=1), lambda: AmunreVectorEnv(2, history=None)):
        with pytest.raises(AmunreError, match="history must be True or False"):
            make()


def test_the_last_round_s_bids_offers_and_thefts_by_relative_seat():
    environment = raw_env("classic2003", 4, history=True)
    environment.reset(seed=8)
    game, layout = environment.game, environment.layout
    heard = []
    game.listen(lambda event: heard.append(event) if event["event"] in ("bid", "offers", "round_end") else None)
    rng = random.Random(8)
    rounds = []  # per finished round: (bids, offers) by absolute seat, as the events told them
    bids, offers = {}, {}
    checked = 0
    while not game.finished:
        game.answer(rng.choice(game.pending.options))
        for event in heard:
            if event["event"] == "bid":
                bids[event["province"], event["player"]] = event["amount"] + 1
            elif event["event"] == "offers":
                offers = {int(p): offer for p, offer in event["offers"].items()}
            else:
                rounds.append((bids, offers))
                bids, offers = {}, {}
        heard.clear()
        if game.pending is None:
            break
        seat = game.pending.player
        vector = environment.observe(f"player_{seat}")["observation"]
        shown_bids = section(layout, vector, "history.bids").reshape(len(layout.variant.board), 4)
        shown_offers = section(layout, vector, "history.offers")
        shown_thefts = section(layout, vector, "history.thefts")
        last_bids, last_offers = rounds[-1] if rounds else ({}, {})
        for q in range(4):
            player = (seat + q) % 4
            for province in range(len(layout.variant.board)):
                assert shown_bids[province, q] == last_bids.get((province, player), 0)
            kind, amount, _ = last_offers.get(player, ("gold", -1, 0))
            assert shown_offers[q] == (amount + 1 if kind == "gold" else 0)
            assert shown_thefts[q] == (kind == "theft")
        checked += 1
    assert len(rounds) >= 6 and checked > 100
    assert any(o[0] == "theft" for _, offers in rounds for o in offers.values()), "no theft: the test sees none"


def replayed(variant, seed, answers):
    """A game of `seed` answered `answers`, its history kept from the start."""
    history = RoundHistory(4, len(variant.board))
    game = Game(variant, 4, seed, [history])
    for answer in answers:
        game.answer(answer)
    return game, history


def second_round_offering(environment, seed):
    """The game of `seed` at the first sealed offer of its second round, or None when no other
    seat is asked after it in the batch (the others' offers forced)."""
    environment.reset(seed=seed)
    game = environment.game
    rng = random.Random(seed)
    # a secret offering of the second round: the first round's offers are in the history by then
    while not (game.pending.kind == "offer" and game.pending.simultaneous and game.state.round == 1):
        game.answer(rng.choice(game.pending.options))
    twin = game.clone()
    twin.answer(twin.pending.options[0])
    return game if twin.pending.simultaneous else None


def test_a_sealed_offer_shows_in_no_history_before_the_reveal():
    environment = raw_env("classic2003", 4, history=True)
    layout, variant = environment.layout, environment.variant
    game = next(g for g in (second_round_offering(environment, seed) for seed in range(2, 30)) if g)
    first = game.pending
    assert first.options[0] != first.options[-1]
    seen, after = [], []
    for choice in (first.options[0], first.options[-1]):
        twin, history = replayed(variant, game.seed, list(game.answers_so_far()) + [choice])
        assert twin.pending.simultaneous and twin.pending.player != first.player
        seen.append([layout.encode(twin, s, history) for s in range(4) if s != first.player])
        while twin.state.round == 1:  # the round played out alike: its offers shown at its end
            twin.answer(twin.pending.options[0])
        after.append(section(layout, layout.encode(twin, (first.player + 1) % 4, history), "history.offers"))
    assert any(section(layout, vector, "history.offers").any() for vector in seen[0])
    for a, b in zip(*seen):
        assert np.array_equal(a, b)
    assert not np.array_equal(after[0], after[1]), "the offers once revealed must show: the test checks nothing"


def test_the_gymnasium_and_vector_environments_keep_the_history_too():
    gym = GymEnv(opponents="random,random,random", history=True)
    observation, info = gym.reset(seed=4)
    envs = AmunreVectorEnv(2, history=True)
    observations, infos = envs.reset(seed=4)
    assert observation["observation"].shape == (gym.layout.size,) == (envs.layout.size,)
    rng = np.random.default_rng(4)
    from amunre.rl.vector import sample_legal

    while not gym.game.state.round:
        observation, *_rest, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert section(gym.layout, observation["observation"], "history.bids").any()
    for _ in range(80):
        observations, *_ = envs.step(sample_legal(observations["action_mask"], rng))
    assert any(section(envs.layout, row, "history.bids").any() for row in observations["observation"])


def test_the_docs_give_the_history_sections_offsets():
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    research, agents = ((docs / name).read_text(encoding="utf-8") for name in ("research.md", "agents.md"))
    layout = raw_env("classic2003", 4, history=True).layout
    for name, start, _stop, _what in layout.sections:
        if name.startswith("history."):
            row = re.compile(rf"\| `{re.escape(name)}` \| [^|]+ \| {start} \|")
            assert row.search(research), f"docs/research.md's offset table lacks {name} at {start}"
            assert f"`{name}`" in agents
    assert f"{layout.size} numbers in all" in research


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning",
                            "ignore:Observation space for each agent probably should be:UserWarning")
def test_pettingzoo_s_api_test_passes_with_the_history():
    from pettingzoo.test import api_test

    from amunre.rl.pettingzoo import env

    api_test(env("classic2003", 4, history=True), num_cycles=300)
