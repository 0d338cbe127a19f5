"""`amunre variants`: list every variant found (the `AMUNRE_PATH` folders', then the shipped ones).

One row per variant: its id, its edition name, what it extends, its player counts, its
summary and where it comes from (`shipped`, or the `AMUNRE_PATH` folder that holds it). A
variant that does not load is listed with its first problem (`amunre validate FILE` gives them
all), a shipped file named within the shipped variants folder. After the table, a note for
each id found in two places (naming both, and which one is used) and for each `AMUNRE_PATH`
entry that is not a folder.
"""

from __future__ import annotations

import sys
import tomllib

import click
from rich.table import Table
from rich.text import Text

from amunre.cli.common import literal, make_console
from amunre.cli.file_names import problem_shown
from amunre.core.errors import AmunreError
from amunre.loader import load_variant
from amunre.loader.compare import players
from amunre.loader.files import SEARCH_PATH, search_entries, search_folders, variant_locations

COLUMNS = ("id", "title", "extends", "players", "from", "summary")


def _extends(path) -> str:
    """What a file extends as it says it (its parent's id or path), `-` for none."""
    try:
        value = tomllib.loads(path.read_text(encoding="utf-8")).get("extends")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "?"
    return value if isinstance(value, str) and value else "-"


def rows(locations: list | None = None) -> list[tuple[str, ...]]:
    """(id, title, extends, players, from, summary) for every variant used (the first of an
    id found twice); `locations`: `variant_locations()`, if already found."""
    out = []
    used = {}
    for vid, path, where in variant_locations() if locations is None else locations:
        used.setdefault(vid, (path, where))
    for vid, (path, where) in sorted(used.items()):
        try:
            variant = load_variant(path)
        except AmunreError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            first = problem_shown(first)  # `house/x.toml:3: ...`, not where pip put the file
            out.append((vid, "INVALID", _extends(path), "-", where, first))
            continue
        out.append((vid, variant.edition.name, _extends(path), ",".join(map(str, players(variant))), where,
                    variant.edition.summary or "-"))
    return out


def notes(locations: list | None = None) -> list[str]:
    """An id found in two places (both named, the first used); an `AMUNRE_PATH` entry that
    is not a folder."""
    out = []
    first: dict[str, tuple] = {}
    for vid, path, where in variant_locations() if locations is None else locations:
        if vid in first:
            used_path, used_where = first[vid]
            out.append(f"note: {vid!r} is in {used_path} ({used_where}) and in {path} ({where}); "
                       f"the first is used ({SEARCH_PATH} comes before the shipped variants, in its order)")
        else:
            first[vid] = (path, where)
    folders = {str(folder) for folder in search_folders()}
    from pathlib import Path

    for entry in search_entries():
        if str(Path(entry).expanduser()) not in folders:
            out.append(f"note: {SEARCH_PATH} entry {entry!r} is not a folder: skipped")
    return out


@click.command("variants")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document (schemas/variants.schema.json): every variant, and the notes.")
def command(as_json):
    """List the variants: id, edition name, what it extends, player counts, where it comes
    from (shipped, or an AMUNRE_PATH folder), summary."""
    locations = variant_locations()  # every file read once, for the table and the notes
    found = rows(locations)
    if as_json:
        from amunre.cli.common import dump_json

        click.echo(dump_json({"variants": [dict(zip(COLUMNS, row)) for row in found], "notes": notes(locations)}))
        return
    if sys.stdout.isatty():
        table = Table(title="variants (use the id with --variant, or give a path to a .toml file; "
                            f"{SEARCH_PATH} folders come first)")
        for name in COLUMNS:
            table.add_column(name, no_wrap=name == "id")  # an id is what the user types: whole
        for row in found:
            table.add_row(*(Text(cell) for cell in row))  # file text, never markup
        make_console().print(table)
    else:
        widths = [max(len(row[i]) for row in found + [COLUMNS]) for i in range(len(COLUMNS) - 1)]
        for row in [COLUMNS] + found:
            click.echo(literal("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1]))
    for line in notes(locations):
        click.echo(literal(line), err=True)
