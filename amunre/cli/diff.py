"""`amunre diff A B`: two variants' effective rules side by side, only what differs.

Grouped as `amunre.loader.compare` groups them (edition, terminology, components, pipeline,
scoring, params, rulings). A terminal gets one table per group; piped output is plain
aligned text; `--json` the same content as data. Where a module (or the variant's model)
names a parameter, ruling or component, both say its name beside the key
(`amunre.compare.rule_names`): the terminal in the key's cell, as `amunre compare` does, the
plain text in a last column, so that the key stays first on its line, and `--json` in each
row's `name`.
"""

from __future__ import annotations

import sys

import click
from rich.table import Table
from rich.text import Text

from amunre.cli.common import dump_json, literal, make_console, many_variants, set_option, variant_arg
from amunre.compare.rule_names import key_name, shown_key
from amunre.loader.compare import compare, compare_json, key_text, plugin_lines, side_names, text

#: A value column of the plain text is at most this wide (a longer value runs on).
VALUE_WIDTH = 60


def plain_lines(a, b, groups: dict, b_settings=(), a_settings=()) -> list[str]:
    """The comparison as plain text: a heading per group, then key, A's value, B's value and,
    in a group where a module names its keys, the name (`name`: "" where none is known)."""
    heading, a_name, b_name = side_names(a, b, b_settings, a_settings)
    lines = [heading] + plugin_lines(a, b)
    if not any(groups.values()):
        return lines + ["no differences in the effective rules"]
    for group, rows in groups.items():
        if not rows:
            continue
        cells = [(key_text(r), text(r["a"]), text(r["b"]), key_name(group, r["key"], (a, b))) for r in rows]
        head = ("key", a_name, b_name, "name")
        key_width, a_width, b_width = (min(max(len(c[i]) for c in cells + [head]), VALUE_WIDTH if i else 10**6)
                                       for i in range(3))
        named = any(c[3] for c in cells)
        lines += ["", f"[{group}]"]
        for k, va, vb, words in [head] + cells:
            last = f"  {vb.ljust(b_width)}  {words}" if named else f"  {vb}"
            lines.append(f"  {k.ljust(key_width)}  {va.ljust(a_width)}{last}".rstrip())
    return lines


def named_rows(doc: dict, variants) -> dict:
    """`doc` (`compare_json`) with each row's `name` where a module or the variant's model names
    its key (`key_name`): the words the terminal shows beside the key."""
    for group, rows in doc["groups"].items():
        for row in rows:
            name = key_name(group, row["key"], variants)
            if name:
                row["name"] = name
    return doc


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
        click.echo(dump_json(named_rows(compare_json(a, b, overrides), (a, b))))
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
            table.add_row(Text(shown_key(name, row, (a, b))), Text(text(row["a"])), Text(text(row["b"])))
        console.print(table)
