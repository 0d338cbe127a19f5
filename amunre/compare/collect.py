"""Per-game statistics for `amunre compare`: one record of numbers per game.

Two kinds of numbers make a record. The game's own, the same for every variant: the winning
score and how close the game was (the margin of victory, the spread of the scores, a win by
`CLOSE` points or less, a tie-break), whether the leader after the first kingdom won and how
often the lead changed hands, each seat's and the first start player's share of the win, the
gold left at the end, the length (rounds, decisions), and for each scoring item its share of
the winner's points and of the others', and how players whose largest item it is fare. And the
rule modules' own, read from the events they emit
as their `Event.statistics` declare (`amunre.core.contract.Statistic`): points per scoring item,
pyramids built, the price paid in the auction, the offering levels reached. A new rule
module's statistics therefore appear in compare without a change here.

Each rule module's row is also counted per kingdom (`kingdom_key`: `kingdom1.pyramids_built`),
in the same per-game mode: a kingdom's events run from the end of the kingdom before's scoring
(the core's `scoring_end`, heard anyway for the lead rows) to the end of its own, so what its
start and its scoring do counts in it, and the final scoring counts in the last kingdom. A sum
(and a per-player sum) over the kingdoms is the whole game's; a mean or a share is the
kingdom's own events' (docs/compare.md, "By kingdom").

`StatsCollector` listens only to the events that declare statistics (`listens_to`), so the
rules build no other event and recording costs little over a bare playout. A batch gives the
engine its `listener`, a plain function with the same attributes, cheaper to call per event. A batch's games are
kept (`keep`) and their rows made at once, column-wise (`columns`, `amunre.compare.columns`):
the rule modules' rows from each game's sums per kingdom, a few list operations a row rather
than a dict entry per row and game.
"""

from __future__ import annotations

import string
from collections import OrderedDict
from collections.abc import Callable
from itertools import repeat
from operator import add, truediv
from typing import Any

import attrs

from amunre.compare.columns import Columns
from amunre.core.contract import Statistic
from amunre.core.kept import keep_most_recent
from amunre.core.mechanics.events import EVENTS as CORE_EVENTS_DECLARED
from amunre.core.standing import ranks
from amunre.core.words import Words, item_label

#: The game's own rows, in table order: key -> label (terms in braces).
CORE_ROWS = {
    "winning_score": "winning score ({points})",
    "margin": "margin of victory ({points}, winner less runner-up)",
    "spread": "spread of the final scores ({points}, sd over the players)",
    "close": "games won by {close} {points} or less",
    "tie_break": "games decided by a tie-break",
    "leader_wins": "games won by a leader after the first kingdom",
    "lead_changes": "lead changes per game (kingdom to kingdom)",
    "start_player_wins": "win rate of the first round's start player",
    "gold_end": "{gold} per player at the end",
    "rounds": "rounds per game",
    "decisions": "decisions asked per game",
}
#: The game's own rows that are proportions of games (a rate, Wilson's interval).
CORE_RATES = frozenset({"close", "tie_break", "leader_wins", "start_player_wins"})
#: A game won by this many points or fewer counts as close.
CLOSE = 2
#: The core events the collector hears beside the modules' statistics: the first start
#: player, each round, and the scores at each kingdom's end.
CORE_EVENTS = frozenset({"setup", "round", "scoring_end"})
#: The core's event of points scored (`add_points`): its row per scoring item is read from the
#: players' breakdown by kingdom and item where the variant keeps the core's declaration.
SCORE_EVENT = "score"
#: Rows per scoring item (`item_rows`): key prefix -> (label, per-game mode): shares of the
#: points within a game ("fraction": a mean) and a proportion of games ("rate": Wilson's).
ITEM_ROWS = {
    "item_share.winner.": ("{item}: winner's share of {points}", "fraction"),
    "item_share.others.": ("{item}: the others' share of {points}", "fraction"),
    "item_wins.": ("{item}: win rate where it is a player's largest item", "rate"),
}


#: A row of options per decision has this prefix and the decision's kind (`options.bid`).
OPTIONS_PREFIX = "options."
#: Those rows, one per decision kind asked: the engine counts them (`Game.listen`'s
#: `options_offered`), no event; `{decision}` is the decision's `title` in the variant's terms.
_OPTIONS_ROW = Statistic(OPTIONS_PREFIX + "{decision}", "options per decision: {decision}", per_game="mean")
#: A row of how often a game decides a kind that declares `Decision.counted` (`decided.bid`).
DECIDED_PREFIX = "decided."
#: A row of the sum of a game's answers to a kind that declares `Decision.summed` (`summed.buy_cards`).
SUMMED_PREFIX = "summed."


#: `Statistic.value`'s default: an event counts 1.
_COUNT_ONE = attrs.fields(Statistic).value.default


class _Ready:
    """A statistic made ready for `StatsCollector.__call__`: its row's slot once known (a key
    without fields: `fixed`), or the field its key adds to a prefix (`prefix{field}`) with the
    slots found per value of that field, or neither (any other template, formatted at each
    event); its `value` (None: an event adds 1, no call); its share group (its key template)
    or None."""

    __slots__ = ("stat", "slot", "fixed", "prefix", "field", "slots", "value", "group")

    def __init__(self, stat: Statistic):
        self.stat = stat
        self.slot: int | None = None
        self.value = None if stat.value is _COUNT_ONE else stat.value
        self.group = stat.key if stat.per_game == "share" else None
        self.prefix, self.field = "", None
        self.slots: dict[Any, int] = {}  # a value of the field -> its row's slot
        parts = list(_FORMATTER.parse(stat.key))
        self.fixed = len(parts) == 1 and parts[0][1] is None  # no field: the key itself
        if len(parts) == 1 and parts[0][1] and not parts[0][2] and not parts[0][3] and parts[0][1].isidentifier():
            self.prefix, self.field = parts[0][0], parts[0][1]  # `prefix{field}`: joined, not formatted

    def copy(self) -> _Ready:
        """The same statistic made ready, with slots of its own (what one collector learns
        is not another's)."""
        twin = _Ready.__new__(_Ready)
        for name in _Ready.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.slots = dict(self.slots)
        return twin


def seat_key(seat: int) -> str:
    return f"win.seat{seat + 1}"


#: The record's key of the seats' final ranks (a tuple, 1: a winner): not a row, the tally
#: takes it out for the one-number outcome rows (`amunre.compare.outcomes`).
RANKS = "ranks"

#: A by-kingdom row's key is its row's key after this prefix and the kingdom's number (from 1).
KINGDOM_PREFIX = "kingdom"


def kingdom_key(key: str, kingdom: int) -> str:
    """The key of row `key` in kingdom `kingdom` (counted from 0): `kingdom1.pyramids_built`."""
    return f"{KINGDOM_PREFIX}{kingdom + 1}.{key}"


def kingdom_of(key: str) -> tuple[int, str] | None:
    """A by-kingdom row's kingdom (from 0) and its row's key; None for any other row."""
    if not key.startswith(KINGDOM_PREFIX):
        return None
    number, dot, row = key[len(KINGDOM_PREFIX):].partition(".")
    return (int(number) - 1, row) if dot and number.isdigit() and int(number) > 0 else None


#: Per variant (by identity), a collector made and never played, that `StatsCollector.for_variant`
#: copies (it holds its variant, so the identity is not another variant's while it is here);
#: the most recently asked for last.
_TEMPLATES: OrderedDict[int, StatsCollector] = OrderedDict()
#: How many variants' templates a process keeps (the least recently asked for let go first): a
#: long-lived worker of many comparisons does not grow, and a sweep's columns all stay.
TEMPLATES_KEPT = 128


class StatsCollector:
    """A listener for one game at a time: `reset()`, play, then `keep(game)` (a batch's games,
    made into rows by `columns()`) or `record(game)` (that game's numbers alone)."""

    @classmethod
    def for_variant(cls, variant) -> StatsCollector:
        """A new collector of `variant`, as `StatsCollector(variant)` makes it, copied from one
        made once per variant and process (`prepare`) and never played, so that it holds no
        row a game taught it: a batch's collectors cost a copy rather than reading the
        variant's statistics, items and decisions again."""
        return cls.prepare(variant)._copy()

    @classmethod
    def prepare(cls, variant) -> StatsCollector:
        """The collector of `variant` that `for_variant` copies, made the first time it is asked
        for in this process (a worker asks as it loads a job's variant: `amunre.compare.jobs`).
        Never played: only copies hear games."""
        template = _TEMPLATES.get(id(variant))
        if template is None or template.variant is not variant:
            template = _TEMPLATES[id(variant)] = cls(variant)
        _TEMPLATES.move_to_end(id(variant))
        keep_most_recent(_TEMPLATES, TEMPLATES_KEPT)
        return template

    def _copy(self) -> StatsCollector:
        """A collector as this one stands, with every container its own: each dict, list and
        set copied (their contents are strings, numbers, tuples, labels), the statistics made
        ready copied with their slots (`_Ready.copy`), the per-game lists made anew (`reset`)
        and a listener of its own."""
        twin = StatsCollector.__new__(StatsCollector)
        state = vars(twin)
        for name, value in vars(self).items():
            state[name] = value.copy() if isinstance(value, (dict, list, set)) else value
        twin._by_event = {name: [ready.copy() for ready in readies] for name, readies in self._by_event.items()}
        twin._score_ready = twin._by_event[SCORE_EVENT][0] if self._score_ready is not None else None
        twin.reset()
        twin.listener = twin._make_listener()
        return twin

    def __init__(self, variant):
        self.variant = variant
        self._words: Words | None = None  # for labels a template cannot say, made when one needs it
        # per event, each statistic made ready for the few lines of `__call__` (`_Ready`)
        self._by_event: dict[str, list[_Ready]] = {}
        for name, event in variant.modules.events.items():
            if event.statistics:
                self._by_event[name] = [_Ready(stat) for stat in event.statistics]
        # the core's `score` event as the core declares it: its points per item and kingdom are
        # read from the players' breakdown at the end (`_points_from_breakdown`), the same
        # numbers without an event per score (the most frequent event of a game)
        self.points_by_breakdown = variant.modules.events.get(SCORE_EVENT) is CORE_EVENTS_DECLARED[SCORE_EVENT]
        # (the statistic of `points.{item}`, made ready)
        self._score_ready = self._by_event[SCORE_EVENT][0] if SCORE_EVENT in self._by_event else None
        heard = set(self._by_event)
        if self.points_by_breakdown:
            heard.discard(SCORE_EVENT)
        self.listens_to = frozenset(heard) | CORE_EVENTS
        #: filled by the engine while a game plays (`Game.listen`): per decision kind asked,
        #: [times asked, options offered in all, times forced]; emptied at each kingdom's end
        #: (`_count_options`), so it holds the current kingdom's
        self.options_offered: dict[str, list[int]] = {}
        #: filled by the engine too: the sum of the answers to each decision kind that
        #: declares `Decision.summed` in the current kingdom (0 for each before a kingdom)
        self.answers_summed: dict[str, float] = {
            kind: 0 for kind, decision in variant.modules.decisions.items() if decision.summed}
        self._kingdoms = len(variant.edition.kingdoms)
        self.kingdom_keys: dict[str, tuple[str, ...]] = {}  # a rule module's row key -> its by-kingdom keys, made once
        self.labels: dict[str, str] = {}  # row key -> words, filled as rows are seen
        self.modes: dict[str, str] = {}  # row key -> per_game mode
        self.groups: dict[str, str] = {}  # row key -> its statistic's key template (a "share" group)
        # the rule modules' rows (and the options' and answers') by slot, a number fixed for the
        # collector's life: events add to lists indexed by slot, turned into rows at the game's end
        self._slot_of: dict[str, int] = {}  # row key -> its slot
        self._slot_keys: list[str] = []  # slot -> row key
        self._slot_modes: list[str] = []  # slot -> per_game mode
        self._slot_splits: list[tuple[str, ...]] = []  # slot -> its by-kingdom keys
        self._always: list[int] = []  # the slots of rows every game has (0 without their events)
        self._share_rows: list[int] = []  # the slots of the share rows
        # per kingdom, per slot: the sum of the values its events added and how many added one
        self._totals: list[list[float]] = [[] for _ in range(self._kingdoms)]
        self._events: list[list[int]] = [[] for _ in range(self._kingdoms)]
        # breakdown key (`KINGDOM:ITEM`) -> (its item if the variant's, its kingdom, its points row's slot)
        self._breakdown_keys: dict[str, tuple[str | None, int, int | None]] = {}
        # a decision kind -> the slot of its options' row, of its decided row (None: it counts
        # none), of its answers' sum
        self._options_slots: dict[str, int] = {}
        self._decided_slots: dict[str, int | None] = {}
        self._summed_slots: dict[str, int] = {}
        # per scoring item, its rows' keys (`ITEM_ROWS`), made once
        self._seat_keys_made: dict[int, tuple[str, ...]] = {}  # players -> the seats' win rows' keys
        self._item_keys = {item: tuple(prefix + item for prefix in ITEM_ROWS) for item in variant.modules.item_labels}
        # every scoring item has its row, even one that scores nothing in a game
        for item in variant.modules.item_labels:
            for ready in self._by_event.get("score", ()):
                self._always_row(ready.stat, {"event": "score", "item": item})
            for prefix, (label, mode) in ITEM_ROWS.items():
                key = prefix + item
                self.labels[key] = label.format_map(_Words(variant, {"item": item}))
                self.modes[key], self.groups[key] = mode, key
        for module in variant.modules.all:
            for name, event in module.events.items():
                for stat in event.statistics:
                    for fields in stat.always(module) if stat.always else ():
                        self._always_row(stat, {"event": name, **fields})
        # the games kept for the batch's `columns`: each one's game rows, and its modules' sums
        # and counts per kingdom (the lists `reset` makes anew for each game) and players
        self._kept: list[dict[str, Any]] = []
        self._kept_modules: list[tuple] = []
        self.reset()
        #: what to give the engine as the listener (`Game.listen`): the same as the collector
        #: itself, heard at less cost
        self.listener = self._make_listener()

    def _always_row(self, stat, event: dict) -> None:
        slot = self._slot_for(stat, stat.key.format_map(event), event)
        if slot not in self._always:
            self._always.append(slot)

    def reset(self) -> None:
        # per kingdom: the slots' sums and events (`_totals`, `_events`), and each share group's
        # events; an event adds to the current kingdom's only (the game's are their sums, at the end)
        rows = len(self._slot_keys)
        self._totals = [[0] * rows for _ in range(self._kingdoms)]
        self._events = [[0] * rows for _ in range(self._kingdoms)]
        self._per_kingdom_groups: list[dict[str, int]] = [{} for _ in range(self._kingdoms)]
        self._kingdom = 0
        self._sums, self._counts, self._group_counts = self._totals[0], self._events[0], self._per_kingdom_groups[0]
        self._start_player: int | None = None
        self._rounds = 0
        self._kingdom_scores: list[list[float]] = []  # the scores at each kingdom's end
        self.options_offered.clear()  # (the dicts the next game's engine fills: the same ones)
        summed = self.answers_summed
        for kind in summed:
            summed[kind] = 0

    def __call__(self, event: dict) -> None:
        self.listener(event)

    def _make_listener(self) -> Callable[[dict], None]:
        """The function that hears a game's events for this collector (`listener`), with the
        attributes the engine reads (`Game.listen`): a plain function, which the engine's
        `emit` calls as cheaply as a call can be, where an object's `__call__` is called
        through a slower path at each of a game's events."""
        by_event, core_events = self._by_event, CORE_EVENTS

        def hear(event: dict) -> None:
            name = event["event"]
            if name in core_events:
                if name == "round":
                    self._rounds += 1
                elif name == "setup":
                    self._start_player = event["start_player"]
                else:
                    self._kingdom_scores.append(list(event["scores"]))
                    # the next kingdom begins (the final scoring is the last's)
                    if self._kingdom + 1 < self._kingdoms:
                        self._count_options()
                        k = self._kingdom = self._kingdom + 1
                        self._sums, self._counts, self._group_counts = (
                            self._totals[k], self._events[k], self._per_kingdom_groups[k])
                return
            sums, counts = self._sums, self._counts
            for ready in by_event[name]:
                field = ready.field
                if field is not None:  # `prefix{field}`: the slot of the field's value, found once
                    found = event[field]
                    try:
                        slot = ready.slots.get(found)
                    except TypeError:  # (a value that is no dict key: its key's slot each time)
                        slot = self._slot_for(ready.stat, ready.prefix + str(found), event)
                    if slot is None:
                        slot = ready.slots[found] = self._slot_for(ready.stat, ready.prefix + str(found), event)
                else:
                    slot = ready.slot
                    if slot is None:
                        slot = self._slot_for(ready.stat, ready.stat.key.format_map(event), event)
                        if ready.fixed:  # (any other template is formatted at each event)
                            ready.slot = slot
                value_of = ready.value
                if value_of is None:
                    sums[slot] += 1
                else:
                    value = value_of(event)
                    if value is None:
                        continue
                    sums[slot] += value
                counts[slot] += 1  # (every row's: a row had events in a kingdom where it counts one)
                group = ready.group
                if group is not None:  # a share's events are counted per group too
                    self._group_counts[group] = self._group_counts.get(group, 0) + 1

        vars(hear).update(listens_to=self.listens_to, options_offered=self.options_offered,
                          answers_summed=self.answers_summed)
        return hear

    def _slot_for(self, stat, key: str, event: dict) -> int:
        """The slot of row `key` of `stat`, learnt (`_learn`) the first time it is seen;
        `event` gives the fields of its label."""
        slot = self._slot_of.get(key)
        if slot is not None:
            return slot
        if key not in self.modes:
            self._learn(stat, key, event)
        slot = self._slot_of[key] = len(self._slot_keys)
        self._slot_keys.append(key)
        self._slot_modes.append(self.modes[key])
        self._slot_splits.append(self.kingdom_keys[key])
        if self.modes[key] == "share":
            self._share_rows.append(slot)
        for sums, counts in zip(self._totals, self._events):  # (the current game's lists grow)
            sums.append(0)
            counts.append(0)
        return slot

    def _count_options(self) -> None:
        """The current kingdom's decisions, from the engine's counts since the kingdom before's
        end: per kind asked, its options per decision (a mean row, `OPTIONS_PREFIX`); for a
        kind that declares `Decision.counted`, how often it was decided (a sum, `DECIDED_PREFIX`),
        and for one that declares `Decision.summed`, the sum of its answers (`SUMMED_PREFIX`).
        The counts are then emptied in place (the engine keeps filling the same dicts), so the
        next kingdom's are its own."""
        sums, counts = self._sums, self._counts
        decisions = self.variant.modules.decisions
        offered = self.options_offered
        # (each kind's rows' slots, kept by kind: no key string made and hashed a kingdom)
        options_slots, decided_slots, summed_slots = self._options_slots, self._decided_slots, self._summed_slots
        for kind, (asked, options, forced) in offered.items():
            if asked:
                slot = options_slots.get(kind)
                if slot is None:
                    key = OPTIONS_PREFIX + kind
                    slot = options_slots[kind] = self._slot_for(_OPTIONS_ROW, key, {"decision": self._title(kind)})
                sums[slot] += options
                counts[slot] += asked
            if asked + forced:
                if kind in decided_slots:
                    slot = decided_slots[kind]
                else:  # (None for a kind that declares no `Decision.counted`)
                    decision = decisions.get(kind)
                    slot = decided_slots[kind] = None if decision is None or not decision.counted else self._slot_for(
                        Statistic(DECIDED_PREFIX + kind, decision.counted), DECIDED_PREFIX + kind, {})
                if slot is not None:
                    sums[slot] += asked + forced
                    counts[slot] += 1
        offered.clear()
        summed = self.answers_summed
        for kind, total in summed.items():  # every game has these rows (0 without an answer)
            slot = summed_slots.get(kind)
            if slot is None:
                key = SUMMED_PREFIX + kind
                slot = summed_slots[kind] = self._slot_for(Statistic(key, decisions[kind].summed), key, {})
            sums[slot] += total
            counts[slot] += 1
            summed[kind] = 0

    def _title(self, kind: str) -> str:
        """A decision kind in the variant's words: its `Decision.title`, else its kind spaced."""
        decision = self.variant.modules.decisions.get(kind)
        title = decision.title if decision is not None and decision.title else kind.replace("_", " ")
        return title.format_map(_Words(self.variant, {}))

    def _learn(self, stat, key: str, event: dict) -> None:
        # the fields that make the rows (those in the key) fill the label; other names are terms
        fields = {name: event[name] for name in _fields(stat.key)}
        if callable(stat.label):
            if self._words is None:
                self._words = Words(self.variant)
            self.labels[key] = stat.label(fields, self._words)
        else:
            self.labels[key] = stat.label.format_map(_Words(self.variant, fields))
        self.modes[key] = stat.per_game
        self.groups[key] = stat.key
        # its rows per kingdom: the same words (the table names the kingdom) and mode; a share
        # is of its group's events in the same kingdom
        self.kingdom_keys[key] = keys = tuple(kingdom_key(key, k) for k in range(self._kingdoms))
        for k, by_kingdom in enumerate(keys):
            self.labels[by_kingdom] = self.labels[key]
            self.modes[by_kingdom] = stat.per_game
            self.groups[by_kingdom] = kingdom_key(stat.key, k)

    def seats(self, game, lineup) -> list[dict]:
        """The seats' records of the finished `game` (`seat_records`)."""
        return seat_records(self.variant, game, lineup)

    def keep(self, game) -> dict[str, Any]:
        """Keep the finished `game`'s numbers for the batch's `columns` and return its game rows
        (the core rows, seats' wins, items' and modules' shares, ranks: the caller may add rows
        to it before the next game)."""
        values, modules = self._finish(game)
        self._kept.append(values)
        self._kept_modules.append(modules)
        return values

    def columns(self) -> Columns:
        """The kept games' numbers (`keep`), row by row, and forget them: the rule modules' rows
        are made here for the whole batch at once, a few list operations a row."""
        kept, modules = self._kept, self._kept_modules
        self._kept, self._kept_modules = [], []
        columns = Columns.of_records(kept)
        self._module_columns(modules, columns)
        return columns

    def record(self, game) -> dict[str, Any]:
        """The numbers of the finished `game` alone: core rows, seats' wins, module statistics,
        ranks (`RANKS`); not kept for `columns`."""
        values, modules = self._finish(game)
        columns = Columns.of_records([values])
        self._module_columns([modules], columns)
        return columns.record(0)

    def _finish(self, game) -> tuple[dict[str, Any], tuple]:
        """The finished `game`'s game rows (a dict) and its rule modules' sums and counts per
        kingdom (made into rows by `_module_columns`)."""
        self._count_options()  # the last kingdom's
        state = game.state
        by_item = self._points_by_item(state.players)
        n = state.n_players
        scores = [p.score for p in state.players]
        winners = state.winners
        values: dict[str, Any] = score_rows(scores)
        values["close"] = 1.0 if n > 1 and values["margin"] <= CLOSE else 0.0
        values["tie_break"] = 1.0 if scores.count(values["winning_score"]) > len(winners) else 0.0
        values["gold_end"] = sum(p.gold for p in state.players) / n
        values["rounds"] = self._rounds
        values["decisions"] = len(game.answers)

        # each seat's share of the win (a list read by seat: no call per seat and row)
        share = 1 / len(winners)
        wins = [share if seat in winners else 0.0 for seat in range(n)]
        values.update(zip(self._seat_keys(n), wins))
        if self._start_player is not None:
            values["start_player_wins"] = wins[self._start_player]
        if self._kingdom_scores:
            leads = [_leaders(kingdom) for kingdom in self._kingdom_scores] + [set(winners)]
            first = leads[0]
            values["leader_wins"] = sum(wins[p] for p in first) / len(first)
            values["lead_changes"] = sum(1 for before, after in zip(leads, leads[1:]) if not before & after)
        values.update(_item_values(self._item_keys, by_item, winners, wins))
        values[RANKS] = tuple(ranks(state))  # (not a number: the tally takes it out first)
        # this game's rows only (and every scoring item's): a record never depends on the
        # games played before it in the same process
        self._share_values(values, n)
        return values, (self._totals, self._events, n)

    def _seat_keys(self, n: int) -> tuple[str, ...]:
        """The win rows' keys of `n` seats (`seat_key`), made once per number of players."""
        keys = self._seat_keys_made.get(n)
        if keys is None:
            keys = self._seat_keys_made[n] = tuple(seat_key(seat) for seat in range(n))
        return keys

    def _points_by_item(self, players) -> list[dict[str, float]]:
        """Each player's points by scoring item (the variant's items only), read from his
        breakdown; in the same pass, where the collector reads the core `score` statistic from
        the breakdown (`points_by_breakdown`), its sums (`points.ITEM` in each kingdom): what
        `add_points` keeps is as the event says it, an item's points in the kingdom whose
        scoring or rounds scored them."""
        cached, totals, events = self._breakdown_keys, self._totals, self._events
        out = []
        for player in players:
            mine: dict[str, float] = {}
            for at, points in player.breakdown.items():
                found = cached.get(at)  # (the same few keys every game: read once, `_breakdown_key`)
                if found is None:
                    found = cached[at] = self._breakdown_key(at)
                item, kingdom, slot = found
                if item is not None:
                    mine[item] = mine.get(item, 0) + points
                if slot is not None:
                    totals[kingdom][slot] += points
                    events[kingdom][slot] += 1
            out.append(mine)
        return out

    def _breakdown_key(self, at: str) -> tuple[str | None, int, int | None]:
        """What a breakdown key (`KINGDOM:ITEM`) adds to (`_points_by_item`): its item where
        the variant has it (else None), its kingdom, and its points row's slot where the
        collector reads the `score` statistic from the breakdown (else None)."""
        kingdom, item = _parse_breakdown_key(at)
        slot = None
        if self.points_by_breakdown and self._score_ready is not None:
            score = self._score_ready
            slot = self._slot_for(score.stat, score.prefix + item, {"event": SCORE_EVENT, "item": item})
        return (item if item in self.variant.modules.item_labels else None), kingdom, slot

    def _module_columns(self, games: list[tuple], columns: Columns) -> None:
        """The rule modules' rows (but the shares) of `games` (each game's sums and counts per
        kingdom and slot, and its players), whole and per kingdom: per row, its value in each
        game, None where the game has none. A mean is of a game's (or its kingdom's) events,
        none without them; a sum or a per-player sum is the kingdoms' sums (0 without events),
        in every game that had its events or where every game has the row (`_always`), else
        none; a row no game has is left out. Into `columns`."""
        if not games:
            return
        width = len(self._slot_keys)
        for totals, events, _ in games:  # (a game before a row was first seen has no entry for it)
            for kingdom in (*totals, *events):
                if len(kingdom) < width:
                    kingdom.extend([0] * (width - len(kingdom)))
        players = games[0][2]
        kingdoms = range(self._kingdoms)
        # per kingdom, per slot: each game's sum and count (a transposition, in C)
        sums = [list(zip(*(game[0][k] for game in games))) for k in kingdoms]
        counts = [list(zip(*(game[1][k] for game in games))) for k in kingdoms]
        modes, splits, keys, always = self._slot_modes, self._slot_splits, self._slot_keys, set(self._always)
        for slot, mode in enumerate(modes):
            if mode == "share":
                continue  # (a game's shares are of its share groups' events: `_share_values`)
            by_kingdom = [counts[k][slot] for k in kingdoms]
            events = _over_kingdoms(by_kingdom)  # per game
            if not any(events) and (mode == "mean" or slot not in always):
                continue  # no game has the row
            kingdom_sums = [sums[k][slot] for k in kingdoms]
            wholes = _over_kingdoms(kingdom_sums)  # (a kingdom without events adds an exact 0)
            if mode == "mean":
                columns.add(keys[slot], *_means(wholes, events))
                for k in kingdoms:
                    if any(by_kingdom[k]):
                        columns.add(splits[slot][k], *_means(kingdom_sums[k], by_kingdom[k]))
                continue
            per_player = mode == "per_player"
            # a game without the row's events has none of it, whole or by kingdom: found once
            missing = () if slot in always or all(events) else [i for i, count in enumerate(events) if not count]
            for key, found in zip((keys[slot], *splits[slot]), (wholes, *kingdom_sums)):
                found = list(map(truediv, found, repeat(players))) if per_player else list(found)
                for i in missing:
                    found[i] = None
                columns.add(key, found, bool(missing))

    def _share_values(self, values: dict[str, Any], n: int) -> None:
        """The rule modules' share rows of this game, whole and per kingdom, into `values`:
        a share is of its group's events in the game (or the kingdom)."""
        keys, splits = self._slot_keys, self._slot_splits
        for slot in self._share_rows:
            key = keys[slot]
            totals = [sums[slot] if counts[slot] else None for sums, counts in zip(self._totals, self._events)]
            if slot not in self._always and totals.count(None) == len(totals):
                continue  # not a row of this game
            group, group_events = self.groups[key], 0
            for by_kingdom, total, groups in zip(splits[slot], totals, self._per_kingdom_groups):
                in_group = groups.get(group, 0)
                if in_group:  # (a share of a group without events is no number)
                    values[by_kingdom] = (total or 0) / in_group
                    group_events += in_group
            if group_events:
                values[key] = sum(total for total in totals if total is not None) / group_events


def _over_kingdoms(kingdoms: list[tuple]) -> list:
    """Per game, the sum of its numbers in each kingdom (`kingdoms`: per kingdom, a number a
    game), added in kingdom order by C loops (`map`), not a tuple and a `sum` call a game. The
    same bits as `sum` gives: a kingdom's number starts at an int 0 (`reset`), so it is never
    -0.0, and `0 + x` is then `x` itself."""
    total = kingdoms[0]
    for more in kingdoms[1:]:
        total = map(add, total, more)
    return list(total)


def _means(totals: list | tuple, counts: list | tuple) -> tuple[list, bool]:
    """Per game its total over its count, None where the count is 0 (a mean of nothing); and
    whether some game has None."""
    if all(counts):  # (every game has events: divided in a C loop)
        return list(map(truediv, totals, counts)), False
    return [total / count if count else None for total, count in zip(totals, counts)], True


def score_rows(scores: list[float]) -> dict[str, float]:
    """The score rows of final `scores`: the winning score, the margin of the win (0 for one
    player) and the spread; a game's (`StatsCollector`) and a re-scored game's (`amunre.compare.rescore`)."""
    n = len(scores)
    ranked = sorted(scores, reverse=True)
    top, mean = ranked[0], sum(scores) / n
    return {"winning_score": top, "margin": top - ranked[1] if n > 1 else 0.0,
            "spread": (sum((s - mean) ** 2 for s in scores) / n) ** 0.5}


def seat_records(variant, game, lineup) -> list[dict]:
    """Each seat of a finished game, for `--records`: its agent, rank (1: a winner), points,
    points by scoring item, gold, and pyramids and stones in its provinces."""
    from amunre.core.standing import ranks, standing

    state = game.state
    items = list(variant.modules.item_labels)
    out = []
    for seat, (player, rank) in enumerate(zip(state.players, ranks(state))):
        by_item = dict.fromkeys(items, 0)
        for key, value in player.breakdown.items():
            item = key.partition(":")[2]
            if item in by_item:
                by_item[item] += value
        points, pyramids, stones = standing(state, seat)
        out.append({"seat": seat + 1, "agent": lineup[seat], "rank": rank, "points": points,
                    "items": by_item, "gold": player.gold, "pyramids": pyramids, "stones": stones})
    return out


def _parse_breakdown_key(key: str) -> tuple[int, str]:
    """A breakdown key `KINGDOM:ITEM` (`add_points`) as (kingdom, item)."""
    kingdom, _, item = key.partition(":")
    return int(kingdom), item


def _leaders(scores: list[float]) -> set[int]:
    top = max(scores)
    return {p for p, s in enumerate(scores) if s == top}


def _item_values(keys: dict[str, tuple[str, ...]], points: list[dict[str, float]], winners: list[int],
                 wins: list[float]) -> dict[str, float]:
    """Per scoring item: its share of the winner's points (a shared win: their mean), of the
    other players' points together, and the win share of the players whose largest item it is
    (each player's largest by points; no value in a game where it is nobody's). `points`: per
    player, his points by scoring item (`StatsCollector._points_by_item`); `keys`: per item of
    the variant, its rows' keys (`ITEM_ROWS`' order: the winner's share, the others', the wins);
    `wins`: each player's share of the win."""
    totals = [sum(mine.values()) for mine in points]
    values: dict[str, float] = {}
    shared = [p for p in winners if totals[p] > 0]
    for p in shared:
        for item, value in points[p].items():
            key = keys[item][0]
            values[key] = values.get(key, 0.0) + value / totals[p] / len(shared)
    others = [p for p in range(len(points)) if p not in winners]
    others_total = sum(totals[p] for p in others)
    if others_total > 0:
        for p in others:
            for item, value in points[p].items():
                key = keys[item][1]
                values[key] = values.get(key, 0.0) + value / others_total
    largest: dict[str, list[int]] = {}
    for p, mine in enumerate(points):
        if totals[p] > 0 and mine:
            best = max(mine.values())
            for item, value in mine.items():
                if value == best:
                    largest.setdefault(item, []).append(p)
    for item, players in largest.items():
        values[keys[item][2]] = sum(wins[p] for p in players) / len(players)
    # an item the winner (or the others) never scored is a share of 0, not a missing value
    for winner_key, others_key, _ in keys.values():
        if shared:
            values.setdefault(winner_key, 0.0)
        if others_total > 0:
            values.setdefault(others_key, 0.0)
    return values


def missing_means_zero(mode: str) -> bool:
    """Whether a game without a row's events counts 0 for it (a sum or a share), rather than
    having no value (a mean of nothing)."""
    return mode in ("sum", "per_player", "share")


_FORMATTER = string.Formatter()


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in _FORMATTER.parse(template) if name]


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
    return CORE_ROWS[key].format_map(_Words(variant, {"close": CLOSE}))
