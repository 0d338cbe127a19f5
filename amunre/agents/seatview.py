"""What the human seat shows of the game: the player's own holdings before each decision,
and the whole board on request (`v`). Everything comes from the seat's view
(`amunre.core.view.PlayerView`): own cards by name, the others' hands only by their size, the
card pile only by its size, never a sealed answer.

Lines are rich `Text`s: each player's name in the colour of his seat (plain text when the
output is not a terminal, see `amunre.agents.terminal`).
"""

from __future__ import annotations

import re

from rich.text import Text

from amunre.core.boardtext import holding_line, level_words, lying_on, printed, pyramids_text, theft_cards
from amunre.core.facets import WordsFacet
from amunre.core.words import Words, literal, player_names

#: The style of each seat's name, by seat (the names are the colours: red, blue, black, ...).
SEAT_STYLES = ("bold red", "bold blue", "bold bright_black", "bold white", "bold yellow", "bold magenta",
               "bold cyan")


def words_for(view) -> Words:
    """The variant's words, players named by seat."""
    return Words(view.variant, player_names(view.n_players))


def line(text: str, style: str = "", names: list[str] | None = None) -> Text:
    """One line to show: `text` made safe to print (it holds names from files), each player's
    name in its seat's colour."""
    shown = Text(literal(text), style=style)
    for seat, name in enumerate(names or ()):
        shown.highlight_regex(rf"\b{re.escape(name)}\b", SEAT_STYLES[seat % len(SEAT_STYLES)])
    return shown


def hand_text(view, w: Words) -> str:
    """The seat's own cards, each named as a card as the play-by-play names it, so that the
    2003 "8 gold" card never reads as money; the theft cards too ('"builder" power card,
    2 x "free farmer" power card, -3 card')."""
    parts = []
    for card, count in enumerate(view.hand):
        if count:
            name = w.card_noun(view.variant.cards[card])
            parts.append(name if count == 1 else f"{count} x {name}")
    theft = theft_cards(view, view.player)
    if theft:
        parts.append(w.t("theft") if theft == 1 else f"{theft} x {w.t('theft')}")
    return ", ".join(parts) or "no cards"


def where_we_are(view, w: Words) -> str:
    """Kingdom, round and phase."""
    edition = view.variant.edition
    kingdoms = edition.kingdoms
    kingdom = kingdoms[view.kingdom] if 0 <= view.kingdom < len(kingdoms) else f"kingdom {view.kingdom + 1}"
    return f"{kingdom}, round {view.round + 1} of {edition.rounds_per_kingdom}, {view.phase}"


def level_text(view, w: Words) -> str:
    """The offering level, with the tile's name where the edition names its levels (none
    before the first offering: see `amunre.core.boardtext.level_words`)."""
    return level_words(view, w)


def own_view(view) -> list[Text]:
    """Before each decision: the seat's gold, cards and provinces (fields used of total,
    farmers, stones, pyramids, income), then one line per other player."""
    w = words_for(view)
    names = w.names
    me = view.me
    out = [line(f"You ({names[view.player]}): {me.gold} {w.t('gold')}; hand: {hand_text(view, w)}; "
                f"{w.count(me.score, 'points')}", names=names)]
    if me.provinces:
        for pid in me.provinces:
            out.append(line(f"  {w.province(pid)}: {holding_line(view, pid, w)}", names=names))
    else:
        out.append(line("  no provinces yet"))
    out += [line(f"  {text}", names=names) for text in module_lines(view, w)]
    for p in range(len(view.players)):
        if p != view.player:
            out.append(line(f"  {others_text(view, p, w)}", "dim", names))
    return out


def module_lines(view, w: Words) -> list[str]:
    """What the rule modules show of their own data to this seat (`WordsFacet.seat_lines`: the
    2016 expert rule's secret province hand)."""
    shown = view.rules
    return [text for module in view.variant.modules.stateful if module.key in shown and isinstance(module, WordsFacet)
            for text in module.seat_lines(shown[module.key], view, w)]


def others_text(view, p: int, w: Words) -> str:
    """What everyone knows of another player: gold, points, hand size, theft cards, provinces."""
    info = view.players[p]
    cards = w.plural(info.hand_size, w.t("favor"), w.t("favor_plural"))
    # "a -3 card" (not "1 -3 card"), "2 x -3 card" as in a hand
    held = theft_cards(view, p)
    theft = "" if not held else f", {w.a(w.t('theft'))}" if held == 1 else f", {held} x {w.t('theft')}"
    provinces = ", ".join(w.province(i) for i in info.provinces) or "no provinces"
    return f"{w.who(p)}: {info.gold} {w.t('gold')}, {w.count(info.score, 'points')}, {cards}{theft}; {provinces}"


def full_view(view) -> list[Text]:
    """`v`: the whole board as this seat may know it."""
    w = words_for(view)
    names = w.names
    supplies = view.supplies
    level = level_text(view, w)  # ("" where no module publishes a level)
    out = [line(f"== {where_we_are(view, w)} ==", "bold"),
           line(f"{w.who(view.start_player)} is {w.t('start_player')}" + (f"; {level}" if level else ""),
                names=names),
           line(f"Supply: {w.count(supplies['farmers'], 'farmer')}, {w.count(supplies['stones'], 'stone')}, "
                f"{w.count(supplies['pyramids'], 'pyramid')}, {w.count(supplies['doubles'], 'double_pyramid')}; "
                f"{w.t('favor_plural')}: {view.deck_size} in the pile, {len(view.discard)} discarded")]
    for p in view.turn_order():
        info = view.players[p]
        if p == view.player:
            head = (f"{w.who(p)} (you): {info.gold} {w.t('gold')}, {w.count(info.score, 'points')}; "
                    f"hand: {hand_text(view, w)}")
        else:
            head = others_text(view, p, w).split(";")[0]
        out.append(line(head, "bold" if p == view.player else "", names))
        if p == view.player:
            out += [line(f"  {text}", names=names) for text in module_lines(view, w)]
        for pid in info.provinces:
            out.append(line(f"  {w.province(pid)}: {holding_line(view, pid, w)}", names=names))
            out.append(line(f"      {printed(view, pid, w)}", "dim"))
    on_auction = view.published("on_auction", ())
    if on_auction:
        out.append(line(f"On auction: {', '.join(w.province(i) for i in on_auction)}"))
        for pid in on_auction:
            on = lying_on(view, pid, w)
            out.append(line(f"  {w.province(pid)}: {printed(view, pid, w)}" + (f"; on it: {on}" if on else "")))
    left = [pid for pid, prov in enumerate(view.provinces)
            if prov.owner is None and pid not in on_auction and (prov.stones or prov.pyramid_count())]
    if left:
        standing = "; ".join(f"{w.province(pid)} " + ", ".join(
            part for part in (pyramids_text(view.provinces[pid], w),
                              w.plural(view.provinces[pid].stones, w.t("stone"), w.t("stones"))
                              if view.provinces[pid].stones else "") if part) for pid in left)
        out.append(line(f"Standing in provinces nobody holds: {standing}"))
    return out


def card_lines(view) -> list[Text]:
    """`c`: what each card of the seat's hand does, in the variant's words and numbers."""
    from amunre.planning.seatfacts import hand_cards

    w = words_for(view)
    cards = hand_cards(view, w)
    if not cards:
        return [line("You hold no cards.")]
    return [line(f"{count} x {name}" if count > 1 else name, "bold") if not text else
            line(f"{f'{count} x ' if count > 1 else ''}{name}: {text}") for name, count, text in cards]


def projection_lines(view) -> list[Text]:
    """`p`: what the coming scoring would give each player were it now, item by item, worked
    out from this seat's view alone (`amunre.planning.seatfacts.projection`)."""
    from amunre.planning.seatfacts import projection

    w = words_for(view)
    title, sheet = projection(view, w)
    names = w.names
    width = max([len(item.name) for item in sheet.items] + [len("in all after it")])
    cells = max(len(name) for name in names) + 2
    out = [line(title[0].upper() + title[1:] + ":", "bold"),
           line(" " * (width + 2) + "".join(name.rjust(cells) for name in names), names=names)]
    for item in sheet.items:
        out.append(line(f"  {item.name.ljust(width)}" + "".join(str(v).rjust(cells) for v in item.points)))
    out.append(line(f"  {'in all after it'.ljust(width)}" + "".join(str(v).rjust(cells) for v in sheet.totals),
                    "bold"))
    return out
