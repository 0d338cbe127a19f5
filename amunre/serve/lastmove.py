"""The latest move of a table, in words, and the province it was about (the board frames it).

A listener of the game's `answer` events. The engine emits a secret answer only when its
batch is revealed, so every answer it hears is one the whole table may see. Every answer a
player chose (not one forced: a single option) is the latest move, whatever it was about;
its words are the decision's title ("placing a farmer") and the option as the module
describes it ("Abydos"); a declined one is said as the player chose it ("buy no farmers").
The province is the one its decision names (`Decision.province_of`, as the page outlines
the provinces a pending decision's options are about), or None.
"""

from __future__ import annotations

from amunre.core.decisions import from_json_value
from amunre.core.words import VariantTerms, Words, describe_option

#: How a card's option begins ("play it: a pyramid in Sawu", "play it on Abu"): said after
#: the decision's title ("playing the architect card"), these words only repeat it.
_PLAY_IT = ("play it: ", "play it ")


def move_words(words: Words, player: int, kind: str, option) -> str:
    """What a player did: "white, placing a farmer: Abydos", "black, playing the architect
    card: a pyramid in Sawu"; a declined one as he chose it ("red chose: buy no farmers")."""
    who = words.who(player)
    what = describe_option(words, kind, option)
    if option is None:  # (the title would say he did what he declined: "playing the card")
        return f"{who} chose: {what}"
    decision = words.variant.modules.decisions.get(kind)
    title = decision.title if decision is not None and decision.title else kind.replace("_", " ")
    title = title.format_map(VariantTerms(words.variant))
    for opening in _PLAY_IT:
        if what.startswith(opening):
            return f"{who}, {title}{': ' if opening.endswith(': ') else ' '}{what[len(opening):]}"
    return f"{who}, {title}: {what}"


class LastMove:
    """Listener: `seat`, `province` (None where the move was about none) and `text` (in the
    variant's words) of the latest move; `seat` None before any."""

    def __init__(self, variant, names: list[str]):
        self.decisions = variant.modules.decisions
        self.words = Words(variant, names)
        self.seat: int | None = None
        self.province: int | None = None
        self.text = ""

    def __call__(self, event: dict) -> None:
        if event["event"] != "answer" or event.get("options", 2) < 2:
            return
        option = from_json_value(event["answer"]) if isinstance(event["answer"], list) else event["answer"]
        decision = self.decisions.get(event["kind"])
        self.seat = event["player"]
        self.province = None if decision is None else decision.province_of(option)
        self.text = move_words(self.words, event["player"], event["kind"], option)

    def as_data(self) -> dict | None:
        return None if self.seat is None else {"seat": self.seat, "province": self.province, "text": self.text}
