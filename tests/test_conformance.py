"""The conformance suite (`amunre.testing`) over every variant file in variants/.

Variant files are found by globbing (`conftest.variant_files`), so a new edition or house
rule is covered without a line of test code. Besides the seeded playouts, a hypothesis state
machine answers each pending decision with any legal option and checks the same invariants
after every step. The tests at the end plant bugs in the engine to show that each family of
invariants really fails when it should.

Sizes follow the hypothesis profile: `ci` (default) keeps this file to a few seconds per
variant; `AMUNRE_DEEP=1 pytest tests/test_conformance.py` plays far more games.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from conftest import VARIANTS_DIR, variant_files
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from amunre.agents.random_agent import RandomAgent
from amunre.cli import main as cli_main
from amunre.core import engine, flow, mechanics
from amunre.core.errors import AmunreError, UnknownVariantError
from amunre.core.state import GameState
from amunre.rules import offering as offering_module
from amunre.testing import ConformanceError, GameChecker, check_variant, load, play_checked

VARIANTS = variant_files()
IDS = [f.stem for f in VARIANTS]
# games per player count: the quick run (the ci profile, 25 examples) plays 2 random and 1 greedy, each
# player count by both agents; deeper profiles 4 and 2 per 25 examples (deep, 1000 examples: 160 and 80)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
SCALE = max(1, settings.default.max_examples // 25)
RANDOM_GAMES = 4 * SCALE if SCALE > 1 else 2
GREEDY_GAMES = 2 * SCALE if SCALE > 1 else 1


def test_variant_files_are_found():
    assert VARIANTS, "no variant file found in variants/"
    assert VARIANTS_DIR / "classic2003.toml" in VARIANTS


# -- seeded playouts over every variant file --------------------------------------------

@pytest.mark.parametrize("path", VARIANTS, ids=IDS)
def test_variant_conforms(path):
    variant = load(path)
    report = check_variant(path, seeds=range(RANDOM_GAMES), agents=("random",))
    report_greedy = check_variant(path, seeds=range(100, 100 + GREEDY_GAMES), agents=("greedy",))
    counts = list(variant.players)
    assert sorted(report.by_players) == counts == sorted(report_greedy.by_players)
    assert report.games == RANDOM_GAMES * len(counts)
    assert report_greedy.games == GREEDY_GAMES * len(counts)
    for r in (report, report_greedy):
        # every game went through every scoring and the protocol checks did run
        assert r.scorings == len(variant.edition.kingdoms) * r.games
        assert r.illegal_checks > 0
        assert r.decisions > 0


# -- hypothesis: any legal option, invariants after every step --------------------------

def machine_for(path):
    variant = load(path)

    class AnyLegalOption(RuleBasedStateMachine):
        """One game of the variant; the only rule answers the pending decision with any
        legal option. The checker checks every invariant at each step, and the end-of-game
        checks (replay, the log) once the game is over. Games end well within the step count
        (a 5-player game takes about 300 decisions)."""

        checker: GameChecker | None = None

        @initialize(players=st.sampled_from(variant.players), seed=st.integers(0, 2**32 - 1))
        def start(self, players, seed):
            self.checker = GameChecker(variant, players, seed, agent="hypothesis",
                                       illegal_every=3, roundtrip_every=20)
            self.finished = False

        @rule(data=st.data())
        def answer_any_legal_option(self, data):
            game = self.checker.game
            if game.pending is None:
                return  # the game is over: nothing is asked any more
            self.checker.step(data.draw(st.sampled_from(game.pending.options), label="answer"))

        @invariant()
        def invariants_hold(self):
            if self.checker is None or self.finished:
                return
            self.checker.check_state()
            if self.checker.game.pending is None:
                self.finished = True
                self.checker.finish(full_replay=False)

    AnyLegalOption.__name__ = f"AnyLegalOption_{variant.id}"
    return AnyLegalOption


@pytest.mark.parametrize("path", VARIANTS, ids=IDS)
def test_any_legal_option_state_machine(path):
    machine = machine_for(path)
    base = settings.default
    # Shrinking whole games takes minutes: the CI profile reports the first failing game as
    # found (the error names the seed and every answer); the deep profile shrinks it.
    phases = base.phases if PROFILE != "ci" else [Phase.explicit, Phase.reuse, Phase.generate]
    run_state_machine_as_test(
        machine,
        settings=settings(base, max_examples=max(3, base.max_examples // 5), stateful_step_count=800,
                          phases=phases),
    )


# -- new files are covered -------------------------------------------------------------

def write_variant_copy(tmp_path, new_id="house_rich_start", gold=25):
    """classic2003 under another id with another starting gold, in a temporary folder (its
    `board = "board.toml"` finds the shipped board)."""
    text = (VARIANTS_DIR / "classic2003.toml").read_text(encoding="utf-8")
    for old, new in (('id = "classic2003"', f'id = "{new_id}"'),
                     ("starting_gold = 20", f"starting_gold = {gold}")):
        assert text.count(old) == 1, f"classic2003.toml no longer contains {old!r}"
        text = text.replace(old, new)
    path = tmp_path / f"{new_id}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_new_variant_file_is_checked(tmp_path):
    path = write_variant_copy(tmp_path, gold=25)
    starts = []

    def starting_gold(record):
        # gold at the start, recomputed from the final state and the bank ledger
        state = record.game.state
        total = sum(p.gold for p in state.players) + state.bank_paid - state.bank_given
        starts.append(total / record.players)
        setup = json.loads(record.log.splitlines()[1])
        assert setup["event"] == "setup" and setup["gold"] == 25

    # one seed is enough: the starting gold is the file's whatever the seed, and one game of each
    # agent at each player count shows the new file checked throughout (the seeded playouts above
    # vary the seeds over every variant file)
    report = check_variant(path, seeds=range(1), on_progress=starting_gold)
    assert report.variant == "house_rich_start"
    assert report.source == str(path)
    assert report.games == 2 * len(load(path).players) == len(starts)  # random and greedy, at every count
    assert starts and set(starts) == {25}


def test_a_broken_new_variant_file_is_reported(tmp_path):
    path = write_variant_copy(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("[components]", "[components\n"), encoding="utf-8")
    with pytest.raises(AmunreError):
        check_variant(path, seeds=range(1))
    with pytest.raises(UnknownVariantError):
        check_variant(tmp_path / "missing.toml")
    with pytest.raises(AmunreError, match="not 7"):
        check_variant(VARIANTS_DIR / "classic2003.toml", players=[7])


# -- the command line ------------------------------------------------------------------

def run_cli(args, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli_main(args)
        raise SystemExit(0)
    out = capsys.readouterr()
    return exit_info.value.code, out.out, out.err


def test_cli_check_reports(capsys, tmp_path):
    path = write_variant_copy(tmp_path)
    code, out, err = run_cli(["check", str(path), "--games", "1", "--seed", "3", "--players", "4"], capsys)
    assert code == 0, err
    assert "house_rich_start" in out and "all invariants held" in out
    assert "4 players: 2 games" in out


def test_cli_check_json_says_what_held_and_what_failed(capsys, tmp_path, monkeypatch):
    """--json: the report's numbers (schemas/check.schema.json), or on a broken rule the
    invariant, the message and exit code 1."""
    import json

    import jsonschema

    from amunre.loader.resources import load_schema

    path = write_variant_copy(tmp_path)
    code, out, err = run_cli(["check", str(path), "--games", "1", "--seed", "3", "--players", "4", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("check"))
    assert doc["held"] and doc["players"] == [{"players": 4, "games": 2, "decisions": doc["decisions"]}]

    def careless(self, choice):
        self.state.bank_paid += 1  # touches the state before checking the answer
        real(self, choice)

    real = engine.Game.answer
    monkeypatch.setattr(engine.Game, "answer", careless)
    code, out, err = run_cli(["check", str(path), "--games", "1", "--players", "4", "--json"], capsys)
    assert code == 1 and "FAILED" in err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("check"))
    assert not doc["held"] and doc["invariant"] and doc["message"]


@pytest.mark.parametrize("args, message", [
    (["check", "no_such_variant"], "unknown variant"),
    (["check", "/nonexistent/rules.toml"], "does not exist"),
    (["check", "classic2003", "--players", "9"], "--players"),
    (["check", "classic2003", "--agents", "nobody"], "--agents"),
])
def test_cli_check_bad_input(capsys, args, message):
    code, out, err = run_cli(args, capsys)
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err


def test_cli_check_failure_exits_1(capsys, monkeypatch):
    # plant a bug: cards played face up vanish instead of going to the discard pile
    monkeypatch.setattr(flow, "end_phase_cards", lambda state: state.in_play.clear())
    code, out, err = run_cli(["check", "classic2003", "--games", "3", "--agents", "greedy"], capsys)
    assert code == 1
    assert "FAILED" in err and "[cards]" in err and "seed" in err and "amunre run --variant" in err


# -- the checker catches planted bugs (each family of invariants can fail) --------------

def failure(**kw) -> ConformanceError:
    kw.setdefault("seeds", range(3))
    kw.setdefault("players", [4])
    with pytest.raises(ConformanceError) as info:
        check_variant("classic2003", **kw)
    return info.value


def test_catches_gold_created_outside_the_bank(monkeypatch):
    from amunre.rules import harvest

    real = harvest.receive

    def generous(game, player, amount, why):
        real(game, player, amount, why)
        game.state.players[player].gold += 1  # not counted by the bank

    monkeypatch.setattr(harvest, "receive", generous)
    error = failure()
    assert error.invariant == "gold-bank"
    assert "classic2003" in str(error) and "4 players" in str(error) and "seed 0" in str(error)
    assert "decision" in str(error)


def test_catches_unreported_payments(monkeypatch):
    from amunre.core import mechanics

    def silent_pay(game, player, amount, why):
        if amount > 0:
            game.state.players[player].gold -= amount
            game.state.bank_paid += amount
        return
        yield

    monkeypatch.setattr(offering_module, "pay", silent_pay)
    assert mechanics.pay is not silent_pay
    assert failure().invariant in ("gold-events", "gold-player")


def test_catches_lost_cards(monkeypatch):
    monkeypatch.setattr(flow, "end_phase_cards", lambda state: state.in_play.clear())
    assert failure(agents=("greedy",)).invariant == "cards"


def test_catches_leaking_pieces(monkeypatch):
    from amunre.rules import market

    real = market.place_farmer

    def double_farmer(game, player, province, on_field=True):
        real(game, player, province, on_field)
        game.state.supply_farmers -= 1  # a farmer vanishes from the supply

    monkeypatch.setattr(market, "place_farmer", double_farmer)
    assert failure(agents=("greedy",)).invariant == "supply"


def test_catches_falling_scores(monkeypatch):
    real = mechanics.add_points  # what score_each calls for the pyramids, among others (both in mechanics.moves)
    monkeypatch.setattr(mechanics.moves, "add_points",
                        lambda game, p, item, points, **kw: real(game, p, item, -1, **kw))
    assert failure().invariant == "score"


def test_catches_provinces_kept_between_kingdoms(monkeypatch):
    def keep_owners(game):
        for prov in game.state.provinces:
            game.state.supply_farmers += prov.farmers + prov.free_farmers
            prov.farmers = prov.free_farmers = 0

    monkeypatch.setattr(flow, "between_kingdoms", keep_owners)
    assert failure().invariant == "transition"


def test_catches_a_refused_answer_that_changes_the_state(monkeypatch):
    real = engine.Game.answer

    def careless(self, choice):
        self.state.random("cards")  # touches the state before checking the answer
        real(self, choice)

    monkeypatch.setattr(engine.Game, "answer", careless)
    assert failure().invariant == "illegal-answer"


def test_catches_an_accepted_illegal_answer(monkeypatch):
    monkeypatch.setattr(engine, "is_option", lambda choice, options: True)  # (the engine takes any answer)
    error = failure()
    assert error.invariant in ("illegal-answer", "options")


def reveal_offers(run_wrapper):
    """Wrap the offering rule's run so that `run_wrapper` sees each simultaneous request."""
    real = offering_module.Offering.run

    def run(self, game):
        flow = real(self, game)
        earlier, value = [], None
        while True:
            try:
                request = flow.send(value)
            except StopIteration:
                return
            secret = getattr(request, "simultaneous", False)  # not the batch's start marker
            if secret:
                run_wrapper(game, request, earlier)
            value = yield request
            if secret:
                earlier.append(value)

    return run


def test_catches_context_revealing_secret_answers(monkeypatch):
    def leak(game, request, earlier):
        request.context = {**request.context, "offers_so_far": [list(o) for o in earlier]}

    monkeypatch.setattr(offering_module.Offering, "run", reveal_offers(leak))
    error = failure()
    assert error.invariant == "simultaneous" and "context" in str(error)


def test_catches_state_changing_during_a_secret_batch(monkeypatch):
    def touch(game, request, earlier):
        if earlier:
            game.state.bank_paid += 0
            game.state.random("cards")

    monkeypatch.setattr(offering_module.Offering, "run", reveal_offers(touch))
    assert failure().invariant == "simultaneous"


def test_catches_nondeterministic_agents(monkeypatch):
    monkeypatch.setattr(RandomAgent, "choose", lambda self, game, request: random.choice(request.options))
    assert failure(agents=("random",)).invariant == "determinism"


def test_catches_a_state_that_does_not_round_trip(monkeypatch):
    real = GameState.from_dict.__func__

    def lossy(cls, data):
        state = real(cls, data)
        state.bank_given += 1
        return state

    monkeypatch.setattr(GameState, "from_dict", classmethod(lossy))
    assert failure().invariant in ("round-trip",)


def test_catches_a_game_that_never_ends():
    variant = load("classic2003")
    with pytest.raises(ConformanceError) as info:
        play_checked(variant, 3, 0, "random", max_decisions=50)
    assert info.value.invariant == "game-shape" and "no end" in str(info.value)


def test_docstring_lists_every_invariant_the_checker_can_report():
    from pathlib import Path

    import amunre.testing as testing

    source = "".join(path.read_text(encoding="utf-8") for path in sorted(Path(testing.__file__).parent.rglob("*.py")))
    raised = set()
    for chunk in source.split('self.fail("')[1:] + source.split('checker.fail("')[1:]:
        raised.add(chunk.split('"', 1)[0])
    documented = {line.split("]")[0].strip().lstrip("[") for line in testing.__doc__.splitlines()
                  if line.strip().startswith("[")} - {"<event>"}  # (the modules' own: reported by event name)
    assert raised and raised <= documented, f"undocumented: {raised - documented}"
    assert documented <= raised, f"documented but never checked: {documented - raised}"


def test_a_check_a_module_declares_on_its_event_is_run_at_every_such_event(monkeypatch):
    """`Event.check`: the offering's `level` event declares that the level it announces is the
    game's; the checker runs it and reports a failure under the event's name, knowing nothing
    of the offering. A check that finds nothing wrong is called at every such event."""
    import attrs

    events = offering_module.Offering.events
    declared = events["level"].check
    calls = []

    def counting(event, state):
        calls.append(event["level"])
        return declared(event, state)

    monkeypatch.setitem(events, "level", attrs.evolve(events["level"], check=counting))
    play_checked(load("classic2003"), 3, 0, "random")
    assert len(calls) == 6 and all(1 <= level for level in calls)  # one offering a round
    monkeypatch.setitem(events, "level", attrs.evolve(events["level"], check=lambda event, state: "planted"))
    failed = failure()
    assert failed.invariant == "level" and "planted" in str(failed)


def test_the_offering_level_event_check_finds_a_level_the_game_did_not_take():
    check = offering_module.Offering.events["level"].check
    state = GameState.__new__(GameState)
    state.rules = {"offering": {"offering_level": 2}}  # the offering's own data, where its level lives
    assert check({"level": 2, "total": 9}, state) is None
    assert "the game's level is 2" in check({"level": 3, "total": 14}, state)


def test_catches_an_offering_level_out_of_range(monkeypatch):
    monkeypatch.setattr(offering_module, "level_for", lambda total, floors: len(floors) + 2)
    assert failure().invariant == "level"


def test_catches_a_player_holding_two_provinces_of_a_round(monkeypatch):
    from amunre.rules import auction

    real = auction.Auction.run

    def run(self, game):
        yield from real(self, game)
        state = game.state
        if state.round == 1:  # player 0's latest province goes to player 1
            pid = state.players[0].provinces.pop()
            state.players[1].provinces.append(pid)
            state.provinces[pid].owner = 1

    monkeypatch.setattr(auction.Auction, "run", run)
    error = failure()
    assert error.invariant == "province-count", error
    assert "[1, 3" in str(error)
