"""`amunre replay FILE`: re-run a logged game and confirm it gives the same result."""

from __future__ import annotations

import click

from amunre.counting import plural
from amunre.gamelog import excerpt, read_log, replay_lines
from amunre.narrate import player_names


@click.command("replay")
@click.argument("log_file", type=click.Path(dir_okay=False))
@click.option("--variant", "variant_ref", metavar="FILE",
              help="The variant file the game was played from, when it is not a shipped variant (a log "
                   "written with --set: LOG.variant.toml). `amunre run --log` prints the command to use.")
def command(log_file, variant_ref):
    """Replay a JSON Lines log written by `amunre run --log` and check every line matches.

    The header's variant is loaded by its shipped id; replay never opens a file the log
    names. A game played from another variant file replays with `--variant FILE`. Every line
    must be the one the replay produces (types included); bot seats are re-run from the seed
    and must answer as logged. The first difference is reported with its line number.
    """
    lines = read_log(log_file)
    game, fresh = replay_lines(lines, log_file, variant=variant_ref)
    head = lines[0]
    if lines[-1]["type"] == "incomplete":
        why = "a player left" if lines[-1]["reason"] == "left" else "it was interrupted"
        click.echo(
            f"replay OK, incomplete game (stopped because {why}): {excerpt(head['variant'])[1:-1]}, "
            f"{head['players']} players, seed {head['seed']}: {plural(len(game.answers), 'decision')} and "
            f"{plural(len(fresh) - 2, 'event')} match up to where it stopped; scores so far "
            f"{[p.score for p in game.state.players]}")
        return
    click.echo(
        f"replay OK: {excerpt(head['variant'])[1:-1]}, {head['players']} players, seed {head['seed']}: "
        f"{plural(len(game.answers), 'decision')} and {plural(len(fresh) - 2, 'event')} match; "
        f"scores {[p.score for p in game.state.players]}, "
        f"winners {', '.join(player_names(game.n_players)[w] for w in game.state.winners)}"
    )
