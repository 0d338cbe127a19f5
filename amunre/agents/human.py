"""The `human` agent: asks at the terminal, showing the numbered legal options."""

from __future__ import annotations

import click

from amunre.decisions import to_json_value


class HumanAgent:
    name = "human"

    def choose(self, game, request):
        from amunre.narrate import describe_option

        click.echo(f"\nPlayer {request.player + 1}, decide: {request.kind}")
        for i, option in enumerate(request.options):
            click.echo(f"  {i:>3}. {describe_option(game, request.kind, option)}")
        while True:
            index = click.prompt("choice", type=int)
            if 0 <= index < len(request.options):
                return request.options[index]
            click.echo(f"enter a number from 0 to {len(request.options) - 1} ({to_json_value(request.options[0])!r} ...)")
