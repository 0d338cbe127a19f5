"""Every card a player of any variant file can hold has its help text, from the module that
plays or deals it (`Rule.cards`, `Rule.held_cards`), with the variant's numbers filled in: the
same text the terminal's `c` and a seat's page of `amunre serve` show."""

from __future__ import annotations

import re

import attrs
import pytest
from conftest import variant_files

from amunre.loader import load_variant
from amunre.planning.seatfacts import card_text

VARIANTS = variant_files()
#: A ruling's id, as SPEC.md names the open rules questions ("A-BRIBERY").
RULING_ID = re.compile(r"\bA-[A-Z]")


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
        # (a player reads what the variant decided, never the id of the rules question)
        assert not RULING_ID.search(text), f"{path.name}: {kind!r} shows a ruling id: {text}"


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


def test_a_card_says_the_variants_answer_to_a_ruling_in_words():
    """A card whose power a ruling decides says this variant's answer in words: the Bribery
    card reads otherwise where one card allows one rebid than where it lasts the phase."""
    variant = load_variant(VARIANTS[0])
    auction = next(m for m in variant.modules.all if "bribery" in m.cards)
    said = {}
    for scope, words in auction.ruling_words["bribery_scope"].items():
        object.__setattr__(auction, "rulings", attrs.evolve(auction.rulings, bribery_scope=scope))
        said[scope] = card_text(variant, "bribery")
        assert said[scope].endswith(words + "."), said[scope]
    assert len(set(said.values())) == len(said) == 2
