"""The typed form of a variant file: what the engine reads, built once by the loader
(`amunre.loader`).

Every field documents itself (`metadata={"doc": ...}`); docs/variant-format.md is
generated from these docs and a test keeps it current.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import attrs

# (a plug-in's Params declare their fields with these: `from amunre.core.model import doc, bounded`)
from amunre.core.fields import bounded, bounded_items, bounded_values, doc

T = TypeVar("T")

if TYPE_CHECKING:
    from amunre.core.board import Board
    from amunre.core.modules import Modules

#: Fewest players a variant may allow (the rulebooks say 3-5; 2 still plays).
MIN_PLAYERS = 2
#: Most players a variant may allow: with the bounds on every count, every game stays bounded.
MAX_PLAYERS = 10


@attrs.frozen
class Edition:
    id: str = doc("Variant id, used on the command line (`--variant ID`).")
    name: str = doc("Human-readable name.")
    players: tuple[int, ...] = doc(f"Allowed player counts (2 to {MAX_PLAYERS} each).", converter=tuple,
                                   validator=bounded_items(MIN_PLAYERS, MAX_PLAYERS, MAX_PLAYERS - 1))
    board: str = doc("Board file, relative to the variant file (in its folder or below), or a shipped board.")
    kingdoms: tuple[str, ...] = doc("Names of the kingdoms (ages), in play order; 1 to 10.", converter=tuple,
                                    validator=attrs.validators.and_(attrs.validators.min_len(1),
                                                                    attrs.validators.max_len(10)))
    rounds_per_kingdom: int = doc("Rounds in each kingdom; each player acquires one province per round.",
                                  validator=bounded(1, 15))
    summary: str = doc("One line describing the variant.", default="")


@attrs.frozen
class Components:
    starting_gold: int = doc("Gold each player starts with.", validator=bounded(0, 1000))
    theft_cards_per_player: int = doc("Theft (-3) cards each player holds; 0 disables stealing.",
                                      validator=bounded(0, 10))
    starting_cards: tuple[str, ...] = doc("Card kinds dealt to each player from the deck at setup (at most 20).",
                                          converter=tuple, validator=attrs.validators.max_len(20))
    farmers: int = doc("Farmers in the supply (A-SUPPLY).", validator=bounded(0, 1000))
    stones: int = doc("Stones in the supply (A-SUPPLY).", validator=bounded(0, 1000))
    pyramids: int = doc("Single pyramids in the supply (A-SUPPLY).", validator=bounded(0, 1000))
    double_pyramids: int = doc("Double pyramids in the supply (A-SUPPLY).", validator=bounded(0, 1000))
    deck: dict[str, int] = doc("Cards in the favor/power deck by kind (engine ids), each 0 to 100.",
                               validator=bounded_values(0, 100))

    @property
    def deck_size(self) -> int:
        return sum(self.deck.values())


class Rulings:
    """A variant's rulings (SPEC §6), composed from the `Rulings` classes of the modules it
    uses (and the core's). `rulings.key` reads one value; `of(cls)` the typed object of one
    module; `as_dict()` every key and value; `evolve(key=value)` a copy with some changed."""

    __slots__ = ("_by_class", "_owner")

    def __init__(self, by_class: dict[type, Any]):
        self._by_class = dict(by_class)
        self._owner = {f.name: cls for cls in self._by_class for f in attrs.fields(cls)}

    def of(self, cls: type[T]) -> T:
        return self._by_class.get(cls) or cls()

    def __getattr__(self, key: str) -> Any:
        try:
            return getattr(self._by_class[self._owner[key]], key)
        except KeyError:
            raise AttributeError(f"no ruling {key!r} in this variant (it has: "
                                 f"{', '.join(sorted(self._owner))})") from None

    def as_dict(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self._owner}

    def evolve(self, **changes: Any) -> Rulings:
        by_class = dict(self._by_class)
        for key, value in changes.items():
            if key not in self._owner:
                getattr(self, key)  # the AttributeError naming what exists
            cls = self._owner[key]
            by_class[cls] = attrs.evolve(by_class[cls], **{key: value})
        return Rulings(by_class)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rulings) and self._by_class == other._by_class

    def __repr__(self) -> str:
        return f"Rulings({self.as_dict()!r})"


@attrs.frozen
class RuleSpec:
    """One entry of a pipeline: a rule module, its display name and its typed params."""

    rule: str = doc("Rule-module id (see docs/rule-modules.md).")
    name: str = doc("Name shown in the play-by-play, in the edition's words.")
    params: Any = doc("The rule module's own typed params object.")
    id: str = doc("The entry's id, unique in the variant: `extends` files replace, remove or insert "
                  "entries by it (default: the rule id).", default="")
    group: str | None = doc("The id of the group this entry is a step of, if any.", default=None)
    heading: str | None = doc("The name of that group: the phase heading its steps run under.", default=None)
    kingdoms: tuple[int, ...] | None = doc(
        "A `[[scoring]]` entry only: the kingdoms at whose end it scores, by the edition's kingdom names "
        "(`kingdoms = [\"New Kingdom\"]`); held as 0-based kingdom indexes in play order. Left out: it "
        "scores at the end of every kingdom.", default=None)

    def __attrs_post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", self.rule)


@attrs.frozen
class Variant:
    """A fully resolved variant: `extends` applied, validated, typed."""

    edition: Edition
    components: Components
    terms: dict[str, str]
    phases: tuple[RuleSpec, ...]  # the round's steps in order (a group's steps flattened)
    scoring: tuple[RuleSpec, ...]
    final_scoring: tuple[RuleSpec, ...]
    rulings: Rulings
    board: Board
    cards: tuple[str, ...] = ()  # card kinds; a card's id is its index (the deck's order, then the rest)
    source: str = ""  # path of the file it was loaded from
    resolved: dict[str, Any] = attrs.field(factory=dict, eq=False, repr=False)  # merged raw TOML, for diff/headers
    #: what loading found questionable but not wrong (`amunre.core.errors.Problem`s): a
    #: parameter set under rulings where its module does not read it (`amunre.loader.unread`)
    warnings: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)
    _modules: Modules | None = attrs.field(init=False, default=None, eq=False, repr=False)

    @property
    def id(self) -> str:
        return self.edition.id

    @property
    def modules(self) -> Modules:
        """The rule modules of its pipelines, built once (`amunre.core.modules.Modules`)."""
        modules = self._modules
        if modules is None:
            from amunre.core.modules import Modules

            modules = Modules(self)  # sets itself here as soon as its terms are known (labels use them)
        return modules

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts it is played by: the edition's, as its rule modules allow."""
        return self.modules.players

    def card_id(self, kind: str) -> int:
        """The integer id of a card kind in this variant."""
        return self.cards.index(kind)

    def term(self, key: str) -> str:
        """The edition's word for an engine concept: the variant's `[terms]`, else the default
        word of the module that uses it, else the engine id with spaces."""
        word = self.terms.get(key)
        if word is None:
            word = self.modules.terms.get(key) or key.replace("_", " ")
        return word
