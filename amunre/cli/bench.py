"""`amunre bench`: games per second on one core, per agent kind (a benchmark, not a test)."""

from __future__ import annotations

import sys
import time

import click
from rich.progress import Progress

from amunre.agents import make_agents
from amunre.cli.common import parse_agents, parse_players, set_option, variant_arg
from amunre.engine import play_game


def measure(variant, players: int, agent: str, games: int, seed: int = 0, advance=None) -> tuple[float, int]:
    """(games per second, decisions) over `games` seeded games, timed with a monotonic clock."""
    decisions = 0
    start = time.perf_counter()
    for s in range(seed, seed + games):
        game = play_game(variant, make_agents([agent] * players, s), s)
        decisions += len(game.answers)
        if advance:
            advance()
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions


@click.command("bench")
@click.option("--variant", "variant_name", default="classic2003", show_default=True)
@click.option("--players", default="4", show_default=True)
@click.option("--games", default=300, show_default=True, type=click.IntRange(1), help="Games per agent kind.")
@click.option("--agents", "agent_kinds", default="random,greedy", show_default=True,
              help="Agent kinds to measure, each playing every seat.")
@set_option()
def command(variant_name, players, games, agent_kinds, overrides):
    """Print games per second for seeded games with one agent kind in every seat (one core)."""
    variant = variant_arg(variant_name, overrides)
    n = parse_players(variant, players)
    kinds = parse_agents(agent_kinds, len(agent_kinds.split(",")))
    # a progress bar on a terminal only; piped output stays plain
    show = sys.stdout.isatty()
    for kind in kinds:
        with Progress(transient=True, disable=not show) as progress:
            task = progress.add_task(f"{kind} games", total=games)
            rate, decisions = measure(variant, n, kind, games, advance=lambda: progress.advance(task))
        click.echo(f"{variant.id} {n} players {kind:>7}: {rate:8.1f} games/s "
                   f"({games} games, {decisions / games:.0f} decisions per game)")
