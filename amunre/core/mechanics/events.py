"""How the events of the core's shared moves read in the play-by-play: the `Event` each
declares (`EVENTS`: pay, gold, sell, cards, play, farmer, stone, pyramid, reshuffle, score),
its line in the variant's words, and the reasons (`REASONS`) that word a payment's `why`.
The moves that emit them are `moves.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.core.contract import Event, Statistic

if TYPE_CHECKING:
    from amunre.core.words import Words


# -- what these shared moves declare (see amunre.core.contract) ----------------------------------
def _pay_line(e: dict[str, Any], w: Words) -> str | None:
    tail = w.reason(e["why"], f"for {e['why']}")
    return None if tail is None else f"  {w.who(e['player'])} pays {e['amount']} {w.t('gold')} {tail}."


def _gold_line(e: dict[str, Any], w: Words) -> str | None:
    tail = w.reason(e["why"], e["why"])
    return None if tail is None else f"  {w.who(e['player'])} takes {e['amount']} {w.t('gold')} {tail}."


def _sell_line(e: dict[str, Any], w: Words) -> str | None:
    if e.get("told"):
        return None
    return f"  {w.who(e['player'])} sells {w.a(w.card_noun(e['card']))} for 1 {w.t('gold')}."


def _cards_line(e: dict[str, Any], w: Words) -> str | None:
    tail = w.reason(f"cards:{e['why']}", f"({e['why']})")
    if tail is None:
        return None
    return f"  {w.who(e['player'])} takes {w.count(e['count'], 'favor')} {tail}."


def _play_line(e: dict[str, Any], w: Words) -> str | None:
    if e.get("told"):
        return None
    where = f" on {w.province(e['province'])}" if e.get("province") is not None else ""
    return f"  {w.who(e['player'])} plays the {w.card_noun(e['card'])}{where}."


def _pyramid_line(e: dict[str, Any], w: Words) -> str | None:
    where = w.province(e["province"])
    stones = e.get("stones", 0)
    made = f"The {w.count(stones, 'stone')} in {where} become" if stones else f"In {where} stands"
    if e["kind"] == "double":  # with a single already there: the first, or one of several kept single
        return (f"  {made} {w.a(w.t('pyramid'))}: with a single {w.t('pyramid')} already there it makes "
                f"{w.a(w.t('double_pyramid'))}.")
    return f"  {made} {w.a(w.t('pyramid'))}." if stones else f"  {made} a new {w.t('pyramid')}."


def _farmer_line(e: dict[str, Any], w: Words) -> str | None:
    if e.get("told"):
        return None
    return (f"  {w.who(e['player'])} places {w.a(w.t('farmer'))} in {w.province(e['province'])}"
            f"{', off the fields' if e['free'] else ''}.")


def _stone_line(e: dict[str, Any], w: Words) -> str | None:
    if e.get("told"):
        return None
    return f"  {w.who(e['player'])} places {w.a(w.t('stone'))} in {w.province(e['province'])}."


def _score_line(e: dict[str, Any], w: Words) -> str | None:
    if e.get("told"):
        return None
    return (f"  {w.who(e['player'])} scores {w.count(e['points'], 'points')} for {w.item_label(e['item'])}"
            f"{total_note(e, w)}.")


def total_note(e: dict[str, Any], w: Words) -> str:
    """"; now 17 points in all": a score line's running total (from a `score` event or a
    rule's own event that carries `total`), set apart and in points (`Words.total`)."""
    return f"; {w.total(e['total'])}" if "total" in e else ""


EVENTS = {
    "pay": Event("A player pays gold to the bank (`why` says for what).", _pay_line),
    "gold": Event("The bank gives a player gold (`why` says for what).", _gold_line),
    "sell": Event("A player sells a card for 1 gold (`told`: the rule's own line tells the sale).", _sell_line),
    "cards": Event("A player takes cards into his hand (how many, and why: the reason `cards:<why>` words it).",
                   _cards_line),
    "play": Event("A player plays a card (on a province, where it has one; `told`: the line of the action it "
                  "goes with says it).", _play_line,
                  statistics=(Statistic("played.{card}", lambda fields, w: f"{w.card_noun(fields['card'])} played"),)),
    "farmer": Event("A farmer is placed in a province (`free`: off the fields; `told`: the rule's line says it).",
                    _farmer_line),
    "stone": Event("A stone is placed in a province (`told`: the rule's line says it).", _stone_line),
    "pyramid": Event("A pyramid is built (`kind`: single, or double replacing a single; `stones`: the stones of "
                     "the province it is built from).", _pyramid_line,
                     statistics=(Statistic("pyramids_built", "{pyramid} builds (single or double)"),)),
    "reshuffle": Event("The card discard pile becomes the new draw pile.",
                       lambda e, w: f"  The {w.t('favor')} discard pile is shuffled into a new draw pile "
                                    f"({w.plural(e['cards'], 'card', 'cards')})."),
    "score": Event("A player scores points for a scoring item (`total`: his points now; `told`: the rule's own "
                   "event, which follows, says what earned them).", _score_line,
                   statistics=(Statistic("points.{item}", "{points} per player: {item}", lambda e: e["points"],
                                         "per_player"),)),
}

#: The `why` of the gold these moves give: a sold card's gold is said by the `sell` line.
REASONS = {"sell": None}
