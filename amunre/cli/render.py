"""`amunre render FILE -o board.svg`: a picture of the board, from a position file or a log."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import click

from amunre.cli.common import WholeNumber, check_writable, literal, one_variant, variant_arg
from amunre.core.counting import plural
from amunre.core.errors import AmunreError
from amunre.gamelog import read_log, shown_path, write_atomically

#: What FILE must be, said in every message about it.
EXPECTED = ("a position file (.toml or .json, as `amunre score` reads) or a log (the JSON Lines `amunre run --log` "
            "writes)")
#: How much of a file is read to tell a log from a position.
SNIFF_BYTES = 65536


def file_kind(path: str) -> str:
    """"position" or "log", from the file's name and first line; `AmunreError` naming what
    is wrong with any other path."""
    shown = f"FILE {shown_path(path)}"
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise AmunreError(f"{shown} does not exist (expected {EXPECTED})") from None
    except (OSError, ValueError) as exc:
        raise AmunreError(f"{shown}: cannot read it ({getattr(exc, 'strerror', None) or exc}) "
                          f"(expected {EXPECTED})") from None
    if stat.S_ISDIR(info.st_mode):
        raise AmunreError(f"{shown} is a folder (expected {EXPECTED})")
    if not stat.S_ISREG(info.st_mode):
        raise AmunreError(f"{shown} is not a regular file (expected {EXPECTED})")
    suffix = Path(path).suffix.lower()
    if suffix == ".toml":
        return "position"
    try:
        with open(path, "rb") as file:
            head = file.read(SNIFF_BYTES)
    except OSError as exc:
        raise AmunreError(f"{shown}: cannot read it ({exc.strerror or exc}) (expected {EXPECTED})") from None
    first = head.split(b"\n", 1)[0]
    try:
        line = json.loads(first.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        line = None
    if isinstance(line, dict) and line.get("type") == "header":
        return "log"
    if suffix == ".json":
        return "position"
    raise AmunreError(f"{shown} is neither a position nor a log: its name does not end in .toml or .json, and "
                      f"its first line is not a log's header (expected {EXPECTED})")


def position_picture(path: str, variant_ref: str | None):
    """(picture, snapshot) of a position file."""
    from amunre.picture import BoardPicture, position_snapshot
    from amunre.planning.position import position_from_data, position_variant, read_position_raw

    data, lines = read_position_raw(path, argument="FILE")
    variant = variant_arg(variant_ref if variant_ref is not None else position_variant(data, str(path), lines))
    position = position_from_data(data, variant, source=str(path), lines=lines)
    return BoardPicture(variant, list(position.names)), position_snapshot(variant, position)


def log_picture(path: str, step: int | None, variant_ref: str | None):
    """(picture, snapshot, step shown, decisions in the log) of a log at a step."""
    from amunre.picture import BoardPicture, log_steps

    lines = read_log(path)
    decisions = sum(1 for line in lines if line.get("event") == "answer")
    if step is not None and step > decisions:
        raise AmunreError(f"--step {step}: the log holds {plural(decisions, 'decision')} (expected a step from 0, "
                          f"the position at the first decision, to {decisions}, the position after the last)")
    logged = log_steps(lines, path, variant=variant_ref, upto=step)
    shown = logged.steps[-1]
    return BoardPicture(logged.variant, logged.names), shown.snapshot, len(logged.steps) - 1, logged.decisions


@click.command("render")
@click.argument("file", metavar="FILE")
@click.option("--step", type=WholeNumber(0), default=None, metavar="N",
              help="With a log: the position after N decisions (0: when the first decision is asked). "
                   "Default: the end of the game (or where an incomplete log stops).")
@click.option("-o", "--output", required=True, metavar="OUT.svg",
              help="The SVG file to write (written whole, then renamed into place).")
@one_variant(name="variant_ref", required=False,
             help_text="The variant to draw with, the same as the VARIANT argument: for a position, instead of the "
                       "shipped variant it names; for a log played from a variant file of its own, that file (as "
                       "`amunre replay --variant`).")
def command(file, step, output, variant_ref):
    """Draw the board of a position file, or of a logged game at a decision, as an SVG picture.

    FILE is a position (TOML or JSON, as `amunre score` reads) or a log written by `amunre run
    --log`; a log is checked as `amunre replay` checks it, then replayed to step N. The
    picture shows the provinces where the board data places them (Upper and Lower Egypt, west
    and east of the Nile, on the Nile or the frontier) with their owners, farmers, stones and
    pyramids and what is printed on them; the offering level; each player's gold, hand size
    and points; the provinces on auction with their bids. Provisional board values have a
    dotted outline. No network, no other file is read.
    """
    check_writable(output, "the picture", "-o", source=file)
    kind = file_kind(file)
    if kind == "position":
        if step is not None:
            raise AmunreError(f"--step {step}: FILE {shown_path(file)} is a position file, which holds one position "
                              f"(expected --step only with a log)")
        picture, snap = position_picture(file, variant_ref)
        said = "the position"
    else:
        picture, snap, at, decisions = log_picture(file, step, variant_ref)
        said = f"step {at} of {decisions}"
    write_atomically(output, picture.document(snap), what="the picture", argument="-o")
    click.echo(literal(f"board picture written to {output} ({said}: {snap.where})"))
