"""Per-game statistics for `amunre compare`: one record of numbers per game.

Two kinds of numbers make a record. The game's own, the same for every variant: the winning
score, each seat's share of the win, the gold left at the end, whether a tie-break decided
the winner, the decisions asked. And the rule modules' own, read from the events they emit
as their `Event.statistics` declare (`amunre.contract.Statistic`): points per scoring item,
pyramids built, the price paid in the auction, the offering levels reached. A new rule
module's statistics therefore appear in compare without a change here.

`StatsCollector` listens only to the events that declare statistics (`listens_to`), so the
rules build no other event and recording costs little over a bare playout.
"""

from __future__ import annotations

from amunre.narrate import item_label

#: The game's own rows, in table order: key -> label (terms in braces).
CORE_ROWS = {
    "winning_score": "winning score ({points})",
    "tie_break": "games decided by a tie-break",
    "gold_end": "{gold} per player at the end",
    "decisions": "decisions asked per game",
}


def seat_key(seat: int) -> str:
    return f"win.seat{seat + 1}"


class StatsCollector:
    """A listener for one game at a time: `reset()`, play, then `record(game)`."""

    def __init__(self, variant):
        self.variant = variant
        self._by_event: dict[str, list] = {}
        for name, event in variant.modules.events.items():
            if event.statistics:
                self._by_event[name] = list(event.statistics)
        self.listens_to = frozenset(self._by_event)
        self._always: set[str] = set()  # rows every game has (0 without their events)
        self.labels: dict[str, str] = {}  # row key -> words, filled as rows are seen
        self.modes: dict[str, str] = {}  # row key -> per_game mode
        self.groups: dict[str, str] = {}  # row key -> its statistic's key template (a "share" group)
        # every scoring item has its row, even one that scores nothing in a game
        for item in variant.modules.item_labels:
            for stat in self._by_event.get("score", ()):
                self._always_row(stat, {"event": "score", "item": item})
        for module in variant.modules.all:
            for name, event in module.events.items():
                for stat in event.statistics:
                    for fields in stat.always(module) if stat.always else ():
                        self._always_row(stat, {"event": name, **fields})
        self.reset()

    def _always_row(self, stat, event: dict) -> None:
        key = stat.key.format_map(event)
        self._learn(stat, key, event)
        self._always.add(key)

    def reset(self) -> None:
        self._sums: dict[str, float] = {}
        self._counts: dict[str, int] = {}
        self._group_counts: dict[str, int] = {}

    def __call__(self, event: dict) -> None:
        for stat in self._by_event[event["event"]]:
            key = stat.key.format_map(event) if "{" in stat.key else stat.key
            if key not in self.modes:
                self._learn(stat, key, event)
            value = stat.value(event)
            if value is None:
                continue
            self._sums[key] = self._sums.get(key, 0) + value
            self._counts[key] = self._counts.get(key, 0) + 1
            if stat.per_game == "share":
                self._group_counts[stat.key] = self._group_counts.get(stat.key, 0) + 1

    def _learn(self, stat, key: str, event: dict) -> None:
        # the fields that make the rows (those in the key) fill the label; other names are terms
        fields = _Words(self.variant, {name: event[name] for name in _fields(stat.key)})
        self.labels[key] = stat.label.format_map(fields)
        self.modes[key] = stat.per_game
        self.groups[key] = stat.key

    def record(self, game) -> dict[str, float]:
        """The numbers of the finished `game`: core rows, seats' wins, module statistics."""
        state = game.state
        n = state.n_players
        scores = [p.score for p in state.players]
        winners = state.winners
        top = max(scores)
        values: dict[str, float] = {
            "winning_score": top,
            "tie_break": 1.0 if scores.count(top) > len(winners) else 0.0,
            "gold_end": sum(p.gold for p in state.players) / n,
            "decisions": len(game.answers),
        }
        for seat in range(n):
            values[seat_key(seat)] = 1 / len(winners) if seat in winners else 0.0
        # this game's rows only (and every scoring item's): a record never depends on the
        # games played before it in the same process
        for key in [k for k in self.modes if k in self._sums or k in self._always]:
            mode = self.modes[key]
            total = self._sums.get(key)
            if mode == "mean":
                if total is not None:
                    values[key] = total / self._counts[key]
            elif mode == "share":
                group = self._group_counts.get(self.groups[key], 0)
                if group:
                    values[key] = (total or 0) / group
            elif mode == "per_player":
                values[key] = (total or 0) / n
            else:
                values[key] = total or 0
        return values


def missing_means_zero(mode: str) -> bool:
    """Whether a game without a row's events counts 0 for it (a sum or a share), rather than
    having no value (a mean of nothing)."""
    return mode in ("sum", "per_player", "share")


def _fields(template: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


class _Words(dict):
    """Fields for a statistic's label: the event's own, `item` as the scoring item's label,
    and the variant's terms for any other name."""

    def __init__(self, variant, event: dict):
        super().__init__(event)
        self.variant = variant
        if "item" in event:
            self["item"] = item_label(variant, event["item"])

    def __missing__(self, name: str) -> str:
        return self.variant.term(name)


def core_label(variant, key: str) -> str:
    """The words of a core row (or a seat's win row) in the variant's terms."""
    if key.startswith("win.seat"):
        return f"win rate, seat {key[len('win.seat'):]}"
    return CORE_ROWS[key].format_map(_Words(variant, {}))
