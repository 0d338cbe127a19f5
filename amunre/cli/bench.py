"""`amunre bench`: games per CPU second on one core, per agent kind, and the time to load
the variant (a benchmark, not a test). CPU time, because the machines it runs on are shared:
wall time would measure the neighbours."""

from __future__ import annotations

import statistics
import sys
import time

import click
from rich.progress import Progress

from amunre.agents import make_agents
from amunre.cli.common import WholeNumber, literal, parse_bot_kinds, parse_players, set_option, variant_arg
from amunre.engine import play_game
from amunre.loader import load_variant


def measure(variant, players: int, agent: str, games: int, seed: int = 0, advance=None) -> tuple[float, int]:
    """(games per CPU second, decisions) over `games` seeded games."""
    decisions = 0
    start = time.process_time()
    for s in range(seed, seed + games):
        game = play_game(variant, make_agents([agent] * players, s), s)
        decisions += len(game.answers)
        if advance:
            advance()
    elapsed = time.process_time() - start
    return games / max(elapsed, 1e-9), decisions


def load_time(name: str, overrides, loads: int = 21) -> float:
    """Median CPU seconds to load, merge and validate the variant, over `loads` loads."""
    times = []
    for _ in range(loads):
        start = time.process_time()
        load_variant(name, overrides)
        times.append(time.process_time() - start)
    return statistics.median(times)


@click.command("bench")
@click.option("--variant", "variant_name", default="classic2003", show_default=True)
@click.option("--players", default="4", show_default=True)
@click.option("--games", default=300, show_default=True, type=WholeNumber(1), help="Games per agent kind.")
@click.option("--agents", "agent_kinds", default="random,greedy", show_default=True,
              help="Agent kinds to measure, each playing every seat.")
@set_option()
def command(variant_name, players, games, agent_kinds, overrides):
    """Print games per CPU second for seeded games with one agent kind in every seat (one core),
    and the median time to load the variant."""
    kinds = parse_bot_kinds(agent_kinds)
    variant = variant_arg(variant_name, overrides)
    n = parse_players(variant, players)
    click.echo(literal(f"{variant.id}: loads in {load_time(variant_name, overrides) * 1000:.1f} ms (median CPU time)"))
    # a progress bar on a terminal only; piped output stays plain
    show = sys.stdout.isatty()
    for kind in kinds:
        with Progress(transient=True, disable=not show) as progress:
            task = progress.add_task(f"{kind} games", total=games)
            rate, decisions = measure(variant, n, kind, games, advance=lambda: progress.advance(task))
        click.echo(f"{variant.id} {n} players {kind:>7}: {rate:8.1f} games/s CPU "
                   f"({games} games, {decisions / games:.0f} decisions per game)")
