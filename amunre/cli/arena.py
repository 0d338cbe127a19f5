"""`amunre arena`: a lineup of agents over many seeded games with the seats rotated, and
each agent's win rate and mean score with 95% intervals (`amunre.compare.arena`)."""

from __future__ import annotations

import sys

import click
from rich.text import Text

from amunre.agents import DEFAULT_AGENT, agent_names, is_known, split_spec
from amunre.cli.common import (
    WholeNumber,
    dump_json,
    make_console,
    one_variant,
    parse_bot_kinds,
    set_option,
    variant_arg,
)
from amunre.cli.progress import play_on_executor
from amunre.core.engine import MAX_SEED
from amunre.core.errors import AmunreError

#: Games by default: whole rotations for any player count from 2 to 6.
DEFAULT_GAMES = 1200


def _lineup(text: str, variant) -> tuple[str, ...]:
    """The agents, one per seat, each spec checked. Fewer than the variant's players (or than
    4 where it allows 4): the other seats play the default agent (`planner`), up to 4 or
    the variant's smallest count above the agents named."""
    bots = [name for name in agent_names() if name != "human"]
    for spec in text.split(","):
        kind = split_spec(spec)[0] if spec.strip() else ""
        if kind and not is_known(kind):
            raise AmunreError(f"unknown agent {kind!r} in --agents (expected agent kinds from: {', '.join(bots)}, "
                              f"or one's own as LOCATION:NAME, e.g. ./my_bot.py:MyAgent)")
    specs = tuple(parse_bot_kinds(text))
    allowed = variant.players
    seats = next((n for n in sorted(allowed, key=lambda n: (n != 4, n)) if n >= len(specs)), None)
    if len(specs) not in allowed and seats is not None and len(specs) < seats:
        specs += (DEFAULT_AGENT,) * (seats - len(specs))
    if len(specs) not in allowed:
        counts = ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}" if len(allowed) > 1 else str(allowed[0])
        example = ",".join(["greedy"] + ["random"] * (allowed[0] - 1))
        raise AmunreError(f"--agents names {len(specs)} agent{'' if len(specs) == 1 else 's'}, but {variant.id} is "
                          f"played by {counts} players{variant.modules.players_note(len(specs))} (expected one "
                          f"agent per seat, e.g. --agents {example})")
    return specs


def _check_games(games: int, players: int) -> None:
    if games % players:
        lower, upper = games - games % players, games - games % players + players
        either = f"{lower} or {upper}" if lower else f"{upper}"
        raise AmunreError(f"--games {games} is not a multiple of the {players} players (expected whole rotations "
                          f"of the seats, each agent in each seat once per rotation: e.g. {either})")


@click.command("arena")
@one_variant("classic2003")
@click.option("--agents", "lineup", required=True, metavar="AGENT,...",
              help="One agent spec per seat (the player count), e.g. greedy,random,random,random or "
                   "mcts:iterations=400,greedy,greedy,greedy; a spec may come twice. Fewer agents than the "
                   "variant's players: the other seats play planner (mcts alone: mcts against 3 planners).")
@click.option("--games", metavar="N", default=DEFAULT_GAMES, show_default=True, type=WholeNumber(1, 10_000_000),
              help="Games in all, a multiple of the players: each rotation of the seats is one game per player.")
@click.option("--seed", metavar="SEED", default=0, show_default=True, type=WholeNumber(0, MAX_SEED),
              help="Seed S of the run: game g plays seed f(S, g).")
@click.option("--workers", metavar="N", type=WholeNumber(1, 1024),
              help="Local processes (default: every CPU this process may use).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on a Dask cluster (tcp://HOST:PORT; needs amunre[dask]).")
@set_option("Change one key of the variant (KEY=VALUE, repeatable; see `amunre run --help`).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (schemas/arena.schema.json).")
def command(variant_name, lineup, games, seed, workers, scheduler, overrides, as_json):
    """Play a lineup of agents against each other with the seats rotated (each agent plays
    each seat equally often) and show each agent's win rate and mean score, each with a 95%
    interval, beside the equal share 1/players (see docs/arena.md)."""
    from amunre.compare.arena import run_arena, task_count, to_json
    from amunre.compare.jobs import job_for

    if scheduler and workers:
        raise AmunreError("--workers counts local processes; with --scheduler the cluster's workers play "
                          "(expected one of them)")
    variant = variant_arg(variant_name, overrides)
    agents = _lineup(lineup, variant)
    players = len(agents)
    _check_games(games, players)
    job = job_for(variant, overrides, players, agents)

    batches = task_count(games, players)
    if workers and workers > batches:  # a process per batch at most: more would only start idle
        workers = batches
    arena, where = play_on_executor(workers, scheduler, games,
                                    lambda executor, advance: run_arena(variant, job, games, seed, executor, advance),
                                    decimals=1)
    code = 143 if arena.interrupted == "Terminated" else 130
    if arena.interrupted:
        word = "terminated" if arena.interrupted == "Terminated" else "interrupted"
        click.echo(f"{word}: {arena.games} of {games} games finished ({arena.games // players} whole rotations)",
                   err=True)
        if not arena.games:
            sys.exit(code)
    if as_json:
        click.echo(dump_json(to_json(arena, overrides)))
    else:
        from amunre.compare.arena import legend, table

        console = make_console()
        rate = arena.games / arena.elapsed if arena.elapsed else 0
        title = (f"{variant.id}, {players} players, {arena.games} game{'' if arena.games == 1 else 's'} "
                 f"({arena.games // players} rotations of the seats), seed {seed}; {rate:,.1f} games/s ({where})")
        console.print(table(arena, title))
        console.print(Text(legend(arena)))
    if arena.interrupted:
        sys.exit(code)
