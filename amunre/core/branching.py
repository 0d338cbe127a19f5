"""Branching for search: a game's clones and determinizations (`Game.clone`,
`Game.determinize`), and the checkpoints and recorded inputs they are made from.

A rule module's step is its `run` generator, which cannot be copied. So a game keeps a
*checkpoint*, a copy of the state taken where a rule's step began, and every input given
since (answers, the forced answers once it records them, and the edits of a
determinization). A clone restores the checkpoint and gives those inputs again: a median of
7 answers, for a rule's step is short. The rule-author contract stays a plain generator.
docs/architecture.md says why this was chosen over resumable steps, with the measurements.
`Branching` holds the game's methods for it (`amunre.core.engine.Game` is one).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from amunre.core import arguments
from amunre.core.decisions import Request
from amunre.core.errors import AmunreError, ArgumentValueError
from amunre.core.state import GameState
from amunre.core.view import hide_from

if TYPE_CHECKING:
    from collections.abc import Container
    from typing import Any, Self, TypeAlias

    from amunre.core.contract import Rule
    from amunre.core.decisions import Steps

    #: One who hears a game's events (`amunre.core.engine.Listener`).
    Listener: TypeAlias = Callable[[dict[str, Any]], object]
    from amunre.core.model import Variant
    from amunre.core.view import PlayerView


class Branching:
    """The branching half of a game (see the module docstring); `amunre.core.engine.Game` the rest."""

    # what `amunre.core.engine.Game` holds that this half reads, and sets on the games it rebuilds
    variant: Variant
    n_players: int
    seed: int
    state: GameState
    phases: tuple[Rule, ...]
    scoring: tuple[Rule, ...]
    final_scoring: tuple[Rule, ...]
    answers: list[object]
    _sealed: list[tuple[Request, object]]
    _views: list[PlayerView | None]
    listeners: list[Listener]
    listening: bool
    hearing: Container[str]  # (the events some listener wants: a set, or everything)
    _routes: dict[str, list[Listener]]
    _catch_all: list[Listener]
    phase_name: str
    pending: Request | None
    _flow: Steps[None] | None
    # its branching: where a clone starts from, and every input given since (see `Game`)
    _base: Checkpoint
    _since: list[object]
    _tracking: bool
    _at_batch: Redraw | tuple[int, random.Random] | None
    _batch_at: int
    _blind: bool

    if TYPE_CHECKING:  # the game's own methods, which this half calls
        def _advance(self, value: object) -> None: ...
        def _play(self, start: int = 0) -> Steps[None]: ...
        def _give(self, request: Request, choice: object) -> None: ...
        def check_player(self, player: object) -> int: ...

    def _recording(self) -> None:
        """From now on this game keeps checkpoints (`_tracking`) and records its forced answers
        among its inputs (`Game._forced`): a determinized game gives them again."""
        self._tracking = True

    def clone(self) -> Self:
        """An independent game standing where this one stands, its random streams where this
        one's are (`amunre.core.streams`): answered alike, the two play on alike. It has no listeners (add
        some with `listen`). The first clone of a game costs a replay from its start; from
        then on the game keeps a checkpoint where each rule's step begins, and a clone costs
        a copy of the state and a replay of the answers since (`amunre bench` shows it)."""
        if not self._tracking:
            self._track()
        return self._rebuild(self._since)

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A game that `player` cannot tell from this one, everything he may not know drawn
        again from what is still possible: the other hands, the draw pile's order, the
        face-down cards, each rule module's hidden data (`view.hide_from`), the game's
        seed (and with it what its random streams will draw), and the other players' secret answers of a batch
        under way (drawn from the options the re-drawn game gives them). `player` is the one
        asked now (a search agent's seat) or, once the game is over, anyone; his view and
        request are the same in it.

        It holds nothing derived from what he may not know, so it is safe to hand to code
        nobody trusts: not the seed (another is drawn), not this game's checkpoint (its own
        is the checkpoint with the hidden facts drawn again, from which the public answers
        since are given again), not a random stream that follows the true ones. Everything in it
        follows from his view, the public answers and `rng` (the conformance suite's [views]
        invariant compares two such games in full)."""
        player = self.check_player(player)
        if not isinstance(rng, random.Random):
            raise arguments.wrong_type("rng", rng, "a random.Random", "expected e.g. random.Random(seed)")
        if self.pending is not None and self.pending.player != player:
            raise ArgumentValueError(f"player must be the player asked now ({self.pending.player}), not {player}: "
                                     "the question asked was worked out from his hidden facts")
        if not self._tracking:
            self._track()
        base = self._base
        if base.state is None:  # a checkpoint is taken where every rule's step begins (engine bug)
            raise AmunreError("determinize found no checkpoint to start from (engine bug)")
        # where the step began, as he could have known it: the hidden facts drawn again there
        # too, so that nothing of the truth is kept to give a clone from. The answers since are
        # public; they are given again blind (`_blind`: every decision asked), then the re-draw of the
        # present sets every hidden fact (and his own, as they are now) and his request
        hidden = restore(base.state)
        hide_from(self.variant, hidden, player, rng)
        # (no answers before it: whether another player was asked, or forced, may be his secret)
        start = Checkpoint(snapshot(hidden), base.index, base.phase_name, 0, base.flow, blind=True)
        if self.pending is None or not self.pending.simultaneous:
            edit = Redraw.drawn(self, player, rng, request=self.pending)
            return self._rebuild(self._since + [edit], start=start, seed=hidden.seed)
        # a secret batch is under way: re-draw where it began (the state has not changed since),
        # before any of its options was worked out; then each other player asked before this
        # one answers among the options the re-drawn game gives him (who is asked may change:
        # a player with one option is not asked)
        edit = Redraw.drawn(self, player, rng, at_batch=True)
        twin = self._rebuild(self._since[:self._batch_at], redraw=edit, start=start, seed=hidden.seed)
        while twin.pending is not None and twin.pending.player != player:
            asked = twin.pending
            choice = asked.options[rng.randrange(len(asked.options))]
            twin._since.append(choice)
            twin._give(asked, choice)
        return twin

    def _redraw_at_batch(self) -> None:
        """Give the re-draw due where this secret batch begins (see `_rebuild`)."""
        due, self._at_batch = self._at_batch, None
        assert due is not None  # (the game calls this only when a re-draw is due)
        edit = due if isinstance(due, Redraw) else Redraw.drawn(self, *due, at_batch=True)
        edit.apply(self)
        self._since.append(edit)
        self._batch_at = len(self._since)

    def _track(self) -> None:
        """Start keeping checkpoints: replay this game once, taking them as it goes, and keep
        the last one."""
        twin = self._rebuild(self._since, tracking=True)
        self._base, self._since, self._batch_at = twin._base, twin._since, twin._batch_at
        self._recording()

    def _rebuild(self, inputs: list[object], tracking: bool = False,
                 redraw: Redraw | tuple[int, random.Random] | None = None, start: Checkpoint | None = None,
                 seed: int | None = None) -> Self:
        """A new game from this one's checkpoint (or `start`, with `seed`), given `inputs`
        (answers, forced answers and re-draws) again; `redraw` (a `_Redraw`, or (player, rng)
        to draw one there): the re-draw given where the last secret batch begins.

        From a checkpoint whose hidden facts were drawn again (`blind`), every input is given
        as recorded, the forced ones too, until a re-draw makes the state whole; otherwise
        the forced answers are worked out again (and recorded again, when tracking)."""
        base = self._base if start is None else start
        twin = type(self).__new__(type(self))
        twin.variant, twin.n_players = self.variant, self.n_players
        twin.seed = self.seed if seed is None else seed
        twin.phases, twin.scoring, twin.final_scoring = self.phases, self.scoring, self.final_scoring
        twin.answers = self.answers[:base.answers]
        twin._sealed = []
        twin._views = [None] * self.n_players
        twin.listeners, twin.listening, twin.hearing = [], False, frozenset()
        twin._routes, twin._catch_all = {}, []
        twin.phase_name = base.phase_name
        twin.pending = None
        twin._base, twin._since, twin._tracking = base, [], False
        if tracking:
            twin._recording()
        twin._at_batch = None
        twin._batch_at = 0
        if base.state is None:  # from the seed
            twin.state = GameState(self.n_players, len(self.variant.board), twin.seed, len(self.variant.cards))
            twin._flow = twin._play()
        else:
            twin.state = restore(base.state)
            # (`twin` is a Game; a checkpoint without a flow holds its plan step)
            twin._flow = base.flow(twin) if base.flow else twin._play(base.index)  # type: ignore[arg-type]
        # a re-draw made where a secret batch began is given again there: while the last input
        # given before it (-1: none, the flow's start) runs to the batch's start
        at_batch: dict[int, Redraw | tuple[int, random.Random]] = {}
        last = -1
        blind = base.blind
        for i, given in enumerate(inputs):
            if isinstance(given, Redraw):
                if given.at_batch:
                    at_batch[last] = given
                blind = False
            elif blind or not isinstance(given, Forced):
                last = i
        if redraw is not None:
            at_batch[last] = redraw
        twin._blind = base.blind
        if True:  # (the twin alone is blind: a game advanced meanwhile, a search's, is not)
            twin._at_batch = at_batch.get(-1)
            twin._advance(None)
            for i, given in enumerate(inputs):
                if isinstance(given, Redraw):
                    if not given.at_batch:
                        given.apply(twin)
                        twin._since.append(given)
                    continue
                if twin._blind:
                    # every decision is asked, forced or not, and answered as it was; what
                    # was forced and what was asked is not told apart, nor kept in `answers`
                    # (whether another player had a choice may be his secret)
                    if twin.pending is None:
                        raise AmunreError("a determinized game ended before its answers were given again: a rule "
                                          "asks a question only when some hidden fact allows it (engine or rule bug)")
                    value = given.value if isinstance(given, Forced) else given
                    twin._at_batch = at_batch.get(i)
                    twin._since.append(value)
                    twin._advance(value)
                    continue
                if isinstance(given, Forced):
                    continue  # worked out again by the flow (and recorded again when tracking)
                twin._at_batch = at_batch.get(i)
                twin._since.append(given)
                # (its own answers, given again: each has its decision pending)
                twin._give(twin.pending, given)  # type: ignore[arg-type]
        if twin._at_batch is not None:
            raise AmunreError("a re-draw was due where a secret batch begins, but no batch began (engine bug)")
        return twin


def no_flow(game: Branching) -> Steps[None]:
    """The flow of a prepared position before any rule runs: nothing to ask."""
    return
    yield  # a generator that ends at once


class Checkpoint:
    """Where a clone starts: a copy of the state, the
    plan step it was taken at (or `flow`, for a game run by `run_rules`), the phase's name
    and how many answers were given by then. Never changed: clones share it."""

    __slots__ = ("state", "index", "phase_name", "answers", "flow", "blind")

    def __init__(self, state: GameState | None, index: int | None, phase_name: str, answers: int,
                 flow: Callable[[Any], Steps[None]] | None = None, blind: bool = False) -> None:  # (of a Game)
        self.state, self.index, self.phase_name, self.answers, self.flow = state, index, phase_name, answers, flow
        # its hidden facts were drawn again (`Game.determinize`): the inputs since are given blind
        self.blind = blind


def snapshot(state: GameState) -> GameState:
    """A copy of `state` kept for later (never changed: `restore` copies it again)."""
    return state.copy()


def restore(kept: GameState) -> GameState:
    """A new, independent state from a `snapshot`."""
    return kept.copy()


class Forced:
    """A forced answer (a decision with one option, never asked), as a checkpointed game
    records it among its inputs: a determinized game's blind rebuild gives it again."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


class Redraw:
    """A determinization's edit, as data: the whole state as the player it was drawn for may
    know it, everything hidden from him drawn again (`view.hide_from`), and his pending
    request, so that a clone of a determinized game gives the same edit again at the same
    point. All of it follows from his view and the generator it was drawn with."""

    __slots__ = ("state", "at_batch", "request")

    state: GameState
    at_batch: bool
    request: Request | None

    @classmethod
    def drawn(cls, game: Branching, player: int, rng: random.Random, at_batch: bool = False,
              request: Request | None = None) -> Redraw:
        edit = cls()
        edit.state = game.state.copy()
        hide_from(game.variant, edit.state, player, rng)
        edit.at_batch = at_batch  # made where a secret batch began, not after an answer
        # his pending question, as he was asked it (he knows it; its context worked out now,
        # so that nothing refers to the game it was drawn from)
        edit.request = None if request is None else Request(
            request.player, request.kind, list(request.options), dict(request.context), request.simultaneous)
        return edit

    def apply(self, game: Branching) -> None:
        # in place: a rule's step under way holds the state's lists and objects
        game.state.assign(self.state)
        if game._blind:  # the state is whole again: from here on the flow works out what is forced
            game._blind = False
        if self.request is not None:
            # the flow asked it from the state before this edit: he is asked as he is in truth
            asked = self.request
            game.pending = Request(asked.player, asked.kind, asked.options, asked.context, asked.simultaneous)
