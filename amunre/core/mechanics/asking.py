"""The decisions the core's shared moves ask, and their words for a person at the table:
`sell` (which card a player sells when his gold is short of a payment, `pay`) and
`double_swap` (whether a second single pyramid and the first become a double, A-DOUBLESWAP):
their options, descriptions, questions, facts and appraisals (`DECISIONS`). The moves that
ask them are `moves.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amunre.core.contract import Decision, card_actions

if TYPE_CHECKING:
    from amunre.core.contract import Asking
    from amunre.core.words import Words


def _describe_swap(option: bool, w: Words) -> str:
    if option:
        return f"swap two single {w.noun(2, 'pyramid')} for {w.a(w.t('double_pyramid'))}"
    return f"keep the single {w.noun(2, 'pyramid')}"


def _owed(asking: Asking) -> str:
    """What a payment is for, from the `sell` request's context, in the edition's words: the
    reason `owed:<why>` its module declares ("the {farmers}", "your bid")."""
    w = asking.words
    why = asking.context.get("for", "")
    return w.reason(f"owed:{why}", None) or f"the {why.replace('_', ' ')}"


def _sell_question(asking: Asking) -> str:
    w = asking.words
    short = asking.context.get("short", 0)
    return (f"You are {short} {w.t('gold')} short for {_owed(asking)}: which {w.t('favor')} do you sell "
            f"for 1 {w.t('gold')}?")


def _sell_facts(asking: Asking) -> list[str]:
    """The shortfall: what the payment costs, what the seat has, how much is missing."""
    w = asking.words
    short = asking.context.get("short", 0)
    gold = w.t("gold")
    return [f"Cost of {_owed(asking)}: {asking.gold + short} {gold}; you have {asking.gold} {gold}, "
            f"{short} {gold} short. Each {w.t('favor')} sold brings 1 {gold}."]


def _swap_question(asking: Asking) -> str:
    """Asked before the new pyramid stands, while the view still shows the stones it is built
    from (context `stones`) and only the singles built before it: one when it is the second,
    more when the owner kept them single before. The question says so."""
    w = asking.words
    where = asking.context.get("province")
    pyramid, double = w.t("pyramid"), w.a(w.t("double_pyramid"))
    if where is None:
        return f"Another single {pyramid} is built: do you swap two single {w.noun(2, 'pyramid')} for {double}?"
    stones = asking.context.get("stones", 0)
    built = (f"The {w.count(stones, 'stone')} in {w.province(where)} become a {pyramid}" if stones else
             f"A {pyramid} is built in {w.province(where)}")
    singles = asking.view.provinces[where].pyramids
    if singles <= 1:
        return (f"{built}, its second single {pyramid}: do you swap the two singles for {double}?")
    return (f"{built}, where {w.count(singles, 'pyramid')} already stand single: do you swap the new one and one "
            f"of them for {double}?")


def _swap_facts(asking: Asking) -> list[str]:
    """The province as it stands once the pyramid is built, either way (the view shows it
    before: the stones still there, the new pyramid not yet)."""
    w = asking.words
    where = asking.context.get("province")
    if where is None:
        return []
    prov = asking.view.provinces[where]
    left = max(0, prov.stones - asking.context.get("stones", 0))

    def standing(singles: int, doubles: int) -> str:
        parts = [w.count(doubles, "double_pyramid")] if doubles else []
        parts += [w.count(singles, "pyramid")] if singles else []
        parts += [w.count(left, "stone")] if left else []
        return w.join(parts)

    return [f"{w.province(where)} once it is built: {standing(prov.pyramids + 1, prov.doubles)} if you keep them; "
            f"{standing(prov.pyramids - 1, prov.doubles + 1)} if you swap."]


DECISIONS = {
    "sell": Decision(
        options="card id: one card of the player's hand",
        json="an integer card id",
        describe=lambda option, w: w.card_noun(w.variant.cards[option]),
        question=_sell_question,
        facts=_sell_facts,
        note=lambda card, asking: asking.held(card),
        actions=card_actions,
        appraise=lambda card, asking, worth: -worth.card(card),  # the card it misses least
        context={"short": "count"},
        title="selling a {favor} to pay",
    ),
    "double_swap": Decision(
        options="true (swap the two singles of the province for a double) or false (keep them), "
                "asked when A-DOUBLESWAP is `optional`, a double and a single are left",
        json="a boolean",
        describe=_describe_swap,
        question=_swap_question,
        facts=_swap_facts,
        actions=lambda rule, variant: [True, False],
        # the same pyramids either way: a double keeps a single piece in the supply
        appraise=lambda swap, asking, worth: 0.01 if swap else 0.0,
        context={"province": "province"},
        title="swapping for a {double_pyramid}",
    ),
}
