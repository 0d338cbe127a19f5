"""The board as SVG, written by the project (no library, no network).

The 15 provinces stand where the board data places them: Lower Egypt above Upper Egypt,
west of the Nile on the left, east on the right, the provinces on the Nile bank next to the
river and the frontier ones outside (provinces of one place stacked in board-file order).
Each province shows its owner's colour, its field spaces (used and free), farmers, stones,
single and double pyramids, and what is printed on it: card symbols (its card limit),
temples, gold mine and caravan, the immediate bonus. Values the board data marks
provisional have a dotted outline, explained in the legend. Beside the map: the offering
level, each player's gold, hand size, theft cards and points, the provinces on auction with
their bid markers, and the legend. Labels are in the variant's words.

The picture is a static layer (the board and what is printed on it) and slots, one per
part that changes during a game (a province's owner, its pieces, a player, the level, the
auction, where the game stands): `BoardPicture.slots(snapshot)` gives each slot's SVG for
a position and `document(snapshot)` the whole picture. The replay viewer sends the static
layer once and each slot's content only when it changes.

Every text from a file (province, player and variant words) is XML-escaped, and the
characters XML cannot hold are written as their escapes (`\\x1b`).
"""

from __future__ import annotations

import re

from amunre.core.words import Words, literal

# -- sizes ---------------------------------------------------------------------------------
BOX_W, BOX_H, GAP = 190, 180, 8
NILE_W = 56
MAP_X = 16
HEADER_H = 100  # title, where the game stands, column headings
HALF_LABEL = 24
PANEL_X = 890
PANEL_W = 314
WIDTH = PANEL_X + PANEL_W + 16
#: The smallest text of the picture, and the spacing of its lines: shown at its own width or
#: wider (the seat's page and the replay viewer lay it out so), no text is below 11 px.
SMALL, SMALL_LINE = 11, 13
LEGEND_SIZE, LEGEND_W = SMALL, PANEL_W - 28
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

SAND = "#f4ead3"
INK = "#2b2418"
DIM = "#6d604a"
NILE = "#9cc9e8"
FARMER = "#4f8a32"
STONE = "#8d8d8d"
PYRAMID = "#d9b44a"
GOLD_OUTLINE = "#d49a00"
PROVISIONAL = "#7a3e9d"

#: A seat's colour: its name where that is a colour's name, else the seat's default.
NAMED_COLOURS = {
    "red": "#c62828", "blue": "#1f5fbf", "black": "#222222", "white": "#fafafa", "yellow": "#f2c200",
    "green": "#2e8b3a", "purple": "#7b3fa0", "orange": "#ef7d00", "brown": "#7b4a25", "pink": "#e05a9a",
    "grey": "#8a8a8a", "gray": "#8a8a8a",
}
SEAT_COLOURS = ("#c62828", "#1f5fbf", "#222222", "#fafafa", "#f2c200", "#2e8b3a", "#7b3fa0")

#: Characters an XML 1.0 document cannot hold, even escaped (besides those `literal` escapes).
_NOT_XML = re.compile("[\ufffe\uffff]")

#: The auction panel: a province's name line, a bid's line.
AUCTION_HEAD = 17
AUCTION_LINE = 14


def text_of(value) -> str:
    """A text from a file, safe inside an SVG/XML element or attribute: control characters
    and lone surrogates written as escapes (`literal`), then &, <, >, " and ' escaped."""
    text = _NOT_XML.sub(lambda m: repr(m.group())[1:-1], literal(str(value)).replace("\t", " ").replace("\n", " "))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def seat_colour(name: str, seat: int) -> str:
    return NAMED_COLOURS.get(str(name).strip().lower(), SEAT_COLOURS[seat % len(SEAT_COLOURS)])


def _light(colour: str) -> bool:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 230


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def _t(x, y, text: str, size: float = 11, anchor: str = "start", weight: str = "normal", fill: str = INK,
       extra: str = "", title: str = "") -> str:
    """A text element; `text`, `extra` (attributes) and `title` (a tooltip) must be escaped
    already (`text_of`)."""
    a = f' text-anchor="{anchor}"' if anchor != "start" else ""
    w = f' font-weight="{weight}"' if weight != "normal" else ""
    f = f' fill="{fill}"' if fill != INK else ""
    tip = f"<title>{title}</title>" if title else ""
    return f'<text x="{x}" y="{y}" font-size="{size}"{a}{w}{f}{extra}>{tip}{text}</text>'


def _text_width(text: str, size: float) -> int:
    return int(len(text) * size * 0.6) + 4


def _wrap(text: str, size: float, width: float) -> list[str]:
    """`text` cut into lines of at most `width` pixels at font size `size` (by an average
    glyph width), at spaces where it can."""
    most = max(8, int(width / (size * 0.57)))
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= most:
            line = candidate
            continue
        if line:
            lines.append(line)
        while len(word) > most:
            lines.append(word[:most])
            word = word[most:]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


# -- icons ---------------------------------------------------------------------------------
def _stone(x, y) -> str:
    return f'<rect x="{x}" y="{y + 3}" width="11" height="11" fill="{STONE}" stroke="#555"/>'


def _pyramid(x, y) -> str:
    return f'<path d="M{x} {y + 14}h14l-7-13z" fill="{PYRAMID}" stroke="#7a5d12"/>'


def _double(x, y) -> str:
    return (f'<path d="M{x} {y + 14}h13l-6.5-12z" fill="{PYRAMID}" stroke="#7a5d12"/>'
            f'<path d="M{x + 6} {y + 14}h13l-6.5-14z" fill="{PYRAMID}" stroke="#7a5d12"/>')


def _card(x, y) -> str:
    return f'<rect x="{x}" y="{y}" width="9" height="13" rx="1.5" fill="#fffaf0" stroke="#6a5532"/>'


def _temple(x, y) -> str:
    return (f'<path d="M{x} {y + 4}l7-4l7 4z" fill="#e8dcc0" stroke="#5b4a2e"/>'
            f'<path d="M{x + 2} {y + 5}v8M{x + 7} {y + 5}v8M{x + 12} {y + 5}v8M{x} {y + 13.5}h14" '
            f'stroke="#5b4a2e" stroke-width="1.6"/>')


def _field(x, y, used: bool) -> str:
    inner = f'<rect x="{x + 3}" y="{y + 3}" width="10" height="10" rx="2" fill="{FARMER}"/>' if used else ""
    return f'<rect x="{x}" y="{y}" width="16" height="16" fill="#fffdf6" stroke="#7a6a48"/>{inner}'


def _provisional(x, y, w, h, province: str, fields: list[str]) -> str:
    """A dotted outline: these values are provisional (the board data says so)."""
    names = " ".join(fields)
    return (f'<rect class="provisional" data-province="{text_of(province)}" data-fields="{names}" x="{x}" '
            f'y="{y}" width="{w}" height="{h}" fill="none" stroke="{PROVISIONAL}" stroke-width="1.5" '
            f'stroke-dasharray="1.5 3" stroke-linecap="round"><title>provisional: {names} (no reachable source '
            f'confirms it; see docs/board.md)</title></rect>')


class BoardPicture:
    """The picture of one variant's board for `names` players (see the module docstring)."""

    def __init__(self, variant, names: list[str], title: str | None = None):
        self.variant = variant
        self.names = list(names)
        self.words = Words(variant, self.names)
        self.colours = [seat_colour(name, seat) for seat, name in enumerate(self.names)]
        self.title = title if title is not None else variant.edition.name
        self.boxes = self._layout()
        self.map_height = self._map_height
        modules = variant.modules
        self.levels = modules.max_offering_level or 0
        n = len(self.names)
        self.players_y = 140
        self.auction_y = self.players_y + 24 + 42 * n + 8
        # the auction lists every bid: at most one province card per player on auction, each
        # with its name and one line per bid (a player has one bid marker) or "no bid yet"
        self.legend_y = self.auction_y + 8 + AUCTION_HEAD * max(n, 1) + AUCTION_LINE * 2 * max(n, 1) + 8
        legend = sum(6 + SMALL_LINE * len(_wrap(label, LEGEND_SIZE, LEGEND_W)) for _, label in self._legend_rows())
        self.height = max(self.map_height, self.legend_y + 24 + legend) + 12
        self._province_cache: dict = {}
        self._lying_y: dict[int, int] = {}
        self.static()  # (lays out the printed lines: what lies on a province goes below them)

    # -- layout ----------------------------------------------------------------------------
    def _layout(self) -> list[tuple[int, int]]:
        """(x, y) of each province's box: a band per half (lower first), the four columns
        west frontier, west Nile bank, [the Nile], east Nile bank, east frontier."""
        columns = {("west", False): MAP_X, ("west", True): MAP_X + BOX_W + GAP,
                   ("east", True): MAP_X + 2 * (BOX_W + GAP) + NILE_W,
                   ("east", False): MAP_X + 3 * (BOX_W + GAP) + NILE_W}
        cells: dict = {}
        for pid, p in enumerate(self.variant.board.provinces):
            cells.setdefault((p.half, p.side, p.nile), []).append(pid)
        boxes: list = [None] * len(self.variant.board.provinces)
        y = HEADER_H
        self.bands = []
        for half in ("lower", "upper"):
            rows = max([len(v) for k, v in cells.items() if k[0] == half] or [0])
            if not rows:
                continue
            self.bands.append((half, y, rows))
            top = y + HALF_LABEL
            for (h, side, nile), pids in cells.items():
                if h == half:
                    for row, pid in enumerate(pids):
                        boxes[pid] = (columns[(side, nile)], top + row * (BOX_H + GAP))
            y = top + rows * (BOX_H + GAP) + 6
        self._map_height = y
        return boxes

    @property
    def map_right(self) -> int:
        return MAP_X + 4 * (BOX_W + GAP) + NILE_W - GAP

    # -- words -----------------------------------------------------------------------------
    def term(self, key: str) -> str:
        return self.variant.term(key)

    def _half_label(self, half: str) -> str:
        word = self.term(f"{half}_egypt")
        word = re.sub(r"^in\s+", "", word)
        return word[:1].upper() + word[1:]

    def _side_label(self, side: str) -> str:
        word = re.sub(r"^on\s+(the\s+)?", "", self.term(f"{side}_side"))
        return word[:1].upper() + word[1:]

    # -- the static layer ------------------------------------------------------------------
    def static(self) -> str:
        """The board and everything printed on it (never changes during a game)."""
        out = [f'<rect width="{WIDTH}" height="{self.height}" fill="#efe4c8"/>',
               _t(MAP_X, 28, text_of(self.title), 18, weight="bold")]
        nile_x = MAP_X + 2 * (BOX_W + GAP) - GAP / 2
        top, bottom = HEADER_H - 10, self.map_height
        out.append(f'<rect x="{nile_x + 4}" y="{top}" width="{NILE_W - 0}" height="{bottom - top}" fill="{NILE}"/>')
        out.append(_t(nile_x + 4 + NILE_W / 2, (top + bottom) / 2, "Nile", 16, "middle", "bold", "#2d5f86",
                      f' transform="rotate(-90 {nile_x + 4 + NILE_W / 2} {(top + bottom) / 2})"'))
        west_mid = MAP_X + BOX_W + GAP / 2
        east_mid = MAP_X + 3 * (BOX_W + GAP) + NILE_W - GAP / 2
        out.append(_t(west_mid, 68, text_of(self._side_label("west")), 13, "middle", "bold"))
        out.append(_t(east_mid, 68, text_of(self._side_label("east")), 13, "middle", "bold"))
        frontier, bank = text_of(self.term("off_the_nile")), text_of(self.term("on_the_nile"))
        for x, label in ((MAP_X, frontier), (MAP_X + BOX_W + GAP, bank),
                         (MAP_X + 2 * (BOX_W + GAP) + NILE_W, bank), (MAP_X + 3 * (BOX_W + GAP) + NILE_W, frontier)):
            out.append(_t(x + BOX_W / 2, 86, label, 11, "middle", fill=DIM))
        for half, y, _rows in self.bands:
            out.append(_t(MAP_X, y + 16, text_of(self._half_label(half)), 14, weight="bold"))
        for pid, province in enumerate(self.variant.board.provinces):
            out.append(self._province_static(pid, province))
        out.append(self._panel_static())
        return "".join(out)

    def _province_static(self, pid: int, p) -> str:
        x, y = self.boxes[pid]
        name = text_of(p.name)
        out = [f'<g class="province" data-pid="{pid}" data-name="{name}">',
               f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{SAND}" fill-opacity="0.55" '
               f'stroke="#a08a5c"/>',
               f'<g id="o{pid}"></g>',  # the owner's colour, under the print
               _t(x + 8, y + 18, name, 14, weight="bold")]
        provisional = set(p.provisional)
        where = [f for f in ("half", "side", "nile") if f in provisional]
        if where:
            out.append(_provisional(x + 3, y + 3, BOX_W - 6, BOX_H - 6, p.name, where))
        w = self.words
        if p.fields:  # (a tooltip on each group of printed symbols: what it is, in the edition's words)
            out.append(f"<g><title>{w.plural(p.fields, 'field space', 'field spaces')}</title>")
        for i in range(p.fields):
            out.append(f'<rect x="{x + 8 + i * 20}" y="{y + 28}" width="16" height="16" fill="#fffdf6" '
                       f'stroke="#7a6a48"/>')
        if p.fields:
            out.append('</g>')
        if "fields" in provisional:
            out.append(_provisional(x + 5, y + 25, max(p.fields, 1) * 20 + 2, 22, p.name, ["fields"]))
        # printed symbols: card symbols (the card limit), then temples
        cx = x + 8
        icons = []
        for i in range(p.card_limit):
            icons.append(_card(cx + i * 12, y + 79))
        if p.card_limit:
            icons = [f'<g><title>{text_of(w.count(p.card_limit, "card_symbols"))} (the most '
                     f'{text_of(w.t("favor_plural"))} bought here at once)</title>{"".join(icons)}</g>']
        if p.card_limit == 0 and "card_limit" in provisional:
            icons.append(_t(cx + 2, y + 90, "0", SMALL, fill=DIM))
        width = max(p.card_limit * 12, 12 if "card_limit" in provisional else 0)
        if "card_limit" in provisional:
            icons.append(_provisional(cx - 3, y + 76, width + 4, 19, p.name, ["card_limit"]))
        tx = cx + width + (10 if width else 0)
        if p.temples:
            icons.append(f'<g><title>{text_of(w.count(p.temples, "temple"))}</title>'
                         + "".join(_temple(tx + i * 17, y + 79) for i in range(p.temples)) + '</g>')
        if p.temples == 0 and "temples" in provisional:
            icons.append(_t(tx + 2, y + 90, "0", SMALL, fill=DIM))
        if "temples" in provisional:
            icons.append(_provisional(tx - 3, y + 76, max(p.temples * 17, 12) + 3, 19, p.name, ["temples"]))
        out += icons
        # income and the immediate bonus, in words
        line_y = y + 112
        for field, text in self._printed_lines(p):
            parts = _wrap(text, SMALL, BOX_W - 16)
            for k, part in enumerate(parts):
                out.append(_t(x + 8, line_y + SMALL_LINE * k, text_of(part), SMALL, fill=DIM))
            marked = [f for f in field if f in provisional]
            if marked:
                width = max(_text_width(part, SMALL) for part in parts)
                out.append(_provisional(x + 5, line_y - 11, min(width, BOX_W - 10), SMALL_LINE * len(parts) + 3,
                                        p.name, marked))
            line_y += SMALL_LINE * len(parts) + 2
        self._lying_y[pid] = line_y + 2  # what lies on it, below what is printed
        out.append(f'<g id="p{pid}"></g>')  # what stands on it now
        out.append(f"<title>{name}: {text_of(self._where_words(p))}</title></g>")
        return "".join(out)

    def _where_words(self, p) -> str:
        nile = self.term("on_the_nile") if p.nile else self.term("off_the_nile")
        return f"{self._half_label(p.half)}, {self._side_label(p.side)}, {nile}"

    def _printed_lines(self, p) -> list[tuple[tuple[str, ...], str]]:
        """(the board fields it shows, the line) for the income and the immediate bonus."""
        w = self.words
        lines = []
        income = []
        if p.mine:
            income.append(("mine", f"{self.term('mine')} {p.mine}"))
        if p.caravan:
            income.append(("caravan", f"{self.term('caravan')} {p.caravan}"))
        if income:
            lines.append((tuple(f for f, _ in income), " · ".join(t for _, t in income)))
        bonus = []
        if p.free_cards:
            bonus.append(("free_cards", w.count(p.free_cards, "favor")))
        if p.free_stones:
            bonus.append(("free_stones", w.count(p.free_stones, "stone")))
        if p.free_gold:
            bonus.append(("free_gold", f"{p.free_gold} {self.term('gold')}"))
        if bonus:
            lines.append((tuple(f for f, _ in bonus), f"{self.term('immediate_bonus')}: "
                                                      f"{' + '.join(t for _, t in bonus)}"))
        return lines

    def _panel_static(self) -> str:
        x = PANEL_X
        out = [f'<rect x="{x - 10}" y="40" width="{PANEL_W + 20}" height="{self.height - 52}" rx="8" fill="#f8f1de" '
               f'stroke="#c9b68a"/>',
               '<g id="where"></g>',
               # the level's heading only where a module sets levels (it publishes the one reached)
               _t(x, 64, text_of(self.term("offering_level")), 12, weight="bold") if self.levels else "",
               '<g id="level"></g>',
               _t(x, self.players_y, "Players", 12, weight="bold")]
        for p in range(len(self.names)):
            out.append(f'<g id="pl{p}"></g>')
        out.append(_t(x, self.auction_y, text_of(f"{self.term('province_cards')} on auction"), 12, weight="bold"))
        out.append('<g id="auction"></g>')
        out.append(self._legend())
        return "".join(out)

    def _legend_rows(self) -> list[tuple[str, str]]:
        w = self.words
        return [
            (_field(0, 0, False), "a free field space"),
            (_field(0, 0, True), f"a field space used by a {w.t('farmer')}; n/m (+k): {w.t('farmers')} on the "
                                 f"fields / field spaces (+ {w.t('farmers')} off the fields)"),
            (_stone(0, 0), w.t("stone")),
            (_pyramid(0, 0), w.t("pyramid")),
            (_double(0, 0), w.t("double_pyramid")),
            (_card(2, 1), f"{w.t('card_symbols')}: how many {w.t('favor_plural')} its owner may buy"),
            (_temple(0, 0), w.t("temple")),
            ('<rect x="0" y="2" width="18" height="12" rx="2" fill="#c62828" fill-opacity="0.3" stroke="#c62828" '
             'stroke-width="2"/>', "held by the player of that colour"),
            (f'<rect x="0" y="2" width="18" height="12" rx="2" fill="none" stroke="{GOLD_OUTLINE}" '
             f'stroke-width="3"/>', f"on auction: each {w.t('bid_marker')} in its bidder's colour, with the bid "
                                 f"(* a note on it, said in the panel)"),
            ('<text x="2" y="13" font-size="13">★</text>', w.t("start_player")),
            (f'<rect x="0" y="2" width="18" height="12" fill="none" stroke="{PROVISIONAL}" stroke-width="1.5" '
             f'stroke-dasharray="1.5 3" stroke-linecap="round"/>',
             "dotted outline: a provisional board value (no reachable source confirms it; see docs/board.md)"),
        ]

    def _legend(self) -> str:
        x, y = PANEL_X, self.legend_y
        out = ['<g class="legend">', _t(x, y, "Legend", 12, weight="bold")]
        ry = y + 10
        for icon, label in self._legend_rows():
            out.append(f'<g transform="translate({x} {ry})">{icon}</g>')
            parts = _wrap(label, LEGEND_SIZE, LEGEND_W)
            for k, part in enumerate(parts):
                out.append(_t(x + 26, ry + 12 + SMALL_LINE * k, text_of(part), LEGEND_SIZE))
            ry += SMALL_LINE * len(parts) + 6
        out.append("</g>")
        return "".join(out)

    # -- the slots -------------------------------------------------------------------------
    def slots(self, snap) -> dict[str, str]:
        """Each slot's SVG for the position `snap` (a `Snapshot`)."""
        out = {"where": self._where(snap), "level": self._level(snap), "auction": self._auction(snap)}
        bids: dict[int, list] = {}
        for player, province, amount, note in snap.markers:
            bids.setdefault(province, []).append((amount, player, note))
        on_auction = set(snap.on_auction)
        facts = snap.facts or ((),) * len(snap.provinces)
        for pid, prov in enumerate(snap.provinces):
            key = (pid, prov, pid in on_auction, tuple(bids.get(pid, ())), facts[pid])
            cached = self._province_cache.get(key)
            if cached is None:
                cached = self._province_cache[key] = (self._owner(pid, prov[0]),
                                                      self._pieces(pid, prov, pid in on_auction, bids.get(pid, ()))
                                                      + self._facts(pid, facts[pid]))
            out[f"o{pid}"], out[f"p{pid}"] = cached
        for p, numbers in enumerate(snap.players):
            out[f"pl{p}"] = self._player(p, numbers, snap)
        return out

    def _where(self, snap) -> str:
        return _t(MAP_X, 48, text_of(_cut(snap.where, 120)), 12, fill=DIM, extra=' class="where"',
                  title=text_of(snap.where) if len(snap.where) > 120 else "")

    def _owner(self, pid: int, owner) -> str:
        if owner is None or not 0 <= owner < len(self.names):
            return ""
        x, y = self.boxes[pid]
        colour = self.colours[owner]
        light = _light(colour)
        stroke = "#6b6b6b" if light else colour
        name = _cut(self.names[owner], 14)
        # a light owner (white) would read as no owner: a dark border and its name in a badge
        badge = (f'<rect x="{x + BOX_W - 12 - _text_width(name, 11)}" y="{y + 6}" width="{_text_width(name, 11) + 8}" '
                 f'height="16" rx="3" fill="{colour}" stroke="#444" stroke-width="1.2"/>') if light else ""
        return (f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{colour}" '
                f'fill-opacity="{0.7 if colour.lower() in ("#fafafa",) else 0.22}" stroke="{stroke}" '
                f'stroke-width="3"/>' + badge
                + _t(x + BOX_W - 8, y + 18, text_of(name), 11, "end", "bold"))

    def _facts(self, pid: int, facts: tuple[str, ...]) -> str:
        """What the rule modules tell of the province (`WordsFacet.province_facts`: its income), as
        the hover text of its box and its `data-facts`, for a reader and for a test."""
        if not facts:
            return ""
        x, y = self.boxes[pid]
        said = "; ".join(facts)
        # over the lower half, where the pieces and the income stand: the name's own hover text
        # (where the province lies) stays on the upper half
        return (f'<rect class="facts" data-facts="{text_of(said)}" x="{x}" y="{y + BOX_H // 2}" width="{BOX_W}" '
                f'height="{BOX_H - BOX_H // 2}" fill="none" pointer-events="all"><title>'
                f'{text_of(self.variant.board.provinces[pid].name)}: {text_of(said)}</title></rect>')

    def _pieces(self, pid: int, prov: tuple, on_auction: bool, bids) -> str:
        owner, farmers, free_farmers, stones, pyramids, doubles, cards, gold = prov
        info = self.variant.board.provinces[pid]
        x, y = self.boxes[pid]
        w = self.words
        out = []
        for i in range(min(farmers, info.fields)):
            out.append(f'<rect x="{x + 11 + i * 20}" y="{y + 31}" width="10" height="10" rx="2" fill="{FARMER}"/>')
        count = f"{farmers}/{info.fields}" + (f" (+{free_farmers})" if free_farmers else "")
        tip = f"{w.count(farmers, 'farmer')} on {info.fields} field spaces" + (
            f", {w.count(free_farmers, 'farmer')} off the fields" if free_farmers else "")
        out.append(_t(x + BOX_W - 8, y + 41, count, 11, "end", title=text_of(tip)))
        px = x + 8
        for n, icon, width, key in ((stones, _stone, 13, "stone"), (pyramids, _pyramid, 16, "pyramid"),
                                    (doubles, _double, 21, "double_pyramid")):
            if n:
                out.append(f'<g>{icon(px, y + 52)}<title>{text_of(w.count(n, key))}</title></g>')
                out.append(_t(px + width + 2, y + 65, str(n), 12, weight="bold"))
                px += width + 8 + 8 * len(str(n))
        bottom = y + BOX_H - 9
        if on_auction:
            out.append(f'<rect x="{x - 2}" y="{y - 2}" width="{BOX_W + 4}" height="{BOX_H + 4}" rx="7" fill="none" '
                       f'stroke="{GOLD_OUTLINE}" stroke-width="4"/>')
            bx = x + 8
            for amount, player, note in sorted(bids, reverse=True):
                colour = self.colours[player]
                out.append(f'<circle cx="{bx + 7}" cy="{bottom - 4}" r="7" fill="{colour}" stroke="#333"/>')
                label = f"{amount}{'*' if note else ''}"
                out.append(_t(bx + 17, bottom, label, 11, weight="bold"))
                bx += 24 + 7 * len(label)
        if owner is None and (cards or gold):
            lying = [w.count(cards, "favor") if cards else "", f"{gold} {self.term('gold')}" if gold else ""]
            text = f"on it: {', '.join(t for t in lying if t)}"
            out.append(_t(x + 8, self._lying_y.get(pid, bottom - 16), text_of(_cut(text, 28)), SMALL, fill=INK,
                          title=text_of(text) if len(text) > 28 else ""))
        return "".join(out)

    def _level(self, snap) -> str:
        x, y = PANEL_X, 72
        if not self.levels:
            return ""
        cell = PANEL_W / self.levels
        out = []
        for n in range(1, self.levels + 1):
            cx = x + (n - 1) * cell
            current = n == snap.level
            out.append(f'<rect x="{cx:.1f}" y="{y}" width="{cell - 4:.1f}" height="34" rx="4" '
                       f'fill="{"#f2c94c" if current else "#fffaf0"}" stroke="{"#8a6400" if current else "#bba878"}" '
                       f'stroke-width="{2 if current else 1}"/>')
            name = self.words.numbered("offering_level", n)
            out.append(_t(round(cx + (cell - 4) / 2, 1), y + 15, text_of(name) if name else str(n), 12, "middle",
                          "bold" if current else "normal"))
            out.append(_t(round(cx + (cell - 4) / 2, 1), y + 30, f"level {n}", SMALL, "middle", fill=DIM))
        if not snap.level:
            said = f"no level yet (the first {self.term('offering')} sets it)"
            out.append(_t(x, y + 52, text_of(_cut(said, 48)), SMALL, fill=DIM, title=text_of(said) if len(said) > 48
                          else ""))
        else:
            out.append(_t(x, y + 52, f"level {snap.level}", SMALL, fill=DIM, extra=' class="level-now"'))
        return "".join(out)

    def _player(self, p: int, numbers, snap) -> str:
        gold, hand, theft, score = numbers
        w = self.words
        x, y = PANEL_X, self.players_y + 10 + 42 * p
        colour = self.colours[p]
        name = self.names[p]
        star = " ★" if snap.start_player == p else ""
        won = "  (winner)" if snap.finished and p in snap.winners else ""
        parts = [f"{gold} {self.term('gold')}", w.count(hand, "favor")]
        if theft:
            parts.append(w.count(theft, "theft"))
        # long names or terms (a variant's own words) are cut to the panel, whole in a tooltip
        room = int((PANEL_W - 20) / (12 * 0.62))  # bold 12 characters on the name line
        points = w.count(score, "points")
        shown_points = _cut(points, max(8, room // 2))
        label = _cut(name, max(6, min(22, room - len(shown_points) - len(star + won) - 2))) + star + won
        details = " · ".join(parts)
        most = int((PANEL_W - 20) / (SMALL * 0.6))
        return (f'<g class="player" data-player="{p}" data-name="{text_of(name)}" data-gold="{gold}" '
                f'data-hand="{hand}" data-theft="{theft}" data-score="{score}">'
                f'<rect x="{x}" y="{y}" width="14" height="14" rx="3" fill="{colour}" stroke="#444"/>'
                + _t(x + 20, y + 12, text_of(label), 12, weight="bold",
                     title=text_of(name) if label != name + star + won else "")
                + _t(x + PANEL_W, y + 12, text_of(shown_points), 12, "end", "bold",
                     title=text_of(points) if shown_points != points else "")
                + _t(x + 20, y + 28, text_of(_cut(details, most)), SMALL, fill=INK,
                     title=text_of(details) if len(details) > most else "")
                + "</g>")

    def _auction(self, snap) -> str:
        if not snap.on_auction:
            return _t(PANEL_X, self.auction_y + 18, "none", SMALL, fill=DIM)
        bids: dict[int, list] = {}
        for player, province, amount, note in snap.markers:
            bids.setdefault(province, []).append((amount, player, note))
        out = []
        y = self.auction_y + 4
        most = int((PANEL_W - 8) / (SMALL * 0.6))
        for pid in snap.on_auction:
            y += AUCTION_HEAD
            out.append(_t(PANEL_X, y, text_of(_cut(self.variant.board.provinces[pid].name, 44)), 11, weight="bold"))
            marks = sorted(bids.get(pid, ()), reverse=True)
            said = [f"{_cut(self.names[player], 22)} {amount}{f' ({note})' if note else ''}"
                    + (" (top bid)" if k == 0 else " (outbid)")
                    for k, (amount, player, note) in enumerate(marks)] or ["no bid yet"]
            together = ", ".join(said)
            # every bid is listed: all on one line when they fit, else one line each (a long
            # note cut, whole in the tooltip)
            for line in [together] if len(together) <= most else said:
                y += AUCTION_LINE
                out.append(_t(PANEL_X + 8, y, text_of(_cut(line, most)), SMALL, extra=' class="bid"',
                              title=text_of(line) if len(line) > most else ""))
        return "".join(out)

    # -- documents -------------------------------------------------------------------------
    def svg_open(self) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {self.height}" width="{WIDTH}" '
                f'height="{self.height}" font-family="{FONT}" fill="{INK}">')

    def document(self, snap) -> str:
        """The whole picture of `snap` as one SVG document."""
        filled = self.slots(snap)
        body = re.sub(r'<g id="([a-z0-9]+)"></g>', lambda m: f'<g id="{m[1]}">{filled.get(m[1], "")}</g>',
                      self.static())
        return f'<?xml version="1.0" encoding="UTF-8"?>\n{self.svg_open()}{body}</svg>\n'

