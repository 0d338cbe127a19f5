"""One test (at least) per rule id of SPEC §4-§5 for classic2003, driving the real rule modules.

Each builds a small position (tests/helpers.py), runs the rule modules through the engine's
decision protocol and checks concrete numbers from the rules. Seats: red, black, blue,
white (0..3) clockwise.
"""

import pytest
from helpers import (
    BLACK, BLUE, RED, WHITE, Ask, card, classic, feed, finish, game_of, pid, province_deck, run, seats, state_of, with_rulings,
)
from hypothesis import given
from hypothesis import strategies as st

from amunre.agents import make_agents
from amunre.engine import Game, play_game, winners
from amunre.errors import AmunreError, IllegalAnswerError
from amunre.model import RuleSpec
from amunre.position import score_position
from amunre.registry import get_rule
from amunre.rules.gold_ranking import gold_ranking
from amunre.rules.market import price
from amunre.rules.offering import level_for
from amunre.rules.bonus_cards import BonusParams, bonus_met
from amunre.rules.fewest_pyramids import FewestParams

PROTECTION, BRIBERY = card("protection"), card("bribery")
SPACES = [0, 1, 3, 6, 10, 15, 21, 28, 36]


def auction_game(players, provinces, start=0, variant=None):
    """A game whose auction (running) is over `provinces` (board names)."""
    game = game_of(players, variant, start_player=start)
    game.state.on_auction = [pid(n, variant) for n in provinces]
    game.run_rules(["auction"])
    return game


def amounts_on(request, province) -> list[int]:
    return sorted({a for c, a, played in request.options if c == pid(province) and not played})


def sheet_points(players, final=False, **top):
    """Points per item per player of the kingdom scoring of a position."""
    state = state_of(players, **top)
    sheet = score_position(classic(), state, final=final)
    return {item.key: list(item.points) for item in sheet.items}, sheet


# ---------------------------------------------------------------------------------------
# 4. Game structure
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 6])
def test_r_game_01_only_3_to_5_players(n):
    with pytest.raises(AmunreError, match="3, 4, 5"):
        Game(classic(), n, 0)


def _full_game(n=4, seed=3, agents="greedy", listeners=()):
    return play_game(classic(), make_agents([agents] * n, seed), seed, list(listeners))


def test_r_game_01_two_kingdoms_of_three_rounds_then_game_end():
    events = []
    game = _full_game(listeners=[events.append])
    assert [e["kingdom"] for e in events if e["event"] == "kingdom"] == [0, 1]
    assert [(e["kingdom"], e["round"]) for e in events if e["event"] == "round"] == [
        (0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert [e["kingdom"] for e in events if e["event"] == "scoring"] == [0, 1]
    assert sum(e["event"] == "final_scoring" for e in events) == 1
    assert game.finished and game.state.finished and game.state.winners
    # every player acquired exactly 3 provinces per kingdom
    acquired = [e["player"] for e in events if e["event"] == "acquire"]
    assert sorted(acquired) == sorted(list(range(4)) * 6)
    # the gold ranking scores once, after the New Kingdom only
    keys = {k for p in game.state.players for k in p.breakdown}
    assert "1:gold_ranking" in keys and "0:gold_ranking" not in keys


def test_r_game_02_setup_gold_theft_builder_seeded_start_player():
    game = Game(classic(), 4, 7)
    state = game.state
    assert [p.gold for p in state.players] == [20, 20, 20, 20]
    assert [p.theft for p in state.players] == [1, 1, 1, 1]
    assert [p.hand[card("architect")] for p in state.players] == [1, 1, 1, 1]
    assert [sum(p.hand) for p in state.players] == [1, 1, 1, 1]
    # the 39 power cards: in hands, face down on drawn provinces, or in the shuffled deck
    on_provinces = sum(len(p.cards) for p in state.provinces)
    assert len(state.deck) + on_provinces + 4 == 39
    assert state.deck.count(card("architect")) + 4 + sum(p.cards.count(card("architect")) for p in state.provinces) == 8
    # the start player comes from the seed: same seed, same player; seeds cover every seat
    assert Game(classic(), 4, 7).state.start_player == state.start_player
    assert game.pending.player == state.start_player and game.pending.kind == "bid"
    assert {Game(classic(), 4, s).state.start_player for s in range(40)} == {0, 1, 2, 3}
    # the deck order comes from the seed too
    assert Game(classic(), 4, 7).state.deck == state.deck


def test_r_game_03_phases_in_the_variants_order_each_round():
    events = []
    _full_game(n=3, seed=11, listeners=[events.append])
    pipeline = ["province_draw", "auction", "market", "offering", "harvest"]
    assert [s.rule for s in classic().phases] == pipeline
    flow = [e.get("rule", e["event"]) for e in events if e["event"] in ("phase", "scoring", "final_scoring")]
    kingdom = pipeline * 3 + ["scoring"]
    assert flow == kingdom + kingdom + ["final_scoring"]


def test_r_game_04_turn_order_from_the_start_player_clockwise():
    state = state_of(seats(4), start_player=2)
    assert state.turn_order() == [2, 3, 0, 1]
    game = auction_game(seats(4, gold=10), ["Buto", "Mendes", "Avaris", "Kharga"], start=2)
    requests = feed(game, [(pid("Buto"), 0, ()), (pid("Mendes"), 0, ()), (pid("Avaris"), 0, ()), (pid("Kharga"), 0, ())])
    assert [r.player for r in requests] == [2, 3, 0, 1]
    assert game.pending is None
    assert [game.state.provinces[pid(n)].owner for n in ("Buto", "Mendes", "Avaris", "Kharga")] == [2, 3, 0, 1]


def test_r_game_05_between_kingdoms():
    """Provinces lose owners and farmers; pyramids and stones stay; the used province
    cards are the New Kingdom deck; hands, gold, scores, start player and level carry over."""
    seen = {"drawn": [], "before": None, "after": None, "new_deck": None}
    holder = {}

    def listen(event):
        kind = event["event"]
        if kind == "provinces" and not seen["after"]:
            seen["drawn"].extend(event["provinces"])  # (round 1's draw happens inside Game())
        elif kind == "score" and not seen["after"]:
            seen["before"] = holder["game"].state.to_dict()  # the last scoring event before the transition
        elif kind == "transition":
            seen["after"] = holder["game"].state.to_dict()
        elif kind == "kingdom" and event["kingdom"] == 1:
            seen["new_deck"] = list(province_deck(holder["game"]))

    game = holder["game"] = Game(classic(), 4, 5, [listen])
    agents = make_agents(["greedy"] * 4, 5)
    finish(game, lambda request: agents[request.player].choose(game.view(request.player), request))
    before, after = seen["before"], seen["after"]
    assert any(p["owner"] is not None for p in before["provinces"])
    assert all(p["owner"] is None and p["farmers"] == 0 and p["free_farmers"] == 0 for p in after["provinces"])
    assert [p["provinces"] for p in after["players"]] == [[], [], [], []]
    assert after["supply_farmers"] == 45  # every farmer back in the supply
    for key in ("stones", "pyramids", "doubles"):
        assert [p[key] for p in after["provinces"]] == [p[key] for p in before["provinces"]]
    for key in ("gold", "hand", "score", "theft"):
        assert [p[key] for p in after["players"]] == [p[key] for p in before["players"]]
    for key in ("start_player", "offering_level", "deck", "discard"):
        assert after[key] == before[key]
    # 12 provinces were used in the Old Kingdom: exactly those are the New Kingdom deck
    assert len(seen["drawn"]) == 12
    assert sorted(seen["new_deck"]) == sorted(seen["drawn"])


def test_r_game_06_winner_most_points_then_pyramids_then_stones_else_shared():
    base = [
        {"name": "red", "score": 30, "provinces": {"Memphis": {"pyramids": 3, "stones": 1}}},
        {"name": "black", "score": 30, "provinces": {"Thebes": {"pyramids": 1, "doubles": 1, "stones": 2}}},
        {"name": "blue", "score": 29, "provinces": {"Abu": {"doubles": 3}}},
    ]
    assert winners(state_of(base)) == [BLACK]  # 3 pyramids each, black has more stones
    base[0]["provinces"]["Memphis"]["stones"] = 2
    assert winners(state_of(base)) == [RED, BLACK]  # still tied: shared victory
    base[0]["provinces"]["Memphis"]["pyramids"] = 4
    assert winners(state_of(base)) == [RED]  # more pyramids
    base[2]["score"] = 31
    assert winners(state_of(base)) == [BLUE]  # most points first


# ---------------------------------------------------------------------------------------
# 5. Province supply
# ---------------------------------------------------------------------------------------
def test_r_prov_01_start_player_draws_one_province_per_player_with_bonus():
    thebes, memphis, dakhla, buto = (pid(n) for n in ("Thebes", "Memphis", "Dakhla", "Buto"))
    game = game_of(seats(4))
    state = game.state
    province_deck(game)[:] = [pid("Abu"), buto, dakhla, memphis, thebes]
    deck, stones = len(state.deck), state.supply_stones
    run(game, ["province_draw"])
    assert game.pending is None
    assert state.on_auction == [thebes, memphis, dakhla, buto]
    assert province_deck(game) == [pid("Abu")]
    assert [len(state.provinces[i].cards) for i in (thebes, memphis, dakhla, buto)] == [2, 0, 1, 1]
    assert [state.provinces[i].stones for i in (thebes, memphis, dakhla, buto)] == [0, 2, 0, 0]
    assert [state.provinces[i].gold for i in (thebes, memphis, dakhla, buto)] == [0, 0, 12, 0]
    assert len(state.deck) == deck - 4 and state.supply_stones == stones - 2
    # three players draw three
    assert len(Game(classic(), 3, 1).state.on_auction) == 3
    assert len(Game(classic(), 5, 1).state.on_auction) == 5


# ---------------------------------------------------------------------------------------
# Auction
# ---------------------------------------------------------------------------------------
def test_r_auc_01_bid_spaces_are_the_printed_values():
    players = seats(4)
    players[RED]["gold"] = 36
    game = auction_game(players, ["Buto", "Mendes", "Avaris", "Kharga"])
    assert game.pending.player == RED
    assert amounts_on(game.pending, "Buto") == SPACES
    assert amounts_on(game.pending, "Kharga") == SPACES


def test_r_auc_02_bid_on_empty_card_any_space_on_occupied_card_higher():
    game = auction_game(seats(4, gold=20), ["Buto", "Mendes", "Avaris", "Kharga"])
    feed(game, [Ask(RED, "bid", (pid("Buto"), 3, ()))])
    assert game.pending.player == BLACK
    assert amounts_on(game.pending, "Buto") == [6, 10, 15]
    assert amounts_on(game.pending, "Mendes") == [0, 1, 3, 6, 10, 15]
    before = game.state.to_dict()
    with pytest.raises(IllegalAnswerError, match="bid"):
        game.answer((pid("Buto"), 3, ()))  # not higher than red's 3
    assert game.state.to_dict() == before


def test_r_auc_03_no_bid_above_gold_plus_cards_sold():
    players = seats(4)
    players[RED].update(gold=5, hand={"master_of_farmers": 1})
    game = auction_game(players, ["Buto", "Mendes", "Avaris", "Kharga"])
    assert max(amounts_on(game.pending, "Buto")) == 6  # 5 gold + 1 card
    feed(game, [(pid("Buto"), 6, ()), (pid("Mendes"), 0, ()), (pid("Avaris"), 0, ())])
    # white (no gold) has one legal bid, 0 on KHARGA, which is forced; then red pays 6,
    # selling his card without being asked which (it is the only one)
    assert game.pending is None
    red = game.state.players[RED]
    assert red.gold == 0 and sum(red.hand) == 0
    assert game.state.discard == [card("master_of_farmers")]
    assert game.state.bank_paid == 6 and game.state.bank_given == 1


def test_r_auc_04_outbid_player_must_move_to_another_card_others_pass():
    game = auction_game(seats(3, gold=20), ["Buto", "Mendes", "Avaris"])
    requests = feed(game, [
        Ask(RED, "bid", (pid("Buto"), 1, ())),
        Ask(BLACK, "bid", (pid("Buto"), 3, ())),
        Ask(BLUE, "bid", (pid("Mendes"), 0, ())),
        Ask(RED, "bid", (pid("Mendes"), 1, ())),  # red, outbid, moves; black passes unasked
        Ask(BLUE, "bid", (pid("Avaris"), 0, ())),  # blue, outbid by red, moves
    ])
    assert game.pending is None
    assert requests[3].context == {"moving_from": pid("Buto")}
    assert amounts_on(requests[3], "Buto") == []  # not back onto the card he leaves
    assert amounts_on(requests[3], "Mendes") == [1, 3, 6, 10, 15]
    assert amounts_on(requests[4], "Mendes") == []
    owners = [game.state.provinces[pid(n)].owner for n in ("Buto", "Mendes", "Avaris")]
    assert owners == [BLACK, RED, BLUE]
    assert [p.gold for p in game.state.players] == [19, 17, 20]


def test_r_auc_05_auction_ends_when_each_card_has_one_bid_then_pay_and_take():
    thebes, memphis, dakhla, buto = (pid(n) for n in ("Thebes", "Memphis", "Dakhla", "Buto"))
    game = game_of(seats(4, gold=20, hand={"architect": 1}))
    province_deck(game)[:] = [buto, dakhla, memphis, thebes]
    run(game, ["province_draw", "auction"],
        [(thebes, 3, ()), (memphis, 1, ()), (dakhla, 0, ()), (buto, 0, ())])
    assert game.pending is None  # one bid on each card after the first round: over
    state = game.state
    assert [p.provinces for p in state.players] == [[thebes], [memphis], [dakhla], [buto]]
    assert [p.gold for p in state.players] == [17, 19, 32, 20]
    assert [sum(p.hand) for p in state.players] == [1 + 2, 1, 1 + 1, 1 + 1]
    # free stones stay in the province
    assert state.provinces[memphis].stones == 2 and state.provinces[memphis].owner == BLACK
    assert all(not state.provinces[i].cards and not state.provinces[i].gold for i in (thebes, memphis, dakhla, buto))


def test_r_auc_06_protection_needs_two_spaces_more_and_moves_with_its_player():
    players = seats(4, gold=30)
    players[RED]["hand"] = {"protection": 1}
    game = auction_game(players, ["Buto", "Mendes", "Avaris", "Kharga"])
    protected = (pid("Buto"), 3, (PROTECTION,))
    assert protected in game.pending.options
    feed(game, [Ask(RED, "bid", protected)])
    assert game.state.in_play == [PROTECTION]  # face up until the phase ends
    assert amounts_on(game.pending, "Buto") == [10, 15, 21, 28]  # not 6: two spaces above 3
    requests = feed(game, [
        Ask(BLACK, "bid", (pid("Buto"), 10, ())),
        Ask(BLUE, "bid", (pid("Mendes"), 0, ())),
        Ask(WHITE, "bid", (pid("Avaris"), 0, ())),
        Ask(RED, "bid", (pid("Mendes"), 1, ())),  # red moves, his protection with him
        Ask(BLUE, "bid", (pid("Avaris"), 1, ())),
    ])
    # white, now outbid, finds red's protected 1 on Mendes: 6 at least, not 3
    assert game.pending.player == WHITE
    assert amounts_on(game.pending, "Mendes") == [6, 10, 15, 21, 28]
    assert amounts_on(requests[4], "Mendes") == []  # blue leaves Mendes: not there
    feed(game, [Ask(WHITE, "bid", (pid("Kharga"), 0, ()))])
    assert game.pending is None
    assert game.state.in_play == [] and game.state.discard == [PROTECTION]


def test_r_auc_06_bribery_lets_an_outbid_player_bid_higher_on_the_same_card():
    players = seats(3, gold=20)
    players[RED]["hand"] = {"bribery": 1}
    game = auction_game(players, ["Buto", "Mendes", "Avaris"])
    feed(game, [(pid("Buto"), 1, ()), (pid("Buto"), 3, ()), (pid("Avaris"), 0, ())])
    request = game.pending
    assert request.player == RED
    same = sorted(a for c, a, played in request.options if c == pid("Buto"))
    assert same == [6, 10, 15] and all(played == (BRIBERY,) for c, a, played in request.options if c == pid("Buto"))
    feed(game, [(pid("Buto"), 6, (BRIBERY,))])
    assert game.state.in_play == [BRIBERY]
    assert game.pending.player == BLACK and amounts_on(game.pending, "Buto") == []  # black has no bribery
    feed(game, [(pid("Mendes"), 0, ())])
    assert game.pending is None
    assert game.state.provinces[pid("Buto")].owner == RED and game.state.players[RED].gold == 14
    assert game.state.discard == [BRIBERY]


def _random_auction(data, variant, golds, cards):
    n = data.draw(st.sampled_from(variant.players))
    players = seats(n)
    left = {kind: variant.components.deck.get(kind, 0) for kind in ("protection", "bribery")}
    for i in range(n):
        players[i]["gold"] = golds[i]
        players[i]["hand"] = {kind: 1 for kind in sorted(cards[i]) if left[kind]}
        for kind in players[i]["hand"]:
            left[kind] -= 1
    names = data.draw(st.permutations([p.name for p in variant.board.provinces]))[:n]
    game = auction_game(players, names, start=data.draw(st.integers(0, n - 1)), variant=variant)
    return game, n


def _auction_variants():
    """Every variant file in variants/ whose round has an auction (found by globbing)."""
    from conftest import variant_files

    from amunre.loader import load_variant

    return [f for f in variant_files() if any(s.rule == "auction" for s in load_variant(f).phases)]


@pytest.mark.parametrize("variant_file", _auction_variants(), ids=lambda p: p.stem)
@given(
    golds=st.lists(st.integers(0, 40), min_size=5, max_size=5),
    cards=st.lists(st.sets(st.sampled_from(["protection", "bribery"])), min_size=5, max_size=5),
    data=st.data(),
)
def test_r_auc_07_an_outbid_player_always_has_a_legal_bid(variant_file, golds, cards, data):
    from amunre.loader import load_variant

    variant = load_variant(variant_file)
    game, n = _random_auction(data, variant, golds, cards)  # a player with no legal bid would raise here
    steps = 0
    while game.pending is not None:
        request = game.pending
        assert request.options
        if request.context.get("moving_from") is not None:
            # an empty card is always left (n cards, n - 1 other bidders): 0 on it is legal
            assert any(amount == 0 and not played for c, amount, played in request.options)
        game.answer(data.draw(st.sampled_from(request.options)))
        steps += 1
        assert steps < 500
    owners = [prov.owner for prov in game.state.provinces]
    assert sorted(o for o in owners if o is not None) == list(range(n))


# ---------------------------------------------------------------------------------------
# Market (actions of players)
# ---------------------------------------------------------------------------------------
def _market_game(red: dict, start="red", **top):
    players = seats(4)
    players[RED] = {"name": "red", "theft": 0, "gold": 0, **red}
    game = game_of(players, start_player=start, **top)
    game.state.deck = [card("treasury"), card("big_harvest"), card("master_of_scribes")]
    return game


def test_r_mkt_01_cards_then_farmers_then_stones_never_back():
    thebes = pid("Thebes")
    game = _market_game({"gold": 30, "provinces": {"Thebes": {}, "Memphis": {}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 1),
        Ask(RED, "buy_farmers", 1), Ask(RED, "place_farmer", thebes),
        Ask(RED, "buy_stones", 1), Ask(RED, "place_stone", thebes),
    ])
    assert [r.kind for r in requests] == ["buy_cards", "buy_farmers", "place_farmer", "buy_stones", "place_stone"]
    assert game.pending is None  # no second chance at cards or farmers this turn
    assert game.state.players[RED].gold == 30 - 3


def test_r_mkt_01_a_kind_skipped_is_closed_for_the_turn():
    game = _market_game({"gold": 30, "provinces": {"Thebes": {}}})
    run(game, ["market"], [Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "buy_stones", 0)])
    assert game.pending is None and game.state.players[RED].gold == 30


def test_r_mkt_02_triangular_prices_each_kind_separately():
    assert [price(n) for n in range(1, 10)] == [1, 3, 6, 10, 15, 21, 28, 36, 45]
    thebes = pid("Thebes")
    game = _market_game({"gold": 6, "provinces": {"Thebes": {}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 2),  # 3 gold
        Ask(RED, "buy_farmers", 2),  # 3 gold, not price(4) = 10
        Ask(RED, "buy_stones", 0),  # (the two cards could still be sold for a stone)
    ])
    assert max(requests[1].options) == 2  # 3 gold left: 2 farmers, not 3 (6 gold)
    assert game.pending is None
    assert game.state.players[RED].gold == 0 and game.state.provinces[thebes].farmers == 2


def test_r_mkt_03_card_purchases_limited_by_best_province():
    game = _market_game({"gold": 100, "provinces": {"Memphis": {}, "Amarna": {}, "Avaris": {}}})
    game.state.deck = [card("treasury")] * 10
    run(game, ["market"])
    assert game.pending.kind == "buy_cards" and game.pending.options == [0, 1, 2, 3]  # MEMPHIS shows 3
    # BUTO and MENDES show 0: no card to buy, the turn starts with farmers
    game = _market_game({"gold": 100, "provinces": {"Buto": {}, "Mendes": {}}})
    run(game, ["market"])
    assert game.pending.kind == "buy_farmers"


def test_r_mkt_03_empty_deck_is_reshuffled_from_the_discard_pile():
    game = _market_game({"gold": 100, "provinces": {"Memphis": {}}})
    state = game.state
    state.deck = []
    state.discard = [card("treasury"), card("treasury")]
    run(game, ["market"])
    assert game.pending.options == [0, 1, 2]  # only two cards left anywhere
    feed(game, [2])
    assert state.players[RED].hand[card("treasury")] == 2 and state.deck == [] and state.discard == []


def test_r_mkt_03_deck_is_reshuffled_the_moment_it_runs_out():
    """The last card drawn empties the deck: the discard pile is shuffled into a new deck at
    once, so a card discarded afterwards waits for the next reshuffle."""
    game = _market_game({"gold": 100, "provinces": {"Memphis": {}}})
    state = game.state
    state.deck = [card("treasury")]
    state.discard = [card("big_harvest"), card("big_harvest")]
    run(game, ["market"], [Ask(RED, "buy_cards", 1)])
    assert state.players[RED].hand[card("treasury")] == 1
    assert sorted(state.deck) == [card("big_harvest")] * 2 and state.discard == []


def test_r_mkt_04_farmers_only_on_empty_fields_and_from_the_supply():
    baharya = pid("Baharya")
    game = _market_game({"gold": 100, "provinces": {"Baharya": {"farmers": 1}, "Berenike": {}}})
    run(game, ["market"])
    assert game.pending.kind == "buy_cards"
    feed(game, [0])
    assert game.pending.options == [0, 1]  # BAHARYA has 1 empty field, BERENIKE none
    feed(game, [1])  # placed in BAHARYA without asking: the only empty field
    assert game.state.provinces[baharya].farmers == 2
    # the supply caps purchases too
    game = _market_game({"gold": 100, "provinces": {"Thebes": {}}}, supplies={"farmers": 1})
    run(game, ["market", ], [0])
    assert game.pending.kind == "buy_farmers" and game.pending.options == [0, 1]


def test_r_mkt_05_third_stone_builds_a_pyramid_several_per_turn():
    thebes, abydos = pid("Thebes"), pid("Abydos")
    game = _market_game({"gold": 28, "provinces": {"Thebes": {"stones": 1}, "Abydos": {}}})
    run(game, ["market"], [0, 0, 7] + [thebes] * 5 + [Ask(RED, "double_swap", True)] + [abydos] * 2)
    assert game.pending is None
    t, a = game.state.provinces[thebes], game.state.provinces[abydos]
    assert (t.stones, t.pyramids, t.doubles) == (0, 0, 1)  # 1 + 5 stones: two pyramids, one double
    assert (a.stones, a.pyramids) == (2, 0)
    assert game.state.players[RED].gold == 0


def test_a_doubleswap_optional_lets_the_owner_keep_two_singles():
    """A-DOUBLESWAP `optional` (2003: he "may replace"): the owner is asked, and may keep two
    singles, which still score 2 and hold the singles back from the other players."""
    thebes = pid("Thebes")
    game = _market_game({"gold": 21, "provinces": {"Thebes": {}}})
    singles, doubles = game.state.supply_pyramids, game.state.supply_doubles
    requests = run(game, ["market"], [0, 0, 6, Ask(RED, "double_swap", False)])
    assert requests[-1].options == [True, False] and requests[-1].context == {"province": thebes}
    assert game.pending is None
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 2, 0)
    assert (game.state.supply_pyramids, game.state.supply_doubles) == (singles - 2, doubles)


def test_a_doubleswap_automatic_swaps_without_asking():
    thebes = pid("Thebes")
    variant = with_rulings(double_swap="automatic")
    players = seats(4)
    players[RED] = {"name": "red", "theft": 0, "gold": 21, "provinces": {"Thebes": {}}}
    game = game_of(players, variant, start_player="red")
    run(game, ["market"], [0, 0, 6])
    assert game.pending is None  # nothing asked: every stone goes to his one province
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 0, 1)


def test_a_doubleswap_optional_is_not_asked_when_no_single_is_left():
    """Keeping two singles needs a second single: with none left the double is the only piece."""
    thebes = pid("Thebes")
    game = _market_game({"gold": 21, "provinces": {"Thebes": {"pyramids": 1}}}, supplies={"pyramids": 0})
    run(game, ["market"], [0, 0, 3])
    assert game.pending is None
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 0, 1)


def test_r_mkt_05_no_double_left_keeps_two_singles():
    thebes = pid("Thebes")
    game = _market_game({"gold": 21, "provinces": {"Thebes": {}}}, supplies={"doubles": 0})
    run(game, ["market"], [0, 0, 6])
    assert game.pending is None  # one province: every stone goes there unasked
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 2, 0)


def test_r_mkt_06_architect_builds_from_two_stones():
    thebes = pid("Thebes")
    game = _market_game({"gold": 1, "hand": {"architect": 1}, "provinces": {"Thebes": {"stones": 1}}})
    stones = game.state.supply_stones
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "buy_stones", 1),
        Ask(RED, "architect", thebes),
    ])
    assert requests[-1].options == [None, thebes]
    assert game.pending is None
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids) == (0, 1)
    assert game.state.players[RED].hand[card("architect")] == 0 and game.state.discard == [card("architect")]
    assert game.state.supply_stones == stones - 1 + 2


def test_r_mkt_06_architect_between_stone_placements():
    """Four stones and a builder into an empty province: two stones, the builder (a pyramid
    from them), two more stones: a pyramid and two stones, a state the old "builder after the
    stones" order could not reach (it ended with a double and nothing left)."""
    thebes = pid("Thebes")
    game = _market_game({"gold": 10, "hand": {"architect": 1}, "provinces": {"Thebes": {}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "buy_stones", 4),
        # asked after each stone that leaves a province with 2 or more stones
        Ask(RED, "architect", thebes),
    ])
    assert requests[-1].context == {"stones_to_place": 2}
    assert game.pending is None  # the builder is played: not asked again
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (2, 1, 0)


def test_r_mkt_06_architect_before_buying_stones():
    """MEMPHIS holds 2 stones: the builder first, then 1 stone bought, ends with a pyramid
    and a stone (buying first would make the pyramid and leave the builder nothing to do)."""
    memphis = pid("Memphis")
    game = _market_game({"gold": 1, "hand": {"architect": 1}, "provinces": {"Memphis": {"stones": 2}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "architect", memphis),
        Ask(RED, "buy_stones", 1),
    ])
    assert requests[2].context == {"stones_to_place": 0}
    assert game.pending is None
    m = game.state.provinces[memphis]
    assert (m.stones, m.pyramids) == (1, 1)


def test_r_mkt_06_architect_frees_stones_of_an_empty_quarry():
    """With no stone left in the supply, the builder played first returns 2 stones to it,
    which can then be bought."""
    memphis = pid("Memphis")
    game = _market_game({"gold": 3, "hand": {"architect": 1}, "provinces": {"Memphis": {"stones": 2}}},
                        supplies={"stones": 0})
    run(game, ["market"], [Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0)])
    assert game.pending.kind == "architect"
    feed(game, [memphis])
    assert game.pending.kind == "buy_stones" and game.pending.options == [0, 1, 2]


def test_r_mkt_06_free_farmer_goes_off_the_fields_and_counts_at_harvest():
    berenike, sawu = pid("Berenike"), pid("Sawu")
    game = _market_game({"hand": {"free_farmer": 1}, "provinces": {"Berenike": {}, "Sawu": {"farmers": 1}}},
                        offering_level=3)
    requests = run(game, ["market", "harvest"], [
        Ask(RED, "buy_cards", 0),  # (the card could be sold to buy one)
        Ask(RED, "free_farmer", berenike),
    ])
    assert requests[1].options == [None, berenike, sawu]  # BERENIKE has no field, SAWU's is full
    assert game.pending is None
    assert game.state.provinces[berenike].free_farmers == 1 and game.state.provinces[berenike].farmers == 0
    # level 3 (no camel): BERENIKE mine 8 + 1 free farmer x 3; SAWU 1 farmer x 3
    assert game.state.players[RED].gold == 8 + 3 + 3


def test_r_mkt_07_no_two_identical_cards_in_one_phase():
    thebes, abydos = pid("Thebes"), pid("Abydos")
    game = _market_game({"hand": {"architect": 2}, "provinces": {"Thebes": {"stones": 2}, "Abydos": {"stones": 2}}})
    run(game, ["market"], [Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "architect", thebes),
                           Ask(RED, "buy_stones", 0)])
    assert game.pending is None  # the second builder may not follow in the same turn
    assert game.state.players[RED].hand[card("architect")] == 1
    assert game.state.provinces[abydos].stones == 2 and game.state.provinces[thebes].pyramids == 1


def test_r_mkt_07_cards_sell_for_one_gold_the_theft_card_never():
    thebes = pid("Thebes")
    game = _market_game({"gold": 2, "hand": {"master_of_farmers": 1}, "provinces": {"Thebes": {}}})
    run(game, ["market"], [0, 0, Ask(RED, "buy_stones", 2)])  # 3 gold: 2 + the card sold
    assert game.pending is None
    state = game.state
    assert state.players[RED].gold == 0 and sum(state.players[RED].hand) == 0
    assert state.discard == [card("master_of_farmers")] and state.provinces[thebes].stones == 2
    # gold 0 and only a theft card: nothing can be bought, nothing is asked
    game = _market_game({"gold": 0, "theft": 1, "provinces": {"Thebes": {}}})
    run(game, ["market"])
    assert game.pending is None and game.state.players[RED].theft == 1


# ---------------------------------------------------------------------------------------
# Offering (sacrifice)
# ---------------------------------------------------------------------------------------
def test_r_off_01_secret_offer_of_gold_or_theft_with_an_optional_adjustment():
    players = seats(3, gold=3, theft=1)
    players[RED]["hand"] = {"offering_adjustment": 1}
    game = game_of(players)
    run(game, ["offering"], [Ask(RED, "sell_for_offering", None)])  # open sales come first
    request = game.pending
    assert request.player == RED and request.simultaneous
    assert set(request.options) == {("gold", a, adj) for a in (1, 2, 3) for adj in (0, 1)} | {
        ("theft", 0, 0), ("theft", 0, 1)}
    feed(game, [("gold", 3, 1)])
    # the next player's request shows nothing of red's offer
    assert game.pending.player == BLACK and game.pending.context == {}
    assert set(game.pending.options) == {("gold", 1, 0), ("gold", 2, 0), ("gold", 3, 0), ("theft", 0, 0)}
    assert game.state.players[RED].gold == 3  # nothing is paid before every offer is in


def test_r_off_01_secret_offers_stay_sealed_until_the_reveal():
    players = seats(3, gold=5, theft=1)
    game = game_of(players)
    events = []
    game.listen(events.append)
    run(game, ["offering"])
    feed(game, [("gold", 4, 0)])
    # what the next player could look at: the public answers and the events so far
    assert game.pending.player == BLACK
    assert game.answers == [] and not any(e["event"] == "answer" for e in events)
    feed(game, [("gold", 2, 0), ("theft", 0, 0)])
    # revealed together, in the order given, before the total is announced
    answers = [e for e in events if e["event"] == "answer"]
    assert [tuple(a["answer"]) for a in answers] == [("gold", 4, 0), ("gold", 2, 0), ("theft", 0, 0)]
    assert game.answers == [("gold", 4, 0), ("gold", 2, 0), ("theft", 0, 0)]
    kinds = [e["event"] for e in events]
    assert kinds.index("offers") > max(i for i, k in enumerate(kinds) if k == "answer")


def test_r_mkt_07_cards_are_sold_openly_for_gold_before_the_secret_offers():
    players = seats(3, gold=2, theft=1)
    players[BLACK]["hand"] = {"architect": 2, "treasury": 1}
    game = game_of(players)
    events = []
    game.listen(events.append)
    run(game, ["offering"])
    request = game.pending  # red holds no card: black is the first asked
    assert request.player == BLACK and request.kind == "sell_for_offering" and not request.simultaneous
    assert request.options == [None, card("architect"), card("treasury")]
    feed(game, [card("architect"), card("treasury"), None])
    black = game.state.players[BLACK]
    assert black.gold == 4 and sum(black.hand) == 1 and game.state.discard == [card("architect"), card("treasury")]
    assert [e["player"] for e in events if e["event"] == "sell"] == [BLACK, BLACK]  # in the open
    assert game.pending.kind == "offer" and game.pending.player == RED
    feed(game, [("gold", 2, 0)])
    assert max(o[1] for o in game.pending.options if o[0] == "gold") == 4  # black offers what he raised


def test_r_off_02_total_minus_three_per_theft_then_adjustments_in_turn_order():
    players = seats(3, gold=10, theft=1)
    players[RED]["hand"] = {"offering_adjustment": 1}
    players[BLUE]["hand"] = {"offering_adjustment": 1}
    game = game_of(players)
    events = []
    game.listen(events.append)
    run(game, ["offering"], [
        Ask(RED, "sell_for_offering", None), Ask(BLUE, "sell_for_offering", None),
        ("gold", 10, 1), ("gold", 4, 0), ("theft", 0, 1),
        Ask(RED, "adjust", 3),  # 11 -> 14
        Ask(BLUE, "adjust", -3),  # 14 -> 11
    ])
    assert [e["total"] for e in events if e["event"] == "offering_total"] == [10 + 4 - 3]
    assert [(e["player"], e["total"]) for e in events if e["event"] == "adjust"] == [(RED, 14), (BLUE, 11)]
    assert game.state.offering_level == 2
    assert game.state.discard.count(card("offering_adjustment")) == 2
    # the adjustment changes the total, not the offer: red (10) still ranks first
    assert game.state.start_player == RED


@pytest.mark.parametrize("total,level", [(-12, 1), (2, 1), (3, 2), (7, 2), (12, 2), (13, 3), (22, 3), (23, 4), (60, 4)])
def test_r_off_03_level_from_total(total, level):
    assert level_for(total, (3, 13, 23)) == level


@pytest.mark.parametrize("offers,level", [((10, 10, 3), 4), ((10, 9, 3), 3), ((1, 1, 1), 2), ((1, 1, "theft"), 1)])
def test_r_off_03_level_set_by_the_offering_rule(offers, level):
    game = game_of(seats(3, gold=10, theft=1))
    run(game, ["offering"], [("theft", 0, 0) if o == "theft" else ("gold", o, 0) for o in offers])
    finish(game)
    assert game.state.offering_level == level


def test_r_off_04_rewards_three_two_one_ties_by_turn_order_thieves_nothing():
    game = game_of(seats(4, gold=10, theft=1))
    run(game, ["offering"], [("gold", 5, 0), ("gold", 5, 0), ("gold", 2, 0), ("theft", 0, 0)])
    assert game.pending is None  # no provinces: every item is a card
    assert [sum(p.hand) for p in game.state.players] == [3, 2, 1, 0]


def test_r_off_04_reward_items_farmers_on_empty_fields_stones_build_at_once():
    baharya, berenike, memphis = pid("Baharya"), pid("Berenike"), pid("Memphis")
    players = seats(3, gold=10, theft=1)
    players[RED].update(hand={"architect": 1, "free_farmer": 1}, provinces={
        "Baharya": {"farmers": 1}, "Berenike": {}, "Memphis": {"farmers": 2, "stones": 2}})
    game = game_of(players)
    requests = run(game, ["offering"], [
        Ask(RED, "sell_for_offering", None),
        ("gold", 5, 0), ("theft", 0, 0), ("theft", 0, 0),
        Ask(RED, "reward", ("stone", memphis)),
        Ask(RED, "reward", ("farmer", baharya)),
        Ask(RED, "reward", "card"),
    ])
    assert set(requests[4].options) == {
        "card", ("farmer", baharya), ("stone", baharya), ("stone", berenike), ("stone", memphis)}
    assert ("farmer", baharya) not in requests[6].options  # BAHARYA's fields are now full
    assert game.pending is None  # no builder or free farmer during rewards
    state = game.state
    assert (state.provinces[memphis].stones, state.provinces[memphis].pyramids) == (0, 1)
    assert state.provinces[baharya].farmers == 2
    assert state.players[RED].hand[card("architect")] == 1 and sum(state.players[RED].hand) == 3


def test_r_off_05_highest_offer_starts_gold_to_bank_thieves_take_three():
    game = game_of(seats(4, gold=10, theft=1), start_player="black")
    run(game, ["offering"], [
        Ask(BLACK, "offer", ("gold", 3, 0)), Ask(BLUE, "offer", ("gold", 7, 0)),
        Ask(WHITE, "offer", ("gold", 7, 0)), Ask(RED, "offer", ("theft", 0, 0)),
    ])
    state = game.state
    assert state.start_player == BLUE  # tied with white, earlier from the old start player
    assert [p.gold for p in state.players] == [13, 7, 3, 3]
    assert state.bank_paid == 17 and state.bank_given == 3
    assert [p.theft for p in state.players] == [1, 1, 1, 1]
    assert [sum(p.hand) for p in state.players] == [0, 1, 3, 2]
    assert state.offering_level == 3  # 3 + 7 + 7 - 3 = 14


def test_r_off_06_everyone_steals_nobody_rewarded_start_player_unchanged():
    game = game_of(seats(4, gold=10, theft=1), start_player=2)
    run(game, ["offering"], [("theft", 0, 0)] * 4)
    assert game.pending is None
    state = game.state
    assert state.start_player == 2
    assert state.offering_level == 1  # -12
    assert [p.gold for p in state.players] == [13, 13, 13, 13]
    assert [sum(p.hand) for p in state.players] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------------------
# Harvest
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("level,caravan", [(1, 7), (2, 7), (3, 0), (4, 0)])
def test_r_har_01_farmers_pay_the_level_mines_always_caravans_with_a_camel(level, caravan):
    players = seats(3)
    players[RED]["provinces"] = {"Sawu": {"farmers": 1}, "Abu": {"farmers": 2}}
    players[BLACK]["provinces"] = {"Berenike": {"free_farmers": 1}}
    game = game_of(players, offering_level=level)
    run(game, ["harvest"])
    assert game.state.players[RED].gold == 3 * level + 4 + caravan
    assert game.state.players[BLACK].gold == level + 8


def test_r_har_01_income_from_the_start_player_clockwise():
    players = seats(4)
    for p, name in enumerate(("Abu", "Kharga", "Memphis", "Thebes")):
        players[p]["provinces"] = {name: {"farmers": 1}}
    game = game_of(players, offering_level=2, start_player=2)
    events = []
    game.listen(events.append)
    run(game, ["harvest"])
    assert [(e["player"], e["amount"]) for e in events if e["event"] == "gold"] == [(2, 2), (3, 2), (0, 2 + 4), (1, 2 + 5)]


def test_r_har_02_treasury_replaces_one_province_and_big_harvest_adds_per_farmer():
    abu, sawu = pid("Abu"), pid("Sawu")
    players = seats(3)
    players[RED].update(hand={"treasury": 1, "big_harvest": 1},
                        provinces={"Abu": {"farmers": 2}, "Sawu": {"farmers": 1}})
    game = game_of(players, offering_level=2)
    requests = run(game, ["harvest"], [Ask(RED, "treasury", sawu), Ask(RED, "big_harvest", abu)])
    assert requests[0].options == [None, abu, sawu]
    # SAWU (2 + 7) replaced by 8; ABU 2 farmers x (2 + 1) + mine 4
    assert game.state.players[RED].gold == 8 + 6 + 4
    assert sum(game.state.players[RED].hand) == 0
    # without the cards: 2 x 2 + 4 + 2 + 7
    players[RED]["hand"] = {}
    game = game_of(players, offering_level=2)
    run(game, ["harvest"])
    assert game.state.players[RED].gold == 17


# ---------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------
def test_r_sco_01_temples_score_the_level():
    players = seats(3)
    players[BLACK]["provinces"] = {"Damanhur": {}}  # 2 temples: the rulebook's 6 points at space 3
    players[BLUE]["provinces"] = {"Edfu": {}, "Amarna": {}}
    points, _ = sheet_points(players, offering_level=3)
    assert points["temples"] == [0, 6, 6]
    points, _ = sheet_points(players, offering_level=1)
    assert points["temples"] == [0, 2, 2]


def test_r_sco_02_one_point_per_pyramid_a_double_counts_two():
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"doubles": 1, "pyramids": 1}, "Thebes": {"pyramids": 1, "stones": 2}}
    points, _ = sheet_points(players, unowned={"Abu": {"doubles": 2}})
    assert points["pyramids"] == [4, 0, 0]  # unowned pyramids score for nobody


@pytest.mark.parametrize("counts,sets", [((2, 2, 3), 2), ((1, 0, 5), 0), ((4, 4, 4), 4), ((1, 1, 1), 1)])
def test_r_sco_03_three_points_per_complete_set(counts, sets):
    players = seats(3)
    players[RED]["provinces"] = {
        name: {"doubles": c // 2, "pyramids": c % 2} for name, c in zip(("Memphis", "Thebes", "Abu"), counts)}
    points, _ = sheet_points(players)
    assert points["complete_sets"] == [3 * sets, 0, 0]


def _sets_vs_fewest(players):
    """Points per player from complete_sets (classic2003) and fewest_pyramids (2016) on one state."""
    variant = classic()
    state = state_of(players, supplies={"pyramids": 0, "doubles": 0})
    fewest = get_rule("fewest_pyramids")(RuleSpec("fewest_pyramids", "fewest", FewestParams(points=3)), variant)
    results = []
    for rule in ("complete_sets", fewest):
        game = Game.from_state(variant, state.clone())
        run(game, [rule])
        results.append([p.score for p in game.state.players])
    return results


def _positions(data, n, per_player):
    names = data.draw(st.permutations([p.name for p in classic().board.provinces]))
    players = seats(n)
    for p in range(n):
        counts = data.draw(st.lists(st.integers(0, 5), min_size=per_player[p], max_size=per_player[p]))
        players[p]["provinces"] = {
            names[3 * p + i]: {"doubles": c // 2, "pyramids": c % 2} for i, c in enumerate(counts)}
    return players


@given(n=st.integers(3, 5), data=st.data())
def test_r_sco_03_complete_sets_and_fewest_pyramids_agree_with_three_provinces(n, data):
    players = _positions(data, n, [3] * n)
    sets, fewest = _sets_vs_fewest(players)
    assert sets == fewest


@given(n=st.integers(3, 5), data=st.data())
def test_r_sco_03_complete_sets_and_fewest_pyramids_differ_with_fewer_provinces(n, data):
    held = data.draw(st.lists(st.integers(1, 2), min_size=n, max_size=n))
    players = _positions(data, n, held)
    sets, fewest = _sets_vs_fewest(players)
    assert sets == [0] * n  # fewer than 3 provinces: no complete set
    for p in range(n):
        least = min(v.get("pyramids", 0) + 2 * v.get("doubles", 0) for v in players[p]["provinces"].values())
        assert fewest[p] == 3 * least  # ... but the 2016 rule scores the weakest province


def test_r_sco_03_differ_example():
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"pyramids": 1}, "Thebes": {"doubles": 1}}
    assert _sets_vs_fewest(players) == [[0, 0, 0], [3, 0, 0]]


def test_r_sco_04_nile_sides_most_pyramids_then_stones_then_shared():
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"doubles": 1}, "Thebes": {"pyramids": 1}}  # west 2, east 1
    players[BLACK]["provinces"] = {"Abydos": {"doubles": 1, "stones": 1}, "Mendes": {}}  # west 2 + 1 stone
    players[BLUE]["provinces"] = {"Abu": {"pyramids": 1}, "Buto": {}}  # east 1
    points, sheet = sheet_points(players)
    nile = next(i for i in sheet.items if i.key == "nile_sides")
    assert nile.details == {"nile_sides_west": (0, 5, 0), "nile_sides_east": (5, 0, 5)}
    assert points["nile_sides"] == [5, 5, 5]


def test_r_sco_04_a_side_without_pyramids_scores_nobody():
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"stones": 2}}
    players[BLACK]["provinces"] = {"Thebes": {"pyramids": 1}}
    points, _ = sheet_points(players, unowned={"Abydos": {"doubles": 3}})
    assert points["nile_sides"] == [0, 5, 0]  # west: no owned pyramid; unowned ABYDOS does not compete


@pytest.mark.parametrize("kind,provinces,met", [
    ("master_of_scribes", ("Memphis", "Edfu", "Buto"), True),  # 3 + (2 + 1) + (0 + 1) = 7
    ("master_of_scribes", ("Memphis", "Edfu", "Mendes"), False),  # 6
    ("upper_lower", ("Edfu", "Abu", "Thebes"), True),
    ("upper_lower", ("Edfu", "Abu", "Memphis"), False),
    ("upper_lower", ("Buto", "Mendes", "Memphis"), True),
    ("west_east", ("Edfu", "Abydos", "Kharga"), True),
    ("west_east", ("Edfu", "Abydos", "Abu"), False),
    ("nile_frontier", ("Sawu", "Berenike", "Kharga"), True),  # none on the Nile also counts
    ("nile_frontier", ("Edfu", "Abu", "Thebes"), True),
    ("nile_frontier", ("Edfu", "Abu", "Sawu"), False),
])
def test_r_sco_05_bonus_card_conditions(kind, provinces, met):
    variant = classic()
    players = seats(3)
    players[RED]["provinces"] = {name: {} for name in provinces}
    state = state_of(players)
    assert bonus_met(kind, state, variant.board.provinces, state.players[RED].provinces, BonusParams()) is met


@pytest.mark.parametrize("free,met", [(1, True), (0, False)])
def test_r_sco_05_farmer_bonus_counts_free_farmers(free, met):
    players = seats(3)
    players[RED].update(hand={"master_of_farmers": 1}, provinces={
        "Thebes": {"farmers": 4}, "Buto": {"farmers": 4}, "Memphis": {"free_farmers": free}})
    points, _ = sheet_points(players)
    assert points["bonus_cards"] == [3 if met else 0, 0, 0]


def test_r_sco_05_one_card_of_each_kind_per_scoring_and_discarded():
    players = seats(3)
    players[RED].update(hand={"upper_lower": 2, "west_east": 1}, provinces={"Edfu": {}, "Abu": {}, "Thebes": {}})
    game = game_of(players)
    requests = run(game, ["bonus_cards"], [Ask(RED, "play_bonus", "upper_lower"), Ask(RED, "play_bonus", "west_east")])
    assert requests[0].options == [None, "upper_lower", "west_east"]
    assert game.pending is None  # the second upper/lower card cannot follow in this scoring
    red = game.state.players[RED]
    assert red.score == 3 + 0  # west/east not met: played for nothing
    assert red.hand[card("upper_lower")] == 1 and red.hand[card("west_east")] == 0
    assert sorted(game.state.discard) == sorted([card("upper_lower"), card("west_east")])


@pytest.mark.parametrize("golds,points", [
    ([30, 30, 12, 4], [6, 6, 2, 0]),
    ([30, 12, 12, 4], [6, 4, 4, 0]),
    ([10, 10, 10, 1], [6, 6, 6, 0]),
    ([9, 8, 7, 6, 5], [6, 4, 2, 0, 0]),
    ([5, 5, 5], [6, 6, 6]),
])
def test_r_sco_06_gold_ranking_ties_push_next_ranks_down(golds, points):
    assert gold_ranking(golds, (6, 4, 2)) == points
    players = seats(len(golds))
    for p, g in enumerate(golds):
        players[p]["gold"] = g
    table, sheet = sheet_points(players, final=True)
    assert table["gold_ranking"] == points


def test_r_sco_06_gold_only_at_the_last_kingdom_after_selling_cards():
    players = seats(3, gold=10)
    players[BLACK].update(gold=9, hand={"architect": 2})
    table, _ = sheet_points(players)
    assert "gold_ranking" not in table  # a kingdom scoring without the final items
    table, _ = sheet_points(players, final=True)
    assert table["gold_ranking"] == [6, 2, 6]
    state = state_of(players)
    sheet = score_position(classic(), state, final=True, answers={"sell_cards": "all"})
    assert sheet.points(BLACK)["gold_ranking"] == 6 and sheet.points(RED)["gold_ranking"] == 4  # 11 > 10


# ---------------------------------------------------------------------------------------
# Illegal answers leave the state unchanged
# ---------------------------------------------------------------------------------------
def _at_bid():
    return auction_game(seats(4, gold=5), ["Buto", "Mendes", "Avaris", "Kharga"])


def _at_buy_cards():
    return _started(_market_game({"gold": 30, "provinces": {"Memphis": {}, "Berenike": {}}}), ["market"])


def _at_offer():
    return _started(game_of(seats(3, gold=4)), ["offering"])


def _at_treasury():
    players = seats(3)
    players[RED].update(hand={"treasury": 1}, provinces={"Abu": {}, "Sawu": {}})
    return _started(game_of(players, offering_level=2), ["harvest"])


def _at_bonus():
    players = seats(3)
    players[RED].update(hand={"upper_lower": 1}, provinces={"Edfu": {}})
    return _started(game_of(players), ["bonus_cards"])


def _started(game, rules):
    game.run_rules(rules)
    return game


@pytest.mark.parametrize("make,bad,good", [
    (_at_bid, (pid("Buto"), 6, ()), (pid("Buto"), 3, ())),  # more than 5 gold
    (_at_bid, (pid("Buto"), 2, ()), (pid("Buto"), 1, ())),  # not a bid space
    (_at_bid, (pid("Thebes"), 0, ()), (pid("Mendes"), 0, ())),  # not on auction
    (_at_bid, (pid("Buto"), 0, (PROTECTION,)), (pid("Buto"), 0, ())),  # a card he does not hold
    (_at_bid, [pid("Buto"), 0], (pid("Buto"), 0, ())),  # wrong shape
    (_at_buy_cards, 4, 3),  # MEMPHIS allows 3
    (_at_buy_cards, True, 1),  # a bool is not a count
    (_at_offer, ("gold", 5, 0), ("gold", 4, 0)),  # more gold than he has
    (_at_offer, ("gold", 0, 0), ("gold", 1, 0)),  # at least 1
    (_at_treasury, pid("Thebes"), pid("Abu")),  # not his province
    (_at_bonus, "west_east", "upper_lower"),  # not in his hand
])
def test_illegal_answer_raises_and_leaves_the_state_unchanged(make, bad, good):
    game = make()
    request = game.pending
    before = game.state.to_dict()
    answers = list(game.answers)
    with pytest.raises(IllegalAnswerError, match="illegal answer"):
        game.answer(bad)
    assert game.state.to_dict() == before
    assert game.pending is request and game.answers == answers
    game.answer(good)  # the game goes on (a secret offer stays sealed until the reveal)
    assert game.answers_so_far() == answers + [good]
