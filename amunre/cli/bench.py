"""`amunre bench`: games, asked decisions and engine steps per second, per variant and agent
kind, in CPU time and wall time, in one process and on every worker at once, and the cost of
copying a game state (a benchmark, not a test; the measuring is `amunre.compare.bench`, the
method docs/performance.md). CPU time says what a game costs even on a shared machine; wall
time says what several workers gain together."""

from __future__ import annotations

import math
import platform
import sys
from contextlib import nullcontext

import click
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from amunre.cli.common import (
    WholeNumber,
    dump_json,
    literal,
    make_console,
    many_variants,
    parse_bot_kinds,
    parse_players,
    set_option,
    variant_arg,
)

#: Seconds per measurement when neither --seconds nor --games is given.
DEFAULT_SECONDS = 3.0
#: The longest measurement --seconds takes (a day).
MAX_SECONDS = 86_400.0


class Seconds(click.ParamType):
    """A duration in seconds: a decimal number above 0, at most MAX_SECONDS (no nan, inf,
    exponent or sign: what a user means by a number of seconds)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            return value
        text = str(value).strip()
        whole, dot, fraction = text.partition(".")
        ok = text.isascii() and (whole + fraction).isdigit() and (whole.isdigit() or not whole) and (
            fraction.isdigit() or not dot) and len(text) <= 20
        seconds = float(text) if ok else math.nan
        if not 0 < seconds <= MAX_SECONDS:
            self.fail(f"{value!r} is not a number of seconds above 0 and at most {MAX_SECONDS:.0f}", param, ctx)
        return seconds


def _figure(rate: float) -> str:
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.1f}"


def _table(m, plain: bool) -> Table:
    """One measurement as a table: a row per count, a column per process setting and clock."""
    w = f"{m.workers} worker{'s' if m.workers != 1 else ''}"
    title = Text(f"{m.variant_id}, {m.players} players, {m.agent} in every seat")  # file text: never markup
    table = Table(title=title, title_justify="left", box=None if plain else box.SIMPLE_HEAD,
                  show_edge=False, pad_edge=False)
    table.add_column("per second")
    for header in ("1 process\nCPU", "1 process\nwall", f"{w}\nCPU", f"{w}\nwall", "speed-up\n(wall)"):
        table.add_column(header, justify="right")
    for count, label in (("games", "games"), ("asked", "decisions asked"), ("steps", "engine steps")):
        table.add_row(label, _figure(m.single.per_cpu(count)), _figure(m.single.per_wall(count)),
                      _figure(m.parallel.per_cpu(count)), _figure(m.parallel.per_wall(count)),
                      f"{m.speedup(count):.2f}x")
    return table


def _document(m, load_seconds: float) -> dict:
    """One measurement as data: its fields as they are (cattrs), and each group's rates."""
    import cattrs

    doc = cattrs.unstructure(m)
    doc["load_seconds"] = load_seconds
    for group in ("single", "parallel"):
        rates = getattr(m, group)
        doc[group]["per_cpu_second"] = {count: rates.per_cpu(count) for count in ("games", "asked", "steps")}
        doc[group]["per_wall_second"] = {count: rates.per_wall(count) for count in ("games", "asked", "steps")}
        doc[group]["cpu_share"] = rates.cpu_share()
    doc["speedup"] = m.speedup()
    return doc


def _notes(m, warmup: int) -> list[str]:
    s, p = m.single, m.parallel
    workers = f"{m.workers} worker{'s' if m.workers != 1 else ''}"
    return [
        f"  played: {s.games} game{'' if s.games == 1 else 's'} in 1 process ({s.wall:.2f} s), {p.games} on {workers} "
        f"({p.wall:.2f} s), "
        f"after {warmup} warm-up games each",
        f"  per game: {s.asked / s.games:.0f} decisions asked, {s.steps / s.games:.0f} engine steps "
        "(forced decisions included)",
        f"  CPU share: {s.cpu_share():.2f} in 1 process, {p.cpu_share():.2f} per worker "
        "(below 1: the machine was busy, the wall figures understate)",
        f"  clone: {m.clone.median_us:,.0f} us median, {m.clone.p95_us:,.0f} us p95 per Game.clone() "
        f"(CPU time, at each of the {m.clone.decisions} decisions of a game)",
        f"  determinize: {m.determinize.median_us:,.0f} us median, {m.determinize.p95_us:,.0f} us p95 per "
        "sample_game() of the asked seat (likewise)",
    ]


@click.command("bench")
@many_variants("variant_name", default=("classic2003",), metavar="[VARIANT...]")
@click.option("--players", metavar="N", help="Player count (default 4 where the variant allows it).")
@click.option("--agents", "agent_kinds", metavar="AGENT,...", default="random,greedy", show_default=True,
              help="Agent kinds to measure, each playing every seat.")
@click.option("--seconds", type=Seconds(), help=f"Seconds per measurement (default {DEFAULT_SECONDS:g}, "
              "or none with --games; with both, whichever ends first).")
@click.option("--games", metavar="N", type=WholeNumber(1, 10_000_000),
              help="Games per process in each measurement, instead of --seconds.")
@click.option("--workers", metavar="N", type=WholeNumber(1, 1024),
              help="Worker processes for the parallel figures (default: every CPU this process may use).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document (schemas/bench.schema.json): every measurement's counts, CPU and wall "
                   "seconds, rates and clone costs.")
@set_option()
def command(variant_name, players, agent_kinds, seconds, games, workers, as_json, overrides):
    """Measure games/s, asked decisions/s and engine steps/s (forced decisions included) for
    each variant and agent kind, in CPU and wall time, in one process and on every worker at
    once (warm-up games excluded), and the cost of copying a game state."""
    from amunre import __version__
    from amunre.agents import check_agents_for
    from amunre.cli.buildinfo import compiled_modules, describe_build
    from amunre.compare.bench import WARMUP_GAMES, load_time, measure
    from amunre.compare.executors import make_executor

    kinds = parse_bot_kinds(agent_kinds)
    # every variant and player count checked before any measurement
    chosen = [(name, variant_arg(name, overrides)) for name in variant_name]
    counts = [parse_players(variant, players) for _, variant in chosen]
    for _, variant in chosen:  # and every agent's parameters for each of them (a planner's weights)
        check_agents_for(kinds, variant)
    if seconds is None and games is None:
        seconds = DEFAULT_SECONDS
    console = make_console()
    plain = not sys.stdout.isatty()
    # a spinner on a terminal's stderr only; piped output stays plain
    status = Console(stderr=True, markup=False, emoji=False, highlight=False)
    documents = []
    if not as_json:  # which build is measured: a compiled one plays the same games faster
        console.print(literal(f"amunre {__version__}, {describe_build()}, Python {platform.python_version()}"))
    with make_executor(workers) as executor:
        for (name, variant), n in zip(chosen, counts):
            loads = load_time(name, overrides)
            if not as_json:
                console.print(literal(f"{variant.id}: loads in {loads * 1000:.1f} ms (median CPU time)"))
            for kind in kinds:
                with status.status(f"measuring {literal(variant.id)} with {kind} agents ...",
                                   spinner="dots") if status.is_terminal else nullcontext():
                    m = measure(variant, n, kind, executor, games=games, seconds=seconds)
                if as_json:
                    documents.append(_document(m, loads))
                    continue
                console.print(_table(m, plain))
                for line in _notes(m, WARMUP_GAMES):
                    console.print(line)
                console.print()
    if as_json:
        build = {"amunre": __version__, "python": platform.python_version(), "compiled_modules": compiled_modules()}
        click.echo(dump_json({"build": build, "warmup_games": WARMUP_GAMES, "measurements": documents}))
