"""`amunre run`: play one seeded game and show it, or print it as JSON."""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from amunre.agents import make_agents
from amunre.errors import AmunreError
from amunre.cli.common import SET_HELP, check_writable, parse_agents, parse_players, parse_seed, set_option, variant_arg, write_resolved
from amunre.engine import play_game
from amunre.loader import load_variant
from amunre.gamelog import Recorder, log_lines, new_file_mode, shown_path, write_log
from amunre.cli.common import make_console
from amunre.narrate import Narrator, player_names
from amunre.results import game_result, item_label, item_order


def final_table(variant, result: dict) -> Table:
    """Points per scoring item per kingdom, then total, gold, pyramids and rank."""
    table = Table(title=Text(f"Final score: {variant.edition.name}"))  # file text: never markup
    table.add_column("")
    for player in result["players"]:
        table.add_column(f"{player['name']} ({player['agent']})", justify="right")
    order = item_order(variant)
    for kingdom in variant.edition.kingdoms:
        scored = [pl["items"].get(kingdom, {}) for pl in result["players"]]
        seen = {item for items in scored for item in items}
        # every item the kingdom scored, in scoring order; unknown (plug-in) items after
        for item in [i for i in order if i in seen] + sorted(seen - set(order)):
            table.add_row(Text(f"{kingdom}: {item_label(variant, item)}"), *(str(items.get(item, 0)) for items in scored))
    table.add_section()
    table.add_row(Text(f"total {variant.term('points')}"), *(str(pl["score"]) for pl in result["players"]), style="bold")
    table.add_row(Text(variant.term("gold")), *(str(pl["gold"]) for pl in result["players"]))
    table.add_row("pyramids", *(str(pl["pyramids"]) for pl in result["players"]))
    table.add_row("rank", *(str(pl["rank"]) for pl in result["players"]), style="bold")
    return table


def _log_variant(variant, overrides, log_path: str):
    """The variant with its overrides, loaded from a complete file written next to the log,
    so that `amunre replay LOG --variant LOG.variant.toml` plays the same rules. Returns the
    variant and the temporary file it was written to: `write_log` renames it to
    LOG.variant.toml with the log, so an interrupted run leaves neither behind."""
    fd, temporary = tempfile.mkstemp(prefix=".amunre-", suffix=".variant.toml", dir=Path(log_path).parent)
    os.close(fd)
    os.chmod(temporary, new_file_mode(f"{log_path}.variant.toml"))
    context = click.get_current_context(silent=True)
    if context is not None:  # whatever ends the command, the temporary file goes (renamed away once written)
        context.call_on_close(lambda: _remove(temporary))
    try:
        return load_variant(write_resolved(variant, overrides, temporary)), temporary
    except BaseException:
        _remove(temporary)
        raise


def _remove(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_log(log_path: str, lines: list[dict], variant_temp) -> str:
    """Write the log (and LOG.variant.toml from `variant_temp`) all or nothing; returns the
    header's `variant_file`."""
    renames = ()
    if variant_temp:
        final = f"{log_path}.variant.toml"
        lines[0]["variant_file"] = str(Path(final).resolve())
        renames = ((variant_temp, final),)
    write_log(log_path, lines, renames)
    return lines[0]["variant_file"]


def _interrupted(log_path, stop, variant_temp):
    """An interrupted game: nothing is written (the log is written once the game is over),
    and the variant file made for the log goes."""
    from amunre.cli import Terminated

    if variant_temp:
        Path(variant_temp).unlink(missing_ok=True)
    if log_path:
        click.echo(f"interrupted: no log written to {shown_path(log_path)} (--log writes it when the game is "
                   f"over)", err=True)
    if isinstance(stop, KeyboardInterrupt) and not isinstance(stop, Terminated):
        sys.exit(130)
    raise stop


def _replay_command(log_path: str, variant_file: str, variant_name: str, overrides) -> str:
    """The exact command that replays the log from the current folder."""
    command = f"amunre replay {shlex.quote(log_path)}"
    if variant_file:  # not a shipped variant: replay needs the file
        command += f" --variant {shlex.quote(f'{log_path}.variant.toml' if overrides else variant_name)}"
    return command


@click.command("run")
@click.option("--variant", "variant_name", default="classic2003", show_default=True,
              help="Variant id (see `amunre variants`) or path to a variant TOML file.")
@click.option("--players", help="Number of players (the variant says which counts are allowed; default 4).")
@click.option("--seed", help="Seed for the game; a random one is chosen and printed if omitted.")
@click.option("--agents", help="Comma-separated agents per seat, e.g. greedy,random,human (default: greedy).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (schemas/result.schema.json) instead.")
@click.option("--log", "log_path",
              help="Write every decision and event as JSON Lines, replayable with `amunre replay` (written once "
                   "the game is over: an interrupted game leaves no log).")
@click.option("--quiet", is_flag=True, help="Skip the play-by-play, show only the final table.")
@set_option(SET_HELP + " With --log, the variant as changed is written to LOG.variant.toml: replay the log "
            "with `amunre replay LOG --variant LOG.variant.toml`.")
def command(variant_name, players, seed, agents, as_json, log_path, quiet, overrides):
    """Play one seeded game with bots (or people) and show every step and the final score."""
    variant = variant_arg(variant_name, overrides)
    n = parse_players(variant, players)
    seed_value = parse_seed(seed)
    agent_list = parse_agents(agents, n)
    names = player_names(n)
    variant_temp = None
    if log_path:
        check_writable(log_path, "the log", "--log")
        if variant.source and Path(log_path).resolve() == Path(variant.source).resolve():
            raise AmunreError(f"--log {shown_path(log_path)} is the variant file being played "
                              "(expected another file: the log would replace the variant)")
        if overrides:
            variant, variant_temp = _log_variant(variant, overrides, log_path)
    listeners = []
    recorder = Recorder() if log_path else None
    if recorder:
        listeners.append(recorder)
    console = make_console()
    if not (as_json or quiet):
        console.print(f"seed {seed_value} (rerun this game with --seed {seed_value})")
        listeners.append(Narrator(variant, lambda line: console.print(line, markup=False), names))
    try:
        game = play_game(variant, make_agents(agent_list, seed_value), seed_value, listeners)
    except (KeyboardInterrupt, click.Abort) as stop:
        _interrupted(log_path, stop, variant_temp)
    result = game_result(game, names, agent_list)
    if log_path:
        variant_file = _write_log(log_path, log_lines(game, recorder.events, agent_list), variant_temp)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    console.print()
    console.print(final_table(variant, result))
    winners = " and ".join(result["winners"])
    console.print(f"Winner{'s' if len(result['winners']) > 1 else ''}: {winners}   (seed {seed_value})", markup=False)
    if log_path:
        console.print(f"log written to {log_path}; check it with: "
                      f"{_replay_command(log_path, variant_file, variant_name, overrides)}", markup=False)
