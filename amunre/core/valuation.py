"""The valuation facet of the rule contract: what a decision's appraisal may ask of a seat's
position, and the aspects of a holding a module's points read.

A rule module that helps planners choose declares, on its decisions, `appraise(option,
asking, worth)` or `appraise_all(options, asking, worth)` (`amunre.core.contract.Decision`):
it turns an option into what it changes of the seat's holding, with its own prices, and asks
a `Valuer` what those changes are worth. The planner's `amunre.planning.worth.Worth` is one:
it values a change by playing the variant's own modules on a copy of the position. A module
that declares no appraisal is valued by that play alone. Nothing here is needed to write a
rule; it is read by those who value one.

A change of a holding is a tuple `(what, where, amount)`:

    ("own", province, 1)         the seat holds the province (until the kingdom's scoring)
    ("farmers", province, n)     n more farmers on its fields
    ("stones", province, n)      n more stones (every three, `STONES_PER_PYRAMID`, become a pyramid)
    ("pyramids", province, n)    n more pyramids (a double counting 2)
    ("gold", None, n)            n more gold (negative: paid)
    ("cards", kind, n)           n more cards of that kind in hand
    ("offering_level", None, n)  the offering level set to n

`Rule.reads` names the aspects of a holding a module's `points_for` / `income_for` read
(`ASPECTS`, or `CARD_KIND` + a card kind's name), so that a valuer works its points out again
only when one of them changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeAlias

    #: One change of a holding (see the module docstring).
    Change: TypeAlias = "tuple[str, Any, int]"

#: What a `Valuer.remember`ed function makes.
Made = TypeVar("Made")

#: What of a holding each kind of change touches (`Rule.reads` names the same aspects): more
#: stones may complete a pyramid.
TOUCHES = {"own": frozenset({"provinces"}), "farmers": frozenset({"farmers"}),
           "stones": frozenset({"stones", "pyramids"}), "pyramids": frozenset({"pyramids"}),
           "gold": frozenset({"gold"}), "cards": frozenset({"cards"}),
           "offering_level": frozenset({"offering_level"})}
#: Every aspect a module may say it reads.
ASPECTS = frozenset().union(*TOUCHES.values())
#: A module whose points read only some kinds of card names each as "cards:<kind>" in its
#: `reads` (a bonus card's, say): a change of another kind leaves them as they were.
CARD_KIND = "cards:"


class Valuer(Protocol):
    """What a seat's changes of holding are worth to it now, in points (what an appraisal asks)."""

    #: Points a gold is worth to the seat when nothing scores it (its thrift).
    gold: float

    def gain(self, change: tuple[Change, ...]) -> float:
        """Points the changes, made together, are worth."""
        ...

    def remember(self, key: str | tuple[object, ...], make: Callable[..., Made], *args: object) -> Made:
        """`make(*args)`, worked out once for this position."""
        ...

    def gold_change(self, amount: int) -> float:
        """`amount` more gold (negative: paid)."""
        ...

    def gold_worth(self) -> float:
        """Points one more gold is worth."""
        ...

    def weight(self, item: str) -> float:
        """The weight of a scoring item's points to this seat (1 unless told otherwise)."""
        ...

    def drawn_card(self) -> float:
        """A card drawn blind from the deck."""
        ...

    def best_farmer(self) -> float:
        """One more farmer in the seat's best province for it."""
        ...

    def best_stones(self, count: int = 1) -> float:
        """`count` more stones in the seat's best province for them."""
        ...

    def province(self, pid: int) -> float:
        """Holding province `pid`, with what lies on it."""
        ...

    def farmers(self, pid: int, count: int = 1) -> float:
        """`count` more farmers in province `pid`."""
        ...

    def stones(self, pid: int, count: int = 1) -> float:
        """`count` more stones in province `pid`."""
        ...

    def card(self, kind: int, count: int = 1) -> float:
        """`count` more cards of `kind` in hand."""
        ...

    def level(self, level: int) -> float:
        """This round's offering at `level` rather than where it stands."""
        ...
