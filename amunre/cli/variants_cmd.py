"""`amunre variants`: list the shipped variants (editions and house rules).

One row per variant found under `variants/` and its subfolders: its id, its edition name,
what it extends, its summary and its player counts. A variant that does not load is listed
with its first problem (`amunre validate FILE` gives them all), its file named within the
shipped variants folder.
"""

from __future__ import annotations

import sys
import tomllib

import click
from rich.table import Table
from rich.text import Text

from amunre.cli.common import literal, make_console
from amunre.cli.shown import problem_shown
from amunre.errors import AmunreError
from amunre.loader import available_variants, load_variant
from amunre.loader.compare import players

COLUMNS = ("id", "title", "extends", "players", "summary")


def _extends(path) -> str:
    """What a file extends as it says it (its parent's id or path), `-` for none."""
    try:
        value = tomllib.loads(path.read_text(encoding="utf-8")).get("extends")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "?"
    return value if isinstance(value, str) and value else "-"


def rows() -> list[tuple[str, ...]]:
    """(id, title, extends, players, summary) for every shipped variant."""
    out = []
    for vid, path in sorted(available_variants().items()):
        try:
            variant = load_variant(path)
        except AmunreError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            first = problem_shown(first)  # `house/x.toml:3: ...`, not where pip put the file
            out.append((vid, "INVALID", _extends(path), "-", first))
            continue
        out.append((vid, variant.edition.name, _extends(path), ",".join(map(str, players(variant))),
                    variant.edition.summary or "-"))
    return out


@click.command("variants")
def command():
    """List the shipped variants: id, edition name, what it extends, player counts, summary."""
    found = rows()
    if sys.stdout.isatty():
        table = Table(title="shipped variants (use the id with --variant, or give a path to a .toml file)")
        for name in COLUMNS:
            table.add_column(name)
        for row in found:
            table.add_row(*(Text(cell) for cell in row))  # file text, never markup
        make_console().print(table)
        return
    widths = [max(len(row[i]) for row in found + [COLUMNS]) for i in range(len(COLUMNS) - 1)]
    for row in [COLUMNS] + found:
        click.echo(literal("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1]))
