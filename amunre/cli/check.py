"""`amunre check FILE_OR_ID`: run the conformance checks (`amunre.testing`) on a variant."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import click

from amunre.agents import agent_names
from amunre.cli.common import set_option, variant_arg, write_resolved
from amunre.loader import load_variant
from amunre.errors import AmunreError


@click.command("check")
@click.argument("variant_ref", metavar="FILE_OR_ID")
@click.option("--games", default=5, show_default=True, type=click.IntRange(1),
              help="Seeded games per player count and agent kind.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0),
              help="First seed; the games use SEED, SEED+1, ...")
@click.option("--players", help="Only these player counts, comma-separated (default: every allowed count).")
@click.option("--agents", "agent_kinds", default="random,greedy", show_default=True,
              help="Agent kinds to play with, each in every seat.")
@set_option()
def command(variant_ref, games, seed, players, agent_kinds, overrides):
    """Play seeded games of a variant and check every rule invariant at every step.

    Conservation of gold, cards and pieces, province counts, the offering level, scores,
    the decision protocol (illegal answers, secret simultaneous answers), determinism and
    replay: see `python -c "import amunre.testing; help(amunre.testing)"` for the list.
    Exits 1 with a reproducible description when an invariant fails.
    """
    from amunre.testing import ConformanceError, check_variant

    variant = variant_arg(variant_ref, overrides)
    if overrides:
        # the [replay] invariant reloads the variant from its file: give it one with the changes
        folder = Path(tempfile.mkdtemp(prefix="amunre-check-"))
        variant = load_variant(write_resolved(variant, overrides, folder / f"{variant.id}.toml"))
    kinds = [k.strip() for k in agent_kinds.split(",") if k.strip()]
    for kind in kinds:
        if kind not in agent_names() or kind == "human":
            bots = ", ".join(n for n in agent_names() if n != "human")
            raise AmunreError(f"--agents: {kind!r} cannot play unattended (choose from {bots})")
    counts = None
    if players:
        try:
            counts = [int(p) for p in players.split(",") if p.strip()]
        except ValueError:
            raise AmunreError(f"--players must be whole numbers separated by commas, not {players!r}") from None
        wrong = [p for p in counts if p not in variant.players]
        if wrong or not counts:
            raise AmunreError(f"--players must be among {', '.join(map(str, variant.players))} "
                              f"for {variant.id}, not {players!r}")
    show = sys.stderr.isatty()
    done = [0]
    total = games * len(kinds) * len(counts or variant.players)

    def progress(record) -> None:
        done[0] += 1
        if show:
            click.echo(f"\r{done[0]}/{total} games", nl=False, err=True)

    click.echo(f"checking {variant.id} ({variant.source}): {games} games per player count and agent, "
               f"seeds {seed}..{seed + games - 1}")
    try:
        report = check_variant(variant, seeds=range(seed, seed + games), agents=kinds, players=counts,
                               on_progress=progress)
    except ConformanceError as exc:
        if show:
            click.echo("", err=True)
        click.echo(f"FAILED: {exc}", err=True)
        if overrides:
            click.echo(f"(the variant with --set is kept in {variant.source} to rerun it)", err=True)
        sys.exit(1)
    finally:
        if overrides and sys.exc_info()[0] is None:
            shutil.rmtree(Path(variant.source).parent, ignore_errors=True)
    if show:
        click.echo("\r" + " " * 30 + "\r", nl=False, err=True)
    click.echo(report.summary())
