"""The 2016 expert rule (`expert2016`, rule module `province_draft`): secret province hands.

The rulebooks have no worked example of it, so these are the synthetic tests EDITIONS.md §3
suggests: (a) the hands after setup, (b) the auction cards are the revealed picks, (c) the
last pick of a kingdom is forced, (d) the New Kingdom deal, (e) a secret pick changes no
other player's view or request; plus the player counts (A-EXPERTPLAYERS) and the [views]
invariant catching a draft that shows the hands.
"""

from __future__ import annotations

from functools import cache

import attrs
import pytest
from helpers import finish, published

from amunre.agents import make_agents
from amunre.core.engine import Game, play_game
from amunre.core.errors import AmunreError
from amunre.loader import load_variant
from amunre.testing import ConformanceError, play_checked


@cache
def expert():
    return load_variant("expert2016")


def hands(game) -> list[list[int]]:
    return game.state.rules["province_draft"]["hands"]


def run_to(game, kind: str):
    """Answer the first option until a request of `kind` is pending."""
    while game.pending is not None and game.pending.kind != kind:
        game.answer(game.pending.options[0])


@pytest.mark.parametrize("players", [3, 4])
def test_r_draft_01_three_secret_cards_each_the_rest_out_unseen(players):
    game = Game(expert(), players, 11)
    dealt = [pid for hand in hands(game) for pid in hand]
    assert [len(h) for h in hands(game)] == [3] * players
    assert len(set(dealt)) == 3 * players  # all different
    # the rest (15 - 3n) are out of the game: nobody holds them and no view shows them
    out = set(range(len(expert().board))) - set(dealt)
    assert len(out) == 15 - 3 * players
    for p in range(players):
        mine = game.view(p).rules["province_draft"]
        assert mine["hand"] == sorted(hands(game)[p])
        assert mine["hand_sizes"] == [3] * players
        assert "hands" not in mine


def test_r_draft_01_the_picks_are_asked_in_secret_and_are_the_auction_cards():
    game = Game(expert(), 4, 3)
    order = game.state.turn_order()
    before = [list(h) for h in hands(game)]
    picks = {}
    for p in order:
        request = game.pending
        assert (request.player, request.kind, request.simultaneous) == (p, "pick_province", True)
        assert request.options == sorted(before[p])  # his own hand, nothing else
        picks[p] = request.options[-1]
        game.answer(picks[p])
    # revealed together: the auction's cards are exactly the picks, in turn order
    assert published(game.state, "on_auction") == [picks[p] for p in order]
    assert game.pending.kind == "bid"
    assert [sorted(h) for h in hands(game)] == [sorted(set(before[p]) - {picks[p]}) for p in range(4)]
    assert game.state.rules["province_draft"]["used"] == [picks[p] for p in order]


def test_r_draft_01_immediate_bonuses_are_placed_on_the_revealed_cards():
    """Find a seed where someone holds Dakhla (12 gold and 1 card) and picks it first."""
    dakhla = next(i for i, p in enumerate(expert().board.provinces) if p.name == "Dakhla")
    for seed in range(200):
        game = Game(expert(), 4, seed)
        if any(dakhla in h for h in hands(game)):
            break
    else:
        pytest.fail("no seed deals Dakhla")
    for _p in game.state.turn_order():
        choice = dakhla if dakhla in game.pending.options else game.pending.options[0]
        game.answer(choice)
    prov = game.state.provinces[dakhla]
    assert dakhla in published(game.state, "on_auction") and prov.gold == 12 and len(prov.cards) == 1


def test_r_draft_01_the_last_pick_of_a_kingdom_is_forced():
    game = Game(expert(), 3, 5)
    asked = []
    while game.pending is not None:
        if game.pending.kind == "pick_province":
            asked.append((game.state.kingdom, game.state.round, len(game.pending.options)))
        game.answer(game.pending.options[0])
    # rounds 1 and 2 of each kingdom ask each of the 3 players (3 then 2 cards in hand); round 3 never
    assert sorted({(k, r) for k, r, _ in asked}) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert all(n == 3 - r for _, r, n in asked)


def test_r_draft_02_the_new_kingdom_deals_the_old_kingdoms_cards_again():
    game = Game(expert(), 4, 9)
    old = []
    while game.state.kingdom == 0:
        on_auction = published(game.state, "on_auction")
        if game.pending.kind == "bid" and on_auction and not old[-4:] == on_auction:
            old.extend(on_auction)
        game.answer(game.pending.options[0])
    assert len(old) == 12 and len(set(old)) == 12
    dealt = [pid for hand in hands(game) for pid in hand]
    assert [len(h) for h in hands(game)] == [3] * 4
    assert sorted(dealt) == sorted(old)  # exactly the Old Kingdom's cards, 3 each
    # the New Kingdom's cards are public (all were shown); who holds which is not
    view = game.view(0).rules["province_draft"]
    assert view["dealt_from"] == sorted(old) and view["used"] == []


def test_r_draft_01_a_secret_pick_changes_no_other_players_view_or_request():
    """Two games that differ only in the first player's secret pick: the next player's view
    and request are the same in both until the reveal."""
    seen = []
    for which in (0, -1):
        game = Game(expert(), 4, 21)
        first = game.pending
        game.answer(first.options[which])
        second = game.pending
        view = game.view(second.player).to_dict()
        view.pop("phase")
        seen.append((second.player, second.kind, second.options, second.context, view, list(game.answers)))
    assert seen[0] == seen[1]
    assert seen[0][5] == []  # the sealed pick is not in the public answers yet


def test_a_expertplayers_three_or_four_by_default_five_by_ruling():
    assert expert().players == (3, 4)
    with pytest.raises(AmunreError, match="does not allow 5 players"):
        Game(expert(), 5, 1)
    five = attrs.evolve(expert(), rulings=expert().rulings.evolve(draft_five_players=True))
    assert five.players == (3, 4, 5)
    game = play_game(five, make_agents(["random"] * 5, 5), 2)
    assert game.finished
    # with 5 players all 15 provinces are dealt: only the timing is secret
    assert sorted(game.state.rules["province_draft"]["dealt_from"]) == list(range(15))


def test_an_expert_game_plays_to_the_end_under_every_invariant():
    checker = play_checked(expert(), 4, 2, "greedy", views_every=3)
    assert checker.view_checks > 0


def test_the_views_invariant_catches_a_draft_that_shows_the_hands(monkeypatch):
    from amunre.rules.province_draft import ProvinceDraft

    real = ProvinceDraft.view_state  # what a seat may see, and every hand besides
    monkeypatch.setattr(ProvinceDraft, "view_state", lambda self, data, player: {**real(self, data, player),
                                                                                 "hands": data["hands"]})
    with pytest.raises(ConformanceError) as info:
        for seed in range(3):
            play_checked(expert(), 4, seed, "random", illegal_every=0, roundtrip_every=0, counterfactual=False,
                         views_every=2)
    assert info.value.invariant == "views" and "rules" in str(info.value)


def test_greedy_and_random_agents_finish_expert_games():
    for agents in (["greedy"] * 3, ["random"] * 4):
        game = play_game(expert(), make_agents(agents, len(agents)), 7)
        assert game.finished and finish(game) == []
