"""`amunre compare --html FILE.html`: one self-contained page to read a comparison and send it on.

The page holds what changed in the rules (as `amunre diff` says it), what it does to play (the
table, with each column's difference from the first and, for a numeric sweep, the slope), how
sure we are (every interval, Holm's correction), and the pictures: each row's difference with
its interval (a forest plot), the winning scores' distributions, the points per scoring item,
and for a numeric sweep the curves of the main rows with their paired interval bands.

Everything is inside the file: the pictures are inline SVG drawn by matplotlib (the `plot`
extra), the style is inline, there is no script and nothing is loaded. Every string from a
variant file is escaped. Each number cell carries the exact value of the JSON (`data-*`), so a
test can check the page against `--json`.
"""

from __future__ import annotations

import datetime
import html
import io
import math

import attrs

from amunre import __version__
from amunre.compare.jobs import rotations
from amunre.compare.report import BY_KINGDOM_NOTE, diff_text, digits_of, headers, shown_label, successes, value_text
from amunre.compare.stats import LEVEL

#: Rows drawn as sweep curves, when the table has them (then the scoring items' points).
CURVE_ROWS = ("winning_score", "margin", "close", "gold_end", "start_player_wins")
#: At most this many sweep curves.
MOST_CURVES = 9

STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2428; margin: 0;
       background: #fafaf7; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 28px 60px; }
h1 { font-size: 26px; margin: 10px 0 4px; } h2 { font-size: 20px; margin: 34px 0 8px; border-bottom: 1px solid #ccd;
     padding-bottom: 4px; }
p.lede { color: #444; margin: 4px 0 14px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 14px; }
th, td { padding: 4px 9px; border-bottom: 1px solid #e3e3dc; vertical-align: top; }
th { text-align: left; background: #efefe8; position: sticky; top: 0; max-width: 260px; }
td { overflow-wrap: anywhere; }
th, td:first-child { overflow-wrap: normal; }
td:first-child code { white-space: nowrap; } /* a key and its SPEC id (A-ADJUST) stay whole */
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.up { color: #0b6b2e; font-weight: 600; } td.down { color: #a3261b; font-weight: 600; }
tr.group td { border-top: 2px solid #c9c9bf; }
.figure { background: #fff; border: 1px solid #e3e3dc; margin: 10px 0; padding: 6px; }
.figure svg { width: 100%; height: auto; display: block; }
.note { color: #555; font-size: 13px; }
dl.verdicts dt { font-weight: 600; color: #1d2428; } dl.verdicts dd.found { color: #0b3d6b; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
dt { color: #555; } dd { margin: 0; }
h3 { font-size: 16px; margin: 18px 0 4px; }
details summary { cursor: pointer; color: #345; margin: 6px 0; }
/* a phone: the page never scrolls sideways; a wide table scrolls in its own box, and a list
   of verdicts or facts puts each name above its text */
@media (max-width: 700px) {
  main { padding: 12px 14px 40px; }
  h1 { font-size: 22px; }
  dl { grid-template-columns: 1fr; gap: 0; } dd { margin-bottom: 8px; }
  table { display: block; max-width: 100%; overflow-x: auto; }
  th { position: static; }
}
"""


def write_report(plt, comparison, rows, differences: list, path: str, by_kingdom=(), rescored=(), said=None) -> None:
    """Write the page to `path`, whole or not at all."""
    from amunre.gamelog import write_atomically

    write_atomically(path, report_page(plt, comparison, rows, differences, by_kingdom, rescored, said),
                     what="the report", argument="--html")


def report_page(plt, comparison, rows, differences: list, by_kingdom=(), rescored=(), said=None) -> str:
    """The whole page as text; `by_kingdom`: the by-kingdom rows (`run.summarize_by_kingdom`),
    a section of their own after the table; `rescored` (`rescore.summarize_rescored`): the
    identical games at the top, the re-scorings in a section after the table; `said`: the
    verdicts and targets in words (`verdicts.verdicts`, `verdicts.targets`), the page's first
    section (made here if not given)."""
    from amunre.compare.rescore_report import html_identical, html_section

    if said is None:
        from amunre.compare import verdicts

        said = (verdicts.verdicts(comparison, rows), [])
    e = html.escape
    columns = comparison.columns
    title = " vs ".join(column.label for column in columns) if len(columns) > 1 else columns[0].label
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>amunre compare: {e(title)}</title><style>{STYLE}</style></head><body><main>",
             f"<h1>{e(title)}</h1>",
             f"<p class=\"lede\">{_summary_line(comparison)}</p>", html_identical(comparison, rescored),
             _verdicts_html(comparison, *said),
             _run_facts(comparison),
             "<h2 id=\"rules\">What differs in the rules</h2>", _differences_html(differences, columns),
             "<h2 id=\"differences\">What it does to play</h2>",
             _explain(comparison, rows, by_kingdom),
             _figure(_forest(plt, comparison, rows), "forest",
                     "Each row's difference from the first column, game by game on the same seeds, in standard "
                     "deviations of the first column (so that rows of different units share one scale); the bar is "
                     f"the {LEVEL:.0%} interval, a filled dot a difference significant after Holm's correction."),
             "<h2 id=\"table\">The table</h2>", _table(comparison, rows),
             html_section(comparison, rescored, rows, by_kingdom),
             _by_kingdom(comparison, by_kingdom),
             "<h2 id=\"pictures\">Pictures</h2>",
             _figure(_scores(plt, comparison), "scores", "How the winning score is distributed in each column."),
             _figure(_items(plt, comparison, rows), "items",
                     f"Points per player per scoring item, with {LEVEL:.0%} intervals."),
             ]
    curves = _curves(plt, comparison, rows)
    if curves is not None:
        parts.append(_figure(curves, "sweep", f"The main rows against the swept value. The band is the {LEVEL:.0%} "
                                              "paired interval of each value's difference from the first value, "
                                              "game by game on the same seeds, drawn around the first value's mean "
                                              "plus that difference: a trend the games share shows as the table "
                                              "tests it."))
    parts.append(f"<p class=\"note\">Written by amunre {e(__version__)} on "
                 f"{datetime.date.today().isoformat()}. How to read each row: docs/compare.md in the amunre "
                 f"repository.</p></main></body></html>\n")
    return "\n".join(part for part in parts if part)


def _summary_line(comparison) -> str:
    games = comparison.games
    turns = rotations(tuple(comparison.agents))
    rotated = f", each seed in {turns} rotations of the lineup over the seats" if turns > 1 else ""
    return html.escape(f"{games} game{'' if games == 1 else 's'} per column, {comparison.players} players "
                       f"({', '.join(comparison.agents)}{rotated}), every column on the same seeds "
                       f"(run seed {comparison.seed}).")


def _verdicts_html(comparison, found, sized) -> str:
    """The verdicts: a sentence per family and column (the JSON's `verdicts`), each carrying
    its numbers (`data-*`), then the games a `--target-difference` asks for."""
    from amunre.compare.verdicts import FAMILIES

    if not found and not sized:
        return ""
    e = html.escape
    items = []
    for v in found:
        cls = "found" if v.detected else "none"
        items.append(f"<dt>{e(FAMILIES[v.family])}</dt><dd class=\"{cls}\" data-family=\"{e(v.family)}\" "
                     f"data-column=\"{v.column}\" data-key=\"{e(v.key)}\" data-diff=\"{_exact(v.diff)}\" "
                     f"data-low=\"{_exact(v.low)}\" data-high=\"{_exact(v.high)}\">{e(v.sentence)}</dd>")
    for t in sized:
        items.append(f"<dt>Games needed</dt><dd data-target=\"{e(t.key)}\" data-column=\"{t.column}\" "
                     f"data-games=\"{'' if t.games is None else t.games}\">{e(t.sentence)}</dd>")
    return ("<section id=\"verdicts\"><h2>Verdict</h2><dl class=\"verdicts\">" + "".join(items) + "</dl>"
            "<p class=\"note\">A sentence per family of rows: the row that moved most among those marked after "
            "Holm's correction, or, where none is, the smallest difference these games could have found "
            "(docs/compare.md, \"The verdicts\").</p></section>")


def _run_facts(comparison) -> str:
    e = html.escape
    items = []
    from amunre.loader.compare import plugins_text

    for column in comparison.columns:
        needs = plugins_text(column.variant)
        items.append(f"<dt>{e(column.label)}</dt><dd>{e(_named(column))}"
                     f"{f'; {e(needs)}' if needs else ''}</dd>")
    if comparison.settings:
        items.append(f"<dt>--set</dt><dd>{e('; '.join(comparison.settings))}</dd>")
    if comparison.interrupted:
        items.append(f"<dt>stopped</dt><dd>interrupted: {comparison.games} of {comparison.games_asked} games</dd>")
    return "<dl>" + "".join(items) + "</dl>"


def _named(column) -> str:
    """Where a column's variant comes from, in words a co-designer can use: a shipped variant
    by its id (never the place pip put it), a designer's file by the path he gave."""
    from amunre.loader.resources import shipped_name

    variant = column.variant
    if shipped_name(variant.source) is not None and column.named in ("", variant.id):
        return f"{variant.id}, shipped with amunre"
    named = column.named if column.named and column.named != variant.id else variant.source
    return f"{variant.id} from {named}" if named else variant.id


#: Groups of rule differences shown folded: the words an edition uses, not its rules.
FOLDED_GROUPS = ("terminology",)


def _differences_html(differences: list, columns) -> str:
    """Each column's rule differences from the first, a table per group as `amunre diff`
    groups them (the edition's words folded away, a click opens them)."""
    from amunre.loader.compare import text

    if not differences:
        return "<p>One column: nothing to set side by side.</p>"
    e = html.escape
    first = columns[0].label
    out = []
    for c, block in enumerate(differences, start=1):
        sides = (columns[0].variant, columns[c].variant) if c < len(columns) else (columns[0].variant,)
        groups = {name: rows for name, rows in block["diff"]["groups"].items() if rows}
        out.append(f"<h3>{e(block['column'])} against {e(first)}</h3>")
        if not groups:
            out.append("<p>No differences in the effective rules.</p>")
            continue
        for name, rows in groups.items():
            body = "".join(f"<tr><td>{_key_cell(name, row, sides)}</td><td>{e(text(row['a']))}</td>"
                           f"<td>{e(text(row['b']))}</td></tr>" for row in rows)
            shown = (f"<table><thead><tr><th>{e(name)}</th><th>{e(first)}</th><th>{e(block['column'])}</th>"
                     f"</tr></thead><tbody>{body}</tbody></table>")
            if name in FOLDED_GROUPS:
                shown = (f"<details><summary>{e(name)}: {len(rows)} difference{'' if len(rows) == 1 else 's'} of "
                         f"wording</summary>{shown}</details>")
            out.append(shown)
    return "".join(out)


def _key_cell(group: str, row: dict, variants) -> str:
    """A difference's key: the module's words for it, the key (and a ruling's SPEC id) beside."""
    from amunre.compare.rule_names import key_name
    from amunre.loader.compare import key_text

    name = key_name(group, row["key"], variants)
    code = f"<code>{html.escape(key_text(row))}</code>"
    return f"{html.escape(name)} {code}" if name else code


def _group(key: str) -> str:
    """The part of the table a row belongs to (a line is drawn between parts)."""
    from amunre.compare.collect import CORE_ROWS

    if key in CORE_ROWS:
        return "game"
    for prefix in ("win.", "points.", "item_share.winner.", "item_share.others.", "item_wins."):
        if key.startswith(prefix):
            return prefix
    return "rules"


def _explain(comparison, rows, by_kingdom=()) -> str:
    """The significant differences in words, the largest effects first; then those of the
    by-kingdom rows (their own Holm family), the earliest kingdom first: when in the game a
    change acts."""
    e = html.escape
    if len(comparison.columns) < 2:
        return "<p>One column: no difference to test; the table below gives its numbers.</p>"
    said = []
    for c, column in enumerate(comparison.columns[1:], start=1):
        marked = [row for row in rows if row.versus[c] is not None and row.versus[c].significant]
        if not marked:
            said.append(f"<li>{e(column.label)}: no row differs significantly from "
                        f"{e(comparison.columns[0].label)} over these games.</li>")
            continue
        shown = ", ".join(f"{e(shown_label(row.label))} {e(diff_text(row, row.versus[c]))}" for row in marked[:8])
        more = f" and {len(marked) - 8} more" if len(marked) > 8 else ""
        said.append(f"<li>{e(column.label)} against {e(comparison.columns[0].label)}: {shown}{more}.</li>")
    for c, column in enumerate(comparison.columns[1:], start=1):
        # the earliest kingdom first: where a change acts before the kingdom it scores in
        marked = sorted((row for row in by_kingdom if row.versus[c] is not None and row.versus[c].significant),
                        key=lambda row: row.kingdom)
        if marked:
            shown = ", ".join(f"{e(shown_label(row.label))} {e(diff_text(row, row.versus[c]))}" for row in marked[:8])
            more = f" and {len(marked) - 8} more" if len(marked) > 8 else ""
            said.append(f"<li>By kingdom, {e(column.label)} against {e(comparison.columns[0].label)}: "
                        f"{shown}{more} (<a href=\"#by-kingdom\">the by-kingdom table</a>).</li>")
    return "<ul>" + "".join(said) + "</ul>"


def _by_kingdom(comparison, rows) -> str:
    """The by-kingdom section: the rule modules' rows within each kingdom, a statistic's
    kingdoms together, with its own Holm family."""
    if not rows:
        return ""
    return (f"<h2 id=\"by-kingdom\">By kingdom</h2><p class=\"note\">{html.escape(BY_KINGDOM_NOTE)}</p>"
            + _table(comparison, rows, "the by-kingdom rows (a family apart from the main table's)"))


def _table(comparison, rows, family: str = "every Δ of the table") -> str:
    e = html.escape
    names = headers(comparison)
    sloped = any(row.trend is not None for row in rows)
    head = ["<th>row</th>"]
    for c, name in enumerate(names):
        head.append(f"<th>{e(name)}</th>")
        if c:
            head.append("<th>Δ</th><th title=\"per-game correlation with the first column\">r<sup>*</sup></th>")
    if sloped:
        head.append("<th>slope</th>")
    body = []
    last = None
    for row in rows:
        group = row.row if row.kingdom is not None else _group(row.key)
        cls = " class=\"group\"" if last is not None and group != last else ""
        last = group
        cells = [f"<td>{e(shown_label(row.label))}</td>"]
        for c, estimate in enumerate(row.values):
            if estimate is None:
                cells.append("<td class=\"num\">—</td>")
            else:
                cells.append(f"<td class=\"num\" data-key=\"{e(row.key)}\" data-column=\"{c}\" "
                             f"data-mean=\"{_exact(estimate.mean)}\"{_successes(row, estimate)}>"
                             f"{e(value_text(row, estimate))}</td>")
            if c:
                paired = row.versus[c]
                if paired is None:
                    cells.append("<td class=\"num\"></td><td class=\"num\"></td>")
                    continue
                mark = (" up" if paired.diff > 0 else " down") if paired.significant else ""
                title = (f"{LEVEL:.0%} interval {paired.low:.4g} to {paired.high:.4g}; p = {paired.p:.3g}, "
                         f"after Holm {paired.p_holm:.3g}")
                cells.append(f"<td class=\"num{mark}\" title=\"{e(title)}\" data-diff=\"{_exact(paired.diff)}\">"
                             f"{e(diff_text(row, paired))}</td>")
                cells.append(f"<td class=\"num\" title=\"per-game correlation with the first column\">"
                             f"{'' if math.isnan(paired.correlation) else f'{paired.correlation:.2f}'}</td>")
        if sloped:
            trend = row.trend
            mark = (" up" if trend.diff > 0 else " down") if trend is not None and trend.significant else ""
            text = _slope_text(row, trend) if trend is not None else ""
            data = (f" data-slope=\"{_exact(trend.diff)}\" data-slope-low=\"{_exact(trend.low)}\" "
                    f"data-slope-high=\"{_exact(trend.high)}\"" if trend is not None else "")
            cells.append(f"<td class=\"num{mark}\"{data}>{e(text)}</td>")
        body.append(f"<tr{cls}>{''.join(cells)}</tr>")
    legend = (f"± and (low–high): {LEVEL:.0%} interval of the mean (a proportion of games, such as a win rate: "
              "Wilson's, with its count \"k of n\"; a shared win counts its share). "
              "Δ: difference from the first column, game by game (two proportions: Newcombe's paired score "
              "interval); bold green or red: significant after Holm's "
              f"correction over {family}.")
    if sloped:
        legend += (f" slope: change per unit of the swept value (least squares, game by game), with its {LEVEL:.0%} "
                   "interval over the games' own slopes; Holm over the slopes.")
    footnote = ("* r: the per-game correlation of that column with the first, on the same seeds (from -1 to 1). "
                "It says how much the common seeds helped the row: the higher r, the more of the two columns' luck "
                "the games share and the narrower Δ's interval against two independent runs (about √(1 − r) as "
                "wide for columns of equal spread); near 0, pairing bought nothing; empty where a column does not "
                "vary.")
    return (f"<table><thead><tr>{''.join(head)}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"<p class=\"note\">{e(legend)}</p><p class=\"note footnote\">{e(footnote)}</p>")


def _slope_text(row, trend) -> str:
    """A slope with its interval, marked as the table marks: `+0.120 (+0.050 to +0.190) ▲`."""
    digits = max(2, digits_of(row))

    def plain(x: float) -> str:  # a number of the slope's, unmarked
        return diff_text(row, attrs.evolve(trend, diff=x, p_holm=1.0), digits)

    if math.isnan(trend.low):
        return diff_text(row, trend, digits)
    mark = (" ▲" if trend.diff > 0 else " ▼") if trend.significant else ""
    return f"{plain(trend.diff)} ({plain(trend.low)} to {plain(trend.high)}){mark}"


def _successes(row, estimate) -> str:
    """A proportion's count as the JSON's `successes` (`data-successes`), else nothing."""
    return f" data-successes=\"{_exact(successes(estimate))}\"" if row.kind == "rate" else ""


def _exact(x: float) -> str:
    return "" if x is None or (isinstance(x, float) and not math.isfinite(x)) else repr(float(x))


def _figure(svg: str | None, name: str, caption: str) -> str:
    if svg is None:
        return ""
    return (f"<figure class=\"figure\" id=\"figure-{name}\">{svg}"
            f"<figcaption class=\"note\">{html.escape(caption)}</figcaption></figure>")


def _svg(plt, figure) -> str:
    """A figure as inline SVG, its text kept as text (no font file, no link)."""
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        figure.savefig(out, format="svg", bbox_inches="tight")
    plt.close(figure)
    text = out.getvalue()
    return text[text.index("<svg"):]  # without the XML prologue and doctype


def _forest(plt, comparison, rows) -> str | None:
    from amunre.compare.plot import draw_forest, forest_entries

    entries = forest_entries(comparison, rows)
    if not entries:
        return None
    figure, axes = plt.subplots(figsize=(11, max(3.0, 0.26 * len(entries) + 1.2)))
    draw_forest(plt, axes, comparison, entries)
    figure.tight_layout()
    return _svg(plt, figure)


def _scores(plt, comparison) -> str | None:
    from amunre.compare.plot import draw_scores

    if not any(comparison.tally.winning_scores):
        return None
    figure, axes = plt.subplots(figsize=(11, 3.6))
    draw_scores(axes, comparison)
    figure.tight_layout()
    return _svg(plt, figure)


def _items(plt, comparison, rows) -> str | None:
    from amunre.compare.plot import draw_items

    items = [row for row in rows if row.key.startswith("points.")]
    if not items:
        return None
    figure, axes = plt.subplots(figsize=(11, 4.2))
    draw_items(axes, comparison, items)
    figure.tight_layout()
    return _svg(plt, figure)


def _curves(plt, comparison, rows) -> str | None:
    from amunre.compare.run import swept_values

    xs = swept_values(comparison.columns)
    if not xs:
        return None
    by_key = {row.key: row for row in rows}
    chosen = [by_key[key] for key in CURVE_ROWS if key in by_key]
    chosen += [row for row in rows if row.key.startswith("points.")]
    chosen = [row for row in chosen if paired_band(row) is not None]
    chosen = chosen[:MOST_CURVES]
    if not chosen:
        return None
    per_line = 3
    lines = math.ceil(len(chosen) / per_line)
    figure, grid = plt.subplots(lines, per_line, figsize=(11, 2.7 * lines), squeeze=False)
    key = comparison.columns[0].setting.partition("=")[0].strip()
    for axes, row in zip([a for line in grid for a in line], chosen):
        scale = 100 if row.kind in ("rate", "share") else 1
        means = [v.mean * scale for v in row.values]
        lows, highs = paired_band(row)
        axes.fill_between(xs, [x * scale for x in lows], [x * scale for x in highs], alpha=0.25)
        axes.plot(xs, means, "o-")
        axes.set_title(_wrap(shown_label(row.label)), fontsize=9)
        axes.set_xlabel(key, fontsize=8)
        if scale == 100:
            axes.set_ylabel("%", fontsize=8)
        axes.tick_params(labelsize=8)
    for axes in [a for line in grid for a in line][len(chosen):]:
        axes.set_visible(False)
    figure.tight_layout()
    return _svg(plt, figure)


def paired_band(row) -> tuple[list[float], list[float]] | None:
    """A sweep curve's band: at each value after the first, the first value's mean plus the
    paired interval of the difference from it (game by game on the same seeds, `Row.versus`),
    so that a trend the games share shows as it is tested; at the first value, its mean (the
    reference, no width). None where a value or a difference is missing."""
    first = row.values[0]
    if first is None or any(v is None for v in row.values):
        return None
    lows, highs = [first.mean], [first.mean]
    for p in row.versus[1:]:
        if p is None or math.isnan(p.low):
            return None
        lows.append(first.mean + p.low)
        highs.append(first.mean + p.high)
    return lows, highs


def _wrap(label: str, width: int = 42) -> str:
    words, lines, line = label.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "\n".join(lines + [line])
