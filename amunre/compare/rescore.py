"""How much of a rule change is arithmetic: the first column's games re-scored by another
column's scoring, and whether two columns played the very same games.

Re-scoring. A kingdom's scoring items run on the position the game has when that scoring
begins, one after the other, and may ask decisions (which bonus cards to play, how many cards
to sell before the gold ranking). So a first-variant game is re-scored scoring by scoring:
`GameWatcher` keeps a copy of the position as each kingdom's scoring (and the final scoring)
begins, and the answers the game gave during it; `Rescorer` then plays the other variant's
scoring items for that kingdom (`Modules.scoring_in`, then its final items) on a copy of each
position, answering each decision with the game's own answer to it in turn where that answer is
one of the options (else with the decision's first policy, and the game is counted as
`guessed`). Play is unchanged: the positions are those the first variant's players reached.
The re-scored numbers are the score rows (`SCORE_ROWS` and points per player per scoring
item), defined as `amunre.compare.collect` defines them, and the points per player per item
in each kingdom (`kingdom1.points.pyramids`: a kingdom's scoring and the points scored in its
rounds; the final scoring is the last kingdom's, as in the by-kingdom table).

It is only sound where the other variant's scoring can read the first's positions:
`rescore_problem` says why not in one line (another board, other cards, another number of
kingdoms, a scoring module whose data or published value the first variant's games do not
keep).

Identical games: an `event_log` keeps each game's events that compare hears; two columns play
the same game on a seed when its answers, those events and every player's points by kingdom and
scoring item are equal (`same_game`; the points stand for the core's `score` events, which
compare no longer hears: `amunre.compare.collect.SCORE_EVENT`).

A batch's re-scorings and identical games are a `RescoreTally` (merged with the run's tally),
summed up per column by `summarize_rescored`; `to_json_part` and `records_fields` give them to
`--json` and `--records`.
"""

from __future__ import annotations

import functools
import math
import operator
from itertools import chain, repeat
from typing import Any

import attrs

from amunre.compare.collect import kingdom_key, kingdom_of, score_rows
from amunre.compare.kingdom_words import kingdom_words
from amunre.compare.stats import Moments
from amunre.planning.table import Table, play_module
from amunre.planning.worth import declares_formula

#: The game's own rows that a re-scoring gives (then `points.ITEM` per scoring item); rows about
#: play (purchases, length) have no re-scored value.
SCORE_ROWS = ("winning_score", "margin", "spread")
POINTS = "points."
#: The core events that begin and end a scoring (the watcher hears them besides the collector's).
SCORING_EVENTS = frozenset({"scoring", "scoring_end", "final_scoring"})


def rescore_problem(first, other) -> str:
    """Why `other`'s scoring cannot score the positions of `first`'s games, in one line; ""
    when it can: the same board, cards and number of kingdoms, and every scoring module of
    `other` that keeps data of its own, or reads a value another module publishes, finds it in
    `first`'s games under the same key."""
    if len(first.edition.kingdoms) != len(other.edition.kingdoms):
        return (f"{other.id} has {len(other.edition.kingdoms)} kingdoms and {first.id} "
                f"{len(first.edition.kingdoms)}: a kingdom's scoring would have no position to score")
    if first.board != other.board:
        return f"{other.id} is played on another board than {first.id}: its scoring reads other provinces"
    if tuple(first.cards) != tuple(other.cards):
        return f"{other.id} has other cards than {first.id}: its scoring reads the hands by card"
    kept = {module.key: type(module) for module in first.modules.stateful}
    for module in other.modules.scoring + other.modules.final_scoring:
        if module in other.modules.stateful and kept.get(module.key) is not type(module):
            return (f"{other.id}'s scoring module {module.key} keeps data of its own that {first.id}'s games "
                    f"do not have")
        for name, key in module.published_at.items():
            if first.modules.published_at.get(name) != key:
                return (f"{other.id}'s scoring module {module.key} reads {name}, which {first.id}'s games do not "
                        f"keep where it reads it")
    return ""


def event_log(hears: frozenset[str]) -> tuple[list, Any]:
    """A list that keeps, in order, every event its listener hears (`listens_to`: `hears`): a
    game's events that compare hears, for `same_game`; and that listener, the list's own append
    (a partial of it: a call in C per event, with no Python frame nor tuple of arguments)."""
    log: list = []
    listener: Any = functools.partial(list.append, log)  # (each event is a fresh dict: kept as it is)
    listener.listens_to = hears
    return log, listener


class GameWatcher:
    """A listener for one game at a time (`start(game)` before it plays, its `game` set once
    made): for each scoring whose place (each kingdom's, then the final) is in `positions`, a
    copy of the position and the answers so far as it begins, and the answers when it ends
    (`scorings`: place -> [position, first answer, end answer or None for the game's end])."""

    listens_to = SCORING_EVENTS

    def __init__(self, positions: frozenset[int]):
        self.positions = positions
        self.game: Any = None
        self.scorings: dict[int, list] = {}
        self._place = -1

    def start(self, game) -> None:
        self.game, self.scorings, self._place = game, {}, -1

    def __call__(self, event: dict) -> None:
        name = event["event"]
        if name == "scoring_end":
            if self._place in self.scorings:
                self.scorings[self._place][2] = len(self.game.answers)
            return
        self._place += 1  # a kingdom's scoring or the final scoring begins
        if self._place in self.positions:
            self.scorings[self._place] = [self.game.state.copy(), len(self.game.answers), None]


def same_game(answers: list, events: list, other_answers: list, other_events: list,
              points: list | None = None, other_points: list | None = None) -> bool:
    """Whether two games of one seed are the same: their answers and heard events equal, and
    (where the collector reads the points from the breakdown rather than hearing each score)
    each player's points by kingdom and scoring item (`points`: the players' breakdowns)."""
    # (the cheapest first: a rule that changes the points tells at once, the events last)
    return points == other_points and answers == other_answers and events == other_events


def _same_module(a, b) -> bool:
    """Whether two modules score alike: one rule, entry, parameters and rulings."""
    return type(a) is type(b) and a.key == b.key and a.params == b.params and a.rulings == b.rulings


def _formula(module) -> bool:
    """Whether a module is scored by its declared formula: it asks no decision and declares its
    points (the valuation facet; its points are its run's, which a test checks for every module
    that declares them, and it changes nothing else), so it needs no run."""
    return not module.decisions and declares_formula(module, 0)


@attrs.frozen
class ScoringPlan:
    """How one scoring (a kingdom's, or the final one) of the other variant is re-scored: the
    items whose points are the first game's own (`copied`: its module is the first variant's,
    seeing the same position), and the modules played again on the position, in order
    (`played`, each with whether its formula scores it); `kingdom`: whose points are copied."""

    kingdom: int
    copied: tuple[str, ...]
    played: tuple[tuple[Any, bool], ...]


def scoring_plan(kingdom: int, first_modules, other_modules) -> ScoringPlan:
    """A scoring's plan: where the modules that ask decisions or change the position (those not
    scored by a formula) are the first variant's, one for one and in order, each module the
    first variant also has scores as it did in the game; a new formula module is worked out on
    the position, unless it follows a module played in the game, whose changes it would miss:
    then every module is played again on the position in order (their decisions answered as the
    game answered them). Where those modules differ, the leading formula modules that are the
    first variant's, in the same places, score as they did in the game, and the rest is played
    again so."""
    ours = [m for m in other_modules if not _formula(m)]
    theirs = [m for m in first_modules if not _formula(m)]
    by_key = {m.key: m for m in first_modules}
    items = {m.key: tuple(item.key for item in m.score_items()) for m in other_modules}
    if len(ours) != len(theirs) or not all(_same_module(a, b) for a, b in zip(ours, theirs)):
        # the leading formula modules both variants have alike, in the same places, scored as
        # in the game (they change nothing: the rest sees the position as it was kept)
        same = 0
        for a, b in zip(other_modules, first_modules):
            if not (_formula(a) and _same_module(a, b)):
                break
            same += 1
        return ScoringPlan(kingdom, tuple(item for m in other_modules[:same] for item in items[m.key]),
                           tuple((m, _formula(m)) for m in other_modules[same:]))
    every = ScoringPlan(kingdom, (), tuple((m, _formula(m)) for m in other_modules))
    copied: list[str] = []
    worked_out = []
    seen_played = False
    for module in other_modules:
        if module.key in by_key and _same_module(module, by_key[module.key]):
            copied += items[module.key]
        elif seen_played:  # a new formula module after one the game played: it would see another position
            return every
        else:
            worked_out.append((module, True))
        seen_played |= not _formula(module)
    return ScoringPlan(kingdom, tuple(copied), tuple(worked_out))


class Rescorer:
    """Another variant's scoring, applied to the positions and points a first-variant game kept."""

    def __init__(self, variant, first):
        self.variant = variant
        # its scoring items, and the first variant's that it lacks (they score 0 once re-scored)
        self.items = tuple(variant.modules.item_labels) + tuple(
            item for item in first.modules.item_labels if item not in variant.modules.item_labels)
        self.kingdoms = kingdoms = len(variant.edition.kingdoms)
        ours, theirs = variant.modules, first.modules
        self.plans = [scoring_plan(k, theirs.scoring_in(k), ours.scoring_in(k)) for k in range(kingdoms)]
        self.plans.append(scoring_plan(kingdoms - 1, theirs.final_scoring, ours.final_scoring))
        #: the first variant's scoring items: their points in the game are replaced by the re-scoring
        self.scored_items = frozenset(item.key for m in theirs.scoring + theirs.final_scoring
                                      for item in m.score_items())
        #: the scorings (by place: each kingdom's, then the final) whose position must be kept
        self.positions = frozenset(s for s, plan in enumerate(self.plans) if plan.played)
        self._row_keys: dict[str, tuple[str, tuple[str, ...]]] = {}  # item -> its rows' keys, made once each
        #: how many plans copy each (kingdom, item): their points in the game are counted so often
        self._copies: dict[tuple[int, str], int] = {}
        for plan in self.plans:
            for item in plan.copied:
                self._copies[plan.kingdom, item] = self._copies.get((plan.kingdom, item), 0) + 1
        #: a breakdown key -> (its kingdom, its item, how often its points count: `_parse`), the
        #: same few keys every game, parsed once
        self._parsed: dict[str, tuple[int, str, int]] = {}
        #: the rows of the items, in the order a game's rows have them: per item its kingdoms' then its own
        self._item_rows = tuple(key for item in self.items
                                for key in (*self._keys_of(item)[1], self._keys_of(item)[0]))

    def rescore(self, players, scorings: dict, answers: list, keep: bool = True) -> tuple[dict[str, float], bool]:
        """The score rows of a first-variant game whose players ended as `players`, with these
        positions (`GameWatcher.scorings`) and answers, scored by this variant's items; and
        whether some decision was not answered as the game answered it. Points scored outside
        the scorings (by a phase, in the rounds) stay as the game scored them. Without `keep`, it
        plays on the positions themselves (the last to read them) rather than on copies."""
        n = len(players)
        items_known = self.items
        # each kingdom's points per item (the final scoring's in the last kingdom's)
        by_kingdom = [dict.fromkeys(items_known, 0.0) for _ in range(self.kingdoms)]
        parsed = self._parsed
        totals = []
        for player in players:
            total = player.score
            for key, value in player.breakdown.items():
                found = parsed.get(key)
                if found is None:
                    found = parsed[key] = self._parse(key)
                kingdom, item, times = found
                if times == 1:  # what no scoring item scored, or what the other variant scores alike
                    points = by_kingdom[kingdom]
                    points[item] = points.get(item, 0.0) + value
                elif not times:  # scored again below
                    total -= value
                else:
                    total += value * (times - 1)
                    points = by_kingdom[kingdom]
                    points[item] = points.get(item, 0.0) + value * times
            totals.append(total)
        guessed = False
        for s, plan in enumerate(self.plans):
            if plan.played:
                guessed |= self._play(plan, scorings[s], answers, keep, totals, by_kingdom[plan.kingdom])
        values = score_rows(totals)
        if all(len(found) == len(items_known) for found in by_kingdom):  # (no item a phase scored in one kingdom)
            # per item, its points per player in each kingdom, then over the game (0.0 + each kingdom's)
            kingdoms = [[found[item] / n for item in items_known] for found in by_kingdom]
            wholes = [0.0] * len(items_known)
            for found in by_kingdom:
                wholes = list(map(operator.add, wholes, [found[item] for item in items_known]))
            values.update(zip(self._item_rows, chain.from_iterable(zip(*kingdoms, [w / n for w in wholes]))))
            return values, guessed
        items = dict.fromkeys(items_known)
        for found in by_kingdom:
            items.update(dict.fromkeys(found))
        for item in items:
            whole_key, kingdom_keys = self._keys_of(item)
            whole = 0.0
            for key, found in zip(kingdom_keys, by_kingdom):
                points = found.get(item, 0.0)
                values[key] = points / n
                whole += points
            values[whole_key] = whole / n
        return values, guessed

    def _parse(self, key: str) -> tuple[int, str, int]:
        """A breakdown key `KINGDOM:ITEM` as its kingdom, its item and how often its points count
        in the re-scoring: once where no scoring item of the first variant scored it, else once
        per plan that copies it (none: the re-scoring scores it again)."""
        kingdom, _, item = key.partition(":")
        at = int(kingdom)
        return at, item, self._copies.get((at, item), 0) if item in self.scored_items else 1

    def _keys_of(self, item: str) -> tuple[str, tuple[str, ...]]:
        """An item's points row and its rows per kingdom (`points.ITEM`, `kingdom1.points.ITEM`)."""
        found = self._row_keys.get(item)
        if found is None:
            found = self._row_keys[item] = (POINTS + item, tuple(kingdom_key(POINTS + item, k)
                                                                 for k in range(self.kingdoms)))
        return found

    def _play(self, plan: ScoringPlan, kept: list, answers: list, keep: bool, totals: list[float],
              by_item: dict[str, float]) -> bool:
        """Play a plan's modules on the kept position, adding their points (to the totals, and
        per item to `by_item`: its kingdom's); whether some decision was not the game's."""
        position, start, end = kept
        state = position.copy() if keep else position
        for player in state.players:
            player.breakdown = {}
        given = iter(answers[start:len(answers) if end is None else end])
        table = Table(self.variant, state)
        guessed = False
        for module, formula in plan.played:
            if not formula:
                guessed |= play_module(module, table, self.variant.modules.decisions, given)
                continue
            for p in range(len(totals)):
                for item, points in module.points_for(state, p).items():
                    totals[p] += points
                    by_item[item] = by_item.get(item, 0.0) + points
        for p, player in enumerate(state.players):  # the points of the modules played
            for key, value in player.breakdown.items():
                item = key.partition(":")[2]
                totals[p] += value
                by_item[item] = by_item.get(item, 0.0) + value
        return guessed


# -- what a batch keeps, merged as the tally is (`amunre.compare.tally`) ---------------------


@attrs.define
class RescoreTally:
    """Per column (the first's entries empty): the games identical to the first column's, and
    over the paired units (games, or seeds with a rotated lineup) the moments of the re-scored
    rows, of their difference from the first column (`arithmetic`) and of the column's own
    from them (`play`); `guessed`: games where a re-scoring decision was not the game's."""

    games: int = 0
    identical: list[int] = attrs.Factory(list)
    values: list[dict] = attrs.Factory(list)
    arithmetic: list[dict] = attrs.Factory(list)
    play: list[dict] = attrs.Factory(list)
    guessed: list[int] = attrs.Factory(list)

    def merge(self, other: RescoreTally) -> RescoreTally:
        if not self.identical:
            return other
        self.games += other.games
        for c in range(len(self.identical)):
            self.identical[c] += other.identical[c]
            self.guessed[c] += other.guessed[c]
            for into, more in ((self.values[c], other.values[c]), (self.arithmetic[c], other.arithmetic[c]),
                               (self.play[c], other.play[c])):
                for key, m in more.items():
                    into[key] = into[key].merge(m) if key in into else m
        return self


def is_points_row(key: str) -> bool:
    """Whether a row is an item's points per player, over the game (`points.ITEM`) or in one
    kingdom (`kingdom1.points.ITEM`): a variant without the item scores 0 there."""
    found = kingdom_of(key)
    return (found[1] if found is not None else key).startswith(POINTS)


def tally_rescored(columns: list, rescored: list[list[dict] | None], identical: list[int],
                   guessed: list[int], games: list[tuple[int, int]]) -> RescoreTally:
    """A batch's re-scoring: `columns[c]` column c's numbers (`amunre.compare.columns.Columns`)
    for games `games`, `rescored[c][i]` the first column's game i re-scored by column c (None:
    no re-scoring)."""
    tally = RescoreTally(len(games), list(identical), [], [], [], list(guessed))
    by_game = len({seed for seed, _ in games}) == len(games)  # else a seed's rotations are one unit
    for c, column in enumerate(rescored):
        values, arithmetic, play = {}, {}, {}
        if column is not None:
            keys = list(column[0]) if column else []
            for key in keys:
                zero = 0.0 if is_points_row(key) else math.nan  # an item a variant lacks scores 0 there
                got = list(map(dict.get, column, repeat(key), repeat(zero)))
                added = list(map(operator.sub, got, columns[0].numbers(key, zero)))  # re-scored less the first
                played = list(map(operator.sub, columns[c].numbers(key, zero), got))  # the column less re-scored
                if not by_game:
                    per_seed = _per_seed(list(zip(got, added, played)), games)
                    got, added, played = ([numbers[i] for numbers in per_seed] for i in range(3))
                values[key] = Moments.of(got)
                arithmetic[key] = Moments.of(added)
                play[key] = Moments.of(played)
        tally.values.append(values)
        tally.arithmetic.append(arithmetic)
        tally.play.append(play)
    return tally


def _per_seed(per_game: list[tuple[float, ...]], games: list[tuple[int, int]]) -> list[tuple[float, ...]]:
    """One tuple per seed, the mean of its rotations' (the rotations of a seed are one unit)."""
    by_seed: dict[int, list[tuple[float, ...]]] = {}
    for (seed, _), numbers in zip(games, per_game):
        by_seed.setdefault(seed, []).append(numbers)
    return [tuple(sum(column) / len(group) for column in zip(*group)) for group in by_seed.values()]


# -- the summary -----------------------------------------------------------------------------


@attrs.define
class RescoredRow:
    """One score row of a column's re-scoring: the re-scored number (an Estimate), what the rule
    adds with play unchanged (re-scored less the first column, a Paired) and what changed play
    adds (the column less re-scored)."""

    key: str
    label: str
    value: Any
    arithmetic: Any
    play: Any
    kind: str = "mean"
    #: a by-kingdom row's kingdom (from 0) and the whole game's row it splits
    kingdom: int | None = None
    row: str = ""


@attrs.define
class Rescored:
    """A column after the first: its games identical to the first column's, and its re-scoring
    (`rows`; `by_kingdom`: the points per item in each kingdom) or why there is none (`absent`)."""

    column: int
    label: str
    identical: int
    games: int
    absent: str
    rows: list[RescoredRow]
    guessed: int = 0
    by_kingdom: list[RescoredRow] = attrs.Factory(list)


def summarize_rescored(comparison) -> list[Rescored]:
    """Each column after the first: identical games, and its re-scored score rows in table order,
    then its points per item per kingdom (an item's kingdoms together, labelled as the
    by-kingdom table labels them)."""
    from amunre.compare.collect import core_label

    columns = comparison.columns
    part = comparison.tally.rescore
    out = []
    first = columns[0].variant
    labels: dict[str, str] = {}
    for meta in comparison.tally.rows:
        for key, (label, _, _) in meta.items():
            labels.setdefault(key, label)
    for c, column in enumerate(columns[1:], start=1):
        absent = rescore_problem(first, column.variant)
        rows: list[RescoredRow] = []
        by_kingdom: list[RescoredRow] = []
        if part is not None and not absent:
            items = list(column.variant.modules.item_labels) + [i for i in first.modules.item_labels
                                                                 if i not in column.variant.modules.item_labels]
            for key in list(SCORE_ROWS) + [POINTS + item for item in items]:
                label = core_label(column.variant, key) if key in SCORE_ROWS else labels.get(key, key)
                rows += _rescored_row(part, c, key, label)
            pair = [columns[0], column]
            for item in items:
                for k in range(len(column.variant.edition.kingdoms)):  # (as many as the first's: re-scored)
                    names = [v.variant.edition.kingdoms[k] for v in pair]
                    key = kingdom_key(POINTS + item, k)
                    label = f"{labels.get(POINTS + item, POINTS + item)}, {kingdom_words(pair, k, names)}"
                    by_kingdom += _rescored_row(part, c, key, label, k, POINTS + item)
        out.append(Rescored(c, column.label, part.identical[c] if part is not None else 0,
                            comparison.games, absent, rows, part.guessed[c] if part is not None else 0, by_kingdom))
    return out


def _rescored_row(part: RescoreTally, c: int, key: str, label: str, kingdom: int | None = None,
                  whole: str = "") -> list[RescoredRow]:
    """Column c's re-scored row `key` as a list of one, or none where no game has it."""
    from amunre.compare import stats

    m = part.values[c].get(key)
    if m is None or not m.n:
        return []
    return [RescoredRow(key, label, stats.estimate_of(m), stats.paired_of(part.arithmetic[c][key]),
                        stats.paired_of(part.play[c][key]), kingdom=kingdom, row=whole)]


# -- as data: the JSON's part and the records' fields ----------------------------------------


def to_json_part(rescored) -> dict:
    """The JSON's `identical` and `rescored`, one entry per column after the first."""

    def estimate(e):
        return {"mean": _finite(e.mean), "sd": _finite(e.sd), "low": _finite(e.low), "high": _finite(e.high),
                "n": e.n}

    def difference(p):
        return {"diff": _finite(p.diff), "low": _finite(p.low), "high": _finite(p.high), "p": _finite(p.p), "n": p.n}

    def row_of(row):
        return {"key": row.key, "label": row.label, "value": estimate(row.value),
                "arithmetic": difference(row.arithmetic), "play": difference(row.play)}

    return {
        "identical": [{"column": found.label, "identical": found.identical, "games": found.games}
                      for found in rescored],
        "rescored": [{"column": found.label, "absent": found.absent or None, "guessed": found.guessed,
                      "rows": [row_of(row) for row in found.rows],
                      "by_kingdom": [{**row_of(row), "row": row.row, "kingdom": row.kingdom + 1}
                                     for row in found.by_kingdom]}
                     for found in rescored],
    }


def _finite(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


#: A records line's re-scored fields begin so (`rescored.winning_score`, `rescored.points.pyramids`).
RESCORED_PREFIX = "rescored."


def records_fields(comparison) -> list[str]:
    """`--records`' fields for the identical games and re-scorings: `identical` (1 where the
    line's game is the first column's, answer for answer and event for event; empty on the first
    column's lines), then `rescored.ROW` per score row (the seed's first-column game re-scored by
    the line's column's scoring; empty where it has none), then per item and kingdom
    `rescored.kingdomK.points.ITEM`: none with one column."""
    if len(comparison.columns) < 2:
        return []
    items: list[str] = []
    for column in comparison.columns:
        items += [item for item in column.variant.modules.item_labels if item not in items]
    kingdoms = max(len(column.variant.edition.kingdoms) for column in comparison.columns)
    keys = list(SCORE_ROWS) + [POINTS + item for item in items]
    keys += [kingdom_key(POINTS + item, k) for item in items for k in range(kingdoms)]
    return ["identical"] + [RESCORED_PREFIX + key for key in keys]


def records_values(record: dict, c: int) -> dict:
    """A kept game's `identical` and `rescored.ROW` fields for column `c` (none for the first)."""
    if not c or "identical" not in record:
        return {}
    found = record["rescored"][c] or {}
    return {"identical": int(record["identical"][c]), **{RESCORED_PREFIX + key: value for key, value in found.items()}}
