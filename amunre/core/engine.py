"""The engine: one game of a variant, driven decision by decision (`Game`), and games played
whole by agents (`play_game`).

`Game.pending` is the current `Request` (None once the game is over); `Game.answer(choice)`
checks the choice against the legal options, raises `IllegalAnswerError` without touching
the state if it is not one, and otherwise logs it and runs the game to the next decision.
(variant, players, seed, answers) reproduces a game exactly. The order of play is
`amunre.core.flow`'s plan; what the flow says is `amunre.core.flow_words`; a game's clones and
determinizations are `amunre.core.branching`'s.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from amunre.core import arguments
from amunre.core.arguments import MAX_SEED
from amunre.core.branching import Branching, Checkpoint, Forced, no_flow, snapshot
from amunre.core.decisions import BATCH_START, Request, from_json_value, integer_option, is_option, to_json_value
from amunre.core.errors import AmunreError, ArgumentValueError, IllegalAnswerError
from amunre.core.flow import flow_plan
from amunre.core.mechanics import end_phase_cards
from amunre.core.model import Variant
from amunre.core.standing import winners  # noqa: F401 - a game's winners, where the API offers them
from amunre.core.state import GameState
from amunre.core.view import PlayerView

if TYPE_CHECKING:
    import random
    from collections.abc import Iterable, Sequence
    from typing import TypeAlias

    from amunre.core.branching import Redraw
    from amunre.core.contract import Rule
    from amunre.core.decisions import Agent, Steps

    #: Hears each event (a dict) it is sent (`Game.listen`).
    Listener: TypeAlias = Callable[[dict[str, Any]], object]

SPEC_IDS = ("R-GAME-04",)


def check_variant(variant: object) -> Variant:
    """`variant` as a loaded `Variant` (the core reads no file: `amunre.load_variant` loads
    one from its id or path, `amunre.loader.as_variant` takes either)."""
    if isinstance(variant, Variant):
        return variant
    hint = (f"expected amunre.load_variant({variant!r}) first" if isinstance(variant, str) and len(variant) < 80
            else "expected e.g. amunre.load_variant('classic2003')")
    raise arguments.wrong_type("variant", variant, "a loaded Variant", hint)


def check_players(variant: Variant, n_players: object, name: str = "players") -> int:
    """`n_players` as an int, a player count of `variant`."""
    allowed = variant.players
    count = arguments.whole_number(name, n_players, hint=f"expected one of {', '.join(map(str, allowed))} for "
                                   f"{variant.id}")
    if count not in allowed:
        raise ArgumentValueError(f"{variant.id} is played by {', '.join(map(str, allowed))} players, not {count}"
                                 + variant.modules.players_note(count))
    return count


def new_seed() -> int:
    """A seed nobody chose, drawn from every seed there is (0 to `MAX_SEED`) by the operating
    system's generator: with a person at the table, a smaller range would let a seat narrow the
    seed down from what it sees, and with it every hidden card."""
    return secrets.randbelow(MAX_SEED + 1)


check_seed = arguments.seed


def check_agents(variant: Variant, agents: object) -> list[Agent]:
    """`agents` as a list: one agent a seat of `variant`, each an object with `choose(view, request)`."""
    listed = arguments.listed("agents", agents, "a list of agents, one a seat")
    for seat, agent in enumerate(listed):
        if not callable(getattr(agent, "choose", None)):
            raise arguments.wrong_type(f"agents[{seat}]", agent, "an agent (an object with choose(view, request))",
                                       "expected e.g. amunre.agents.make_agent('random', seed, seat)")
    if len(listed) not in variant.players:
        raise ArgumentValueError(f"agents must be one agent a seat, {' or '.join(map(str, variant.players))} agents "
                                 f"for {variant.id}, not {len(listed)}")
    return listed


class Game(Branching):
    """One game of a variant. Construct, then answer `pending` until it is None."""

    #: Forced decisions this game answered itself (a single option: never pending). `amunre
    #: bench` counts engine steps as the decisions asked plus these; a search's games count
    #: their own.
    forced = 0
    #: Told of each forced decision of this game (its one-option `Request`), or None: `amunre
    #: run` shows a person what was decided for his seat. A clone or a determinized game tells
    #: nobody (an agent's search plays those).
    on_forced: Callable[[Request], None] | None = None
    #: Per decision kind of this game, [times asked, options offered in all, times forced], or
    #: None: kept only for a listener that asks for it with an `options_offered` dict (compare's
    #: options per decision), a count where the engine asks rather than an event per decision.
    _offered: dict[str, list[int]] | None = None
    #: Per decision kind a listener names in its `answers_summed` dict, the sum of this game's
    #: answers to it (numbers: how many bought), or None: kept for that listener only.
    _summed: dict[str, float] | None = None

    def __init__(
        self, variant: Variant, n_players: int, seed: int, listeners: Iterable[Listener] | None = None,
        state: GameState | None = None, on_forced: Callable[[Request], None] | None = None,
    ):
        variant = check_variant(variant)
        n_players = check_players(variant, n_players, "n_players")
        self.variant = variant
        self.n_players = n_players
        self.seed = check_seed(seed)
        if state is not None and (state.n_players != n_players or len(state.provinces) != len(variant.board)):
            raise ArgumentValueError(
                f"the prepared state has {state.n_players} players and {len(state.provinces)} provinces, "
                f"not {n_players} and {len(variant.board)}"
            )
        self.state = GameState(n_players, len(variant.board), seed, len(variant.cards)) if state is None else state
        modules = variant.modules
        self.phases = modules.phases
        self.scoring = modules.scoring
        self.final_scoring = modules.final_scoring
        self.answers: list[object] = []  # every revealed answer, in order: with the seed, the game
        self._sealed: list[tuple[Request, object]] = []  # secret answers of a simultaneous batch, until its reveal
        self._views: list[PlayerView | None] = [None] * n_players
        self.listeners: list[Listener] = []
        self.listening = False
        self.hearing: frozenset[str] | _Everything = frozenset()  # the events some listener wants
        self._routes: dict[str, list[Listener]] = {}
        self._catch_all: list[Listener] = []
        if listeners is not None:
            for listener in arguments.listed("listeners", listeners, "a list of callables", iterable=True):
                self.listen(listener)
        self.phase_name = "setup"
        self.pending: Request | None = None
        # branching: where a clone starts from, and every input given since (`clone`)
        self._base = Checkpoint(None, 0, "setup", 0)
        self._since: list[object] = []
        self._tracking = False  # take a checkpoint where each rule's step begins
        # a re-draw due where the next secret batch begins (`_rebuild`)
        self._at_batch: Redraw | tuple[int, random.Random] | None = None
        self._batch_at = 0  # where in `_since` the secret batch under way began
        self._blind = False  # rebuilt blind from a re-drawn checkpoint, until its re-draw (`_rebuild`)
        if on_forced is not None:
            if not callable(on_forced):
                raise arguments.wrong_type("on_forced", on_forced, "a callable taking a Request, or None")
            self.on_forced = on_forced
        if state is None:
            self._flow: Steps[None] | None = self._play()
            self._advance(None)
        else:
            self.phase_name = "position"
            self._flow = None
            for module in modules.stateful:  # a prepared position may lack a module's own data
                if module.key not in state.rules:
                    state.rules[module.key] = module.initial_state(self)
            # a clone stands at the prepared position, with nothing pending
            self._base = Checkpoint(snapshot(state), None, self.phase_name, 0, no_flow)

    @classmethod
    def from_state(cls, variant: Variant, state: GameState, listeners: Iterable[Listener] | None = None) -> Game:
        """A game standing at a prepared position (a position file, a rulebook example).

        No setup runs and nothing is pending until `run_rules` starts some of the variant's
        rule modules on the state. Its answers replay only from the same prepared state.
        """
        if not isinstance(state, GameState):
            raise arguments.wrong_type("state", state, "a GameState (amunre.core.state, e.g. GameState.from_dict)")
        return cls(variant, state.n_players, state.seed, listeners, state=state)

    def rule(self, rule_id: str) -> Rule:
        """The rule module of the pipeline entry with this id, else the first using this rule id."""
        found = self.variant.modules.rule(rule_id)
        if found is None:
            ids = sorted({r.key for r in self.variant.modules.all})
            raise AmunreError(f"{self.variant.id} has no rule {rule_id!r} (it has: {', '.join(ids)})")
        return found

    def run_rules(self, rules: Iterable[str | Rule], one_phase: bool = False) -> None:
        """Run rule modules (instances, or ids looked up with `rule`) once each, in order, on
        the current state instead of the normal flow; answer `pending` until it is None.
        Face-up cards are discarded after each rule, as between phases, or with `one_phase`
        once after all of them (the steps of one grouped phase)."""
        if self.pending is not None:
            raise AmunreError("cannot run rules while a decision is pending")
        picked = [self.rule(r) if isinstance(r, str) else r for r in rules]
        # a clone of this game starts from here: the prepared state, these rules
        self._base = Checkpoint(snapshot(self.state), None, self.phase_name, len(self.answers),
                                 lambda game: game._run_rules(picked, one_phase))
        self._since = []
        self._flow = self._run_rules(picked, one_phase)
        self._advance(None)

    def _run_rules(self, rules: Sequence[Rule], one_phase: bool, start: int = 0) -> Steps[None]:
        for index in range(start, len(rules)):
            rule = rules[index]
            if self._tracking and index != start:  # where a clone can start, as in `_play`
                def resume(game: Game, at: int = index) -> Steps[None]:  # (a lambda's type cannot be told)
                    return game._run_rules(rules, one_phase, at)

                self._base = Checkpoint(snapshot(self.state), None, self.phase_name, len(self.answers), resume)
                self._since = []
            self.phase_name = rule.spec.heading or rule.name
            if "phase" in self.hearing:
                self.emit("phase", rule=rule.spec.id, name=rule.name)
            yield from rule.run(self)
            if not one_phase:
                end_phase_cards(self.state)
        if one_phase:
            end_phase_cards(self.state)

    def view(self, player: int) -> PlayerView:
        """What `player` may know of this game (`amunre.core.view.PlayerView`): what agents get."""
        if type(player) is not int or not 0 <= player < self.n_players:  # (the quick test first: agents ask often)
            player = self.check_player(player)
        view = self._views[player]
        if view is None:
            view = self._views[player] = PlayerView(self, player)
        return view

    def check_player(self, player: object) -> int:
        """`player` as an int, a seat of this game (an ArgumentTypeError or ArgumentValueError)."""
        return arguments.whole_number("player", player, expected=f"a seat number from 0 to {self.n_players - 1} "
                                      f"(a game of {self.n_players})", low=0, high=self.n_players - 1)

    # -- events -------------------------------------------------------------------------
    def listen(self, listener: Listener) -> None:
        """Add a listener: a callable taking each event (a dict). One with a `listens_to`
        attribute (a set of event names) hears only those: rules skip building the others,
        which keeps a statistics listener nearly free (`amunre.compare.collect`). One with
        an `options_offered` dict has the engine count in it, per decision kind, the times
        asked, the options offered in all and the times forced (`[asked, options, forced]`);
        one with an `answers_summed` dict ({kind: 0, ...}) has it sum the answers to those
        kinds (numbers), forced ones included."""
        if not callable(listener):
            raise arguments.wrong_type("listener", listener, "a callable (it gets each event, a dict)")
        wanted = getattr(listener, "listens_to", None)
        if wanted is not None and (isinstance(wanted, (str, bytes)) or not hasattr(wanted, "__iter__")):
            raise arguments.wrong_type("listener.listens_to", wanted, "a set of event names")
        offered = getattr(listener, "options_offered", None)
        if offered is not None and not isinstance(offered, dict):
            raise arguments.wrong_type("listener.options_offered", offered,
                                       "a dict (the engine counts each decision kind's asks and options in it)")
        summed = getattr(listener, "answers_summed", None)
        if summed is not None and not isinstance(summed, dict):
            raise arguments.wrong_type("listener.answers_summed", summed,
                                       "a dict of decision kinds (the engine sums the answers to each in it)")
        self.listeners.append(listener)
        self.listening = True
        if offered is not None:
            self._offered = offered
        if summed is not None:
            self._summed = summed
        if wanted is None:
            self._catch_all.append(listener)
            for targets in self._routes.values():
                targets.append(listener)
            self.hearing = EVERYTHING
        else:
            for name in wanted:
                self._routes.setdefault(name, list(self._catch_all)).append(listener)
            if self.hearing is not EVERYTHING:
                self.hearing = frozenset(cast("frozenset[str]", self.hearing) | set(wanted))

    def emit(self, _event: str, **data: Any) -> None:
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

    def answer(self, choice: object) -> None:
        request = self.pending
        if request is None:
            raise IllegalAnswerError("the game is over: no decision is pending")
        try:
            if isinstance(choice, list):
                choice = from_json_value(choice)
            legal = is_option(choice, request.options)
            if not legal:  # (an integer of numpy's, equal to an int option, is that option)
                whole = integer_option(choice, request.options)
                if whole is not None:
                    choice, legal = whole, True
            shown_choice = None if legal else arguments.shown(to_json_value(choice))
        except RecursionError:  # a list or tuple nested deeper than any option
            raise IllegalAnswerError(f"illegal answer to {request.kind!r} for player {request.player}: a value "
                                     "nested too deep (expected one of the request's options)") from None
        if not legal:
            shown = ", ".join(repr(to_json_value(o)) for o in request.options[:12])
            more = f", ... ({len(request.options)} in all)" if len(request.options) > 12 else ""
            raise IllegalAnswerError(
                f"illegal answer {shown_choice} to {request.kind!r} for player {request.player}: "
                f"expected one of {shown}{more}"
            )
        self._since.append(choice)
        if self._summed is not None and request.kind in self._summed:  # (a listener sums these answers)
            self._summed[request.kind] += choice  # type: ignore[operator]
        # as `_give` and `_record` do (spelled out here: this is every decision's path)
        if request.simultaneous:
            self._sealed.append((request, choice))
        else:
            self.answers.append(choice)
            if "answer" in self.hearing:
                self.emit("answer", player=request.player, kind=request.kind,
                          options=len(request.options), answer=to_json_value(choice))
        self._advance(choice)

    def _give(self, request: Request, choice: object) -> None:
        """Apply a legal answer: keep it (sealed when simultaneous) and run to the next decision."""
        if request.simultaneous:
            # kept out of `answers` and the events until the rule reveals the batch, so no
            # later player of the batch can see it
            self._sealed.append((request, choice))
        else:
            self._record(request, choice)
        self._advance(choice)

    def _record(self, request: Request, choice: object) -> None:
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

    def answers_so_far(self) -> list[object]:
        """Every answer given, including secret ones not yet revealed: for harnesses that
        replay a game mid-batch (an agent must read only `answers`)."""
        return self.answers + [choice for _, choice in self._sealed]

    def _advance(self, value: object) -> None:
        try:
            # (a game has a flow before it is first advanced: a prepared position's is None until
            # `run_rules` sets one)
            flow = self._flow
            pending = flow.send(value)  # type: ignore[union-attr]
            while True:
                if pending is BATCH_START:  # a secret batch begins (`ask_secretly`)
                    self._batch_at = len(self._since)
                    if self._at_batch is not None:
                        self._redraw_at_batch()
                    pending = flow.send(None)  # type: ignore[union-attr]
                elif len(pending.options) == 1 and not self._blind:  # type: ignore[union-attr]
                    pending = flow.send(self._forced(pending))  # type: ignore[union-attr, arg-type]
                else:
                    break
            if not pending.options and not self._blind:  # type: ignore[union-attr]
                raise RuntimeError(f"no legal option for {pending.kind!r} (player {pending.player}): engine bug")  # type: ignore[union-attr]
            self.pending = pending  # type: ignore[assignment]  # (not BATCH_START: the loop is past it)
        except StopIteration:
            self.pending = None
        if self._sealed and (self.pending is None or not self.pending.simultaneous):
            self.reveal()  # a rule that forgot to reveal: never lose an answer
        pending = self.pending
        if pending is not None:
            if self._offered is not None:  # (a listener counts the options of each kind asked)
                tally = self._offered.get(pending.kind)
                if tally is None:
                    self._offered[pending.kind] = [1, len(pending.options), 0]
                else:
                    tally[0] += 1
                    tally[1] += len(pending.options)
            if "decision" in self.hearing:
                self.emit("decision", player=pending.player, kind=pending.kind, options=len(pending.options))

    def _forced(self, request: Request) -> object:
        """The answer to a decision with one option, given by the engine: counted, told to
        `on_forced`, and recorded among the inputs when the game keeps checkpoints (a
        determinized game gives it again, blind)."""
        self.forced += 1
        if self._offered is not None:
            tally = self._offered.get(request.kind)
            if tally is None:
                self._offered[request.kind] = [0, 0, 1]
            else:
                tally[2] += 1
        if self.on_forced is not None:
            self.on_forced(request)
        choice = request.options[0]
        if self._summed is not None and request.kind in self._summed:
            self._summed[request.kind] += choice
        if self._tracking:
            self._since.append(Forced(choice))
        return choice

    def _play(self, start: int = 0) -> Steps[None]:
        """The game from step `start` of the variant's plan (`flow_plan`) to its end."""
        plan = flow_plan(self.variant)
        for index in range(start, len(plan)):
            step, arg = plan[index]
            if step is None:  # a rule module's step: where a clone can start
                # (not again where this flow resumes a checkpoint: it holds that one already)
                if self._tracking and index != start:
                    self._base = Checkpoint(snapshot(self.state), index, self.phase_name, len(self.answers))
                    self._since = []
                yield from arg.run(self)
            else:
                step(self, arg)




class _Everything:
    """`game.hearing` when a listener hears every event: contains every name."""

    def __contains__(self, name: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "EVERYTHING"


EVERYTHING = _Everything()


def play_game(variant: Variant, agents: Sequence[Agent], seed: int,
              listeners: Iterable[Listener] | None = None) -> Game:
    """Play a whole game, each player answered by its agent from his own view; returns the
    finished Game."""
    variant = check_variant(variant)
    agents = check_agents(variant, agents)
    game = Game(variant, len(agents), seed, listeners)
    play_on(game, agents)
    return game


def play_on(game: Game, agents: Sequence[Agent]) -> None:
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


