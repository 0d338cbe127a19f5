"""How often a phase that pays for holdings (`ValuationFacet.pays_for_holdings`: the harvest)
runs: once a round. The valuation's one statement of it: the planner counts the runs left in
this kingdom by it (`runs_left`), the horizon a later kingdom's runs (`runs_in_kingdom`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amunre.core.model import Variant


def runs_left(variant: Variant, round_index: int, still_this_round: bool) -> int:
    """The runs an income phase has left in the kingdom at round `round_index` (0-based): one
    for each round after it, and one more if its run of this round is still to come."""
    return variant.edition.rounds_per_kingdom - round_index - 1 + (1 if still_this_round else 0)


def runs_in_kingdom(variant: Variant) -> int:
    """The runs an income phase has in a whole kingdom, seen from its start."""
    return runs_left(variant, 0, True)
