"""`amunre show VARIANT`: the fully resolved variant as one complete TOML file."""

from __future__ import annotations

import click

from amunre.cli.common import literal, one_variant, set_option, variant_arg
from amunre.loader.resolved import resolved_toml


@click.command("show")
@one_variant(name="variant_ref")
@set_option()
def command(variant_ref, overrides):
    """Print VARIANT (an id or a path to a TOML file) fully resolved: `extends` and `--set`
    applied, every ruling and every parameter at its effective value. Saved to a file, the
    output loads as a variant on its own."""
    variant = variant_arg(variant_ref, overrides)
    # plain text: strings from files reach the terminal as written, never as markup; a
    # control character (only a path given on the command line can bring one) escaped
    click.echo(literal(resolved_toml(variant, overrides)), nl=False)
