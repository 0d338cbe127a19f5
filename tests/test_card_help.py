"""Every card a player of any variant file can hold has its help text, from the module that
plays or deals it (`Rule.cards`, `Rule.held_cards`), with the variant's numbers filled in: the
same text the terminal's `c` and a seat's page of `amunre serve` show."""

from __future__ import annotations

import attrs
import pytest
from conftest import variant_files

from amunre.loader import load_variant
from amunre.planning.seatfacts import card_text

VARIANTS = variant_files()


def held_kinds(variant) -> list[str]:
    """Every card kind a player of `variant` may hold: the deck's, and the theft card where
    players are dealt one."""
    return list(variant.cards) + (["theft"] if variant.components.theft_cards_per_player else [])


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
def test_every_card_of_every_variant_says_what_it_does(path):
    variant = load_variant(path)
    for kind in held_kinds(variant):
        text = card_text(variant, kind)
        assert text.strip(), f"{path.name}: the card {kind!r} has no help text"
        assert "`" not in text, f"{path.name}: {kind!r}: a parameter left unfilled: {text}"


def test_a_cards_numbers_are_the_variants_own():
    """The theft card's text names the offering's `theft_value` of the variant it is read
    for: changed in the variant, changed in the text."""
    variant = load_variant(VARIANTS[0])
    offering = next(m for m in variant.modules.all if "theft" in m.held_cards)
    assert f" {offering.params.theft_value} " in card_text(variant, "theft")
    changed = attrs.evolve(offering.params, theft_value=offering.params.theft_value + 4)
    object.__setattr__(offering, "params", changed)  # (this variant object only: loaded afresh above)
    try:
        assert f" {changed.theft_value} " in card_text(variant, "theft")
    finally:
        object.__setattr__(offering, "params", attrs.evolve(changed, theft_value=changed.theft_value - 4))
