"""The last move of a table that was about a province, for its board to highlight.

A listener of the game's `answer` events. The engine emits a secret answer only when its
batch is revealed, so every answer it hears is one the whole table may see. The province an
answer is about is the one its decision names (`Decision.province_of`, as the page outlines
the provinces a pending decision's options are about).
"""

from __future__ import annotations

from amunre.core.decisions import from_json_value
from amunre.core.words import Words, describe_option


class LastMove:
    """Listener: `seat`, `province` and `text` (in the variant's words) of the latest answer
    about a province; `province` None before any."""

    def __init__(self, variant, names: list[str]):
        self.decisions = variant.modules.decisions
        self.words = Words(variant, names)
        self.seat: int | None = None
        self.province: int | None = None
        self.text = ""

    def __call__(self, event: dict) -> None:
        if event["event"] != "answer":
            return
        decision = self.decisions.get(event["kind"])
        if decision is None:
            return
        option = from_json_value(event["answer"]) if isinstance(event["answer"], list) else event["answer"]
        where = decision.province_of(option)
        if where is None:
            return
        self.seat, self.province = event["player"], where
        self.text = f"{self.words.who(event['player'])}: {describe_option(self.words, event['kind'], option)}"

    def as_data(self) -> dict | None:
        return None if self.province is None else {"seat": self.seat, "province": self.province, "text": self.text}
