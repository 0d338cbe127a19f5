"""The score sheets of a table: one per kingdom's scoring and one for the final scoring.

A listener of the game's events (as `amunre.picture.steps.Follower` is), reading only what
the whole table is told: a `scoring` or `final_scoring` event opens a sheet, each `score`
event adds its points to its item's row (points scored between two scorings, a temple's at a
harvest under a house rule, go to the next sheet: they count in that kingdom too), and the
`scoring_end` or `game_end` event closes it. Every `score` event carries the player's running
total, which the sheet keeps. Items are named as the variant's modules name them
(`Words.item_label`), a plug-in's items too, in the order they were first scored.
"""

from __future__ import annotations

from amunre.core.words import Words


class ScoreSheets:
    """Listener: `sheets`, the finished sheets as page data (dicts), oldest first."""

    def __init__(self, variant, names: list[str]):
        self.words = Words(variant, names)
        self.players = len(names)
        self.sheets: list[dict] = []
        self.running = [0] * self.players
        self._rows: dict[str, list[int]] = {}  # item key -> points by seat, since the last sheet
        self._title: str | None = None
        self._kingdom = 0

    def __call__(self, event: dict) -> None:
        name = event["event"]
        if name == "scoring":
            self._kingdom = event["kingdom"]
            self._title = f"{event['name']}: {self.words.t('scoring')}"
        elif name == "final_scoring":
            final = self.words.t("final_scoring")
            self._title = final[:1].upper() + final[1:]
        elif name == "score":
            row = self._rows.setdefault(event["item"], [0] * self.players)
            row[event["player"]] += event["points"]
            self.running[event["player"]] = event["total"]
        elif name in ("scoring_end", "game_end") and self._title is not None:
            self._close()

    def _close(self) -> None:
        items = [{"key": key, "name": self.words.item_label(key), "points": points}
                 for key, points in self._rows.items()]
        totals = [sum(item["points"][p] for item in items) for p in range(self.players)]
        self.sheets.append({"title": self._title, "kingdom": self._kingdom, "items": items, "totals": totals,
                            "running": list(self.running)})
        self._rows, self._title = {}, None
