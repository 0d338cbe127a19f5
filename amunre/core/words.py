"""The human play-by-play: turns engine events into lines in the edition's own words.

Every event is narrated by whoever declared it (a rule module's `events`, or the core's
flow and shared moves, see `amunre.core.modules`); this module only provides the words: the
variant's `[terms]`, the players' names, province and card names. A 2003 game speaks of
power cards, the builder and the sacrifice; a 2016 game of Favor cards, the Architect and
the Offering.
"""

from __future__ import annotations

import re

from amunre.core.counting import plural

#: A control character: C0 but tab and newline, DEL, C1. Printed raw, ESC, CSI (U+009B) or
#: OSC sequences would act on the terminal (clear it, retitle it, hide text) instead of showing.
#: And a lone surrogate: an undecodable byte of a file name or argument, which a UTF-8 stdout
#: refuses to write (UnicodeEncodeError).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def literal(text) -> str:
    """`text` safe to print as it is: each control character but newline and tab, and each
    lone surrogate, written as its escape (`\\x1b`, `\\r`, `\\udcff`). Everything a command
    prints that comes from a file or the command line goes through here (click.echo) or
    through `amunre.cli.common.make_console` (rich)."""
    return CONTROL.sub(lambda m: repr(m.group())[1:-1], str(text))


COLOURS = ("red", "blue", "black", "white", "yellow")


def player_names(n: int) -> list[str]:
    return [COLOURS[i] if i < len(COLOURS) else f"player {i + 1}" for i in range(n)]


class VariantTerms(dict):
    """`{term}` placeholders of a template (a reason, a decision's title), filled with the
    variant's words: `template.format_map(VariantTerms(variant))`."""

    def __init__(self, variant):
        super().__init__()
        self.variant = variant

    def __missing__(self, key: str) -> str:
        return self.variant.term(key)


#: A word's plural where the edition names only the singular (or the plural only).
_PLURAL_KEYS = {"favor": "favor_plural", "farmer": "farmers", "stone": "stones"}
_SINGULAR_KEYS = {plural: one for one, plural in _PLURAL_KEYS.items()}


class Words:
    """What narration and option descriptions need to speak the variant's language.

    `verbose`: the play-by-play shows what only `amunre run --verbose` shows (the state at
    the end of each round); an event's narration may ask it. `hide_seed`: the game's seed is
    not said (a page of one seat of a game under way: the seed tells every hidden card)."""

    def __init__(self, variant, names: list[str] | None = None, verbose: bool = False, hide_seed: bool = False):
        self.variant = variant
        self.names = names
        self.verbose = verbose
        self.hide_seed = hide_seed
        self.provinces = [p.name for p in variant.board.provinces]
        self._terms = VariantTerms(variant)

    def t(self, key: str) -> str:
        """The edition's word for an engine concept."""
        return self.variant.term(key)

    def who(self, player) -> str:
        return self.names[player] if self.names and player is not None else f"player {player}"

    def province(self, pid: int) -> str:
        return self.provinces[pid]

    def card(self, kind: str) -> str:
        """A card kind (its engine name) in the edition's words."""
        return self.t(kind)

    def card_label(self, kind: str) -> str:
        """A card's name as it stands in a list of cards already called cards: the
        `card_noun` without the word for a card (the 2003 `"8 gold"` in quotes, so that it
        never reads as money; the 2016 `Treasury`)."""
        template = self.t("card_noun")
        if "{card}" not in template:
            return self.card(kind)
        return template.replace(self.t("favor"), "").strip().replace("{card}", self.card(kind))

    def card_of(self, card_id: int) -> str:
        """A card by its integer id in this variant."""
        return self.t(self.variant.cards[card_id])

    def card_noun(self, kind: str) -> str:
        """A card kind as a noun ("builder" -> the 2003 `"builder" power card`, the 2016
        `Architect Favor card`): the term `card_noun` with `{card}` filled by the card's
        name, by default the name and the word for a card. Put `a(...)` or "the " before it."""
        template = self.t("card_noun")
        if "{card}" not in template:
            template = "{card} " + self.t("favor")
        return template.replace("{card}", self.card(kind))

    def numbered(self, key: str, n: int) -> str | None:
        """The edition's name for the n-th of a numbered term (`offering_level_2`), if it has one."""
        return self.variant.terms.get(f"{key}_{n}")

    def count(self, n: int, key: str, plural_key: str | None = None) -> str:
        """`n` things of a term, singular or plural: "1 farmer", "2 building stones",
        "1 point" (from "points"), "3 Pyramids" (from "Pyramid")."""
        return f"{n} {self.noun(n, key, plural_key)}"

    def noun(self, n: int, key: str, plural_key: str | None = None) -> str:
        """The term for `n` things (see `count`), without the number. `key` may name the
        singular ("farmer", "pyramid") or, where the edition has only that, the plural
        ("points"); a missing form is made by adding or taking off an "s"."""
        if key in _SINGULAR_KEYS:
            key = _SINGULAR_KEYS[key]
        plural_key = plural_key or _PLURAL_KEYS.get(key)
        word = self.t(key)
        if n == 1:
            return word[:-1] if plural_key is None and key.endswith("s") and word.endswith("s") else word
        if plural_key is not None:
            return self.t(plural_key)
        return word if word.endswith("s") else word + "s"

    def total(self, n: int) -> str:
        """A player's running total after a score line, in points so it never reads as a
        count of what scored: "now 19 points in all"."""
        return f"now {self.count(n, 'points')} in all"

    def scored(self, e, why: str) -> str:
        """The play-by-play line of a scoring event `e` (its player, points, item and running
        total) that scored for `why`: "  red scores 3 points for temples: ...; now 19 points in all."."""
        return (f"  {self.who(e['player'])} scores {self.count(e['points'], 'points')} for "
                f"{self.item_label(e['item'])}: {why}; {self.total(e['total'])}.")

    def names_of(self, players) -> str:
        """Players' names joined as a list ("red, blue and white")."""
        return self.join([self.who(p) for p in players])

    @staticmethod
    def join(parts, last: str = "and") -> str:
        """Words joined as a list: "a", "a and b", "a, b and c"."""
        parts = list(parts)
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + f" {last} " + parts[-1]

    def item_label(self, key: str) -> str:
        return item_label(self.variant, key)

    def reason(self, why: str, fallback: str | None) -> str | None:
        """How the `why` of a payment or a receipt reads (None: said by another line)."""
        reasons = self.variant.modules.reasons
        if why not in reasons:
            return fallback
        template = reasons[why]
        return None if template is None else template.format_map(self._terms)

    @staticmethod
    def a(word: str) -> str:
        """`word` with its indefinite article, as it is said: "an 8 gold card", "an "overbid"
        card", "a 1 gold card", "an 11", "a -3 card" (a minus three)."""
        return f"{'an' if _sounds_like_a_vowel(word) else 'a'} {word}"

    @staticmethod
    def plural(count: int, one: str, many: str) -> str:
        return plural(count, one, many)

    @staticmethod
    def ordinal(n: int) -> str:
        """1st, 2nd, 3rd, 4th, 11th, 21st."""
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"


def _sounds_like_a_vowel(word: str) -> bool:
    """Whether `word` is said starting with a vowel sound (for "an"): a vowel letter, or a
    number said "eight...", "eleven", "eighteen"; quotes and brackets before it are skipped."""
    text = word.lstrip("\"'“‘([ ")
    if not text:
        return False
    if text[0].isdigit():
        digits = text[:len(text) - len(text.lstrip("0123456789"))]
        # 8, 80-89, 800-899, ..., 11, 18, 11000-11999, 18000-18999 ...
        return digits[0] == "8" or (len(digits) % 3 == 2 and digits[:2] in ("11", "18"))
    return text[0].lower() in "aeiou"


def item_label(variant, key: str) -> str:
    """A scoring item's label in the final table, as its module declares it."""
    return variant.modules.item_labels.get(key, key.replace("_", " "))


class Narrator:
    """Listener that writes one readable line per narrated event to `write`, its control
    characters escaped (markup is the printer's business: print it as plain text).
    `verbose`: also what only `--verbose` shows (see `Words.verbose`)."""

    def __init__(self, variant, write, names: list[str] | None = None, verbose: bool = False,
                 hide_seed: bool = False):
        self.variant = variant
        self.write = write
        self.words = Words(variant, names, verbose, hide_seed)
        self.events = variant.modules.events

    def __call__(self, event: dict) -> None:
        if event["event"] == "setup" and self.words.names is None:
            self.words.names = player_names(event["players"])
        declared = self.events.get(event["event"])
        if declared is not None:
            line = declared.narrate(event, self.words)
            if line:
                self.write(literal(line))  # names and terms come from files: never a control sequence


def describe_option(words: Words, kind: str, option) -> str:
    """A short readable label for one legal option, as the module asking it describes it
    (None: its `none` words, else "no")."""
    decision = words.variant.modules.decisions.get(kind)
    if option is None:
        return decision.none(words) if decision is not None and decision.none is not None else "no"
    return str(option) if decision is None else decision.describe(option, words)
