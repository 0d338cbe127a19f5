"""`amunre board`: show the board a variant uses, and which values are provisional."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from amunre.cli.common import dump_json, make_console, one_variant, set_option, variant_arg
from amunre.cli.file_names import board_shown
from amunre.core.board import PROVINCE_FIELDS


def board_document(board, provisional_only: bool = False) -> dict:
    """The board as its file writes it (`schemas/board.schema.json`); with `provisional_only`,
    only the provinces with a provisional value, each with only those values."""
    provinces = []
    for p in board.provinces:
        entry = {"name": p.name, **{field: getattr(p, field) for field in PROVINCE_FIELDS}}
        if p.provisional:
            entry["provisional"] = list(p.provisional)
        if p.note:
            entry["note"] = p.note
        if provisional_only:
            if not p.provisional:
                continue
            entry = {key: value for key, value in entry.items()
                     if key in ("name", "half", "side", "nile", "provisional", "note") or key in p.provisional}
        provinces.append(entry)
    return {"id": board.id, "name": board.name, "provinces": provinces}


@click.command("board")
@one_variant("classic2003")
@click.option("--provisional", is_flag=True, help="List only the values no source confirms.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the board as one JSON document in the board file's own shape (schemas/board.schema.json), "
                   "each province's provisional fields listed.")
@set_option()
def command(variant_name, provisional, as_json, overrides):
    """Show the provinces of a variant's board; provisional values are marked with *."""
    variant = variant_arg(variant_name, overrides)
    board = variant.board
    if as_json:
        click.echo(dump_json(board_document(board, provisional)))
        return
    where = board_shown(variant, variant_name)
    console = make_console()
    if provisional:
        rows = board.provisional_values()
        console.print(f"{len(rows)} provisional values in {where} (see docs/board.md):", markup=False)
        for name, field, value in rows:
            console.print(f"  {name}.{field} = {value!r}", markup=False)
        return
    table = Table(title=Text(f"{board.name} ({where}); * = provisional"))  # file text: never markup
    # a province name is printed whole, as written: the other columns give way first
    table.add_column("province", no_wrap=True, min_width=max((len(p.name) for p in board.provinces), default=8))
    for field in PROVINCE_FIELDS:
        table.add_column(field.replace("_", " "), justify="right")
    for p in board.provinces:
        cells = []
        for field in PROVINCE_FIELDS:
            value = getattr(p, field)
            text = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            cells.append(text + ("*" if field in p.provisional else ""))
        table.add_row(Text(p.name), *(Text(c) for c in cells))
    console.print(table)
