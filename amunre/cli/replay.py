"""`amunre replay FILE`: re-run a logged game and confirm it gives the same result."""

from __future__ import annotations

from pathlib import Path

import click

from amunre.cli.common import check_writable, literal, one_variant
from amunre.core.counting import plural
from amunre.core.words import player_names
from amunre.gamelog import excerpt, replay_log, write_atomically


@click.command("replay")
@click.argument("log_file", type=click.Path(dir_okay=False))
@one_variant(name="variant_ref", required=False,
             help_text="The variant file the game was played from, when it is not a shipped variant (a log written "
                       "with --set: LOG.variant.toml), the same as the VARIANT argument. `amunre run --log` prints "
                       "the command to use.")
@click.option("--html", "html_path", metavar="FILE.html",
              help="Also write the replay viewer: one self-contained HTML file (no external requests) showing the "
                   "board at every decision, the play-by-play beside it and the scores so far, with controls and "
                   "keyboard arrows to step through the game (docs/viewer.md).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the verdict as one JSON document (schemas/replay.schema.json) instead of a line.")
def command(log_file, variant_ref, html_path, as_json):
    """Replay a JSON Lines log written by `amunre run --log` and check every line matches.

    The header's variant is loaded by its shipped id; replay never opens a file the log
    names. A game played from another variant file replays with `--variant FILE`. Every line
    must be the one the replay produces (types included); bot seats are re-run from the seed
    and must answer as logged. The first difference is reported with its line number.

    With `--html FILE`, the checked game is also written as a replay viewer to open in a
    browser, offline.
    """
    if html_path is not None:
        check_writable(html_path, "the viewer", "--html", source=log_file, source_arg="LOG_FILE")
    # read line by line as the replay goes, up to the first line that differs; its lines
    # are the log's (equal as canonical JSON) once it says OK
    game, lines = replay_log(log_file, variant=variant_ref)
    head, last = lines[0], lines[-1]
    if html_path is not None:
        from amunre.picture import log_steps, viewer_html

        page = viewer_html(log_steps(lines, log_file, checked=game), source=log_file)
        write_atomically(html_path, page, what="the viewer", argument="--html")
    if as_json:
        from amunre.cli.common import dump_json

        complete = last["type"] != "incomplete"
        click.echo(dump_json({
            "ok": True, "complete": complete, "reason": None if complete else last["reason"],
            "variant": head["variant"], "players": head["players"], "seed": head["seed"],
            "decisions": len(game.answers), "events": len(lines) - 2,
            "scores": [p.score for p in game.state.players],
            "winners": list(game.state.winners) if complete else [],
            "viewer": html_path}))
        return
    if last["type"] == "incomplete":
        why = "a player left" if last["reason"] == "left" else "it was interrupted"
        click.echo(
            f"replay OK, incomplete game (stopped because {why}): {excerpt(head['variant'])[1:-1]}, "
            f"{head['players']} players, seed {head['seed']}: {plural(len(game.answers), 'decision')} and "
            f"{plural(len(lines) - 2, 'event')} match up to where it stopped; scores so far "
            f"{[p.score for p in game.state.players]}")
        _said_viewer(html_path)
        return
    click.echo(
        f"replay OK: {excerpt(head['variant'])[1:-1]}, {head['players']} players, seed {head['seed']}: "
        f"{plural(len(game.answers), 'decision')} and {plural(len(lines) - 2, 'event')} match; "
        f"scores {[p.score for p in game.state.players]}, "
        f"winners {', '.join(player_names(game.n_players)[w] for w in game.state.winners)}"
    )
    _said_viewer(html_path)


def _said_viewer(html_path) -> None:
    if html_path is not None:
        size = Path(html_path).stat().st_size
        click.echo(literal(f"viewer written to {html_path} ({size // 1024} kB): open it in a browser"))
