"""Golden tests: the worked examples of the 2016 edition (EDITIONS.md §4, G16-01..G16-13),
run against the `supermeeple2016` variant. SPEC §7 names two of them: E-07 (the auction
example and the beginning-of-game example) and E-08 (the offering tie).

Each drives the real rule modules of the 2016 variant through the engine's decision protocol
(`Game.from_state` + `run_rules`), answering what the example's players do, and checks the
figures EDITIONS.md gives. Seats are listed clockwise, as in each example. Where an example
gives no gold, the setup state (20 gold, 1 Theft card, 1 Architect) is assumed, as
EDITIONS.md §4 does.
"""

from pathlib import Path

import pytest
from helpers import (
    Ask,
    card,
    edition2016,
    feed,
    game_of,
    named_seats,
    pid,
    province_deck,
    publish,
    published,
    run,
    state_of,
)

from amunre.core.engine import Game
from amunre.planning.position import read_position, score_position
from amunre.rules.market import price
from amunre.rules.offering import level_for

POSITIONS = Path(__file__).parent / "positions"
SETUP = {"gold": 20, "theft": 1, "hand": {"architect": 1}}  # what every player holds after set-up


def v16():
    return edition2016()


def p16(name: str) -> int:
    return pid(name, v16())


def c16(kind: str) -> int:
    return card(kind, v16())


def _events(game):
    events = []
    game.listen(events.append)
    return events


def _step_params(variant, rule):
    return next(s for s in variant.phases + variant.scoring + variant.final_scoring if s.rule == rule).params


def _pieces(state, name):
    prov = state.provinces[p16(name)]
    return {"farmers": prov.farmers, "stones": prov.stones, "pyramids": prov.pyramids, "doubles": prov.doubles}


def _supplies(state):
    return {"farmers": state.supply_farmers, "stones": state.supply_stones,
            "pyramids": state.supply_pyramids, "doubles": state.supply_doubles}


# ---------------------------------------------------------------------------------------
# G16-01 (E-07, first half): the auction example over Thebes, Dakhla and Abydos
# ---------------------------------------------------------------------------------------
SEB, ARNAUD, CHARLES = range(3)


def test_e07_g16_01_auction_example():
    """The Auction Phase example: three players over Thebes, Dakhla and Abydos. The outbid
    player must leave the card he lost, and the auction stops at once when every card holds
    one pawn; the immediate bonuses go to the new owners after they pay."""
    thebes, dakhla, abydos = p16("Thebes"), p16("Dakhla"), p16("Abydos")
    game = game_of(named_seats(("Seb", "Arnaud", "Charles"), **SETUP), v16(), start_player="Seb")
    province_deck(game)[:] = [abydos, dakhla, thebes]  # drawn from the top (the end)
    stones = game.state.supply_stones
    events = _events(game)
    game.run_rules(["province_draw"])
    state = game.state
    # the draw places the immediate bonuses on the cards
    assert published(state, "round_provinces") == [thebes, dakhla, abydos]
    assert len(state.provinces[thebes].cards) == 2
    assert len(state.provinces[dakhla].cards) == 1 and state.provinces[dakhla].gold == 12
    assert state.provinces[abydos].stones == 1 and state.supply_stones == stones - 1 == 14
    requests = run(game, ["auction"], [
        Ask(SEB, "bid", (dakhla, 10, ())),
        Ask(ARNAUD, "bid", (thebes, 3, ())),
        Ask(CHARLES, "bid", (thebes, 6, ())),
        # Seb holds Dakhla unchallenged: she passes without being asked
        Ask(ARNAUD, "bid", (abydos, 0, ())),
    ])
    # Arnaud, outbid and without Bribery, may not stay on Thebes
    assert requests[3].context == {"moving_from": thebes, "protected": [], "bids": [
        [SEB, dakhla, 10], [ARNAUD, thebes, 3], [CHARLES, thebes, 6]]}
    assert not any(option[0] == thebes for option in requests[3].options)
    assert game.pending is None  # one pawn per card: over, Charles is not asked again
    assert {name: state.provinces[p16(name)].owner for name in ("Dakhla", "Thebes", "Abydos")} == {
        "Dakhla": SEB, "Thebes": CHARLES, "Abydos": ARNAUD}
    assert {e["player"]: e["amount"] for e in events if e["event"] == "pay"} == {SEB: 10, CHARLES: 6}
    assert state.bank_paid == 16 and state.bank_given == 12
    assert [p.gold for p in state.players] == [20 - 10 + 12, 20, 20 - 6] == [22, 20, 14]
    assert [sum(p.hand) for p in state.players] == [2, 1, 3]
    assert (state.provinces[abydos].stones, state.provinces[abydos].pyramids) == (1, 0)
    # the bonuses left the cards, and the three province cards are used (the discard pile)
    assert all(not state.provinces[i].cards and not state.provinces[i].gold for i in (thebes, dakhla, abydos))
    assert published(state, "on_auction") == []
    assert sorted(state.rules["province_draw"]["used"]) == sorted([thebes, dakhla, abydos])


# ---------------------------------------------------------------------------------------
# G16-02: back to a card one was outbid on earlier
# ---------------------------------------------------------------------------------------
def test_g16_02_an_outbid_player_may_return_to_an_earlier_card():
    """The overview's auction example: outbid on Avaris (by a bid that skips a space), Seb
    moves elsewhere; outbid there too, she may go back to Avaris, but never onto the card she
    is leaving. Dan and Eve are invented to complete the table (EDITIONS.md G16-02)."""
    seb, charles, dan, eve = range(4)
    avaris, sawu, kharga, mendes = (p16(n) for n in ("Avaris", "Sawu", "Kharga", "Mendes"))
    game = game_of(named_seats(("Seb", "Charles", "Dan", "Eve"), gold=20, theft=1), v16(), start_player="Seb")
    publish(game.state, "round_provinces", [avaris, sawu, kharga, mendes])
    requests = run(game, ["auction"], [
        Ask(seb, "bid", (avaris, 3, ())),
        Ask(charles, "bid", (avaris, 10, ())),  # 6 skipped: allowed
        Ask(dan, "bid", (sawu, 0, ())),
        Ask(eve, "bid", (sawu, 1, ())),
        Ask(seb, "bid", (kharga, 0, ())),
        # Charles holds Avaris: passes unasked
        Ask(dan, "bid", (kharga, 1, ())),
        # Eve holds Sawu: passes unasked
    ])
    assert requests[1].options.count((avaris, 10, ())) == 1
    request = game.pending
    assert (request.player, request.kind, request.context["moving_from"]) == (seb, "bid", kharga)
    # back onto Avaris above Charles' 10: only 15 fits her 20 gold; nothing on Kharga
    assert sorted(a for c, a, played in request.options if c == avaris) == [15]
    assert not any(c == kharga for c, a, played in request.options)
    feed(game, [Ask(seb, "bid", (avaris, 15, ()))])
    assert game.pending.player == charles and not any(c == avaris for c, a, _ in game.pending.options)
    feed(game, [Ask(charles, "bid", (mendes, 0, ()))])
    assert game.pending is None
    state = game.state
    assert [state.provinces[i].owner for i in (avaris, mendes, kharga, sawu)] == [seb, charles, dan, eve]
    assert [p.gold for p in state.players] == [20 - 15, 20, 20 - 1, 20 - 1]


# ---------------------------------------------------------------------------------------
# G16-03: the Market Phase example
# ---------------------------------------------------------------------------------------
def test_g16_03_market_example():
    """The Market Phase example: Charles, holding Thebes and Edfu, buys 1 Favor card (the
    best single province allows 2), 4 Farmers onto Thebes' fields and 3 Stones into Thebes,
    where the third becomes a Pyramid. His 17 gold is assumed (it is what he spends); he
    keeps his starting Architect, declines it after the second Stone, and the third Stone
    converts anyway."""
    thebes, edfu = p16("Thebes"), p16("Edfu")
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[1].update(gold=17, hand={"architect": 1}, provinces={"Thebes": {}, "Edfu": {}})
    game = game_of(players, v16(), start_player="Charles")
    game.state.deck = [c16("treasury"), c16("master_of_scribes")]
    before = _supplies(game.state)
    requests = run(game, ["market"], [
        Ask(1, "buy_cards", 1),
        Ask(1, "buy_farmers", 4),
        *[Ask(1, "place_farmer", thebes)] * 4,
        Ask(1, "buy_stones", 3),
        Ask(1, "place_stone", thebes), Ask(1, "place_stone", thebes),
        Ask(1, "architect", None),  # two stones in Thebes: he could build now, and does not
        Ask(1, "place_stone", thebes),
    ])
    assert requests[0].options == [0, 1, 2]  # Thebes shows 2 Favor symbols, Edfu no more
    assert sorted(requests[2].options) == sorted([thebes, edfu])  # both have empty fields
    assert game.pending is None
    state = game.state
    charles = state.players[1]
    assert state.bank_paid == 17 == price(1) + price(4) + price(3) and charles.gold == 0
    assert _pieces(state, "Thebes") == {"farmers": 4, "stones": 0, "pyramids": 1, "doubles": 0}
    assert sum(charles.hand) == 2 and charles.hand[c16("master_of_scribes")] == 1
    assert charles.hand[c16("architect")] == 1  # still in hand: the third stone did not need it
    assert _supplies(state) == {**before, "farmers": before["farmers"] - 4, "pyramids": before["pyramids"] - 1}
    assert (before["farmers"], before["stones"], before["pyramids"]) == (48, 15, 15)


# ---------------------------------------------------------------------------------------
# G16-04 (E-08) and G16-05: the offering tie, then the harvest at level 2
# ---------------------------------------------------------------------------------------
def _tie_game():
    """The seats of G16-01 (Seb, Arnaud, Charles clockwise), Arnaud the Start Player, so the
    turn order is Arnaud, Charles, Seb. Charles holds Thebes (empty fields) and Sawu (a
    caravan); 10 gold each is enough for the offers (assumed)."""
    players = named_seats(("Seb", "Arnaud", "Charles"), gold=10, theft=1)
    players[ARNAUD]["provinces"] = {"Buto": {}}
    players[CHARLES]["provinces"] = {"Thebes": {}, "Sawu": {}}
    game = game_of(players, v16(), start_player="Arnaud")
    game.state.deck = [c16("upper_lower"), c16("west_east"), c16("nile_frontier")]  # no harvest cards
    return game


def test_e08_g16_04_offering_tie_example():
    """The example under "the new Start Player": 6 + 6 and a Theft make 9, the 3>12 tile.
    The two equal offers are split by turn order: Arnaud, earlier, keeps the Start Player
    and takes 3 Rewards, Charles 2; Seb, the thief, takes 3 gold and no Reward."""
    game = _tie_game()
    events = _events(game)
    thebes = p16("Thebes")
    requests = run(game, ["offering"], [
        Ask(ARNAUD, "offer", ("gold", 6, 0)),
        Ask(CHARLES, "offer", ("gold", 6, 0)),
        Ask(SEB, "offer", ("theft", 0, 0)),
        *[Ask(ARNAUD, "reward", "card")] * 3,
        Ask(CHARLES, "reward", ("stone", thebes)),
        Ask(CHARLES, "reward", ("farmer", thebes)),
    ])
    assert all(r.simultaneous for r in requests[:3])
    assert game.pending is None  # Seb is not rewarded
    state = game.state
    assert [e["total"] for e in events if e["event"] == "offering_total"] == [6 + 6 - 3] == [9]
    assert published(state, "offering_level") == 2  # the 3>12 tile, with a camel
    assert 2 in _step_params(v16(), "harvest").camel_levels
    assert state.start_player == ARNAUD  # kept: the tie goes to the earlier in turn order
    gold = {SEB: 10 + 3, ARNAUD: 10 - 6, CHARLES: 10 - 6}
    assert [p.gold for p in state.players] == [gold[p] for p in range(3)]
    assert state.bank_paid == 12 and state.bank_given == 3
    assert [sum(p.hand) for p in state.players] == [0, 3, 0]
    assert published(state, "theft_cards") == [1, 1, 1]  # Seb's Theft card is back in her hand
    assert _pieces(state, "Thebes") == {"farmers": 1, "stones": 1, "pyramids": 0, "doubles": 0}


def test_g16_05_harvest_after_the_offering_tie():
    """The overview's harvest example after the tie: the 3>12 tile shows a camel, so the
    caravans pay, and every farmer earns 2. Charles (Thebes with the farmer he took, Sawu's
    caravan) collects 2 + 7."""
    game = _tie_game()
    thebes = p16("Thebes")
    run(game, ["offering", "harvest"], [
        ("gold", 6, 0), ("gold", 6, 0), ("theft", 0, 0),
        "card", "card", "card", ("stone", thebes), ("farmer", thebes),
    ])
    assert game.pending is None and published(game.state, "offering_level") == 2
    assert game.state.players[CHARLES].gold == 4 + 2 + 7
    assert [game.state.players[p].gold for p in (SEB, ARNAUD)] == [13, 4]  # no income: Buto is empty


@pytest.mark.parametrize("level,caravans", [(2, True), (1, True), (3, False), (4, False)])
def test_g16_05_caravans_pay_with_a_camel_mines_always_farmers_the_level(level, caravans):
    """At 3>12 (and at the lowest tile) the camel is shown: Kharga 5, Sawu 7, Avaris 8 pay.
    Mines (Abu 4, Berenike 8) always pay; each farmer earns the tile's value."""
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[0]["provinces"] = {"Kharga": {"farmers": 1}, "Sawu": {}, "Avaris": {}}
    players[1]["provinces"] = {"Abu": {"farmers": 2}, "Berenike": {}}
    game = game_of(players, v16(), offering_level=level)
    run(game, ["harvest"])
    assert game.pending is None
    assert game.state.players[0].gold == level + ((5 + 7 + 8) if caravans else 0)
    assert game.state.players[1].gold == 2 * level + 4 + 8


# ---------------------------------------------------------------------------------------
# G16-06: the Offering tiles
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("total,level", [(10, 2), (25, 4), (13, 3), (9, 2), (2, 1), (0, 1), (-9, 1)])
def test_g16_06_offering_tile_of_a_total(total, level):
    """The collective offering picks the tile: 10 is 3>12, 25 is 23>, 13 is 13>22 (the
    beginning example), 9 is 3>12 (the tie example); 2 or less, negative too, the lowest."""
    assert level_for(total, _step_params(v16(), "offering").level_floors) == level


@pytest.mark.parametrize("offers,level", [
    ((5, 5, "theft"), 2),  # 7
    ((10, 10, 5), 4),  # 25
    ((5, 5, 3), 3),  # 13
    ((6, 6, "theft"), 2),  # 9
    (("theft", "theft", "theft"), 1),  # -9
])
def test_g16_06_offering_tile_set_by_the_offering_phase(offers, level):
    game = game_of(named_seats(("Arnaud", "Charles", "Seb"), gold=10, theft=1), v16())
    game.state.deck = [c16("upper_lower")] * 6
    run(game, ["offering"], [("theft", 0, 0) if o == "theft" else ("gold", o, 0) for o in offers])
    while game.pending is not None:  # rewards: cards only (nobody holds a province)
        game.answer(game.pending.options[0])
    assert published(game.state, "offering_level") == level


# ---------------------------------------------------------------------------------------
# G16-07 (E-07, second half): the beginning of a game, phase by phase
# ---------------------------------------------------------------------------------------
BERNARD, CHARLES4, ARNAUD4, ALEXANDRE = range(4)
BEGINNING = ("Bernard", "Charles", "Arnaud", "Alexandre")
# The Favor deck, top last: 2 cards for Thebes and 1 for Buto when they are drawn (Buto's must be
# the Offering Adjustment Arnaud offers later), then Bernard's 2 and Alexandre's 1 bought in the
# market (his must be the Treasury he plays at the harvest), then the offering's 3 rewards.
FAVOR_ORDER = ["upper_lower", "master_of_scribes",  # Thebes
               "offering_adjustment",  # Buto
               "west_east", "nile_frontier",  # bought by Bernard
               "treasury",  # bought by Alexandre
               "master_of_farmers", "upper_lower", "west_east"]  # offering rewards: Arnaud, Bernard, Charles


def _beginning_game():
    """Four players in the set-up state, the 12-card province deck with Thebes, Avaris, Buto
    and Mendes on top, and the Favor deck in the order above."""
    game = game_of(named_seats(BEGINNING, **SETUP), v16(), start_player="Bernard")
    first = [p16(n) for n in ("Thebes", "Avaris", "Buto", "Mendes")]
    others = [p16(n) for n in ("Memphis", "Abu", "Sawu", "Edfu", "Kharga", "Dakhla", "Amarna", "Abydos")]
    province_deck(game)[:] = others + first[::-1]
    game.state.deck = [c16(kind) for kind in reversed(FAVOR_ORDER)]
    return game


def _beginning_auction(game):
    thebes, avaris, buto, mendes = (p16(n) for n in ("Thebes", "Avaris", "Buto", "Mendes"))
    return run(game, ["province_draw", "auction"], [
        Ask(BERNARD, "bid", (thebes, 6, ())),
        Ask(CHARLES4, "bid", (buto, 0, ())),
        Ask(ARNAUD4, "bid", (buto, 3, ())),
        Ask(ALEXANDRE, "bid", (mendes, 3, ())),
        # Bernard leads on Thebes: passes unasked
        Ask(CHARLES4, "bid", (mendes, 6, ())),
        # Arnaud leads on Buto: passes unasked
        Ask(ALEXANDRE, "bid", (avaris, 0, ())),
    ])


def _beginning_market(game):
    mendes, avaris = p16("Mendes"), p16("Avaris")
    return run(game, ["market"], [
        # Bernard: 2 Favor cards (3), 3 farmers on Thebes (6), 1 stone (1)
        Ask(BERNARD, "buy_cards", 2),
        Ask(BERNARD, "buy_farmers", 3),  # one province: the farmers go to Thebes unasked
        Ask(BERNARD, "buy_stones", 1),
        # Charles: no Favor symbol on Mendes; 4 farmers (10), 2 stones (3), then his Architect
        Ask(CHARLES4, "buy_farmers", 4),
        Ask(CHARLES4, "buy_stones", 2),
        Ask(CHARLES4, "architect", mendes),
        # Arnaud: 3 farmers (6), 3 stones (6); he keeps his Architect and the third stone builds
        Ask(ARNAUD4, "buy_farmers", 3),
        Ask(ARNAUD4, "buy_stones", 3),
        Ask(ARNAUD4, "architect", None),
        # Alexandre: 1 Favor card (1), 1 farmer (1), 5 stones (15): the first 3 make a pyramid,
        # the Architect makes a second from the last 2, and the two singles become a double
        Ask(ALEXANDRE, "buy_cards", 1),
        Ask(ALEXANDRE, "buy_farmers", 1),
        Ask(ALEXANDRE, "buy_stones", 5),
        Ask(ALEXANDRE, "architect", None),  # after the 2nd stone: he waits
        Ask(ALEXANDRE, "architect", avaris),  # after the 5th
    ])


def test_e07_g16_07_beginning_of_a_game_1_auction():
    """The beginning-of-game example, its Auction Phase: Bernard draws Thebes, Avaris, Buto
    and Mendes from a 12-card deck (with 2 Favor cards on Thebes and 1 on Buto); two players
    are outbid and move; each card ends with one pawn."""
    game = _beginning_game()
    assert len(province_deck(game)) == 12 == 3 * 4
    _beginning_auction(game)
    assert game.pending is None
    state = game.state
    assert len(province_deck(game)) == 8
    assert [state.provinces[p16(n)].owner for n in ("Thebes", "Mendes", "Buto", "Avaris")] == [
        BERNARD, CHARLES4, ARNAUD4, ALEXANDRE]
    assert [p.gold for p in state.players] == [14, 14, 17, 20]
    assert [sum(p.hand) for p in state.players] == [3, 1, 2, 1]
    assert state.players[ARNAUD4].hand[c16("offering_adjustment")] == 1  # Buto's face-down card
    assert state.bank_paid == 6 + 6 + 3 + 0


def test_e07_g16_07_beginning_of_a_game_2_market():
    """Its Market Phase, continuing the auction (the figures add up so far): Bernard pays 10,
    Charles 13 (his Architect builds from 2 stones), Arnaud 12, Alexandre 17 (a pyramid from
    3 stones, one from 2 stones and the Architect, the two then a Double Pyramid)."""
    game = _beginning_game()
    _beginning_auction(game)
    events = _events(game)
    requests = _beginning_market(game)
    assert game.pending is None
    state = game.state
    assert requests[0].options == [0, 1, 2]  # Thebes: 2 Favor symbols
    assert not any(r.kind == "buy_cards" for r in requests if r.player in (CHARLES4, ARNAUD4))  # Mendes, Buto: none
    paid = {}
    for e in events:
        if e["event"] == "pay":
            paid[e["player"]] = paid.get(e["player"], 0) + e["amount"]
    assert paid == {BERNARD: 10, CHARLES4: 13, ARNAUD4: 12, ALEXANDRE: 17}
    assert state.bank_paid == 15 + 10 + 13 + 12 + 17 == 67
    assert [p.gold for p in state.players] == [4, 1, 5, 3]
    assert [sum(p.hand) for p in state.players] == [5, 0, 2, 1]
    assert state.players[ALEXANDRE].hand[c16("treasury")] == 1
    assert state.players[ARNAUD4].hand[c16("offering_adjustment")] == 1
    assert _pieces(state, "Thebes") == {"farmers": 3, "stones": 1, "pyramids": 0, "doubles": 0}
    assert _pieces(state, "Mendes") == {"farmers": 4, "stones": 0, "pyramids": 1, "doubles": 0}
    assert _pieces(state, "Buto") == {"farmers": 3, "stones": 0, "pyramids": 1, "doubles": 0}
    assert _pieces(state, "Avaris") == {"farmers": 1, "stones": 0, "pyramids": 0, "doubles": 1}


def _after_market(gold):
    """The position after the beginning example's market, with the gold of each player given
    (the printed offering needs more gold than the market leaves: X15)."""
    players = named_seats(BEGINNING, theft=1)
    hands = ({"upper_lower": 1, "master_of_scribes": 1, "west_east": 1, "nile_frontier": 1, "architect": 1},
             {}, {"offering_adjustment": 1, "architect": 1}, {"treasury": 1})
    provinces = ({"Thebes": {"farmers": 3, "stones": 1}}, {"Mendes": {"farmers": 4, "pyramids": 1}},
                 {"Buto": {"farmers": 3, "pyramids": 1}}, {"Avaris": {"farmers": 1, "doubles": 1}})
    for player, g, hand, owned in zip(players, gold, hands, provinces):
        player.update(gold=g, hand=hand, provinces=owned)
    return players


def _beginning_offering(game, sales=(None, None, None)):
    thebes, buto = p16("Thebes"), p16("Buto")
    bernard_sale, arnaud_sale, alexandre_sale = sales
    return run(game, ["offering"], [
        # cards are sold openly before the secret offers (Charles holds none: not asked)
        *([Ask(BERNARD, "sell_for_offering", bernard_sale)] + ([Ask(BERNARD, "sell_for_offering", None)]
                                                              if bernard_sale is not None else [])),
        *([Ask(ARNAUD4, "sell_for_offering", arnaud_sale)] + ([Ask(ARNAUD4, "sell_for_offering", None)]
                                                             if arnaud_sale is not None else [])),
        Ask(ALEXANDRE, "sell_for_offering", alexandre_sale),
        Ask(BERNARD, "offer", ("gold", 5, 0)),
        Ask(CHARLES4, "offer", ("gold", 2, 0)),
        Ask(ARNAUD4, "offer", ("gold", 6, 1)),  # with his Offering Adjustment (the text says Charles: X12)
        Ask(ALEXANDRE, "offer", ("theft", 0, 0)),
        Ask(ARNAUD4, "adjust", +3),  # 10 -> 13
        # Arnaud (6, the most): 1 Favor card and 2 farmers on Buto
        Ask(ARNAUD4, "reward", "card"), Ask(ARNAUD4, "reward", ("farmer", buto)),
        Ask(ARNAUD4, "reward", ("farmer", buto)),
        # Bernard (5, second): 1 Favor card and 1 stone on Thebes
        Ask(BERNARD, "reward", "card"), Ask(BERNARD, "reward", ("stone", thebes)),
        # Charles (2): 1 Favor card
        Ask(CHARLES4, "reward", "card"),
    ])


def test_e07_g16_07_beginning_of_a_game_3_offering():
    """Its Offering Phase, from its own position: the printed offers (Bernard 5, Charles 2,
    Arnaud 6, Alexandre's Theft) cannot follow the market, which leaves 4 / 1 / 5 / 3 gold and
    Charles no card to sell (X15). So the step starts from the state EDITIONS.md recommends:
    the board and hands after the market, gold 5 / 2 / 6 / 3. Total 10, Arnaud's Offering
    Adjustment +3 makes 13: the 13>22 tile, no camel. Arnaud becomes Start Player."""
    game = game_of(_after_market((5, 2, 6, 3)), v16(), start_player="Bernard")
    game.state.deck = [c16(kind) for kind in reversed(FAVOR_ORDER[-3:])]
    events = _events(game)
    requests = _beginning_offering(game)
    assert game.pending is None  # Alexandre, the thief, gets no reward
    state = game.state
    assert [e["total"] for e in events if e["event"] == "offering_total"] == [5 + 2 + 6 - 3] == [10]
    adjust = next(r for r in requests if r.kind == "adjust")
    assert adjust.options == [3, 0, -3] and adjust.context == {"total": 10}  # 2016: it may also stay
    assert published(state, "offering_level") == 3
    assert 3 not in _step_params(v16(), "harvest").camel_levels  # no camel on 13>22
    assert state.start_player == ARNAUD4
    assert [p.gold for p in state.players] == [0, 0, 0, 3 + 3]
    assert published(state, "theft_cards")[ALEXANDRE] == 1
    assert _pieces(state, "Buto")["farmers"] == 5
    assert _pieces(state, "Thebes")["stones"] == 2
    assert [sum(p.hand) for p in state.players] == [5 + 1, 0 + 1, 2 - 1 + 1, 1]


def test_e07_g16_07_beginning_of_a_game_4_harvest():
    """Its Harvest Phase, from the position the offering leaves: the 13>22 tile pays 3 per
    farmer and no caravan. The new Start Player leads: Arnaud 15, Alexandre plays his
    Treasury on Avaris (8, instead of its one farmer's 3; its caravan is idle), Bernard 9,
    Charles 12."""
    players = _after_market((0, 0, 0, 6))
    players[ARNAUD4]["provinces"]["Buto"]["farmers"] = 5
    players[BERNARD]["provinces"]["Thebes"]["stones"] = 2
    game = game_of(players, v16(), start_player="Arnaud", offering_level=3)
    events = _events(game)
    requests = run(game, ["harvest"], [Ask(ALEXANDRE, "treasury", p16("Avaris"))])
    assert requests[0].options == [None, p16("Avaris")]
    assert game.pending is None
    assert [(e["player"], e["amount"]) for e in events if e["event"] == "gold"] == [
        (ARNAUD4, 15), (ALEXANDRE, 8), (BERNARD, 9), (CHARLES4, 12)]
    assert game.state.players[ALEXANDRE].hand[c16("treasury")] == 0


def test_e07_g16_07_beginning_of_a_game_whole_round_with_the_documented_patch():
    """The whole first round as one chain, with the patch EDITIONS.md documents for X15:
    after the market Charles is given 1 gold (he has 1 and no card, the text has him offer
    2), and Bernard and Arnaud sell a card openly before the offers (Arnaud his Architect).
    The end-of-round table follows: gold 9 / 12 / 15 / 14, hands 5 / 1 / 1 / 0, supplies
    farmers 35, stones 13, singles 13, doubles 14; the bank took 80 and gave 49."""
    game = _beginning_game()
    _beginning_auction(game)
    _beginning_market(game)
    state = game.state
    assert [p.gold for p in state.players] == [4, 1, 5, 3]  # X15: short of 5 / 2 / 6
    state.players[CHARLES4].gold += 1  # the patch: not a move of the game
    _beginning_offering(game, sales=(c16("nile_frontier"), c16("architect"), None))
    assert state.start_player == ARNAUD4 and published(state, "offering_level") == 3
    run(game, ["harvest"], [Ask(ALEXANDRE, "treasury", p16("Avaris"))])
    assert game.pending is None
    assert [p.gold for p in state.players] == [9, 12, 15, 14]
    assert [sum(p.hand) for p in state.players] == [5, 1, 1, 0]
    assert _supplies(state) == {"farmers": 35, "stones": 13, "pyramids": 13, "doubles": 14}
    assert state.bank_paid == 80 and state.bank_given == 49
    # the next round: the new Start Player, Arnaud, draws the 4 provinces (X14)
    run(game, ["province_draw"])
    assert state.start_player == ARNAUD4 and len(published(state, "round_provinces")) == 4
    assert len(province_deck(game)) == 4


# ---------------------------------------------------------------------------------------
# G16-08, G16-09: purchase arithmetic and construction
# ---------------------------------------------------------------------------------------
def test_g16_08_one_of_each_kind_costs_three():
    """Each kind is priced on its own: 1 Favor card, 1 farmer and 1 stone cost 1 + 1 + 1."""
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[0].update(gold=3, provinces={"Thebes": {}})
    game = game_of(players, v16())
    run(game, ["market"], [Ask(0, "buy_cards", 1), Ask(0, "buy_farmers", 1), Ask(0, "buy_stones", 1)])
    assert game.pending is None
    assert game.state.bank_paid == 3 and game.state.players[0].gold == 0
    assert _pieces(game.state, "Thebes")["farmers"] == 1 and _pieces(game.state, "Thebes")["stones"] == 1


def test_g16_08_more_than_seven_of_a_kind():
    """Past the printed scale, each further item adds its number: 8 cost 28 + 8, 9 cost 36 + 9."""
    assert [price(n) for n in range(1, 8)] == [1, 3, 6, 10, 15, 21, 28]
    assert price(8) == 28 + 8 == 36 and price(9) == 36 + 9 == 45
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[0].update(gold=45, provinces={"Thebes": {}, "Buto": {}})
    game = game_of(players, v16())
    requests = run(game, ["market"], [Ask(0, "buy_cards", 0), Ask(0, "buy_farmers", 0), Ask(0, "buy_stones", 9)])
    assert max(requests[-1].options) == 9
    assert game.state.players[0].gold == 0


def test_g16_08_a_free_farmer_is_not_counted_in_the_price():
    """Three farmers bought and a Free Farmer played: 6 gold, four farmers on the board (the
    free one off the fields)."""
    thebes = p16("Thebes")
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[0].update(gold=6, hand={"free_farmer": 1}, provinces={"Thebes": {}})
    game = game_of(players, v16())
    run(game, ["market"], [Ask(0, "buy_cards", 0), Ask(0, "buy_farmers", 3), Ask(0, "free_farmer", thebes)])
    assert game.pending is None  # 0 gold left and no card: no stone to buy
    prov = game.state.provinces[thebes]
    assert game.state.bank_paid == 6 and (prov.farmers, prov.free_farmers) == (3, 1)


@pytest.mark.parametrize("provinces,most", [
    (("Baharya",), 4),  # the most Favor symbols there are
    (("Memphis", "Thebes"), 3),  # the best single province, not 3 + 2
    (("Buto", "Mendes"), 0),  # no Favor symbol: no card to buy
])
def test_g16_08_favor_cards_limited_by_the_best_province(provinces, most):
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[0].update(gold=50, provinces={name: {} for name in provinces})
    game = game_of(players, v16())
    run(game, ["market"])
    if most:
        assert game.pending.kind == "buy_cards" and game.pending.options == list(range(most + 1))
    else:
        assert game.pending.kind == "buy_farmers"


def test_g16_09_five_stones_and_an_architect_make_a_double():
    """Alexandre's construction: 5 stones into an empty province, the third makes a Pyramid,
    the last two and the Architect a second one, and a second single is replaced by a Double
    at once (2016: no choice). The supplies end with the same stones and singles, one double
    fewer."""
    avaris = p16("Avaris")
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[0].update(gold=15, hand={"architect": 1}, provinces={"Avaris": {}})
    game = game_of(players, v16())
    before = _supplies(game.state)
    requests = run(game, ["market"], [
        Ask(0, "buy_cards", 0), Ask(0, "buy_farmers", 0), Ask(0, "buy_stones", 5),
        Ask(0, "architect", None), Ask(0, "architect", avaris),
    ])
    assert [r.context for r in requests[-2:]] == [{"stones_to_place": 3}, {"stones_to_place": 0}]
    assert game.pending is None  # no double_swap question: automatic in 2016
    assert _pieces(game.state, "Avaris") == {"farmers": 0, "stones": 0, "pyramids": 0, "doubles": 1}
    assert _supplies(game.state) == {**before, "doubles": before["doubles"] - 1}


def test_g16_09_a_third_stone_converts_even_with_an_architect_in_hand():
    """The Architect's own text: a third stone placed always becomes a pyramid at once, even
    when its player holds an Architect he has not played (he declines it before buying)."""
    players = named_seats(("Arnaud", "Charles", "Seb"))
    players[0].update(gold=1, hand={"architect": 1}, provinces={"Thebes": {"stones": 2}})
    game = game_of(players, v16())
    run(game, ["market"], [Ask(0, "buy_cards", 0), Ask(0, "buy_farmers", 0),
                           Ask(0, "architect", None), Ask(0, "buy_stones", 1)])
    assert game.pending is None
    assert _pieces(game.state, "Thebes") == {"farmers": 0, "stones": 0, "pyramids": 1, "doubles": 0}
    assert game.state.players[0].hand[c16("architect")] == 1


# ---------------------------------------------------------------------------------------
# G16-10: gold ranking ties
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("golds,points", [
    ([30, 30, 12, 4], [6, 6, 2, 0]),  # the rulebook's example: two tied for the most
    ([10, 10, 10, 1], [6, 6, 6, 0]),  # three tied for the most (X11)
    ([30, 12, 12, 4], [6, 4, 4, 0]),  # a tie for second (X11)
])
def test_g16_10_gold_ranking_ties(golds, points):
    """Final Scoring: tied players all score their place and the players below move down."""
    players = named_seats(("Arnaud", "Bernard", "Charles", "Seb"), theft=1)
    for player, gold in zip(players, golds):
        player["gold"] = gold
    sheet = score_position(v16(), state_of(players, v16()), final=True)
    gold = next(item for item in sheet.items if item.key == "gold_ranking")
    assert list(gold.points) == points


# ---------------------------------------------------------------------------------------
# G16-11, G16-12: immediate bonuses, Thebes, the two halves, set-up counts
# ---------------------------------------------------------------------------------------
def test_g16_11_immediate_bonuses_on_drawing():
    """The brown boxes: Dakhla a Favor card and 12 gold, Abydos a Stone, Thebes 2 Favor cards,
    Buto 1; they lie on the drawn cards until someone takes the province."""
    names = ("Dakhla", "Abydos", "Thebes", "Buto")
    game = game_of(named_seats(("Arnaud", "Bernard", "Charles", "Seb")), v16())
    province_deck(game)[:] = [p16(n) for n in reversed(names)]
    run(game, ["province_draw"])
    state = game.state
    assert [(len(state.provinces[p16(n)].cards), state.provinces[p16(n)].stones, state.provinces[p16(n)].gold)
            for n in names] == [(1, 0, 12), (0, 1, 0), (2, 0, 0), (1, 0, 0)]


def test_g16_11_thebes_and_the_two_halves():
    """Thebes, as the overview describes it: on the Nile, east side, Upper Egypt, 2 Favor cards
    when taken, up to 2 bought, 4 farmers. The board has 7 provinces in Lower Egypt, 8 in Upper."""
    thebes = v16().board.provinces[p16("Thebes")]
    assert (thebes.nile, thebes.side, thebes.half) == (True, "east", "upper")
    assert (thebes.free_cards, thebes.card_limit, thebes.fields) == (2, 2, 4)
    halves = [p.half for p in v16().board.provinces]
    assert (halves.count("lower"), halves.count("upper")) == (7, 8)


@pytest.mark.parametrize("n,deck", [(3, 9), (4, 12), (5, 15)])
def test_g16_12_setup_counts(n, deck):
    """Set-up: 3 province cards per player (the rest out unseen), 20 gold, one Theft card and
    one Architect each, the Architects dealt out of the Favor deck before it is shuffled."""
    game = Game(v16(), n, 5)  # the first round's draw has happened: n cards are on the board
    state = game.state
    assert len(province_deck(game)) + len(state.rules["province_draw"]["used"]) == deck
    assert len(published(state, "on_auction")) == n
    assert [p.gold for p in state.players] == [20] * n == [1 + 2 + 2 + 5 + 10] * n
    assert published(state, "theft_cards") == [1] * n
    assert ([p.hand[c16("architect")] for p in state.players] == [1] * n
            and [sum(p.hand) for p in state.players] == [1] * n)
    face_down = sum(len(prov.cards) for prov in state.provinces)
    assert len(state.deck) + face_down == 39 - n  # 36 / 35 / 34


# ---------------------------------------------------------------------------------------
# G16-13: E-06's position under 2016 scoring
# ---------------------------------------------------------------------------------------
def test_g16_13_e06_position_under_2016_scoring():
    """The 2016 rulebook has no scoring example: SPEC E-06's end-of-game position, scored by
    the 2016 modules. The province with the fewest pyramids (THEBES, 1) gives blue 3, what
    his one complete set gave in 2003: with 3 provinces each the two rules agree (D39)."""
    variant = v16()
    position = read_position(POSITIONS / "e06_final_scoring.toml", variant)
    blue = position.names.index("blue")
    sheet = score_position(variant, position.state, final=True, names=position.names)
    assert sheet.points(blue) == {
        "temples": 1, "pyramids": 7, "fewest_pyramids": 3, "nile_sides": 10, "bonus_cards": 6, "gold_ranking": 0}
    assert sheet.gained(blue) == 27
    assert [sheet.names[p] for p in sheet.winners] == ["blue"]
    # every player scores as under 2003, item by item
    from helpers import classic

    old = score_position(classic(), read_position(POSITIONS / "e06_final_scoring.toml", classic()).state, final=True)
    rename = {"complete_sets": "fewest_pyramids"}
    for p in range(len(position.names)):
        assert sheet.points(p) == {rename.get(k, k): v for k, v in old.points(p).items()}
