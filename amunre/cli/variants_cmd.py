"""`amunre variants`: list the shipped variants (editions and house rules)."""

from __future__ import annotations

import click

from amunre.errors import VariantError
from amunre.loader import available_variants, load_variant


@click.command("variants")
def command():
    """List the shipped variant ids with their files and summaries."""
    for vid, path in sorted(available_variants().items()):
        try:
            variant = load_variant(path)
            summary = variant.edition.summary or variant.edition.name
            players = ",".join(map(str, variant.edition.players))
            click.echo(f"{vid:<24} {players:<7} {summary}")
        except VariantError as exc:
            click.echo(f"{vid:<24} INVALID: {exc.problems[0]}")
