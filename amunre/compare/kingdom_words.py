"""A kingdom in a by-kingdom row's label, in each column's own words.

Kingdoms are compared by their place in the game (the first with the first), so a label names
the kingdom once where every column calls it alike, and otherwise says each column's name for
that place (docs/compare.md, "By kingdom"). The by-kingdom table (`amunre.compare.run`) and the
re-scored column's kingdoms (`amunre.compare.rescore`) label their rows with it.
"""

from __future__ import annotations


def kingdom_name(variant, kingdom: int) -> str | None:
    """The variant's name for the kingdom at place `kingdom` (from 0); None where it has none."""
    names = variant.edition.kingdoms
    return names[kingdom] if kingdom < len(names) else None


def kingdom_words(columns, kingdom: int, names: list) -> str:
    """A kingdom in a by-kingdom row's label: its name where every column has it under one
    name (`Old Kingdom`); else its place and each name with the columns that use it, and the
    columns that have no such kingdom (`kingdom 2 (New Kingdom in classic2003; Middle Kingdom
    in three-kingdoms; none in short)`)."""
    if None not in names and len(set(names)) == 1:
        return names[0]
    by_name: dict[str | None, list[str]] = {}
    for column, name in zip(columns, names):
        by_name.setdefault(name, []).append(column.label)
    parts = [f"{name} in {', '.join(labels)}" for name, labels in by_name.items() if name is not None]
    if None in by_name:
        parts.append(f"none in {', '.join(by_name[None])}")
    return f"kingdom {kingdom + 1} ({'; '.join(parts)})"
