"""The board as data: provinces (the loader reads them from a board TOML file), and the lookups rules need.

Province ids are their positions in the board file (0-based integers), which keeps the
hot path on plain ints. Values no source confirms are named in each province's
`provisional` list and must never be presented as facts.
"""

from __future__ import annotations

import attrs

from amunre.core.fields import doc

HALVES = ("lower", "upper")
SIDES = ("west", "east")

#: Allowed range of each numeric province field.
RANGES = {
    "card_limit": (0, 4),
    "fields": (0, 6),
    "free_cards": (0, 4),
    "free_stones": (0, 3),
    "free_gold": (0, 50),
    "mine": (0, 20),
    "caravan": (0, 20),
    "temples": (0, 4),
}
PROVINCE_FIELDS = ("half", "side", "nile") + tuple(RANGES)


@attrs.frozen
class Province:
    name: str = doc("Province name as printed.")
    half: str = doc("`lower` or `upper` Egypt.", validator=attrs.validators.in_(HALVES))
    side: str = doc("`west` or `east` of the Nile.", validator=attrs.validators.in_(SIDES))
    nile: bool = doc("True on the Nile bank, false for the frontier.")
    card_limit: int = doc("Card symbols on the border: cards its owner may buy (0-4).", default=0)
    fields: int = doc("Field spaces for farmers (0-6).", default=0)
    free_cards: int = doc("Cards placed face down when the province is drawn.", default=0)
    free_stones: int = doc("Stones placed when the province is drawn.", default=0)
    free_gold: int = doc("Gold placed when the province is drawn.", default=0)
    mine: int = doc("Gold paid every harvest.", default=0)
    caravan: int = doc("Gold paid at harvest only at offering levels showing a camel.", default=0)
    temples: int = doc("Temples; each scores the offering level.", default=0)
    provisional: tuple[str, ...] = doc(
        "Fields whose values no reachable source confirms.", default=(), converter=tuple
    )
    note: str = doc("Where a value comes from, or what constrains it.", default="")

    @property
    def card_symbols(self) -> int:
        """Card symbols for Master of Scribes: the purchase limit plus immediate free cards."""
        return self.card_limit + self.free_cards


@attrs.frozen
class Board:
    id: str
    name: str
    provinces: tuple[Province, ...]
    source: str = ""

    def __len__(self) -> int:
        return len(self.provinces)

    def index(self, name: str) -> int:
        """Province id for a name (case-insensitive); KeyError listing the names otherwise."""
        wanted = name.strip().lower()
        for i, province in enumerate(self.provinces):
            if province.name.lower() == wanted:
                return i
        names = ", ".join(p.name for p in self.provinces)
        raise KeyError(f"no province named {name!r} (provinces: {names})")

    def provisional_values(self) -> list[tuple[str, str, object]]:
        """(province, field, value) for every provisional value on the board."""
        return [
            (p.name, field, getattr(p, field)) for p in self.provinces for field in p.provisional
        ]
