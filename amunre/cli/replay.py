"""`amunre replay FILE`: re-run a logged game and confirm it gives the same result."""

from __future__ import annotations

import click

from amunre.gamelog import read_log, replay_lines
from amunre.narrate import player_names


@click.command("replay")
@click.argument("log_file", type=click.Path(dir_okay=False))
def command(log_file):
    """Replay a JSON Lines log written by `amunre run --log` and check every step matches."""
    lines = read_log(log_file)
    game, fresh = replay_lines(lines, log_file)
    head = lines[0]
    click.echo(
        f"replay OK: {head['variant']}, {head['players']} players, seed {head['seed']}: "
        f"{len(game.answers)} decisions and {len(fresh) - 2} events match; "
        f"scores {[p.score for p in game.state.players]}, "
        f"winners {', '.join(player_names(game.n_players)[w] for w in game.state.winners)}"
    )
