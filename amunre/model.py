"""The typed form of a variant file: what the engine reads, built once by `variants.py`.

Every field documents itself (`metadata={"doc": ...}`); docs/variant-format.md is
generated from these docs and a test keeps it current.
"""

from __future__ import annotations

from typing import Any

import attrs

#: Engine ids of the 12 kinds of favor/power card, in a fixed order (their integer ids).
CARD_KINDS = (
    "protection",
    "bribery",
    "free_farmer",
    "architect",
    "offering_adjustment",
    "treasury",
    "big_harvest",
    "master_of_scribes",
    "master_of_farmers",
    "upper_lower",
    "west_east",
    "nile_frontier",
)
CARD_ID = {name: i for i, name in enumerate(CARD_KINDS)}
#: The bonus cards played at a kingdom's scoring.
BONUS_CARDS = ("master_of_scribes", "master_of_farmers", "upper_lower", "west_east", "nile_frontier")


def doc(text: str, **kw) -> Any:
    """An attrs field carrying its own documentation."""
    return attrs.field(metadata={"doc": text}, **kw)


@attrs.frozen
class Edition:
    id: str = doc("Variant id, used on the command line (`--variant ID`).")
    name: str = doc("Human-readable name.")
    players: tuple[int, ...] = doc("Allowed player counts.", converter=tuple)
    board: str = doc("Board file, relative to the variant file.")
    kingdoms: tuple[str, ...] = doc("Names of the kingdoms (ages), in play order.", converter=tuple)
    rounds_per_kingdom: int = doc("Rounds in each kingdom; each player acquires one province per round.")
    summary: str = doc("One line describing the variant.", default="")


@attrs.frozen
class Components:
    starting_gold: int = doc("Gold each player starts with.")
    theft_cards_per_player: int = doc("Theft (-3) cards each player holds; 0 disables stealing.")
    starting_cards: tuple[str, ...] = doc("Card kinds dealt to each player from the deck at setup.", converter=tuple)
    farmers: int = doc("Farmers in the supply (A-SUPPLY).")
    stones: int = doc("Stones in the supply (A-SUPPLY).")
    pyramids: int = doc("Single pyramids in the supply (A-SUPPLY).")
    double_pyramids: int = doc("Double pyramids in the supply (A-SUPPLY).")
    deck: dict[str, int] = doc("Cards in the favor/power deck by kind (engine ids).")

    @property
    def deck_size(self) -> int:
        return sum(self.deck.values())


@attrs.frozen
class Rulings:
    """The rulings of SPEC §6: where the rulebooks are silent or disagree."""

    sell_cards_to_bid: bool = doc("A-SELL: cards may be sold for 1 gold each mid-auction to afford a bid.")
    free_stones_build: bool = doc(
        "A-FREESTONES: free stones that bring a province to 3 stones (with stones left from the "
        "Old Kingdom) become a pyramid when the province is acquired."
    )
    adjustment_must_move: bool = doc(
        "A-ADJUST: an offering adjustment must raise or lower the total by its amount (false: it may also leave it)."
    )
    nile_compare: str = doc(
        "A-NILE: `province` compares single provinces per side (the rulebooks); `side_total` compares "
        "each player's total pyramids on a side (the 2016 overview's wording).",
        validator=attrs.validators.in_(("province", "side_total")),
    )
    nile_min_pyramids: int = doc("A-NILE: pyramids the side winner needs at least.")
    finite_supply: bool = doc("A-SUPPLY: farmers, stones and pyramids are limited to the component counts.")
    theft_counts_in_gold: bool = doc("A-THEFTGOLD: a held theft (-3) card counts as -3 in the final gold ranking.")
    cards_in_offering: bool = doc("A-OFFERCARDS: cards may be offered as 1 gold each (a house rule from online play).")
    bribery_scope: str = doc(
        "A-BRIBERY: `one_rebid` (one card allows one rebid on the same province) or "
        "`whole_phase` (rebids on the same province for the rest of the auction).",
        validator=attrs.validators.in_(("one_rebid", "whole_phase")),
    )
    temples_score_at_harvest: bool = doc(
        "A-TEMPLEHARVEST: temples also score the offering level at every harvest, not only at a kingdom's end."
    )


@attrs.frozen
class RuleSpec:
    """One entry of a pipeline: a rule module, its display name and its typed params."""

    rule: str = doc("Rule-module id (see docs/rule-modules.md).")
    name: str = doc("Name shown in the play-by-play, in the edition's words.")
    params: Any = doc("The rule module's own typed params object.")


@attrs.frozen
class Variant:
    """A fully resolved variant: `extends` applied, validated, typed."""

    edition: Edition
    components: Components
    terms: dict[str, str]
    phases: tuple[RuleSpec, ...]
    scoring: tuple[RuleSpec, ...]
    final_scoring: tuple[RuleSpec, ...]
    rulings: Rulings
    board: Any  # amunre.board.Board
    source: str = ""  # path of the file it was loaded from
    resolved: dict = attrs.field(factory=dict, eq=False, repr=False)  # merged raw TOML, for diff/headers

    @property
    def id(self) -> str:
        return self.edition.id

    def term(self, key: str) -> str:
        """The edition's word for an engine concept (falls back to the engine id)."""
        return self.terms.get(key, key.replace("_", " "))
