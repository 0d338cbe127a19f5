"""The table in the editions' own words: numbers that meet nouns, the seat's view before the
first offering, the questions the human seat is asked, what is decided for it, how a game ends
on a terminal of any width, and the answers a person types.
"""

from __future__ import annotations

import re

import pytest
from helpers import FakeTerminal, classic, edition2016, game_of, publish, published, run_cli, seats

from amunre.agents.seatview import full_view, own_view
from amunre.core.words import Narrator, Words

COLOURS = ["red", "black", "blue", "white"]
RED, BLACK, BLUE, WHITE = range(4)
EDITIONS = [pytest.param(classic, id="classic2003"), pytest.param(edition2016, id="supermeeple2016")]


def text_of(lines) -> str:
    return "\n".join(t.plain if hasattr(t, "plain") else str(t) for t in lines)


def narrated(game) -> list[str]:
    lines: list[str] = []
    game.listen(Narrator(game.variant, lambda text: lines.extend(text.split("\n")), COLOURS))
    return lines


# -- 2. one thing is singular wherever a number meets a noun ---------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_one_point_one_farmer_one_stone_are_singular(variant):
    v = variant()
    w = Words(v, COLOURS)
    players = seats(4, gold=3)
    players[RED].update(score=1, hand={"master_of_farmers": 1}, provinces={"Buto": {"farmers": 1}})
    players[BLACK].update(score=1)
    game = game_of(players, v)
    seen = text_of(own_view(game.view(RED))) + "\n" + text_of(full_view(game.view(RED)))
    assert f"; {w.count(1, 'points')}" in seen and re.search(r"\b1 (points|Victory Points)\b", seen) is None
    assert f"blue: 3 {w.t('gold')}, {w.count(1, 'points')}," in seen  # the view names seat 1 blue
    # the farmer bonus card counts 1 farmer
    lines = narrated(game)
    game.run_rules(["bonus_cards"])
    while game.pending is not None:
        game.answer(game.pending.options[-1])
    assert any(f"({w.count(1, 'farmer')}, " in line for line in lines), lines
    assert not any(re.search(rf"\b1 {re.escape(w.t('farmers'))}\b", line) for line in lines)
    # a tie on points, pyramids and stones: "1 stone each"
    end = v.modules.events["game_end"].narrate(
        {"event": "game_end", "winners": [RED, BLACK], "scores": [9, 9, 0, 0], "pyramids": [1, 1, 0, 0],
         "stones": [1, 1, 0, 0]}, w)
    assert f"{w.count(1, 'pyramid')} and {w.count(1, 'stone')} each" in end, end


def test_check_says_one_game(capsys):
    code, out, err = run_cli(capsys, "check", "classic2003", "--games", "1", "--players", "3")
    assert code == 0, err
    assert "1 game per player count" in out and "1 games" not in out


# -- 3. the seat's cards are named as cards: the "8 gold" card is no money -------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_the_hand_names_each_card_as_a_card(variant):
    v = variant()
    w = Words(v, COLOURS)
    players = seats(4, gold=5, theft=1)
    players[RED]["hand"] = {"treasury": 1, "master_of_farmers": 2}
    players[BLACK]["hand"] = {"treasury": 1}
    game = game_of(players, v)
    hand = f"hand: {w.card_noun('treasury')}, 2 x {w.card_noun('master_of_farmers')}, {w.t('theft')}"
    assert hand in text_of(own_view(game.view(RED))) and hand in text_of(full_view(game.view(RED)))
    if v.id == "classic2003":
        assert 'hand: "8 gold" power card, 2 x "farmer bonus" power card, -3 card' in hand
    # the cards sold before the gold ranking are named as cards too ("8 gold" in quotes in 2003)
    lines = narrated(game)
    game.run_rules(list(game.final_scoring))
    while game.pending is not None:
        game.answer(game.pending.options[-1])
    assert f"  black sells {w.count(1, 'favor')} for 1 {w.t('gold')} ({w.card_label('treasury')})." in lines
    assert w.card_label("treasury") == ('"8 gold"' if v.id == "classic2003" else "Treasury")


# -- 4. before the first offering there is no level, and income waits for it -----------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_before_the_first_offering_no_level_and_income_by_the_coming_level(variant):
    v = variant()
    w = Words(v, COLOURS)
    players = seats(3, gold=5)
    players[RED]["provinces"] = {"Memphis": {"farmers": 2}, "Abu": {}, "Kharga": {}}
    game = game_of(players, v, offering_level=0)
    seen = text_of(own_view(game.view(RED))) + "\n" + text_of(full_view(game.view(RED)))
    offering, gold = w.t("offering"), w.t("gold")
    assert f"{w.t('offering_level')}: no level yet (the first {offering} sets it)" in seen
    assert "level 0" not in seen and f"income 0 {gold}" not in seen
    mine, caravan = v.board.provinces[v.board.index("Abu")].mine, v.board.provinces[v.board.index("Kharga")].caravan
    assert f"Memphis: 2/2 fields used, income after the first {offering}: {w.count(2, 'farmer')} x its level, in " \
           f"{gold}" in seen
    assert f"Abu: 0/{v.board.provinces[v.board.index('Abu')].fields} fields used, income after the first " \
           f"{offering}: {mine} {gold}" in seen
    assert f"(+{caravan} {gold} at level 1 or 2)" in seen
    # the offering's own facts say so too
    game.run_rules(["offering"])
    while game.pending.kind != "offer":
        game.answer(None)
    from amunre.agents.asking import decision_block
    facts = text_of(decision_block(game.view(game.pending.player), game.pending))
    assert "level 0" not in facts and f"no level yet (the first {offering} sets it)" in facts
    # once placed, the level and the income are plain numbers
    game = game_of(players, v, offering_level=2)
    seen = text_of(own_view(game.view(RED)))
    assert f"Memphis: 2/2 fields used, income 4 {gold}" in seen


# -- 5 and 13. a sale covers a shortfall, said in the edition's words ------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_a_sale_says_the_shortfall_of_a_purchase_in_the_editions_words(variant):
    from amunre.agents.asking import decision_block

    v = variant()
    w = Words(v, COLOURS)
    players = seats(3, gold=2)
    players[RED].update(hand={"architect": 1, "treasury": 1}, provinces={"Buto": {}})
    game = game_of(players, v, offering_level=1)
    game.run_rules(["market"])
    if game.pending.kind == "buy_cards":
        game.answer(0)
    assert game.pending.kind == "buy_farmers"
    game.answer(2)  # 3 gold, with 2
    assert game.pending.kind == "sell"
    shown = text_of(decision_block(game.view(RED), game.pending))
    gold, farmers = w.t("gold"), w.t("farmers")
    assert f"You are 1 {gold} short for the {farmers}: which {w.t('favor')} do you sell for 1 {gold}?" in shown
    assert f"Cost of the {farmers}: 3 {gold}; you have 2 {gold}, 1 {gold} short." in shown
    assert not re.search(r"\bowed?\b", shown, re.IGNORECASE)
    if v.id == "supermeeple2016":
        assert "for the Farmers" in shown and "for the farmers" not in shown


def test_the_2016_bid_asks_for_the_scribe_pawn():
    """R16 › The Auction Phase: "places his Scribe pawn on Thebes"."""
    from helpers import pid

    from amunre.agents.asking import asking_for, question_text

    v = edition2016()
    game = game_of(seats(3, gold=5), v)
    publish(game.state, "round_provinces", [pid("Buto", v), pid("Edfu", v), pid("Thebes", v)])
    lines = narrated(game)
    game.run_rules(["auction"])
    assert question_text(asking_for(game.view(0), game.pending)) == \
        "Place your Scribe pawn: on which province card, and how much?"
    game.answer((pid("Buto", v), 3, ()))
    assert "  red places the Scribe pawn on space 3 of Buto." in lines, lines


# -- 6. the double-pyramid question counts the singles standing ------------------------------

@pytest.mark.parametrize("singles", [1, 2])
def test_the_double_pyramid_question_counts_the_singles_already_there(singles):
    """R03 › phase 3: "When a player builds a second pyramid in a province, he may replace the 2
    single pyramids with a double pyramid" (A-DOUBLESWAP optional in 2003): with two singles
    kept, the new one is the third, and it swaps with one of them."""
    from amunre.agents.asking import asking_for, decision_block, option_text

    v = classic()
    players = seats(3, gold=10)
    players[RED]["provinces"] = {"Dakhla": {"pyramids": singles, "stones": 2}}
    game = game_of(players, v)
    lines = narrated(game)
    game.run_rules(["market"])
    while game.pending.kind != "buy_stones":
        game.answer(0)
    game.answer(1)
    while game.pending.kind != "double_swap":
        game.answer(game.pending.options[0])
    request = game.pending
    shown = text_of(decision_block(game.view(RED), request))
    if singles == 1:
        assert ("The 3 building stones in Dakhla become a pyramid, its second single pyramid: do you swap the two "
                "singles for a double pyramid?") in shown
        assert "Dakhla once it is built: 2 pyramids if you keep them; 1 double pyramid if you swap." in shown
    else:
        assert ("The 3 building stones in Dakhla become a pyramid, where 2 pyramids already stand single: do you "
                "swap the new one and one of them for a double pyramid?") in shown
        assert "Dakhla once it is built: 3 pyramids if you keep them; 1 double pyramid and 1 pyramid if you " \
               "swap." in shown
        assert "second" not in shown
    options = [option_text(asking_for(game.view(RED), request), o) for o in request.options]
    assert options == ["swap two single pyramids for a double pyramid", "keep the single pyramids"]
    game.answer(True)
    assert ("  The 3 building stones in Dakhla become a pyramid: with a single pyramid already there it makes a "
            "double pyramid.") in lines
    prov = game.state.provinces[v.board.index("Dakhla")]
    assert (prov.pyramids, prov.doubles) == (singles - 1, 1)


# -- 7. what is decided for the human seat, because it was its only option, is told ------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_a_forced_decision_of_the_human_seat_is_told_in_one_line(variant):
    """With no gold and no card, the theft card is red's only offer: never asked, and told."""
    from amunre.agents import make_agent
    from amunre.agents.human import HumanAgent
    from amunre.cli.run import TellForced, play_with_people

    v = variant()
    w = Words(v, COLOURS)
    players = seats(3, gold=6, theft=1)
    players[RED]["gold"] = 0
    for player, where in zip(players, ("Buto", "Edfu", "Thebes")):
        player["provinces"] = {where: {}}
    terminal = FakeTerminal()
    agents = [HumanAgent(terminal), make_agent("greedy", 1, 1), make_agent("greedy", 1, 2)]
    tell = TellForced(agents)
    game = game_of(players, v)
    game.on_forced = tell
    game.run_rules(["offering"])
    tell.start(game)
    play_with_people(game, agents, tell)
    told = [line for line in terminal.shown if "only option" in line]
    assert len(told) == 1 and not [p for p in terminal.shown if p.startswith("choice")], terminal.shown
    assert told[0].startswith("-- red: ") and told[0].endswith("(your only option: taken for you)")
    assert w.t("theft") in told[0]
    assert game.clone().on_forced is None  # (a clone, as an agent's search plays, tells nobody)


# -- 8. `v` shows the decision's facts too: the bids on auction ------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_the_full_view_keeps_the_bids_bidders_and_protection(variant):
    from helpers import card, pid

    from amunre.agents.human import HumanAgent

    v = variant()
    players = seats(3, gold=5)
    players[RED].update(gold=12, hand={"protection": 1, "bribery": 1})
    players[BLACK]["hand"] = {"free_farmer": 2}
    game = game_of(players, v)
    on_auction = [pid("Buto", v), pid("Edfu", v), pid("Thebes", v)]
    publish(game.state, "round_provinces", list(on_auction))
    game.run_rules(["auction"])
    game.answer((on_auction[0], 1, (card("protection", v),)))
    terminal = FakeTerminal(["v", "0"])
    HumanAgent(terminal).choose(game.view(1), game.pending)
    after_v = "\n".join(terminal.shown[terminal.shown.index(next(s for s in terminal.shown if s.startswith("== "))):])
    assert "Supply: " in after_v  # the whole board
    assert f"Buto: top bid 1 by red ({v.term('protection')}: outbidding skips a space)" in after_v
    assert "Edfu: no bid yet" in after_v and re.search(r"\n  Edfu: +\d\) 0 ", after_v), after_v


# -- 9. expert 2016: the seat sees its own secret province cards ------------------------------

def test_the_expert_seat_sees_its_secret_province_hand():
    from amunre.core.engine import Game
    from amunre.loader import load_variant

    v = load_variant("expert2016")
    game = Game(v, 3, 4)
    assert game.pending.kind == "pick_province"
    view = game.view(game.pending.player)
    hand = view.rules["province_draft"]["hand"]
    names = Words(v).join([v.board.provinces[p].name for p in hand])
    said = f"Your secret {v.term('province_cards')}: {names} (one put up each round)"
    assert said in text_of(own_view(view)) and said in text_of(full_view(view))
    other = game.view((game.pending.player + 1) % 3)
    assert "Your secret" in text_of(own_view(other)) and names not in text_of(own_view(other))
    # a classic game has no secret hand to show
    classic_game = Game(classic(), 3, 4)
    assert "Your secret" not in text_of(own_view(classic_game.view(classic_game.pending.player)))


# -- 10. --quiet says how a tie was broken ----------------------------------------------------

def tie_broken_by_pyramids(players: int = 3) -> tuple[int, int, int, int, int, int]:
    """The first seed whose random game ends with two players tied on the most points and
    the pyramids breaking it: (seed, winner, runner-up, points, their pyramids)."""
    from amunre.agents import make_agents
    from amunre.core.engine import play_game
    from amunre.core.standing import standing

    for seed in range(2000):
        game = play_game(classic(), make_agents(["random"] * players, seed), seed)
        ranked = sorted(range(players), key=lambda p: standing(game.state, p), reverse=True)
        (first, first_pyramids, _), (second, second_pyramids, _) = (standing(game.state, p) for p in ranked[:2])
        if first == second and first_pyramids > second_pyramids:
            return seed, ranked[0], ranked[1], first, first_pyramids, second_pyramids
    raise AssertionError("no random game of 2000 seeds ends in a tie broken by pyramids")


def test_quiet_says_how_a_tie_was_broken_in_one_line(capsys):
    """A game where the two best tie on points and the pyramids break it (found by seed; the
    numbers are the game's)."""
    seed, winner, runner_up, points, winner_pyramids, runner_up_pyramids = tie_broken_by_pyramids()
    names = ["red", "blue", "black"]
    first, second = sorted((winner, runner_up))  # the line names them in seat order
    pyramids = {winner: winner_pyramids, runner_up: runner_up_pyramids}
    argv = ["run", "--players", "3", "--seed", str(seed), "--agents", "random"]
    code, out, err = run_cli(capsys, *argv, "--quiet")
    assert code == 0, err
    said = (f"{names[first]} and {names[second]} tie with {points} points; the tie-break: the most pyramids in own "
            f"provinces ({names[first]} {pyramids[first]}, {names[second]} {pyramids[second]}).")
    assert out.rstrip().splitlines()[-2:] == [f"Winner: {names[winner]}   (seed {seed})", said]
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and out.count(said) == 1  # the play-by-play says it once, before the table


# -- 11. a caravan that pays nothing is said ---------------------------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_the_harvest_says_when_a_caravan_pays_nothing(variant):
    v = variant()
    w = Words(v, COLOURS)
    players = seats(3)
    players[RED]["provinces"] = {"Kharga": {"farmers": 1}, "Memphis": {}}
    players[BLACK]["provinces"] = {"Sawu": {}}
    game = game_of(players, v, offering_level=3)
    lines = narrated(game)
    game.run_rules(["harvest"])
    caravan, gold = w.t("caravan"), w.t("gold")
    assert (f"  red takes 3 {gold}: Kharga {w.count(1, 'farmer')} x 3 = 3; the {caravan} of Kharga (5) pays "
            f"nothing at level 3, which shows no camel.") in lines, lines
    assert (f"  black takes no {gold}: no {w.t('farmers')} and nothing else pays in Sawu; the {caravan} of Sawu "
            f"(7) pays nothing at level 3, which shows no camel.") in lines, lines


# -- 12. a Nile tie within one player's provinces: he scores once ------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_a_nile_tie_between_one_players_provinces_reads_as_one_score(variant):
    v = variant()
    w = Words(v, COLOURS)
    assert v.board.provinces[v.board.index("Memphis")].side == v.board.provinces[v.board.index("Dakhla")].side
    players = seats(4)
    players[BLACK].update(score=25, provinces={"Memphis": {"doubles": 2}, "Dakhla": {"doubles": 2}})
    players[RED]["provinces"] = {"Edfu": {"pyramids": 1}}
    game = game_of(players, v)
    lines = narrated(game)
    game.run_rules(["nile_sides"])
    side = v.board.provinces[v.board.index("Memphis")].side
    line = next(line for line in lines if line.startswith(f"  {side.capitalize()} side of the Nile"))
    assert line == (f"  {side.capitalize()} side of the Nile: Memphis and Dakhla, both black's, have the most "
                    f"{w.noun(2, 'pyramid')} (4) and as many {w.t('stones')} (0): black scores 5 {w.t('points')}, "
                    f"now 30 {w.t('points')} in all."), line
    assert "each of them" not in line


# -- 14. each item bought is placed with its count ---------------------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_placing_what_was_bought_counts_the_items(variant):
    from amunre.agents.asking import asking_for, question_text

    v = variant()
    w = Words(v, COLOURS)
    players = seats(3, gold=30)
    players[RED]["provinces"] = {"Buto": {}, "Thebes": {}}
    game = game_of(players, v, offering_level=1)
    game.run_rules(["market"])
    asked = []
    while game.pending is not None and game.pending.player == RED:
        request = game.pending
        if request.kind in ("place_farmer", "place_stone"):
            asked.append(question_text(asking_for(game.view(RED), request)))
        game.answer({"buy_farmers": 2, "buy_stones": 3}.get(request.kind, request.options[0]))
    assert asked == [f"Where does {w.t('farmer')} 1 of the 2 you bought go?",
                     f"Where does {w.t('farmer')} 2 of the 2 you bought go?",
                     f"Where does {w.t('stone')} 1 of the 3 you bought go?",
                     f"Where does {w.t('stone')} 2 of the 3 you bought go?",
                     f"Where does {w.t('stone')} 3 of the 3 you bought go?"], asked


# -- 15. the play-by-play has each seat's colour on a terminal, plain text when piped -----------

def test_the_play_by_play_colours_the_seats_on_a_terminal_only():
    import os
    import subprocess
    import sys
    from pathlib import Path

    pexpect = pytest.importorskip("pexpect", reason="the test extra (pexpect) is not installed: pip install '.[test]'")
    repo = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=repo, TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    argv = ["-m", "amunre", "run", "--players", "3", "--seed", "1"]
    child = pexpect.spawn(sys.executable, argv, env=env, encoding="utf-8", timeout=60, dimensions=(40, 120))
    try:
        child.expect(pexpect.EOF)
        child.close()
    finally:
        child.terminate(force=True)
    shown = child.before
    assert child.exitstatus == 0
    # a play-by-play line, before the final table: the seats' names are styled
    assert re.search(r"\x1b\[[0-9;]*m(red|blue|black)\x1b\[0m places the bidding marker", shown), shown[:2000]
    piped = subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, timeout=60)
    assert piped.returncode == 0 and "\x1b" not in piped.stdout and "places the bidding marker" in piped.stdout


# -- 17. the final table fits 80 columns with 5 players ----------------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_the_five_player_final_table_fits_an_80_column_terminal(variant):
    import io

    from rich.console import Console

    from amunre.agents import make_agents
    from amunre.cli.run import final_table
    from amunre.core.engine import play_game
    from amunre.core.results import game_result
    from amunre.core.words import player_names

    v = variant()
    game = play_game(v, make_agents(["greedy"] * 5, 1), 1)
    result = game_result(game, player_names(5), ["greedy"] * 5)
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(final_table(v, result))
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    body = [line for line in lines if line.startswith("│")]
    rows = [line for line in body if line.split("│")[2].strip()]  # a row starts where its numbers are
    # a label takes two lines at most: never two continuation lines in a row
    continued = [not line.split("│")[2].strip() for line in body]
    assert not any(a and b for a, b in zip(continued, continued[1:])), "\n".join(lines)
    # the numbers never wrap, and each label starts with its kingdom's whole name
    assert all(line.split("│")[1].strip().startswith(tuple(v.edition.kingdoms) + (
        v.term("final_scoring"), f"total {v.term('points')}", v.term("gold"), "place")) or
        line.split("│")[1].strip() in (Words(v).noun(2, "pyramid"), v.term("stones"))
        for line in rows), "\n".join(lines)


# == answers typed, terminals and pauses =========================================================
#
# the defects a second reading found, each checked where a player meets it.

def _run(*argv, stdin="", timeout=120):
    """`amunre ARGV` in a process of its own, stdout and stderr apart; answers piped in."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    return subprocess.run([sys.executable, "-m", "amunre", *argv], input=stdin, capture_output=True, text=True,
                          env=env, timeout=timeout)


# -- r1. a number of thousands of digits is no option, nor any other number read ---------------

def test_a_number_of_thousands_of_digits_is_asked_again_not_a_crash(capsys, tmp_path):
    from helpers import write

    from amunre.agents.prompt import parse_choice

    index, hint = parse_choice("9" * 5000, 21)
    assert index is None and hint.startswith("There is no option 99999999999999999...: enter 0 to 20")
    assert parse_choice("0" * 5000 + "7", 21) == (7, None)
    run = _run("run", "--agents", "human,greedy,greedy", "--seed", "1", stdin="9" * 5000 + "\nq\n")
    assert run.returncode == 4, run.stderr[-3000:]
    assert "There is no option 99999999999999999...: enter 0 to " in run.stderr
    assert "internal error" not in run.stderr and run.stderr.count("choice [") == 2
    # the other numbers read from a user or a file: an agent's parameter, a term's number, a table key
    code, out, err = run_cli(capsys, "run", "--players", "3", "--quiet", "--agents", "mcts:iterations=" + "9" * 5000)
    assert code == 2 and "is not a whole number from 1 to 1000000" in err and "internal error" not in err
    for name, text in (("terms", f'[terms]\noffering_level_{"9" * 5000} = "x"\n'),
                       ("deck", f'[components.deck]\n{"9" * 5000} = -1\n')):
        path = write(tmp_path / f"{name}.toml", f'extends = "classic2003"\n{text}')
        code, out, err = run_cli(capsys, "validate", str(path))
        assert code == 1 and "internal error" not in err + out and "not valid" in out + err, err[-2000:]


# -- r2. --verbose shows a human seat nothing the bots hide ---------------------------------------

@pytest.mark.parametrize("variant", ["classic2003", "expert2016"])
def test_verbose_with_a_human_seat_shows_no_bot_decision(variant):
    """The bots' lines would show their secret offers and picks before the human answers,
    and their options and questions their hands: with a human seat --verbose adds only the
    round summaries (the play-by-play reveals the secrets in turn)."""
    run = _run("run", "--variant", variant, "--agents", "greedy,greedy,human", "--seed", "7", "--verbose",
               stdin="0\n" * 600)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = run.stdout + run.stderr
    assert "    > " not in seen and "(in secret)" not in seen
    assert "black, your decision" in run.stderr and "-- after round 1 of the Old Kingdom --" in run.stderr
    if variant == "expert2016":  # the others' secret province cards never show: only the picks revealed
        assert "Your secret Province cards" in run.stderr and "The secret picks are revealed" in run.stderr
    # a bot game keeps every decision, options included
    bots = _run("run", "--variant", variant, "--players", "3", "--seed", "7", "--verbose")
    assert "    > red: " in bots.stdout and "(in secret)" in bots.stdout


# -- r3. with a human seat the play-by-play and the questions come in one stream, in order ---------

def test_with_a_human_seat_the_play_by_play_goes_with_the_questions_in_order():
    run = _run("run", "--agents", "human,greedy,greedy", "--seed", "5", stdin="19\n2\n")
    assert run.returncode == 4
    err = run.stderr
    # the seat's stream holds the play-by-play, each line before the question that follows it
    assert err.index("red draws the province cards") < err.index("-- red, your decision")
    second = err.index("-- red, your decision", err.index("choice ["))
    assert err.index("  blue places the bidding marker") < second
    assert err.index("  black acquires") < second and err.index("[phase 3") < second
    assert "[phase" not in run.stdout and "your decision" not in run.stdout  # stdout: the command's result only


# -- r4. an answer piped in ends its prompt line ------------------------------------------------

def test_an_answer_piped_in_is_written_after_its_prompt():
    answers = ["19", "2", "2", "1", "0", "abc", "1"]
    run = _run("run", "--agents", "human,greedy,greedy", "--seed", "5", stdin="".join(f"{a}\n" for a in answers))
    assert run.returncode == 4
    after = re.findall(r"q quit\]: (.*)\n", run.stderr)
    # the answer, then the line ends: nothing runs on after the prompt (the end of input too)
    assert after == answers + [""], after
    assert "q quit]: \nEnd of input: red leaves the table" in run.stderr


# -- r5. the final score at 50 and 60 columns ----------------------------------------------------

@pytest.mark.parametrize("width", [50, 60, 80])
def test_the_final_score_stays_readable_on_a_narrow_terminal(width):
    import io

    from rich.console import Console

    from amunre.agents import make_agents
    from amunre.cli.run import final_score
    from amunre.core.engine import play_game
    from amunre.core.results import game_result, item_label
    from amunre.core.words import player_names

    v = classic()
    game = play_game(v, make_agents(["greedy"] * 5, 2), 2)
    result = game_result(game, player_names(5), ["greedy"] * 5)
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(final_score(v, result, width))
    text = out.getvalue()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width and "…" not in text, text
    if width == 80:  # wide enough: the table
        assert lines[1].startswith("┏") and "│ Old Kingdom: pyramids" in text
        return
    # a block per player, in place order, each kingdom's items with their points on one line
    heads = [line for line in lines if re.match(r"\w+ \(greedy\): \d(st|nd|rd|th) place, \d+ points$", line)]
    assert [h.split()[0] for h in heads] == [pl["name"] for pl in sorted(result["players"], key=lambda p: p["rank"])]
    flat = " ".join(line.strip() for line in lines)
    for pl in result["players"]:
        for group, items in pl["items"].items():
            assert f"{group} ({sum(items.values())}): " in flat
            for item, points in items.items():
                if points:
                    assert re.search(rf"\b{re.escape(item_label(v, item))} {points}\b", text), (item, text)
        assert f"{pl['gold']} gold, " in flat


# -- r6. a bid question on an 80x24 terminal --------------------------------------------------------

def test_the_bid_options_are_a_line_per_card_and_long_lines_wrap_at_80_columns():
    import io

    from helpers import card

    from amunre.agents.human import HumanAgent
    from amunre.agents.terminal import Terminal
    from amunre.core.engine import Game

    # a game whose first auction, red to bid first, shows Abu first and Memphis (the longest line)
    game = next(g for g in (Game(classic(), 3, seed) for seed in range(2000))
                if published(g.state, "on_auction")[0] == pid_of("Abu")
                and pid_of("Memphis") in published(g.state, "on_auction")
                and g.pending.player == RED)
    request = game.pending
    assert request.kind == "bid" and len(request.options) == 21
    out = io.StringIO()
    terminal = Terminal(err=out, stdin=io.StringIO("q\n"), wrap=True, width=80)
    from amunre.agents.human import LeftTheTable

    with pytest.raises(LeftTheTable):  # (`q`: the question was shown, then he left)
        HumanAgent(terminal).choose(game.view(request.player), request)
    shown = out.getvalue().split("red leaves the table")[0].splitlines()
    assert max(len(line) for line in shown) <= 80
    assert len(shown) <= 23, "\n".join(shown)  # the whole question on a 24-line screen, with its prompt line
    assert "  Abu:      0) 0     1) 1     2) 3     3) 6     4) 10    5) 15    6) 21*" in shown, "\n".join(shown)
    assert "  * more than your gold: you must sell 1 power card" in shown
    # the 103-character province line, cut between words, its continuation indented
    at = next(i for i, line in enumerate(shown) if line.startswith("  Memphis: no bid yet -- "))
    assert shown[at + 1].startswith("      ") and not shown[at].endswith(" ")
    # a bidding blockade doubles the bids: two lines per card at most
    players = seats(3, gold=20)
    players[RED]["hand"] = {"protection": 1, "architect": 1}
    prepared = game_of(players, classic())
    publish(prepared.state, "round_provinces", [pid_of("Abu"), pid_of("Mendes"), pid_of("Memphis")])
    prepared.run_rules(["auction"])
    request = prepared.pending
    assert any(card("protection", classic()) in o[2] for o in request.options) and len(request.options) > 40
    from amunre.agents.asking import asking_for, option_lines
    options = [t.plain for t in option_lines(asking_for(prepared.view(RED), request), 80)]
    assert len(options) <= 10 and max(len(line) for line in options) <= 80, "\n".join(options)
    assert '  Abu + "bidding blockade":' in "\n".join(options)


def pid_of(name: str) -> int:
    return classic().board.index(name)


# -- r7. q at a --pause prompt leaves the table --------------------------------------------------

def test_q_at_a_pause_prompt_leaves_the_table_with_exit_code_4(capsys, monkeypatch, tmp_path):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nq\n"))
    code, out, err = run_cli(capsys, "run", "--seed", "4", "--players", "3", "--pause", "--log",
                             str(tmp_path / "game.jsonl"))
    assert code == 4 and "You leave the table: the game stops here." in err and "Final score" not in out
    assert err.count("-- Enter: next phase, q: quit --") == 3 and "marked incomplete" in err
    code, out, err = run_cli(capsys, "replay", str(tmp_path / "game.jsonl"))
    assert code == 0 and "incomplete game" in out
    # at the very first wait, before any decision: nothing to log, and said so
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    code, out, err = run_cli(capsys, "run", "--seed", "4", "--players", "3", "--pause", "--log",
                             str(tmp_path / "first.jsonl"))
    assert code == 4 and "no log written" in err and not (tmp_path / "first.jsonl").exists()
    assert "Traceback" not in err and "aborted" not in err


# -- r9. the others' theft card reads as a card --------------------------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_the_others_theft_card_is_a_card_not_a_count(variant):
    v = variant()
    w = Words(v, COLOURS)
    game = game_of(seats(3, gold=5, theft=1), v)
    seen = text_of(own_view(game.view(RED)))
    assert f"{w.count(0, 'favor')}, {w.a(w.t('theft'))}; no provinces" in seen
    assert f"1 {w.t('theft')}" not in seen, seen


# -- r10. --quiet and --json keep the human seat's play-by-play -----------------------------------

@pytest.mark.parametrize("flag", ["--quiet", "--json"])
def test_a_human_seat_sees_the_play_by_play_whatever_stdout_leaves_out(flag):
    run = _run("run", "--agents", "human,greedy,greedy", "--seed", "5", flag, stdin="0\n" * 400)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "  blue places the bidding marker" in run.stderr and "=== New Kingdom ===" in run.stderr
    assert "[phase" not in run.stdout
    if flag == "--json":
        import json

        assert json.loads(run.stdout)["players"][0]["agent"] == "human"
    else:
        assert "Final score" in run.stdout
    assert "A human seat still sees the play-by-play" in " ".join(_run("run", "--help").stdout.split())


# -- r11. the open sale: "sell nothing", then "sell no more" ---------------------------------------

@pytest.mark.parametrize("variant", EDITIONS)
def test_the_open_sale_says_nothing_first_and_no_more_after_a_sale(variant):
    from amunre.agents.asking import decision_block

    v = variant()
    players = seats(3, gold=6, theft=1)
    for player, where in zip(players, ("Buto", "Edfu", "Thebes")):
        player["provinces"] = {where: {}}
    players[RED]["hand"] = {"architect": 2}
    game = game_of(players, v)
    game.run_rules(["offering"])
    while game.pending.player != RED:
        game.answer(None)
    assert game.pending.kind == "sell_for_offering"
    first = text_of(decision_block(game.view(RED), game.pending))
    assert "  0. sell nothing\n" in first and "(more)" not in first and f"do you sell a {v.term('favor')}" in first
    game.answer(game.pending.options[1])
    again = text_of(decision_block(game.view(RED), game.pending))
    assert game.pending.kind == "sell_for_offering" and "  0. sell no more\n" in again
    assert f"do you sell another {v.term('favor')} openly" in again
