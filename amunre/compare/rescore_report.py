"""How the re-scored column and the identical games read on a terminal and on the `--html`
page (`amunre.compare.rescore`; the JSON's part is `rescore.to_json_part`).

For each column after the first: "k of N games identical" to the first column's, and the
first column's games re-scored by its scoring, next to the first column and the column itself:
`arithmetic` (re-scored less the first column: what the rule adds with play unchanged) and
`play` (the column less re-scored: what changed play adds), each a paired difference with its
95% interval; or, where its scoring cannot read the first's positions, why in one line. A second
table splits the points per item by kingdom (`kingdom1.points.ITEM`), beside the by-kingdom
table's numbers of the two columns: in which kingdom the rule's arithmetic acts.
"""

from __future__ import annotations

import html
import math

from rich.table import Table
from rich.text import Text

from amunre.compare.report import LABEL_WIDTH, STACKED_LABEL_WIDTH, _value_lines, shown_label, value_text
from amunre.compare.stats import LEVEL

#: What the two differences mean, said once under the table and on the page.
NOTE = (f"Re-scored: the first column's games, each kingdom's scoring (and the final scoring) re-run by this "
        f"column's scoring items on the position the game had when that scoring began, its decisions answered "
        f"as the game answered them. Arithmetic: re-scored less the first column (what the rule adds with play "
        f"unchanged); play: this column less re-scored (what changed play adds); the two add up to Δ. Both "
        f"game by game on the same seeds, with {LEVEL:.0%} intervals (no correction over the rows).")


def identical_text(found, first: str) -> str:
    """`supermeeple2016: 0 of 400 games identical to classic2003's (the same answers and events)`."""
    return (f"{found.label}: {found.identical} of {found.games} games identical to {first}'s "
            f"(the same answers and events)")


def absent_text(found) -> str:
    """Why a column has no re-scored column, in one line."""
    return f"No re-scoring of the first column's games by {found.label}'s scoring: {found.absent}"


def _digits(row, main) -> int:
    means = [abs(e.mean) for e in ([row.value] + list(main.values if main else [])) if e is not None]
    return 1 if means and max(means) >= 100 else 2


def _signed(x: float, digits: int) -> str:
    text = f"{x:+.{digits}f}"
    return text[1:] if float(text) == 0 else text


def difference_text(paired, digits: int) -> str:
    """A difference with its interval: `+5.35 (+4.63 to +6.07)`; one game: the difference alone."""
    if paired is None:
        return ""
    if math.isnan(paired.low):
        return _signed(paired.diff, digits)
    return f"{_signed(paired.diff, digits)} ({_signed(paired.low, digits)} to {_signed(paired.high, digits)})"


def _main_value(main, c: int):
    return main.values[c] if main is not None and c < len(main.values) else None


def _title(first: str, found, by_kingdom: bool = False) -> str:
    return f"{first}'s games re-scored by {found.label}'s scoring" + (", by kingdom" if by_kingdom else "")


def terminal_parts(comparison, rescored, rows, width: int | None = None, by_kingdom=()) -> list:
    """What the terminal prints after the main table: per column after the first, its
    re-scoring as a table (or why there is none, in one line), then its points per item by
    kingdom as a second table (`by_kingdom`: the by-kingdom rows, for the two columns' own
    numbers), then the note. A table as wide as its lines (`width` None: piped output, or a
    terminal wide enough) also shows the first column and the column itself; narrower, it shows
    the re-scored number and the two differences, each number above its interval."""
    by_key = {row.key: row for row in list(rows) + list(by_kingdom)}
    first = comparison.columns[0].label
    out: list = []
    for found in rescored:
        if found.absent:
            out.append(Text(absent_text(found)))
            continue
        out.append(_terminal_table(_title(first, found), found, found.rows, by_key, first, width))
        if found.by_kingdom:
            out.append(_terminal_table(_title(first, found, True), found, found.by_kingdom, by_key, first, width))
        if found.guessed:
            out.append(Text(_guessed_text(found)))
    if any(not found.absent for found in rescored):
        out.append(Text(NOTE))
    return out


def _terminal_table(title: str, found, rescored_rows, by_key: dict, first: str, width: int | None) -> Table:
    lines = []
    for row in rescored_rows:
        main = by_key.get(row.key)
        digits = _digits(row, main)
        lines.append((row, [_cell(main, _main_value(main, 0), digits), value_text(row, row.value, digits),
                            difference_text(row.arithmetic, digits), difference_text(row.play, digits),
                            _cell(main, _main_value(main, found.column), digits)]))
    headings = [first, "re-scored", "arithmetic", "play", found.label]
    widths = [max([len(headings[i])] + [len(cells[i]) for _, cells in lines]) for i in range(len(headings))]
    stacked = width is not None and LABEL_WIDTH + sum(widths) + 3 * (len(widths) + 1) + 1 > width
    table = Table(title=Text(title), leading=1 if stacked else 0)
    table.add_column("", ratio=1, min_width=STACKED_LABEL_WIDTH if stacked else 12, overflow="fold")
    for heading in (headings[1:4] if stacked else headings):
        table.add_column(Text(heading), justify="right", no_wrap=True)
    for row, cells in lines:
        if stacked:  # each number above its interval (or sd)
            cells = ["\n".join(_value_lines(row, row.value, _digits(row, by_key.get(row.key)))),
                     cells[2].replace(" (", "\n("), cells[3].replace(" (", "\n(")]
        table.add_row(Text(shown_label(row.label)), *(Text(cell) for cell in cells))
    return table


def _cell(main, estimate, digits: int) -> str:
    return "—" if main is None or estimate is None else value_text(main, estimate, digits)


def _guessed_text(found) -> str:
    return (f"In {found.guessed} of {found.games} games a decision of {found.label}'s scoring was not one the game "
            f"answered: its first policy answered it.")


def html_identical(comparison, rescored) -> str:
    """The identical games, a line per column, for the top of the page."""
    if not rescored:
        return ""
    e = html.escape
    return "<ul class=\"identical\">" + "".join(
        f"<li data-column=\"{found.column}\" data-identical=\"{found.identical}\" data-games=\"{found.games}\">"
        f"{e(identical_text(found, comparison.columns[0].label))}</li>" for found in rescored) + "</ul>"


def html_section(comparison, rescored, rows, by_kingdom=()) -> str:
    """The page's section: a table per column after the first (each number cell carries the
    JSON's exact value), then its points per item by kingdom (`by_kingdom`: the by-kingdom rows,
    for the two columns' own numbers), or the line that says why there is none."""
    if not rescored:
        return ""
    e = html.escape
    by_key = {row.key: row for row in list(rows) + list(by_kingdom)}
    first = comparison.columns[0].label
    parts = ["<h2 id=\"rescored\">How much is arithmetic</h2>"]
    for found in rescored:
        if found.absent:
            parts.append(f"<p class=\"absent\" data-column=\"{found.column}\">{e(absent_text(found))}</p>")
            continue
        parts.append(f"<h3>{e(_title(first, found))}</h3>")
        parts.append(_html_table(found, found.rows, by_key, first, "rescored"))
        if found.by_kingdom:
            parts.append(f"<h4>{e(_title(first, found, True))}</h4>")
            parts.append(_html_table(found, found.by_kingdom, by_key, first, "rescored by-kingdom"))
        if found.guessed:
            parts.append(f"<p class=\"note\">{e(_guessed_text(found))}</p>")
    parts.append(f"<p class=\"note\">{e(NOTE)}</p>")
    return "".join(parts)


def _html_table(found, rescored_rows, by_key: dict, first: str, css: str) -> str:
    e = html.escape
    # (a variant id is one word: its hyphens do not break it)
    head = "".join(f"<th style=\"white-space: nowrap\">{e(name)}</th>"
                   for name in ("row", first, "re-scored", "arithmetic", "play", found.label))
    body = []
    for row in rescored_rows:
        main = by_key.get(row.key)
        digits = _digits(row, main)
        cells = [f"<td>{e(shown_label(row.label))}</td>",
                 f"<td class=\"num\">{e(_cell(main, _main_value(main, 0), digits))}</td>",
                 _number_cell(found, row, "value", row.value.mean, value_text(row, row.value, digits)),
                 _number_cell(found, row, "arithmetic", row.arithmetic.diff, difference_text(row.arithmetic, digits)),
                 _number_cell(found, row, "play", row.play.diff, difference_text(row.play, digits)),
                 f"<td class=\"num\">{e(_cell(main, _main_value(main, found.column), digits))}</td>"]
        body.append(f"<tr>{''.join(cells)}</tr>")
    return f"<table class=\"{css}\"><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _number_cell(found, row, what: str, exact: float, text: str) -> str:
    value = "" if exact is None or not math.isfinite(exact) else repr(float(exact))
    return (f"<td class=\"num\" data-rescored=\"{found.column}\" data-key=\"{html.escape(row.key)}\" "
            f"data-what=\"{what}\" data-value=\"{value}\">{html.escape(text)}</td>")
