"""`amunre score`: score a position file with a variant's own scoring rules."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from amunre.position import PLAY_BONUS, position_from_data, read_position_raw, score_position
from amunre.loader import load_variant


def score_table(variant, sheet) -> Table:
    """One row per scoring item (sub-items indented below it), one column per player."""
    kingdom = "final scoring" if sheet.final else "kingdom scoring"
    table = Table(title=f"{variant.edition.name}: {kingdom}")
    table.add_column("item")
    for name in sheet.names:
        table.add_column(name, justify="right")
    if any(sheet.before):
        table.add_row("points before", *(str(b) for b in sheet.before), style="dim")
        table.add_section()
    for item in sheet.items:
        table.add_row(item.name, *(str(v) for v in item.points))
        if len(item.details) > 1 or (item.details and any(item.details.values())):
            for sub, values in item.details.items():
                if any(values):
                    table.add_row(f"  {_label(variant, sub)}", *(str(v) for v in values), style="dim")
    table.add_section()
    table.add_row("points this scoring", *(str(sheet.gained(p)) for p in range(len(sheet.names))))
    table.add_row("total", *(str(t) for t in sheet.totals), style="bold")
    return table


def _label(variant, sub: str) -> str:
    if sub.startswith("bonus_cards:"):
        return variant.term(sub.split(":", 1)[1])
    if sub.startswith("nile_sides_"):
        return sub.rsplit("_", 1)[1]
    return sub.replace("_", " ")


@click.command("score")
@click.argument("position", type=click.Path(dir_okay=False))
@click.option("--variant", "variant_name", default=None,
              help="Variant id or variant TOML file (default: the position's `variant`, else classic2003).")
@click.option("--final", is_flag=True, help="This is the last kingdom: add the final scoring (gold ranking).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of a table.")
@click.option("--bonus", "play_bonus", type=click.Choice(PLAY_BONUS), default="met", show_default=True,
              help="Which bonus cards the players play: those whose condition is met, all, or none.")
@click.option("--sell-cards", is_flag=True, help="Players sell all their cards before the gold ranking.")
def command(position, variant_name, final, as_json, play_bonus, sell_cards):
    """Score the holdings in a POSITION file (TOML or JSON) and show each player's points per item."""
    data, lines = read_position_raw(position)
    if variant_name is None:
        variant_name = data.get("variant") if isinstance(data.get("variant"), str) else "classic2003"
    variant = load_variant(variant_name)
    pos = position_from_data(data, variant, source=str(position), lines=lines)
    sheet = score_position(variant, pos.state, play_bonus=play_bonus, final=final,
                           sell_cards=sell_cards, names=pos.names)
    if as_json:
        doc = {"variant": variant.id, "position": str(position), **sheet.to_dict()}
        click.echo(json.dumps(doc, indent=2))
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(score_table(variant, sheet))
    if sheet.final:
        names = [sheet.names[p] for p in sheet.winners]
        console.print(f"Winner{'s' if len(names) > 1 else ''}: {' and '.join(names)}", markup=False)

