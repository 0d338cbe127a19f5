"""The play-by-play a player can follow: each defect found by reading `amunre run`
against the rulebooks, checked in every shipped edition's and house rule's own words.

Each test narrates a prepared position (the rule modules run through the engine, answers
given as the players would) or a real seeded game, and compares lines built from the
variant's terms, so a 2016 game is checked for "Scribe", "Favor card" and "Victory Points"
and a 2003 game for "bidding marker", "power card" and "points".
"""

from __future__ import annotations

import io
import re
import sys
from functools import cache
from pathlib import Path

import pytest
from helpers import (
    Ask,
    card,
    feed,
    game_of,
    has_rule,
    keeps_printed,
    pid,
    province_deck,
    publish,
    run_cli,
    seats,
    step_params,
    variant_at,
    variant_files_using,
    with_rulings,
)

from amunre.agents import make_agents
from amunre.core.engine import play_game
from amunre.core.standing import standing
from amunre.core.words import Narrator, Words, literal
from amunre.loader import load_variant, variant_files

VARIANTS = variant_files_using()
COLOURS = ("red", "black", "blue", "white")
RED, BLACK, BLUE, WHITE = range(4)


def words(variant) -> Words:
    return Words(variant, list(COLOURS))


def listen(game) -> list[str]:
    """The play-by-play of what happens in `game` from now on, one line per printed line,
    without the "[phase]" headings `run_rules` adds."""
    lines: list[str] = []

    def write(text):
        lines.extend(line for line in text.split("\n") if not line.startswith("["))

    game.listen(Narrator(game.variant, write, list(COLOURS)))
    return lines


def prepared(path, players, rulings=None, **top):
    """A game of the variant at `path` (with `rulings` changed) standing at a prepared position
    (at its seats whatever counts the variant allows: its words are what is tested), and its
    play-by-play."""
    variant = with_rulings(variant_at(path), **(rulings or {}))
    game = game_of(players, variant, **top)
    return game, listen(game), words(game.variant)


def provinces_step(variant) -> str:
    """The pipeline entry that lays out the round's provinces (a draw, or the secret picks)."""
    return next(s.id for s in variant.phases if s.rule in ("province_draw", "province_draft"))


def lay_out(game, names: list[str]) -> None:
    """Run the variant's province step so that the round's provinces are `names`, in turn
    order from red: the top of the deck, or each player's only card in his secret hand."""
    variant = game.variant
    ids = [pid(name, variant) for name in names]
    step = provinces_step(variant)
    rule = game.rule(step)
    if rule.id == "province_draw":
        province_deck(game)[:] = list(reversed(ids))
    else:  # one card in each hand: the pick is not even asked
        mine = game.state.rules[rule.key]
        mine["hands"] = [[i] for i in ids]
        mine["dealt_from"] = sorted(ids)
    game.run_rules([step])
    assert game.pending is None


@cache
def full_game(path) -> tuple[list[str], list[dict]]:
    """The play-by-play and the events of one seeded greedy game of a variant."""
    variant = variant_at(path)
    n = 4 if 4 in variant.players else variant.players[0]
    lines: list[str] = []
    events: list[dict] = []
    play_game(variant, make_agents(["greedy"] * n, 11), 11,
              [Narrator(variant, lambda text: lines.extend(text.split("\n"))), events.append])
    return lines, events


# -- 1. phase 1 says what lies on the round's provinces -------------------------------------

@pytest.mark.parametrize("path", variant_files_using(printed=("auction",),  # a kingdom after the first
                                                     where=lambda v: len(v.edition.kingdoms) >= 2))
def test_the_provinces_step_shows_free_material_and_what_the_old_kingdom_left(path):
    """Dakhla's free card and gold, Thebes' two cards; in the New Kingdom Memphis still holds a
    pyramid and a stone, to which its 2 free stones are added: acquired, the 3 stones become a
    pyramid, and that line no longer comes from nowhere."""
    variant = variant_at(path)
    game, lines, w = prepared(path, seats(4, gold=20), rulings={"free_stones_build": True}, kingdom=2,  # A-FREESTONES
                              unowned={"Memphis": {"pyramids": 1, "stones": 1}},
                              supplies={"doubles": 5, "stones": 20, "pyramids": 10})
    lay_out(game, ["Memphis", "Dakhla", "Abydos", "Thebes"])
    kingdom, gold = variant.edition.kingdoms[0], w.t("gold")
    bonus = w.t("immediate_bonus")
    assert (f"  Dakhla gets its {bonus}: {w.count(1, 'favor')} (face down) and 12 {gold}.") in lines
    assert f"  Thebes gets its {bonus}: {w.count(2, 'favor')} (face down)." in lines
    assert f"  Abydos gets its {bonus}: {w.count(1, 'stone')}." in lines
    assert (f"  Memphis gets its {bonus}: {w.count(2, 'stone')}; from the {kingdom} it still holds "
            f"{w.count(1, 'pyramid')} and {w.count(1, 'stone')}.") in lines
    # the auction: each takes one card; Memphis comes with its pieces, which then build
    game.run_rules(["auction"])
    feed(game, [Ask(p, "bid", (pid(name, variant), 0, ()))
                for p, name in enumerate(["Memphis", "Dakhla", "Abydos", "Thebes"])])
    while game.pending is not None:  # 2003: red swaps the two singles for a double
        game.answer(True)
    said = "\n".join(lines)
    assert (f"red acquires Memphis for 0 {gold}; {w.count(1, 'pyramid')} and {w.count(3, 'stone')} "
            f"stand in it.") in said
    assert (f"The {w.count(3, 'stone')} in Memphis become {w.a(w.t('pyramid'))}: with a single {w.t('pyramid')} "
            f"already there it makes {w.a(w.t('double_pyramid'))}.") in said
    assert f"black acquires Dakhla for 0 {gold} and takes the {w.t('favor')} and the 12 {gold} lying on it." in said
    assert f"white acquires Thebes for 0 {gold} and takes the {w.count(2, 'favor')} lying on it." in said


@pytest.mark.parametrize("path", VARIANTS)
def test_a_real_game_names_every_immediate_bonus_it_places(path):
    """Every province laid out with something on it has a line, in a whole seeded game."""
    lines, events = full_game(path)
    w = words(variant_at(path))
    for event in events:
        for item in event.get("lying", ()):
            name = w.province(item["province"])
            assert any(line.startswith((f"  {name} gets its", f"  {name} still holds"))
                       for line in lines), name


# -- 2. one line per bid, and a rebid stays on its card ------------------------------------

@pytest.mark.parametrize("path", variant_files_using(printed=("auction",)))
def test_a_card_played_with_a_bid_is_said_once_and_a_rebid_does_not_move(path):
    """Red bids with Protection, is outbid on Abu, and bids there again with Bribery: each is
    one line, and the rebid says he was outbid there and raises, never that he "moves"."""
    variant = variant_at(path)
    protection, bribery = card("protection", variant), card("bribery", variant)
    players = seats(4, gold=20)
    players[RED]["hand"] = {"protection": 1, "bribery": 1}
    game, lines, w = prepared(path, players, kingdom=1)
    abu, sawu, edfu, amarna = (pid(n, variant) for n in ("Abu", "Sawu", "Edfu", "Amarna"))
    publish(game.state, "round_provinces", [abu, sawu, edfu, amarna])
    game.run_rules(["auction"])
    feed(game, [
        Ask(RED, "bid", (abu, 0, (protection,))),
        Ask(BLACK, "bid", (abu, 3, ())),  # the blockade: two spaces up
        Ask(BLUE, "bid", (sawu, 0, ())),
        Ask(WHITE, "bid", (edfu, 0, ())),
        Ask(RED, "bid", (abu, 6, (bribery,))),
        Ask(BLACK, "bid", (amarna, 0, ())),
    ])
    assert game.pending is None
    marker = w.t("bid_marker")
    assert lines[:6] == [
        f"  red places the {marker} on space 0 of Abu, playing {w.a(w.card_noun('protection'))}.",
        f"  black places the {marker} on space 3 of Abu, outbidding red.",
        f"  blue places the {marker} on space 0 of Sawu.",
        f"  white places the {marker} on space 0 of Edfu.",
        f"  red, outbid on Abu, plays {w.a(w.card_noun('bribery'))} and raises the {marker} there to space 6, "
        f"outbidding black.",
        f"  black, outbid on Abu, moves the {marker} to space 0 of Amarna.",
    ]
    assert not any(w.card("protection") in line or w.card("bribery") in line for line in lines[6:])


# -- 3. the harvest province by province, and a player without income ----------------------

@pytest.mark.parametrize("path", variant_files_using(printed=("harvest", "offering")))  # (at level 2)
def test_the_harvest_shows_farmers_times_level_mines_caravans_and_no_income(path):
    """The 2003 rulebook's harvest example at level 2 (MEMPHIS 1 farmer, ABU 2 farmers and
    its mine, SAWU's caravan: 17 gold), a Big Harvest and a Treasury, and a player whose only
    province yields nothing."""
    variant = variant_at(path)
    players = seats(4)
    players[RED]["provinces"] = {"Memphis": {"farmers": 1}, "Abu": {"farmers": 2}, "Sawu": {}}
    players[BLACK]["provinces"] = {"Buto": {}}
    players[BLUE]["provinces"] = {"Thebes": {"farmers": 3}, "Dakhla": {"farmers": 1}}
    players[BLUE]["hand"] = {"big_harvest": 1, "treasury": 1}
    players[WHITE]["provinces"] = {"Mendes": {"farmers": 1}}
    game, lines, w = prepared(path, players, offering_level=2)
    game.run_rules(["harvest"])
    feed(game, [Ask(BLUE, "treasury", pid("Dakhla", variant)), Ask(BLUE, "big_harvest", pid("Thebes", variant))])
    assert game.pending is None
    gold = w.t("gold")
    assert (f"  red takes 17 {gold}: Memphis {w.count(1, 'farmer')} x 2 = 2; Abu {w.count(2, 'farmer')} x 2 = 4 + "
            f"{w.t('mine')} 4; Sawu {w.t('caravan')} 7.") in lines
    assert f"  black takes no {gold}: no {w.t('farmers')} and nothing else pays in Buto." in lines
    assert (f"  blue takes 17 {gold}: Thebes {w.count(3, 'farmer')} x (2 + 1 with the "
            f"{w.card_noun('big_harvest')}) = 9; Dakhla 8 from the {w.card_noun('treasury')} instead of its "
            f"income.") in lines
    assert f"  white takes 2 {gold}: Mendes {w.count(1, 'farmer')} x 2 = 2." in lines
    assert not any(line.endswith("as income.") for line in lines)


# -- 4. nouns with their articles, counts with their plurals --------------------------------

@pytest.mark.parametrize("path", VARIANTS)
def test_cards_are_nouns_with_the_right_article(path):
    """"sells a 8 gold for 1 gold" was the 2003 line: a card's name is a noun phrase with
    the article said the way it sounds."""
    variant = variant_at(path)
    players = seats(4)
    players[RED]["hand"] = {"treasury": 1, "architect": 1, "offering_adjustment": 1}
    game, lines, w = prepared(path, players)
    from amunre.core.mechanics import sell_card
    for kind in ("treasury", "architect", "offering_adjustment"):
        sell_card(game, RED, card(kind, variant))
    nouns = [w.card_noun(kind) for kind in ("treasury", "architect", "offering_adjustment")]
    assert lines == [f"  red sells {w.a(noun)} for 1 {w.t('gold')}." for noun in nouns]
    for noun in nouns:  # "an" before a vowel sound (8 is "eight"), "a" before anything else
        spoken = noun.lstrip('"')
        assert w.a(noun).startswith("an " if spoken[0] in "8AEIOUaeiou" else "a ")
    assert w.count(1, "points") == f"1 {w.t('points')[:-1]}" and w.count(2, "points") == f"2 {w.t('points')}"
    assert w.count(1, "farmer") == f"1 {w.t('farmer')}" and w.count(3, "farmers") == f"3 {w.t('farmers')}"


@pytest.mark.parametrize("path", VARIANTS)
def test_a_whole_game_has_no_wrong_article_or_plural(path):
    """No "a 8", "a Architect", "an building", "1 points", "1 Farmers" anywhere in a game."""
    lines, _ = full_game(path)
    w = words(variant_at(path))
    plurals = {w.t(key) for key in ("points", "farmers", "stones", "favor_plural")} | {w.noun(2, "pyramid")}
    text = "\n".join(lines)
    assert not re.search(r"\ba [\"']?[aeiouAEIOU8]", text), re.search(r".*\ba [\"']?[aeiouAEIOU8].*", text)
    assert not re.search(r"\ban [\"']?[^aeiouAEIOU8\"'\s]", text)
    for plural in plurals:
        assert not re.search(rf"(?<![\d.])1 {re.escape(plural)}\b", text), plural


# -- 5. the offering: most, second most, rewards, a start player who stays, open sales ------

def _offering_game(path, hand=None):
    players = seats(4, gold=10, theft=1)
    for p, name in enumerate(("Abu", "Sawu", "Edfu", "Amarna")):
        players[p]["provinces"] = {name: {}}
    if hand:
        players[RED]["hand"] = hand
    return prepared(path, players, start_player="black")


@pytest.mark.parametrize("path", variant_files_using(printed=("offering",)))
def test_the_offering_says_who_offered_most_and_how_many_rewards_each_takes(path):
    game, lines, w = _offering_game(path)
    game.run_rules(["offering"])
    # turn order from black: black, blue, white, red
    feed(game, [("gold", 3, 0), ("gold", 5, 0), ("theft", 0, 0), ("gold", 3, 0)])
    while game.pending is not None:  # every reward a card
        game.answer("card")
    gold, reward = w.t("gold"), w.t("reward")
    assert f"  blue offered the most (5 {gold}) and takes {w.count(3, 'reward', 'rewards')}." in lines
    assert (f"  black offered the second most (3 {gold}, as much as red: the earlier in turn order goes first) "
            f"and takes {w.count(2, 'reward', 'rewards')}.") in lines
    assert f"  red offered less and takes {w.count(1, 'reward', 'rewards')}." in lines
    assert f"  white played the {w.t('theft')} and takes no {w.noun(2, 'reward', 'rewards')}." in lines
    assert f"  blue becomes {w.t('start_player')}." in lines
    assert f"  blue takes {reward} 3 of 3: {w.a(w.t('favor'))}." in lines
    assert f"  red takes 1 {reward}: {w.a(w.t('favor'))}." in lines
    # the offered gold is said by the reveal, not by a payment line per player
    assert not any(line.startswith("  blue pays") for line in lines)


@pytest.mark.parametrize("path", VARIANTS)
def test_when_everyone_steals_the_start_player_stays(path):
    game, lines, w = _offering_game(path)
    game.run_rules(["offering"])
    feed(game, [("theft", 0, 0)] * 4)
    assert game.pending is None
    assert f"  Nobody offered {w.t('gold')}: nobody takes {w.a(w.t('reward'))}." in lines
    assert f"  black stays {w.t('start_player')}." in lines


@pytest.mark.parametrize("path", VARIANTS)
def test_open_card_sales_have_a_heading(path):
    variant = variant_at(path)
    game, lines, w = _offering_game(path, hand={"architect": 2})
    game.run_rules(["offering"])
    if variant.rulings.cards_in_offering:  # cards go into the secret offer: there are no open sales
        assert game.pending.kind == "offer"
        return
    architect = card("architect", variant)
    feed(game, [Ask(RED, "sell_for_offering", architect)] * 2)  # only red holds cards: he sells both
    heading = [i for i, line in enumerate(lines) if line.startswith("  Open sales before the secret")]
    assert len(heading) == 1 and lines[heading[0]].endswith("(red first):")
    sold = f"  red sells {w.a(w.card_noun('architect'))} for 1 {w.t('gold')}."
    assert lines[heading[0] + 1:heading[0] + 3] == [sold, sold]


# -- 6. kingdom scoring: what earned the points, running totals, the rulebook's order -------

@pytest.mark.parametrize("path", VARIANTS)
def test_kingdom_scoring_shows_what_earned_the_points_with_running_totals(path):
    """Blue's holdings of the 2003 scoring example (EDFU 1 double + 1 single and a temple, ABU
    1 double + 1 single, THEBES 1 single) against red's, at level 1, with 10 points before."""
    variant = variant_at(path)
    players = seats(4)
    players[BLUE].update(score=10, hand={"upper_lower": 1, "west_east": 1}, provinces={
        "Edfu": {"doubles": 1, "pyramids": 1}, "Abu": {"doubles": 1, "pyramids": 1}, "Thebes": {"pyramids": 1}})
    players[RED].update(provinces={"Memphis": {"pyramids": 2, "stones": 1}, "Buto": {}, "Mendes": {}})
    game, lines, w = prepared(path, players, rulings={"nile_min_pyramids": 1}, offering_level=1)  # A-NILE
    scored = game.variant.modules.scoring_in(game.state.kingdom)  # the items of this kingdom's end (its rulings)
    game.run_rules(list(scored))
    while game.pending is not None:  # play every bonus card held
        game.answer(game.pending.options[-1])
    said = "\n".join(lines)
    points = w.t("points")
    # each built-in scoring rule of the example by its rule id (its first entry): a variant may
    # rename an entry, or replace a built-in rule by a plug-in (a designer's `AMUNRE_PATH`
    # file), and only the rules it scores with are checked
    item = {}
    for m in scored:
        item.setdefault(m.spec.rule, w.item_label(m.spec.id))
    example = {"temples", "pyramids", "complete_sets", "fewest_pyramids", "nile_sides", "bonus_cards"}
    if not example & set(item):
        pytest.skip(f"{variant.id} scores with none of the built-in rules this example checks "
                    f"({', '.join(sorted(example))}): its scoring is {', '.join(m.spec.rule for m in scored)}")

    def line_of(player, key):
        return next(line for line in lines if line.startswith(f"  {player} scores") and f" for {key}" in line)

    # temples: which, where, at which level; pyramids: per province, a double counting 2
    if "temples" in item:
        assert f"blue scores 1 {points[:-1]} for {item['temples']}: {w.count(1, 'temple', 'temples')} in Edfu x 1" \
            in said
    if "pyramids" in item:
        pyramids = step_params(variant, "pyramids")
        assert line_of("blue", item["pyramids"]).startswith(
            f"  blue scores {3 * pyramids.single + 2 * pyramids.double} {points} for {item['pyramids']}: Edfu 3 "
            f"({w.count(1, 'double_pyramid')} and "
            f"{w.count(1, 'pyramid')}), Abu 3 (")
    if "complete_sets" in item and step_params(variant, "complete_sets").set_size == 3:  # (a set of 3 provinces)
        per_set = step_params(variant, "complete_sets").points
        assert f"1 set x {per_set} ({w.noun(2, 'pyramid')}: Edfu 3, Abu 3, Thebes 1)" in line_of(
            "blue", item["complete_sets"])
        assert "no set, Buto and Mendes have no" in line_of("red", item["complete_sets"])
    if "fewest_pyramids" in item:
        per_pyramid = step_params(variant, "fewest_pyramids").points
        assert f"Thebes has {w.count(1, 'pyramid')} x {per_pyramid}" in line_of("blue", item["fewest_pyramids"])
    # the Nile sides: the province with the most pyramids on each, and its count
    if "nile_sides" not in item:
        pass
    elif variant.rulings.nile_compare == "province":
        assert "  West side of the Nile: Edfu (blue) has the most" in said
        assert "  East side of the Nile: Abu (blue) has the most" in said
    else:  # a player's pyramids on a side
        assert f"  East side of the Nile: blue has the most {w.noun(2, 'pyramid')} (4)" in said
    # the bonus cards: what their condition looked at
    if "bonus_cards" in item:
        bonus = step_params(variant, "bonus_cards").points
        shown = points if bonus != 1 else points[:-1]
        assert f"  blue plays the {w.card_noun('upper_lower')} (all {w.t('upper_egypt')}): scores {bonus} {shown}" \
            in said
        assert f"  blue plays the {w.card_noun('west_east')} (Edfu {w.t('west_side')}; Abu and Thebes " in said
    # running totals: each of blue's lines ends with his total so far, in points and set apart
    # from the counts that scored (never "Buto 1, 19 in all", which reads as 19 pyramids)
    blue = "\n".join(line for line in lines if "blue" in line)
    assert not re.search(r", \d+ in all", said)
    if "pyramids" in item:
        assert re.search(rf"Thebes 1; now \d+ {points} in all\.$", line_of("blue", item["pyramids"]))
    totals = [int(m) for m in re.findall(rf"now (\d+) (?:{re.escape(points)}|{re.escape(points[:-1])}) in all", blue)]
    assert totals == sorted(totals) and totals[-1] == game.state.players[BLUE].score
    sets = {"fewest_pyramids", "complete_sets"}
    if example - sets <= set(item) and sets & set(item):  # the example's lines, a set item among them
        assert len(totals) >= 6
    if len(scored) == 5 and {m.spec.rule for m in scored} <= example and keeps_printed(variant, list(item)):
        # temples 1, pyramids 7, set 3, two Nile sides 10, one card met 3
        assert totals[-1] == 10 + 1 + 7 + 3 + 10 + 3
    assert f"  {points[:1].upper() + points[1:]} after" not in said  # the engine says that after a whole kingdom


@pytest.fixture
def tall_pyramids():
    """A designer's variant whose pyramids score through a plug-in (tests/plugins/tall.toml),
    the plug-in registered in this process (as an installed package's would be)."""
    plugins = Path(__file__).resolve().parent / "plugins"
    sys.path.insert(0, str(plugins))
    try:
        from tall_pyramids_rule import TallPyramids

        from amunre.core.registry import RULES, all_rules

        all_rules()
        RULES["tall_pyramids"] = TallPyramids
        yield plugins / "tall.toml"
        RULES.pop("tall_pyramids", None)
    finally:
        sys.path.remove(str(plugins))


def test_the_scoring_tests_run_over_a_variant_whose_plugin_replaces_a_built_in_rule(tall_pyramids):
    """A designer's folder (`AMUNRE_PATH`) with a variant whose plug-in replaces the built-in
    `pyramids` scoring: the shared scoring tests check the rules it has (it failed with a bare
    StopIteration looking for `pyramids`)."""
    assert not has_rule(load_variant(tall_pyramids), "pyramids")
    test_kingdom_scoring_shows_what_earned_the_points_with_running_totals(tall_pyramids)
    test_scoring_lines_follow_the_variants_order(tall_pyramids)
    with pytest.raises(LookupError, match="has no entry of the rule 'pyramids'.*has_rule"):
        step_params(load_variant(tall_pyramids), "pyramids")


@pytest.mark.parametrize("path", VARIANTS)
def test_scoring_lines_follow_the_variants_order(path):
    """The order of the lines is the order of the variant's scoring entries."""
    variant = variant_at(path)
    lines, _ = full_game(path)
    start = next(i for i, line in enumerate(lines) if line.startswith(f"=== {variant.term('scoring')} of"))
    end = next(i for i, line in enumerate(lines) if i > start and line.startswith("  ") and " after the " in line)
    section = lines[start:end]
    # the first kingdom's items (an entry may score in later kingdoms only)
    labels = [w for s in (m.spec for m in variant.modules.scoring_in(0))
              for w in ([f"for {words(variant).item_label(s.id)}"] if s.rule != "nile_sides" else ["side of the Nile"])]
    firsts = [next((i for i, line in enumerate(section) if label in line), None) for label in labels]
    seen = [i for i in firsts if i is not None]
    assert seen == sorted(seen) and len(seen) >= 3


def test_the_2003_order_is_the_rulebooks_and_2016_its_own():
    """R03 phase 6 scores 1. pyramids, 2. complete sets, 3. the Nile sides, 4. temples,
    5. bonus power cards; R16's Intermediate Scoring temples, pyramids, the fewest-pyramid
    province, the Nile, the yellow cards."""
    assert [s.rule for s in variant_at(_file("classic2003")).scoring] == [
        "pyramids", "complete_sets", "nile_sides", "temples", "bonus_cards"]
    assert [s.rule for s in variant_at(_file("supermeeple2016")).scoring] == [
        "temples", "pyramids", "fewest_pyramids", "nile_sides", "bonus_cards"]


def _file(stem):
    return next(path for path in variant_files() if path.stem == stem)


# -- 7. the end: the gold counted, a tie-break, the final table ------------------------------

@pytest.mark.parametrize("path", variant_files_using(printed=("gold_ranking",)))
def test_the_gold_ranking_shows_every_players_gold_first(path):
    players = seats(4)
    for p, gold in enumerate((30, 30, 12, 0)):
        players[p]["gold"] = gold
    players[BLUE]["hand"] = {"architect": 1}
    game, lines, w = prepared(path, players, rulings={"gold_ties": "competition", "theft_counts_in_gold": False})
    game.run_rules(list(game.final_scoring))
    while game.pending is not None:
        game.answer(game.pending.options[-1])  # blue sells his card
    gold = w.t("gold")
    counted = lines.index(f"  {gold[:1].upper() + gold[1:]} before the ranking: red 30, black 30, blue 13, white 0.")
    assert lines[counted - 1] == f"  blue sells {w.count(1, 'favor')} for 1 {gold} ({w.card_label('architect')})."
    assert lines[counted + 1:] == [
        f"  red has the most {gold} (30, tied with black): scores 6 {w.t('points')}, now 6 {w.t('points')} in all.",
        f"  black has the most {gold} (30, tied with red): scores 6 {w.t('points')}, now 6 {w.t('points')} in all.",
        f"  blue has the third most {gold} (13): scores 2 {w.t('points')}, now 2 {w.t('points')} in all.",
        f"  white has the fourth most {gold} (0): no {w.t('points')}.",
    ]


@pytest.mark.parametrize("path", VARIANTS)
def test_the_end_says_when_a_tie_break_decided(path):
    """Red and black end on 20 points; red has more pyramids and wins (R-GAME-06)."""
    variant = variant_at(path)
    players = seats(4)
    players[RED].update(score=20, provinces={"Abu": {"pyramids": 1, "doubles": 1}})
    players[BLACK].update(score=20, provinces={"Sawu": {"pyramids": 1, "stones": 2}})
    players[BLUE].update(score=20, provinces={"Edfu": {"pyramids": 1, "stones": 2}})
    game, lines, w = prepared(path, players)
    state = game.state
    standings = [standing(state, p) for p in range(4)]
    event = {"event": "game_end", "winners": [RED], "scores": [s[0] for s in standings],
             "pyramids": [s[1] for s in standings], "stones": [s[2] for s in standings]}
    line = literal(variant.modules.events["game_end"].narrate(event, w))
    assert line.split("\n")[1:] == [
        f"Game over. Winner: red with 20 {w.t('points')}.",
        f"red, black and blue tie with 20 {w.t('points')}; the tie-break: the most {w.noun(2, 'pyramid')} in own "
        f"provinces (red 3, black 1, blue 1)."]
    event.update(winners=[BLACK, BLUE], pyramids=[1, 1, 1, 0], stones=[0, 2, 2, 0])
    shared = variant.modules.events["game_end"].narrate(event, w)
    assert shared.endswith(f"the tie-break: the most {w.t('stones')} in own provinces (red 0, black 2, blue 2); "
                           f"black and blue share the victory.")


@pytest.mark.parametrize("path", VARIANTS)
def test_the_final_table_has_stones_the_editions_words_and_a_final_scoring_group(path, capsys):
    variant = variant_at(path)
    n = 4 if 4 in variant.players else variant.players[0]
    code, out, err = run_cli(capsys, "run", "--variant", str(path), "--seed", "2", "--players", str(n), "--quiet")
    assert code == 0, err
    w = words(variant)
    rows = [line.split("│")[1].strip() for line in out.splitlines() if line.startswith("│")]
    gold_item = w.item_label(variant.final_scoring[0].id)
    assert f"{variant.term('final_scoring')}: {gold_item}" in rows
    assert f"{variant.edition.kingdoms[-1]}: {gold_item}" not in rows
    assert rows[-4:] == [variant.term("gold"), w.noun(2, "pyramid"), w.t("stones"), "place"]
    assert "rank" not in rows and "pyramids" not in rows or w.noun(2, "pyramid") == "pyramids"


# -- options: --quiet, default, --verbose; --agents gives the player count; --pause ---------

def test_quiet_default_and_verbose(capsys):
    _, quiet, _ = run_cli(capsys, "run", "--seed", "4", "--quiet")
    _, default, _ = run_cli(capsys, "run", "--seed", "4")
    code, verbose, _ = run_cli(capsys, "run", "--seed", "4", "--verbose")
    assert code == 0
    assert "[phase 1" not in quiet and "Final score" in quiet
    assert "[phase 1" in default and "    > " not in default and "-- after round" not in default
    # every decision with its options, then the state at the end of each round
    assert re.search(r"    > red: Place your \w+ marker: .* -> bid \d+ on \w+ +\[\d+ options: bid \d+ on ", verbose)
    assert re.search(r"    > \w+: .* -> \d+ gold \(in secret\)", verbose)  # the sacrifice, secret
    summaries = re.findall(r"  -- after round (\d) of the (Old|New) Kingdom --\n((?:    .*\n){4})", verbose)
    assert len(summaries) == 6
    first = summaries[0][2]
    assert re.search(r"    red: \d+ gold, \d+ power cards? in hand, 0 points; \w+ \(\d+ farmers?, \d+ building "
                     r"stones?", first)
    # the rest of the play-by-play is the default's, line for line
    assert [line for line in verbose.splitlines() if not line.startswith("    ") and "-- after round" not in line] \
        == default.splitlines()


@pytest.mark.parametrize("argv", [["--quiet", "--verbose"], ["--json", "--pause"], ["--quiet", "--step"]])
def test_options_that_cannot_go_together(capsys, argv):
    code, out, err = run_cli(capsys, "run", "--seed", "1", *argv)
    assert code == 2 and "give one of them" in err


def test_the_player_count_comes_from_the_agents(capsys):
    code, out, err = run_cli(capsys, "run", "--variant", "classic2003", "--agents", "greedy,random,greedy",
                             "--seed", "3")
    assert code == 0 and ": 3 players, seed 3." in out and "white" not in out
    # the final table's columns: each seat's name over its agent
    assert re.search(r"┃ +red ┃ +blue ┃ +black ┃\n┃ +┃ +greedy ┃ +random ┃ +greedy ┃", out), out[-2500:]
    code, out, err = run_cli(capsys, "run", "--variant", "expert2016", "--agents", "greedy,greedy,greedy,greedy,"
                             "greedy", "--seed", "3")
    assert code == 2 and "--agents names 5 agents, but expert2016 is played by 3, 4 players" in err


def test_a_human_seat_among_bots_is_three_players(capsys, monkeypatch):
    """`--agents human,greedy,greedy` is a 3-player game (end of input then ends it). With a
    human seat the play-by-play goes with its questions, on stderr, and never says the seed,
    which tells every hidden card (it is said when the game is over)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run_cli(capsys, "run", "--variant", "classic2003", "--agents", "human,greedy,greedy",
                             "--seed", "3")
    assert ": 3 players. Each starts" in err and "Traceback" not in err
    assert "seed 3" not in err


def test_pause_waits_for_enter_between_phases_and_plays_on_at_end_of_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\n\n"))
    code, out, err = run_cli(capsys, "run", "--seed", "4", "--players", "3", "--step")
    assert code == 0 and "Final score" in out
    # three Enters: three waits answered (the first before the game's first phase), the fourth
    # meets the end of input and the game plays on
    assert err.count("-- Enter: next phase, q: quit --") == 4 and err.count("end of input: playing on") == 1
    assert out.index("[phase ") > out.index("Each starts with")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 1000))
    code, out, err = run_cli(capsys, "run", "--seed", "4", "--players", "3", "--pause")
    phases = out.count("\n[phase ") + out.count("=== scoring of") + out.count("=== final scoring")
    assert err.count("-- Enter: next phase, q: quit --") == phases  # the game's first phase too
