"""The first screen of a comparison in words: a sentence per family of rows and column.

Five families answer a designer's questions (docs/compare.md, "The verdicts"): *closeness*
(margin, spread, close games, tie-breaks, leads), *seat balance* (the seats' and the start
player's win rates, Balance, outcome uniformity), *length* (rounds, decisions), *what the
players did* (every rule module's row that is not points: a plug-in's too, by that kind alone)
and *where the points came from* (the winning score, the points of each scoring item, their
shares). Each sentence names the row that moved most (in the sd the columns share) among those
marked after Holm's correction, with its paired difference and interval, the very numbers of
the row; where no row of the family is marked, it says "no detectable difference" and how
large a difference these games could have found in the family's lead row (`power.detectable`,
at 80% power and the level a lone difference had to pass: 5% over the differences Holm
corrects over). `--target-difference ROW=VALUE` asks how many games would find a difference of
VALUE in that row (`power.games_needed`).
"""

from __future__ import annotations

import math
import re

import attrs

from amunre.compare import power
from amunre.compare.collect import CORE_RATES, CORE_ROWS, ITEM_ROWS, KINGDOM_PREFIX, kingdom_of
from amunre.compare.outcomes import BALANCE, UNIFORMITY
from amunre.compare.stats import LEVEL

#: The families in the order they are said: key -> title.
FAMILIES = {
    "closeness": "Closeness",
    "seats": "Seat balance",
    "length": "Length",
    "play": "What the players did",
    "points": "Where the points came from",
}
CLOSENESS = ("margin", "spread", "close", "tie_break", "leader_wins", "lead_changes")
LENGTH = ("rounds", "decisions")
#: The row a family's "no detectable difference" is sized on, where the table has it
#: (what the players did: its first row).
LEAD = {"closeness": "margin", "seats": BALANCE, "length": "decisions", "points": "winning_score"}
#: What a row's change says, (when it rises, when it falls); other rows get their family's words.
PHRASES = {
    "margin": ("games are less close", "games are closer"),
    "spread": ("final scores lie further apart", "final scores lie closer together"),
    "close": ("more games are close", "fewer games are close"),
    "tie_break": ("more games go to a tie-break", "fewer games go to a tie-break"),
    "leader_wins": ("the first kingdom's leaders win more often", "the first kingdom's leaders win less often"),
    "lead_changes": ("the lead changes hands more often", "the lead changes hands less often"),
    BALANCE: ("the seats are more even", "the seats are less even"),
    UNIFORMITY: ("results swing less from game to game", "results swing more from game to game"),
    "rounds": ("games are longer", "games are shorter"),
    "decisions": ("games are longer", "games are shorter"),
    "winning_score": ("winning scores are higher", "winning scores are lower"),
}
FAMILY_PHRASES = {"seats": "the seats fare differently", "play": "the players act differently",
                  "points": "the points come from elsewhere", "closeness": "closeness changes",
                  "length": "the length changes"}
#: The event whose statistics are points (the core's, whatever rule scores).
SCORE_EVENT = "score"


@attrs.frozen
class Verdict:
    """One family's sentence for one column against the first, with the numbers it says."""

    column: int
    family: str
    sentence: str
    key: str
    detected: bool
    first: float
    value: float
    diff: float
    low: float
    high: float
    #: the family's other rows marked significant
    others: tuple[str, ...] = ()
    #: where nothing is detected: the smallest difference these games could have found
    detectable: float = math.nan
    alpha: float = math.nan
    sd: float = math.nan
    n: int = 0
    #: "paired" (the per-game differences' sd) or "unpaired" (where the games did not differ
    #: at all, the two columns' own spread)
    basis: str = ""


@attrs.frozen
class Target:
    """How many games would find a difference of `difference` in row `key` (per column)."""

    column: int
    key: str
    difference: float
    games: int | None
    sd: float
    alpha: float
    sentence: str


def family_of(key: str, points_templates: frozenset = frozenset()) -> str:
    """The family of a row key: the game's own rows by name; a rule module's by its kind
    (a statistic of the core's score event, `points_templates`, is points; any other, what
    the players did)."""
    found = kingdom_of(key)
    if found is not None:
        key = found[1]
    if key in CLOSENESS:
        return "closeness"
    if key.startswith("win.") or key in ("start_player_wins", BALANCE, UNIFORMITY):
        return "seats"
    if key in LENGTH:
        return "length"
    if key == "winning_score" or key.startswith(tuple(ITEM_ROWS)) or any(
            re.fullmatch(_pattern(template), key) for template in points_templates):
        return "points"
    return "play"


def _pattern(template: str) -> str:
    """A statistic's key template as a pattern of its keys (`points.{item}` matches `points.temples`)."""
    return re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(template))


def points_templates(variants) -> frozenset:
    """The statistic keys declared on the core's score event by these variants' modules."""
    out = set()
    for variant in variants:
        event = variant.modules.events.get(SCORE_EVENT)
        out.update(stat.key for stat in (event.statistics if event else ()))
    return frozenset(out)


def alpha_used(rows, columns: int) -> tuple[float, int]:
    """The level a lone difference had to pass to be marked (Holm's first step: 5% over the
    differences of the family), and how many differences the family holds."""
    m = sum(1 for row in rows for c in range(1, columns) if row.versus[c] is not None)
    return (1 - LEVEL) / max(1, m), m


def paired_sd(comparison, row, c: int) -> float:
    """The sd of the per-game differences of `row` between column `c` and the first: the
    tally's where it holds them, else read back from the paired t-interval."""
    found = comparison.tally.versus[c].get(row.key) if comparison.tally.versus else None
    if found is not None and found.n >= 2:
        return found.sd
    p = row.versus[c]
    if p is None or p.n < 2 or math.isnan(p.low):
        return math.nan
    from amunre.compare.stats import t_quantile

    return (p.high - p.low) / 2 / t_quantile(p.n - 1) * math.sqrt(p.n)


def _percent_row(row) -> bool:
    return row.kind in ("rate", "share")


def level_text(row, x: float) -> str:
    from amunre.compare.report import digits_of

    if x is None or math.isnan(x):
        return "-"
    return f"{100 * x:.1f}%" if _percent_row(row) else f"{x:.{digits_of(row)}f}"


def amount_text(row, x: float, signed: bool = True) -> str:
    """A difference in the row's units: `+0.90`, `-5.0 pt`."""
    from amunre.compare.report import digits_of

    if x is None or math.isnan(x):
        return "-"
    if _percent_row(row):
        x, digits, unit = 100 * x, 1, " pt"
    else:
        digits, unit = digits_of(row), ""
    text = f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"
    if float(text) == 0:
        text = f"{0:.{digits}f}"
    return text + unit


def interval_text(row, p) -> str:
    """`-0.90, 95% -1.30 to -0.50`: the difference and its interval, as the row has them."""
    if math.isnan(p.low):
        return amount_text(row, p.diff)
    return f"{amount_text(row, p.diff)}, {LEVEL:.0%} {amount_text(row, p.low)} to {amount_text(row, p.high)}"


def _scale(row, c: int) -> float:
    spreads = [e.sd for e in (row.values[0], row.values[c]) if e is not None and not math.isnan(e.sd)]
    return math.sqrt(sum(sd * sd for sd in spreads) / len(spreads)) if spreads else 0.0


def _effect(row, c: int) -> float:
    scale = _scale(row, c)
    return abs(row.versus[c].diff) / scale if scale > 0 else 0.0


def verdicts(comparison, rows) -> list[Verdict]:
    """A verdict per column after the first and family that has a compared row."""
    from amunre.compare.report import shown_label

    columns = comparison.columns
    if len(columns) < 2:
        return []
    alpha, m = alpha_used(rows, len(columns))
    scoring = points_templates([column.variant for column in columns])
    by_family: dict[str, list] = {family: [] for family in FAMILIES}
    for row in rows:
        by_family[family_of(row.key, scoring)].append(row)
    out = []
    for c in range(1, len(columns)):
        name, first = columns[c].label, columns[0].label
        for family, members in by_family.items():
            compared = [row for row in members if row.versus[c] is not None and row.values[0] is not None
                        and row.values[c] is not None]
            if not compared:
                continue
            marked = sorted((row for row in compared if row.versus[c].significant), key=lambda r: -_effect(r, c))
            if marked:
                row = marked[0]
                p = row.versus[c]
                up, down = PHRASES.get(row.key, (FAMILY_PHRASES[family],) * 2)
                phrase = up if p.diff > 0 else down
                others = tuple(r.key for r in marked[1:])
                more = ""
                if others:
                    named = ", ".join(shown_label(r.label) for r in marked[1:4]).lower()
                    more = (f"; {len(others)} more of its rows {'differs' if len(others) == 1 else 'differ'} too "
                            f"({named}"
                            f"{', ...' if len(others) > 3 else ''})")
                sentence = (f"{phrase[:1].upper()}{phrase[1:]} under {name}: {row.label} "
                            f"{level_text(row, row.values[0].mean)} → {level_text(row, row.values[c].mean)} "
                            f"({interval_text(row, p)}){more}.")
                out.append(Verdict(c, family, sentence, row.key, True, row.values[0].mean, row.values[c].mean,
                                   p.diff, p.low, p.high, others))
                continue
            lead = next((row for row in compared if row.key == LEAD.get(family)), compared[0])
            p = lead.versus[c]
            sd, basis = paired_sd(comparison, lead, c), "paired"
            if sd == 0:  # every game moved alike (the same games): size it on the columns' own spread
                sd, basis = math.sqrt(sum(e.sd ** 2 for e in (lead.values[0], lead.values[c])
                                          if not math.isnan(e.sd))), "unpaired"
            smallest = power.detectable(sd, p.n, alpha)
            # its own interval may exclude 0 where the correction over the whole table holds it
            # back: say so, or a reader sees an interval off 0 beside "no difference"
            alone = p.low > 0 or p.high < 0
            head = (f"No difference that holds over the table's {m} differences (Holm)" if alone
                    else "No detectable difference")
            said = (f"{head} under {name} against {first} ({lead.label} "
                    f"{level_text(lead, lead.values[0].mean)} → {level_text(lead, lead.values[c].mean)}, "
                    f"{interval_text(lead, p)}{', taken alone' if alone else ''})")
            if math.isnan(smallest):
                said += "; too few games to say how large a difference they could find."
            elif smallest == 0:
                said += f"; {lead.label} did not vary in these games."
            else:
                why = (" (every game alike in both: sized on the columns' own spread)" if basis == "unpaired"
                       else "")
                said += (f"; these {_units(comparison, p.n)} would find ±{amount_text(lead, smallest, False)} with "
                         f"{power.POWER:.0%} power at α = {_alpha_text(alpha)} ({1 - LEVEL:.0%} over Holm's "
                         f"{m} differences){why}.")
            out.append(Verdict(c, family, said, lead.key, False, lead.values[0].mean, lead.values[c].mean,
                               p.diff, p.low, p.high, (), smallest, alpha, sd, p.n, basis))
    return out


def _units(comparison, n: int) -> str:
    """What a difference's `n` counts: games, or with a rotated lineup seeds (their rotations
    one observation)."""
    from amunre.compare.jobs import rotations

    turns = rotations(tuple(comparison.agents))
    return f"{n:,} games" if turns == 1 else f"{n:,} seeds ({n * turns:,} games: each seed's {turns} rotations)"


def _alpha_text(alpha: float) -> str:
    return f"{100 * alpha:.2g}%"


def targets(comparison, rows, by_kingdom, asked) -> list[Target]:
    """For each `--target-difference` (key, difference in the row's units: a proportion as a
    fraction) and column after the first: the games that would find it (`power.games_needed`),
    at the level a lone difference of its table had to pass."""
    from amunre.compare.jobs import rotations

    columns = comparison.columns
    if len(columns) < 2 or not asked:
        return []
    turns = rotations(tuple(comparison.agents))
    out = []
    for key, difference in asked:
        table = by_kingdom if kingdom_of(key) is not None else rows
        row = next((r for r in table if r.key == key), None)
        alpha, _ = alpha_used(table, len(columns))
        for c in range(1, len(columns)):
            if row is None or row.versus[c] is None:
                said = (f"{key}: no difference of {columns[c].label} from {columns[0].label} in these games "
                        f"to size it on.")
                out.append(Target(c, key, difference, None, math.nan, alpha, said))
                continue
            sd = paired_sd(comparison, row, c)
            if sd == 0:
                sd = math.sqrt(sum(e.sd ** 2 for e in (row.values[0], row.values[c]) if not math.isnan(e.sd)))
            needed = power.games_needed(sd, difference, alpha)
            games = None if needed is None else needed * turns
            count = f"about {games:,} games per column" if games is not None else \
                f"more than {power.MOST_GAMES * turns:,} games per column"
            said = (f"To find a difference of {amount_text(row, difference, False)} in {row.label} "
                    f"({columns[c].label} against {columns[0].label}) with {power.POWER:.0%} power at "
                    f"α = {_alpha_text(alpha)}: {count} (these {comparison.games:,} played).")
            out.append(Target(c, key, difference, games, sd, alpha, said))
    return out


def to_json(found: list[Verdict], sized: list[Target]) -> dict:
    """The verdicts and targets as the JSON's `verdicts` and `targets`."""

    def number(x):
        return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x

    return {
        "verdicts": [{"column": v.column, "family": v.family, "title": FAMILIES[v.family], "sentence": v.sentence,
                      "key": v.key, "detected": v.detected, "first": number(v.first), "value": number(v.value),
                      "diff": number(v.diff), "low": number(v.low), "high": number(v.high),
                      "others": list(v.others), "detectable": number(v.detectable), "alpha": number(v.alpha),
                      "power": power.POWER if not v.detected else None, "sd": number(v.sd),
                      "n": v.n if not v.detected else None, "basis": v.basis or None} for v in found],
        "targets": [{"column": t.column, "key": t.key, "difference": t.difference, "games": t.games,
                     "sd": number(t.sd), "alpha": number(t.alpha), "power": power.POWER, "sentence": t.sentence}
                    for t in sized],
    }


def lines(comparison, found: list[Verdict], sized: list[Target]) -> list[str]:
    """The verdicts as the terminal says them: a line per family and column, then the targets."""
    out = [f"{FAMILIES[v.family]}: {v.sentence}" for v in found]
    return out + [t.sentence for t in sized]


# -- --target-difference ---------------------------------------------------------------------

#: A `--target-difference` value: a positive number, `pt` or `%` after it for a proportion.
AMOUNT = re.compile(r"^\s*(\+?(?:\d+(?:\.\d*)?|\.\d+))\s*(pt|%)?\s*$")


def parse_target(text: str) -> tuple[str, float, bool]:
    """`ROW=VALUE` -> (row key, value, whether it was written as percentage points); ValueError
    saying what is wrong and what is expected."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    example = "e.g. margin=0.5 or close=5pt"
    if not sep or not key:
        raise ValueError(f"{text!r} is not ROW=VALUE ({example})")
    found = AMOUNT.match(raw)
    if not found:
        raise ValueError(f"{text!r}: {raw.strip()!r} is not a positive number (expected ROW=VALUE, the value in "
                         f"the row's units, a proportion's in percentage points: {example})")
    value = float(found[1])
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{text!r}: the difference must be more than 0 ({example})")
    return key, value, found[2] is not None


def row_kind(key: str, variants, players: int) -> str | None:
    """Whether a row key names a row these variants can have: "percent" (a rate or a share:
    its difference in percentage points), "number", or None for no such row."""
    found = kingdom_of(key)
    if key.startswith(KINGDOM_PREFIX) and found is None:
        return None
    base = found[1] if found else key
    if found is None:
        if base in CORE_ROWS:
            return "percent" if base in CORE_RATES else "number"
        if base in (BALANCE, UNIFORMITY):
            return "number"
        if re.fullmatch(r"win\.seat[1-9][0-9]*", base):
            return "percent" if int(base[len("win.seat"):]) <= players else None
        if base.startswith("win.agent."):
            return "percent"
        for prefix in ITEM_ROWS:
            if base.startswith(prefix) and any(base[len(prefix):] in v.modules.item_labels for v in variants):
                return "percent"
    for variant in variants:
        if found is not None and found[0] >= len(variant.edition.kingdoms):
            continue
        for event in variant.modules.events.values():
            for stat in event.statistics:
                if re.fullmatch(_pattern(stat.key), base):
                    return "percent" if stat.per_game == "share" else "number"
    return None


def check_targets(texts, variants, players: int) -> list[tuple[str, float]]:
    """The `--target-difference` texts as (row key, difference in the row's own units: a
    proportion's as a fraction), checked against the rows these variants can have before any
    game is played; ValueError naming every problem."""
    problems, out = [], []
    for text in texts:
        try:
            key, value, as_points = parse_target(text)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        kind = row_kind(key, variants, players)
        if kind is None:
            problems.append(f"{text!r}: no row {key!r} in these variants (expected a row key of --json, e.g. "
                            f"margin, close, win.seat1, balance, points.pyramids, auction_price)")
        elif kind == "percent":
            if value >= 100:
                problems.append(f"{text!r}: a proportion's difference is less than 100 percentage points")
            else:
                out.append((key, value / 100))
        elif as_points:
            problems.append(f"{text!r}: {key} is not a proportion (expected a number in its own units, "
                            f"without pt or %)")
        else:
            out.append((key, value))
    if problems:
        raise ValueError("; ".join(problems))
    return out
