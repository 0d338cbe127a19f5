"""`amunre board`: show the board a variant uses, and which values are provisional."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from amunre.board import PROVINCE_FIELDS
from amunre.cli.common import make_console, set_option, one_variant, variant_arg
from amunre.cli.shown import board_shown


@click.command("board")
@one_variant("classic2003")
@click.option("--provisional", is_flag=True, help="List only the values no source confirms.")
@set_option()
def command(variant_name, provisional, overrides):
    """Show the provinces of a variant's board; provisional values are marked with *."""
    variant = variant_arg(variant_name, overrides)
    board = variant.board
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
