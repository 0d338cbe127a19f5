"""The human seat: a person plays a whole game at a terminal against the bots.

- Through a pseudo-terminal (pexpect), a scripted human plays a full 3-player game against two
  greedy bots, typing one bad input of each kind on the way; the game's log replays to the same
  result.
- The renderer, on prepared positions, speaks each edition's words: the view (gold, the hand
  with the theft card, provinces with fields used of total, income), the facts of the decision
  (the bids on each card, the price of each quantity, what is still owed, "reward 2 of 3") and
  the numbered options.
- Nothing hidden reaches the screen: what the seat is shown is the same when the others' hands,
  the card pile and the face-down cards are dealt otherwise, and when an earlier sealed offer
  differs.
- The prompt reads ASCII digits only; `q` and the end of input stop the game cleanly.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FakeTerminal, card, classic, edition2016, game_of, pid, publish, seats

from amunre.agents.asking import asking_for, decision_block, option_text
from amunre.agents.prompt import LeftTheTable, choose, parse_choice
from amunre.agents.seatview import full_view, own_view
from amunre.core.engine import Game
from amunre.core.view import hide_from
from amunre.core.words import Words

REPO = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def noun(variant, kind: str) -> str:
    """A card as the edition names it as a noun (the 2003 `"builder" power card`)."""
    from amunre.core.words import Words

    return Words(variant).card_noun(kind)


def text_of(lines) -> str:
    return "\n".join(t.plain if hasattr(t, "plain") else str(t) for t in lines)


def shown(game, player=None) -> str:
    """Everything the seat asked now is shown: the decision block and the whole board (`v`)."""
    request = game.pending
    view = game.view(request.player if player is None else player)
    return text_of(decision_block(view, request, 100)) + "\n" + text_of(full_view(view))


# -- a whole game at a pseudo-terminal ----------------------------------------------------------

def test_a_scripted_human_plays_a_whole_game_at_a_terminal_and_its_log_replays(tmp_path):
    pexpect = pytest.importorskip("pexpect", reason="the test extra (pexpect) is not installed: pip install '.[test]'")
    log = tmp_path / "game.jsonl"
    env = dict(os.environ, PYTHONPATH=str(REPO), TERM="xterm-256color", COLUMNS="120")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "amunre", "run", "--players", "3", "--agents", "human,greedy,greedy",
                                           "--seed", "11", "--log", str(log)],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=30, dimensions=(40, 120))
    prompt = re.compile(r"choice \[0-(\d+), \? help, v board, p scoring, c cards, q quit\]: ")
    rng = random.Random(5)
    bad = [("abc", "is not an option number"), ("", "Nothing typed"), ("999", "There is no option 999"),
           ("1_0", "is not an option number"), ("?", "leave the table"), ("v", "Supply:"),
           ("p", "If the scoring came now:"), ("c", "Builds a pyramid from 2")]
    seen_before_first = ""
    answered = 0
    try:
        while True:
            if child.expect([prompt, pexpect.EOF]) == 1:
                break
            if not seen_before_first:
                seen_before_first = ANSI.sub("", child.before)
            if bad:
                typed, reply = bad.pop(0)
                child.sendline(typed)
                child.expect(re.escape(reply))
                continue
            top = int(child.match.group(1))
            child.sendline(str(rng.randint(0, top)))
            answered += 1
        child.close()
    finally:
        child.terminate(force=True)
    assert child.exitstatus == 0, child.before
    assert answered > 20
    first = seen_before_first
    assert "red, your decision" in first and "You (red): 20 gold; hand: \"builder\" power card, -3 card" in first
    assert "on auction" in first and "no bid yet" in first
    assert re.search(r"\n  \w+: +\d+\) 0 +\d+\) 1 ", first), first  # the bids a line per card
    assert "bid" not in re.findall(r"\(([a-z_]+)\)", first)  # no engine kind in brackets
    # the result of the game as the run printed it, and as its log replays
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    end = next(line for line in lines if line.get("event") == "game_end")
    replay = subprocess.run([sys.executable, "-m", "amunre", "replay", str(log)], capture_output=True, text=True,
                            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=60)
    assert replay.returncode == 0, replay.stderr
    assert f"scores {end['scores']}" in replay.stdout, replay.stdout
    names = ["red", "blue", "black"]
    winners = " and ".join(names[w] for w in end["winners"])
    assert f"Winner{'s' if len(end['winners']) > 1 else ''}: {winners}" in ANSI.sub("", child.before)


def test_the_seat_has_colours_on_a_terminal_and_plain_text_when_piped():
    pexpect = pytest.importorskip("pexpect", reason="the test extra (pexpect) is not installed: pip install '.[test]'")
    env = dict(os.environ, PYTHONPATH=str(REPO), TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "amunre", "run", "--players", "3", "--agents", "human,greedy,greedy",
                                           "--seed", "3", "--quiet"], env=env, encoding="utf-8", timeout=30)
    try:
        child.expect("choice ")
        assert "\x1b[" in child.before and "red" in ANSI.sub("", child.before)
        child.sendline("q")
        child.expect(pexpect.EOF)
        child.close()
    finally:
        child.terminate(force=True)
    assert child.exitstatus == 4 and "leaves the table" in child.before and "Traceback" not in child.before
    piped = subprocess.run([sys.executable, "-m", "amunre", "run", "--players", "3", "--agents", "human,greedy,greedy",
                            "--seed", "3", "--quiet"], input="0\n" * 400, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=60)
    assert piped.returncode == 0, piped.stderr[-2000:]
    assert "your decision" in piped.stderr and "\x1b" not in piped.stderr and "\x1b" not in piped.stdout


@pytest.mark.parametrize("stdin, said", [("", "End of input: red leaves the table"),
                                          ("abc\n\nq\n", "red leaves the table")])
def test_q_or_the_end_of_input_stops_the_game_cleanly(stdin, said):
    run = subprocess.run([sys.executable, "-m", "amunre", "run", "--players", "3", "--agents", "human,greedy,greedy",
                          "--seed", "3", "--json"], input=stdin, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=60)
    assert run.returncode == 4 and said in run.stderr and run.stdout == ""
    # the clean message is the last word: no "aborted" after it (a player's choice, not an error)
    assert run.stderr.rstrip().endswith("the game stops here.") and "Traceback" not in run.stderr
    assert "aborted" not in run.stderr


# -- the prompt -------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, index", [("0", 0), (" 7 ", 7), ("12", 12), ("007", 7)])
def test_a_number_in_ascii_digits_picks_an_option(typed, index):
    assert parse_choice(typed, 13) == (index, None)


@pytest.mark.parametrize("typed, hint", [
    ("1_0", "is not an option number"), ("١", "is not an option number"), ("+1", "is not an option number"),
    ("1.0", "is not an option number"), ("-1", "is not an option number"), ("abc", "is not an option number"),
    ("", "Nothing typed"), ("   ", "Nothing typed"), ("13", "There is no option 13"),
])
def test_anything_else_is_asked_again_with_a_hint(typed, hint):
    index, said = parse_choice(typed, 13)
    assert index is None and hint in said and "\n" not in said


def test_the_prompt_loop_helps_shows_the_board_and_stops_on_q_or_end_of_input():
    shown = []
    term = FakeTerminal(["?", "v", "x", "", "5", "2"])
    assert choose(term, 3, lambda: shown.append("view"), lambda: shown.append("options"), "red") == 2
    assert shown == ["view", "options"]
    said = "\n".join(term.shown)
    assert "Type the number" in said and "'x' is not an option number" in said and "Nothing typed" in said
    assert "There is no option 5" in said
    for typed, words in ((["q"], "red leaves the table"), ([], "End of input")):
        term = FakeTerminal(typed)
        with pytest.raises(LeftTheTable):
            choose(term, 3, lambda: None, lambda: None, "red")
        assert any(words in line for line in term.shown)


# -- the renderer on prepared positions, in each edition's words ----------------------------------------

def _market_game(variant):
    players = seats(3, gold=9)
    players[0].update(hand={"architect": 1}, theft=1,
                      provinces={"Memphis": {"farmers": 1, "stones": 2}, "Thebes": {"farmers": 2}})
    players[1]["provinces"] = {"Buto": {}}
    players[2]["provinces"] = {"Edfu": {}}
    game = game_of(players, variant, offering_level=2)
    game.run_rules(["market"])
    return game


@pytest.mark.parametrize("variant, words", [
    (classic, ("power card", "building stones", "-3 card", "builder", "gold")),
    (edition2016, ("Favor card", "Stones", "Theft card", "Architect", "Gold")),
])
def test_a_purchase_shows_the_view_and_the_price_of_each_quantity(variant, words):
    v = variant()
    favor, stones, theft, architect, gold = words
    game = _market_game(v)
    request = game.pending
    assert request.kind == "buy_cards"
    text = shown(game)
    assert f"You (red): 9 {gold}; hand: {noun(v, 'architect')}, {theft}; 0 " in text
    memphis, thebes = v.board.provinces[pid("Memphis", v)], v.board.provinces[pid("Thebes", v)]
    assert f"Memphis: 1/{memphis.fields} fields used, 2 {stones}" in text
    assert f"Thebes: 2/{thebes.fields} fields used" in text and "income " in text
    assert f"0. buy no {favor}s" in text and f"1. buy 1 {favor} for 1 {gold}" in text
    assert "buy_cards" not in text and "favor" not in text.replace(favor, "")
    game.answer(0)
    assert game.pending.kind == "buy_farmers"
    text = shown(game)
    assert "2. buy 2 " in text and f"for 3 {gold}" in text and "Empty fields: Memphis " in text


@pytest.mark.parametrize("variant", [classic, edition2016])
def test_a_bid_shows_every_card_with_its_top_bid_bidder_and_protection(variant):
    v = variant()
    players = seats(3, gold=5)
    players[0].update(gold=12, hand={"protection": 1, "bribery": 1})
    players[1]["hand"] = {"free_farmer": 2}
    game = game_of(players, v)
    on_auction = [pid("Buto", v), pid("Edfu", v), pid("Thebes", v)]
    publish(game.state, "round_provinces", list(on_auction))
    game.run_rules(["auction"])
    game.answer((on_auction[0], 1, (card("protection", v),)))  # red, protected
    game.answer((on_auction[0], 6, ()))                            # blue outbids red, skipping a space
    request = game.pending
    assert (request.player, request.kind) == (2, "bid")
    text = shown(game)
    assert "Buto: top bid 6 by blue; red at 1, outbid" in text
    assert "Edfu: no bid yet" in text and "Thebes: no bid yet" in text
    assert "must sell" not in text  # black holds no card to sell: no bid above his gold
    game.answer((on_auction[1], 0, ()))
    request = game.pending
    assert request.player == 0 and request.context["moving_from"] == on_auction[0]
    text = shown(game)
    assert f"You were outbid on Buto: move your {v.term('bid_marker')} to another card (or bid again on it with " \
           f"the {noun(v, 'bribery')})" in text
    assert f"bid 10 on Buto, playing the {noun(v, 'bribery')}" in [
        option_text(asking_for(game.view(0), game.pending), o) for o in game.pending.options]
    label = Words(v).card_label("bribery")
    assert re.search(rf"\n  Buto \+ {re.escape(label)}:\s+0\) 10\n", text), text  # grouped under its card
    # red protected his first bid: shown on the card while it is the top bid
    game2 = game_of(players, v)
    publish(game2.state, "round_provinces", list(on_auction))
    game2.run_rules(["auction"])
    game2.answer((on_auction[0], 1, (card("protection", v),)))
    assert f"Buto: top bid 1 by red ({v.term('protection')}: outbidding skips a space)" in shown(game2)
    bids = [option_text(asking_for(game2.view(1), game2.pending), o) for o in game2.pending.options]
    assert not any("Buto" in b and " 3 " in f" {b} " for b in bids)  # 3 is skipped
    assert f"bid 6 on Edfu (more than your {v.term('gold')}: you must sell 1 {v.term('favor')})" in bids
    assert not any("bid 10 on Edfu" in b for b in bids)  # 5 gold and 2 cards to sell reach 7


@pytest.mark.parametrize("variant", [classic, edition2016])
def test_a_sale_says_how_much_is_still_owed(variant):
    v = variant()
    players = seats(3, gold=2)
    players[0]["hand"] = {"architect": 1, "treasury": 2}
    game = game_of(players, v)
    on_auction = [pid("Buto", v), pid("Edfu", v), pid("Thebes", v)]
    publish(game.state, "round_provinces", list(on_auction))
    game.run_rules(["auction"])
    game.answer((on_auction[0], 3, ()))
    game.answer((on_auction[1], 0, ()))
    game.answer((on_auction[2], 0, ()))
    assert game.pending.kind == "sell"
    text = shown(game)
    gold = v.term("gold")
    assert f"You are 1 {gold} short for your bid" in text
    assert f"Cost of your bid: 3 {gold}; you have 2 {gold}, 1 {gold} short." in text
    assert f"{noun(v, 'treasury')} (you hold 2)" in text


@pytest.mark.parametrize("variant", [classic, edition2016])
def test_the_offering_shows_gold_cards_levels_and_counts_the_rewards(variant):
    v = variant()
    players = seats(3, gold=6, theft=1)
    for player, where in zip(players, ("Buto", "Edfu", "Thebes")):
        player["provinces"] = {where: {}}
    players[0]["hand"] = {"offering_adjustment": 1}
    game = game_of(players, v)
    game.run_rules(["offering"])
    while game.pending.kind == "sell_for_offering":
        text = shown(game)
        assert f"Before the secret {v.term('offering')}" in text and "0. sell nothing\n" in text
        game.answer(None)
    assert game.pending.kind == "offer" and game.pending.player == 0
    text = shown(game)
    assert f"You have 6 {v.term('gold')} and your {v.term('theft')}" in text and "Level by the total" in text
    # the rewards counted as what they are ("takes 3" alone left "3 of what?")
    w, (first, second, _) = Words(v), next(m for m in v.modules.all if m.id == "offering").params.rewards
    assert (f"the most offered takes {w.count(first, 'reward', 'rewards')} and becomes {v.term('start_player')}, "
            f"the second most {w.count(second, 'reward', 'rewards')}") in text, text
    assert f"is a {v.term('favor')}, a {v.term('farmer')} or a {w.noun(1, 'stone')}, as its taker chooses" in text
    assert f"{v.term('theft')}, with the {noun(v, 'offering_adjustment')}" in [
        option_text(asking_for(game.view(0), game.pending), o) for o in game.pending.options]
    # 14 offers, a line for each way to give
    assert re.search(rf"\n  give: +0\) 1 {v.term('gold')} +1\) 2 {v.term('gold')}", text), text
    assert f"\n  give with the {noun(v, 'offering_adjustment')}:\n" in text
    game.answer(("gold", 6, 0))
    game.answer(("gold", 1, 0))
    game.answer(("gold", 2, 0))
    texts = []
    while game.pending is not None and game.pending.kind == "reward":
        texts.append(shown(game).split("what do you take?")[0].splitlines()[-1])
        game.answer(game.pending.options[0])
    assert texts[:3] == ["Reward 1 of 3: ", "Reward 2 of 3: ", "Reward 3 of 3: "]
    assert texts[3:5] == ["Reward 1 of 2: ", "Reward 2 of 2: "]


def test_options_never_read_as_engine_kinds_in_a_whole_game():
    """Every decision of seeded games, in both editions: no engine kind shown, every option
    described (no raw tuples), a question asked."""
    from amunre.agents import make_agents

    kinds = set()
    for variant in (classic(), edition2016()):
        kinds |= set(variant.modules.decisions)
    for variant in (classic(), edition2016()):
        agents = make_agents(["greedy"] * 3, 4)
        game = Game(variant, 3, 4)
        while game.pending is not None:
            request = game.pending
            view = game.view(request.player)
            text = text_of(decision_block(view, request, 100))
            assert not [k for k in kinds if re.search(rf"\b{k}\b", text) and "_" in k], (request.kind, text)
            assert "(" not in "".join(option_text(asking_for(view, request), o)[:1] for o in request.options)
            assert "[" not in text and "None" not in text and "True" not in text, text
            game.answer(agents[request.player].choose(view, request))


# -- no hidden information -----------------------------------------------------------------------------

@pytest.mark.parametrize("variant_id", ["classic2003", "supermeeple2016", "expert2016"])
def test_what_the_seat_sees_is_the_same_when_hidden_things_differ(variant_id):
    """At every decision of a game, re-deal what the asked seat may not know (the others'
    hands, the card pile, the face-down cards, the secret province hands): the screen is the
    same."""
    from amunre.agents import make_agents
    from amunre.loader import load_variant

    variant = load_variant(variant_id)
    agents = make_agents(["random"] * 3, 8)
    game = Game(variant, 3, 8)
    rng = random.Random(1)
    checked = 0
    while game.pending is not None:
        request = game.pending
        player = request.player
        mine = shown(game)
        other = game.state.clone()
        hide_from(variant, other, player, rng)
        alt = Game.from_state(variant, other)
        alt.phase_name = game.phase_name
        theirs = text_of(decision_block(alt.view(player), request, 100)) + "\n" + text_of(full_view(alt.view(player)))
        assert theirs == mine, (request.kind, mine, theirs)
        checked += 1
        game.answer(agents[player].choose(game.view(player), request))
    assert checked > 100


def test_a_sealed_offer_never_shows_to_the_next_player():
    """Two games alike but for red's secret offer: blue is shown the same before his."""
    def to_blues_offer(amount):
        players = seats(3, gold=8)
        for player, where in zip(players, ("Buto", "Edfu", "Thebes")):
            player["provinces"] = {where: {}}
        game = game_of(players, classic())
        game.run_rules(["offering"])
        while game.pending.kind == "sell_for_offering":
            game.answer(None)
        game.answer(("gold", amount, 0))
        assert (game.pending.player, game.pending.kind) == (1, "offer")
        return shown(game)

    assert to_blues_offer(1) == to_blues_offer(8)


def test_the_seat_view_shows_other_hands_only_by_their_size():
    players = seats(3, gold=4)
    players[0]["hand"] = {"architect": 1}
    players[1]["hand"] = {"bribery": 2, "treasury": 1}
    game = game_of(players, classic())
    text = text_of(own_view(game.view(0))) + text_of(full_view(game.view(0)))
    assert "blue: 4 gold, 0 points, 3 power cards" in text
    assert classic().term("bribery") not in text and classic().term("treasury") not in text


def test_leaving_with_a_log_keeps_the_answers_so_far_for_replay(tmp_path):
    """`q` after a few answers with --log: the log holds them, marked incomplete, and replays."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    log = tmp_path / "left.jsonl"
    run = subprocess.run([sys.executable, "-m", "amunre", "run", "--players", "3", "--agents", "human,greedy,greedy",
                          "--seed", "3", "--quiet", "--log", str(log)], input="0\n0\n0\nq\n", capture_output=True,
                         text=True, env=env, timeout=60)
    assert run.returncode == 4 and "red leaves the table" in run.stderr and "Traceback" not in run.stderr
    replay = subprocess.run([sys.executable, "-m", "amunre", "replay", str(log)], capture_output=True, text=True,
                            env=env, timeout=60)
    assert replay.returncode == 0 and "incomplete" in replay.stdout, (replay.stdout, replay.stderr)


def test_a_card_not_held_is_not_told_as_a_decision():
    """Every player is asked about an optional card (who is asked must be public); without the
    card the only option is 'no', forced: a person at the table is not told of it. A real
    forced choice is told."""
    from amunre.cli.run import TellForced
    from amunre.core.decisions import Request

    told = []

    class Seat:
        def forced(self, view, request):
            told.append(request.kind)

    class FakeGame:
        def view(self, player):
            return None

    tell = TellForced([Seat()])
    tell.start(FakeGame())
    tell(Request(0, "protect", [False]))
    tell(Request(0, "treasury", [None]))
    tell(Request(0, "pick_province", [3]))
    assert told == ["pick_province"]


# -- several people at one terminal --------------------------------------------------------------------

class SharedTerminal(FakeTerminal):
    """One terminal for several people: answers every handover with Enter, every decision
    with its first option; a clear is kept as a marker."""

    def __init__(self):
        super().__init__()

    def clear(self):
        self.shown.append("<clear>")

    def read(self, prompt):
        self.shown.append(prompt)
        return "" if prompt.startswith("pass to") else "0"


def test_people_sharing_a_terminal_are_each_shown_only_their_own_seat():
    from amunre.agents import make_agents
    from amunre.agents.human import Handover, HumanAgent
    from amunre.core.engine import play_on
    from amunre.core.words import player_names

    terminal = SharedTerminal()
    names = player_names(4)
    handover = Handover(names)
    seats = make_agents(["human", "greedy", "human", "greedy"], 5)
    for seat in (0, 2):
        seats[seat] = HumanAgent(terminal)
        seats[seat].handover = handover
    game = Game(classic(), 4, 5)
    play_on(game, seats)
    shown = terminal.shown
    handovers = [i for i, text in enumerate(shown) if text.startswith("pass to")]
    assert len(handovers) > 10
    for i in handovers:  # the screen is cleared before the question (the public lines shown again after it)
        assert "<clear>" in shown[max(0, i - Handover.AGAIN - 2):i]
        before = shown[:i][::-1]
        private = [n for n, text in enumerate(before) if ", your decision" in text or text.startswith("You (")]
        cleared = before.index("<clear>")
        assert not private or private[0] > cleared  # nothing of a seat's own between the clear and the question
    # between two handovers, only the seat handed to is named as deciding or shown its hand
    for start, end in zip(handovers, handovers[1:] + [len(shown)]):
        whose = shown[start].removeprefix("pass to ").split(",")[0]
        others = [n for n in ("red", "black") if n != whose]
        segment = "\n".join(shown[start:end])
        assert f"-- {whose}, your decision" in segment
        for other in others:
            assert f"-- {other}, your decision" not in segment and f"You ({other})" not in segment


def test_amunre_run_hands_the_terminal_over_between_people(tmp_path):
    run = subprocess.run([sys.executable, "-m", "amunre", "run", "--agents", "human,human,greedy", "--seed", "4"],
                         input="\n0\n" * 400, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert "pass to red, press Enter" in run.stderr and "pass to blue, press Enter" in run.stderr
    assert "Since the last turn at this terminal:" in run.stderr  # the public play-by-play, shown again
    assert "seed 4" not in run.stderr.split("Winner")[0]  # the seed tells every hidden card: said at the end
