"""What the events and the rule modules show as the game runs: each module's checks on its own
events, the gold ledgers kept from the events, the phase, round and scoring boundaries, and the
checkpoint [views] replays from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from amunre.core.facets import EncodingFacet

if TYPE_CHECKING:
    from amunre.testing.invariants.checking import Checker

#: Events emitted between two rules run: the state is whole when they arrive.
BOUNDARY_EVENTS = frozenset({"phase", "round", "kingdom", "scoring", "final_scoring", "game_end"})


def on_event(checker: Checker, event: dict) -> None:
    """The checker's listener: each event as the game emits it (a module's own check of it, the
    gold ledgers, the boundaries)."""
    checker.events.append(event)
    kind = event["event"]
    check = checker.event_checks.get(kind)
    if check is not None:
        try:
            problem = check(event, checker.game.state)
        except Exception as error:  # noqa: BLE001 - a module's check is the module's code
            checker.fail(kind, f"its check raised {type(error).__name__}: {error}")
        if problem is not None and not isinstance(problem, str):
            checker.fail(kind, f"its check returned {problem!r} (expected a message of what is wrong, or None)")
        if problem:
            checker.fail(kind, problem)
    if kind == "pay":
        checker.paid[event["player"]] += event["amount"]
    elif kind == "gold":
        checker.received[event["player"]] += event["amount"]
    elif kind in BOUNDARY_EVENTS:
        checker._event = kind
        try:
            on_boundary(checker, kind, event)
        finally:
            checker._event = None
        if checker.views_every and kind in ("phase", "scoring", "final_scoring"):
            mark_checkpoint(checker, kind, event)


def check_what_modules_show(checker: Checker) -> None:
    """What each module tells of each province (`WordsFacet.province_facts`), as a seat sees it,
    is a list of phrases: asked once a round, as the human seat and the picture ask it; and
    the fields its observation declares are in its data as a seat sees it."""
    from amunre.core.boardtext import province_facts
    from amunre.core.errors import RuleModuleError
    from amunre.core.words import Words, player_names

    game = checker.game
    words = Words(checker.variant, player_names(game.n_players))
    try:
        for pid in range(len(checker.variant.board)):
            province_facts(game.view(0), pid, words)
    except RuleModuleError as error:
        checker.fail("contract", str(error))
    # and each field its observation declares is in its data as a seat sees it
    shown = game.view(0).rules
    for module in checker.variant.modules.stateful:
        if not isinstance(module, EncodingFacet):
            continue
        missing = sorted(set(module.observation) - set(shown.get(module.key) or {}))
        if missing:
            checker.fail("contract", f"rule module {module.id!r} declares the observation fields {missing}, which "
                                     f"its data as a seat sees it (view_state) does not hold")


def on_boundary(checker: Checker, kind: str, event: dict) -> None:
    """At a phase, round or scoring event: the kingdom's [transition], the province counts, then
    the state in full."""
    state = checker.game.state
    owned = [len(p.provinces) for p in state.players]
    if kind == "kingdom":
        checker.kingdoms_seen += 1
        checker.rounds_started = 0
        checker.in_scoring = False
        if any(owned) or any(p.owner is not None for p in state.provinces):
            checker.fail("transition", f"a new kingdom starts with provinces owned (counts {owned})")
        if any(p.farmers or p.free_farmers for p in state.provinces):
            checker.fail("transition", "a new kingdom starts with farmers on the board")
    elif kind == "round":
        checker.rounds_seen += 1
        check_what_modules_show(checker)
        if any(c != checker.rounds_started for c in owned):
            checker.fail("province-count", f"round {checker.rounds_started + 1} starts with province counts "
                                           f"{owned}, expected {checker.rounds_started} each")
        checker.rounds_started += 1
    elif kind == "scoring":
        checker.scorings += 1
        checker.in_scoring = True
        need = checker.variant.edition.rounds_per_kingdom
        if checker.rounds_started != need:
            checker.fail("scoring-count", f"scoring after {checker.rounds_started} rounds, expected {need}")
        if any(c != need for c in owned):
            checker.fail("scoring-count", f"at the scoring the players hold {owned} provinces, expected {need} each")
    elif kind == "final_scoring":
        checker.in_scoring = True
    if len(set(owned)) > 1:
        checker.fail("province-count", f"at a phase boundary ({kind}) the players hold {owned} provinces")
    checker.check_state()


def mark_checkpoint(checker: Checker, kind: str, event: dict) -> None:
    """Keep the state where the running phase (or scoring) starts, to replay it re-drawn."""
    game = checker.game
    modules = game.variant.modules
    if kind == "phase":
        steps = next((s for pid, _, s in modules.round_phases if pid == event["rule"]), None)
        if steps is None:
            checker._checkpoint = None
            return
        rules, one_phase = steps, True
    else:
        # the scoring of this kingdom's end: its own items only (an entry may name its kingdoms)
        scoring = modules.scoring_in(game.state.kingdom) if kind == "scoring" else modules.final_scoring
        rules, one_phase = scoring, False
    checker._checkpoint = (game.state.clone(), rules, one_phase, len(game.answers_so_far()), len(checker.events))
