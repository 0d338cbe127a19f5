"""`amunre compare`: variants (or one variant over several values of a key) side by side
over many seeded games, with confidence intervals and paired tests (`amunre.compare`)."""

from __future__ import annotations

import json
import math
import sys

import click
from rich.text import Text

from amunre.agents import DEFAULT_AGENT
from amunre.cli.common import (
    WholeNumber,
    check_writable,
    dump_json,
    literal,
    make_console,
    many_variants,
    parse_bot_kinds,
    set_option,
    variant_arg,
)
from amunre.cli.file_names import variant_shown
from amunre.cli.progress import games_progress
from amunre.core.engine import MAX_SEED
from amunre.core.errors import AmunreError, VariantError
from amunre.loader.problems import printable

DEFAULT_GAMES = 1000


class TargetDifference(click.ParamType):
    """`--target-difference ROW=VALUE`: checked as text here, the row against the variants
    once they are loaded (`amunre.compare.verdicts.check_targets`)."""

    name = "ROW=VALUE"

    def convert(self, value, param, ctx):
        from amunre.compare.verdicts import parse_target

        try:
            parse_target(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        return value


def split_values(text: str) -> list[str]:
    """`15,20,[1, 2],"a,b"` -> its values: commas inside brackets, braces or quotes stay.
    ValueError, saying what is wrong, when a bracket or a quote is left open or closes
    nothing."""
    values, closers, quote, current = [], [], None, ""
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            closers.append("]" if char == "[" else "}")
        elif char in "]}":
            if not closers or closers[-1] != char:
                raise ValueError(f"a {char} where {closers[-1]} should close" if closers else
                                 f"a {char} closes nothing")
            closers.pop()
        elif char == "," and not closers:
            values.append(current.strip())
            current = ""
            continue
        current += char
    if quote:
        raise ValueError(f"a {quote} quote is never closed")
    if closers:
        raise ValueError(f"a {'[' if closers[-1] == ']' else '{'} is never closed")
    values.append(current.strip())
    return values


def _columns(refs, sweep, overrides):
    """(label, variant, setting) per column, every one loaded and checked before any game;
    the problems of every column are reported together, each named by its variant."""
    if sweep:
        return _sweep_columns(refs, sweep, overrides)
    out, problems = [], []
    for ref in refs:
        try:
            out.append((None, variant_arg(ref, overrides), ""))
        except VariantError as exc:
            if len(refs) == 1:
                raise
            # the same --set may suit one variant and not another: say which
            problems += [f"{literal(ref)}: {line}" if line.startswith("--set ") else line for line in exc.problems]
    if problems:
        raise VariantError(problems)
    out = [(variant.id, variant, setting) for _, variant, setting in out]
    labels = [label for label, _, _ in out]
    if len(set(labels)) != len(labels):  # the same variant twice: tell the columns apart
        out = [(f"{label} ({i + 1})", v, s) for i, (label, v, s) in enumerate(out)]
    return out


def _sweep_columns(refs, sweep, overrides):
    """A column per value of `--sweep KEY=V1,V2,...` over the one variant given."""
    from amunre.loader.overrides import SweepValue, parse_override

    if len(refs) != 1:
        raise AmunreError(f"--sweep varies one variant, but {len(refs)} are given (expected one VARIANT)")
    shown = printable(sweep)
    example = "e.g. components.starting_gold=15,20,25"
    key, sep, raw = sweep.partition("=")
    if not key.strip() or not sep or not raw.strip():
        raise AmunreError(f"--sweep {shown} is not KEY=V1,V2,... (expected at least two values, {example})")
    try:
        values = split_values(raw)
    except ValueError as exc:
        raise AmunreError(f"--sweep {shown}: {exc} (expected KEY=V1,V2,..., where a comma inside [...], {{...}} "
                          f"or quotes stays within its value)") from None
    empty = [n for n, value in enumerate(values, 1) if not value]
    if empty:
        which = f"value {empty[0]} of {len(values)} is" if len(empty) == 1 else \
            f"values {', '.join(map(str, empty[:-1]))} and {empty[-1]} of {len(values)} are"
        raise AmunreError(f"--sweep {shown}: {which} empty (expected a value between every two commas, {example})")
    if len(values) < 2:
        raise AmunreError(f"--sweep {shown} has one value (expected at least two values, {example})")
    for override in overrides:  # --set the swept key: one of the two would be dropped
        other = override.partition("=")[0].strip()
        swept = key.strip()
        if other == swept or other.startswith(swept + ".") or swept.startswith(other + "."):
            raise AmunreError(f"--set {printable(override)} changes the key --sweep {shown} varies (expected "
                              f"that key in --sweep alone: each column gives it its own value)")
    settings = [SweepValue(f"{key.strip()}={value}") for value in values]
    seen: dict[str, str] = {}
    for setting, value in zip(settings, values):
        try:
            parsed = parse_override(setting)
        except ValueError:
            continue  # the variant's loading names what is wrong with it
        same = json.dumps([type(parsed[1]).__name__, parsed[1]], sort_keys=True, default=str)
        if same in seen:  # 20 and 0x14 are one value
            raise AmunreError(f"--sweep {shown} gives one value twice: {printable(seen[same])} and "
                              f"{printable(value)} (expected each value once)")
        seen[same] = value
    return [(setting, variant_arg(refs[0], tuple(overrides) + (setting,)), setting) for setting in settings]


def _players(variants, text):
    common = sorted(set.intersection(*(set(v.players) for v in variants)))
    if text is None:
        if not common:
            raise AmunreError("the variants share no player count: " + "; ".join(
                f"{v.id}: {', '.join(map(str, v.players))}" for v in variants))
        return 4 if 4 in common else common[0]
    from amunre.cli.common import whole_number

    try:
        count = whole_number(text)
    except ValueError:
        count = None
    for variant in variants:
        if count not in variant.players:
            raise AmunreError(f"--players must be a count every variant allows "
                              f"({', '.join(map(str, common)) or 'none'}), "
                              f"not {text!r}: {variant.id} is played by {', '.join(map(str, variant.players))}")
    return count


def _lineup(text, players):
    kinds = parse_bot_kinds(text)
    if len(kinds) == 1:
        return tuple(kinds) * players
    if len(kinds) != players:
        raise AmunreError(f"--agents names {len(kinds)} agents for {players} players (give 1 or {players})")
    return tuple(kinds)


@click.command("compare")
@many_variants("refs")
@click.option("--games", metavar="N", default=DEFAULT_GAMES, show_default=True, type=WholeNumber(1, 10_000_000),
              help="Games per variant; every variant plays the same seeds.")
@click.option("--players", metavar="N", help="Player count, allowed by every variant (default 4 where all allow it).")
@click.option("--agents", "lineup", metavar="AGENT,...", default=DEFAULT_AGENT, show_default=True,
              help="One agent kind for every seat, or one per seat (e.g. greedy,random,greedy,greedy).")
@click.option("--seed", metavar="SEED", default=0, show_default=True, type=WholeNumber(0, MAX_SEED),
              help="Seed S of the run: game i plays seed f(S, i) in every variant.")
@click.option("--workers", metavar="N", type=WholeNumber(1, 1024),
              help="Local processes (default: every CPU this process may use).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on a Dask cluster (tcp://HOST:PORT; needs amunre[dask]).")
@click.option("--sweep", metavar="KEY=V1,V2,...", multiple=True,
              help="One variant, one key over several values: a column per value.")
@set_option("Change one key of every variant (KEY=VALUE, repeatable; see `amunre run --help`).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (schemas/compare.schema.json).")
@click.option("--records", "records_path", multiple=True, metavar="FILE.csv",
              help="Also write every game's numbers as CSV, a line per game, column and seat (see docs/compare.md).")
@click.option("--csv", "csv_path", multiple=True, metavar="FILE",
              help="Also write the numbers as CSV, a line per row and column.")
@click.option("--plot", "plot_path", multiple=True, metavar="FILE.png",
              help="Also draw score distributions and points per scoring item (needs amunre[plot]).")
@click.option("--target-difference", "target_differences", multiple=True, type=TargetDifference(),
              metavar="ROW=VALUE", help="Also say how many games would find a difference of VALUE in row ROW (a key "
                                        "of --json; a proportion in percentage points, e.g. close=5pt), repeatable.")
@click.option("--html", "html_path", multiple=True, metavar="FILE.html",
              help="Also write a report to read in a browser: the rules' differences, the table and its pictures, "
                   "in one file (needs amunre[plot]).")
def command(refs, games, players, lineup, seed, workers, scheduler, sweep, overrides, as_json, records_path, csv_path,
            target_differences, plot_path, html_path):
    """Play the same seeded games under several variants and show what the rule differences
    do: winning score, win rate per seat, points per scoring item, gold, pyramids, auction
    prices, offering levels, tie-breaks and decisions, each with a 95% interval, differences
    from the first variant tested game by game (see docs/compare.md)."""
    from amunre.compare import verdicts
    from amunre.compare.executors import make_executor
    from amunre.compare.jobs import job_for, rotations
    from amunre.compare.report import legend, table, to_csv, to_json
    from amunre.compare.rescore import summarize_rescored
    from amunre.compare.rescore_report import identical_text, terminal_parts
    from amunre.compare.run import Column, run_comparison, summarize, summarize_by_kingdom
    from amunre.gamelog import write_atomically

    if scheduler and workers:
        raise AmunreError("--workers counts local processes; with --scheduler the cluster's workers play "
                          "(expected one of them)")
    if len(sweep) > 1:  # a click option given twice keeps the last: say so instead
        given = " and ".join(f"--sweep {printable(one)}" for one in sweep)
        raise AmunreError(f"--sweep is given {len(sweep)} times ({given}), but a run varies one key "
                          f"(expected one --sweep; for another key, another run)")
    sweep = sweep[0] if sweep else None
    # an output option given twice would keep the last silently: say so instead
    csv_path, records_path, plot_path, html_path = (
        _one(option, given) for option, given in (("--csv", csv_path), ("--records", records_path),
                                                  ("--plot", plot_path), ("--html", html_path)))
    outputs = [(option, path, what) for option, path, what in (
        ("--csv", csv_path, "the CSV"), ("--records", records_path, "the records"), ("--plot", plot_path, "the plot"),
        ("--html", html_path, "the report")) if path is not None]
    for option, path, what in outputs:
        if not path.strip():
            raise AmunreError(f"{option} is empty (expected a file path)")
        if path == "-":  # stdout holds the table or the JSON: a file named "-" would surprise
            raise AmunreError(f"{option} -: {what} {'are' if what.endswith('s') else 'is'} written to a file, not "
                              f"to stdout "
                              f"(expected a file path; --json prints the numbers on stdout)")
    for i, (option, path, _) in enumerate(outputs):
        for other, other_path, _ in outputs[i + 1:]:
            if _same_file(path, other_path):
                raise AmunreError(f"{option} and {other} name the same file, {printable(other_path)} (expected "
                                  f"two files: the second would overwrite the first)")
    plot = None
    if plot_path or html_path:
        from amunre.compare.plot import load_matplotlib

        # a missing extra is said before any game is played
        plot = load_matplotlib("--plot" if plot_path else "--html")
    if plot_path and not plot_path.lower().endswith(".png"):
        raise AmunreError(f"--plot {printable(plot_path)} is not a .png file (expected FILE.png)")
    if html_path and not html_path.lower().endswith((".html", ".htm")):
        raise AmunreError(f"--html {printable(html_path)} is not an .html file (expected FILE.html)")
    for option, path, what in outputs:
        check_writable(path, what, option)
    specs = _columns(list(refs), sweep, overrides)
    count = _players([v for _, v, _ in specs], players)
    agents = _lineup(lineup, count)
    try:  # every row asked about is one these variants can have, before any game
        asked = verdicts.check_targets(target_differences, [v for _, v, _ in specs], count)
    except ValueError as exc:
        raise AmunreError(f"--target-difference {exc}") from None
    # each column's variant as the user named it: a shipped one by its id, a file by his path
    named = [variant_shown(variant, refs[0] if sweep else refs[c]) for c, (_, variant, _) in enumerate(specs)]
    columns = [Column(label, variant, job_for(variant, (), count, agents), setting, named[c])
               for c, (label, variant, setting) in enumerate(specs)]

    turns = rotations(agents)
    total = math.ceil(games / turns) * turns * len(columns)  # whole rotations of a mixed lineup
    if workers and workers > total:  # a process per game at most: more would only start idle
        workers = total
    with make_executor(workers, scheduler) as executor, games_progress(total) as advance:
        comparison = run_comparison(columns, games, seed, executor, advance, records_path is not None, overrides)
        where = executor.description
    if comparison.interrupted:
        word = "terminated" if comparison.interrupted == "Terminated" else "interrupted"
        click.echo(f"{word}: {comparison.games} of {games} games finished in every column", err=True)
        if not comparison.games:
            sys.exit(143 if comparison.interrupted == "Terminated" else 130)
    rows = summarize(comparison)
    by_kingdom = summarize_by_kingdom(comparison)
    rescored = summarize_rescored(comparison)  # identical games; how much is arithmetic
    differences = _differences(columns, overrides)
    found = verdicts.verdicts(comparison, rows)
    sized = verdicts.targets(comparison, rows, by_kingdom, asked)
    # the results reach the terminal first: a file that then fails to write loses nothing
    if as_json:
        click.echo(dump_json({**to_json(comparison, rows, differences, by_kingdom, rescored),
                              **verdicts.to_json(found, sized)}))
    else:
        console = make_console()
        # a terminal gets everything fitted to its width; piped output keeps its wide lines
        terminal = sys.stdout.isatty()
        rate = comparison.games * len(columns) / comparison.elapsed if comparison.elapsed else 0
        setting = "".join(f"; --set {printable(text)}" for text in overrides)
        swept = f"; --sweep {printable(sweep)}" if sweep else ""
        rotated = f", each seed in {turns} rotations of the lineup" if turns > 1 else ""
        title = (f"{comparison.games} game{'' if comparison.games == 1 else 's'} per column, {count} players "
                 f"({', '.join(agents)}{rotated}), seed {seed}{setting}{swept}; {rate:,.0f} games/s ({where})")
        console.print(Text(title), soft_wrap=not terminal)
        for one in rescored:  # at the top: whether the columns played the very same games
            console.print(Text(identical_text(one, columns[0].label)), soft_wrap=not terminal)
        for line in verdicts.lines(comparison, found, sized):  # the verdicts in words, first
            console.print(Text(line), soft_wrap=not terminal)
        console.print(table(comparison, rows, width=console.width if terminal else None))
        for part in terminal_parts(comparison, rescored, rows, console.width if terminal else None, by_kingdom):
            console.print(part, soft_wrap=not terminal and isinstance(part, Text))
        if by_kingdom:  # the modules' rows within each kingdom: when in the game a change acts
            console.print(table(comparison, by_kingdom, title="By kingdom", width=console.width if terminal else None))
        console.print(Text(legend(comparison, rows, by_kingdom)), soft_wrap=not terminal)
        _print_differences(console, columns, overrides, differences, terminal)
    if csv_path:
        write_atomically(csv_path, to_csv(comparison, rows + by_kingdom), what="the CSV", argument="--csv")
        if not as_json:
            click.echo(literal(f"CSV written to {csv_path}"))
    if records_path:
        from amunre.compare.report import records_csv

        write_atomically(records_path, records_csv(comparison), what="the records", argument="--records")
        if not as_json:
            click.echo(literal(f"records written to {records_path}"))
    if plot_path:
        from amunre.compare.plot import draw

        draw(plot, comparison, rows, plot_path)
        if not as_json:
            click.echo(literal(f"plot written to {plot_path}"))
    if html_path:
        from amunre.compare.html import write_report

        write_report(plot, comparison, rows, differences, html_path, by_kingdom, rescored, (found, sized))
        if not as_json:
            click.echo(literal(f"report written to {html_path}"))
    if comparison.interrupted:
        sys.exit(143 if comparison.interrupted == "Terminated" else 130)


def _one(option: str, given: tuple) -> str | None:
    """The one file an output option names (None if not given); an error if it names two."""
    if len(given) > 1:
        names = " and ".join(printable(path) for path in given)
        raise AmunreError(f"{option} is given {len(given)} times ({names}), but a run writes one such file "
                          f"(expected one {option})")
    return given[0] if given else None


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (the same path, written differently, or two links)."""
    import os

    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return a == b


def _print_differences(console, columns, overrides, differences, terminal: bool) -> None:
    """Each column's rule differences from the first, a blank line before each: on a terminal
    as `amunre diff` shows them there (a table per group, fitted to the width), piped as
    its plain lines."""
    from rich.table import Table

    from amunre.compare.rule_names import shown_key
    from amunre.loader.compare import side_names, text

    first = columns[0]
    for column, block in zip(columns[1:], differences):
        console.print()
        if not terminal:
            for line in block["lines"]:
                console.print(Text(line))
            continue
        settings = ((column.setting,) if column.setting else ()) + tuple(overrides)
        first_settings = ((first.setting,) if first.setting else ()) + tuple(overrides)
        heading, a_name, b_name = side_names(first.variant, column.variant, settings, first_settings)
        console.print(Text(heading), soft_wrap=False)
        for line in block["lines"][1:]:  # the plug-ins each side needs, said under the heading
            if " needs the plug-in rule" not in line:
                break
            console.print(Text(line))
        groups = block["diff"]["groups"]
        if not any(groups.values()):
            console.print(Text("no differences in the effective rules"))
        for name, rows in groups.items():
            if not rows:
                continue
            shown = Table(title=Text(name), title_justify="left")
            for heading_text in ("key", a_name, b_name):
                shown.add_column(Text(heading_text))
            for row in rows:
                shown.add_row(Text(shown_key(name, row, (first.variant, column.variant))), Text(text(row["a"])),
                              Text(text(row["b"])))
            console.print(shown)


def _differences(columns, overrides=()) -> list[dict]:
    """The rule differences of each column from the first, as `amunre diff` reports them,
    each side named with its settings: a `--sweep` value first, then every `--set`."""
    from amunre.cli.diff import plain_lines
    from amunre.loader.compare import compare, compare_json

    out = []
    first = columns[0]
    first_settings = ((first.setting,) if first.setting else ()) + tuple(overrides)
    for column in columns[1:]:
        settings = ((column.setting,) if column.setting else ()) + tuple(overrides)
        groups = compare(first.variant, column.variant)
        out.append({"column": column.label,
                    "lines": plain_lines(first.variant, column.variant, groups, settings, first_settings),
                    "diff": compare_json(first.variant, column.variant, settings, first_settings)})
    return out
