"""The `greedy` agent's cache of province values (`GreedyAgent._bid`) changes no decision:
at every decision of seeded games in every shipped variant, the agent answers as the
uncached agent (the code before the cache, kept here) does on the same view and request."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amunre.agents import make_agents
from amunre.agents.greedy import GreedyAgent
from amunre.engine import Game
from amunre.loader import load_variant, variant_files

VARIANTS = {path.stem: load_variant(path) for path in variant_files()}


class UncachedGreedy(GreedyAgent):
    """The agent as it was before the cache: a province's value recomputed for every option."""

    def _bid(self, view, p, options):
        gold = view.me.gold
        cards = view.variant.cards
        best, best_score = options[0], None
        for option in options:
            pid, amount, played = option
            if amount > gold * 0.6 and amount > 0:
                continue
            score = self._province_value(view, pid) - amount
            for card in played:
                score += 1.5 if cards[card] == "protection" and amount >= 6 else -2
            if best_score is None or score > best_score:
                best, best_score = option, score
        return best


def play_both(variant, players: int, seed: int, lineup=None) -> tuple[int, int]:
    """Play a game in which every greedy seat asks both agents (each with its own copy of the
    seat's generator) and checks they agree; (decisions compared, bids among them)."""
    names = lineup or ["greedy"] * players
    agents = make_agents(names, seed)
    shadows = []
    for agent in agents:
        shadow = None
        if isinstance(agent, GreedyAgent):
            shadow = copy.copy(agent)
            shadow.__class__ = UncachedGreedy
            shadow.rng = copy.deepcopy(agent.rng)
        shadows.append(shadow)
    game = Game(variant, players, seed)
    views = [game.view(p) for p in range(players)]
    compared = bids = 0
    while (request := game.pending) is not None:
        p = request.player
        choice = agents[p].choose(views[p], request)
        if shadows[p] is not None:
            expected = shadows[p].choose(views[p], request)
            assert choice == expected, (variant.id, players, seed, len(game.answers), request.kind)
            compared += 1
            bids += request.kind == "bid"
        game.answer(choice)
    return compared, bids


@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_the_cached_agent_decides_as_the_uncached_one_in_every_shipped_variant(vid):
    variant = VARIANTS[vid]
    bids = 0
    for seed in range(4):
        players = variant.players[seed % len(variant.players)]
        bids += play_both(variant, players, seed)[1]
    assert bids > 50  # the auction was really played


@given(vid=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**63 - 1), count=st.integers(0, 2),
       mixed=st.booleans())
def test_the_cached_agent_decides_as_the_uncached_one_in_random_games(vid, seed, count, mixed):
    variant = VARIANTS[vid]
    players = variant.players[count % len(variant.players)]
    lineup = (["greedy", "random"] * 3)[:players] if mixed else None
    compared, _ = play_both(variant, players, seed, lineup)
    assert compared > 0


def test_no_value_is_kept_from_one_decision_to_the_next():
    """The cache belongs to one call of `_bid`: after a whole game the agent holds nothing
    but its generator and the last request's display facts, so a province's value is read
    afresh at every decision."""
    variant = VARIANTS["classic2003"]
    agents = make_agents(["greedy"] * 4, 5)
    game = Game(variant, 4, 5)
    while (request := game.pending) is not None:
        game.answer(agents[request.player].choose(game.view(request.player), request))
    assert all(set(vars(agent)) <= {"rng", "_context"} for agent in agents)
