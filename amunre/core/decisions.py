"""The decision protocol: what the engine asks an agent, and how a rule asks it.

A `Request` names the player, the kind of decision and its legal options (plain JSON-able
values: ints, strings, tuples). Rules ask with `answer = yield from decide(...)`. A decision
with exactly one legal option is not asked: the engine answers it (forced), counts it
(`Game.forced`), tells the game's `on_forced` of it (a person at the table is told of his),
and replay re-derives it.
Simultaneous decisions (the offering, the expert draft) are asked with `ask_secretly`:
player by player, the answers kept aside by the rule until all are in, so no request ever
shows another player's answer.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, SupportsIndex, TypeVar

if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator
    from typing import TypeAlias

    from amunre.core.view import PlayerView

T = TypeVar("T")
R = TypeVar("R")


class Request:
    """One pending decision. `context` carries display facts (never other players' secrets)."""

    __slots__ = ("player", "kind", "options", "context", "simultaneous")

    #: What each attribute holds (docs/agent-view.md is made from these).
    ATTRIBUTES = {
        "player": "The seat asked: 0, 1, ... (the view handed with it is this seat's).",
        "kind": "The decision's kind, `bid`, `offer`, `buy_farmers`, ...: docs/decisions.md lists every kind, "
                "the module that asks it and its options' shape.",
        "options": "The legal answers, a list of the engine's own values (numbers, ids, tuples, None): answer with "
                   "one of them, compared by value and type. At least two: a decision with one option is never "
                   "asked. Read it, never change it (the engine checks the answer against this very list).",
        "context": "Facts about the question for showing or thinking on (the bid to beat, the gold still owed...), "
                   "keyed by name; the keys each kind's module declares (`Decision.context`). Never another "
                   "seat's secret. It may be worked out only when first read.",
        "simultaneous": "True when the answers of a batch are sealed and revealed together (the offering, the "
                        "expert province draft): the other seats' answers of the batch are not known yet.",
    }

    def __init__(self, player: int, kind: str, options: list[Any], context: Mapping[str, Any] | None = None,
                 simultaneous: bool = False):
        self.player = player
        self.kind = kind
        self.options = options
        self.context: Mapping[str, Any] = context if context is not None else {}
        self.simultaneous = simultaneous

    def to_dict(self) -> dict[str, Any]:
        """The request as JSON-able data (tuples as lists, the context worked out)."""
        return {
            "player": self.player,
            "kind": self.kind,
            "options": [to_json_value(o) for o in self.options],
            "context": dict(self.context),
            "simultaneous": self.simultaneous,
        }

    def __repr__(self) -> str:
        return f"Request(player={self.player}, kind={self.kind!r}, options={len(self.options)})"


class Agent(Protocol):
    """Whoever answers a seat's decisions: `choose` gets what its seat may know (its view, never
    the game) and the request, and returns one of the request's options (`amunre.agents` has
    the built-in ones)."""

    def choose(self, view: PlayerView, request: Request) -> Any: ...


class Lazy(Mapping[str, Any]):
    """A request's context that is worked out only when someone reads it: the human seat
    shows it, a bot never looks, and a playout then does not pay for it. `make(*args)` gets
    a snapshot of what it needs, taken when the question is asked."""

    __slots__ = ("_make", "_args", "_data")

    _data: dict[str, Any] | None

    def __init__(self, make: Callable[..., dict[str, Any]], *args: object):
        self._make, self._args, self._data = make, args, None

    def _load(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._make(*self._args)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return repr(self._load())


class _BatchStart:
    """What `ask_secretly` yields where a secret batch begins, before any of its options is
    worked out: the engine goes straight on, unless a determinization re-draws the hidden
    facts there (`Game.determinize`), so that every option of the batch follows from them."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "BATCH_START"


BATCH_START = _BatchStart()

if TYPE_CHECKING:
    #: What a rule's step yields: a decision request, or where a secret batch begins.
    Asked: TypeAlias = "Request | _BatchStart"
    #: A rule's step (its `run`) or a shared move: yields what it asks, is sent the answers
    #: (each one of the options asked), gives R when carried out with `yield from`.
    Steps: TypeAlias = "Generator[Asked, Any, R]"


def ask_secretly(players: Iterable[int], kind: str,
                 options_for: Callable[[int], list[T]]) -> Generator[Asked, T, dict[int, T]]:
    """Ask each of `players` in turn, in secret (`simultaneous`), `options_for(p)` worked out
    only when it is p's turn; returns {player: answer}. The rule reveals them together
    (`game.reveal()`)."""
    yield BATCH_START
    answers: dict[int, T] = {}
    for p in players:
        answers[p] = yield from decide(p, kind, options_for(p), simultaneous=True)
    return answers


def decide(player: int, kind: str, options: list[T], context: Mapping[str, Any] | None = None,
           simultaneous: bool = False) -> Generator[Request, T, T]:
    """Ask `player` to choose among `options`. A request with one option is answered by the
    engine at once, never pending (`Game._advance`: a forced decision), so a rule asks
    whether or not there is a choice."""
    return (yield Request(player, kind, options, context, simultaneous))


def is_option(choice: object, options: list[Any]) -> bool:
    """Whether `choice` is one of `options`: equal, and of the same types all the way down (an
    answer the engine takes; a person's or a bot's answer is checked so before it is kept)."""
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


def integer_option(choice: object, options: list[Any]) -> int | None:
    """The int option that `choice` equals when it is an integer of another type (numpy's
    `int64`, what a policy's `argmax` gives), else None: such an answer counts as that option.
    Never a bool, an int itself or a float (those stay refused as not of the option's type)."""
    if type(choice) is int or type(choice) is bool or not isinstance(choice, SupportsIndex):
        return None
    try:
        whole = operator.index(choice)
    except TypeError:  # numpy's bool has __index__ and refuses
        return None
    return whole if is_option(whole, options) else None


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same types all the way down (`(1, (True,))` is not `(1, (1,))`)."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b  # type: ignore[no-any-return]  # (options: plain values, whose == gives a bool)


#: No option nests deeper than a few levels. A deeper answer is refused before it is walked: the
#: compiled build's recursion is not bounded by Python's limit, so a hostile answer nested a million
#: deep would exhaust the C stack instead of raising RecursionError.
MAX_NESTING = 32


def to_json_value(value: Any, _depth: int = 0) -> Any:
    """Options are tuples in the engine and lists in JSON."""
    if isinstance(value, tuple):
        if _depth >= MAX_NESTING:
            raise RecursionError(f"a value nested more than {MAX_NESTING} deep")
        return [to_json_value(v, _depth + 1) for v in value]
    return value


def from_json_value(value: Any, _depth: int = 0) -> Any:
    """The inverse of `to_json_value`: JSON lists back to tuples."""
    if isinstance(value, list):
        if _depth >= MAX_NESTING:
            raise RecursionError(f"a value nested more than {MAX_NESTING} deep")
        return tuple(from_json_value(v, _depth + 1) for v in value)
    return value
