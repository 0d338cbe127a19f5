"""What the auction's bids are worth to the planner (`Decision.appraise_all`, from
`amunre.planning.worth`'s values): the province with what lies on it and a share of what its
fields could yield, less its price and the cards played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amunre.core.mechanics import CARD_SALE_PRICE

if TYPE_CHECKING:
    from collections.abc import Sequence

    from amunre.core.contract import Asking
    from amunre.core.facets.valuation import Valuer
    from amunre.core.view import PlayerView
    from amunre.rules.auction import Bid


#: What a province's empty fields add to its worth at an auction, as a share of what farmers
#: filling them would yield: they must still be bought.
FIELDS_SHARE = 0.5


def province_at_auction(pid: int, asking: Asking, worth: Valuer) -> float:
    """Holding `pid` through the kingdom, with the gold and cards lying on it and a share of
    what its fields could yield."""
    return worth.remember(("at auction", pid), _at_auction, pid, asking.view, worth)


def _at_auction(pid: int, view: PlayerView, worth: Valuer) -> float:
    lying = view.provinces[pid]
    fields = view.variant.board.provinces[pid].fields
    held = worth.province(pid)
    farmed = worth.points_of((("own", pid, 1), ("farmers", pid, fields))) - held if fields else 0.0
    return held + worth.gold_change(lying.gold) + lying.cards * worth.drawn_card() + FIELDS_SHARE * farmed


def _appraise_bids(options: Sequence[Bid], asking: Asking, worth: Valuer) -> list[float]:
    """Each bid: the province, less its price (cards sold for what gold does not cover) and
    the cards played; a Protection keeps a bid worth defending. (All at once: many bids share
    a province and a price.)"""
    gold = asking.view.me.gold
    protection = asking.rule.protection
    per_gold = worth.gold_worth()
    provinces: dict[int, float] = {}
    selling: float | None = None  # what a card sold for a gold loses
    values = []
    for pid, amount, played in options:
        province = provinces.get(pid)
        if province is None:
            province = provinces[pid] = province_at_auction(pid, asking, worth)
        surplus = province + (-amount * per_gold if amount else 0.0)  # (as `worth.gold_change(-amount)`)
        if selling is None:
            selling = max(0.0, worth.drawn_card() - CARD_SALE_PRICE * worth.thrift)
        short = max(0, amount + len(played) - gold) if amount > gold else 0
        value = surplus - short * selling
        for card in played:
            value -= worth.card(card)
            if card == protection:
                value += 0.25 * max(0.0, surplus)
        values.append(value)
    return values
