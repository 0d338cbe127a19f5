"""The offering's fixed action space (`Decision.actions`, for `amunre.rl.actions`): every
offer, adjustment and reward the variant can ever ask, whatever a request offers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from amunre.core.model import Variant
    from amunre.rules.offering import Offer, Offering


#: The most gold an offer in the action space (`Decision.actions`) gives. Offers are bounded
#: only by a player's means: in 1,000 games of greedy seats (classic2003, supermeeple2016,
#: long-kingdoms, cards-as-gold-offering, every player count) a player could offer more than
#: 50 in 2 of 24,000 offers (56 at most), and the levels stop at a total of
#: `level_floors[-1]` (23 in both editions). Every request still has an offer within it:
#: 1 gold, the theft card, or the empty offer.
MOST_OFFERED = 50


def _offer_actions(rule: Offering, variant: Variant) -> list[Offer]:
    """Every offer up to `MOST_OFFERED` gold: the empty offer (nothing to give), then without
    and with an offering adjustment card, 1 to `MOST_OFFERED` gold and the theft card."""
    opts: list[Offer] = [("gold", 0, 0)]
    for adj in (0, 1):
        opts.extend(("gold", amount, adj) for amount in range(1, MOST_OFFERED + 1))
        opts.append(("theft", 0, adj))
    return opts


def _adjust_actions(rule: Offering, variant: Variant) -> list[int]:
    """The adjustment's steps (+a, 0, -a, without 0 when it must move), each once."""
    a = rule.params.adjustment
    steps = (a, -a) if rule.rulings.adjustment_must_move else (a, 0, -a)
    return list(dict.fromkeys(steps))


def _reward_actions(rule: Offering, variant: Variant) -> list[str | tuple[str, int]]:
    provinces = range(len(variant.board))
    return ["card"] + [("farmer", i) for i in provinces] + [("stone", i) for i in provinces]
