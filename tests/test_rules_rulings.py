"""The rulings of SPEC §6: for each, the classic2003 default and the flipped value change
behaviour as described. Flipped with `attrs.evolve` on the loaded variant (helpers.with_rulings).
"""

import pytest
from helpers import (
    BLACK,
    BLUE,
    RED,
    Ask,
    card,
    feed,
    game_of,
    pid,
    province_deck,
    publish,
    published,
    run,
    seats,
    state_of,
    with_rulings,
)

from amunre.core.engine import Game
from amunre.core.state import UNLIMITED
from amunre.loader import load_variant
from amunre.planning.position import score_position
from amunre.rules.gold_ranking import gold_ranking

BRIBERY = card("bribery")


EDITION_DEFAULTS = {
    # SPEC §6 and EDITIONS.md §2/§5.1: the side each edition takes
    "classic2003": {
        "sell_cards_to_bid": True, "free_stones_build": True, "adjustment_must_move": True, "nile_compare": "province",
        "nile_min_pyramids": 1, "finite_supply": True, "theft_counts_in_gold": False, "cards_in_offering": False,
        "bribery_scope": "whole_phase", "identical_cards": "same_time", "protection_timing": "with_bid",
        "double_swap": "optional", "gold_ties": "competition", "temples_score_at_harvest": False},
    "supermeeple2016": {
        "sell_cards_to_bid": True, "free_stones_build": True, "adjustment_must_move": False, "nile_compare": "province",
        "nile_min_pyramids": 1, "finite_supply": True, "theft_counts_in_gold": False, "cards_in_offering": False,
        "bribery_scope": "one_rebid", "identical_cards": "same_phase", "protection_timing": "with_bid",
        "double_swap": "automatic", "gold_ties": "competition", "temples_score_at_harvest": False},
}


@pytest.mark.parametrize("edition", sorted(EDITION_DEFAULTS))
def test_defaults_of_each_edition(edition):
    """Every ruling of each edition, A-BRIBERY, A-IDENTICAL, A-DOUBLESWAP and A-ADJUST among
    those where the editions part."""
    assert load_variant(edition).rulings.as_dict() == EDITION_DEFAULTS[edition]


@pytest.mark.parametrize("sell,top", [(True, 6), (False, 3)])
def test_a_sell_cards_count_toward_a_bid(sell, top):
    variant = with_rulings(sell_cards_to_bid=sell)
    players = seats(4)
    players[RED].update(gold=5, hand={"master_of_farmers": 1})
    game = game_of(players, variant)
    publish(game.state, "round_provinces", [pid("Buto"), pid("Mendes"), pid("Avaris"), pid("Kharga")])
    run(game, ["auction"])
    assert max(a for c, a, played in game.pending.options) == top  # 5 gold (+ 1 card sold)


@pytest.mark.parametrize("build,stones,pyramids", [(True, 0, 1), (False, 3, 0)])
def test_a_freestones_leftover_plus_free_stones_build_at_acquisition(build, stones, pyramids):
    """MEMPHIS kept 1 stone from the Old Kingdom and gets its 2 free stones when drawn."""
    variant = with_rulings(free_stones_build=build)
    memphis = pid("Memphis")
    game = game_of(seats(4), variant, kingdom=2, unowned={"Memphis": {"stones": 1}})
    province_deck(game)[:] = [pid("Kharga"), pid("Avaris"), pid("Mendes"), memphis]
    run(game, ["province_draw", "auction"], [(memphis, 0, ()), (pid("Mendes"), 0, ()), (pid("Avaris"), 0, ())])
    assert game.pending is None
    prov = game.state.provinces[memphis]
    assert prov.owner == RED and (prov.stones, prov.pyramids) == (stones, pyramids)


@pytest.mark.parametrize("must_move,steps", [(True, [3, -3]), (False, [3, 0, -3])])
def test_a_adjust_whether_an_adjustment_may_leave_the_total(must_move, steps):
    variant = with_rulings(adjustment_must_move=must_move)
    players = seats(3, gold=10)
    players[RED]["hand"] = {"offering_adjustment": 1}
    game = game_of(players, variant)
    run(game, ["offering"], [Ask(RED, "sell_for_offering", None), ("gold", 1, 1), ("gold", 1, 0), ("gold", 1, 0)])
    assert game.pending.kind == "adjust" and game.pending.options == steps
    if not must_move:
        feed(game, [0])
        assert published(game.state, "offering_level") == 2  # 3 stays 3


def _nile_position():
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"doubles": 1}, "Buto": {"doubles": 1}}  # west: 2 + 2
    players[BLACK]["provinces"] = {"Abydos": {"pyramids": 1, "doubles": 1}}  # west: 3 in one province
    players[BLUE]["provinces"] = {"Abu": {}}  # east: no pyramid
    return players


@pytest.mark.parametrize("compare,west", [("province", [0, 5, 0]), ("side_total", [5, 0, 0])])
def test_a_nile_compare_provinces_or_side_totals(compare, west):
    variant = with_rulings(nile_compare=compare)
    sheet = score_position(variant, state_of(_nile_position(), variant))
    nile = next(i for i in sheet.items if i.key == "nile_sides")
    assert list(nile.details["nile_sides_west"]) == west
    assert "nile_sides_east" not in nile.details  # ABU has no pyramid: nobody scores the east


def test_a_nile_minimum_pyramids():
    variant = with_rulings(nile_min_pyramids=0)
    sheet = score_position(variant, state_of(_nile_position(), variant))
    nile = next(i for i in sheet.items if i.key == "nile_sides")
    assert list(nile.details["nile_sides_east"]) == [0, 0, 5]  # 0 pyramids now wins the east


@pytest.mark.parametrize("finite,top", [(True, 2), (False, 13)])
def test_a_supply_finite_or_unlimited(finite, top):
    variant = with_rulings(finite_supply=finite)
    expected = 45 if finite else UNLIMITED
    assert Game(variant, 4, 0).state.supply_farmers == expected
    # 13 of the 15 stones lie on the board: only 2 are left to buy, unless supplies are unlimited
    unowned = {name: {"stones": 2} for name in ("Buto", "Mendes", "Avaris", "Kharga", "Sawu", "Abu")}
    unowned["Dakhla"] = {"stones": 1}
    players = seats(4)
    players[RED].update(gold=100, provinces={"Berenike": {}})
    game = game_of(players, variant, unowned=unowned)
    run(game, ["market"], [0])  # BERENIKE: 1 card may be bought; no fields
    assert game.pending.kind == "buy_stones" and max(game.pending.options) == top  # 13 stones cost 91


@pytest.mark.parametrize("counts,red,black", [(False, 6, 4), (True, 4, 6)])
def test_a_theftgold_held_theft_card_in_the_gold_ranking(counts, red, black):
    variant = with_rulings(theft_counts_in_gold=counts)
    players = seats(3)
    players[RED].update(gold=10, theft=1)
    players[BLACK].update(gold=8)
    sheet = score_position(variant, state_of(players, variant), final=True)
    assert [sheet.points(p)["gold_ranking"] for p in (RED, BLACK, BLUE)] == [red, black, 2]


@pytest.mark.parametrize("cards,top", [(False, 2), (True, 5)])
def test_a_offercards_cards_as_gold_in_the_offering(cards, top):
    variant = with_rulings(cards_in_offering=cards)
    players = seats(3, gold=2)
    players[RED]["hand"] = {"master_of_farmers": 2, "upper_lower": 1}
    game = game_of(players, variant)
    run(game, ["offering"])
    # without the house rule cards are sold openly before the offer; with it, never asked
    assert (game.pending.kind == "sell_for_offering") is not cards
    if not cards:
        feed(game, [None])
    assert game.pending.kind == "offer"
    assert max(o[1] for o in game.pending.options) == top
    if cards:
        feed(game, [("gold", 5, 0), ("gold", 1, 0), ("gold", 1, 0)])
        while game.pending is not None and game.pending.kind == "sell":
            feed(game, [game.pending.options[0]])
        red = game.state.players[RED]
        assert red.gold == 0 and published(game.state, "offering_level") == 2  # 7
        assert game.state.start_player == RED


@pytest.mark.parametrize("scope,rebid", [("one_rebid", False), ("whole_phase", True)])
def test_a_bribery_one_rebid_or_the_whole_phase(scope, rebid):
    variant = with_rulings(bribery_scope=scope)
    players = seats(3, gold=30)
    players[RED]["hand"] = {"bribery": 1}
    players[BLACK]["hand"] = {"bribery": 1}
    buto = pid("Buto")
    game = game_of(players, variant)
    publish(game.state, "round_provinces", [buto, pid("Mendes"), pid("Avaris")])
    run(game, ["auction"], [
        (buto, 1, ()), (buto, 3, ()), (pid("Avaris"), 0, ()),
        Ask(RED, "bid", (buto, 6, (BRIBERY,))),
        Ask(BLACK, "bid", (buto, 10, (BRIBERY,))),
    ])
    request = game.pending
    assert request.player == RED
    same = [o for o in request.options if o[0] == buto]
    if rebid:
        assert same and all(o[2] == () for o in same)  # no second card needed
        assert sorted(o[1] for o in same) == [15, 21, 28]
    else:
        assert same == []


@pytest.mark.parametrize("identical,second", [("same_time", True), ("same_phase", False)])
def test_a_identical_a_second_bribery_on_a_later_bidding_turn(identical, second):
    """With one rebid per Bribery, 2003's "not at the same time" lets red play his second
    Bribery on a later turn of the same auction; 2016's "not in the same phase" does not."""
    variant = with_rulings(bribery_scope="one_rebid", identical_cards=identical)
    players = seats(3, gold=40)
    players[RED]["hand"] = {"bribery": 2}
    buto, mendes = pid("Buto"), pid("Mendes")
    game = game_of(players, variant)
    publish(game.state, "round_provinces", [buto, mendes, pid("Avaris")])
    run(game, ["auction"], [
        Ask(RED, "bid", (buto, 1, ())), Ask(BLACK, "bid", (buto, 3, ())), Ask(BLUE, "bid", (mendes, 0, ())),
        Ask(RED, "bid", (buto, 6, (BRIBERY,))),   # outbid: his first Bribery
        Ask(BLACK, "bid", (mendes, 1, ())),
        Ask(BLUE, "bid", (buto, 10, ())),           # outbids red on Buto again
    ])
    same = [o for o in game.pending.options if o[0] == buto]
    assert game.pending.player == RED
    if second:
        assert same and all(o[2] == (BRIBERY,) for o in same)
    else:
        assert same == []


@pytest.mark.parametrize("timing", ["with_bid", "any_turn"])
def test_a_protection_only_with_a_bid_or_on_any_turn(timing):
    """Red holds Protection and is not outbid: with `any_turn` he may play it on his passing
    turn (asked), with `with_bid` he passes unasked."""
    variant = with_rulings(protection_timing=timing)
    players = seats(3, gold=20)
    players[RED]["hand"] = {"protection": 1}
    buto, mendes, avaris = pid("Buto"), pid("Mendes"), pid("Avaris")
    game = game_of(players, variant)
    publish(game.state, "round_provinces", [buto, mendes, avaris])
    run(game, ["auction"], [
        Ask(RED, "bid", (buto, 1, ())), Ask(BLACK, "bid", (mendes, 0, ())), Ask(BLUE, "bid", (mendes, 1, ())),
    ])
    if timing == "with_bid":
        assert game.pending.player == BLACK and game.pending.kind == "bid"  # red passed unasked
        return
    assert (game.pending.player, game.pending.kind, game.pending.options) == (RED, "protect", [False, True])
    feed(game, [True])
    assert game.state.players[RED].hand[card("protection")] == 0
    # black, outbid, may now go onto Buto only two spaces above red's 1, i.e. at 6 or more
    assert game.pending.player == BLACK
    assert min(o[1] for o in game.pending.options if o[0] == buto) == 6


def test_a_protection_on_any_turn_only_while_the_bid_stays_payable():
    """Found by the drawn house rules (A-PROTECTION `any_turn` with A-SELL): red's bid of 6
    counts his Protection card as 1 gold to sell; played on a later turn, it could no longer be
    sold, and the bid could not be paid (an engine error). He is asked only while his gold and
    his other cards still cover the bid."""
    variant = with_rulings(protection_timing="any_turn", sell_cards_to_bid=True)
    buto, mendes, avaris = pid("Buto"), pid("Mendes"), pid("Avaris")
    for gold, asked in ((5, False), (6, True)):
        players = seats(3, gold=20)
        players[RED].update(gold=gold, hand={"protection": 1})
        game = game_of(players, variant)
        publish(game.state, "round_provinces", [buto, mendes, avaris])
        run(game, ["auction"], [
            Ask(RED, "bid", (buto, 6, ())), Ask(BLACK, "bid", (mendes, 0, ())), Ask(BLUE, "bid", (mendes, 1, ())),
        ])
        assert (game.pending.player, game.pending.kind) == ((RED, "protect") if asked else (BLACK, "bid")), gold
        if asked:
            feed(game, [True])  # played: his 6 gold still pay the bid
        while game.pending is not None:  # the others settle; every bid is paid, no engine error
            game.answer(game.pending.options[0])
        assert all(game.state.provinces[c].owner is not None for c in (buto, mendes, avaris))
        assert all(p.gold >= 0 for p in game.state.players)


@pytest.mark.parametrize("ties,golds,points", [
    ("competition", [10, 10, 10, 1], [6, 6, 6, 0]),
    ("skip_one", [10, 10, 10, 1], [6, 6, 6, 2]),
    ("competition", [30, 30, 12, 4], [6, 6, 2, 0]),  # ties of two: the readings agree
    ("skip_one", [30, 30, 12, 4], [6, 6, 2, 0]),
    ("competition", [9, 5, 5, 5, 1], [6, 4, 4, 4, 0]),
    ("skip_one", [9, 5, 5, 5, 1], [6, 4, 4, 4, 0]),
])
def test_a_goldties_ties_of_three_or_more(ties, golds, points):
    assert gold_ranking(golds, (6, 4, 2), ties) == points
    variant = with_rulings(gold_ties=ties)
    players = seats(len(golds))
    for p, g in enumerate(golds):
        players[p]["gold"] = g
    game = game_of(players, variant)
    run(game, ["gold_ranking"])
    assert game.pending is None
    assert [pl.score for pl in game.state.players] == points


@pytest.mark.parametrize("at_harvest,points", [(False, 0), (True, 6)])
def test_a_templeharvest_temples_score_at_every_harvest(at_harvest, points):
    variant = with_rulings(temples_score_at_harvest=at_harvest)
    players = seats(3)
    players[RED]["provinces"] = {"Damanhur": {"farmers": 1}}
    game = game_of(players, variant, offering_level=3)
    run(game, ["harvest"])
    red = game.state.players[RED]
    assert red.gold == 3 and red.score == points  # 2 temples x level 3


def test_docs_rulings_table_matches_the_edition_files():
    """docs/rulings.md names every ruling, and its table shows each edition's value as the
    variant files set it (a ruling added or flipped without its documentation fails here)."""
    import json
    import re
    from pathlib import Path

    import attrs

    from amunre.core.registry import all_rules
    from amunre.loader.rulings import declared_rulings

    text = (Path(__file__).resolve().parent.parent / "docs" / "rulings.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"A-[A-Z]+", cells[0]):
            rows[cells[0]] = cells
    for key, (cls, _) in declared_rulings(all_rules()).items():
        spec = attrs.fields_dict(cls)[key].metadata["spec"]
        assert spec in rows and f"`{key}`" in rows[spec][1], f"{key} ({spec}) missing from the table"
        assert f"## {spec}:" in text, f"no section for {spec}"
        for column, edition in ((2, "classic2003"), (3, "supermeeple2016")):
            value = load_variant(edition).rulings.as_dict().get(key)
            if value is not None:
                assert f"`{json.dumps(value)}`" in rows[spec][column], (key, edition, rows[spec][column])
