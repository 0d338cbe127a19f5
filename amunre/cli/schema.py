"""`amunre schema`: print the variant file's JSON Schema (2020-12), generated from the modules."""

from __future__ import annotations

import click

from amunre.cli.common import dump_json
from amunre.loader.schema import variant_schema


@click.command("schema")
def command():
    """Print the JSON Schema of a variant file: every table, each rule module's params and
    every ruling with its values, meaning and default. `schemas/variant.schema.json` holds it
    for the built-in modules; a first line `#:schema ../schemas/variant.schema.json` lets
    editors (taplo, Even Better TOML) check a variant file as it is typed."""
    click.echo(dump_json(variant_schema()))
