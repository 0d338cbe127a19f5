"""A table of `amunre serve`: one game, its seats (people and bots) and its play-by-play.

The game is (variant, players, seed, answers), replayed from the store when the server
starts (`Table.rebuild`). The bots are made as `amunre run` makes them
(`amunre.agents.make_agents` with the table's seed) and are asked again, in order, for each
of their past answers when a table is rebuilt, so that they stand where they stood (a
bot's generator has moved on with each answer) and a downloaded log replays with
`amunre replay`, the bots re-run and checked.

A person's answer is checked against the pending decision before it is kept, kept before it
is applied, and applied before it is acknowledged. Undo is allowed while no other seat has
answered since and the answer showed nobody anything hidden (`reveals_hidden`, worked out
when it is given, from what changed and from games the seat cannot tell from this one), so
the answer to "may I undo?" depends on nothing he may not know.

A secret batch (`amunre.serve.batch`) is asked of all its seats at once. Each answer is kept
on the disk under the number the engine will give it (its seat's place in the batch), and
held, shown to nobody else, until every seat of the batch has answered; then they are given
to the game in the engine's order and revealed together. Until then a seat may take back
its own sealed answer (nobody saw it); once revealed, no answer of the batch is taken back.
"""

from __future__ import annotations

import hashlib
import random
import time

from amunre.agents import make_agent
from amunre.core.decisions import from_json_value, is_option, to_json_value
from amunre.core.engine import Game
from amunre.core.errors import AmunreError
from amunre.core.words import player_names
from amunre.gamelog.write import Recorder, incomplete_lines, log_lines
from amunre.picture.steps import Follower
from amunre.serve.batch import Ask, batch_asks, same_request, sealed_count
from amunre.serve.lastmove import LastMove
from amunre.serve.scoresheets import ScoreSheets

HUMAN = "human"
#: Why a closed table stopped, as its pages say.
CLOSED = "whoever opened it closed it"
#: Games a seat cannot tell from this one, tried to see whether an answer shows anyone anything.
REVEAL_SAMPLES = 6


class NotYourTurn(AmunreError):
    """An answer from a seat that is not asked now (or of a decision no longer pending)."""


class Table:
    """A live table: the game, its log so far, the bots, and a version that counts changes."""

    #: Whether the person who opened it chose its seed (else it was drawn, and never told).
    seed_chosen = False
    #: Whether its creator closed it: nobody is asked any more, for good.
    closed = False
    #: The secret batch under way, worked out once per pending decision: (pending, asks).
    _batch: tuple[object, list[Ask]] | None = None

    def __init__(self, record, variant):
        self.record = record
        self.variant = variant
        self.id = record.id
        self.names = player_names(record.players)
        self.seats: list[str] = list(record.seats)
        # grows with every change, across restarts too (a page keeps the newest data it got)
        self.version = time.time_ns() // 1_000_000
        # (when someone last answered at it, on this process's clock: an idle table counts less,
        # from its last answer before a restart too)
        self.changed_at = time.monotonic() - max(0.0, time.time() - getattr(record, "active", time.time()))
        self.failure: str | None = None  # why the table cannot go on (a bot's error, a changed engine)
        self.taken_back: list[tuple[int, str]] = []  # (see `note_taken_back`)
        self._start()

    @classmethod
    def around(cls, table_id: str, game: Game, events: list[dict], seats: list[str]) -> Table:
        """A table standing at a game made elsewhere (`events`: what it emitted so far): the
        harness of tests/test_serve.py, which shows the pages of two games a seat cannot tell
        apart. Who gave the answers before is not known: none can be taken back."""
        table = cls.__new__(cls)
        table.record, table.variant, table.id = None, game.variant, table_id
        table.names, table.seats = player_names(game.n_players), list(seats)
        table.version, table.failure, table.agents, table.changed_at = 1, None, {}, time.monotonic()
        table.recorder = Recorder()
        table.follower = Follower(game.variant, table.names, hide_seed=True)
        table.scoresheets = ScoreSheets(game.variant, table.names)
        table.lastmove = LastMove(game.variant, table.names)
        for event in events:
            for listener in (table.recorder, table.follower, table.scoresheets, table.lastmove):
                listener(event)
        table.game = game
        given = len(game.answers_so_far())
        table.answered_by, table.reveals = [-1] * given, [True] * given
        table.held = {}
        table.taken_back = []
        return table

    # -- building ---------------------------------------------------------------------------
    def _start(self) -> None:
        self.recorder = Recorder()
        # the play-by-play (never the seed) and the bid markers
        self.follower = Follower(self.variant, self.names, hide_seed=True)
        # the score sheets and the last move, from events the whole table is told
        self.scoresheets = ScoreSheets(self.variant, self.names)
        self.lastmove = LastMove(self.variant, self.names)
        self.game = Game(self.variant, self.record.players, self.record.seed,
                         [self.recorder, self.follower, self.scoresheets, self.lastmove])
        self.answered_by: list[int] = []  # the seat of each answer
        self.reveals: list[bool] = []
        # the sealed answers of the secret batch under way, by seat, until all are in
        self.held: dict[int, object] = {}

    #: Whether the bots stand where they stood (`restore_bots`): until then none answers.
    bots_ready = True

    def rebuild(self, stored: list[tuple[int, object, bool]], bots: bool = True,
                sealed: dict[int, tuple[int, object]] | None = None) -> None:
        """Replay the stored answers (quick: nobody is asked). With `bots`, new bots are
        made, each as `make_agents` makes it (from the seed and its seat), to be brought to
        where they stood by `restore_bots` before any of them answers; without, the bots are
        kept as they are (an undo: none of them answered since). `sealed`: the answers kept of
        the secret batch under way, by number (seat, answer): held again, not given."""
        self._start()
        if bots:
            self.agents = {seat: make_agent(kind, self.record.seed, seat) for seat, kind in enumerate(self.seats)
                           if kind != HUMAN}
            self.bots_ready = not self.agents or not any(
                seat in self.agents for seat, _, _ in [*stored, *((s, a, True) for s, a in (sealed or {}).values())])
        sealed = dict(sealed or {})
        self.failure, given = self._replay(self.game, stored, whole_batches=True)
        if self.failure is None:
            for seat, _, reveals in stored[:given]:
                self.answered_by.append(seat)
                self.reveals.append(reveals)
            # (the answers kept of a batch not complete yet are held again, not given)
            sealed.update({number: (seat, raw) for number, (seat, raw, _) in enumerate(stored) if number >= given})
            self.failure = self._hold_again(sealed)
        self.version += 1

    def _hold_again(self, sealed: dict[int, tuple[int, object]]) -> str | None:
        """Hold the kept answers of the batch under way (after a restart); what is wrong, or None."""
        if not sealed:
            return None
        asks = {ask.position: ask for ask in self.batch()}
        for number, (seat, raw) in sorted(sealed.items()):
            ask = asks.get(number - self.number)
            if ask is None or ask.seat != seat or not is_option(from_json_value(raw), ask.request.options):
                return (f"answer {number + 1} is kept as seat {seat}'s answer of a secret batch, but the replayed "
                        "game asks otherwise there: the engine changed")
            self.held[seat] = from_json_value(raw)
        return None

    def restore_bots(self, stored: list[tuple[int, object, bool]], sealed: dict[int, object] | None = None) -> None:
        """Ask each bot again for each of its past answers, in a game of its own replayed
        alongside (a bot's generator moves on with each answer): then they stand where they
        stood, and a downloaded log replays with `amunre replay`, the bots re-run. A bot
        answering otherwise means that the engine or the bot changed since the table was
        opened: the table stops, saying so. (Slow for `mcts` bots: as slow as their thinking
        was; the table's pages are served meanwhile.) `sealed`: the answers held of the secret
        batch under way when this was called (by seat), the bots' asked again too (taken then:
        a person may complete the batch meanwhile)."""
        sealed = sealed or {}
        twin = Game(self.variant, self.record.players, self.record.seed)
        self.failure = self.failure or self._replay(twin, stored, ask=self.agents)[0]
        if self.failure is None:  # the bots' sealed answers of the batch under way, asked again
            for ask in batch_asks(twin):
                if ask.seat in sealed and ask.seat in self.agents:
                    mine = self.agents[ask.seat].choose(ask.view(), ask.request)
                    if to_json_value(mine) != to_json_value(sealed[ask.seat]):
                        self.failure = (f"the {self.seats[ask.seat]} bot of seat {ask.seat} answers otherwise than "
                                        "it did in the secret batch under way: the engine or the bot changed since "
                                        "the table was opened")
                        break
        self.bots_ready = True

    def _replay(self, game: Game, stored, ask: dict | None = None,
                whole_batches: bool = False) -> tuple[str | None, int]:
        """Give `game` the stored answers (the bots in `ask` asked for theirs first, and
        checked); what went wrong, or None, and how many were given. With `whole_batches`, a
        secret batch whose answers are not all kept is not begun: its answers are left out."""
        for number, (seat, raw, _) in enumerate(stored):
            request = game.pending
            # (a batch has at most one answer per seat: only one that begins near the end can be short)
            if (whole_batches and request is not None and request.simultaneous and sealed_count(game) == 0
                    and number + game.n_players > len(stored) and number + len(batch_asks(game)) > len(stored)):
                return None, number
            if request is None or request.player != seat:
                return (f"answer {number + 1} was given by seat {seat}, but the replayed game asks "
                        f"{'nobody' if request is None else f'seat {request.player}'}: the engine changed"), number
            if ask and seat in ask:
                mine = ask[seat].choose(game.view(seat), request)
                if to_json_value(mine) != raw:
                    return (f"the {self.seats[seat]} bot of seat {seat} answers otherwise than it did at answer "
                            f"{number + 1}: the engine or the bot changed since the table was opened"), number
            game.answer(from_json_value(raw))
        return None, len(stored)

    def note_taken_back(self, seat: int) -> None:
        """Say in the play-by-play that `seat` took back an answer (only that: what it was is
        gone from every page with it). Kept with the line count of the game it is said in,
        which a replay after an undo rebuilds; an earlier note never stands after a later one."""
        at = len(self.follower.lines)
        self.taken_back = [(min(where, at), said) for where, said in self.taken_back]
        self.taken_back.append((at, f"{self.names[seat]} took back an answer."))

    @property
    def lines(self) -> list[str]:
        """The play-by-play, with a line where a seat took back an answer (this process's
        memory: not kept over a restart)."""
        lines = list(self.follower.lines)
        for where, said in reversed(self.taken_back):
            lines.insert(min(where, len(lines)), said)
        return lines

    @property
    def markers(self) -> dict:
        return self.follower.markers

    # -- asking and answering ------------------------------------------------------------------
    @property
    def pending(self):
        return None if self.failure else self.game.pending

    @property
    def number(self) -> int:
        """How many answers were given (the number of the pending decision, from 0)."""
        return len(self.answered_by)

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat] != HUMAN

    def batch(self) -> list[Ask]:
        """The decisions of the secret batch under way, every seat's (answered or not), in
        the engine's order; [] where the pending decision is not secret."""
        request = self.pending
        if request is None or not request.simultaneous:
            return []
        if self._batch is None or self._batch[0] is not request:
            self._batch = (request, batch_asks(self.game))
        return self._batch[1]

    def asks(self) -> list[Ask]:
        """The decisions asked now and not answered yet: every seat's of a secret batch that
        has not answered, or the one pending decision."""
        batch = self.batch()
        if batch:
            return [ask for ask in batch if ask.seat not in self.held]
        request = self.pending
        return [] if request is None else [Ask(request.player, self.game, request, 0)]

    def request_of(self, seat: int):
        """The decision `seat` is asked now and has not answered, or None."""
        return next((ask.request for ask in self.asks() if ask.seat == seat), None)

    def number_of(self, seat: int) -> int:
        """The number (from 0) the answer `seat` gives now will have in the game's answers."""
        return self.number + next((ask.position for ask in self.batch() if ask.seat == seat), 0)

    def bot_to_answer(self) -> int | None:
        """A bot asked now (the first, in the engine's order), or None."""
        return next((ask.seat for ask in self.asks() if self.is_bot(ask.seat)), None)

    def bots_asked(self) -> list[Ask]:
        """The bots asked now (all of a secret batch's that have not answered: at once)."""
        return [ask for ask in self.asks() if self.is_bot(ask.seat)]

    @property
    def finished(self) -> bool:
        return self.failure is None and self.game.pending is None

    def check_answer(self, seat: int, number: int, choice):
        """The option `choice` (JSON as sent) picks for `seat`'s pending decision `number`,
        or an AmunreError saying why it is not one (nothing is changed)."""
        request = self.pending
        if request is None:
            raise NotYourTurn("the game is over" if self.failure is None else f"the table stopped: {self.failure}")
        if seat in self.held:
            raise NotYourTurn("you have answered this secret decision already: the answers are revealed once "
                              "everyone has answered")
        request = self.request_of(seat)
        if request is None:
            waited = self.asks()
            raise NotYourTurn(f"it is {self.names[waited[0].seat] if waited else 'nobody'}'s turn, not yours")
        if number != self.number:
            raise NotYourTurn(f"decision {number} is not pending (decision {self.number} is: reload the page)")
        try:
            option = from_json_value(choice) if isinstance(choice, list) else choice
        except (TypeError, ValueError, RecursionError):
            option = None
        if not is_option(option, request.options):
            raise AmunreError("that answer is not one of the options of the pending decision")
        return option

    def reveals_hidden(self, seat: int, option) -> bool:
        """Whether giving `option` now would show anyone something hidden, so that taking it
        back would leave them knowing it. Yes when, giving it, a hidden fact moves: a card is
        drawn or reshuffled, a hand or a face-down card changes (a card sold or played is
        shown), a random stream draws (a province card turned up), or a secret batch is
        revealed; and yes when any seat's view, or what the table sees happen, differs
        between games the answering seat cannot tell from this one (`Game.determinize`,
        drawn with a generator seeded from public facts only): a hidden fact a rule module
        keeps of its own. So the answer depends on nothing the seat may not know."""
        game = self.game
        before = _hidden_marks(game)
        twin = game.clone()
        public = len(twin.answers)
        twin.answer(option)
        if _hidden_marks(twin) != before or len(twin.answers) > public + 1:
            return True
        shown = set()
        rng = random.Random(int.from_bytes(hashlib.blake2b(f"undo {self.id} {self.number}".encode(),
                                                           digest_size=8).digest(), "big"))
        for _ in range(REVEAL_SAMPLES):
            events: list = []
            sample = game.determinize(seat, rng)
            sample.listen(events.append)
            if sample.pending is None or not is_option(option, sample.pending.options):
                return True  # (cannot be: his request is the same in it) be safe
            before = [sample.view(player).to_dict() for player in range(game.n_players)]
            sample.answer(option)
            # what the answer changed in each seat's view: the same in every sample unless a
            # hidden fact reached that seat (the others' hands differ between samples, but
            # unchanged they are not part of it)
            changed = []
            for player, old in enumerate(before):
                new = sample.view(player).to_dict()
                changed.append(sorted((key, value) for key, value in new.items()
                                      if key != "phase" and value != old.get(key)))
            shown.add(repr((changed, [e for e in events if e["event"] != "decision"])))
            if len(shown) > 1:
                return True
        return False

    def give_to_bot(self, seat: int, kind: str, seats: list[str]) -> None:
        """Seat `seat` is the bot `kind` from now on (`seats`: the table's seats as kept): it
        never answered (nobody held its token), so its bot is made as `make_agents` makes
        it, from the seed and its seat, and stands where a bot there from the start would
        stand; a log of the game replays with it re-run."""
        self.agents[seat] = make_agent(kind, self.record.seed, seat)
        self.seats = list(seats)
        self.record.seats = list(seats)
        self.version += 1

    def close(self) -> None:
        """Stop the table for good (its creator closed it): nothing is pending any more."""
        self.closed, self.failure = True, CLOSED
        self.version += 1

    def apply(self, seat: int, option, reveals: bool) -> None:
        """Give an answer already checked and kept to the game (the engine's pending decision)."""
        self.game.answer(option)
        self.answered_by.append(seat)
        self.reveals.append(reveals)
        self.version += 1

    def give(self, seat: int, option, reveals: bool) -> None:
        """An answer already checked and kept: given to the game, or, in a secret batch, held
        until every seat of the batch has answered, and then all given in the engine's order
        (revealed together: none of them can be taken back)."""
        batch = self.batch()
        if not batch:
            self.apply(seat, option, reveals)
            return
        self.held[seat] = option
        self.version += 1
        if any(ask.seat not in self.held for ask in batch):
            return
        held, self.held = self.held, {}
        for ask in batch:
            if not same_request(ask.request, self.game.pending):  # (the engine's guarantee broken)
                self.failure = (f"the secret batch asked {self.names[ask.seat]} otherwise once the earlier answers "
                                "were given: engine bug")
                return
            self.apply(ask.seat, held[ask.seat], True)

    def take_back_sealed(self, seat: int) -> None:
        """Forget `seat`'s sealed answer of the batch under way (nobody saw it): asked again."""
        del self.held[seat]
        self.version += 1

    def undo_problem(self, seat: int) -> str | None:
        """Why `seat` may not take back its last answer now, or None if it may."""
        if self.failure is not None:  # (a stopped table stays as it stopped)
            return f"the table stopped: {self.failure}"
        if seat in self.held:
            return None  # a sealed answer nobody has seen: it may be changed until all have answered
        if self.held:
            return ("another seat has answered since your last answer" if seat in self.answered_by
                    else "you have not answered yet")
        asked = self.bot_to_answer()
        if asked is not None:
            return f"{self.names[asked]} (a bot) is answering"
        if not self.answered_by or self.answered_by[-1] != seat:
            mine = seat in self.answered_by
            return ("another seat has answered since your last answer" if mine else "you have not answered yet")
        if self.reveals[-1]:
            return ("your last answer showed something hidden (a card drawn or shown, a province card turned up, a "
                    "secret revealed): it stands")
        if self.finished:
            return "the game is over"
        return None

    # -- the log --------------------------------------------------------------------------------
    #: The log of the finished game, once written (it changes no more).
    _finished_log: str | None = None

    def log_text(self) -> str:
        """The game's log: a house rule's file named as the server keeps it under its data
        folder (`variants/<table>/variant.toml`), not by its path on the server's disk."""
        from amunre.gamelog.write import dumps_lines

        if self._finished_log is not None:
            return self._finished_log
        game = self.game
        if self.finished:
            lines = log_lines(game, self.recorder.events, self.seats)
        else:
            lines = incomplete_lines(game, self.recorder.events, self.seats, "the table is still being played"
                                     if self.failure is None else self.failure)
        if lines[0].get("variant_file"):
            lines[0]["variant_file"] = f"variants/{self.id}/variant.toml"
        text = dumps_lines(lines)
        if self.finished:
            self._finished_log = text
        return text


def _hidden_marks(game) -> tuple:
    """What a game hides, as it stands: the draw pile, every hand, the face-down cards, how
    far each random stream has drawn."""
    state = game.state
    return (tuple(state.deck), tuple(tuple(p.hand) for p in state.players),
            tuple(tuple(p.cards) for p in state.provinces), tuple(sorted(state.draws.items())))
