"""The `amunre` command line: one click group, one small module per command.

Every domain error (`AmunreError`) becomes one clear message on stderr and exit code 2;
no traceback reaches the user.
"""

from __future__ import annotations

import sys

import click

from amunre import __version__
from amunre.errors import AmunreError


class CleanErrors(click.Group):
    """A click group that turns domain errors into a message and exit code 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except AmunreError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)


@click.group(cls=CleanErrors)
@click.version_option(__version__, prog_name="amunre")
def cli():
    """Amun-Re rules engine: play, replay, score and benchmark editions defined as data."""


def main(argv=None):
    """Console entry point: usage errors become one line and exit code 2."""
    try:
        cli.main(args=argv, prog_name="amunre", standalone_mode=False)
    except click.UsageError as exc:
        where = f"amunre {exc.ctx.command_path.split(' ', 1)[1]}" if exc.ctx and " " in exc.ctx.command_path else "amunre"
        click.echo(f"error: {exc.format_message()} (see '{where} --help')", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)


def _register() -> None:
    from importlib import import_module

    for name in ("run", "replay", "score", "bench", "board", "variants_cmd", "check", "show", "validate", "diff",
                 "schema"):
        try:
            module = import_module(f"amunre.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"amunre.cli.{name}":
                raise
            continue
        cli.add_command(module.command)


_register()
