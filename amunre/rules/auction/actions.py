"""The auction's fixed action space (`Decision.actions`, for `amunre.rl.actions`): every bid
the variant can ever ask, whatever a request offers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amunre.core.model import Variant
    from amunre.rules.auction import Auction, Bid


def _bid_actions(rule: Auction, variant: Variant) -> list[Bid]:
    """Every bid the variant can ask: each province, each card combination that can go with a
    bid (none, Bribery, Protection, both, in the order the options list them), each space."""
    plays = [(), (rule.bribery,), (rule.protection,), (rule.bribery, rule.protection)]
    return [(c, amount, cards) for c in range(len(variant.board)) for cards in plays
            for amount in rule.params.bid_spaces]
