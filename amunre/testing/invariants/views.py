"""[views]: what a seat is shown and handed (its view, its request, its agent's answer,
`sample_game()` in full) does not depend on what it may not know, checked by replaying the
running phase with the hidden facts re-drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from amunre.core.engine import Game
from amunre.core.errors import IllegalAnswerError
from amunre.testing.invariants.keys import answer_key, context_key, options_key

if TYPE_CHECKING:
    from amunre.testing.invariants.checking import Checker

#: Built-in agents whose answer reads the view: [views] checks that it is the same in two games
#: the seat cannot tell apart.
VIEW_READING_AGENTS = ("greedy", "planner")


def _public(events: list[dict]) -> list[dict]:
    """Events as the table sees them: phase headings and decision bookkeeping left out."""
    return [{k: v for k, v in e.items() if k != "options"} for e in events if e["event"] not in ("phase", "decision")]


def _replays(game: Game, answers: list, rng=None, redraw: list = (), keep: int | None = None) -> bool:
    """Whether `game` takes these (answer, (player, kind)) in order, each asked of the same
    player and kind and each legal; then `redraw`'s decisions (the others' sealed answers of
    a batch under way) are answered with options drawn by `rng`, each asked of the same
    player and kind, but player `keep`'s own (he knows them), given again."""
    for answer, asked in answers:
        request = game.pending
        if request is None or (request.player, request.kind) != asked:
            return False
        try:
            game.answer(answer)
        except IllegalAnswerError:
            return False
    for answer, asked in redraw:
        request = game.pending
        if request is None or (request.player, request.kind) != asked:
            return False
        if request.player == keep:
            try:
                game.answer(answer)
            except IllegalAnswerError:
                return False
            continue
        game.answer(request.options[rng.randrange(len(request.options))])
    return True


def _rng(seed: int):
    import random

    return random.Random(seed)


def check_views(checker: Checker) -> None:
    """[views]: re-draw what the asked player may not know at the start of this phase (the
    game's seed too), replay the phase with the same answers (the other players' sealed
    answers of a batch under way drawn again), and compare what he is handed: his view,
    his request, what his agent answers, and `sample_game()` of both games for the same
    generator, in full (`holdings`), and clones of those samples. With `every_seat`, the
    same for each other seat: his view, and what `pages` compares."""
    request = checker.game.pending
    seats = [request.player]
    if checker.every_seat:
        seats += [seat for seat in range(checker.n) if seat != request.player]
    for seat in seats:
        _check_views_of(checker, seat)


def _check_views_of(checker: Checker, player: int) -> None:
    """[views] for one seat (see `check_views`): the one asked, or another."""
    import random

    from amunre.core.view import hide_from

    game, request = checker.game, checker.game.pending
    start, rules, one_phase, answered, seen = checker._checkpoint
    asked_now = player == request.player
    mine = game.view(player).to_dict()
    mine.pop("phase")  # flow data: the replay names its phase differently
    asked = (options_key(request), context_key(request))
    answers = list(zip(game.answers_so_far()[answered:], checker.asked[answered:]))
    sealed = len(game._sealed)  # the others' secret answers of the batch under way
    public = _public(checker.events[seen:])
    rng = random.Random(checker.seed * 7919 + len(game.answers_so_far()) + 104729 * player)
    for everything in (True, False):  # other hands too; else only the deck, face-down cards, rng, rules
        state = start.clone()
        hide_from(checker.variant, state, player, rng, cards=everything)
        state.seed = rng.getrandbits(63)  # the seed too: the others' bots follow from it
        events: list = []
        alt = Game.from_state(checker.variant, state, [events.append])
        alt.run_rules(rules, one_phase=one_phase)
        if not _replays(alt, answers[:len(answers) - sealed], rng, redraw=answers[len(answers) - sealed:],
                        keep=player):
            continue  # the others could not have acted so, or were asked otherwise: not the same game
        theirs = alt.pending
        if (_public(events) != public or alt.view(player).hand != game.view(player).hand
                or theirs is None or (theirs.player, theirs.kind) != (request.player, request.kind)):
            continue  # he saw another public act, drew other cards himself, or another is asked now
        if asked_now and (options_key(theirs), context_key(theirs)) != asked:
            checker.fail("views", f"player {player}'s request changes when only what he may not know is "
                                  f"re-drawn: {request!r} vs {theirs!r}")
        other = alt.view(player).to_dict()
        other.pop("phase")
        if other != mine:
            diff = sorted(k for k in mine if mine[k] != other.get(k))
            checker.fail("views", f"player {player}'s view changes when only what he may not know is "
                                  f"re-drawn (differs in: {', '.join(diff)})")
        same, same_events = _rebuilt(checker, start, rules, one_phase, answers)
        if asked_now:
            _check_handed(checker, player, same, alt)
        if checker.pages is not None:
            problem = checker.pages(same, same_events, alt, events, player)
            if problem:
                checker.fail("views", f"what player {player} is shown differs when only what he may not know is "
                                      f"re-drawn: {problem}")
        checker.view_checks += 1
        return
    checker.view_skips += 1


def _rebuilt(checker: Checker, start, rules, one_phase: bool, answers: list) -> tuple[Game, list]:
    """This game rebuilt as a re-drawn one is, from the phase's start, so that both are
    made alike; and its events since."""
    events: list = []
    same = Game.from_state(checker.variant, start.clone(), [events.append])
    same.run_rules(rules, one_phase=one_phase)
    if not _replays(same, answers):
        checker.fail("views", "the phase does not replay from its start with the same answers")
    return same, events


def _check_handed(checker: Checker, player: int, same: Game, alt: Game) -> None:
    """What a search agent is handed is the same in two games he cannot tell apart: this
    one (`same`, rebuilt as `alt` was) and `alt`. His agent's answer, `sample_game()` for
    the same generator in full, and a clone of each sample."""
    from amunre.agents import make_agent
    from amunre.testing.holdings import holdings

    # random's answer follows from its generator and the options alone, compared above
    if checker.agent in VIEW_READING_AGENTS:
        a, b = (make_agent(checker.agent, checker.seed, player) for _ in range(2))
        if (answer_key(a.choose(same.view(player), same.pending))
                != answer_key(b.choose(alt.view(player), alt.pending))):
            checker.fail("views", f"player {player}'s agent ({checker.agent}) answers otherwise when only what he "
                                  "may not know is re-drawn")
    k = checker.seed * 31 + len(same.answers_so_far())
    ours, theirs = same.view(player).sample_game(_rng(k)), alt.view(player).sample_game(_rng(k))
    for what, x, y in (("sample_game()", ours, theirs), ("a clone of sample_game()", ours.clone(), theirs.clone())):
        mine, other = holdings(x), holdings(y)
        if mine != other:
            diff = sorted(name for name in mine if mine[name] != other.get(name))
            checker.fail("views", f"{what} for player {player} differs when only what he may not know is "
                                  f"re-drawn (in: {', '.join(diff)}): it carries a hidden fact")
