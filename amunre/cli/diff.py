"""`amunre diff A B`: two variants' effective rules side by side, only what differs.

Grouped as `amunre.loader.compare` groups them (edition, terminology, components, pipeline,
scoring, params, rulings). A terminal gets one table per group; piped output is plain
aligned text; `--json` the same content as data.
"""

from __future__ import annotations

import sys

import click
from rich.table import Table
from rich.text import Text

from amunre.cli.common import dump_json, literal, make_console, many_variants, set_option, variant_arg
from amunre.loader.compare import compare, compare_json, key_text, plugin_lines, side_names, text


def plain_lines(a, b, groups: dict, b_settings=(), a_settings=()) -> list[str]:
    """The comparison as plain text: a heading per group, then key, A's value, B's value."""
    heading, a_name, b_name = side_names(a, b, b_settings, a_settings)
    lines = [heading] + plugin_lines(a, b)
    if not any(groups.values()):
        return lines + ["no differences in the effective rules"]
    for name, rows in groups.items():
        if not rows:
            continue
        cells = [(key_text(r), text(r["a"]), text(r["b"])) for r in rows]
        key_width = max(len(c[0]) for c in cells + [("key", a_name, b_name)])
        a_width = min(max(len(c[1]) for c in cells + [("key", a_name, b_name)]), 60)
        lines += ["", f"[{name}]", f"  {'key'.ljust(key_width)}  {a_name.ljust(a_width)}  {b_name}"]
        lines += [f"  {k.ljust(key_width)}  {va.ljust(a_width)}  {vb}" for k, va, vb in cells]
    return lines


@click.command("diff")
@many_variants("refs", count=2, metavar="A B")
@click.option("--json", "as_json", is_flag=True,
              help="Print the differences as one JSON document (schemas/diff.schema.json).")
@set_option("Change one key of B before comparing (KEY=VALUE, repeatable): `amunre diff X X --set ...` "
            "shows what the settings change.")
def command(refs, as_json, overrides):
    """Compare two variants (ids or paths to TOML files): their effective rules side by side,
    only what differs, grouped as edition, terminology, components, pipeline, scoring,
    params and rulings."""
    a_ref, b_ref = refs
    a = variant_arg(a_ref)
    b = variant_arg(b_ref, overrides)
    if as_json:
        click.echo(dump_json(compare_json(a, b, overrides)))
        return
    groups = compare(a, b)
    if not sys.stdout.isatty():
        for line in plain_lines(a, b, groups, overrides):
            click.echo(literal(line))
        return
    console = make_console()
    heading, a_name, b_name = side_names(a, b, overrides)
    console.print(Text(heading))
    for line in plugin_lines(a, b):
        console.print(Text(line))
    if not any(groups.values()):
        console.print("no differences in the effective rules")
    for name, rows in groups.items():
        if not rows:
            continue
        table = Table(title=name, title_justify="left")
        for column in ("key", a_name, b_name):
            table.add_column(Text(column))
        for row in rows:
            # values come from files: Text, so that "[...]" is never read as markup
            table.add_row(Text(key_text(row)), Text(text(row["a"])), Text(text(row["b"])))
        console.print(table)
