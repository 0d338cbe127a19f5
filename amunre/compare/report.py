"""How a comparison reads: a terminal table, JSON and CSV with the same numbers.

Each cell is a column's mean with its 95% interval (a win rate or a share as a percentage,
its interval Wilson's or Student's); every column after the first also shows its paired
difference from the first (Δ), marked ▲ or ▼ when it is significant after Holm's
correction over the rows (`amunre.compare.stats`).
"""

from __future__ import annotations

import csv
import io
import math

from rich.table import Table
from rich.text import Text

from amunre.compare.jobs import rotations
from amunre.compare.stats import LEVEL

SCHEMA_VERSION = 2


def digits_of(row) -> int:
    """Decimals for every number of a row, its means, their ± and sd, and its differences: 1
    where a column's mean reaches 100 (`209.8 ± 2.8`), else 2 (`3.86 ± 0.18`)."""
    means = [abs(e.mean) for e in row.values if e is not None and not math.isnan(e.mean)]
    return 1 if means and max(means) >= 100 else 2


def _number(x: float, digits: int = 2) -> str:
    if x is None or math.isnan(x):
        return "-"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.00"


def _percent(x: float) -> str:
    return "-" if x is None or math.isnan(x) else f"{max(0.0, 100 * x) if abs(x) < 5e-7 else 100 * x:.1f}%"


def _value_lines(row, estimate, digits: int) -> list[str]:
    """A column's number for a row: the estimate, then its interval (a proportion's) or its
    sd (the winning score's) where there is one."""
    if estimate is None:
        return ["—"]
    if row.kind in ("rate", "share"):
        if math.isnan(estimate.low):
            return [_percent(estimate.mean)]
        lines = [_percent(estimate.mean), f"({_percent(estimate.low)}–{_percent(estimate.high)})"]
        return lines + [count_text(estimate)] if row.kind == "rate" else lines
    if math.isnan(estimate.low):  # one game: no spread, no interval
        return [_number(estimate.mean, digits)]
    lines = [f"{_number(estimate.mean, digits)} ± {_number((estimate.high - estimate.low) / 2, digits)}"]
    if row.key == "winning_score":
        lines.append(f"(sd {_number(estimate.sd, digits)})")
    return lines


def successes(estimate) -> float:
    """The games a proportion counts (a shared win its share), as a number of the JSON."""
    return round(estimate.mean * estimate.n, 6)


def count_text(estimate) -> str:
    """A proportion's count: `3 of 5`, `2.5 of 5` with a shared win."""
    k = successes(estimate)
    return f"{k:.0f} of {estimate.n}" if abs(k - round(k)) < 5e-6 else f"{k:.1f} of {estimate.n}"


def value_text(row, estimate, digits: int | None = None) -> str:
    """A column's number for a row on one line: `22.74 ± 0.70 (sd 4.99)`, `25.0% (19.5%–31.4%; 10 of 40)`;
    a mean and its ± with the same decimals (`digits_of`)."""
    lines = _value_lines(row, estimate, digits_of(row) if digits is None else digits)
    if row.kind == "rate" and len(lines) == 3:  # the count inside the interval's brackets
        return f"{lines[0]} {lines[1][:-1]}; {lines[2]})"
    return " ".join(lines)


def _signed(x: float, digits: int) -> str:
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text  # no "-0.0": a difference too small to show is none


def diff_text(row, paired, digits: int | None = None) -> str:
    if paired is None:
        return ""
    if row.kind in ("rate", "share"):
        amount = f"{_signed(100 * paired.diff, 1)} pt"
    else:
        amount = _signed(paired.diff, digits_of(row) if digits is None else digits)
    mark = (" ▲" if paired.diff > 0 else " ▼") if paired.significant else ""
    return f"{amount}{mark}"


def shown_label(label: str) -> str:
    """A row label as the table shows it: its first letter upper-case, whether it starts with
    an edition's term ("Gold", "Victory Points") or plain words ("games decided by ...")."""
    return label[:1].upper() + label[1:]


def headers(comparison) -> list[str]:
    """The columns' headings: a sweep's columns by their value alone (`=15`: the key is said
    once, above the table), other columns by their label."""
    columns = comparison.columns
    keys = {column.setting.partition("=")[0].strip() for column in columns}
    if all(column.setting for column in columns) and len(keys) == 1:
        return ["=" + column.setting.partition("=")[2].strip() for column in columns]
    return [column.label for column in columns]


#: The widest a column's heading is shown on a terminal (a longer one is cut in its middle).
HEADER_WIDTH = 24
#: The least width of the label column, in a wide table and in a stacked one.
LABEL_WIDTH = 24
STACKED_LABEL_WIDTH = 14


def table(comparison, rows, title: str | None = None, width: int | None = None) -> Table:
    """The rich table: a row per statistic, a column per variant (or sweep value).

    Wide (for `width` None: piped output; or a terminal wide enough): each column's number
    on one line, and after each column but the first its difference from the first (Δ) in a
    column of its own. Narrower, each cell stacks its lines instead (the estimate, then its
    interval or sd, then `Δ ...`), so that three columns fit 80 characters. Labels wrap,
    but not below a least width; a number is never split."""
    names = headers(comparison)
    if width is not None:  # a terminal: a long variant id cut in its middle, so the numbers still fit
        names = [name if len(name) <= HEADER_WIDTH else name[:HEADER_WIDTH // 2 - 1] + "…" +
                 name[len(name) - (HEADER_WIDTH - HEADER_WIDTH // 2):] for name in names]
    one_line = [[value_text(row, estimate) for estimate in row.values] for row in rows]
    deltas = [[diff_text(row, paired) for paired in row.versus] for row in rows]
    sloped = any(row.trend is not None for row in rows)
    slopes = [diff_text(row, row.trend, max(2, digits_of(row))) for row in rows] if sloped else []
    widths = [max([len(names[c])] + [len(cells[c]) for cells in one_line]) for c in range(len(names))]
    widths += [max([1] + [len(cells[c]) for cells in deltas]) for c in range(1, len(names))]
    widths += [max([5] + [len(text) for text in slopes])] if sloped else []
    stacked = width is not None and LABEL_WIDTH + sum(widths) + 3 * (len(widths) + 1) + 1 > width
    out = Table(title=Text(title) if title else None, leading=1 if stacked else 0)
    out.add_column("", ratio=1, min_width=STACKED_LABEL_WIDTH if stacked else 12, overflow="fold")
    for c, name in enumerate(names):
        out.add_column(Text(name), justify="right", no_wrap=True)
        if c and not stacked:
            out.add_column(Text("Δ"), justify="right", no_wrap=True)
    if sloped and not stacked:
        out.add_column(Text("slope"), justify="right", no_wrap=True)
    last_group = None
    for r, row in enumerate(rows):
        if row.kingdom is not None:  # the by-kingdom table: a statistic's kingdoms together
            if last_group is not None and row.row != last_group:
                out.add_section()
            last_group = row.row
        else:
            group = row.key.split(".")[0] if row.key.startswith(("win.", "points.", "offering_level.")) else row.key
            if last_group is not None and group != last_group and (row.key.startswith(("win.", "points.")) or
                                                                   last_group in ("win", "points")):
                out.add_section()
            last_group = group
        cells = []
        for c, estimate in enumerate(row.values):
            if stacked:
                lines = _value_lines(row, estimate, digits_of(row)) + ([f"Δ {deltas[r][c]}"] if deltas[r][c] else [])
                if sloped and slopes[r] and c == len(row.values) - 1:  # the slope under the last column
                    lines.append(f"slope {slopes[r]}")
                cells.append(Text("\n".join(lines)))
            else:
                cells.append(Text(one_line[r][c]))
                if c:
                    cells.append(Text(deltas[r][c]))
        if sloped and not stacked:
            cells.append(Text(slopes[r]))
        out.add_row(Text(shown_label(row.label)), *cells)
    return out


def legend(comparison, rows=(), by_kingdom=()) -> str:
    first = comparison.columns[0].label
    games = f"{comparison.games} game{'' if comparison.games == 1 else 's'}"
    lines = [f"± and (low–high): {LEVEL:.0%} confidence interval of the mean over {games} "
             f"(a proportion of games, such as a win rate: Wilson's interval, with its count \"k of n\"; "
             f"a shared win counts its share)."]
    if comparison.games == 1:
        lines[0] += " From one game only a proportion of games has an interval; a mean needs two."
    if len(comparison.columns) > 1:
        lines.append(f"Δ: difference from {first} (pt: percentage points), game by game on the same seeds; "
                     f"▲/▼: significant at 5% (paired t-test, Holm's correction over every Δ of the table); "
                     f"between two proportions the interval and its test are Newcombe's paired score interval's.")
    if any(row.trend is not None for row in rows):
        lines.append("slope: the change per unit of the swept value (least squares, game by game), ▲/▼ as for Δ "
                     "(Holm over the slopes).")
    if by_kingdom:
        apart = " Holm's correction runs over the by-kingdom rows apart from the main table's."
        lines.append("By kingdom: " + BY_KINGDOM_NOTE[:1].lower() + BY_KINGDOM_NOTE[1:] +
                     (apart if len(comparison.columns) > 1 else ""))
    return "\n".join(lines)


#: What the by-kingdom table holds, in a sentence (the terminal's legend, the page's note).
BY_KINGDOM_NOTE = ("Each rule module's row counted within each kingdom, from the end of the kingdom "
                   "before's scoring to the end of its own (the final scoring is the last kingdom's): a sum or a "
                   "per-player row adds up over the kingdoms to the game's; a mean or a share is of the kingdom's "
                   "own events. Kingdoms are compared by their place in the game.")


#: The game's fields each line of a records CSV repeats (`records_csv`).
GAME_FIELDS = ("margin", "spread", "close", "tie_break", "rounds", "decisions")


def records_csv(comparison) -> str:
    """`--records`: one line per game, column and seat: the seed and the lineup's rotation
    (`amunre run --seed SEED` replays it, agents as the line's), the column, the seat, its
    agent, rank (1: a winner), points, gold, pyramids and stones in its provinces, the game's
    closeness and length fields, then its points by scoring item (`points.ITEM`, empty where
    the column's variant has no such item), then the game's by-kingdom rows (`kingdomK.ROW`,
    the by-kingdom table's keys and order: the same on each of the game's lines; empty where
    the column has no such row or kingdom, or a mean has no event in it). docs/compare.md
    lists them."""
    from amunre.compare.collect import missing_means_zero
    from amunre.compare.rescore import records_fields, records_values
    from amunre.compare.run import summarize_by_kingdom

    items: list[str] = []
    for column in comparison.columns:
        for item in column.variant.modules.item_labels:
            if item not in items:
                items.append(item)
    by_kingdom = [row.key for row in summarize_by_kingdom(comparison)]
    metas = comparison.tally.rows or [{} for _ in comparison.columns]
    fields = (["seed", "rotation", "column", "variant", "seat", "agent", "rank", "points", "gold", "pyramids",
               "stones"] + list(GAME_FIELDS) + [f"points.{item}" for item in items] + by_kingdom
              + records_fields(comparison))
    out = io.StringIO()
    writer = csv.DictWriter(out, fields, lineterminator="\n")
    writer.writeheader()
    for record in comparison.tally.records:
        for c, (column, values, seats, meta) in enumerate(zip(comparison.columns, record["values"], record["seats"],
                                                              metas)):
            game = {name: _plain_number(values.get(name)) for name in GAME_FIELDS}
            game.update({name: _plain_number(value) for name, value in records_values(record, c).items()})
            for key in by_kingdom:  # a count without its events in this game is 0; a mean, none
                value = values.get(key)
                if value is None and key in meta and missing_means_zero(meta[key][1]):
                    value = 0
                game[key] = _plain_number(value)
            for seat in seats:
                line = {"seed": record["seed"], "rotation": record["rotation"], "column": column.label,
                        "variant": column.variant.id, **{k: seat[k] for k in ("seat", "agent", "rank", "points",
                                                                             "gold", "pyramids", "stones")}, **game}
                line.update({f"points.{item}": value for item, value in seat["items"].items()})
                writer.writerow(line)
    return out.getvalue()


def _plain_number(x):
    """A whole number as an integer (`1`, not `1.0`: a flag or a count reads as one)."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def to_json(comparison, rows, differences: list, by_kingdom=(), rescored=None) -> dict:
    """The comparison as data (`schemas/compare.schema.json`); `by_kingdom`: the by-kingdom
    rows (`run.summarize_by_kingdom`); `rescored`: the identical games and re-scorings
    (`rescore.summarize_rescored`)."""

    def estimate(e, kind):
        return None if e is None else {"mean": _finite(e.mean), "sd": _finite(e.sd), "low": _finite(e.low),
                                       "high": _finite(e.high), "n": e.n,
                                       "successes": successes(e) if kind == "rate" else None}

    def versus(p):
        return None if p is None else {"diff": _finite(p.diff), "low": _finite(p.low), "high": _finite(p.high),
                                       "p": _finite(p.p), "p_holm": _finite(p.p_holm), "significant": p.significant,
                                       "n": p.n, "correlation": _finite(p.correlation), "pairing": _finite(p.pairing)}

    def row(r):
        return {"key": r.key, "label": r.label, "kind": r.kind, "values": [estimate(v, r.kind) for v in r.values],
                "versus_first": [versus(p) for p in r.versus],
                "versus_previous": [versus(p) for p in r.adjacent] or [None] * len(r.values),
                "trend": versus(r.trend)}

    doc = {
        "schema_version": SCHEMA_VERSION,
        "games": comparison.games,
        "games_asked": comparison.games_asked,
        "rotations": rotations(tuple(comparison.agents)),
        "interrupted": bool(comparison.interrupted),
        "seed": comparison.seed,
        "players": comparison.players,
        "agents": list(comparison.agents),
        "set": list(comparison.settings),
        "level": LEVEL,
        "columns": [{"label": c.label, "variant": c.variant.id, "source": c.variant.source, "setting": c.setting}
                    for c in comparison.columns],
        "rows": [row(r) for r in rows],
        "by_kingdom": [{**row(r), "row": r.row, "kingdom": r.kingdom + 1, "kingdoms": list(r.kingdoms)}
                       for r in by_kingdom],
        "differences": differences,
    }
    if rescored is not None:
        from amunre.compare.rescore import to_json_part

        doc.update(to_json_part(rescored))
    return doc


def _finite(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


CSV_FIELDS = ["key", "label", "kind", "column", "variant", "setting", "set", "mean", "sd", "low", "high", "n",
              "successes", "diff", "diff_low", "diff_high", "p", "p_holm", "significant", "correlation", "pairing",
              "step", "step_low", "step_high", "step_p_holm", "step_significant",
              "slope", "slope_low", "slope_high", "slope_p_holm", "slope_significant"]


def to_csv(comparison, rows) -> str:
    """One line per row and column, the same numbers as the JSON; `set` holds the `--set`
    KEY=VALUE texts (the same on every line), joined by "; ". `step_*`: the column against the
    one before it (a sweep's steps); `slope_*`: a numeric sweep's trend, on every line of the row."""
    out = io.StringIO()
    settings = "; ".join(comparison.settings)
    writer = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        for c, column in enumerate(comparison.columns):
            e, p = row.values[c], row.versus[c]
            line = {"key": row.key, "label": row.label, "kind": row.kind, "column": column.label,
                    "variant": column.variant.id, "setting": column.setting, "set": settings}
            if e is not None:
                line.update(mean=_finite(e.mean), sd=_finite(e.sd), low=_finite(e.low), high=_finite(e.high), n=e.n,
                            successes=successes(e) if row.kind == "rate" else None)
            if p is not None:
                line.update(diff=_finite(p.diff), diff_low=_finite(p.low), diff_high=_finite(p.high),
                            p=_finite(p.p), p_holm=_finite(p.p_holm), significant=p.significant,
                            correlation=_finite(p.correlation), pairing=_finite(p.pairing))
            step = row.adjacent[c] if row.adjacent and c else None
            if step is not None:
                line.update(step=_finite(step.diff), step_low=_finite(step.low), step_high=_finite(step.high),
                            step_p_holm=_finite(step.p_holm), step_significant=step.significant)
            if row.trend is not None:
                t = row.trend
                line.update(slope=_finite(t.diff), slope_low=_finite(t.low), slope_high=_finite(t.high),
                            slope_p_holm=_finite(t.p_holm), slope_significant=t.significant)
            writer.writerow(line)
    return out.getvalue()
