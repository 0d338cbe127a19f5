"""`amunre compare --plot FILE.png`: each row's difference from the first column with its
interval (a forest plot, when there are two columns or more), the winning scores'
distribution per column, and the mean points per scoring item with their 95% intervals
(matplotlib, the `plot` extra). The forest plot is the `--html` report's too."""

from __future__ import annotations

from amunre.core.errors import AmunreError


def load_matplotlib(option: str = "--plot"):
    """matplotlib's pyplot on a file-only backend, or an error naming the extra to install."""
    try:
        import matplotlib
    except ImportError:
        raise AmunreError(f"{option} needs matplotlib: pip install 'amunre[plot]'") from None
    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as plt

    # a variant's words are text: a `$` in a term is a dollar sign, never mathematics
    matplotlib.rcParams["text.parse_math"] = False

    return plt


def draw(plt, comparison, rows, path: str) -> None:
    """Write the two panels to `path` (a PNG), written whole or not at all."""
    import os
    import tempfile

    from amunre.gamelog import new_file_mode

    items = [row for row in rows if row.key.startswith("points.")]
    entries = forest_entries(comparison, rows)
    if entries:  # the differences on top, the levels below
        tall = max(3.0, 0.24 * len(entries) + 1.2)
        figure = plt.figure(figsize=(14, tall + 5.5))
        grid = figure.add_gridspec(2, 2, height_ratios=[tall, 5.5], width_ratios=[1, 1.6])
        draw_forest(plt, figure.add_subplot(grid[0, :]), comparison, entries)
        left, right = figure.add_subplot(grid[1, 0]), figure.add_subplot(grid[1, 1])
    else:
        figure, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5), gridspec_kw={"width_ratios": [1, 1.6]})
    try:
        draw_scores(left, comparison)
        left.set_title(f"winning score, {comparison.games} games")
        draw_items(right, comparison, items)
        right.set_title("points per player per scoring item (95% interval)")
        figure.tight_layout()
        folder = os.path.dirname(os.path.abspath(path))
        fd, temporary = tempfile.mkstemp(prefix=".amunre-", suffix=".png", dir=folder)
        os.close(fd)
        os.chmod(temporary, new_file_mode(path))  # a new file's usual mode, or the one it replaces
        try:
            figure.savefig(temporary, format="png", dpi=110)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise AmunreError(f"cannot write the plot --plot {path}: {exc.strerror or exc}; nothing was written") from None
    finally:
        plt.close(figure)


def draw_scores(axes, comparison) -> None:
    """The winning scores' distribution per column, as steps."""
    scores = comparison.tally.winning_scores  # per column: winning score -> games
    seen = [counts for counts in scores if counts]
    if not seen:
        return
    bins = range(int(min(min(s) for s in seen)), int(max(max(s) for s in seen)) + 2)
    styles = ("-", "--", ":", "-.")  # two columns with the same scores still both show
    for c, (column, counts) in enumerate(zip(comparison.columns, scores)):
        if counts:
            axes.hist(list(counts), weights=list(counts.values()), bins=bins, histtype="step", linewidth=1.6,
                      linestyle=styles[c % len(styles)], label=column.label, density=True)
    axes.set_xlabel(f"winning score ({comparison.columns[0].variant.term('points')})")
    axes.set_ylabel("share of games")
    axes.legend(fontsize=8)


def draw_items(axes, comparison, items) -> None:
    """Points per player per scoring item (`items`: the table's points rows), a bar per
    column with its 95% interval."""
    import math

    columns = comparison.columns
    width = 0.8 / len(columns)
    for c, column in enumerate(columns):
        xs, means, errors = [], [], []
        for i, row in enumerate(items):
            estimate = row.values[c]
            if estimate is None:
                continue
            xs.append(i - 0.4 + width * (c + 0.5))
            means.append(estimate.mean)
            errors.append(0.0 if math.isnan(estimate.low) else (estimate.high - estimate.low) / 2)
        axes.bar(xs, means, width=width, yerr=errors, capsize=2, label=column.label)
    axes.set_xticks(range(len(items)))
    axes.set_xticklabels([axis_label(row, columns[0].variant) for row in items], rotation=30, ha="right",
                         fontsize=8)
    axes.set_ylabel("points per player")
    axes.legend(fontsize=8)


def forest_entries(comparison, rows) -> list:
    """(label, [(column, effect, low, high, significant)]) per row with a difference from the
    first column, in the standard deviation the two columns share (so that rows of different
    units share one scale); of the many per-item strategy rows only those with a significant
    difference (every row is in the table)."""
    import math

    entries = []
    for row in rows:
        compared = [(c, p) for c, p in enumerate(row.versus) if c and p is not None and not math.isnan(p.low)]
        if row.key.startswith(("item_share.", "item_wins.")) and not any(p.significant for _, p in compared):
            continue  # the many per-item strategy rows: only those that moved (all are in the table)
        marks = []
        for c, p in compared:
            # the sd the two columns share (a row that varies in neither has no scale: left out)
            first, other = row.values[0], row.values[c]
            spreads = [e.sd for e in (first, other) if e is not None and not math.isnan(e.sd)]
            scale = math.sqrt(sum(sd * sd for sd in spreads) / len(spreads)) if spreads else 0.0
            if scale > 0:
                marks.append((c, p.diff / scale, p.low / scale, p.high / scale, p.significant))
        if marks:
            entries.append((axis_label(row, comparison.columns[0].variant), marks))
    return entries


def draw_forest(plt, axes, comparison, entries) -> None:
    """The forest plot of `forest_entries` on `axes`: a line per row and column after the
    first, its interval as a bar, a filled dot where the difference is significant (Holm)."""
    columns = comparison.columns
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    step = 0.7 / max(1, len(columns) - 1)
    for i, (_, marks) in enumerate(entries):
        for c, effect, low, high, significant in marks:
            y = len(entries) - 1 - i + (c - 1) * step - (len(columns) - 2) * step / 2
            colour = colours[(c - 1) % len(colours)]
            axes.plot([low, high], [y, y], color=colour, linewidth=1.6)
            axes.plot([effect], [y], "o", color=colour, markerfacecolor=colour if significant else "white",
                      markersize=5)
    axes.axvline(0, color="#777", linewidth=0.8)
    axes.set_yticks(range(len(entries)))
    axes.set_yticklabels([label for label, _ in reversed(entries)], fontsize=8)
    axes.set_ylim(-0.8, len(entries) - 0.2)
    reach = max(abs(x) for _, marks in entries for _, effect, low, high, _ in marks for x in (effect, low, high))
    if reach < 0.1:  # every difference nothing or nearly: a readable axis around 0, not one of 1e-17
        axes.set_xlim(-0.1, 0.1)
    axes.ticklabel_format(axis="x", useOffset=False, style="plain")
    axes.set_xlabel("difference from the first column, in standard deviations of the row "
                    "(95% interval; filled: significant after Holm)")
    for c in range(1, len(columns)):
        axes.plot([], [], "o-", color=colours[(c - 1) % len(colours)], label=columns[c].label)
    # the legend above the plot, where it hides no row
    axes.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=min(3, len(columns) - 1), frameon=False)
    axes.grid(axis="x", color="#eee")


def axis_label(row, variant) -> str:
    """A row's label for an axis: a points row by its item's label alone, the others as the
    table shows them; cut in the middle to a readable length (so that two long labels that
    differ at their end stay apart)."""
    from amunre.compare.report import shown_label
    from amunre.core.words import item_label

    label = item_label(variant, row.key[len("points."):]) if row.key.startswith("points.") else shown_label(row.label)
    return label if len(label) <= 48 else label[:23] + "…" + label[-24:]
