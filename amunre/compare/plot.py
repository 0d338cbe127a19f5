"""`amunre compare --plot FILE.png`: the winning scores' distribution per column, and the
mean points per scoring item with their 95% intervals (matplotlib, the `plot` extra)."""

from __future__ import annotations

from amunre.errors import AmunreError


def load_matplotlib(option: str = "--plot"):
    """matplotlib's pyplot on a file-only backend, or an error naming the extra to install."""
    try:
        import matplotlib
    except ImportError:
        raise AmunreError(f"{option} needs matplotlib: pip install 'amunre[plot]'") from None
    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as plt

    return plt


def draw(plt, comparison, rows, path: str) -> None:
    """Write the two panels to `path` (a PNG), written whole or not at all."""
    import os
    import tempfile

    from amunre.gamelog import new_file_mode

    columns = comparison.columns
    scores = comparison.tally.winning_scores  # per column: winning score -> games
    items = [row for row in rows if row.key.startswith("points.")]
    figure, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5), gridspec_kw={"width_ratios": [1, 1.6]})
    try:
        low = min(min(s) for s in scores)
        high = max(max(s) for s in scores)
        bins = range(int(low), int(high) + 2)
        for label, counts in zip((c.label for c in columns), scores):
            left.hist(list(counts), weights=list(counts.values()), bins=bins, histtype="step", linewidth=1.6,
                      label=label, density=True)
        left.set_title(f"winning score, {comparison.games} games")
        left.set_xlabel(columns[0].variant.term("points"))
        left.set_ylabel("share of games")
        left.legend(fontsize=8)

        width = 0.8 / len(columns)
        for c, column in enumerate(columns):
            xs, means, errors = [], [], []
            for i, row in enumerate(items):
                estimate = row.values[c]
                if estimate is None:
                    continue
                xs.append(i - 0.4 + width * (c + 0.5))
                means.append(estimate.mean)
                errors.append((estimate.high - estimate.low) / 2)
            right.bar(xs, means, width=width, yerr=errors, capsize=2, label=column.label)
        right.set_xticks(range(len(items)))
        right.set_xticklabels([_short(row.label) for row in items], rotation=35, ha="right", fontsize=8)
        right.set_title("points per player per scoring item (95% interval)")
        right.legend(fontsize=8)
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


def _short(label: str) -> str:
    """An item's label without the row's prefix ('points per player: temples' -> 'temples')."""
    return label.split(": ", 1)[-1]
