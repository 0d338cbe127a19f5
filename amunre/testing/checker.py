"""`GameChecker`: drives one game and checks every invariant of the package docstring at every step.

The driver: it builds the game, answers it step by step, asks the agents ([untouched], [agent]),
reports a failure (`fail`), decides which checks run when, and checks the game's end, its
determinism and its replay. The invariant families are in `amunre.testing.invariants`: what
the events show (`events`), the state (`state`), the views (`views`) and the answers
(`answers`), each a set of functions taking the checker. They know it only as the Protocol
`invariants.checking.Checker` (what they may read and write of it), never this module, which
imports them: the class fulfils that Protocol, and the two do not import each other.
"""

from __future__ import annotations

import json
from functools import partial
from typing import NoReturn

from amunre.core.decisions import from_json_value, is_option, to_json_value
from amunre.core.engine import Game
from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.core.model import Variant
from amunre.gamelog import Recorder, dumps_lines, log_lines, replay_lines
from amunre.testing.errors import ConformanceError
from amunre.testing.invariants.answers import (
    check_counterfactual,
    check_illegal,
    check_options,
    check_request,
    check_roundtrip,
)
from amunre.testing.invariants.checking import Checkpoint
from amunre.testing.invariants.events import BOUNDARY_EVENTS, on_event
from amunre.testing.invariants.keys import answers_key, context_key, options_key
from amunre.testing.invariants.state import check_state as check_the_state
from amunre.testing.invariants.views import VIEW_READING_AGENTS, check_views

#: Names this module has always offered (`amunre.testing` re-exports the first three).
__all__ = ["BOUNDARY_EVENTS", "ConformanceError", "GameChecker", "VIEW_READING_AGENTS"]


def _differing(before, after, path: str = "", most: int = 6) -> list[str]:
    """Where two plain values differ, as paths (`state.rules.scoring:tally.runs`), at most `most`."""
    if isinstance(before, dict) and isinstance(after, dict):
        found: list[str] = []
        for key in list(before) + [k for k in after if k not in before]:
            if before.get(key, _MISSING) != after.get(key, _MISSING):
                found += _differing(before.get(key), after.get(key), f"{path}.{key}" if path else str(key), most)
            if len(found) >= most:
                break
        return found[:most]
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        found = []
        for index, (mine, theirs) in enumerate(zip(before, after)):
            if mine != theirs:
                found += _differing(mine, theirs, f"{path}[{index}]", most)
            if len(found) >= most:
                break
        return found[:most]
    return [path or "the whole"]


#: A key one of two dicts lacks (`_differing`).
_MISSING = object()


class _CheckedGame(Game):
    """A plain Game that its checker can see while the constructor already plays the setup."""

    def __init__(self, checker, *args):
        checker.game = self
        super().__init__(*args)


class GameChecker:
    """Drives one Game and checks every invariant at every step.

    Use `step(choice)` instead of `game.answer(choice)`; call `check()` whenever a decision
    is pending (step does it for the next one), and `finish()` once the game is over.
    `illegal_every` / `roundtrip_every`: check illegal answers / the JSON round trip at every
    n-th decision (0: never). `counterfactual`: replay simultaneous batches with another
    first answer.
    """

    def __init__(self, variant: Variant, n_players: int, seed: int, agent: str = "?",
                 illegal_every: int = 7, roundtrip_every: int = 50, counterfactual: bool = True,
                 max_decisions: int = 20000, views_every: int = 13, every_seat: bool = False, pages=None):
        self.variant = variant
        self.n = n_players
        self.seed = seed
        self.agent = agent
        self.illegal_every = illegal_every
        self.roundtrip_every = roundtrip_every
        self.counterfactual = counterfactual
        self.max_decisions = max_decisions
        self.views_every = views_every
        #: [views] for every seat, not only the one asked (a harness showing pages to all)
        self.every_seat = every_seat
        #: `pages(same, same_events, alt, alt_events, seat)`: a harness's own check of what a
        #: seat is shown beyond its view (the pages of `amunre serve`), in two games rebuilt
        #: from the phase's start that the seat cannot tell apart (the true one, and one with
        #: what it may not know re-drawn) with their events: what differs, or None
        self.pages = pages
        self.view_checks = 0  # decisions whose view and request were compared with a hidden re-draw
        self.view_skips = 0  # re-draws the player could have told apart (another player's public act)
        # (state, rules, one phase?, answers before, events before) at the start of the running phase
        self._checkpoint: Checkpoint | None = None
        self.asked: list[tuple[int, str]] = []  # (player, kind) of every decision, in order
        comp = variant.components
        self.start_gold = comp.starting_gold
        self.deck = [comp.deck.get(kind, 0) for kind in variant.cards]
        self.events: list[dict] = []
        self._event: str | None = None  # the boundary event being checked, if any
        # ledgers kept from the events
        self.paid = [0] * n_players
        self.received = [0] * n_players
        self.rounds_started = 0
        self.kingdoms_seen = 0
        self.rounds_seen = 0
        self.scorings = 0
        self.level_seen = False
        self.in_scoring = False
        self.last_scores = [0] * n_players
        # counts
        self.decisions = 0
        self.illegal_checks = 0
        self.batches = 0
        self.counterfactuals = 0
        self._batch: list[tuple[int, int]] | None = None  # (decision index, player) of the open batch
        self._batch_kind = None
        self.max_level = variant.modules.max_offering_level or 0  # 0: no phase sets a level
        # the invariants the rule modules declare on their own events (`Event.check`)
        self.event_checks = {name: event.check for module in variant.modules.all
                             for name, event in module.events.items() if event.check is not None}
        self.game: Game = _CheckedGame(self, variant, n_players, seed, [partial(on_event, self)])
        if self.game.pending is not None:
            self.check()

    # -- reporting ----------------------------------------------------------------------
    def fail(self, invariant: str, detail: str) -> NoReturn:
        game = self.game
        request = game.pending
        if self._event is not None:  # raised by a listener, while the engine runs
            where = f"after {len(game.answers_so_far())} decisions, at the {self._event!r} event ({game.phase_name})"
        elif request is not None:
            where = (f"decision {len(game.answers_so_far()) + 1} ({game.phase_name}: {request.kind!r} "
                     f"for player {request.player})")
        else:
            where = f"after {len(game.answers_so_far())} decisions ({game.phase_name})"
        source = self.variant.source or self.variant.id
        if self.agent in ("random", "greedy"):
            rerun = f"amunre run --variant {source} --players {self.n} --seed {self.seed} --agents {self.agent}"
        else:
            shown = json.dumps([to_json_value(a) for a in game.answers_so_far()])
            rerun = f"Game(load({source!r}), {self.n}, {self.seed}) answered with {shown}"
        raise ConformanceError(
            f"{self.variant.id} [{source}], {self.n} players, agents {self.agent}, seed {self.seed}, {where}: "
            f"invariant [{invariant}] failed: {detail}\n  rerun: {rerun}",
            invariant,
        )

    # -- the checks ---------------------------------------------------------------------
    def check(self) -> None:
        """Everything checked while a decision is pending, in this order: the game's length, the
        request ([options]), the state, and at sampled decisions the options and illegal answers,
        the JSON round trip and the views."""
        step = len(self.game.answers_so_far())
        if step > self.max_decisions:
            self.fail("game-shape", f"no end after {self.max_decisions} decisions")
        check_request(self)
        self.check_state()
        if self.illegal_every and step % self.illegal_every == 0:
            check_illegal(self, check_options(self))
        if self.roundtrip_every and step % self.roundtrip_every == 0:
            check_roundtrip(self)
        if self.views_every and step % self.views_every == 0 and self._checkpoint is not None:
            check_views(self)

    def check_state(self) -> None:
        """Conservation and structure: cheap enough for every step (`invariants.state`)."""
        check_the_state(self)

    # -- asking an agent ----------------------------------------------------------------
    def ask(self, agent) -> object:
        """[untouched]: `agent`'s answer to the pending decision, from its seat's view; the
        game must be as it was before `agent.choose` ran: its state in full (players,
        provinces, supplies, piles, every rule module's data, the random streams' counters:
        `GameState.to_dict()`), the pending request (player, kind, options, context) and every
        answer given, sealed ones too. An agent may think on anything it is handed, never on
        the game itself."""
        game = self.game
        request = game.pending
        before = self._whole()
        try:
            choice = agent.choose(game.view(request.player), request)
        except KeyboardInterrupt:
            raise  # (Ctrl-C stops the check)
        except BaseException as error:  # noqa: BLE001 - the agent's bug (sys.exit too), its failure, not amunre's
            self.fail("agent", f"the agent ({self.agent}) of player {request.player} raised "
                               f"{type(error).__name__}: {_shown(error, str)}")
        after = self._whole()
        if after != before:
            self.fail("untouched", f"the agent ({self.agent}) of player {request.player} changed the game while "
                                   f"choosing: {', '.join(_differing(before, after))} differ before and after its "
                                   "choose()")
        try:
            legal = is_option(choice, request.options)
        except Exception:  # noqa: BLE001 - an answer that cannot even be compared (its __eq__ raises): no option
            legal = False
        if not legal:
            self.fail("agent", f"the agent ({self.agent}) of player {request.player} answered "
                               f"{_shown(choice)}, which is not one of the options of {request.kind!r}")
        return choice

    def _whole(self) -> dict:
        """Everything of the game an agent's thinking must leave as it was (see `ask`)."""
        game = self.game
        request = game.pending
        asked = None if request is None else (request.player, request.kind, options_key(request),
                                              context_key(request), request.simultaneous)
        # (the answers as one type-exact key: one encoding of the list, where a key per answer made
        # the check quadratic in the game's length, half a checked game's time)
        return {"state": game.state.to_dict(), "request": asked,
                "answers": answers_key(game.answers_so_far())}

    # -- answering ----------------------------------------------------------------------
    def step(self, choice) -> None:
        """Answer the pending decision with `choice` (which must be legal) and check."""
        game = self.game
        request = game.pending
        index = len(game.answers_so_far())
        self.asked.append((request.player, request.kind))
        public = len(game.answers)
        before = game.state.to_dict() if request.simultaneous else None
        mark = len(self.events)
        try:
            game.answer(choice)
        except IllegalAnswerError as exc:
            self.fail("options", f"answer {choice!r}, taken from the options, was refused: {exc}")
        self.decisions += 1
        nxt = game.pending
        if request.simultaneous:
            if self._batch is None or self._batch_kind != request.kind:
                self._batch = [(index, request.player)]
                self._batch_kind = request.kind
                self.batches += 1
            else:
                self._batch.append((index, request.player))
            continuing = (nxt is not None and nxt.simultaneous and nxt.kind == request.kind
                          and all(nxt.player != p for _, p in self._batch))
            if continuing:
                shown = [e["event"] for e in self.events[mark:] if e["event"] not in ("answer", "decision")]
                if shown:
                    self.fail("simultaneous", f"events {shown} emitted while a simultaneous "
                                              f"{request.kind!r} batch is collected")
                if game.state.to_dict() != before:
                    self.fail("simultaneous", f"player {request.player}'s secret {request.kind!r} answer "
                                              f"changed the state before the reveal")
                if len(game.answers) != public or any(e["event"] == "answer" for e in self.events[mark:]):
                    self.fail("simultaneous", f"player {request.player}'s secret {request.kind!r} answer "
                                              f"is public (in game.answers or an event) before the reveal")
                # one answer per batch is replayed differently, a different position each batch
                target = 1 + (self.batches - 1) % max(1, self.n - 1)
                if self.counterfactual and len(self._batch) == target:
                    check_counterfactual(self, index, request.options)
            else:
                self._batch = None
        else:
            self._batch = None
        if nxt is not None:
            self.check()

    # -- the end ------------------------------------------------------------------------
    def finish(self, agent_names: list[str] | None = None, full_replay: bool = True) -> str:
        """End-of-game checks, determinism and replay; returns the JSONL log text.

        `full_replay`: replay through `gamelog.replay_lines` (what `amunre replay` runs, which
        loads the variant again); otherwise the logged answers are replayed in memory on the
        same Variant object, which is faster and checks the same log and state.
        """
        from amunre.core.standing import winners

        game, state, edition = self.game, self.game.state, self.variant.edition
        if game.pending is not None:
            self.fail("game-shape", "finish() called while a decision is pending")
        self.check_state()
        if not state.finished:
            self.fail("game-shape", "the game stopped asking but state.finished is not set")
        kingdoms = len(edition.kingdoms)
        if self.kingdoms_seen != kingdoms or self.scorings != kingdoms:
            self.fail("game-shape", f"{self.kingdoms_seen} kingdoms and {self.scorings} scorings seen, "
                                    f"expected {kingdoms} of each")
        if self.rounds_seen != kingdoms * edition.rounds_per_kingdom:
            self.fail("game-shape", f"{self.rounds_seen} rounds played, expected "
                                    f"{kingdoms * edition.rounds_per_kingdom}")
        if sorted(state.winners) != winners(state) or not state.winners:
            self.fail("game-shape", f"winners {state.winners}, expected {winners(state)}")
        check_roundtrip(self)
        agents = agent_names or [self.agent] * self.n
        text = dumps_lines(log_lines(game, self.events, agents))
        final = state.to_dict()
        # the log as written to disk replays to the identical log and the same state
        lines = [json.loads(line) for line in text.splitlines()]
        if full_replay:
            try:
                # the variant as `amunre replay LOG --variant FILE` gets it (a log names no file to open);
                # the bots' answers are the [determinism] invariant's to check
                replayed, fresh = replay_lines(lines, "log", variant=self.variant.source or self.variant,
                                               verify_agents=False)
            except AmunreError as exc:
                self.fail("replay", str(exc))
        else:
            recorder = Recorder()
            replayed = Game(self.variant, lines[0]["players"], lines[0]["seed"], [recorder])
            for line in lines:
                if line.get("event") == "answer":
                    if replayed.pending is None:
                        self.fail("replay", "the replayed game ended before the log's last answer")
                    try:
                        replayed.answer(from_json_value(line["answer"]))
                    except IllegalAnswerError as exc:
                        self.fail("replay", f"a logged answer is refused on replay: {exc}")
            fresh = log_lines(replayed, recorder.events, lines[0]["agents"])
        if dumps_lines(fresh) != text:
            self.fail("replay", "the replayed log differs from the original")
        if replayed.state.to_dict() != final:
            self.fail("replay", "replaying the log gives a different final state")
        # the same answers with nobody listening
        quiet = Game(self.variant, self.n, self.seed)
        for answer in game.answers:
            quiet.answer(answer)
        if quiet.pending is not None or quiet.state.to_dict() != final:
            self.fail("replay", "the same answers without a listener give a different game")
        return text


def _shown(value, show=repr) -> str:
    """`show(value)` (its repr), at most 80 characters, or what it is when that raises (an
    agent's own object)."""
    try:
        return show(value)[:80]
    except Exception:  # noqa: BLE001 - an agent's object whose __repr__ or __str__ raises
        return f"a {type(value).__name__} that cannot be shown"
