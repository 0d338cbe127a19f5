"""The engine: assembles the variant's pipeline and drives one game, decision by decision.

Order of play (one loop, documented here once):
  setup -> for each kingdom: every rule's `start_kingdom`, then each round runs the phase
  pipeline in order (cards played face up are discarded when a phase ends) -> the kingdom's
  scoring items -> between kingdoms the transition (R-GAME-05); after the last kingdom the
  final scoring items, then the winners (R-GAME-06).

`Game.pending` is the current `Request` (None once the game is over); `Game.answer(choice)`
checks the choice against the legal options, raises `IllegalAnswerError` without touching
the state if it is not one, and otherwise logs it and runs the game to the next decision.
(variant, players, seed, answers) reproduces a game exactly.

Branching (`Game.clone`, `Game.determinize`): the flow of a game is one plan of steps per
variant (`flow_plan`); a rule module's step is its `run` generator, which cannot be copied.
So a game keeps a *checkpoint*, a copy of the state taken where a rule's step began, and
every input given since (answers, and the edits of a determinization). A clone restores the
checkpoint and gives those inputs again: a median of 7 answers, for a rule's step is short.
The rule-author contract stays a plain generator. docs/architecture.md says why this was
chosen over resumable steps, with the measurements.
"""

from __future__ import annotations

import os
import random
from typing import Callable

from amunre.contract import Event
from amunre import decisions
from amunre.decisions import BATCH_START, Request, from_json_value, to_json_value
from amunre.errors import AmunreError, IllegalAnswerError
from amunre.mechanics import end_phase_cards
from amunre.model import Variant
from amunre.setup import set_up
from amunre.standing import standing, winners
from amunre.state import GameState, copy_data
from amunre.view import PlayerView, hide_from

MAX_SEED = 2**63 - 1
SPEC_IDS = ("R-GAME-01", "R-GAME-03", "R-GAME-04", "R-GAME-05")


def check_variant(variant) -> Variant:
    """`variant` as a `Variant`: one already loaded, or a variant id or file path, loaded."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, (str, os.PathLike)):
        from amunre.loader import load_variant

        return load_variant(variant)
    raise AmunreError(f"a game needs a variant (a Variant, a variant id or a variant file's path), "
                      f"not {type(variant).__name__} {_shown(variant)}")


def _shown(value) -> str:
    """A value of a wrong argument, cut short for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_players(variant: Variant, n_players: int) -> None:
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise AmunreError(f"the player count must be a whole number (one of "
                          f"{', '.join(map(str, variant.players))}), not {type(n_players).__name__} {_shown(n_players)}")
    allowed = variant.players
    if n_players not in allowed:
        raise AmunreError(
            f"{variant.id} is played by {', '.join(map(str, allowed))} players, not {n_players}"
            + variant.modules.players_note(n_players)
        )


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise AmunreError(f"seed must be a whole number from 0 to {MAX_SEED}, not {_shown(seed)}")
    return seed


class Game:
    """One game of a variant. Construct, then answer `pending` until it is None."""

    def __init__(
        self, variant: Variant, n_players: int, seed: int, listeners: list[Callable] | None = None,
        state: GameState | None = None,
    ):
        variant = check_variant(variant)
        check_players(variant, n_players)
        self.variant = variant
        self.n_players = n_players
        self.seed = check_seed(seed)
        if state is not None and (state.n_players != n_players or len(state.provinces) != len(variant.board)):
            raise AmunreError(
                f"the prepared state has {state.n_players} players and {len(state.provinces)} provinces, "
                f"not {n_players} and {len(variant.board)}"
            )
        self.state = GameState(n_players, len(variant.board), seed, len(variant.cards)) if state is None else state
        modules = variant.modules
        self.phases = modules.phases
        self.scoring = modules.scoring
        self.final_scoring = modules.final_scoring
        self.answers: list = []  # every revealed answer, in order: with the seed, the game
        self._sealed: list = []  # secret answers of a simultaneous batch, until its reveal
        self._views: list = [None] * n_players
        self.listeners: list[Callable] = []
        self.listening = False
        self.hearing: frozenset | _Everything = frozenset()  # the events some listener wants
        self._routes: dict[str, list[Callable]] = {}
        self._catch_all: list[Callable] = []
        if listeners is not None and (isinstance(listeners, (str, bytes)) or not hasattr(listeners, "__iter__")):
            raise AmunreError(f"listeners must be a list of callables, not {type(listeners).__name__} {_shown(listeners)}")
        for listener in listeners or ():
            self.listen(listener)
        self.phase_name = "setup"
        self.pending: Request | None = None
        # branching: where a clone starts from, and every input given since (`clone`)
        self._base = _Checkpoint(None, 0, "setup", 0)
        self._since: list = []
        self._tracking = False  # take a checkpoint where each rule's step begins
        self._at_batch = None  # a re-draw due where the next secret batch begins (`_rebuild`)
        self._batch_at = 0  # where in `_since` the secret batch under way began
        self._blind = False  # rebuilt blind from a re-drawn checkpoint, until its re-draw (`_rebuild`)
        if state is None:
            self._flow = self._play()
            self._advance(None)
        else:
            self.phase_name = "position"
            self._flow = None
            for module in modules.stateful:  # a prepared position may lack a module's own data
                if module.key not in state.rules:
                    state.rules[module.key] = module.initial_state(self)
            # a clone stands at the prepared position, with nothing pending
            self._base = _Checkpoint(snapshot(state), None, self.phase_name, 0, _no_flow)

    @classmethod
    def from_state(cls, variant: Variant, state: GameState, listeners: list[Callable] | None = None) -> "Game":
        """A game standing at a prepared position (a position file, a rulebook example).

        No setup runs and nothing is pending until `run_rules` starts some of the variant's
        rule modules on the state. Its answers replay only from the same prepared state.
        """
        if not isinstance(state, GameState):
            raise AmunreError(f"a game from a state needs a GameState (amunre.state), not {type(state).__name__} "
                              f"{_shown(state)}")
        return cls(variant, state.n_players, state.seed, listeners, state=state)

    def rule(self, rule_id: str):
        """The rule module of the pipeline entry with this id, else the first using this rule id."""
        found = self.variant.modules.rule(rule_id)
        if found is None:
            ids = sorted({r.key for r in self.variant.modules.all})
            raise AmunreError(f"{self.variant.id} has no rule {rule_id!r} (it has: {', '.join(ids)})")
        return found

    def run_rules(self, rules, one_phase: bool = False) -> None:
        """Run rule modules (instances, or ids looked up with `rule`) once each, in order, on
        the current state instead of the normal flow; answer `pending` until it is None.
        Face-up cards are discarded after each rule, as between phases, or with `one_phase`
        once after all of them (the steps of one grouped phase)."""
        if self.pending is not None:
            raise AmunreError("cannot run rules while a decision is pending")
        picked = [self.rule(r) if isinstance(r, str) else r for r in rules]
        # a clone of this game starts from here: the prepared state, these rules
        self._base = _Checkpoint(snapshot(self.state), None, self.phase_name, len(self.answers),
                                 lambda game: game._run_rules(picked, one_phase))
        self._since = []
        self._flow = self._run_rules(picked, one_phase)
        self._advance(None)

    def _run_rules(self, rules, one_phase: bool, start: int = 0):
        for index in range(start, len(rules)):
            rule = rules[index]
            if self._tracking and index != start:  # where a clone can start, as in `_play`
                self._base = _Checkpoint(snapshot(self.state), None, self.phase_name, len(self.answers),
                                         lambda game, at=index: game._run_rules(rules, one_phase, at))
                self._since = []
            self.phase_name = rule.spec.heading or rule.name
            if "phase" in self.hearing:
                self.emit("phase", rule=rule.spec.id, name=rule.name)
            yield from rule.run(self)
            if not one_phase:
                end_phase_cards(self.state)
        if one_phase:
            end_phase_cards(self.state)

    def view(self, player: int):
        """What `player` may know of this game (`amunre.view.PlayerView`): what agents get."""
        if type(player) is not int or not 0 <= player < self.n_players:
            raise AmunreError(f"no player {_shown(player)} in a game of {self.n_players} "
                              f"(expected a seat number from 0 to {self.n_players - 1})")
        view = self._views[player]
        if view is None:
            view = self._views[player] = PlayerView(self, player)
        return view

    # -- events -------------------------------------------------------------------------
    def listen(self, listener: Callable) -> None:
        if not callable(listener):
            raise AmunreError(f"a listener must be callable (it gets each event, a dict), not "
                              f"{type(listener).__name__} {_shown(listener)}")
        """Add a listener: a callable taking each event (a dict). One with a `listens_to`
        attribute (a set of event names) hears only those: rules skip building the others,
        which keeps a statistics listener nearly free (`amunre.compare.collect`)."""
        self.listeners.append(listener)
        self.listening = True
        wanted = getattr(listener, "listens_to", None)
        if wanted is None:
            self._catch_all.append(listener)
            for targets in self._routes.values():
                targets.append(listener)
            self.hearing = EVERYTHING
        else:
            for name in wanted:
                self._routes.setdefault(name, list(self._catch_all)).append(listener)
            if self.hearing is not EVERYTHING:
                self.hearing = frozenset(self.hearing | set(wanted))

    def emit(self, _event: str, **data) -> None:
        """Send an event to the listeners that want it. Rules guard each call with
        `if "<event>" in game.hearing:` so that an event nobody hears costs nothing."""
        targets = self._routes.get(_event, self._catch_all)
        if targets:
            event = {"event": _event, **data}
            for listener in targets:
                listener(event)

    # -- the decision protocol ----------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.pending is None

    def answer(self, choice) -> None:
        request = self.pending
        if request is None:
            raise IllegalAnswerError("the game is over: no decision is pending")
        if isinstance(choice, list):
            try:
                choice = from_json_value(choice)
            except RecursionError:
                raise IllegalAnswerError(f"illegal answer to {request.kind!r} for player {request.player}: a list "
                                         "nested too deep (expected one of the request's options)") from None
        if not _is_option(choice, request.options):
            shown = ", ".join(repr(to_json_value(o)) for o in request.options[:12])
            more = f", ... ({len(request.options)} in all)" if len(request.options) > 12 else ""
            raise IllegalAnswerError(
                f"illegal answer {_shown(to_json_value(choice))} to {request.kind!r} for player {request.player}: "
                f"expected one of {shown}{more}"
            )
        self._since.append(choice)
        # as `_give` and `_record` do (spelled out here: this is every decision's path)
        if request.simultaneous:
            self._sealed.append((request, choice))
        else:
            self.answers.append(choice)
            if "answer" in self.hearing:
                self.emit("answer", player=request.player, kind=request.kind,
                          options=len(request.options), answer=to_json_value(choice))
        self._advance(choice)

    def _give(self, request: Request, choice) -> None:
        """Apply a legal answer: keep it (sealed when simultaneous) and run to the next decision."""
        if request.simultaneous:
            # kept out of `answers` and the events until the rule reveals the batch, so no
            # later player of the batch can see it
            self._sealed.append((request, choice))
        else:
            self._record(request, choice)
        self._advance(choice)

    def _record(self, request: Request, choice) -> None:
        self.answers.append(choice)
        if "answer" in self.hearing:
            self.emit("answer", player=request.player, kind=request.kind,
                      options=len(request.options), answer=to_json_value(choice))

    def reveal(self) -> None:
        """Rules call this once a simultaneous batch is complete: its answers become public
        (logged and emitted) in the order they were given."""
        sealed, self._sealed = self._sealed, []
        for request, choice in sealed:
            self._record(request, choice)

    def answers_so_far(self) -> list:
        """Every answer given, including secret ones not yet revealed: for harnesses that
        replay a game mid-batch (an agent must read only `answers`)."""
        return self.answers + [choice for _, choice in self._sealed]

    def _recording(self) -> None:
        """From now on this game keeps checkpoints (`_tracking`) and records its forced answers
        among its inputs (a determinized game gives them again): its `_advance` becomes
        `_advance_recording`, so that a game that never branches pays nothing for it."""
        self._tracking = True
        self._advance = self._advance_recording

    def _advance_recording(self, value) -> None:
        outer, decisions.record_forced = decisions.record_forced, self._forced
        try:
            Game._advance(self, value)
        finally:
            decisions.record_forced = outer

    def _forced(self, value) -> None:
        self._since.append(_Forced(value))

    def _advance(self, value) -> None:
        try:
            pending = self._flow.send(value)
            while pending is BATCH_START:  # a secret batch begins (`ask_secretly`)
                self._batch_at = len(self._since)
                if self._at_batch is not None:
                    self._redraw_at_batch()
                pending = self._flow.send(None)
            self.pending = pending
        except StopIteration:
            self.pending = None
        if self._sealed and (self.pending is None or not self.pending.simultaneous):
            self.reveal()  # a rule that forgot to reveal: never lose an answer
        if self.pending is not None and "decision" in self.hearing:
            self.emit("decision", player=self.pending.player, kind=self.pending.kind,
                      options=len(self.pending.options))

    # -- the game -----------------------------------------------------------------------
    def _setup(self) -> None:
        set_up(self)
        if "setup" in self.hearing:
            state = self.state
            self.emit("setup", players=state.n_players, seed=state.seed, start_player=state.start_player,
                      gold=self.variant.components.starting_gold)

    def _play(self, start: int = 0):
        """The game from step `start` of the variant's plan (`flow_plan`) to its end."""
        plan = flow_plan(self.variant)
        for index in range(start, len(plan)):
            step, arg = plan[index]
            if step is None:  # a rule module's step: where a clone can start
                # (not again where this flow resumes a checkpoint: it holds that one already)
                if self._tracking and index != start:
                    self._base = _Checkpoint(snapshot(self.state), index, self.phase_name, len(self.answers))
                    self._since = []
                yield from arg.run(self)
            else:
                step(self, arg)

    # -- branching ----------------------------------------------------------------------
    def clone(self) -> "Game":
        """An independent game standing where this one stands, its random streams where this
        one's are (`amunre.streams`): answered alike, the two play on alike. It has no listeners (add
        some with `listen`). The first clone of a game costs a replay from its start; from
        then on the game keeps a checkpoint where each rule's step begins, and a clone costs
        a copy of the state and a replay of the answers since (`amunre bench` shows it)."""
        if not self._tracking:
            self._track()
        return self._rebuild(self._since)

    def determinize(self, player: int, rng) -> "Game":
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
        if isinstance(player, bool) or not isinstance(player, int):
            raise AmunreError(f"determinize needs a player's seat number, not {player!r}")
        if not 0 <= player < self.n_players:
            raise AmunreError(f"no player {player} in a game of {self.n_players}")
        if not isinstance(rng, random.Random):
            raise AmunreError(f"determinize draws with a random.Random, not {type(rng).__name__} "
                              "(expected e.g. random.Random(seed))")
        if self.pending is not None and self.pending.player != player:
            raise AmunreError(f"determinize for the player asked now ({self.pending.player}), not {player}: "
                              "the question asked was worked out from his hidden facts")
        if not self._tracking:
            self._track()
        base = self._base
        if base.state is None:  # a checkpoint is taken where every rule's step begins (engine bug)
            raise AmunreError("determinize found no checkpoint to start from (engine bug)")
        # where the step began, as he could have known it: the hidden facts drawn again there
        # too, so that nothing of the truth is kept to give a clone from. The answers since are
        # public; they are given again blind (`decisions.replaying`), then the re-draw of the
        # present sets every hidden fact (and his own, as they are now) and his request
        hidden = restore(base.state)
        hide_from(self.variant, hidden, player, rng)
        # (no answers before it: whether another player was asked, or forced, may be his secret)
        start = _Checkpoint(snapshot(hidden), base.index, base.phase_name, 0, base.flow, blind=True)
        if self.pending is None or not self.pending.simultaneous:
            edit = _Redraw.drawn(self, player, rng, request=self.pending)
            return self._rebuild(self._since + [edit], start=start, seed=hidden.seed)
        # a secret batch is under way: re-draw where it began (the state has not changed since),
        # before any of its options was worked out; then each other player asked before this
        # one answers among the options the re-drawn game gives him (who is asked may change:
        # a player with one option is not asked)
        edit = _Redraw.drawn(self, player, rng, at_batch=True)
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
        edit = due if isinstance(due, _Redraw) else _Redraw.drawn(self, *due, at_batch=True)
        edit.apply(self)
        self._since.append(edit)
        self._batch_at = len(self._since)

    def _track(self) -> None:
        """Start keeping checkpoints: replay this game once, taking them as it goes, and keep
        the last one."""
        twin = self._rebuild(self._since, tracking=True)
        self._base, self._since, self._batch_at = twin._base, twin._since, twin._batch_at
        self._recording()

    def _rebuild(self, inputs: list, tracking: bool = False, redraw=None, start=None, seed=None) -> "Game":
        """A new game from this one's checkpoint (or `start`, with `seed`), given `inputs`
        (answers, forced answers and re-draws) again; `redraw` (a `_Redraw`, or (player, rng)
        to draw one there): the re-draw given where the last secret batch begins.

        From a checkpoint whose hidden facts were drawn again (`blind`), every input is given
        as recorded, the forced ones too, until a re-draw makes the state whole; otherwise
        the forced answers are worked out again (and recorded again, when tracking)."""
        base = self._base if start is None else start
        twin = Game.__new__(Game)
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
            twin._flow = base.flow(twin) if base.flow else twin._play(base.index)
        # a re-draw made where a secret batch began is given again there: while the last input
        # given before it (-1: none, the flow's start) runs to the batch's start
        at_batch: dict[int, object] = {}
        last = -1
        blind = base.blind
        for i, given in enumerate(inputs):
            if isinstance(given, _Redraw):
                if given.at_batch:
                    at_batch[last] = given
                blind = False
            elif blind or not isinstance(given, _Forced):
                last = i
        if redraw is not None:
            at_batch[last] = redraw
        outer = decisions.replaying
        decisions.replaying = twin._blind = base.blind
        try:
            twin._at_batch = at_batch.get(-1)
            twin._advance(None)
            for i, given in enumerate(inputs):
                if isinstance(given, _Redraw):
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
                    value = given.value if isinstance(given, _Forced) else given
                    twin._at_batch = at_batch.get(i)
                    twin._since.append(value)
                    twin._advance(value)
                    continue
                if isinstance(given, _Forced):
                    continue  # worked out again by the flow (and recorded again when tracking)
                twin._at_batch = at_batch.get(i)
                twin._since.append(given)
                twin._give(twin.pending, given)
        finally:
            decisions.replaying = outer
        if twin._at_batch is not None:
            raise AmunreError("a re-draw was due where a secret batch begins, but no batch began (engine bug)")
        return twin

    def _summary(self) -> dict:
        """The public state in brief, for the end of a round: each player's gold, hand size
        and points, and every province with an owner or anything on it as
        [province, owner, farmers on fields, farmers off them, stones, single and double
        pyramids]."""
        state = self.state
        provinces = [[i, prov.owner, prov.farmers, prov.free_farmers, prov.stones, prov.pyramids, prov.doubles]
                     for i, prov in enumerate(state.provinces)
                     if prov.owner is not None or prov.stones or prov.pyramids or prov.doubles]
        return {"gold": [p.gold for p in state.players], "hands": [sum(p.hand) for p in state.players],
                "scores": [p.score for p in state.players], "provinces": provinces}

    def _between_kingdoms(self) -> None:
        """R-GAME-05: provinces lose owners and farmers; pyramids and stones stay."""
        state = self.state
        for prov in state.provinces:
            state.supply_farmers += prov.farmers + prov.free_farmers
            prov.farmers = prov.free_farmers = 0
            prov.owner = None
        for player in state.players:
            player.provinces = []
        if "transition" in self.hearing:
            self.emit("transition")


# -- the flow of a game: one plan of steps per variant ------------------------------------
def flow_plan(variant) -> list[tuple]:
    """The game's steps in order, as (step, arg): `step(game, arg)` for the core's own (set
    up, start a kingdom, round or phase, discard face-up cards, score, end), or (None, rule)
    where a rule module's `run` takes over. Built once per variant."""
    modules = variant.modules
    plan = modules.__dict__.get("flow_plan")
    if plan is not None:
        return plan
    kingdoms, rounds = variant.edition.kingdoms, variant.edition.rounds_per_kingdom
    plan = [(_set_up_step, None)]
    for k in range(len(kingdoms)):
        plan.append((_kingdom_step, k))
        for r in range(rounds):
            plan.append((_round_step, (k, r)))
            for phase_id, heading, steps in modules.round_phases:
                plan.append((_phase_step, (phase_id, heading)))
                plan += [(None, rule) for rule in steps]
                plan.append((_end_phase_step, None))
            plan.append((_round_end_step, (k, r)))
        plan.append((_scoring_step, k))
        for rule in modules.scoring:
            plan += [(None, rule), (_end_phase_step, None)]
        plan.append((_scoring_end_step, k))
    plan.append((_final_scoring_step, None))
    plan += [(None, rule) for rule in modules.final_scoring]
    plan.append((_game_end_step, None))
    modules.flow_plan = plan
    return plan


def _set_up_step(game: Game, _) -> None:
    game._setup()


def _kingdom_step(game: Game, k: int) -> None:
    game.state.kingdom = k
    if k:
        game._between_kingdoms()
    for rule in game.variant.modules.all:  # a scoring item's too: the contract says every module's
        rule.start_kingdom(game)
    if "kingdom" in game.hearing:
        game.emit("kingdom", kingdom=k, name=game.variant.edition.kingdoms[k])


def _round_step(game: Game, at: tuple) -> None:
    k, r = at
    game.state.round = r
    if "round" in game.hearing:
        game.emit("round", kingdom=k, round=r, start_player=game.state.start_player)


def _phase_step(game: Game, phase: tuple) -> None:
    phase_id, heading = phase
    game.phase_name = heading
    if "phase" in game.hearing:
        game.emit("phase", rule=phase_id, name=heading)


def _end_phase_step(game: Game, _) -> None:
    end_phase_cards(game.state)


def _round_end_step(game: Game, at: tuple) -> None:
    if "round_end" in game.hearing:
        k, r = at
        game.emit("round_end", kingdom=k, round=r, **game._summary())


def _scoring_step(game: Game, k: int) -> None:
    game.phase_name = "scoring"
    if "scoring" in game.hearing:
        game.emit("scoring", kingdom=k, name=game.variant.edition.kingdoms[k])


def _scoring_end_step(game: Game, k: int) -> None:
    if "scoring_end" in game.hearing:
        game.emit("scoring_end", kingdom=k, name=game.variant.edition.kingdoms[k],
                  scores=[p.score for p in game.state.players])


def _final_scoring_step(game: Game, _) -> None:
    game.phase_name = "final scoring"
    if "final_scoring" in game.hearing:
        game.emit("final_scoring")


def _game_end_step(game: Game, _) -> None:
    state = game.state
    state.winners = winners(state)
    state.finished = True
    game.phase_name = "game over"
    if "game_end" in game.hearing:
        standings = [standing(state, p) for p in range(state.n_players)]
        game.emit("game_end", winners=state.winners, scores=[s[0] for s in standings],
                  pyramids=[s[1] for s in standings], stones=[s[2] for s in standings])


# -- checkpoints and edits ------------------------------------------------------------------
def _no_flow(game: Game):
    """The flow of a prepared position before any rule runs: nothing to ask."""
    return
    yield  # a generator that ends at once
class _Checkpoint:
    """Where a clone starts: a copy of the state, the
    plan step it was taken at (or `flow`, for a game run by `run_rules`), the phase's name
    and how many answers were given by then. Never changed: clones share it."""

    __slots__ = ("state", "index", "phase_name", "answers", "flow", "blind")

    def __init__(self, state, index, phase_name: str, answers: int, flow=None, blind: bool = False):
        self.state, self.index, self.phase_name, self.answers, self.flow = state, index, phase_name, answers, flow
        # its hidden facts were drawn again (`Game.determinize`): the inputs since are given blind
        self.blind = blind


def snapshot(state: GameState) -> GameState:
    """A copy of `state` kept for later (never changed: `restore` copies it again)."""
    return state.copy()


def restore(kept: GameState) -> GameState:
    """A new, independent state from a `snapshot`."""
    return kept.copy()


class _Forced:
    """A forced answer (a decision with one option, never asked), as a checkpointed game
    records it among its inputs: a determinized game's blind rebuild gives it again."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Redraw:
    """A determinization's edit, as data: the whole state as the player it was drawn for may
    know it, everything hidden from him drawn again (`view.hide_from`), and his pending
    request, so that a clone of a determinized game gives the same edit again at the same
    point. All of it follows from his view and the generator it was drawn with."""

    __slots__ = ("state", "at_batch", "request")

    @classmethod
    def drawn(cls, game: Game, player: int, rng, at_batch: bool = False, request: Request | None = None) -> "_Redraw":
        edit = cls()
        edit.state = game.state.copy()
        hide_from(game.variant, edit.state, player, rng)
        edit.at_batch = at_batch  # made where a secret batch began, not after an answer
        # his pending question, as he was asked it (he knows it; its context worked out now,
        # so that nothing refers to the game it was drawn from)
        edit.request = None if request is None else Request(
            request.player, request.kind, list(request.options), dict(request.context), request.simultaneous)
        return edit

    def apply(self, game: Game) -> None:
        # in place: a rule's step under way holds the state's lists and objects
        game.state.assign(self.state)
        if game._blind:  # the state is whole again: from here on the flow works out what is forced
            game._blind = decisions.replaying = False
        if self.request is not None:
            # the flow asked it from the state before this edit: he is asked as he is in truth
            asked = self.request
            game.pending = Request(asked.player, asked.kind, asked.options, asked.context, asked.simultaneous)


class _Everything:
    """`game.hearing` when a listener hears every event: contains every name."""

    def __contains__(self, name) -> bool:
        return True

    def __repr__(self) -> str:
        return "EVERYTHING"


EVERYTHING = _Everything()


def _is_option(choice, options) -> bool:
    # `in` alone would accept True for 1 and 1.0 for 1: compare types too, at every depth.
    # The first equal option is found at C speed; only a look-alike (True for 1) needs the loop.
    # An agent answers with one of the options themselves: that is the option, no need to look.
    try:
        found = options[options.index(choice)]
    except ValueError:
        return False
    if found is choice or _same(found, choice):
        return True
    for option in options:
        if option == choice and _same(option, choice):
            return True
    return False


def _same(a, b) -> bool:
    """Equal values of the same types all the way down (`(1, (True,))` is not `(1, (1,))`)."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b


def play_game(variant: Variant, agents: list, seed: int, listeners: list[Callable] | None = None) -> Game:
    """Play a whole game, each player answered by its agent from his own view; returns the
    finished Game."""
    game = Game(variant, len(agents), seed, listeners)
    play_on(game, agents)
    return game


def play_on(game: Game, agents: list) -> None:
    """Answer `game` with the agents until it is over (a caller that must keep the game when
    an agent stops it, as `amunre run --log` does, makes the Game itself)."""
    # per seat: its agent's choose and its view, looked up once (the hot loop of every benchmark)
    seats = [(agent.choose, game.view(p)) for p, agent in enumerate(agents)]
    answer = game.answer
    request = game.pending
    while request is not None:
        choose, view = seats[request.player]
        answer(choose(view, request))
        request = game.pending


# -- what the flow of the game declares (see amunre.contract) --------------------------------
def _setup_line(e, w) -> str:
    comp = w.variant.components
    things = [f"{e['gold']} {w.t('gold')}"]
    if comp.theft_cards_per_player:
        count = comp.theft_cards_per_player
        things.append(w.a(w.t("theft")) if count == 1 else f"{count} x {w.t('theft')}")
    things += [w.a(w.card_noun(kind)) for kind in comp.starting_cards]
    return (f"{w.variant.edition.name}: {e['players']} players, seed {e['seed']}. Each starts with "
            f"{w.join(things)}. {w.who(e['start_player'])} is {w.t('start_player')}.")


def _round_end_line(e, w) -> str | None:
    """The state at the end of a round: only with --verbose."""
    if not w.verbose:
        return None
    kingdoms = w.variant.edition.kingdoms
    kingdom = kingdoms[e["kingdom"]] if e["kingdom"] < len(kingdoms) else f"kingdom {e['kingdom'] + 1}"
    lines = [f"  -- after round {e['round'] + 1} of the {kingdom} --"]
    owned: dict = {}
    loose = []
    for pid, owner, farmers, free, stones, singles, doubles in e["provinces"]:
        things = [w.count(farmers + free, "farmer")] if owner is not None else []
        if stones or owner is not None:
            things.append(w.count(stones, "stone"))
        if singles:
            things.append(w.count(singles, "pyramid"))
        if doubles:
            things.append(w.count(doubles, "double_pyramid"))
        text = f"{w.province(pid)} ({', '.join(things)})"
        (owned.setdefault(owner, []) if owner is not None else loose).append(text)
    for p, gold in enumerate(e["gold"]):
        lines.append(f"    {w.who(p)}: {gold} {w.t('gold')}, {w.count(e['hands'][p], 'favor')} in hand, "
                     f"{w.count(e['scores'][p], 'points')}; " + ("; ".join(owned.get(p, [])) or "no province"))
    if loose:
        lines.append("    without an owner: " + "; ".join(loose))
    return "\n".join(lines)


def _scoring_end_line(e, w) -> str:
    order = sorted(range(len(e["scores"])), key=lambda p: -e["scores"][p])
    points = w.t("points")
    return (f"  {points[:1].upper() + points[1:]} after the {w.t('scoring')} of the {e['name']}: "
            + ", ".join(f"{w.who(p)} {e['scores'][p]}" for p in order) + ".")


def _game_end_line(e, w) -> str:
    won = w.names_of(e["winners"])
    best = max(e["scores"])
    lines = [f"\nGame over. {'Winners' if len(e['winners']) > 1 else 'Winner'}: {won} "
             f"with {w.count(best, 'points')}."]
    tie = tie_line(e, w)
    if tie:
        lines.append(tie)
    return "\n".join(lines)


def end_of(game) -> dict:
    """A finished game's `game_end` event as it was emitted (for a line said without listening,
    `amunre run --quiet`)."""
    state = game.state
    standings = [standing(state, p) for p in range(state.n_players)]
    return {"event": "game_end", "winners": list(state.winners), "scores": [s[0] for s in standings],
            "pyramids": [s[1] for s in standings], "stones": [s[2] for s in standings]}


def tie_line(e, w) -> str | None:
    """How a tie on points was decided, one line (None without a tie): see `_tie_break`."""
    best = max(e["scores"])
    top = [p for p, score in enumerate(e["scores"]) if score == best]
    return _tie_break(e, w, top, best) if len(top) > 1 else None


def _tie_break(e, w, top: list[int], best: int) -> str:
    """How a tie on points was decided (R-GAME-06): the most pyramids in own provinces, then
    the most stones in them, else the victory is shared."""
    n = len(e["scores"])
    equal = [w.count(best, "points")]  # what the players still tied have as much of
    decided = []  # "more pyramids (red 9, blue 8)", in the order they decided
    for key, one in (("pyramids", "pyramid"), ("stones", "stone")):
        word = w.noun(2, one)
        values = {p: e.get(key, [0] * n)[p] for p in top}
        if len(set(values.values())) == 1:
            equal.append(w.count(values[top[0]], one))
            continue
        between = f"between {w.names_of(top)}, " if decided else ""
        decided.append(f"{between}the most {word} in own provinces (" +
                       ", ".join(f"{w.who(p)} {values[p]}" for p in top) + ")")
        most = max(values.values())
        top = [p for p in top if values[p] == most]
        if len(top) == 1:
            break
    tied = [p for p, score in enumerate(e["scores"]) if score == best]
    line = f"{w.names_of(tied)} tie with {w.join(equal)}{' each' if len(equal) > 1 else ''}"
    if decided:
        line += "; the tie-break: " + ", then ".join(decided)
    if len(top) > 1:
        line += f"; {w.names_of(top)} share the victory" if decided else " and share the victory"
    return line + "."


EVENTS = {
    "setup": Event("The game is set up: players, seed, start player, starting gold.", _setup_line),
    "kingdom": Event("A kingdom begins.", lambda e, w: f"\n=== {e['name']} ==="),
    "round": Event("A round begins (with its start player).",
                   lambda e, w: f"\n--- round {e['round'] + 1} ({w.who(e['start_player'])} starts) ---"),
    "phase": Event("A phase of the round begins (`rule`: its pipeline entry or group id, `name`: its heading).",
                   lambda e, w: f"[{e['name']}]"),
    "round_end": Event("A round is over: the public state in brief (gold, hand sizes, points per player; "
                       "provinces with their owner, farmers, stones and pyramids), narrated with --verbose.",
                       _round_end_line),
    "scoring": Event("A kingdom's scoring begins.",
                     lambda e, w: f"\n=== {w.t('scoring')} of the {e['name']} ==="),
    "scoring_end": Event("A kingdom's scoring is over: every player's points.", _scoring_end_line),
    "final_scoring": Event("The final scoring begins.", lambda e, w: f"\n=== {w.t('final_scoring')} ==="),
    "transition": Event("Between kingdoms the provinces lose owners and farmers (R-GAME-05).",
                        lambda e, w: f"Every province loses its owner and its {w.t('farmers')}; the "
                                     f"{w.noun(2, 'pyramid')} and {w.t('stones')} stay where they stand."),
    "game_end": Event("The game is over: winners, and each player's points, pyramids and stones (what decides a "
                      "tie, R-GAME-06).", _game_end_line),
    "answer": Event("A decision was answered (what the log replays)."),
    "decision": Event("A decision is asked."),
}
