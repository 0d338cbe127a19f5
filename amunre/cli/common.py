"""Option parsing shared by the commands: variant (with `--set KEY=VALUE` overrides),
player count, seed and agent list, each checked against the variant with one clear error
line."""

from __future__ import annotations

import errno
import json
import os
import re
import tempfile
from pathlib import Path

import click

from amunre.agents import DEFAULT_AGENT, agent_names, check_spec, is_known, split_spec
from amunre.core.engine import new_seed
from amunre.core.errors import AmunreError
from amunre.core.words import CONTROL, literal
from amunre.gamelog import shown_path
from amunre.loader import load_variant
from amunre.loader.problems import printable


def whole_number(text: str) -> int:
    """A non-negative whole number written in ASCII digits; ValueError otherwise. (Python's
    int() also reads '４' and '1_000', which no user means as a count.)"""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    return int(text)


class WholeNumber(click.ParamType):
    """A click option of ASCII digits within [low, high]."""

    name = "integer"

    def __init__(self, low: int = 0, high: int | None = None):
        self.low, self.high = low, high

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            number = whole_number(value)
        except ValueError:
            number = None
        if number is None or number < self.low or (self.high is not None and number > self.high):
            span = f"from {self.low} to {self.high}" if self.high is not None else f"of at least {self.low}"
            self.fail(f"{value!r} is not a whole number {span}", param, ctx)
        return number


def parse_seed(seed: int | None) -> int:
    """The game's seed: the one given (an option of type `WholeNumber(0, MAX_SEED)`, whose
    refusal reads as every command's `--seed`), or a new one."""
    return new_seed() if seed is None else seed


def parse_players(variant, text: str | None) -> int:
    allowed = variant.players
    if text is None:
        return 4 if 4 in allowed else allowed[0]
    try:
        count = whole_number(text)
    except ValueError:
        count = None
    if count not in allowed:
        raise AmunreError(
            f"--players must be one of {', '.join(map(str, allowed))} for {variant.id}, not {text!r}"
            + (variant.modules.players_note(count) if count is not None else "")
        )
    return count


def parse_agents(text: str | None, players: int, default: str = DEFAULT_AGENT) -> list[str]:
    names = [n.strip() for n in (default if text is None else text).split(",")]
    known = agent_names()
    for name in names:
        if not name:
            raise AmunreError(f"--agents has an empty name in {text!r} (expected names from: {', '.join(known)})")
        if not is_known(split_spec(name)[0]):
            raise AmunreError(f"unknown agent {split_spec(name)[0]!r} in --agents (available: {', '.join(known)})")
        check_spec(name)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise AmunreError(f"--agents names {len(names)} agents for {players} players (give 1 or {players})")
    return names


def dump_json(doc) -> str:
    """`doc` as indented JSON with non-ASCII text kept readable, but DEL, C1 characters and
    lone surrogates (which json.dumps leaves raw) written as \\u escapes: machine output
    carries no control characters either, and always encodes."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    return re.sub("[\x7f-\x9f\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def parse_bot_kinds(text: str) -> list[str]:
    """An --agents list of agent kinds that play unattended (`check`, `bench`): none empty, at
    least one (an empty list would check or measure nothing)."""
    bots = [n for n in agent_names() if n != "human"]
    kinds = [k.strip() for k in text.split(",")]
    if not any(kinds):
        raise AmunreError(f"--agents is empty: no game would be played (expected agent kinds from: {', '.join(bots)})")
    for kind in kinds:
        if not kind:
            raise AmunreError(f"--agents has an empty name in {text!r} (expected agent kinds from: {', '.join(bots)})")
        name = split_spec(kind)[0]
        if not is_known(name):
            raise AmunreError(f"--agents: unknown agent {name!r} (choose from {', '.join(bots)}, or one's own "
                              f"as LOCATION:NAME, e.g. ./my_bot.py:MyAgent)")
        if name == "human":
            raise AmunreError(f"--agents: {name!r} cannot play unattended (choose from {', '.join(bots)})")
        check_spec(kind)
    return kinds


def make_console():
    """A rich console that prints every string literally: no markup (`[bold red]`), no
    emoji codes (`:smile:`), no highlighting, control characters escaped (`literal`).
    Piped output gets a wide page so tables are not squeezed to 80 columns and cut (a
    terminal keeps its own width)."""
    import sys

    from rich.console import Console
    from rich.text import Text

    class LiteralConsole(Console):
        def render(self, renderable, options=None):
            # every str and Text is rendered through here, table cells and titles included
            if isinstance(renderable, str):
                renderable = literal(renderable)
            elif isinstance(renderable, Text) and CONTROL.search(renderable.plain):
                shown = renderable.blank_copy()
                shown.append(literal(renderable.plain))
                renderable = shown
            return super().render(renderable, options)

    return LiteralConsole(highlight=False, markup=False, emoji=False, soft_wrap=True,
                          width=None if sys.stdout.isatty() else 160)


SET_HELP = ("Change one key of the variant for this run, e.g. components.starting_gold=25, "
            "rulings.bribery_scope=whole_phase, phases.auction.params.protection_skip=3 (an entry by its id), "
            "params.auction.protection_skip=3 (every entry of a rule). VALUE is a TOML value; a bare word is a "
            "string. Repeatable; checked like the file itself.")


def set_option(help_text: str = SET_HELP):
    """The `--set KEY=VALUE` option (repeatable), passed to the command as `overrides`."""
    return click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help=help_text)


VARIANT_HELP = "Variant id (see `amunre variants`) or path to a variant TOML file; the same as the VARIANT argument."


def one_variant(default: str | None = None, name: str = "variant_name", required: bool = True,
                help_text: str = VARIANT_HELP):
    """A command's variant, given either way: a positional `VARIANT` or `--variant VARIANT`
    (every command that takes one variant takes both). The command gets it as `name`;
    `default` when neither is given (None: a variant is needed, and its absence is an error
    that shows both forms); both given and different is an error naming both."""
    import functools

    def decorate(command):
        @functools.wraps(command)
        def wrapped(*args, variant_positional=None, variant_option=None, **kwargs):
            kwargs[name] = _the_variant(variant_positional, variant_option, default, required)
            return command(*args, **kwargs)

        wrapped = click.option("--variant", "variant_option", metavar="VARIANT", default=None,
                               help=help_text + (f" [default: {default}]" if default else ""))(wrapped)
        shown = "VARIANT" if default is None and required else "[VARIANT]"
        return click.argument("variant_positional", required=False, metavar=shown)(wrapped)

    return decorate


def many_variants(name: str, default: tuple = (), count: int | None = None, metavar: str = "VARIANT..."):
    """A command's variants, given either way: positional `VARIANT...` and `--variant VARIANT`
    (repeatable), the positional ones first. `default` when none is given; with `count`,
    exactly that many are needed (an error shows both forms)."""
    import functools

    def decorate(command):
        @functools.wraps(command)
        def wrapped(*args, variant_positionals=(), variant_options=(), **kwargs):
            chosen = tuple(variant_positionals) + tuple(variant_options) or tuple(default)
            if not chosen:
                raise AmunreError(f"no variant given (expected {metavar}: ids or .toml files, e.g. classic2003; "
                                  "--variant VARIANT, repeatable, says the same)")
            if count is not None and len(chosen) != count:
                given = ", ".join(printable(ref) for ref in chosen)
                raise AmunreError(f"{len(chosen)} variant{'' if len(chosen) == 1 else 's'} given ({given}), expected "
                                  f"{count} ({metavar}, or --variant VARIANT {count} times)")
            kwargs[name] = chosen
            return command(*args, **kwargs)

        wrapped = click.option("--variant", "variant_options", metavar="VARIANT", multiple=True,
                               help="A variant, the same as a VARIANT argument (repeatable)"
                                    + (f" [default: {', '.join(default)}]" if default else "") + ".")(wrapped)
        return click.argument("variant_positionals", nargs=-1, metavar=metavar)(wrapped)

    return decorate


def _the_variant(positional: str | None, option: str | None, default: str | None, required: bool = True) -> str:
    if positional is not None and option is not None and positional != option:
        raise AmunreError(f"the variant is given twice, as {printable(positional)} and as --variant "
                          f"{printable(option)} (expected one: VARIANT or --variant VARIANT)")
    chosen = positional if positional is not None else option if option is not None else default
    if chosen is None and required:
        raise AmunreError("no variant given (expected VARIANT, an id or a .toml file, e.g. classic2003; "
                          "--variant VARIANT says the same)")
    return chosen


def variant_arg(text: str, overrides=()):
    """The variant for an id or a path to a TOML file, with `--set` overrides applied; its
    warnings (a parameter not read under its rulings) go to stderr, the command goes on."""
    variant = load_variant(text, tuple(overrides))
    for warning in variant.warnings:
        click.echo(literal(warning.text), err=True)
    return variant


def write_resolved(variant, overrides, path):
    """Write the variant, overrides applied, as one complete file at `path` (for what reloads a
    variant from its file: a log's replay, the conformance suite's [replay] check)."""
    from pathlib import Path

    from amunre.loader.resolved import resolved_toml

    path = Path(path)
    try:
        # literal: a path in a comment may hold an undecodable byte (a lone surrogate)
        path.write_text(literal(resolved_toml(variant, overrides)), encoding="utf-8")
    except OSError as exc:
        raise AmunreError(f"cannot write {path}: {exc.strerror} (expected a writable folder)") from None
    return path


def check_writable(path: str, what: str, option: str, source: str | None = None,
                   source_arg: str = "FILE") -> None:
    """Fail before playing, not after, when an output file cannot be written; creates nothing
    at `path` (outputs are written whole once the work is done, see `gamelog.write_atomically`).
    With `source` (the file the command reads), writing onto that very file is refused too."""
    if path == "":
        raise AmunreError(f"cannot write {what} {option} '': the path is empty (expected a file path)")
    target = Path(path)
    try:
        same = False
        if source is not None:
            try:  # the same file through another name or a hard link included
                same = os.path.samefile(path, source)
            except OSError:
                same = os.path.realpath(path) == os.path.realpath(source)
        if same:
            raise AmunreError(f"cannot write {what} {option} {shown_path(path)}: it is {source_arg} "
                              f"{shown_path(source)}, the file read, which writing would destroy (expected "
                              f"another path)")
        if target.is_dir():
            raise AmunreError(f"cannot write {what} {option} {shown_path(path)}: it is a folder "
                              f"(expected a file path)")
        try:
            os.stat(target)  # a name too long, a folder that is not one: said here
        except FileNotFoundError:
            pass
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise AmunreError(f"cannot write {what} {option} {shown_path(path)}: "
                              f"{'a link' if target.is_symlink() else 'not a regular file'} (expected the path "
                              f"of a regular file: the file is written whole, then renamed into place)")
        if target.exists() and not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        folder = target.parent
        try:
            fd, probe = tempfile.mkstemp(prefix=".amunre-", suffix=".tmp", dir=folder)
        except OSError as exc:
            # the file is written beside its place, then renamed: its folder must take a new file
            if not folder.is_dir():
                raise  # no such folder: the system's words say it
            raise AmunreError(f"cannot write {what} {option} {shown_path(path)}: no new file can be made in its "
                              f"folder {shown_path(folder)} ({exc.strerror or exc}), and the file is written whole "
                              f"beside its place, then renamed into it (expected a path in a writable "
                              f"folder)") from None
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise AmunreError(f"cannot write {what} {option} {shown_path(path)}: {exc.strerror or exc} "
                          f"(expected a writable file path)") from None
    except ValueError as exc:  # a NUL byte in the name
        raise AmunreError(f"cannot write {what} {option} {shown_path(path)}: {exc}") from None
