"""The valuation facet of the rule contract: what a decision's appraisal may ask of a seat's
position, and the aspects of a holding a module's points read.

A scoring item or an income phase whose points and gold follow from what the players hold
adds `ValuationFacet` to its bases and says so (`points_for`, `income_for`, `reads`,
`pays_for_holdings`): a planner then values a holding by those formulas instead of playing the
module on a copy of the position. A module that helps planners choose declares, on its decisions, `appraise(option,
asking, worth)` or `appraise_all(options, asking, worth)` (`amunre.core.contract.Decision`):
it turns an option into what it changes of the seat's holding, with its own prices, and asks
a `Valuer` what those changes are worth. The planner's `amunre.planning.worth.Worth` is one:
it values a change by playing the variant's own modules on a copy of the position. A module
that declares no appraisal is valued by that play alone. Nothing here is needed to write a
rule; it is read by those who value one.

A change of a holding is a tuple `(what, where, amount)`:

    ("own", province, 1)         the seat holds the province (for this kingdom)
    ("farmers", province, n)     n more farmers on its fields
    ("stones", province, n)      n more stones (some become pyramids, as
                                 `amunre.core.mechanics.pyramids_from_stones_in` says:
                                 while the supply holds a piece)
    ("pyramids", province, n)    n more single pyramids (a double counts as two where scored)
    ("gold", None, n)            n more gold (negative: paid)
    ("cards", kind, n)           n more cards of that kind in hand
    ("offering_level", None, n)  the offering level set to n

`ValuationFacet.reads` names the aspects of a holding a module's `points_for` / `income_for` read
(`ASPECTS`, or `CARD_KIND` + a card kind's name), so that a valuer works its points out again
only when one of them changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import TypeAlias

    from amunre.core.state import GameState

    #: One change of a holding (see the module docstring).
    Change: TypeAlias = "tuple[str, Any, int]"

#: What a `Valuer.remember`ed function makes.
Made = TypeVar("Made")

#: What of a holding each kind of change touches (`ValuationFacet.reads` names the same aspects): more
#: stones may complete a pyramid.
TOUCHES = {"own": frozenset({"provinces"}), "farmers": frozenset({"farmers"}),
           "stones": frozenset({"stones", "pyramids"}), "pyramids": frozenset({"pyramids"}),
           "gold": frozenset({"gold"}), "cards": frozenset({"cards"}),
           "offering_level": frozenset({"offering_level"})}
#: The name under which a module publishes the offering level (`Rule.publishes`), and the
#: change `("offering_level", None, n)` that sets it: what a valuer reads and changes.
LEVEL = "offering_level"
#: Every aspect a module may say it reads.
ASPECTS = frozenset().union(*TOUCHES.values())
#: A module whose points read only some kinds of card names each as "cards:<kind>" in its
#: `reads` (a bonus card's, say): a change of another kind leaves them as they were.
CARD_KIND = "cards:"


class Valuer(Protocol):
    """What a seat's changes of holding are worth to it now, in points (what an appraisal asks)."""

    #: Points a gold held is worth to the seat: what it may still buy plus what the final items
    #: make of it at the end (`amunre.planning.worth` writes the model out).
    thrift: float

    def points_of(self, changes: tuple[Change, ...]) -> float:
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


class ValuationFacet:
    """What a module's points and income are on a position, for planners: see the module docstring."""

    #: A phase whose outcome follows from what the players hold (the harvest: income for the
    #: provinces, farmers and cards they have): `amunre.planning.worth` plays it on hypothetical
    #: positions, as it plays the scoring items, to value a holding. Its decisions are then
    #: answered by their first declared policy (else their first option).
    pays_for_holdings: bool = False
    #: What of the players' holdings its `points_for` / `income_for` read, among `ASPECTS`
    #: ("provinces", "farmers", "stones", "pyramids", "gold", "cards", "offering_level"), or
    #: `CARD_KIND` + a card kind's name ("cards:architect") for a module that reads only some
    #: kinds of card held; checked when a variant loads. A change of anything else leaves its
    #: points as they were, so `amunre.planning.worth` does not work them out again: they read
    #: those aspects of any player's holding, and of the rest of a position at most what stands
    #: for a round (the board, the kingdom and round, the theft cards held), not the cards in
    #: play or on auction nor a module's data. Only a module's declared `points_for` /
    #: `income_for` are held to it (one played instead may read anything). None (the default):
    #: it may read anything. Tests change each aspect a module does not declare, and the rest,
    #: and check its points stay put.
    reads: frozenset[str] | None = None

    def points_for(self, state: GameState, player: int) -> Mapping[str, float] | None:
        """A scoring item: the points, by scoring item key, it would give `player` were it
        scored on `state` now, its decisions answered by its first policy. None (the default):
        not declared, and `amunre.planning.worth` plays `run` on a copy of the state instead
        (slower; the same answer, which a test checks for every module that declares it)."""
        return None

    def income_for(self, state: GameState, player: int) -> tuple[float, dict[str, float]] | None:
        """A phase that `pays_for_holdings`: (gold, {item: points}) it would give `player`
        were it played on `state` now, its decisions answered by their first policy, else
        their first option. None (the default): `amunre.planning.worth` plays `run` on a copy."""
        return None
