"""The rule module contract: its core, which every module has; the facets live beside it.

A rule module is one file under `amunre/rules/` (or in a plug-in package) holding one
`Rule` subclass. The core reads these declarations and never names a particular rule. What
every module declares (the core):

- `id`, `kind` ("phase", "scoring" or "final_scoring"), `summary`, `spec_ids` (the SPEC
  rule and ruling ids it implements, e.g. ("R-AUC-01", "A-SELL"));
- `params = takes(Params)`: a frozen attrs class of the parameters a pipeline entry may set
  (read as `Rule.Params`; `self.params` is the entry's, typed by it);
- `rulings = answers(Rulings)`: a frozen attrs class of the open rules questions it answers,
  each field with `metadata={"doc": ..., "spec": "A-..."}` and the module's default; a
  variant's `[rulings]` table is composed from the `Rulings` of the modules in its pipeline;
- `cards`: the card kinds it plays (kind -> what the card does); a variant's deck may only
  hold cards some registered module declares;
- `held_cards`: the cards it deals besides the deck's, which are held and never drawn (kind
  -> what the card does: the offering's theft card), so that every card a player can hold
  has its help text; a card text writes each parameter it names (`protection_skip`) as the
  variant's value, and each ruling it names as that ruling's answer in `ruling_words`;
- `ruling_words`: for a ruling its card texts name, the words of each answer (ruling ->
  {answer: words}), so that a player reads what the variant decided, never a ruling id;
- `decisions`: the decision kinds it asks (`Decision`: what the options are, their JSON
  form, how one option reads; its other fields are facets: words, encoding, valuation);
- `events`: the events it emits (`Event`: what it reports, how it is narrated, the
  `Statistic`s `amunre compare` reports from it, the invariant it checks);
- `initial_state(game)`: its own per-game data in `game.state.rules[self.key]` (plain JSON);
- `start_kingdom(game)` and `run(game)`: the rule itself;
- `score_items()`: the scoring item keys it scores and their labels, in table order;
- `max_offering_level()`: the highest offering level it can set, if it sets one;
- `player_counts(counts)`: the player counts it allows among the edition's (all of them,
  unless overridden);
- `provides` / `requires` / `once`: its place in the round's pipeline;
- `publishes` / `reads_published`: the values it keeps in its own data for the others to
  read by name (the offering level, the provinces on auction, the theft cards held), and
  those it reads of another module's, checked when a variant loads; the faces read them
  through the view (`PlayerView.published`), never by a rule id;
- `setup()` and `check(variant)`: what it works out once per variant, and the problems it
  finds with a variant.

What one more part of amunre needs is a facet, a small class the module adds to its bases
(`amunre.core.facets`): `WordsFacet` (terms, reasons, `seat_lines`, `province_facts`),
`HiddenFacet` (`view_state`, `hidden_variants`), `EncodingFacet` (`observation`),
`ValuationFacet` (`points_for`, `income_for`, `reads`, `pays_for_holdings`) and
`PictureFacet` (`table_markers`). A module that declares a facet's hook without the facet is
refused when its class is made, with the base to add. docs/plugins.md teaches the core,
then each facet on its own.

Instances are built once per variant and shared by its games: per-game data lives in the
state, never on `self`. `run(game)` is a generator that asks decisions with
`yield from decide(...)` and changes `game.state`; it carries out the shared moves that may
ask one (`amunre.core.mechanics.pay`, `place_stone`, ...) with `yield from` too. The `run` of a
module outside `amunre.rules` (a plug-in's) is wrapped to check that at the end of each
step: a move called without `yield from` (which would silently do nothing) raises
`RuleModuleError` telling the author to write it. Chance comes from a named stream:
`game.state.random("provinces")` is the generator of the next draw of the province deck; a
plug-in names its own streams with its id in the name (`amunre.core.streams`), so that what it draws
never shifts what the other rules draw.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, overload

import attrs

from amunre.core.errors import AmunreError, RuleModuleError
from amunre.core.facets import FACET_OF

if TYPE_CHECKING:
    from collections.abc import Container, Sequence

    from amunre.core.decisions import Request, Steps
    from amunre.core.facets.valuation import Valuer
    from amunre.core.mechanics import Move
    from amunre.core.model import RuleSpec, Variant
    from amunre.core.state import GameState
    from amunre.core.view import PlayerView
    from amunre.core.words import Words

R = TypeVar("R")
#: A module's parameters or rulings class (`Declared`).
D = TypeVar("D")

#: The package of the built-in rule modules (`Rule.run` checks the others' shared moves).
BUILT_IN = "amunre.rules."

#: What every round's pipeline must provide: each player acquires one province per round.
ROUND_MUST_PROVIDE = ("ownership",)

#: How an observation vector may encode a field of a module's data (`EncodingFacet.observation`) and a
#: key of a request's context (`Decision.context`); see `amunre.rl.observation`.
OBSERVATION_ENCODINGS = ("count", "provinces", "players")
CONTEXT_ENCODINGS = ("count", "province", "seats", "bids")


@attrs.frozen
class NoParams:
    """This rule module takes no parameters."""


@attrs.frozen
class NoRulings:
    """This rule module answers no open rules question."""


def ruling(spec: str, doc: str, default: Any, **kw: Any) -> Any:
    """A field of a `Rulings` class: the SPEC §6 id it answers, its meaning and the module default."""
    return attrs.field(default=default, metadata={"doc": doc, "spec": spec}, **kw)


class GameLike(Protocol):
    """What a rule module's code may use of the game it is given (`run`, `start_kingdom`,
    `initial_state`, the shared moves, a decision's policy): the engine's `Game`, or the table
    `amunre.planning.worth` plays a hypothetical position on."""

    @property
    def variant(self) -> Variant: ...

    @property
    def state(self) -> GameState: ...

    @property
    def hearing(self) -> Container[str]: ...

    def emit(self, _event: str, **data: Any) -> None: ...

    def reveal(self) -> None: ...


@attrs.frozen
class Decision:
    """A decision kind a rule asks: a small core every kind declares, and fields grouped by the
    facet they serve (words for people, encoding for RL, valuation for planners), each optional
    and given by keyword.

    The core: `options`: what the legal options are; `json`: how one is written in logs and answers
    (tuples become arrays); `describe(option, words)`: one option in the variant's words
    (never called for None, which always reads "no");
    `policies`: named ways to answer it without a player (`policy(rule, game, request)`), the
    first being the default, used where a position is scored without players (`amunre score`).

    Words: how it is put to a person at the table (the human seat, `amunre.agents.human`),
    each given an `Asking` (the seat's view, the request, the words, the module):
    `question(asking)`: the question, one line; `facts(asking)`: the lines of what the seat
    needs to know to answer (the bids on each card, what is still owed, ...); `note(option,
    asking)`: a remark on one option ("sell 2 cards"), or None; `none(words)`: how the None
    option reads ("keep the card"), and `none_asked(asking)`, where the words depend on the
    question, how it reads to the seat asked ("sell nothing", then "sell no more" after a
    sale); `group(option, words)`: where a decision has many options, the (heading, short
    label) of one, so that the seat sees them a line per heading ("Abu:  0) 0  1) 1  2) 3
    ..."), each note as a footnote. They read only the view and the request: what the seat
    may know.

    Encoding: `actions(rule, variant)`: every option of this kind the variant can ever ask, as a finite
    list in a stable order, in the engine's own option values (`rule`: the module instance
    declaring it, None for the core's shared moves). Where the options are unbounded (gold
    amounts, quantities) the module caps the list at a documented value, such that every
    request still has at least one option in it (0, or the smallest amount). A variant's
    fixed action space (`amunre.rl.actions`) is these lists, concatenated in pipeline order
    and then the core's; a kind without `actions` cannot be played through it.
    """

    # An option is any of the kind's values (an int, a string, a bool, None, a tuple of them),
    # and `rule` is of the declaring module's own class: both Any in the callables below.

    # -- the core: what every decision kind says -------------------------------------------
    options: str
    json: str
    describe: Callable[[Any, Words], str] = attrs.field(default=lambda option, words: str(option))
    policies: dict[str, Callable[[Any, GameLike, Request], Any]] = attrs.field(factory=dict)

    # -- words, for people at the table (see the class docstring) ----------------------------
    #: What the decision is, in a few words with terms in braces ("buying {stones}"): how
    #: `amunre compare` names its row of options per decision; None: its kind, spaced.
    title: str | None = attrs.field(default=None, kw_only=True)
    #: The words of a row of `amunre compare` that counts how often a game decides it (asked,
    #: or forced where it has one option), terms in braces ("bids ({bid_marker} placed or
    #: moved)"); None: no such row. The engine counts it where it asks: no event is built.
    counted: str | None = attrs.field(default=None, kw_only=True)
    #: The words of a row of `amunre compare` that sums a game's answers to it, where an answer
    #: is a number ("{stones} bought": a purchase's answer is how many); None: no such row.
    #: Summed where the engine is answered (a forced answer too): no event is built.
    summed: str | None = attrs.field(default=None, kw_only=True)
    question: Callable[[Asking], str] | None = attrs.field(default=None, kw_only=True)
    facts: Callable[[Asking], list[str]] | None = attrs.field(default=None, kw_only=True)
    note: Callable[[Any, Asking], str | None] | None = attrs.field(default=None, kw_only=True)
    none: Callable[[Words], str] | None = attrs.field(default=None, kw_only=True)
    none_asked: Callable[[Asking], str] | None = attrs.field(default=None, kw_only=True)
    group: Callable[[Any, Words], tuple[str, str]] | None = attrs.field(default=None, kw_only=True)
    #: `where(option)`: the province an option is played on or about, or None: the board
    #: picture of `amunre serve` lets a person answer by clicking that province. Where it is
    #: not given, an option described as a province (`province_option`) is about that one.
    where: Callable[[Any], int | None] | None = attrs.field(default=None, kw_only=True)

    # -- encoding, for reinforcement learning --------------------------------------------------
    #: `actions(rule, variant)`: see the class docstring.
    actions: Callable[[Any, Variant], list[Any]] | None = attrs.field(default=None, kw_only=True)
    #: The keys of its requests' `context` that an observation vector encodes, each with how:
    #: "count" (one number; a list counts its items), "province" (one-hot over the provinces;
    #: a list marks each), "seats" (a 1 for each player listed, by relative seat) or "bids"
    #: (per province and relative seat, the amount of the [player, province, amount] entries
    #: + 1). Keys only a person reads (the human seat's texts) need not be listed.
    context: dict[str, str] = attrs.field(factory=dict, kw_only=True)

    # -- valuation, for planners ---------------------------------------------------------------
    #: `appraise(option, asking, worth)`: what the option is worth to the seat asked, in
    #: points, from `worth` (a `amunre.core.facets.valuation.Valuer`, the valuation facet: what
    #: changes of its holding are worth by the variant's own scoring, final scoring and income;
    #: the planner's `amunre.planning.worth.Worth` is one) and the module's own prices and
    #: effects. The `planner` agent answers with the best option; without it, the planner
    #: looks one step ahead in a game drawn from the seat's view (slower).
    appraise: Callable[[Any, Asking, Valuer], float] | None = attrs.field(default=None, kw_only=True)
    #: `appraise_all(options, asking, worth)`: the same for all of a request's options at
    #: once, a list in their order, where working each out alone would repeat work (the
    #: auction's many bids on a few provinces); declare one of the two (`appraisals` asks
    #: `appraise_all` first).
    appraise_all: Callable[[Sequence[Any], Asking, Valuer], list[float]] | None = attrs.field(default=None,
                                                                                              kw_only=True)

    @property
    def appraises(self) -> bool:
        """Whether it declares what its options are worth (`appraise` or `appraise_all`)."""
        return self.appraise is not None or self.appraise_all is not None

    def appraisals(self, options: Sequence[Any], asking: Asking, worth: Valuer) -> list[float] | None:
        """What each option is worth (`appraise_all` if declared, else `appraise` for each),
        or None for a decision that declares neither."""
        if self.appraise_all is not None:
            return self.appraise_all(options, asking, worth)
        if self.appraise is not None:
            appraise = self.appraise
            return [appraise(option, asking, worth) for option in options]
        return None

    def province_of(self, option: Any) -> int | None:
        """The province `option` is about, as `where` says (see there), or None."""
        if option is None:
            return None
        if self.where is not None:
            return self.where(option)
        return option if self.describe is province_option and type(option) is int else None


@attrs.frozen
class Asking:
    """What a decision's `question`, `facts` and `note` read: the seat's `view` (never the
    game), the pending `request`, the variant's `words` (players named) and the `rule` module
    asking (None for the core's shared moves)."""

    view: PlayerView
    request: Request
    words: Words
    rule: Any = None  # of the asking module's own class, or None

    @property
    def context(self) -> Mapping[str, Any]:
        return self.request.context

    @property
    def gold(self) -> int:
        """The seat's gold."""
        return self.view.me.gold

    def cards_to_sell(self, amount: int) -> int:
        """How many cards the seat must sell (1 gold each) to pay `amount`."""
        return max(0, amount - self.view.me.gold)

    def held(self, card: int) -> str | None:
        """The note on an option that is a card of the hand: how many the seat holds, if several."""
        count = self.view.hand[card]
        return f"you hold {count}" if count > 1 else None

    def must_sell(self, amount: int) -> str | None:
        """The note on an option costing `amount` when the seat's gold does not cover it."""
        short = self.cards_to_sell(amount)
        if not short:
            return None
        w = self.words
        return f"more than your {w.t('gold')}: you must sell {w.plural(short, w.t('favor'), w.t('favor_plural'))}"


def province_option(option: int, words: Words) -> str:
    """`Decision.describe` for an option that is a province id: its name."""
    return words.province(option)


def the_province(option: object) -> int | None:
    """`Decision.where` of a kind whose options are province ids (or None)."""
    return option if type(option) is int else None


def province_actions(rule: Rule | None, variant: Variant) -> list[int]:
    """`Decision.actions` of a kind whose options are provinces: every province id."""
    return list(range(len(variant.board)))


def none_or_province_actions(rule: Rule | None, variant: Variant) -> list[int | None]:
    """`Decision.actions` of a kind answered with None or a province id."""
    return [None] + list(range(len(variant.board)))


def card_actions(rule: Rule | None, variant: Variant) -> list[int]:
    """`Decision.actions` of a kind whose options are card ids: every card of the variant."""
    return list(range(len(variant.cards)))


def count_actions(most: int) -> list[int]:
    """`Decision.actions` of a quantity from 0 to `most`."""
    return list(range(most + 1))


@attrs.frozen
class CheckProblem:
    """A problem `Rule.check` finds that comes from several keys of the variant file, some
    outside the module's own entry (e.g. `edition.players`): it is reported at the one of
    those `keys` (dotted paths; `params.x` is the module's own parameter x) written closest
    to the user (a `--set`, then the file being loaded, then a parent)."""

    message: str
    keys: tuple[str, ...] = ()


@attrs.frozen
class Statistic:
    """A number `amunre compare` reports per game from an event (`Event.statistics`).

    `key`: the row's id, `{field}` filled from the event (`points.{item}`: one row per
    scoring item); `label`: the row in words, the same fields filled, `{item}` by the scoring
    item's label and any other name by the variant's term; or, for words a template cannot
    say (a card's noun, a province's name), `label(fields, words)`: the row's words from the
    key's fields and the variant's `Words`; `value(event)`: what one event adds (None: nothing,
    the event does not count for the row); `per_game`: how a game's events make
    its number: "sum", "per_player" (the sum over the players, divided by their number),
    "mean" (a game without the event has none), or "share" (the share of the statistic's
    events that had this key, e.g. of the rounds that reached each offering level)."""

    key: str
    label: str | Callable[[dict[str, Any], Words], str]
    value: Callable[[dict[str, Any]], float | None] = attrs.field(default=lambda event: 1)
    per_game: str = attrs.field(default="sum", validator=attrs.validators.in_(("sum", "per_player", "mean", "share")))
    #: `always(rule)`: the fields of the rows every game has, from the module instance (every
    #: offering level it can reach): a game without their event counts 0 for them
    always: Callable[[Any], list[dict[str, Any]]] | None = None


@attrs.frozen
class Event:
    """An event a rule emits: what it reports, `narrate(event, words)` -> a line or None, and
    the `statistics` compare draws from it."""

    doc: str
    narrate: Callable[[dict[str, Any], Words], str | None] = attrs.field(default=lambda event, words: None)
    statistics: tuple[Statistic, ...] = ()
    #: `check(event, state)`: what is wrong with the game's state right after this event, or
    #: None; the conformance suite (`amunre.testing`) calls it at every such event and reports
    #: a failure as the invariant named after the event.
    check: Callable[[dict[str, Any], GameState], str | None] | None = None


@attrs.frozen
class ScoringItem:
    """A key a rule scores points under (in `add_points`), and its label in the final table."""

    key: str
    label: str


class Declared(Generic[D]):
    """What a module declares once of its parameters (`params = takes(Params)`) or rulings
    (`rulings = answers(Rulings)`): the attrs class the loader reads a variant's table into,
    and the type of `self.params` / `self.rulings` for the type checker. The class keeps only
    the attrs class (`Rule.Params`, `Rule.Rulings`): the declaration itself is taken off when
    the class is made, so that an instance's own value reads as a plain attribute."""

    __slots__ = ("kind",)

    def __init__(self, kind: type[D]):
        self.kind = kind

    @overload
    def __get__(self, instance: None, owner: type) -> Declared[D]: ...

    @overload
    def __get__(self, instance: object, owner: type) -> D: ...

    def __get__(self, instance: object, owner: type) -> D | Declared[D]:
        if instance is None:
            return self
        raise AttributeError(f"{type(instance).__name__} is not built for a variant yet")  # (__init__ sets it)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.kind.__qualname__})"


def takes(params: type[D]) -> Declared[D]:
    """`params = takes(Params)` in a module's class body: the parameters it takes, a frozen
    attrs class whose fields a pipeline entry's `params` table sets (`Rule.Params`)."""
    return Declared(params)


def answers(rulings: type[D]) -> Declared[D]:
    """`rulings = answers(Rulings)` in a module's class body: the open rules questions it
    answers, a frozen attrs class of `ruling(...)` fields (`Rule.Rulings`)."""
    return Declared(rulings)


#: What of the board a module may keep for the next kingdom (`Rule.keeps_between_kingdoms`):
#: each province's farmers (those on its fields and the free ones), each province's owner.
KEEPABLE = ("farmers", "owners")


class Rule:
    """A pluggable rule module; see the module docstring for every declaration."""

    id: str = ""
    kind: str = "phase"
    summary: str = ""
    spec_ids: tuple[str, ...] = ()
    #: The attrs classes of its parameters and rulings (from `params = takes(...)` and
    #: `rulings = answers(...)`; a module may also set these two directly).
    Params: type = NoParams
    Rulings: type = NoRulings
    cards: dict[str, str] = {}
    held_cards: dict[str, str] = {}
    ruling_words: dict[str, dict[Any, str]] = {}
    decisions: dict[str, Decision] = {}
    events: dict[str, Event] = {}
    # Pipeline contract, checked when a variant loads: what a phase makes available to the
    # phases after it in the round (one phase per round provides each thing), what it needs
    # from the phases before it, and whether it may appear only once per round.
    provides: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    once: bool = False
    #: The values it publishes, name -> what it is: each one lives in its own data
    #: (`initial_state`) under that name, only it writes it, and every seat may see it. The
    #: other modules read it by name (`reads_published`, `published`), the faces through the
    #: view (`PlayerView.published`): a module that replaces this one publishes the same
    #: names, and a face shows a value only where some module publishes it. One rule module
    #: of a variant publishes each name (checked when a variant loads).
    publishes: dict[str, str] = {}
    #: The values of other modules it reads (`published(state, name)`): a tuple of names it
    #: cannot go without (a variant whose pipelines hold no module publishing one is refused
    #: when it loads, naming it), or a mapping of each name to what it reads where no module
    #: publishes it (the offering level 0, as if no offering were made: a house rule without
    #: the offering still plays).
    reads_published: tuple[str, ...] | Mapping[str, Any] = ()
    #: What of the board it keeps for the next kingdom, where the rulebook's transition
    #: (R-GAME-05, the core's) clears it: any of `KEEPABLE`. A house rule says so here; the
    #: transition asks every module of the variant (`Modules.kept_between_kingdoms`).
    keeps_between_kingdoms: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _refuse_hooks_without_facet(cls)
        _refuse_misdeclared(cls)
        # the declaration gives the class its Params / Rulings and goes: an instance's own value
        # read past a descriptor of the class's costs about twice a plain attribute's (Python
        # does not specialise that read), and the rules read their params on the hot path
        params, rulings = vars(cls).get("params"), vars(cls).get("rulings")
        if isinstance(params, Declared):
            cls.Params = params.kind
            delattr(cls, "params")
        if isinstance(rulings, Declared):
            cls.Rulings = rulings.kind
            delattr(cls, "rulings")
        # the built-in modules are held to it by a test that reads their code
        # (tests/test_architecture.py), which keeps the check off the hot path of every game.
        # A plug-in's run is checked wherever it comes from: its own, a mixin's, or a built-in
        # module's it inherits (which calls the plug-in's overrides: a market's `turn`)
        if not cls.__module__.startswith(BUILT_IN):
            if not getattr(cls.run, "checks_moves", False):
                setattr(cls, "run", _checking_moves(cls.run))
            if not getattr(cls.start_kingdom, "checks_moves", False):
                setattr(cls, "start_kingdom", _no_moves(cls.start_kingdom))

    def __init__(self, spec: RuleSpec, variant: Variant, rulings: Any = None):
        self.spec = spec
        # where its own state lives: its entry id, unique across the variant's pipelines
        self.key = spec.id if self.kind == "phase" else f"{self.kind}:{spec.id}"
        # the scoring item its points go to: its entry id, so two entries of one rule score apart
        self.item_key = spec.id
        self.name = spec.name
        # this entry's parameters and the variant's rulings: the type checker reads their types
        # from the module's own `takes(...)` / `answers(...)`. Set by name, not through
        # `vars(self)`: asking for an instance's dict makes Python 3.11 keep its attributes in a
        # dict from then on, and every read of them (the rules' hot path) costs about twice
        setattr(self, "params", spec.params)
        self.variant = variant
        setattr(self, "rulings", rulings if rulings is not None else self.Rulings())
        # where each published value it reads lives: name -> the key of its publisher's data
        # (filled by `amunre.core.modules.Modules` once every module of the variant is built)
        self.published_at: dict[str, str] = {}
        self.setup()

    def published(self, state: GameState, name: str) -> Any:
        """The value another module publishes under `name` (one of its `reads_published`) on
        `state`: the live value, to read and never to change."""
        key = self.published_at.get(name)
        if key is not None:
            return state.rules[key][name]
        reads = self.reads_published
        if isinstance(reads, Mapping) and name in reads:  # nobody publishes it: what it reads in its place
            return reads[name]
        raise RuleModuleError(f"rule module {self.id!r} (entry {self.spec.id!r}) reads the published value {name!r} "
                              "without declaring it: name it in its reads_published (a tuple of the names it cannot "
                              "go without, or a mapping of each name to what it reads where nobody publishes it)")

    def setup(self) -> None:
        """Prepare what the module reads on the hot path (card ids, lookups), once per variant."""

    def check(self, variant: Variant) -> Sequence[str | CheckProblem]:
        """Semantic problems this module finds with the variant: messages (reported at its
        pipeline entry, or at the parameter a message starts with) or `CheckProblem`s."""
        return []

    def score_items(self) -> list[ScoringItem]:
        """The scoring items this entry scores, in the order of the final table."""
        return [ScoringItem(self.item_key, self.name)] if self.kind != "phase" else []

    def max_offering_level(self) -> int | None:
        """The highest offering level this module can set (None: it sets none)."""
        return None

    def player_counts(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """The player counts this module allows among the edition's `counts`."""
        return counts

    # -- its own state --------------------------------------------------------------------
    def initial_state(self, game: GameLike) -> dict[str, Any] | None:
        """This module's per-game data (JSON-able), or None when it keeps none."""
        return None

    # -- the game -------------------------------------------------------------------------
    def start_kingdom(self, game: GameLike) -> None:
        """Called before the first round of each kingdom."""

    def run(self, game: GameLike) -> Steps[None]:
        """Play the phase (or score the item). A generator yielding decision requests."""
        return
        yield  # pragma: no cover


def _refuse_hooks_without_facet(cls: type) -> None:
    """Refuse a module that declares a facet's hook (`points_for`, `view_state`, ...) without
    that facet among its bases: the faces ask a module for a facet's hooks only where it has
    the facet, so the hook would be silently unread (a secret shown, a formula never used).
    A module written before the contract had facets meets this when it is loaded."""
    for klass in cls.__mro__:
        if klass is Rule or klass in FACET_OF.values():
            continue
        for name in vars(klass):
            facet = FACET_OF.get(name)
            if facet is not None and not issubclass(cls, facet):
                raise RuleModuleError(
                    f"rule module {cls.__module__}.{cls.__qualname__} declares {name!r}, a hook of the "
                    f"{facet.__name__}, without that facet: add it to the class's bases "
                    f"(`from amunre.core.facets import {facet.__name__}`; "
                    f"`class {cls.__name__}(Rule, {facet.__name__})`), see docs/plugins.md")


def _refuse_misdeclared(cls: type) -> None:
    """Refuse, when a module's class is made, a declaration of the wrong shape that would
    otherwise pass unseen until a game fails: `params = MyParams` (not `takes(MyParams)`),
    `publishes` that is not a mapping of names, `reads_published` that is a single string or
    holds what is not a name."""
    where = f"rule module {cls.__module__}.{cls.__qualname__}"
    for name, maker in (("params", "takes"), ("rulings", "answers")):
        declared = vars(cls).get(name)
        if declared is not None and not isinstance(declared, Declared):
            raise RuleModuleError(f"{where} sets {name} = {declared!r}: write `{name} = {maker}(...)` with its attrs "
                                  f"class (`from amunre.core.contract import {maker}`), see docs/plugins.md")
    publishes = vars(cls).get("publishes", {})
    if not isinstance(publishes, Mapping) or not all(isinstance(key, str) for key in publishes):
        raise RuleModuleError(f"{where} declares publishes as {publishes!r}: expected a mapping of each name it "
                              "publishes to what the value is (`publishes = {\"my_value\": \"what it is\"}`)")
    keeps = vars(cls).get("keeps_between_kingdoms", frozenset())
    if not isinstance(keeps, (frozenset, set, tuple)) or not set(keeps) <= set(KEEPABLE):
        raise RuleModuleError(f"{where} declares keeps_between_kingdoms as {keeps!r}: expected a frozenset of "
                              f"{', '.join(repr(k) for k in KEEPABLE)} (what of the board stays for the next kingdom)")
    reads = vars(cls).get("reads_published", ())
    if isinstance(reads, str) or not isinstance(reads, (tuple, list, Mapping)) \
            or not all(isinstance(key, str) for key in reads):
        raise RuleModuleError(f"{where} declares reads_published as {reads!r}: expected a tuple of the names it "
                              "cannot go without, or a mapping of each name to what it reads where nobody publishes it "
                              "(`reads_published = (\"offering_level\",)` or `{\"offering_level\": 0}`)")


def _plugin_failed(rule: Rule, hook: str, error: Exception) -> RuleModuleError:
    """The error of a plug-in's code that raised: named the plug-in's, with where it raised
    (its innermost line), not reported as a bug of amunre's."""
    import traceback

    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return RuleModuleError(f"rule module {rule.id!r} (entry {rule.spec.id!r}, {type(rule).__module__}) raised "
                           f"{type(error).__name__}: {error} in its {hook}{where}: a bug in the plug-in's code")


def _checking_moves(run: Callable[[Rule, GameLike], Steps[R]]) -> Callable[[Rule, GameLike], Steps[R]]:
    """A `run` that, at the end of the rule's step, refuses a shared move it set up and never
    carried out (`pay(...)` without `yield from`: a generator, or a `Move`, that never ran,
    so nothing was paid). The game keeps the step's open moves in `game._open_moves`
    (`amunre.core.mechanics.Move`); the engine needs no part in it."""

    @functools.wraps(run)
    def step(self: Rule, game: GameLike) -> Steps[R]:
        outer = getattr(game, "_open_moves", None)  # a subclass's run inside its parent's
        # (set by name: no part of GameLike, only a checked step's game has it)
        opened: list[Move[Any]] = []
        setattr(game, "_open_moves", opened)
        try:
            result = yield from run(self, game)
        except AmunreError:
            raise
        except Exception as error:  # any bug of a plug-in's code: said to be its, not amunre's
            raise _plugin_failed(self, "run", error) from error
        setattr(game, "_open_moves", outer)
        if opened:
            move = opened[0]
            name = move.shown().partition("(")[0]
            raise RuleModuleError(
                f"rule module {self.id!r} (entry {self.spec.id!r}) called {move.shown()} without `yield from`, "
                f"so it never happened: write `yield from {name}(...)` (a shared move that may ask a player "
                "a decision is carried out with yield from; see docs/architecture.md, The rule module contract)")
        return result

    setattr(step, "checks_moves", True)
    return step


def _no_moves(start_kingdom: Callable[[Rule, GameLike], None]) -> Callable[[Rule, GameLike], None]:
    """A `start_kingdom` that refuses a shared move (`pay(...)`): it asks no decision, so a
    move there, which may ask one, would silently never happen."""

    @functools.wraps(start_kingdom)
    def start(self: Rule, game: GameLike) -> None:
        outer = getattr(game, "_open_moves", None)
        opened: list[Move[Any]] = []
        setattr(game, "_open_moves", opened)
        try:
            start_kingdom(self, game)
        except AmunreError:
            raise
        except Exception as error:  # any bug of a plug-in's code: said to be its, not amunre's
            raise _plugin_failed(self, "start_kingdom", error) from error
        finally:
            setattr(game, "_open_moves", outer)
        if opened:
            raise RuleModuleError(
                f"rule module {self.id!r} (entry {self.spec.id!r}) called {opened[0].shown()} in start_kingdom, "
                "where no decision can be asked, so it never happened: carry it out in run, with `yield from` "
                "(see docs/architecture.md, The rule module contract)")

    setattr(start, "checks_moves", True)
    return start
