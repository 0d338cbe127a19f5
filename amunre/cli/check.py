"""`amunre check FILE_OR_ID`: run the conformance checks (`amunre.testing`) on a variant."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import click

from amunre.agents import check_agents_for
from amunre.cli.common import (
    WholeNumber,
    dump_json,
    literal,
    one_variant,
    parse_bot_kinds,
    set_option,
    variant_arg,
    whole_number,
    write_resolved,
)
from amunre.cli.file_names import variant_shown
from amunre.core.counting import plural
from amunre.core.engine import MAX_SEED
from amunre.core.errors import AmunreError
from amunre.loader import load_variant


def parse_counts(variant, text: str | None) -> list[int] | None:
    """The --players list (None: every count the variant allows); empty or a bad entry is an error."""
    if text is None:
        return None
    allowed = ", ".join(map(str, variant.players))
    try:
        counts = [whole_number(p) for p in text.split(",")]
    except ValueError:
        raise AmunreError(f"--players must be player counts separated by commas (among {allowed} for "
                          f"{variant.id}), not {text!r}") from None
    wrong = [p for p in counts if p not in variant.players]
    if wrong:
        raise AmunreError(f"--players must be among {allowed} for {variant.id}, not {text!r}"
                          + variant.modules.players_note(wrong[0]))
    return list(dict.fromkeys(counts))  # a count given twice would only play the same games again


@click.command("check")
@one_variant(name="variant_ref")
@click.option("--games", metavar="N", default=5, show_default=True, type=WholeNumber(1),
              help="Seeded games per player count and agent kind.")
@click.option("--seed", metavar="SEED", default=0, show_default=True, type=WholeNumber(0, MAX_SEED),
              help="First seed; the games use SEED, SEED+1, ...")
@click.option("--players", metavar="N,...",
              help="Only these player counts, comma-separated (default: every allowed count).")
@click.option("--agents", "agent_kinds", metavar="AGENT,...", default="random,greedy", show_default=True,
              help="Agent kinds to play with, each in every seat.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document (schemas/check.schema.json): what was checked, or the invariant that "
                   "failed and how to rerun it.")
@set_option()
def command(variant_ref, games, seed, players, agent_kinds, as_json, overrides):
    """Play seeded games of a variant and check every rule invariant at every step.

    Conservation of gold, cards and pieces, province counts, the offering level, scores,
    the decision protocol (illegal answers, secret simultaneous answers), determinism and
    replay: see `.venv/bin/python -m pydoc amunre.testing` for the list (the Python of the
    environment amunre is installed in).
    Exits 1 with a reproducible description when an invariant fails.
    """
    from amunre.testing import ConformanceError, check_variant

    if seed + games - 1 > MAX_SEED:
        raise AmunreError(f"--seed {seed} with --games {games} goes past the last seed {MAX_SEED} "
                          f"(expected SEED + GAMES - 1 <= {MAX_SEED})")
    kinds = list(dict.fromkeys(parse_bot_kinds(agent_kinds)))  # each kind once: no game twice
    variant = variant_arg(variant_ref, overrides)
    shown = variant_shown(variant, variant_ref)  # the id, or the path as given: never where pip put it
    label = variant.id if shown == variant.id else f"{variant.id} ({shown})"
    shipped_source = variant.source
    counts = parse_counts(variant, players)
    check_agents_for(kinds, variant)  # a planner's weights name scoring items of the variant
    folder = None
    show = sys.stderr.isatty()
    # One guard from the temporary folder's making to the end: a Ctrl-C or SIGTERM at any
    # moment after it exists (even just after the "checking" line) still removes it.
    try:
        if overrides:
            # the [replay] invariant reloads the variant from its file: give it one with the changes
            folder = Path(tempfile.mkdtemp(prefix="amunre-check-"))
            variant = load_variant(write_resolved(variant, overrides, folder / f"{variant.id[:100]}.toml"))
        done = [0]
        total = games * len(kinds) * len(counts or variant.players)

        def progress(record) -> None:
            done[0] += 1
            if show:
                click.echo(f"\r{done[0]}/{plural(total, 'game')}", nl=False, err=True)

        if not as_json:
            click.echo(literal(f"checking {label}{' with --set' if overrides else ''}: {plural(games, 'game')} "
                               f"per player count and agent, seeds {seed}..{seed + games - 1}"))
        report = check_variant(variant, seeds=range(seed, seed + games), agents=kinds, players=counts,
                               on_progress=progress)
    except ConformanceError as exc:
        if show:
            click.echo("", err=True)
        message = str(exc)
        if not folder:  # the rerun command names the variant as the user did
            message = message.replace(shipped_source, shown)
        if as_json:
            click.echo(dump_json({"variant": variant.id, "held": False, "invariant": exc.invariant,
                                  "message": message, "kept": str(variant.source) if folder else None}))
        click.echo(f"FAILED: {literal(message)}", err=True)
        if folder:
            click.echo(literal(f"(the variant with --set is kept in {variant.source} to rerun it)"), err=True)
        sys.exit(1)
    finally:
        if folder and sys.exc_info()[0] is not SystemExit:
            shutil.rmtree(folder, ignore_errors=True)
    if show:
        click.echo("\r" + " " * 30 + "\r", nl=False, err=True)
    if as_json:
        click.echo(dump_json(report.to_json()))
        return
    lines = report.summary().splitlines()
    lines[0] = f"{label}: all invariants held"
    click.echo(literal("\n".join(lines)))
