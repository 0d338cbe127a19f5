"""The pending request and the answers to it: the options are sound ([options]), answers that
are not options are refused and change nothing ([illegal-answer]), the state survives the JSON
round trip ([round-trip]), and a batch's secret answer changes nothing before the reveal (the
replay of [simultaneous])."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from amunre.core.decisions import from_json_value
from amunre.core.engine import Game
from amunre.core.errors import IllegalAnswerError
from amunre.core.state import GameState
from amunre.testing.errors import ConformanceError
from amunre.testing.invariants.keys import answer_key, context_key, options_key

if TYPE_CHECKING:
    from amunre.testing.invariants.checking import Checker


def check_request(checker: Checker) -> None:
    """[options]: the pending decision names a player of the game and has options."""
    request = checker.game.pending
    if not 0 <= request.player < checker.n:
        checker.fail("options", f"decision for player {request.player}")
    options = request.options
    if not options:
        checker.fail("options", "a decision is asked with no legal option")


def check_options(checker: Checker) -> list[str]:
    """Options are distinct and survive the log's JSON round trip; returns their keys."""
    keys = options_key(checker.game.pending)
    if len(set(keys)) != len(keys):
        checker.fail("options", f"duplicate options: {sorted({k for k in keys if keys.count(k) > 1})[:5]}")
    for option, key in zip(checker.game.pending.options, keys):
        back = from_json_value(json.loads(key))
        if answer_key(back) != key or back != option:
            checker.fail("options", f"option {option!r} does not survive the log's JSON round trip")
    return keys


def illegal_candidates(checker: Checker, keys: list[str]) -> list:
    """Answers that are not options: foreign values, wrong types, out-of-range numbers."""
    options = checker.game.pending.options
    candidates: list = [("not-an-option",), "not-an-option", -1, 10**6]
    sample = next((o for o in options if o is not None), None)
    if sample is None or isinstance(sample, bool):
        candidates += [0, "None"]
    elif isinstance(sample, int):
        top = max(o for o in options if isinstance(o, int) and not isinstance(o, bool))
        candidates += [float(sample), str(sample), True, top + 1000]
    elif isinstance(sample, str):
        candidates += [(sample,), sample.upper() + "?"]
    elif isinstance(sample, tuple):
        candidates += [tuple(str(x) for x in sample), sample + (0,), sample[:-1]]
        if sample and isinstance(sample[0], int):
            candidates.append((sample[0] + 1000,) + sample[1:])
            candidates.append((float(sample[0]),) + sample[1:])
    known = set(keys)
    return [c for c in candidates if answer_key(c) not in known]


def check_illegal(checker: Checker, keys: list[str]) -> None:
    """[illegal-answer]: each of `illegal_candidates` is refused with `IllegalAnswerError`, and
    leaves the state, the pending request and the answers as they were."""
    game = checker.game
    request = game.pending
    before = game.state.to_dict()
    answers = len(game.answers_so_far())
    tried = []
    for bad in illegal_candidates(checker, keys):
        checker.illegal_checks += 1
        tried.append(bad)
        try:
            game.answer(bad)
        except IllegalAnswerError:
            pass
        except ConformanceError:
            raise
        except Exception as exc:  # noqa: BLE001 - any other error is the violation
            checker.fail("illegal-answer", f"answer {bad!r} raised {type(exc).__name__}: {exc} "
                                           f"instead of IllegalAnswerError")
        else:
            checker.fail("illegal-answer", f"answer {bad!r} was accepted")
        if game.pending is not request or len(game.answers_so_far()) != answers:
            checker.fail("illegal-answer", f"answer {bad!r} was refused but moved the game on")
    if game.state.to_dict() != before:
        checker.fail("illegal-answer", f"the refused answers {tried!r} changed the state")


def check_roundtrip(checker: Checker) -> None:
    """[round-trip]: the state survives `to_dict`, JSON and `from_dict`, and `clone()` equals it."""
    state = checker.game.state
    data = state.to_dict()
    text = json.dumps(data, sort_keys=True)
    again = GameState.from_dict(json.loads(text))
    if json.dumps(again.to_dict(), sort_keys=True) != text:
        checker.fail("round-trip", "GameState.from_dict(json(to_dict())) differs from the state")
    if state.clone() != state:
        checker.fail("round-trip", "state.clone() differs from the state")


def check_counterfactual(checker: Checker, index: int, options: list) -> None:
    """Replay with another answer at `index` (the latest, secret, answer of a batch):
    the next request and the state may not differ."""
    game = checker.game
    answers = game.answers_so_far()
    actual = answers[index]
    other = options[-1] if answer_key(options[-1]) != answer_key(actual) else options[0]
    alt = Game(checker.variant, checker.n, checker.seed)
    for i, answer in enumerate(answers):
        try:
            alt.answer(other if i == index else answer)
        except IllegalAnswerError:
            checker.fail("simultaneous", f"with another secret answer at decision {index + 1}, the answer "
                                         f"at decision {i + 1} is no longer legal: the options depend on it")
    checker.counterfactuals += 1
    mine, theirs = game.pending, alt.pending
    if theirs is None or (theirs.player, theirs.kind) != (mine.player, mine.kind):
        checker.fail("simultaneous", f"another secret answer at decision {index + 1} changes who is asked next")
    if options_key(theirs) != options_key(mine):
        checker.fail("simultaneous", f"the options depend on the secret answer at decision {index + 1}")
    if context_key(theirs) != context_key(mine):
        checker.fail("simultaneous", f"the request's context reveals the secret answer at decision {index + 1}: "
                                     f"{mine.context!r} vs {theirs.context!r}")
    if alt.state.to_dict() != game.state.to_dict():
        checker.fail("simultaneous", f"the state depends on the secret answer at decision {index + 1} "
                                     f"before the reveal")
