"""The human play-by-play: turns engine events into lines in the edition's own words.

Every event is narrated by whoever declared it (a rule module's `events`, or the core's
flow and shared moves, see `amunre.pipeline`); this module only provides the words: the
variant's `[terms]`, the players' names, province and card names. A 2003 game speaks of
power cards, the builder and the sacrifice; a 2016 game of Favor cards, the Architect and
the Offering.
"""

from __future__ import annotations

import re

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


class _Terms(dict):
    """`{term}` placeholders of a reason template, filled with the variant's words."""

    def __init__(self, variant):
        super().__init__()
        self.variant = variant

    def __missing__(self, key: str) -> str:
        return self.variant.term(key)


class Words:
    """What narration and option descriptions need to speak the variant's language."""

    def __init__(self, variant, names: list[str] | None = None):
        self.variant = variant
        self.names = names
        self.provinces = [p.name for p in variant.board.provinces]
        self._terms = _Terms(variant)

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

    def card_of(self, card_id: int) -> str:
        """A card by its integer id in this variant."""
        return self.t(self.variant.cards[card_id])

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
        """`word` with its indefinite article."""
        return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"

    @staticmethod
    def plural(count: int, one: str, many: str) -> str:
        return f"{count} {one if count == 1 else many}"


def item_label(variant, key: str) -> str:
    """A scoring item's label in the final table, as its module declares it."""
    return variant.modules.item_labels.get(key, key.replace("_", " "))


class Narrator:
    """Listener that writes one readable line per narrated event to `write`, its control
    characters escaped (markup is the printer's business: print it as plain text)."""

    def __init__(self, variant, write, names: list[str] | None = None):
        self.variant = variant
        self.write = write
        self.words = Words(variant, names)
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
    """A short readable label for one legal option, as the module asking it describes it."""
    if option is None:
        return "no"
    decision = words.variant.modules.decisions.get(kind)
    return str(option) if decision is None else decision.describe(option, words)
