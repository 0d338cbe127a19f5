"""Branching for search: `Game.clone` and `Game.determinize`, over every variant
file in variants/ (a new house rule is covered without new test code).

The properties: a clone played on does not change the original; a clone answered like the
original ends identically; a clone's state serializes and loads back equal, and its answers
replay from the seed to the same state; a determinization keeps the player's view, answers
like the original where the player is concerned, and clones like any game.
"""

from __future__ import annotations

import random

import pytest
from conftest import variant_files
from hypothesis import given
from hypothesis import strategies as st

from amunre.agents import make_agents
from amunre.core.engine import Game
from amunre.core.errors import AmunreError
from amunre.core.state import GameState
from amunre.loader import load_variant

VARIANTS = variant_files()


def _fingerprint(game: Game) -> tuple:
    """Everything a game is at a decision: its state, what is asked, the answers so far."""
    pending = game.pending
    asked = None if pending is None else (pending.player, pending.kind, list(pending.options))
    return game.state.to_dict(), asked, list(game.answers_so_far()), game.phase_name


def _play(game: Game, agents, steps: int | None = None) -> None:
    while game.pending is not None and (steps is None or steps > 0):
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
        steps = None if steps is None else steps - 1


def _game_at(path, data, seed):
    variant = load_variant(path)
    players = data.draw(st.sampled_from(variant.players), label="players")
    game = Game(variant, players, seed)
    agents = make_agents(["random"] * players, seed)
    _play(game, agents, data.draw(st.integers(0, 400), label="decisions before branching"))
    return variant, players, game, agents


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_clone_is_independent_and_plays_on_alike(path, seed, data):
    variant, players, game, agents = _game_at(path, data, seed)
    before = _fingerprint(game)
    twin = game.clone()
    assert _fingerprint(twin) == before
    assert twin.state is not game.state and twin.state.draws is not game.state.draws
    # the clone played to its end with other agents: the original has not moved
    _play(twin, make_agents(["greedy"] * players, seed + 1))
    assert twin.finished and _fingerprint(game) == before
    # a second clone, answered as the original is: the two end identically
    again = game.clone()
    mine = make_agents(["random"] * players, seed + 2)
    theirs = make_agents(["random"] * players, seed + 2)
    _play(game, mine)
    _play(again, theirs)
    assert _fingerprint(again) == _fingerprint(game)
    assert again.state.winners == game.state.winners


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_clone_serializes_and_replays_equal(path, seed, data):
    variant, players, game, agents = _game_at(path, data, seed)
    game.clone()  # the game now keeps checkpoints
    _play(game, agents, data.draw(st.integers(0, 60), label="decisions after the first clone"))
    twin = game.clone()
    assert GameState.from_dict(twin.state.to_dict()) == twin.state
    replayed = Game(variant, players, seed)
    for choice in twin.answers_so_far():
        replayed.answer(choice)
    assert _fingerprint(replayed) == _fingerprint(twin)


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), data=st.data())
def test_a_determinization_keeps_the_players_view_and_plays_to_the_end(path, seed, data):
    variant, players, game, agents = _game_at(path, data, seed)
    if game.finished:
        return
    player = game.pending.player  # the seat a search agent determinizes for: the one asked
    before = _fingerprint(game)
    seen = game.view(player).to_dict()
    sampled = game.determinize(player, random.Random(seed))
    assert sampled.view(player).to_dict() == seen
    assert _fingerprint(game) == before  # the original is untouched
    # he is asked the same question (who was asked before him in a secret batch may differ)
    assert sampled.pending.player == player
    assert sampled.pending.kind == game.pending.kind and sampled.pending.options == game.pending.options
    # a determinized game clones like any other (its re-draw is given again)
    twin = sampled.clone()
    assert _fingerprint(twin) == _fingerprint(sampled)
    _play(sampled, make_agents(["random"] * players, seed))
    assert sampled.finished and _fingerprint(game) == before


def test_a_determinization_draws_the_hidden_facts_again():
    """Across a few draws, the other hands, the deck's order and the generator differ from the
    game's; the player's own hand never does."""
    variant = load_variant("classic2003")
    game = Game(variant, 4, 11)
    _play(game, make_agents(["random"] * 4, 11), 30)
    rng = random.Random(5)
    me = game.pending.player
    draws = [game.determinize(me, rng) for _ in range(8)]
    others = [p for p in range(4) if p != me]
    assert all(d.state.players[me].hand == game.state.players[me].hand for d in draws)
    assert any(d.state.deck != game.state.deck for d in draws)
    assert any([d.state.players[p].hand for p in others] != [game.state.players[p].hand for p in others]
               for d in draws)
    assert len({d.state.copy().random("cards").random() for d in draws}) == len(draws)


def test_a_sealed_answer_of_another_player_is_drawn_again():
    """In the offering, the answers given before the player's own are secret: a
    determinization for a later player re-draws them among their options."""
    variant = load_variant("classic2003")
    for seed in range(50):
        game = Game(variant, 4, seed)
        agents = make_agents(["random"] * 4, seed)
        while game.pending is not None and not (game.pending.simultaneous and game._sealed):
            _play(game, agents, 1)
        if game.pending is None:
            continue
        player = game.pending.player
        given = [choice for _, choice in game._sealed]
        drawn = set()
        for k in range(20):
            sampled = game.determinize(player, random.Random(k))
            assert sampled.pending.player == player and sampled.pending.kind == game.pending.kind
            drawn.add(tuple(choice for _, choice in sampled._sealed))
        if len(drawn) > 1:
            assert all(len(d) == len(given) for d in drawn)
            return
    pytest.fail("no offering with several secret options in 50 games")


def test_a_game_from_a_position_clones_too():
    variant = load_variant("classic2003")
    game = Game(variant, 4, 2)
    _play(game, make_agents(["random"] * 4, 2), 20)
    state = game.state.clone()
    positioned = Game.from_state(variant, state)
    assert positioned.clone().state == positioned.state and positioned.clone().pending is None
    positioned.run_rules(["market"])
    if positioned.pending is not None:
        twin = positioned.clone()
        assert _fingerprint(twin) == _fingerprint(positioned)


def test_determinize_is_for_the_player_asked():
    game = Game(load_variant("classic2003"), 3, 0)
    with pytest.raises(AmunreError, match=r"player must be a seat number from 0 to 2 \(a game of 3\), not 3"):
        game.determinize(3, random.Random(0))
    for player, rng, expected in ((True, random.Random(0), r"player must be a seat number .*, not True"),
                                  ("0", random.Random(0), r"player must be a seat number .*, not '0'"),
                                  (game.pending.player, None, r"rng must be a random.Random, not None \(a NoneType\)"),
                                  (game.pending.player, 5, r"rng must be a random.Random, not 5 \(an int\)")):
        with pytest.raises(AmunreError, match=expected):
            game.determinize(player, rng)
    other = (game.pending.player + 1) % 3
    with pytest.raises(AmunreError,
                       match=rf"player must be the player asked now \({game.pending.player}\), not {other}"):
        game.determinize(other, random.Random(0))
