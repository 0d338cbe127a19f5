"""Golden tests: the worked examples of the 2003 rulebook (SPEC §7, E-01..E-06).

Each drives the real rule modules of classic2003 through the engine's decision protocol
(`Game.from_state` + `run_rules`), answering exactly what the example's players do.
Seats are red, black, blue, white in clockwise order.
"""

from pathlib import Path

from helpers import BLACK, BLUE, RED, WHITE, Ask, card, classic, game_of, pid, province_deck, published, run, seats

from amunre.planning.position import read_position, score_position
from amunre.rules.gold_ranking import gold_ranking
from amunre.rules.market import price

POSITIONS = Path(__file__).parent / "positions"


def _events(game):
    events = []
    game.listen(events.append)
    return events


def test_e01_auction_example():
    """Four players bid over ABYDOS, SAWU, DAKHLA and BAHARYA, red starting."""
    abydos, sawu, dakhla, baharya = (pid(n) for n in ("Abydos", "Sawu", "Dakhla", "Baharya"))
    # everyone as after setup: 20 gold, a -3 card and a builder
    game = game_of(seats(4, gold=20, theft=1, hand={"architect": 1}), start_player="red")
    # phase 1 draws from the top (the end of the list): these four, in the example's order
    province_deck(game)[:] = [baharya, dakhla, sawu, abydos]
    events = _events(game)
    requests = run(game, ["province_draw", "auction"], [
        # 1st bidding round
        Ask(RED, "bid", (abydos, 3, ())),
        Ask(BLACK, "bid", (sawu, 1, ())),
        Ask(BLUE, "bid", (abydos, 6, ())),
        Ask(WHITE, "bid", (abydos, 10, ())),
        # 2nd: red and blue were outbid and must move; black and white pass unasked
        Ask(RED, "bid", (dakhla, 0, ())),
        Ask(BLUE, "bid", (sawu, 6, ())),
        # 3rd: black was outbid on SAWU
        Ask(BLACK, "bid", (baharya, 0, ())),
    ])
    assert game.pending is None  # one bid per card: the auction is over
    state = game.state
    assert published(state, "on_auction") == []
    # the drawn provinces carried their immediate bonus: DAKHLA 12 gold + 1 card, ABYDOS 1 stone
    assert [e["provinces"] for e in events if e["event"] == "provinces"] == [[abydos, sawu, dakhla, baharya]]
    # a player leaving a card may not bid on it again
    assert all(option[0] != abydos for option in requests[4].options)
    # red is asked with the bid board as everyone sees it (every marker, no protection)
    assert requests[4].context == {"moving_from": abydos, "protected": [], "bids": [
        [RED, abydos, 3], [BLACK, sawu, 1], [BLUE, abydos, 6], [WHITE, abydos, 10]]}
    # ownership
    owners = {name: state.provinces[pid(name)].owner for name in ("Abydos", "Sawu", "Dakhla", "Baharya")}
    assert owners == {"Abydos": WHITE, "Sawu": BLUE, "Dakhla": RED, "Baharya": BLACK}
    assert [p.provinces for p in state.players] == [[dakhla], [baharya], [sawu], [abydos]]
    # payments: white 10, blue 6, red and black nothing
    paid = {e["player"]: e["amount"] for e in events if e["event"] == "pay"}
    assert paid == {WHITE: 10, BLUE: 6}
    assert state.bank_paid == 16
    # DAKHLA gives red its 12 gold and its face-down card
    assert [p.gold for p in state.players] == [20 + 12, 20, 20 - 6, 20 - 10]
    assert sum(state.players[RED].hand) == 2  # the builder and the free card
    assert [sum(p.hand) for p in state.players[1:]] == [1, 1, 1]
    assert state.provinces[dakhla].gold == 0 and state.provinces[dakhla].cards == []
    # ABYDOS' free building stone stays in the province for white
    assert state.provinces[abydos].stones == 1 and state.provinces[abydos].pyramids == 0


def test_e02_market_price_example():
    """2 power cards (3) + 4 farmers (10) + 3 building stones (6) = 19 gold in one market turn."""
    memphis, thebes = pid("Memphis"), pid("Thebes")
    players = seats(4)
    players[RED] = {"name": "red", "gold": 19, "theft": 0,
                    "provinces": {"Memphis": {}, "Thebes": {}}}
    game = game_of(players, start_player="red")
    game.state.deck = [card("big_harvest"), card("treasury")]  # bought cards come off the top
    run(game, ["market"], [
        Ask(RED, "buy_cards", 2),
        Ask(RED, "buy_farmers", 4),
        # (a placement with only one legal province is forced, not asked: fill MEMPHIS last)
        Ask(RED, "place_farmer", thebes), Ask(RED, "place_farmer", thebes),
        Ask(RED, "place_farmer", memphis), Ask(RED, "place_farmer", memphis),
        Ask(RED, "buy_stones", 3),
        Ask(RED, "place_stone", thebes), Ask(RED, "place_stone", thebes), Ask(RED, "place_stone", thebes),
    ])
    assert game.pending is None  # the other players own nothing and have no gold: not asked
    state = game.state
    assert state.players[RED].gold == 0
    assert state.bank_paid == 19 == price(2) + price(4) + price(3)
    assert state.players[RED].hand[card("treasury")] == 1 and state.players[RED].hand[card("big_harvest")] == 1
    assert state.provinces[memphis].farmers == 2 and state.provinces[thebes].farmers == 2
    assert state.provinces[thebes].pyramids == 1 and state.provinces[thebes].stones == 0


def test_e02_market_price_example_8_and_9_items():
    """8 items of a kind cost 36 gold, 9 cost 45: 8 farmers then 9 stones for 81 gold."""
    buto, thebes = pid("Buto"), pid("Thebes")  # 5 + 4 field spaces
    players = seats(4)
    players[RED] = {"name": "red", "gold": 81, "theft": 0, "provinces": {"Buto": {}, "Thebes": {}}}
    game = game_of(players, start_player="red")
    requests = run(game, ["market"], [Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 8)]
                   + [Ask(RED, "place_farmer", thebes)] * 3 + [Ask(RED, "place_farmer", buto)] * 5
                   + [Ask(RED, "buy_stones", 9)] + [Ask(RED, "place_stone", thebes)] * 6
                   # the second pyramid: red swaps the two singles for a double (A-DOUBLESWAP, 2003 optional)
                   + [Ask(RED, "double_swap", True)] + [Ask(RED, "place_stone", thebes)] * 3)
    assert game.pending is None
    assert max(requests[1].options) == 9  # 9 free fields, 45 <= 81
    assert max(requests[10].options) == 9  # 45 gold left: 9 stones (10 would cost 55)
    state = game.state
    assert state.players[RED].gold == 0 and state.bank_paid == 36 + 45
    # 9 stones in one province: three pyramids, the first two merged into a double
    assert (state.provinces[thebes].doubles, state.provinces[thebes].pyramids,
            state.provinces[thebes].stones) == (1, 1, 0)


def test_e03_stones_example():
    """MEMPHIS 2 stones, MENDES 1 pyramid + 1 stone; red buys 3 stones: a pyramid in MEMPHIS,
    and in MENDES a second pyramid, swapped for a double."""
    memphis, mendes = pid("Memphis"), pid("Mendes")
    players = seats(4)
    players[RED] = {"name": "red", "gold": 6, "theft": 0, "provinces": {
        "Memphis": {"stones": 2}, "Mendes": {"stones": 1, "pyramids": 1}}}
    game = game_of(players, start_player="red")
    supply = (game.state.supply_stones, game.state.supply_pyramids, game.state.supply_doubles)
    run(game, ["market"], [
        Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0),
        Ask(RED, "buy_stones", 3),
        Ask(RED, "place_stone", memphis),
        Ask(RED, "place_stone", mendes), Ask(RED, "place_stone", mendes),
        Ask(RED, "double_swap", True),  # "he replaces them with a double pyramid" (he may: A-DOUBLESWAP)
    ])
    assert game.pending is None
    state = game.state
    assert state.players[RED].gold == 0
    m, d = state.provinces[memphis], state.provinces[mendes]
    assert (m.stones, m.pyramids, m.doubles) == (0, 1, 0)
    assert (d.stones, d.pyramids, d.doubles) == (0, 0, 1)
    # 3 stones bought, 6 returned; a single taken for MEMPHIS, MENDES' single returned for a double
    assert (state.supply_stones, state.supply_pyramids, state.supply_doubles) == (
        supply[0] - 3 + 6, supply[1] - 1 + 1, supply[2] - 1)


def test_e04_sacrifice_example():
    """Offers red 9, blue 4, black -3, white -3: total 7, the Amun-Re temple on space 2."""
    game = game_of(seats(4, gold=20, theft=1), start_player="black")
    events = _events(game)
    # secret offers from the starting player (black) clockwise: four answers
    run(game, ["offering"], [
        Ask(BLACK, "offer", ("theft", 0, 0)),
        Ask(BLUE, "offer", ("gold", 4, 0)),
        Ask(WHITE, "offer", ("theft", 0, 0)),
        Ask(RED, "offer", ("gold", 9, 0)),
    ])
    # nobody owns a province, so every reward item is a card: no more decisions
    assert game.pending is None
    state = game.state
    assert [e["total"] for e in events if e["event"] == "offering_total"] == [9 + 4 - 3 - 3] == [7]
    assert published(state, "offering_level") == 2
    assert state.start_player == RED  # highest offer takes the pharaoh
    assert [p.gold for p in state.players] == [20 - 9, 20 + 3, 20 - 4, 20 + 3]
    assert [sum(p.hand) for p in state.players] == [3, 0, 2, 0]  # highest 3 items, second 2, thieves none
    assert published(state, "theft_cards") == [1, 1, 1, 1]  # thieves keep their -3 card


def test_e05_harvest_example():
    """Level 2; red owns MEMPHIS (1 farmer), ABU (2 farmers, mine 4) and SAWU (caravan 7): 17 gold."""
    players = seats(4)
    players[RED]["provinces"] = {"Memphis": {"farmers": 1}, "Abu": {"farmers": 2}, "Sawu": {}}
    game = game_of(players, offering_level=2)
    run(game, ["harvest"])
    assert game.pending is None  # no 8-gold or harvest-increase card: nothing to decide
    assert game.state.players[RED].gold == 2 + 4 + 4 + 7 == 17
    assert [p.gold for p in game.state.players[1:]] == [0, 0, 0]


def test_e06_final_scoring_example():
    """Blue scores 27 at the end of the New Kingdom (position: tests/positions/e06_final_scoring.toml)."""
    variant = classic()
    position = read_position(POSITIONS / "e06_final_scoring.toml", variant)
    blue = position.names.index("blue")
    sheet = score_position(variant, position.state, final=True, names=position.names)
    assert sheet.points(blue) == {
        "temples": 1,  # 1 temple in EDFU x space 1
        "pyramids": 7,
        "complete_sets": 3,
        "nile_sides": 10,  # both sides
        "bonus_cards": 6,  # 2 bonus cards met
        "gold_ranking": 0,  # least gold of 4
    }
    assert sheet.gained(blue) == 27
    bonus = next(item for item in sheet.items if item.key == "bonus_cards")
    assert {k: v[blue] for k, v in bonus.details.items()} == {
        "bonus_cards:upper_lower": 3, "bonus_cards:nile_frontier": 3}
    assert sheet.totals[blue] == 24 + 27
    assert [sheet.names[p] for p in sheet.winners] == ["blue"]
    # the unmet west/east card was not played: still in blue's hand in the position
    assert position.state.players[blue].hand[card("west_east")] == 1


def test_e06_gold_tie_example():
    """Two players tie for the most gold: both score 6, the next scores only 2."""
    assert gold_ranking([30, 30, 12, 4], (6, 4, 2)) == [6, 6, 2, 0]
    variant = classic()
    position = read_position(POSITIONS / "e06_final_scoring.toml", variant)
    sheet = score_position(variant, position.state, final=True, names=position.names)
    gold = next(item for item in sheet.items if item.key == "gold_ranking")
    # red 30, black 30, blue 4, white 12
    assert dict(zip(sheet.names, gold.points)) == {"red": 6, "black": 6, "blue": 0, "white": 2}
