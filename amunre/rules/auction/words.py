"""The auction's words for people: how a bid reads (`describe`, `group`), what the human
seat is asked and shown when he bids (the question, every card on auction, a bid's note) and
the play-by-play lines of its bids and acquisitions. Everything a person reads of the
auction, and nothing it decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.core.boardtext import province_line

if TYPE_CHECKING:
    from amunre.core.contract import Asking
    from amunre.core.words import Words
    from amunre.rules.auction import Bid


def _describe_bid(option: Bid, w: Words) -> str:
    province, amount, cards = option
    return f"bid {amount} on {w.province(province)}" + "".join(
        f", playing the {w.card_noun(w.variant.cards[c])}" for c in cards)


def _bid_group(option: Bid, w: Words) -> tuple[str, str]:
    """A bid shown among many: under its card (and the cards played with it: `Abu + "bidding
    blockade"`), by its amount."""
    province, amount, cards = option
    return (w.province(province) + "".join(f" + {w.card_label(w.variant.cards[c])}" for c in cards), str(amount))


def _bid_question(asking: Asking) -> str:
    w = asking.words
    leaving = asking.context.get("moving_from")
    if leaving is not None:
        again = ""
        if any(option[0] == leaving for option in asking.request.options):
            again = f" (or bid again on it{' with the ' + w.card_noun('bribery') if _bribes(asking) else ''})"
        return (f"You were outbid on {w.province(leaving)}: move your {w.t('bid_marker')} to another "
                f"card{again}, and bid how much?")
    return f"Place your {w.t('bid_marker')}: on which province card, and how much?"


def _bribes(asking: Asking) -> bool:
    """Whether a rebid on the card he was outbid on plays a card (else his Bribery still holds)."""
    leaving = asking.context.get("moving_from")
    return any(option[0] == leaving and option[2] for option in asking.request.options)


def _bid_facts(asking: Asking) -> list[str]:
    """Every card on auction: what lies on it, its top bid (bidder, protection), the others on it."""
    w, view = asking.words, asking.view
    protected = set(asking.context.get("protected", ()))
    on_card: dict[int, list[tuple[int, int]]] = {}
    for player, card, amount in asking.context.get("bids", ()):
        on_card.setdefault(card, []).append((amount, player))
    cards = sum(view.hand)
    can_sell = f" and {w.plural(cards, w.t('favor'), w.t('favor_plural'))} to sell" if cards else ""
    lines = [f"The {w.t('province_cards')} on auction (you have {asking.gold} {w.t('gold')}{can_sell}):"]
    for card in view.published("on_auction", ()):
        bids = sorted(on_card.get(card, ()), reverse=True)
        if bids:
            amount, player = bids[0]
            top = f"top bid {amount} by {w.who(player)}"
            if player in protected:
                top += f" ({w.card('protection')}: outbidding skips a space)"
            under = [f"{w.who(q)} at {a}, outbid" for a, q in bids[1:]]
            status = "; ".join([top] + under)
        else:
            status = "no bid yet"
        lines.append(f"  {w.province(card)}: {status} -- {province_line(view, card, w)}")
    return lines


def _bid_note(option: Bid, asking: Asking) -> str | None:
    province, amount, cards = option
    # a card played with the bid can no longer be sold to pay it
    return asking.must_sell(amount)


def _bid_line(e: dict[str, Any], w: Words) -> str:
    """One line per bid, with the cards played with it (their `play` events have no line)."""
    who, where, marker = w.who(e["player"]), w.province(e["province"]), w.t("bid_marker")
    left = e["moved_from"]
    played = [c for c in e["cards"] if c != "bribery"]
    over = f", outbidding {w.who(e['outbid'])}" if e.get("outbid") is not None else ""
    if left is None:
        text = f"{who} places the {marker} on space {e['amount']} of {where}"
    elif left == e["province"]:
        # a rebid on the card he was outbid on: a Bribery played now, or one still in force
        if "bribery" in e["cards"]:
            text = (f"{who}, outbid on {where}, plays {w.a(w.card_noun('bribery'))} and raises the {marker} "
                    f"there to space {e['amount']}")
        else:
            text = (f"{who}, outbid on {where}, raises the {marker} there to space {e['amount']} (his "
                    f"{w.card('bribery')} holds for the whole phase)")
    else:
        text = f"{who}, outbid on {w.province(left)}, moves the {marker} to space {e['amount']} of {where}"
    cards = "".join(f", playing {w.a(w.card_noun(c))}" for c in played)
    return f"  {text}{over}{cards}."


def _acquire_line(e: dict[str, Any], w: Words) -> str:
    """The price, and what comes with the province: the cards and gold lying on it go to
    his hand, the stones and pyramids standing in it stay (R-AUC-07)."""
    gold = w.t("gold")
    line = f"  {w.who(e['player'])} acquires {w.province(e['province'])} for {e['amount']} {gold}"
    taken = []
    if e.get("cards"):
        taken.append(f"the {w.noun(e['cards'], 'favor')}" if e["cards"] == 1 else
                     f"the {w.count(e['cards'], 'favor')}")
    if e.get("gold"):
        taken.append(f"the {e['gold']} {gold}")
    if taken:
        line += f" and takes {w.join(taken)} lying on it"
    standing = []
    if e.get("doubles"):
        standing.append(w.count(e["doubles"], "double_pyramid"))
    if e.get("pyramids"):
        standing.append(w.count(e["pyramids"], "pyramid"))
    if e.get("stones"):
        standing.append(w.count(e["stones"], "stone"))
    if standing:
        line += f"; {w.join(standing)} stand{'s' if len(standing) == 1 and standing[0][:2] == '1 ' else ''} in it"
    return line + "."
