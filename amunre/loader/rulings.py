"""Compose a variant's `[rulings]` from the rule modules it uses.

Each module declares the open rules questions it answers (`Rule.Rulings`, see
`amunre.core.contract`), the core its own (`CORE_RULINGS`: supplies, construction). A file sets only the
rulings it changes; the declaring module's default applies to the rest. A key no module
declares, or one of a module the variant does not use, is reported with the closest name.
A ruling inherited from a parent whose module the child dropped is dropped with it.
"""

from __future__ import annotations

import attrs

from amunre.core.gamesetup import SetupRulings
from amunre.core.mechanics import ConstructionRulings
from amunre.core.model import Rulings
from amunre.loader.problems import did_you_mean, one_of
from amunre.loader.shape import structure
from amunre.loader.unsettled import settle

#: The rulings the core answers itself, joined to every variant's: (class, who declares it).
CORE_RULINGS = ((SetupRulings, "setup (core)"), (ConstructionRulings, "construction (core)"))


def declared_rulings(rules: dict) -> dict[str, tuple[type, str]]:
    """Ruling key -> (its Rulings class, the module id declaring it), over every registered module."""
    owners: dict[str, tuple[type, str]] = {
        f.name: (cls, who) for cls, who in CORE_RULINGS for f in attrs.fields(cls)}
    for rule_id, cls in sorted(rules.items()):
        for field in attrs.fields(cls.Rulings):
            owners.setdefault(field.name, (cls.Rulings, rule_id))
    return owners


def compose_rulings(data: dict, used_rules: set[str], rules: dict, set_here, report) -> Rulings | None:
    """The variant's Rulings after reporting every problem (None when `[rulings]` is no table);
    a module's rulings that do not type are an `Unsettled` stand-in.

    `used_rules`: the rule ids of its pipelines; `set_here(key)`: whether the file being
    loaded (not a parent) writes that ruling."""
    given = data.get("rulings", {})
    if not isinstance(given, dict):
        return None  # the schema reports it
    owners = declared_rulings(rules)
    in_use = {cls for cls, _ in CORE_RULINGS} | {rules[r].Rulings for r in used_rules if r in rules}
    usable = sorted(key for key, (cls, _) in owners.items() if cls in in_use)
    # in a fixed order (the core's, then by rule id), so that every run lists the rulings alike
    ordered = [cls for cls, _ in CORE_RULINGS] + [rules[r].Rulings for r in sorted(used_rules) if r in rules]
    per_class: dict[type, dict] = {cls: {} for cls in dict.fromkeys(ordered)}
    for key, value in given.items():
        owner = owners.get(key)
        if owner is None:
            report(("rulings", key), "unknown ruling", did_you_mean(key, usable) + one_of(usable))
        elif owner[0] not in in_use:
            if set_here(key):
                report(("rulings", key), f"ruling of rule module {owner[1]!r}, which this variant does not use",
                       did_you_mean(key, usable) + one_of(usable))
        else:
            per_class[owner[0]][key] = value
    composed = {}
    for cls, values in per_class.items():
        typed = structure(values, cls, ("rulings",), report)
        # a module whose rulings do not type gets a stand-in: the other modules' checks still run
        composed[cls] = typed if typed is not None else settle(values, cls, "rulings")
    return Rulings(composed)
