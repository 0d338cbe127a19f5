"""The built-in rule modules, one file each (or one folder, the rule in its `__init__.py`:
`offering`, `auction`). Importing this package registers all of them: the core's registry
imports it, by name, when a variant first looks a rule up (`amunre.core.registry`)."""

from amunre.rules import (  # noqa: F401
    auction,
    bonus_cards,
    complete_sets,
    fewest_pyramids,
    gold_ranking,
    harvest,
    market,
    nile_sides,
    offering,
    province_draft,
    province_draw,
    pyramids,
    temples,
)
