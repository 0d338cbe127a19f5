"""Which words an edition may set in its `[terms]`.

A variant names engine concepts in its own words (`favor = "Favor card"`). The keys it may
set are the engine's own vocabulary (`CORE_TERMS`, the words the engine and the commands
print), the `terms` each rule module it uses declares, its card kinds, and numbered forms
of any of these (`offering_level_2`: the second offering level's tile). Any other key is a
typo that would change nothing, so the loader reports it with the closest known key.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from amunre.core.contract import Rule

#: The words the engine itself prints (setup, scoring, building, the command line).
CORE_TERMS = frozenset({
    "gold", "points", "scoring", "final_scoring", "start_player", "theft",
    "farmer", "farmers", "stone", "stones", "pyramid", "double_pyramid",
    "favor", "favor_plural",
    # a card kind as a noun in a sentence: `{card}` is the card's name ("the {card} Favor card")
    "card_noun",
})

#: The most numbered forms of one term (the offering has at most 20 levels).
MOST_NUMBERED = 20

_NUMBERED = re.compile(r"^(?P<stem>\w+?)_(?P<n>\d+)$")


def known_terms(modules: Iterable[type[Rule]], card_kinds: Iterable[str]) -> set[str]:
    """The keys a variant using rule module classes `modules` with `card_kinds` may set."""
    known = set(CORE_TERMS) | set(card_kinds)
    for cls in modules:
        known |= set(getattr(cls, "terms", {}))
    return known


def is_known(key: str, known: set[str]) -> bool:
    """Whether `key` is a known term or a numbered form of one (1 to MOST_NUMBERED)."""
    if key in known:
        return True
    match = _NUMBERED.match(key)
    # a few digits only before int(): a key of thousands of digits is no numbered term (and Python refuses it)
    return (match is not None and match["stem"] in known and len(match["n"]) <= len(str(MOST_NUMBERED))
            and 1 <= int(match["n"]) <= MOST_NUMBERED)
