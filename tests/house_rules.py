"""House rules with other numbers, drawn at random: a hypothesis strategy for the tests that
prove the suite reads its expectations from each variant.

A drawn house rule extends a shipped edition and changes, each with some chance: the player
counts, the kingdoms and their rounds, the starting gold and supplies, the deck, any numeric
param of any pipeline entry within the range its rule module declares, the kingdoms one scoring
item scores in, and any ruling to one of its values. Sizes that only lengthen a game (more
kingdoms, rounds or players) are kept near the editions' so that a drawn rule plays in a second;
every other number ranges over what the format allows. Only files the loader accepts are kept:
a draw that breaks a rule between two numbers (more provinces than the board has, say) is drawn
again.
"""

from __future__ import annotations

import typing

import attrs
import tomli_w
from hypothesis import assume
from hypothesis import strategies as st

from amunre.core.errors import AmunreError
from amunre.loader import load_variant
from amunre.loader.schema import field_schema

#: The editions a drawn house rule extends.
PARENTS = ("classic2003", "supermeeple2016", "expert2016")


def _value_in(schema: dict, current):
    """A strategy for a value anywhere in a declared integer or integer-list range. A list is
    any list, or one as long as the parent's, or one rising from the least value (the shapes
    the modules' own checks ask for: three rewards, bid spaces from 0), so that fewer draws
    are refused."""
    if schema.get("type") == "integer":
        return st.integers(schema["minimum"], schema["maximum"])
    items = schema.get("items", {})
    if schema.get("type") == "array" and items.get("type") == "integer":
        low, high = items["minimum"], items["maximum"]
        most = min(schema.get("maxItems", 10), 10)
        value = st.integers(low, high)
        rising = st.lists(value, min_size=1, max_size=most - 1, unique=True).map(
            lambda xs: [low] + sorted(x for x in xs if x != low))
        alike = st.lists(value, min_size=len(current), max_size=len(current)) if len(current) <= most else st.nothing()
        return st.one_of(st.lists(value, min_size=schema.get("minItems", 0), max_size=most), alike, rising,
                         rising.map(lambda xs: xs[1:] or xs))
    return None


def _ruling_values(owner, field) -> list:
    """The values a ruling may take: both for a flag, the allowed texts, or its integer range."""
    default = field.default
    if isinstance(default, bool):
        return [True, False]
    validator = field.validator
    options = getattr(validator, "options", None)
    if options is not None:
        return list(options)
    if isinstance(default, int):
        schema = field_schema(owner, field, typing.get_type_hints(owner))
        return list(range(schema["minimum"], min(schema["maximum"], schema["minimum"] + 5) + 1))
    return [default]


def drawn_params(params) -> dict:
    """Parameter name -> a strategy for its values, of every numeric parameter of a module's
    `params` (an integer or a list of integers, with the range its module declares): the ones a
    drawn house rule may change (each market price key among them, each kind's too)."""
    hints = typing.get_type_hints(type(params))
    found = {}
    for field in attrs.fields(type(params)):
        values = _value_in(field_schema(type(params), field, hints), getattr(params, field.name))
        if values is not None:
            found[field.name] = values
    return found


@st.composite
def house_rule(draw, vid: str) -> str:
    """The TOML text of a valid house rule with id `vid` (see the module's docstring)."""
    parent = load_variant(draw(st.sampled_from(PARENTS)))
    data: dict = {"extends": parent.id, "edition": {"id": vid, "name": f"drawn house rule {vid}"}}
    edition = data["edition"]
    if draw(st.booleans()):
        edition["rounds_per_kingdom"] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        edition["kingdoms"] = [f"Kingdom {i + 1}" for i in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        edition["players"] = sorted(draw(st.sets(st.integers(2, 7), min_size=1, max_size=4)))
    components = {}
    for key, most in (("starting_gold", 1000), ("theft_cards_per_player", 10), ("farmers", 1000),
                      ("stones", 1000), ("pyramids", 1000), ("double_pyramids", 1000)):
        if draw(st.integers(0, 3)) == 0:
            components[key] = draw(st.integers(0, most) | st.integers(0, 40))
    if draw(st.integers(0, 3)) == 0:
        # (each starting card kind at least as often as the most players can be dealt it)
        least = {kind: 10 * parent.components.starting_cards.count(kind) for kind in parent.components.deck}
        components["deck"] = {kind: draw(st.integers(least[kind], max(12, least[kind])))
                              for kind in parent.components.deck}
    if components:
        data["components"] = components
    params: dict = {}
    for spec in parent.phases + parent.scoring + parent.final_scoring:
        for name, values in drawn_params(spec.params).items():
            if draw(st.integers(0, 4)) == 0:
                params.setdefault(spec.id, {})[name] = draw(values)
    if params:
        data["params"] = params
    kingdoms = edition.get("kingdoms", list(parent.edition.kingdoms))
    if parent.scoring and draw(st.integers(0, 3)) == 0:
        # one scoring item scores in some kingdoms only (by their names, each once, any order)
        spec = draw(st.sampled_from(parent.scoring))
        chosen = draw(st.lists(st.sampled_from(kingdoms), min_size=1, max_size=len(kingdoms), unique=True))
        data["scoring"] = [{"id": spec.id, "kingdoms": chosen}]
    rulings = {}
    for owner in parent.rulings._by_class:
        for field in attrs.fields(owner):
            if draw(st.integers(0, 3)) == 0:
                rulings[field.name] = draw(st.sampled_from(_ruling_values(owner, field)))
    if rulings:
        data["rulings"] = rulings
    text = tomli_w.dumps(data)
    try:
        load_variant_text(text, vid)
    except AmunreError:
        assume(False)
    return text


def load_variant_text(text: str, vid: str):
    """The variant of a house rule's text, loaded from a file in a fresh folder (raises the
    loader's error when it is not valid)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{vid}.toml"
        path.write_text(text, encoding="utf-8")
        return load_variant(path)
