"""One test (at least) per rule id of SPEC §4-§5, driving the real rule modules, run over
every shipped variant file whose pipeline uses the module the test checks.

Each builds a small position (tests/helpers.py), runs the rule modules through the engine's
decision protocol and checks concrete numbers from the rules. Seats: red, black, blue,
white (0..3) clockwise.

The variant files are found by globbing variants/ (editions and house rules) at collection:
a test marked `@over("market")` runs once per file using `market` (ids `[classic2003]`,
`[supermeeple2016]`, `[house/...]`), so a new edition or house rule is checked without
touching this file. What a test expects comes from the variant (its params, player counts,
kingdoms, pipeline); a scenario is set at the seats it needs (`helpers.seated`), and one built
on the rulebooks' printed numbers says so (`printed=`) and runs over the variants that keep
them. Where a test depends on a ruling (SPEC §6), it pins the ruling with
`with_rulings`, so that it checks the rule and not the edition's (or house rule's) choice;
the rulings themselves are tested in test_rules_rulings.py. A test of something only
classic2003 has (its complete sets) runs on classic2003 and says why; the edition facts the
parametrized tests read from the files are pinned once for both editions.
"""

import attrs
import pytest
from helpers import (
    BLACK,
    BLUE,
    PRINTED,
    RED,
    WHITE,
    Ask,
    card,
    classic,
    edition2016,
    feed,
    finish,
    game_of,
    keeps_printed,
    pid,
    province_deck,
    publish,
    published,
    run,
    seated,
    seats,
    state_of,
    step_params,
    variant_at,
    variant_files_using,
    with_rulings,
)
from hypothesis import given
from hypothesis import strategies as st

from amunre.agents import make_agents
from amunre.core.engine import Game, play_game, winners
from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.core.model import MAX_PLAYERS, MIN_PLAYERS
from amunre.planning.position import score_position
from amunre.rules.bonus_cards import board_facts, bonus_met
from amunre.rules.gold_ranking import gold_ranking
from amunre.rules.market import price
from amunre.rules.offering import level_for

SPACES = list(PRINTED["auction"]["bid_spaces"])  # the bid spaces printed on the province cards (both editions)

def _plays(path, n) -> bool:
    try:
        return n in variant_at(path).players
    except Exception:  # noqa: BLE001 - a broken file stays in, its test reports it
        return True


def over(*rules, players=None, printed=(), where=None):
    """Parametrize the test's `variant` over every variant file using all of `rules` (every
    file when none is given), leaving out those not played by `players` players if given, and
    those whose `printed` rules have other numbers than the rulebooks' (`helpers.PRINTED`), and
    those the `where` predicate refuses (a property of the variant the scenario needs)."""
    params = variant_files_using(*rules, printed=printed, where=where)
    if players is not None:
        params = [p for p in params if _plays(p.values[0], players)]
    return pytest.mark.parametrize("variant", params, indirect=True)


@pytest.fixture
def variant(request):
    """The loaded variant of a parametrized variant file."""
    return variant_at(request.param)


def auction_game(players, provinces, variant, start=0):
    """A game whose auction (running) is over `provinces` (board names)."""
    game = game_of(players, variant, start_player=start)
    publish(game.state, "round_provinces", [pid(n, variant) for n in provinces])
    game.run_rules(["auction"])
    return game


def amounts_on(request, province, variant) -> list[int]:
    return sorted({a for c, a, played in request.options if c == pid(province, variant) and not played})


def sheet_points(players, variant, final=False, **top):
    """Points per item per player of the kingdom scoring of a position."""
    variant = seated(variant, len(players))
    state = state_of(players, variant, **top)
    sheet = score_position(variant, state, final=final)
    return {item.key: list(item.points) for item in sheet.items}, sheet


def _seat_count(variant, wanted=4) -> int:
    """`wanted` players if the variant allows it, else its largest count below, else its smallest."""
    allowed = sorted(variant.players)
    return wanted if wanted in allowed else max([n for n in allowed if n < wanted], default=allowed[0])


# ---------------------------------------------------------------------------------------
# 4. Game structure (the core, in every variant)
# ---------------------------------------------------------------------------------------
@over()
def test_r_game_01_only_the_variants_player_counts(variant):
    allowed = variant.players
    assert allowed and set(allowed) <= set(range(MIN_PLAYERS, MAX_PLAYERS + 1))  # the format's range
    for n in range(1, MAX_PLAYERS + 2):
        if n in allowed:
            assert Game(variant, n, 0).state.n_players == n
        else:
            with pytest.raises(AmunreError, match=", ".join(map(str, allowed))):
                Game(variant, n, 0)


def _full_game(variant, n=4, seed=3, agents="greedy", listeners=()):
    return play_game(variant, make_agents([agents] * n, seed), seed, list(listeners))


@over("gold_ranking")
def test_r_game_01_the_variants_kingdoms_of_its_rounds_then_game_end(variant):
    """The variant's kingdoms (two in both editions) of its rounds (three in both), each ending
    with a scoring of the items that score at its end; the gold ranking once, after the last."""
    edition = variant.edition
    rounds, kingdoms = edition.rounds_per_kingdom, len(edition.kingdoms)
    n = _seat_count(variant)
    events = []
    game = _full_game(variant, n=n, listeners=[events.append])
    assert [e["kingdom"] for e in events if e["event"] == "kingdom"] == list(range(kingdoms))
    assert [(e["kingdom"], e["round"]) for e in events if e["event"] == "round"] == [
        (k, r) for k in range(kingdoms) for r in range(rounds)]
    assert [e["kingdom"] for e in events if e["event"] == "scoring"] == list(range(kingdoms))
    assert sum(e["event"] == "final_scoring" for e in events) == 1
    assert game.finished and game.state.finished and game.state.winners
    # every player acquired exactly one province per round of each kingdom
    acquired = [e["player"] for e in events if e["event"] == "acquire"]
    assert sorted(acquired) == sorted(list(range(n)) * rounds * kingdoms)
    # each kingdom's scoring scores the items of its own end only (`Modules.scoring_in`: an
    # entry may name the kingdoms it scores in)
    kingdom, scored = None, {k: set() for k in range(kingdoms)}
    for e in events:
        if e["event"] in ("scoring", "scoring_end"):
            kingdom = e["kingdom"] if e["event"] == "scoring" else None
        elif e["event"] == "score" and kingdom is not None:
            scored[kingdom].add(e["item"])
    for k in range(kingdoms):
        assert scored[k] <= {item.key for m in variant.modules.scoring_in(k) for item in m.score_items()}, k
    # the gold ranking scores once, after the last kingdom only
    keys = {k for p in game.state.players for k in p.breakdown}
    assert f"{kingdoms - 1}:gold_ranking" in keys
    assert not any(f"{k}:gold_ranking" in keys for k in range(kingdoms - 1))


@over("province_draw", "auction")
def test_r_game_02_setup_gold_theft_builder_seeded_start_player(variant):
    """Each player starts with the variant's gold, theft cards and starting cards (20 gold, one
    theft card and the builder in both editions: pinned below); the rest of the deck is shuffled
    by the seed, and so is the start player."""
    comp = variant.components
    n = _seat_count(variant, 3)
    game = Game(variant, n, 7)
    state = game.state
    assert [p.gold for p in state.players] == [comp.starting_gold] * n
    assert published(state, "theft_cards") == [comp.theft_cards_per_player] * n
    dealt = [0] * len(variant.cards)
    for kind in comp.starting_cards:
        dealt[card(kind, variant)] += 1
    assert [list(p.hand) for p in state.players] == [dealt] * n
    # every card of the deck: in hands, face down on drawn provinces, or in the shuffled deck
    on_provinces = [c for p in state.provinces for c in p.cards]
    for kind, count in comp.deck.items():
        kind_id = card(kind, variant)
        assert state.deck.count(kind_id) + on_provinces.count(kind_id) + n * dealt[kind_id] == count
    assert len(state.deck) + len(on_provinces) + n * len(comp.starting_cards) == sum(comp.deck.values())
    # the start player comes from the seed: same seed, same player; seeds cover every seat
    assert Game(variant, n, 7).state.start_player == state.start_player
    assert game.pending.player == state.start_player and game.pending.kind == "bid"
    assert {Game(variant, n, s).state.start_player for s in range(20 * n)} == set(range(n))
    # the deck order comes from the seed too
    assert Game(variant, n, 7).state.deck == state.deck


def _top_phases(variant) -> list[str]:
    """The round's phases as the flow announces them: a group's steps under the group's id,
    a step of its own under its entry id (secret-hands-2003 runs `province_draft` under the
    entry id `province_draw` it replaced)."""
    top = []
    for step in variant.phases:
        key = step.group or step.id
        if not top or top[-1] != key:
            top.append(key)
    return top


@over()
def test_r_game_03_phases_in_the_variants_order_each_round(variant):
    rules = [s.rule for s in variant.phases]
    # the phases of R-GAME-03, in this order (a variant may add steps around them)
    core = [r for r in rules if r in ("auction", "market", "offering", "harvest")]
    assert core == ["auction", "market", "offering", "harvest"]
    assert rules.index("auction") > 0  # the round's provinces come first (drawn, or picked)
    events = []
    _full_game(variant, n=_seat_count(variant, 3), seed=11, listeners=[events.append])
    flow = [e.get("rule", e["event"]) for e in events if e["event"] in ("phase", "scoring", "final_scoring")]
    kingdom = _top_phases(variant) * variant.edition.rounds_per_kingdom + ["scoring"]
    assert flow == kingdom * len(variant.edition.kingdoms) + ["final_scoring"]


def test_r_game_03_edition_facts_the_shared_tests_read_from_the_variant_files():
    """What the parametrized tests take from each variant file, pinned for the two editions:
    three rounds per kingdom in both; classic2003 has five phases a round (the draw is its
    own), the 2016 edition four, its draw opening the Auction Phase; the farmer supply is the
    45 of the 2003 box and the 48 of the 2016 one."""
    assert classic().edition.rounds_per_kingdom == edition2016().edition.rounds_per_kingdom == 3
    assert len(classic().edition.kingdoms) == len(edition2016().edition.kingdoms) == 2
    assert classic().players == edition2016().players == (3, 4, 5)
    for edition in (classic(), edition2016()):
        # the numbers the scenarios marked `printed=` are built on: both editions keep them, and
        # every param of those modules is among them (a new param must be added there)
        assert keeps_printed(edition, PRINTED)
        for step in edition.phases + edition.scoring + edition.final_scoring:
            if step.rule in PRINTED:
                assert set(attrs.fields_dict(type(step.params))) == set(PRINTED[step.rule]), step.rule
    for edition in (classic(), edition2016()):  # R-GAME-02's printed setup
        comp = edition.components
        assert (comp.starting_gold, comp.theft_cards_per_player, comp.starting_cards) == (20, 1, ("architect",))
        assert sum(comp.deck.values()) == 39 and comp.deck["architect"] == 8
    assert _top_phases(classic()) == ["province_draw", "auction", "market", "offering", "harvest"]
    assert _top_phases(edition2016()) == ["auction_phase", "market", "offering", "harvest"]
    assert (classic().components.farmers, edition2016().components.farmers) == (45, 48)


@over("auction", printed=("auction",))
def test_r_game_04_turn_order_from_the_start_player_clockwise(variant):
    state = state_of(seats(4), variant, start_player=2)
    assert state.turn_order() == [2, 3, 0, 1]
    names = ["Buto", "Mendes", "Avaris", "Kharga"]
    game = auction_game(seats(4, gold=10), names, variant, start=2)
    requests = feed(game, [(pid(n, variant), 0, ()) for n in names])
    assert [r.player for r in requests] == [2, 3, 0, 1]
    assert game.pending is None
    assert [game.state.provinces[pid(n, variant)].owner for n in names] == [2, 3, 0, 1]


@over("province_draw", where=lambda v: len(v.edition.kingdoms) >= 2)  # (a kingdom to follow)
def test_r_game_05_between_kingdoms(variant):
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
        elif kind == "transition" and not seen["after"]:  # the first kingdom's end (of any number)
            seen["after"] = holder["game"].state.to_dict()
        elif kind == "kingdom" and event["kingdom"] == 1:
            seen["new_deck"] = list(province_deck(holder["game"]))

    n = _seat_count(variant)
    game = holder["game"] = Game(variant, n, 5, [listen])
    supply = game.state.supply_farmers  # the whole supply (A-SUPPLY: unlimited when not finite)
    agents = make_agents(["greedy"] * n, 5)
    finish(game, lambda request: agents[request.player].choose(game.view(request.player), request))
    before, after = seen["before"], seen["after"]
    assert any(p["owner"] is not None for p in before["provinces"])
    assert all(p["owner"] is None and p["farmers"] == 0 and p["free_farmers"] == 0 for p in after["provinces"])
    assert [p["provinces"] for p in after["players"]] == [[]] * n
    assert after["supply_farmers"] == supply  # every farmer back in the supply
    for key in ("stones", "pyramids", "doubles"):
        assert [p[key] for p in after["provinces"]] == [p[key] for p in before["provinces"]]
    for key in ("gold", "hand", "score"):
        assert [p[key] for p in after["players"]] == [p[key] for p in before["players"]]
    for key in ("start_player", "deck", "discard"):
        assert after[key] == before[key]
    # the theft cards held and the offering level stay too, in the module data publishing them
    for name in ("theft_cards", "offering_level"):
        holder = variant.modules.published_at.get(name)
        if holder is not None:
            assert after["rules"][holder][name] == before["rules"][holder][name], name
    # one province per player and round was used in the Old Kingdom: exactly those are the New deck
    assert len(seen["drawn"]) == n * variant.edition.rounds_per_kingdom
    assert sorted(seen["new_deck"]) == sorted(seen["drawn"])


@over()
def test_r_game_06_winner_most_points_then_pyramids_then_stones_else_shared(variant):
    base = [
        {"name": "red", "score": 30, "provinces": {"Memphis": {"pyramids": 3, "stones": 1}}},
        {"name": "black", "score": 30, "provinces": {"Thebes": {"pyramids": 1, "doubles": 1, "stones": 2}}},
        {"name": "blue", "score": 29, "provinces": {"Abu": {"doubles": 3}}},
    ]
    assert winners(state_of(base, variant)) == [BLACK]  # 3 pyramids each, black has more stones
    base[0]["provinces"]["Memphis"]["stones"] = 2
    assert winners(state_of(base, variant)) == [RED, BLACK]  # still tied: shared victory
    base[0]["provinces"]["Memphis"]["pyramids"] = 4
    assert winners(state_of(base, variant)) == [RED]  # more pyramids
    base[2]["score"] = 31
    assert winners(state_of(base, variant)) == [BLUE]  # most points first


# ---------------------------------------------------------------------------------------
# 5. Province supply
# ---------------------------------------------------------------------------------------
@over("province_draw")
def test_r_prov_01_start_player_draws_one_province_per_player_with_bonus(variant):
    thebes, memphis, dakhla, buto = (pid(n, variant) for n in ("Thebes", "Memphis", "Dakhla", "Buto"))
    game = game_of(seats(4), variant)
    state = game.state
    province_deck(game)[:] = [pid("Abu", variant), buto, dakhla, memphis, thebes]
    deck, stones = len(state.deck), state.supply_stones
    run(game, ["province_draw"])
    assert game.pending is None
    assert published(state, "round_provinces") == [thebes, memphis, dakhla, buto]
    assert province_deck(game) == [pid("Abu", variant)]
    assert [len(state.provinces[i].cards) for i in (thebes, memphis, dakhla, buto)] == [2, 0, 1, 1]
    assert [state.provinces[i].stones for i in (thebes, memphis, dakhla, buto)] == [0, 2, 0, 0]
    assert [state.provinces[i].gold for i in (thebes, memphis, dakhla, buto)] == [0, 0, 12, 0]
    assert len(state.deck) == deck - 4 and state.supply_stones == stones - 2
    # as many as there are players
    for n in variant.players:
        assert len(published(Game(variant, n, 1).state, "on_auction")) == n


# ---------------------------------------------------------------------------------------
# Auction
# ---------------------------------------------------------------------------------------
@over("auction", printed=("auction",))
def test_r_auc_01_bid_spaces_are_the_printed_values(variant):
    assert list(step_params(variant, "auction").bid_spaces) == SPACES
    players = seats(4)
    players[RED]["gold"] = 36
    game = auction_game(players, ["Buto", "Mendes", "Avaris", "Kharga"], variant)
    assert game.pending.player == RED
    assert amounts_on(game.pending, "Buto", variant) == SPACES
    assert amounts_on(game.pending, "Kharga", variant) == SPACES


@over("auction", printed=("auction",))
def test_r_auc_02_bid_on_empty_card_any_space_on_occupied_card_higher(variant):
    game = auction_game(seats(4, gold=20), ["Buto", "Mendes", "Avaris", "Kharga"], variant)
    feed(game, [Ask(RED, "bid", (pid("Buto", variant), 3, ()))])
    assert game.pending.player == BLACK
    assert amounts_on(game.pending, "Buto", variant) == [6, 10, 15]
    assert amounts_on(game.pending, "Mendes", variant) == [0, 1, 3, 6, 10, 15]
    before = game.state.to_dict()
    with pytest.raises(IllegalAnswerError, match="bid"):
        game.answer((pid("Buto", variant), 3, ()))  # not higher than red's 3
    assert game.state.to_dict() == before


@over("auction", printed=("auction",))
def test_r_auc_03_no_bid_above_gold_plus_cards_sold(variant):
    variant = with_rulings(variant, sell_cards_to_bid=True)  # A-SELL (both editions: yes)
    players = seats(4)
    players[RED].update(gold=5, hand={"master_of_farmers": 1})
    game = auction_game(players, ["Buto", "Mendes", "Avaris", "Kharga"], variant)
    assert max(amounts_on(game.pending, "Buto", variant)) == 6  # 5 gold + 1 card
    feed(game, [(pid("Buto", variant), 6, ()), (pid("Mendes", variant), 0, ()), (pid("Avaris", variant), 0, ())])
    # white (no gold) has one legal bid, 0 on KHARGA, which is forced; then red pays 6,
    # selling his card without being asked which (it is the only one)
    assert game.pending is None
    red = game.state.players[RED]
    assert red.gold == 0 and sum(red.hand) == 0
    assert game.state.discard == [card("master_of_farmers", variant)]
    assert game.state.bank_paid == 6 and game.state.bank_given == 1


@over("auction", printed=("auction",))
def test_r_auc_04_outbid_player_must_move_to_another_card_others_pass(variant):
    game = auction_game(seats(3, gold=20), ["Buto", "Mendes", "Avaris"], variant)
    requests = feed(game, [
        Ask(RED, "bid", (pid("Buto", variant), 1, ())),
        Ask(BLACK, "bid", (pid("Buto", variant), 3, ())),
        Ask(BLUE, "bid", (pid("Mendes", variant), 0, ())),
        Ask(RED, "bid", (pid("Mendes", variant), 1, ())),  # red, outbid, moves; black passes unasked
        Ask(BLUE, "bid", (pid("Avaris", variant), 0, ())),  # blue, outbid by red, moves
    ])
    assert game.pending is None
    buto, mendes = pid("Buto", variant), pid("Mendes", variant)
    assert requests[3].context == {"moving_from": buto, "protected": [], "bids": [
        [RED, buto, 1], [BLACK, buto, 3], [BLUE, mendes, 0]]}
    assert amounts_on(requests[3], "Buto", variant) == []  # not back onto the card he leaves
    assert amounts_on(requests[3], "Mendes", variant) == [1, 3, 6, 10, 15]
    assert amounts_on(requests[4], "Mendes", variant) == []
    owners = [game.state.provinces[pid(n, variant)].owner for n in ("Buto", "Mendes", "Avaris")]
    assert owners == [BLACK, RED, BLUE]
    assert [p.gold for p in game.state.players] == [19, 17, 20]


@over("province_draw", "auction", printed=("auction",))
def test_r_auc_05_auction_ends_when_each_card_has_one_bid_then_pay_and_take(variant):
    thebes, memphis, dakhla, buto = (pid(n, variant) for n in ("Thebes", "Memphis", "Dakhla", "Buto"))
    game = game_of(seats(4, gold=20, hand={"architect": 1}), variant)
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


@over("auction", printed=("auction",))
def test_r_auc_06_protection_needs_two_spaces_more_and_moves_with_its_player(variant):
    variant = with_rulings(variant, protection_timing="with_bid")  # A-PROTECTION: it is played with a bid here
    protection = card("protection", variant)
    players = seats(4, gold=30)
    players[RED]["hand"] = {"protection": 1}
    game = auction_game(players, ["Buto", "Mendes", "Avaris", "Kharga"], variant)
    protected = (pid("Buto", variant), 3, (protection,))
    assert protected in game.pending.options
    feed(game, [Ask(RED, "bid", protected)])
    assert game.state.in_play == [protection]  # face up until the phase ends
    assert amounts_on(game.pending, "Buto", variant) == [10, 15, 21, 28]  # not 6: two spaces above 3
    requests = feed(game, [
        Ask(BLACK, "bid", (pid("Buto", variant), 10, ())),
        Ask(BLUE, "bid", (pid("Mendes", variant), 0, ())),
        Ask(WHITE, "bid", (pid("Avaris", variant), 0, ())),
        Ask(RED, "bid", (pid("Mendes", variant), 1, ())),  # red moves, his protection with him
        Ask(BLUE, "bid", (pid("Avaris", variant), 1, ())),
    ])
    # white, now outbid, finds red's protected 1 on Mendes: 6 at least, not 3
    assert game.pending.player == WHITE
    assert amounts_on(game.pending, "Mendes", variant) == [6, 10, 15, 21, 28]
    assert amounts_on(requests[4], "Mendes", variant) == []  # blue leaves Mendes: not there
    feed(game, [Ask(WHITE, "bid", (pid("Kharga", variant), 0, ()))])
    assert game.pending is None
    assert game.state.in_play == [] and game.state.discard == [protection]


@over("auction", printed=("auction",))
def test_r_auc_06_bribery_lets_an_outbid_player_bid_higher_on_the_same_card(variant):
    """One rebid on the card he lost. Both readings of A-BRIBERY allow it (they part only on a
    later turn: test_rules_rulings.py), so the ruling is left as each variant sets it."""
    bribery = card("bribery", variant)
    buto = pid("Buto", variant)
    players = seats(3, gold=20)
    players[RED]["hand"] = {"bribery": 1}
    game = auction_game(players, ["Buto", "Mendes", "Avaris"], variant)
    feed(game, [(buto, 1, ()), (buto, 3, ()), (pid("Avaris", variant), 0, ())])
    request = game.pending
    assert request.player == RED
    same = sorted(a for c, a, played in request.options if c == buto)
    assert same == [6, 10, 15] and all(played == (bribery,) for c, a, played in request.options if c == buto)
    feed(game, [(buto, 6, (bribery,))])
    assert game.state.in_play == [bribery]
    assert game.pending.player == BLACK and amounts_on(game.pending, "Buto", variant) == []  # black has no bribery
    feed(game, [(pid("Mendes", variant), 0, ())])
    assert game.pending is None
    assert game.state.provinces[buto].owner == RED and game.state.players[RED].gold == 14
    assert game.state.discard == [bribery]


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
    game = auction_game(players, names, variant, start=data.draw(st.integers(0, n - 1)))
    return game, n


@pytest.mark.parametrize("variant_file", variant_files_using("auction"))  # (a path: hypothesis and fixtures)
@given(
    golds=st.lists(st.integers(0, 40), min_size=MAX_PLAYERS, max_size=MAX_PLAYERS),
    cards=st.lists(st.sets(st.sampled_from(["protection", "bribery"])), min_size=MAX_PLAYERS, max_size=MAX_PLAYERS),
    data=st.data(),
)
def test_r_auc_07_an_outbid_player_always_has_a_legal_bid(variant_file, golds, cards, data):
    variant = variant_at(variant_file)
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
#: The supplies a scenario that takes pieces stands at, whatever the variant's components (a
#: house rule may ship no farmers at all); a scenario about a short supply gives its own.
SCENARIO_SUPPLIES = {"farmers": 20, "stones": 20, "pyramids": 10, "doubles": 10}


def _market_game(variant, red: dict, start="red", **top):
    """Red (with `red`) and two players who own nothing and have no gold (never asked)."""
    players = seats(3)
    players[RED] = {"name": "red", "theft": 0, "gold": 0, **red}
    top["supplies"] = {**SCENARIO_SUPPLIES, **top.get("supplies", {})}
    game = game_of(players, variant, start_player=start, **top)
    game.state.deck = [card(kind, variant) for kind in ("treasury", "big_harvest", "master_of_scribes")]
    return game


@over("market")
@pytest.mark.parametrize("gold", [0, 1, 7, 30, 200])
def test_r_mkt_02_the_stones_offered_are_those_the_variants_prices_allow(variant, gold):
    """At the variant's prices of stones (`stones_first_price`, `stones_price_step`: the shared
    1 and 1 in both editions), a player with `gold` and no card to sell is offered every count of
    stones he can pay for, up to the supply, and no more; what he buys costs exactly that price."""
    variant = with_rulings(variant, finite_supply=True)
    market = step_params(variant, "market")
    game = _market_game(variant, {"gold": gold, "provinces": {"Buto": {}}}, supplies={"stones": 12})
    run(game, ["market"])  # Buto shows no card symbol: no cards to buy
    while game.pending is not None and game.pending.kind != "buy_stones":
        game.answer(0)  # (farmers: none)
    affordable = [n for n in range(13) if market.price("stones", n) <= gold]
    if game.pending is None:  # nothing to buy: not asked
        assert affordable == [0]
        return
    assert game.pending.options == affordable
    most = affordable[-1]
    feed(game, [Ask(RED, "buy_stones", most)])
    while game.pending is not None:  # (where the stones go, a pyramid's swap)
        game.answer(game.pending.options[0])
    assert game.state.players[RED].gold == gold - market.price("stones", most)


@over("market", printed=("market",))
def test_r_mkt_01_cards_then_farmers_then_stones_never_back(variant):
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 30, "provinces": {"Thebes": {}, "Memphis": {}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 1),
        Ask(RED, "buy_farmers", 1), Ask(RED, "place_farmer", thebes),
        Ask(RED, "buy_stones", 1), Ask(RED, "place_stone", thebes),
    ])
    assert [r.kind for r in requests] == ["buy_cards", "buy_farmers", "place_farmer", "buy_stones", "place_stone"]
    assert game.pending is None  # no second chance at cards or farmers this turn
    assert game.state.players[RED].gold == 30 - 3


@over("market", printed=("market",))
def test_r_mkt_01_a_kind_skipped_is_closed_for_the_turn(variant):
    game = _market_game(variant, {"gold": 30, "provinces": {"Thebes": {}}})
    run(game, ["market"], [Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "buy_stones", 0)])
    assert game.pending is None and game.state.players[RED].gold == 30


@over("market", printed=("market",))
def test_r_mkt_02_triangular_prices_each_kind_separately(variant):
    assert [price(n) for n in range(1, 10)] == [1, 3, 6, 10, 15, 21, 28, 36, 45]
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 6, "provinces": {"Thebes": {}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 2),  # 3 gold
        Ask(RED, "buy_farmers", 2),  # 3 gold, not price(4) = 10
        Ask(RED, "buy_stones", 0),  # (the two cards could still be sold for a stone)
    ])
    assert max(requests[1].options) == 2  # 3 gold left: 2 farmers, not 3 (6 gold)
    assert game.pending is None
    assert game.state.players[RED].gold == 0 and game.state.provinces[thebes].farmers == 2


def test_r_mkt_02_a_house_rule_sets_the_first_price_and_the_step():
    """`first_price` 2 and `price_step` 3: 2, 7, 15 gold for 1, 2, 3 items (n x 2 + 3 x n(n-1)/2),
    in what the market offers, charges, reports and says at the table."""
    from amunre.agents.asking import asking_for, fact_lines, option_text
    from amunre.loader import load_variant

    assert [price(n, 2, 3) for n in range(1, 5)] == [2, 7, 15, 26]
    assert [price(n, 5, 0) for n in range(1, 4)] == [5, 10, 15]
    variant = load_variant("classic2003", ["phases.market.params.first_price=2", "phases.market.params.price_step=3"])
    game = _market_game(variant, {"gold": 16, "provinces": {"Thebes": {}}})
    bought = []
    game.listen(bought.append)
    requests = run(game, ["market"], [Ask(RED, "buy_cards", 0)])
    assert requests[0].options == [0, 1, 2]  # Thebes' card limit
    # Thebes has 4 fields, but a 4th farmer would make it 26 gold
    assert game.pending.kind == "buy_farmers" and game.pending.options == [0, 1, 2, 3]
    asking = asking_for(game.view(RED), game.pending)
    assert option_text(asking, 2) == "buy 2 farmers for 7 gold"
    assert fact_lines(asking)[-1].startswith("Each more costs more (2, 7, 15, 26, ...); you have 16 gold")
    feed(game, [Ask(RED, "buy_farmers", 2)])
    assert game.state.players[RED].gold == 16 - 7
    assert [(e["what"], e["count"], e["price"]) for e in bought if e["event"] == "purchase"] == [("farmers", 2, 7)]


def test_r_mkt_02_a_kind_left_out_follows_the_shared_price_table():
    """Every kind's own keys left out, each kind costs what the shared `first_price` and
    `price_step` say, in a file and under a house rule that changes only the shared ones."""
    from amunre.loader import load_variant
    from amunre.rules.market import ITEMS, PriceTable

    for variant in (load_variant("classic2003"), load_variant("expert2016")):
        market = step_params(variant, "market")
        assert {what: market.prices(what) for what in ITEMS} == dict.fromkeys(
            ITEMS, PriceTable(market.first_price, market.price_step))
    changed = step_params(load_variant("classic2003", ["params.market.first_price=2", "params.market.price_step=3"]),
                          "market")
    assert all(changed.prices(what) == PriceTable(2, 3) for what in ITEMS)
    assert (changed.stones_first_price, changed.stones_price_step) == (2, 3)


def test_r_mkt_02_each_kind_has_its_own_price_table():
    """Stones at 2 gold each and cards rising by 3 (1, 5, 12, ...), farmers at the shared prices:
    each kind's table in what the market offers, charges, reports and says at the table, and in
    what greedy weighs a purchase by."""
    from amunre.agents.asking import asking_for, fact_lines, option_text
    from amunre.agents.greedy import _prices
    from amunre.loader import load_variant

    variant = load_variant("classic2003", ["params.market.stones_first_price=2", "params.market.stones_price_step=0",
                                           "params.market.cards_price_step=3"])
    market = step_params(variant, "market")
    assert [market.price("cards", n) for n in range(1, 4)] == [1, 5, 12]
    assert [market.price("farmers", n) for n in range(1, 4)] == [price(n) for n in range(1, 4)]
    assert [market.price("stones", n) for n in range(1, 4)] == [2, 4, 6]
    assert _prices(variant, "buy_stones")(5) == 10 and _prices(variant, "buy_farmers")(3) == 6
    game = _market_game(variant, {"gold": 12, "provinces": {"Thebes": {}}})
    bought = []
    game.listen(bought.append)
    run(game, ["market"])
    asking = asking_for(game.view(RED), game.pending)
    assert game.pending.kind == "buy_cards" and game.pending.options == [0, 1, 2]  # Thebes' card limit
    assert option_text(asking, 2) == "buy 2 power cards for 5 gold"
    assert fact_lines(asking)[-1].startswith("Each more costs more (1, 5, 12, 22, ...); you have 12 gold")
    feed(game, [Ask(RED, "buy_cards", 0)])
    assert game.pending.kind == "buy_farmers" and game.pending.options == [0, 1, 2, 3, 4]  # 10 gold for 4
    feed(game, [Ask(RED, "buy_farmers", 0)])
    while game.pending.kind != "buy_stones":  # (the Free Farmer's question)
        game.answer(game.pending.options[0])
    asking = asking_for(game.view(RED), game.pending)
    assert game.pending.options == list(range(7))  # 12 gold: 6 stones at 2
    assert option_text(asking, 5) == "buy 5 building stones for 10 gold"
    assert fact_lines(asking)[-1].startswith("Each costs 2 gold; you have 12 gold")
    feed(game, [Ask(RED, "buy_stones", 5)])
    assert game.state.players[RED].gold == 12 - 10
    assert [(e["what"], e["count"], e["price"]) for e in bought if e["event"] == "purchase"] == [("stones", 5, 10)]


@over("market", printed=("market",))
def test_r_mkt_03_card_purchases_limited_by_best_province(variant):
    game = _market_game(variant, {"gold": 100, "provinces": {"Memphis": {}, "Amarna": {}, "Avaris": {}}})
    game.state.deck = [card("treasury", variant)] * 10
    run(game, ["market"])
    assert game.pending.kind == "buy_cards" and game.pending.options == [0, 1, 2, 3]  # MEMPHIS shows 3
    # BUTO and MENDES show 0: no card to buy, the turn starts with farmers
    game = _market_game(variant, {"gold": 100, "provinces": {"Buto": {}, "Mendes": {}}})
    run(game, ["market"])
    assert game.pending.kind == "buy_farmers"


@over("market", printed=("market",))
def test_r_mkt_03_empty_deck_is_reshuffled_from_the_discard_pile(variant):
    treasury = card("treasury", variant)
    game = _market_game(variant, {"gold": 100, "provinces": {"Memphis": {}}})
    state = game.state
    state.deck = []
    state.discard = [treasury, treasury]
    run(game, ["market"])
    assert game.pending.options == [0, 1, 2]  # only two cards left anywhere
    feed(game, [2])
    assert state.players[RED].hand[treasury] == 2 and state.deck == [] and state.discard == []


@over("market", printed=("market",))
def test_r_mkt_03_deck_is_reshuffled_the_moment_it_runs_out(variant):
    """The last card drawn empties the deck: the discard pile is shuffled into a new deck at
    once, so a card discarded afterwards waits for the next reshuffle."""
    treasury, big_harvest = card("treasury", variant), card("big_harvest", variant)
    game = _market_game(variant, {"gold": 100, "provinces": {"Memphis": {}}})
    state = game.state
    state.deck = [treasury]
    state.discard = [big_harvest, big_harvest]
    run(game, ["market"], [Ask(RED, "buy_cards", 1)])
    assert state.players[RED].hand[treasury] == 1
    assert sorted(state.deck) == [big_harvest] * 2 and state.discard == []


@over("market", printed=("market",))
def test_r_mkt_04_farmers_only_on_empty_fields_and_from_the_supply(variant):
    variant = with_rulings(variant, finite_supply=True)  # A-SUPPLY: the supply caps purchases
    baharya = pid("Baharya", variant)
    game = _market_game(variant, {"gold": 100, "provinces": {"Baharya": {"farmers": 1}, "Berenike": {}}})
    run(game, ["market"])
    assert game.pending.kind == "buy_cards"
    feed(game, [0])
    assert game.pending.options == [0, 1]  # BAHARYA has 1 empty field, BERENIKE none
    feed(game, [1])  # placed in BAHARYA without asking: the only empty field
    assert game.state.provinces[baharya].farmers == 2
    # the supply caps purchases too
    game = _market_game(variant, {"gold": 100, "provinces": {"Thebes": {}}}, supplies={"farmers": 1})
    run(game, ["market"], [0])
    assert game.pending.kind == "buy_farmers" and game.pending.options == [0, 1]


@over("market", printed=("market",))
def test_r_mkt_05_third_stone_builds_a_pyramid_several_per_turn(variant):
    # A-DOUBLESWAP pinned to `optional` (2003; 2016 swaps unasked): the swap question is answered
    variant = with_rulings(variant, double_swap="optional", finite_supply=True)
    thebes, abydos = pid("Thebes", variant), pid("Abydos", variant)
    game = _market_game(variant, {"gold": 28, "provinces": {"Thebes": {"stones": 1}, "Abydos": {}}})
    run(game, ["market"], [0, 0, 7] + [thebes] * 5 + [Ask(RED, "double_swap", True)] + [abydos] * 2)
    assert game.pending is None
    t, a = game.state.provinces[thebes], game.state.provinces[abydos]
    assert (t.stones, t.pyramids, t.doubles) == (0, 0, 1)  # 1 + 5 stones: two pyramids, one double
    assert (a.stones, a.pyramids) == (2, 0)
    assert game.state.players[RED].gold == 0


@over("market", printed=("market",))
def test_a_doubleswap_optional_lets_the_owner_keep_two_singles(variant):
    """A-DOUBLESWAP `optional` (2003: he "may replace"): the owner is asked, and may keep two
    singles, which still score 2 and hold the singles back from the other players."""
    variant = with_rulings(variant, double_swap="optional", finite_supply=True)
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 21, "provinces": {"Thebes": {}}})
    singles, doubles = game.state.supply_pyramids, game.state.supply_doubles
    requests = run(game, ["market"], [0, 0, 6, Ask(RED, "double_swap", False)])
    assert requests[-1].options == [True, False] and requests[-1].context == {"province": thebes, "stones": 3}
    assert game.pending is None
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 2, 0)
    assert (game.state.supply_pyramids, game.state.supply_doubles) == (singles - 2, doubles)


@over("market", printed=("market",))
def test_a_doubleswap_automatic_swaps_without_asking(variant):
    variant = with_rulings(variant, double_swap="automatic", finite_supply=True)
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 21, "provinces": {"Thebes": {}}})
    run(game, ["market"], [0, 0, 6])
    assert game.pending is None  # nothing asked: every stone goes to his one province
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 0, 1)


@over("market", printed=("market",))
def test_a_doubleswap_optional_is_not_asked_when_no_single_is_left(variant):
    """Keeping two singles needs a second single: with none left the double is the only piece."""
    variant = with_rulings(variant, double_swap="optional", finite_supply=True)
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 21, "provinces": {"Thebes": {"pyramids": 1}}}, supplies={"pyramids": 0})
    run(game, ["market"], [0, 0, 3])
    assert game.pending is None
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 0, 1)


@over("market", printed=("market",))
def test_r_mkt_05_no_double_left_keeps_two_singles(variant):
    variant = with_rulings(variant, finite_supply=True)  # A-SUPPLY: the doubles can run out
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 21, "provinces": {"Thebes": {}}}, supplies={"doubles": 0})
    run(game, ["market"], [0, 0, 6])
    assert game.pending is None  # one province: every stone goes there unasked (no swap to ask about)
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (0, 2, 0)


@over("market", printed=("market",))
def test_r_mkt_06_architect_builds_from_two_stones(variant):
    thebes, architect = pid("Thebes", variant), card("architect", variant)
    game = _market_game(variant, {"gold": 1, "hand": {"architect": 1}, "provinces": {"Thebes": {"stones": 1}}})
    stones = game.state.supply_stones
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "buy_stones", 1),
        Ask(RED, "architect", thebes),
    ])
    assert requests[-1].options == [None, thebes]
    assert game.pending is None
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids) == (0, 1)
    assert game.state.players[RED].hand[architect] == 0 and game.state.discard == [architect]
    assert game.state.supply_stones == stones - 1 + 2


@over("market", printed=("market",))
def test_r_mkt_06_architect_between_stone_placements(variant):
    """Four stones and a builder into an empty province: two stones, the builder (a pyramid
    from them), two more stones: a pyramid and two stones, a state the old "builder after the
    stones" order could not reach (it ended with a double and nothing left)."""
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 10, "hand": {"architect": 1}, "provinces": {"Thebes": {}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "buy_stones", 4),
        # asked after each stone that leaves a province with 2 or more stones
        Ask(RED, "architect", thebes),
    ])
    assert requests[-1].context == {"stones_to_place": 2}
    assert game.pending is None  # the builder is played: not asked again
    t = game.state.provinces[thebes]
    assert (t.stones, t.pyramids, t.doubles) == (2, 1, 0)


@over("market", printed=("market",))
def test_r_mkt_06_architect_before_buying_stones(variant):
    """MEMPHIS holds 2 stones: the builder first, then 1 stone bought, ends with a pyramid
    and a stone (buying first would make the pyramid and leave the builder nothing to do)."""
    memphis = pid("Memphis", variant)
    game = _market_game(variant, {"gold": 1, "hand": {"architect": 1}, "provinces": {"Memphis": {"stones": 2}}})
    requests = run(game, ["market"], [
        Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "architect", memphis),
        Ask(RED, "buy_stones", 1),
    ])
    assert requests[2].context == {"stones_to_place": 0}
    assert game.pending is None
    m = game.state.provinces[memphis]
    assert (m.stones, m.pyramids) == (1, 1)


@over("market", printed=("market",))
def test_r_mkt_06_architect_frees_stones_of_an_empty_quarry(variant):
    """With no stone left in the supply, the builder played first returns 2 stones to it,
    which can then be bought."""
    variant = with_rulings(variant, finite_supply=True)  # A-SUPPLY: the quarry can be empty
    memphis = pid("Memphis", variant)
    game = _market_game(variant, {"gold": 3, "hand": {"architect": 1}, "provinces": {"Memphis": {"stones": 2}}},
                        supplies={"stones": 0})
    run(game, ["market"], [Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0)])
    assert game.pending.kind == "architect"
    feed(game, [memphis])
    assert game.pending.kind == "buy_stones" and game.pending.options == [0, 1, 2]


@over("market", "harvest", printed=("market", "harvest", "offering"))  # (at level 3)
def test_r_mkt_06_free_farmer_goes_off_the_fields_and_counts_at_harvest(variant):
    berenike, sawu = pid("Berenike", variant), pid("Sawu", variant)
    game = _market_game(variant, {"hand": {"free_farmer": 1}, "provinces": {"Berenike": {}, "Sawu": {"farmers": 1}}},
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


@over("market", printed=("market",))
def test_r_mkt_07_no_two_identical_cards_in_one_phase(variant):
    """One market turn per player: a second builder cannot follow the first under either
    reading of A-IDENTICAL (same time, same phase), so the ruling is left as each variant sets it."""
    thebes, abydos = pid("Thebes", variant), pid("Abydos", variant)
    game = _market_game(variant, {"hand": {"architect": 2},
                                  "provinces": {"Thebes": {"stones": 2}, "Abydos": {"stones": 2}}})
    run(game, ["market"], [Ask(RED, "buy_cards", 0), Ask(RED, "buy_farmers", 0), Ask(RED, "architect", thebes),
                           Ask(RED, "buy_stones", 0)])
    assert game.pending is None  # the second builder may not follow in the same turn
    assert game.state.players[RED].hand[card("architect", variant)] == 1
    assert game.state.provinces[abydos].stones == 2 and game.state.provinces[thebes].pyramids == 1


@over("market", printed=("market",))
def test_r_mkt_07_cards_sell_for_one_gold_the_theft_card_never(variant):
    thebes = pid("Thebes", variant)
    game = _market_game(variant, {"gold": 2, "hand": {"master_of_farmers": 1}, "provinces": {"Thebes": {}}})
    run(game, ["market"], [0, 0, Ask(RED, "buy_stones", 2)])  # 3 gold: 2 + the card sold
    assert game.pending is None
    state = game.state
    assert state.players[RED].gold == 0 and sum(state.players[RED].hand) == 0
    assert state.discard == [card("master_of_farmers", variant)] and state.provinces[thebes].stones == 2
    # gold 0 and only a theft card: nothing can be bought, nothing is asked
    game = _market_game(variant, {"gold": 0, "theft": 1, "provinces": {"Thebes": {}}})
    run(game, ["market"])
    assert game.pending is None and published(game.state, "theft_cards")[RED] == 1


# ---------------------------------------------------------------------------------------
# Offering (sacrifice)
# ---------------------------------------------------------------------------------------
def _open_sales(variant):
    """A-OFFERCARDS pinned to no (both editions): cards are sold openly before the offers,
    never counted inside one (the cards-as-gold house rule flips it)."""
    return with_rulings(variant, cards_in_offering=False)


@over("offering")
def test_r_off_01_secret_offer_of_gold_or_theft_with_an_optional_adjustment(variant):
    variant = _open_sales(variant)
    players = seats(3, gold=3, theft=1)
    players[RED]["hand"] = {"offering_adjustment": 1}
    game = game_of(players, variant)
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


@over("offering")
def test_r_off_01_secret_offers_stay_sealed_until_the_reveal(variant):
    players = seats(3, gold=5, theft=1)
    game = game_of(players, variant)
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


@over("offering")
def test_r_mkt_07_cards_are_sold_openly_for_gold_before_the_secret_offers(variant):
    variant = _open_sales(variant)
    architect, treasury = card("architect", variant), card("treasury", variant)
    players = seats(3, gold=2, theft=1)
    players[BLACK]["hand"] = {"architect": 2, "treasury": 1}
    game = game_of(players, variant)
    events = []
    game.listen(events.append)
    run(game, ["offering"])
    request = game.pending  # red holds no card: black is the first asked
    assert request.player == BLACK and request.kind == "sell_for_offering" and not request.simultaneous
    assert request.options == [None, architect, treasury]
    feed(game, [architect, treasury, None])
    black = game.state.players[BLACK]
    assert black.gold == 4 and sum(black.hand) == 1 and game.state.discard == [architect, treasury]
    assert [e["player"] for e in events if e["event"] == "sell"] == [BLACK, BLACK]  # in the open
    assert game.pending.kind == "offer" and game.pending.player == RED
    feed(game, [("gold", 2, 0)])
    assert max(o[1] for o in game.pending.options if o[0] == "gold") == 4  # black offers what he raised


@over("offering", printed=("offering",))
def test_r_off_02_total_minus_three_per_theft_then_adjustments_in_turn_order(variant):
    """+3 and -3 are allowed under both readings of A-ADJUST (must move, may stay)."""
    variant = _open_sales(variant)
    players = seats(3, gold=10, theft=1)
    players[RED]["hand"] = {"offering_adjustment": 1}
    players[BLUE]["hand"] = {"offering_adjustment": 1}
    game = game_of(players, variant)
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
    assert published(game.state, "offering_level") == 2
    assert game.state.discard.count(card("offering_adjustment", variant)) == 2
    # the adjustment changes the total, not the offer: red (10) still ranks first
    assert game.state.start_player == RED


@pytest.mark.parametrize("total,level", [(-12, 1), (2, 1), (3, 2), (7, 2), (12, 2), (13, 3), (22, 3), (23, 4), (60, 4)])
def test_r_off_03_level_from_total_on_the_printed_track(total, level):
    """The printed temple track (2003) and tiles (2016): 3, 13 and 23 open levels 2, 3 and 4."""
    assert tuple(step_params(classic(), "offering").level_floors) == (3, 13, 23)
    assert tuple(step_params(edition2016(), "offering").level_floors) == (3, 13, 23)
    assert level_for(total, (3, 13, 23)) == level


@over("offering")
def test_r_off_03_each_floor_of_the_variants_track_opens_the_next_level(variant):
    """Below the first floor the level is 1; a total at a floor reaches the level above it,
    one below stays under it; any total above the last floor is the top level."""
    floors = tuple(step_params(variant, "offering").level_floors)
    assert level_for(min(floors, default=0) - 20, floors) == 1
    for floor in floors:  # the level rises at a floor (by one per floor printed there), nowhere else
        assert level_for(floor, floors) - level_for(floor - 1, floors) == floors.count(floor)
    assert level_for(max(floors, default=0) + 100, floors) == len(floors) + 1


@over("offering", printed=("offering",))
@pytest.mark.parametrize("offers,level", [((10, 10, 3), 4), ((10, 9, 3), 3), ((1, 1, 1), 2), ((1, 1, "theft"), 1)])
def test_r_off_03_level_set_by_the_offering_rule(variant, offers, level):
    game = game_of(seats(3, gold=10, theft=1), variant)
    run(game, ["offering"], [("theft", 0, 0) if o == "theft" else ("gold", o, 0) for o in offers])
    finish(game)
    assert published(game.state, "offering_level") == level


@over("offering", printed=("offering",))
def test_r_off_04_rewards_three_two_one_ties_by_turn_order_thieves_nothing(variant):
    game = game_of(seats(4, gold=10, theft=1), variant)
    run(game, ["offering"], [("gold", 5, 0), ("gold", 5, 0), ("gold", 2, 0), ("theft", 0, 0)])
    assert game.pending is None  # no provinces: every item is a card
    assert [sum(p.hand) for p in game.state.players] == [3, 2, 1, 0]


@over("offering", printed=("offering",))
def test_r_off_04_reward_items_farmers_on_empty_fields_stones_build_at_once(variant):
    variant = _open_sales(variant)
    baharya, berenike, memphis = (pid(n, variant) for n in ("Baharya", "Berenike", "Memphis"))
    players = seats(3, gold=10, theft=1)
    players[RED].update(hand={"architect": 1, "free_farmer": 1}, provinces={
        "Baharya": {"farmers": 1}, "Berenike": {}, "Memphis": {"farmers": 2, "stones": 2}})
    game = game_of(players, variant, supplies=SCENARIO_SUPPLIES)
    game.state.deck = [card("treasury", variant)]  # the card reward draws no second Architect
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
    assert state.players[RED].hand[card("architect", variant)] == 1 and sum(state.players[RED].hand) == 3


@over("offering", printed=("offering",))
def test_r_off_05_highest_offer_starts_gold_to_bank_thieves_take_three(variant):
    game = game_of(seats(4, gold=10, theft=1), variant, start_player="black")
    run(game, ["offering"], [
        Ask(BLACK, "offer", ("gold", 3, 0)), Ask(BLUE, "offer", ("gold", 7, 0)),
        Ask(WHITE, "offer", ("gold", 7, 0)), Ask(RED, "offer", ("theft", 0, 0)),
    ])
    state = game.state
    assert state.start_player == BLUE  # tied with white, earlier from the old start player
    assert [p.gold for p in state.players] == [13, 7, 3, 3]
    assert state.bank_paid == 17 and state.bank_given == 3
    assert published(state, "theft_cards") == [1, 1, 1, 1]
    assert [sum(p.hand) for p in state.players] == [0, 1, 3, 2]
    assert published(state, "offering_level") == 3  # 3 + 7 + 7 - 3 = 14


@over("offering", printed=("offering",))
def test_r_off_06_everyone_steals_nobody_rewarded_start_player_unchanged(variant):
    game = game_of(seats(4, gold=10, theft=1), variant, start_player=2)
    run(game, ["offering"], [("theft", 0, 0)] * 4)
    assert game.pending is None
    state = game.state
    assert state.start_player == 2
    assert published(state, "offering_level") == 1  # -12
    assert [p.gold for p in state.players] == [13, 13, 13, 13]
    assert [sum(p.hand) for p in state.players] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------------------
# Harvest
# ---------------------------------------------------------------------------------------
@over("harvest")
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_r_har_01_farmers_pay_the_level_mines_always_caravans_with_a_camel(variant, level):
    """SAWU's caravan pays its 7 at the levels showing a camel (1 and 2 in both editions)."""
    if level > variant.modules.max_offering_level:
        pytest.skip(f"{variant.id}'s offering reaches level {variant.modules.max_offering_level} at most")
    caravan = 7 if level in step_params(variant, "harvest").camel_levels else 0
    players = seats(3)
    players[RED]["provinces"] = {"Sawu": {"farmers": 1}, "Abu": {"farmers": 2}}
    players[BLACK]["provinces"] = {"Berenike": {"free_farmers": 1}}
    game = game_of(players, variant, offering_level=level)
    run(game, ["harvest"])
    assert game.state.players[RED].gold == 3 * level + 4 + caravan
    assert game.state.players[BLACK].gold == level + 8


@over("harvest", printed=("harvest", "offering"))  # (at level 2)
def test_r_har_01_income_from_the_start_player_clockwise(variant):
    players = seats(4)
    for p, name in enumerate(("Abu", "Kharga", "Memphis", "Thebes")):
        players[p]["provinces"] = {name: {"farmers": 1}}
    game = game_of(players, variant, offering_level=2, start_player=2)
    events = []
    game.listen(events.append)
    run(game, ["harvest"])
    paid = [(e["player"], e["amount"]) for e in events if e["event"] == "gold"]
    assert paid == [(2, 2), (3, 2), (0, 2 + 4), (1, 2 + 5)]


@over("harvest", printed=("harvest", "offering"))  # (at level 2)
def test_r_har_02_treasury_replaces_one_province_and_big_harvest_adds_per_farmer(variant):
    abu, sawu = pid("Abu", variant), pid("Sawu", variant)
    players = seats(3)
    players[RED].update(hand={"treasury": 1, "big_harvest": 1},
                        provinces={"Abu": {"farmers": 2}, "Sawu": {"farmers": 1}})
    game = game_of(players, variant, offering_level=2)
    requests = run(game, ["harvest"], [Ask(RED, "treasury", sawu), Ask(RED, "big_harvest", abu)])
    assert requests[0].options == [None, abu, sawu]
    # SAWU (2 + 7) replaced by 8; ABU 2 farmers x (2 + 1) + mine 4
    assert game.state.players[RED].gold == 8 + 6 + 4
    assert sum(game.state.players[RED].hand) == 0
    # without the cards: 2 x 2 + 4 + 2 + 7
    players[RED]["hand"] = {}
    game = game_of(players, variant, offering_level=2)
    run(game, ["harvest"])
    assert game.state.players[RED].gold == 17


# ---------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------
@over("temples")
def test_r_sco_01_temples_score_the_level(variant):
    players = seats(3)
    players[BLACK]["provinces"] = {"Damanhur": {}}  # 2 temples: the rulebook's 6 points at space 3
    players[BLUE]["provinces"] = {"Edfu": {}, "Amarna": {}}
    level = min(3, variant.modules.max_offering_level)  # (a house rule's track may stop below 3)
    points, _ = sheet_points(players, variant, offering_level=level)
    assert points["temples"] == [0, 2 * level, 2 * level]
    points, _ = sheet_points(players, variant, offering_level=1)
    assert points["temples"] == [0, 2, 2]


@over("pyramids")
def test_r_sco_02_points_per_single_and_double_pyramid_in_own_provinces(variant):
    """The variant's `single` and `double` points (1 and 2 in the editions: a double counts as
    two pyramids); stones score nothing, and unowned pyramids score for nobody."""
    params = next(s for s in variant.scoring if s.id == "pyramids").params
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"doubles": 1, "pyramids": 1}, "Thebes": {"pyramids": 1, "stones": 2}}
    points, _ = sheet_points(players, variant, unowned={"Abu": {"doubles": 2}})
    assert points["pyramids"] == [2 * params.single + params.double, 0, 0]


@pytest.mark.parametrize("single, double", [(1, 3), (0, 5), (2, 2)])
def test_r_sco_02_a_house_rule_sets_the_points_of_a_single_and_a_double(single, double):
    from amunre.loader import load_variant

    variant = load_variant("classic2003", [f"scoring.pyramids.params.single={single}",
                                           f"scoring.pyramids.params.double={double}"])
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"doubles": 1, "pyramids": 1}, "Thebes": {"pyramids": 1}}
    points, _ = sheet_points(players, variant)
    assert points["pyramids"] == [2 * single + double, 0, 0]


@pytest.mark.parametrize("counts,sets", [((2, 2, 3), 2), ((1, 0, 5), 0), ((4, 4, 4), 4), ((1, 1, 1), 1)])
def test_r_sco_03_three_points_per_complete_set(counts, sets):
    """classic2003 only: complete sets are the 2003 wording of R-SCO-03 (its 2016 counterpart,
    and the two side by side, are in test_set_scoring.py)."""
    players = seats(3)
    players[RED]["provinces"] = {
        name: {"doubles": c // 2, "pyramids": c % 2} for name, c in zip(("Memphis", "Thebes", "Abu"), counts)}
    points, _ = sheet_points(players, classic())
    assert points["complete_sets"] == [3 * sets, 0, 0]


def _nile_rules(variant):
    """A-NILE pinned to the rulebooks' reading (both editions): single provinces compete, and
    a side's best needs a pyramid (the side-totals house rule flips it)."""
    return with_rulings(variant, nile_compare="province", nile_min_pyramids=1)


@over("nile_sides")
def test_r_sco_04_nile_sides_most_pyramids_then_stones_then_shared(variant):
    variant = _nile_rules(variant)
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"doubles": 1}, "Thebes": {"pyramids": 1}}  # west 2, east 1
    players[BLACK]["provinces"] = {"Abydos": {"doubles": 1, "stones": 1}, "Mendes": {}}  # west 2 + 1 stone
    players[BLUE]["provinces"] = {"Abu": {"pyramids": 1}, "Buto": {}}  # east 1
    points, sheet = sheet_points(players, variant)
    nile = next(i for i in sheet.items if i.key == "nile_sides")
    side = step_params(variant, "nile_sides").points  # a side's points (5 in both editions)
    assert nile.details == {"nile_sides_west": (0, side, 0), "nile_sides_east": (side, 0, side)}
    assert points["nile_sides"] == [side, side, side]


@over("nile_sides")
def test_r_sco_04_a_side_without_pyramids_scores_nobody(variant):
    variant = _nile_rules(variant)
    players = seats(3)
    players[RED]["provinces"] = {"Memphis": {"stones": 2}}
    players[BLACK]["provinces"] = {"Thebes": {"pyramids": 1}}
    points, _ = sheet_points(players, variant, unowned={"Abydos": {"doubles": 3}})
    side = step_params(variant, "nile_sides").points
    assert points["nile_sides"] == [0, side, 0]  # west: no owned pyramid; unowned ABYDOS does not compete


@over("bonus_cards", printed=("bonus_cards",))
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
def test_r_sco_05_bonus_card_conditions(variant, kind, provinces, met):
    params = step_params(variant, "bonus_cards")
    assert (params.points, params.scribes_symbols, params.farmers_needed) == (3, 7, 9)
    players = seats(3)
    players[RED]["provinces"] = {name: {} for name in provinces}
    state = state_of(players, variant)
    assert bonus_met(kind, state, board_facts(variant.board.provinces), state.players[RED].provinces, params) is met
    # the module reads the board from the facts it keeps: the same answer
    rule = next(module for module in variant.modules.all if module.id == "bonus_cards")
    assert rule.met(kind, state, RED) is met


@over("bonus_cards", printed=("bonus_cards",))
@pytest.mark.parametrize("free,met", [(1, True), (0, False)])
def test_r_sco_05_farmer_bonus_counts_free_farmers(variant, free, met):
    players = seats(3)
    players[RED].update(hand={"master_of_farmers": 1}, provinces={
        "Thebes": {"farmers": 4}, "Buto": {"farmers": 4}, "Memphis": {"free_farmers": free}})
    points, _ = sheet_points(players, variant)
    assert points["bonus_cards"] == [3 if met else 0, 0, 0]


@over("bonus_cards")
def test_r_sco_05_one_card_of_each_kind_per_scoring_and_discarded(variant):
    """One card of a kind per scoring: the 2003 "not at the same time" and the 2016 "not in
    the same scoring" (A-IDENTICAL) agree here, a scoring being one moment."""
    upper_lower, west_east = card("upper_lower", variant), card("west_east", variant)
    players = seats(3)
    players[RED].update(hand={"upper_lower": 2, "west_east": 1}, provinces={"Edfu": {}, "Abu": {}, "Thebes": {}})
    game = game_of(players, variant)
    requests = run(game, ["bonus_cards"], [Ask(RED, "play_bonus", "upper_lower"), Ask(RED, "play_bonus", "west_east")])
    assert requests[0].options == [None, "upper_lower", "west_east"]
    assert game.pending is None  # the second upper/lower card cannot follow in this scoring
    red = game.state.players[RED]
    assert red.score == step_params(variant, "bonus_cards").points + 0  # west/east not met: played for nothing
    assert red.hand[upper_lower] == 1 and red.hand[west_east] == 0
    assert sorted(game.state.discard) == sorted([upper_lower, west_east])


@over("gold_ranking")
@pytest.mark.parametrize("golds,ranks", [
    ([30, 30, 12, 4], [1, 1, 3, 4]),
    ([30, 12, 12, 4], [1, 2, 2, 4]),
    ([10, 10, 10, 1], [1, 1, 1, 4]),
    ([9, 8, 7, 6, 5], [1, 2, 3, 4, 5]),
    ([5, 5, 5], [1, 1, 1]),
])
def test_r_sco_06_gold_ranking_ties_push_next_ranks_down(variant, golds, ranks):
    """A tie takes the rank; the ranks after it are skipped (A-GOLDTIES `competition`); each rank
    pays the variant's points for it (6, 4 and 2 in both editions), a rank beyond them nothing."""
    variant = with_rulings(variant, gold_ties="competition", theft_counts_in_gold=False)  # A-GOLDTIES, A-THEFTGOLD
    paid = tuple(step_params(variant, "gold_ranking").points)
    points = [paid[rank - 1] if rank <= len(paid) else 0 for rank in ranks]
    assert gold_ranking(golds, paid) == points
    players = seats(len(golds))
    for p, g in enumerate(golds):
        players[p]["gold"] = g
    table, sheet = sheet_points(players, variant, final=True)
    assert table["gold_ranking"] == points


@over("gold_ranking", printed=("gold_ranking",))
def test_r_sco_06_gold_only_at_the_last_kingdom_after_selling_cards(variant):
    variant = seated(with_rulings(variant, gold_ties="competition", theft_counts_in_gold=False), 3)  # A-GOLDTIES
    players = seats(3, gold=10)
    players[BLACK].update(gold=9, hand={"architect": 2})
    table, _ = sheet_points(players, variant)
    assert "gold_ranking" not in table  # a kingdom scoring without the final items
    table, _ = sheet_points(players, variant, final=True)
    assert table["gold_ranking"] == [6, 2, 6]
    state = state_of(players, variant)
    sheet = score_position(variant, state, final=True, answers={"sell_cards": "all"})
    assert sheet.points(BLACK)["gold_ranking"] == 6 and sheet.points(RED)["gold_ranking"] == 4  # 11 > 10


# ---------------------------------------------------------------------------------------
# Illegal answers leave the state unchanged
# ---------------------------------------------------------------------------------------
def _at_bid(variant):
    return auction_game(seats(3, gold=5), ["Buto", "Mendes", "Avaris"], variant)


def _at_buy_cards(variant):
    return _started(_market_game(variant, {"gold": 30, "provinces": {"Memphis": {}, "Berenike": {}}}), ["market"])


def _at_offer(variant):
    return _started(game_of(seats(3, gold=4), _open_sales(variant)), ["offering"])


def _at_treasury(variant):
    players = seats(3)
    players[RED].update(hand={"treasury": 1}, provinces={"Abu": {}, "Sawu": {}})
    return _started(game_of(players, variant, offering_level=1), ["harvest"])


def _at_bonus(variant):
    players = seats(3)
    players[RED].update(hand={"upper_lower": 1}, provinces={"Edfu": {}})
    return _started(game_of(players, variant), ["bonus_cards"])


def _started(game, rules):
    game.run_rules(rules)
    return game


def _p(name):
    return lambda v: pid(name, v)


@over("auction", "market", "offering", "harvest", "bonus_cards", printed=("auction", "market"))
@pytest.mark.parametrize("make,bad,good", [
    (_at_bid, lambda v: (pid("Buto", v), 6, ()), lambda v: (pid("Buto", v), 3, ())),  # more than 5 gold
    (_at_bid, lambda v: (pid("Buto", v), 2, ()), lambda v: (pid("Buto", v), 1, ())),  # not a bid space
    (_at_bid, lambda v: (pid("Thebes", v), 0, ()), lambda v: (pid("Mendes", v), 0, ())),  # not on auction
    (_at_bid, lambda v: (pid("Buto", v), 0, (card("protection", v),)),
     lambda v: (pid("Buto", v), 0, ())),  # a card he does not hold
    (_at_bid, lambda v: [pid("Buto", v), 0], lambda v: (pid("Buto", v), 0, ())),  # wrong shape
    (_at_buy_cards, lambda v: 4, lambda v: 3),  # MEMPHIS allows 3
    (_at_buy_cards, lambda v: True, lambda v: 1),  # a bool is not a count
    (_at_offer, lambda v: ("gold", 5, 0), lambda v: ("gold", 4, 0)),  # more gold than he has
    (_at_offer, lambda v: ("gold", 0, 0), lambda v: ("gold", 1, 0)),  # at least 1
    (_at_treasury, _p("Thebes"), _p("Abu")),  # not his province
    (_at_bonus, lambda v: "west_east", lambda v: "upper_lower"),  # not in his hand
], ids=["bid-over-gold", "bid-off-space", "bid-off-auction", "bid-card-not-held", "bid-shape",
        "cards-over-limit", "cards-bool", "offer-over-gold", "offer-zero", "treasury-not-his", "bonus-not-held"])
def test_illegal_answer_raises_and_leaves_the_state_unchanged(variant, make, bad, good):
    game = make(variant)
    bad, good = bad(variant), good(variant)
    request = game.pending
    before = game.state.to_dict()
    answers = list(game.answers)
    with pytest.raises(IllegalAnswerError, match="illegal answer"):
        game.answer(bad)
    assert game.state.to_dict() == before
    assert game.pending is request and game.answers == answers
    game.answer(good)  # the game goes on (a secret offer stays sealed until the reveal)
    assert game.answers_so_far() == answers + [good]


def test_an_answer_must_match_an_option_in_type_at_every_depth():
    """JSON's true, 1.0 and 1 differ; an answer read from a log must be the option itself,
    inside nested tuples too (a replayed log edited to `[1, 0, [true]]` is not `[1, 0, [1]]`)."""
    from amunre.core.decisions import is_option

    options = [(1, 0, (1,)), ("gold", 2, 0)]
    assert is_option((1, 0, (1,)), options) and is_option(("gold", 2, 0), options)
    for wrong in [(1, 0, (True,)), (1, 0, (1.0,)), (True, 0, (1,)), ("gold", 2.0, 0), ("gold", 2, False)]:
        assert not is_option(wrong, options), wrong
