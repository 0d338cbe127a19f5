"""The words facet of the rule contract: what a module tells people at the table of itself.

A module adds `WordsFacet` to its bases when it has words of its own beyond its decisions'
and events' (which say theirs on `Decision` and `Event`): default words for the terms it
uses, how the reasons of its payments read, what the human seat shows of its data, what it
tells about a province. Without the facet a module uses the variant's words and the core's
defaults, and shows nothing of its own data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from amunre.core.view import PlayerView
    from amunre.core.words import Words


class WordsFacet:
    """Words for people: see the module docstring."""

    #: Default words for the terms it uses, where a variant's `[terms]` lacks them.
    terms: dict[str, str] = {}
    #: The `why` of the gold it pays or gives, as words; `owed:<why>` is what a payment is, as
    #: a noun, where a card sale must cover it ("the {farmers}"); None: told by the event.
    reasons: dict[str, str | None] = {}

    def seat_lines(self, data: dict[str, Any], view: PlayerView, words: Words) -> list[str]:
        """What the human seat shows, with its own holdings, of this module's data as the seat
        sees it (`data`: its `view_state`), e.g. its own secret hand; none unless overridden."""
        return []

    def province_facts(self, view: PlayerView, pid: int, words: Words) -> list[str]:
        """What this module tells about province `pid` as the seat of `view` sees it, each a
        short phrase in the variant's words (the harvest: "income 5 gold"): the board text of
        the human seat lists them after what stands on the province, and the board picture
        shows them with it. None unless overridden."""
        return []
