"""What the offering's options are worth to the planner (`Decision.appraise`, from
`amunre.planning.worth`'s values): an offer by the rank and the level it may reach, an
adjustment by its level, a reward item, a card sold before the offers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amunre.rules.offering.levels import level_for

if TYPE_CHECKING:
    from amunre.core.contract import Asking
    from amunre.core.facets.valuation import Valuer
    from amunre.core.view import PlayerView
    from amunre.rules.offering import Offer, Offering, RewardItem


#: The share of his gold the planner expects each other player to offer (it cannot see them).
EXPECTED_SHARE = 0.25


def _reward_item(worth: Valuer) -> float:
    """One reward item as the seat would take it: a card, a farmer or a stone."""
    return worth.remember("reward item", _best_item, worth)


def _best_item(worth: Valuer) -> float:
    return max(worth.drawn_card(), worth.best_farmer(), worth.best_stones())


def _others_offers(view: PlayerView) -> list[int]:
    """What the planner expects each other player to offer: a share of his gold."""
    return [round(info.gold * EXPECTED_SHARE) for p, info in enumerate(view.players) if p != view.player]


def _appraise_offer(option: Offer, asking: Asking, worth: Valuer) -> float:
    """Its gold (or a theft's), the rewards of the rank it may reach, and what the level the
    total may reach is worth to him, the others' offers guessed from their gold."""
    rule: Offering
    rule, view = asking.rule, asking.view
    prm = rule.params
    kind, amount, adjust = option
    others = worth.remember("others' offers", _others_offers, view)
    total = sum(others) + (amount if kind == "gold" else -prm.theft_value)
    if kind == "theft":
        value = prm.theft_value * worth.thrift
    else:
        rank = sum(1 for o in others if o >= amount)
        items = prm.rewards[min(rank, 2)] if rank < 2 or len(prm.rewards) > 2 else 0
        value = items * _reward_item(worth) + worth.gold_change(-amount)
    level = worth.level(level_for(total, prm.level_floors))
    if adjust:
        moved = [worth.level(level_for(total + d, prm.level_floors)) for d in (prm.adjustment, -prm.adjustment)]
        value += max(moved + [level]) - level - worth.card(rule.adjust_card)
    return value + level


def _appraise_adjust(delta: int, asking: Asking, worth: Valuer) -> float:
    return worth.level(level_for(asking.context.get("total", 0) + delta, asking.rule.params.level_floors))


def _appraise_reward(option: RewardItem, asking: Asking, worth: Valuer) -> float:
    if option == "card":
        return worth.drawn_card()
    what, pid = option
    return worth.farmers(pid) if what == "farmer" else worth.stones(pid)


def _appraise_open_sale(card: int | None, asking: Asking, worth: Valuer) -> float:
    return 0.0 if card is None else worth.gold_change(1) - worth.card(card)
