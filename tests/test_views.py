"""Each seat sees only its own view: what an agent gets, and the [views] invariant.

The invariant (amunre.testing, `[views]`) re-draws what the asked player may not know and
replays the phase; these tests run it over every variant file and show that it catches a
view, a rule module's state view and a request that leak something hidden.
"""

from __future__ import annotations

import json

import conftest
import pytest
from conftest import variant_files
from helpers import classic
from hypothesis import given, settings
from hypothesis import strategies as st

from amunre.agents import make_agents
from amunre.core.engine import Game, play_game
from amunre.core.view import PlayerView, hide_from
from amunre.loader import load_variant
from amunre.testing import ConformanceError, play_checked

VARIANTS = variant_files()
DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
# Each example is a whole game, every 8th decision checked. The quick profile plays 4 per variant:
# the conformance suite (tests/test_conformance.py) checks [views] too, at every 13th decision of
# its random and greedy games at every player count of every variant file.
@settings(max_examples=1000 if DEEP else 4)
@given(seed=st.integers(0, 2**32), agent=st.sampled_from(["random", "greedy"]), data=st.data())
def test_views_do_not_depend_on_what_a_player_may_not_know(path, seed, agent, data):
    variant = load_variant(path)
    players = data.draw(st.sampled_from(variant.players))
    # every 8th decision in the quick profile (each check replays the phase three times and
    # compares two samples and their clones in full), every 4th in the deep one
    checker = play_checked(variant, players, seed, agent, illegal_every=0, roundtrip_every=0,
                           counterfactual=False, views_every=4 if DEEP else 8)
    assert checker.view_checks > 0  # the invariant really compared views in this game


def test_an_agent_gets_a_view_not_the_game():
    seen = []

    class Spy:
        def choose(self, view, request):
            seen.append(view)
            return request.options[0]

    play_game(classic(), [Spy() for _ in range(4)], 1)
    assert seen and all(isinstance(v, PlayerView) for v in seen)
    assert not any(hasattr(v, "state") for v in seen)


def test_a_view_shows_own_cards_and_only_the_size_of_other_hands():
    game = Game(classic(), 4, 3)
    me, other = 0, 1
    view = game.view(me).to_dict()
    assert view["hand"] == game.state.players[me].hand
    assert view["players"][other]["hand_size"] == sum(game.state.players[other].hand)
    assert "hand" not in view["players"][other]
    text = json.dumps(view)  # JSON-able, and without the hidden facts
    assert "rng" not in view and view["deck_size"] == len(game.state.deck) and "deck" not in view
    assert json.loads(text) == view
    # the province deck is rule-owned state: its size is shown, never its order
    assert view["rules"]["province_draw"]["deck"] == len(game.state.rules["province_draw"]["deck"])
    assert all(isinstance(p["cards"], int) for p in view["provinces"])


def test_a_views_faces_and_holdings_are_each_provinces_and_players_own():
    """`faces()` and `holdings()` write a face and a holding out for all at once (the planner's
    hot path): they stay what each province's `public()` and each player's `holding()` give."""
    game = Game(classic(), 4, 3)
    agents = make_agents(["greedy"] * 4, 3)
    for _ in range(120):  # into the game: provinces held, farmed and built on, cards lying
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
        view = game.view(request.player)
        assert view.faces() == tuple(province.public() for province in view.provinces)
        assert view.holdings() == tuple(player.holding() for player in view.players)


def test_a_view_cannot_change_the_game():
    game = Game(classic(), 4, 3)
    view = game.view(0)
    with pytest.raises(AttributeError):
        view.provinces[0].stones = 5
    with pytest.raises(AttributeError):
        view.me.gold = 100
    assert isinstance(view.hand, tuple)  # a copy: a tuple, never the hand itself


def test_hide_from_keeps_the_players_view():
    game = Game(classic(), 4, 8)
    import random

    for player in range(4):
        state = game.state.clone()
        before = game.view(player).to_dict()
        hide_from(classic(), state, player, random.Random(player))
        again = Game.from_state(classic(), state).view(player).to_dict()
        before.pop("phase"), again.pop("phase")
        assert again == before
        assert state.to_dict() != game.state.to_dict()  # something hidden really changed


# -- planted leaks: the invariant catches each ------------------------------------------------
def leak_failure():
    with pytest.raises(ConformanceError) as info:
        for seed in range(3):
            play_checked(classic(), 4, seed, "random", illegal_every=0, roundtrip_every=0, counterfactual=False,
                         views_every=2)
    assert info.value.invariant == "views"
    return info.value


def test_catches_a_view_showing_other_hands(monkeypatch):
    from amunre.core import view

    monkeypatch.setattr(view.PlayerInfo, "to_dict",
                        lambda self: {"gold": self.gold, "hand": list(self._p.hand)})
    assert "view changes" in str(leak_failure())


def test_catches_a_rule_module_showing_its_hidden_state(monkeypatch):
    from amunre.rules.province_draw import ProvinceDraw

    monkeypatch.setattr(ProvinceDraw, "view_state", lambda self, data, player: data)
    assert "differs in: rules" in str(leak_failure())


def test_catches_a_request_that_leaks_the_deck(monkeypatch):
    real = Game._advance

    def leaky(self, value):
        real(self, value)
        if self.pending is not None:  # every request tells the top card of the draw pile
            self.pending.context = dict(self.pending.context, top=self.state.deck[-1:])

    monkeypatch.setattr(Game, "_advance", leaky)
    assert "request changes" in str(leak_failure())


def test_agents_play_the_same_games_from_views():
    """The built-in agents decide from the view alone: a seeded game is reproducible."""
    a = play_game(classic(), make_agents(["greedy"] * 4, 4), 4)
    b = play_game(classic(), make_agents(["greedy"] * 4, 4), 4)
    assert a.answers == b.answers and a.state == b.state


# -- what a search agent is handed: sample_game() holds nothing hidden -------------------------
def handed_leak_failure(variant_id: str = "classic2003"):
    """Play a few checked games; the [views] invariant must fail, on what a seat is handed."""
    with pytest.raises(ConformanceError) as info:
        for seed in range(3):
            play_checked(load_variant(variant_id), 4, seed, "random", illegal_every=0, roundtrip_every=0,
                         counterfactual=False, views_every=2)
    assert info.value.invariant == "views"
    return str(info.value)


@pytest.mark.parametrize("variant_id", ["classic2003", "expert2016"])
def test_catches_a_sample_that_carries_the_true_seed(monkeypatch, variant_id):
    """The leak found by a cheating seat: with the true seed and the public answers, a sample
    replays into the true game (every hand, the deck, the other seats' bots)."""
    real = Game.determinize

    def keeps_the_seed(self, player, rng):
        sample = real(self, player, rng)
        sample.seed = sample.state.seed = self.seed
        return sample

    monkeypatch.setattr(Game, "determinize", keeps_the_seed)
    message = handed_leak_failure(variant_id)
    assert "sample_game()" in message and "seed" in message


def test_catches_a_sample_that_keeps_the_true_checkpoint(monkeypatch):
    """A clone of a sample restarts from its checkpoint: the true state there is a leak."""
    real = Game.determinize

    def keeps_the_checkpoint(self, player, rng):
        sample = real(self, player, rng)
        sample._base = self._base
        return sample

    monkeypatch.setattr(Game, "determinize", keeps_the_checkpoint)
    message = handed_leak_failure()
    assert "sample_game()" in message and "_base" in message


def test_catches_a_sample_whose_random_streams_follow_the_true_ones(monkeypatch):
    """The game's own seed drawn anew, but the state's (which its random streams draw from) kept."""
    real = Game.determinize

    def keeps_the_generator(self, player, rng):
        sample = real(self, player, rng)
        sample.state.seed = self.state.seed
        return sample

    monkeypatch.setattr(Game, "determinize", keeps_the_generator)
    assert "sample_game()" in handed_leak_failure()


def test_catches_an_agent_that_reads_the_game_behind_its_view(monkeypatch):
    """An agent that looks past its view (here: at the next card of the draw pile) answers
    otherwise in a game that differs only in what its seat may not know."""
    from amunre.agents.greedy import GreedyAgent

    def peeking(self, view, request):
        deck = view._game.state.deck
        return request.options[(deck[-1] if deck else 0) % len(request.options)]

    monkeypatch.setattr(GreedyAgent, "choose", peeking)
    with pytest.raises(ConformanceError) as info:
        for seed in range(3):
            play_checked(classic(), 4, seed, "greedy", illegal_every=0, roundtrip_every=0, counterfactual=False,
                         views_every=2)
    assert info.value.invariant == "views" and "answers otherwise" in str(info.value)


def test_a_sample_holds_no_seed_checkpoint_or_generator_of_the_game():
    """Directly: the sample's seed, its checkpoint's state and its generator are drawn anew."""
    import random

    game = Game(classic(), 4, 12)
    agents = make_agents(["greedy"] * 4, 12)
    for _ in range(40):
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    me = game.pending.player
    sample = game.view(me).sample_game(random.Random(1))
    assert sample.seed != game.seed and sample.state.seed != game.state.seed
    from amunre.core.branching import restore

    kept, true = restore(sample._base.state), restore(game._base.state)
    assert kept.seed != true.seed and next_draws(kept) != next_draws(true)
    assert (kept.deck, [p.hand for p in kept.players]) != (true.deck, [p.hand for p in true.players])
    assert next_draws(sample.state) != next_draws(game.state)
    assert sample.answers == []  # who was asked what (and who was forced) is not handed on


def next_draws(state) -> list:
    """What the state's random streams would draw next (taken from a copy)."""
    from amunre.core.streams import STREAMS

    twin = state.copy()
    return [twin.random(name).random() for name in STREAMS]


def test_a_sample_does_not_keep_which_provinces_were_left_out():
    """supermeeple2016 draws the first kingdom from 3 cards per player: which ones were left
    out is hidden, and samples draw it again (they kept the true set in 100 of 100)."""
    import random

    game = Game(load_variant("supermeeple2016"), 4, 5)
    me = game.pending.player
    true_deck = set(game.state.rules["province_draw"]["deck"])
    decks = [set(game.view(me).sample_game(random.Random(k)).state.rules["province_draw"]["deck"]) for k in range(20)]
    assert any(deck != true_deck for deck in decks)
    board = set(range(len(game.variant.board)))
    assert set().union(*decks) - true_deck and all(deck <= board for deck in decks)


def test_a_sample_holds_the_seats_secret_hand_as_the_seat_sees_it():
    """expert2016: the seat's own secret hand in a sample is in the order its view shows, not
    the order the true generator dealt it."""
    import random

    for seed in range(10):
        game = Game(load_variant("expert2016"), 4, seed)
        me = game.pending.player
        sample = game.view(me).sample_game(random.Random(seed))
        assert (sample.state.rules["province_draft"]["hands"][me]
                == sorted(game.state.rules["province_draft"]["hands"][me]))
        assert restore_base(sample)["hands"][me] == sorted(restore_base(sample)["hands"][me])


def restore_base(sample) -> dict:
    from amunre.core.branching import restore

    return restore(sample._base.state).rules["province_draft"]


def test_an_agents_generator_does_not_give_away_the_games_seed():
    """Python's seeding of a generator can be undone: an agent's generator is seeded from a
    hash of the game's seed and its seat, not from a simple sum of them."""
    from amunre.agents import agent_rng

    state = agent_rng(7, 0).getstate()[1]
    assert all(agent_rng(seed, seat).getstate()[1] != state for seed in range(50) for seat in range(5)
               if (seed, seat) != (7, 0))
    import random

    assert random.Random(7 * 1009 + 1).getstate() != agent_rng(7, 0).getstate()
