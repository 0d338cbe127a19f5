"""One command line: every command that takes a variant takes it the same two ways (a
positional VARIANT, and `--variant VARIANT` as a synonym: `amunre.cli.common.one_variant` /
`many_variants`), and `-h` is `--help` everywhere."""

from __future__ import annotations

import pytest
from helpers import run_cli

from amunre.cli import cli


def test_every_command_that_takes_a_variant_takes_both_forms():
    takes = {}
    for verb, command in cli.commands.items():
        names = {param.name for param in command.params}
        positional = names & {"variant_positional", "variant_positionals"}
        option = names & {"variant_option", "variant_options"}
        if positional or option or any("variant" in (param.name or "") for param in command.params):
            takes[verb] = (bool(positional), bool(option))
    assert set(takes) >= {"run", "arena", "bench", "board", "check", "compare", "diff", "render", "replay", "score",
                          "show", "validate"}
    assert all(both == (True, True) for both in takes.values()), takes


@pytest.mark.parametrize("argv", [
    ["show", "{v}"], ["board", "{v}"], ["validate", "{v}"],
    ["run", "{v}", "--seed", "3", "--agents", "random", "--quiet"],
])
def test_the_two_forms_give_the_same_output(capsys, argv):
    positional = [a.replace("{v}", "supermeeple2016") for a in argv]
    option = [x for a in argv for x in (["--variant", "supermeeple2016"] if a == "{v}" else [a])]
    one = run_cli(capsys, *positional)
    two = run_cli(capsys, *option)
    assert one[0] == 0 and one == two, (one[2], two[2])


def test_two_ways_at_once_must_agree_and_none_where_one_is_needed_is_said(capsys):
    code, out, err = run_cli(capsys, "run", "classic2003", "--variant", "supermeeple2016")
    assert code == 2 and "the variant is given twice, as classic2003 and as --variant supermeeple2016" in err
    code, out, err = run_cli(capsys, "show")
    assert code == 2 and err.startswith("error: no variant given (expected VARIANT") and "--variant" in err
    code, out, err = run_cli(capsys, "diff", "classic2003", "--variant", "supermeeple2016")
    assert code == 0, err
    code, out, err = run_cli(capsys, "diff", "classic2003")
    assert code == 2 and "1 variant given (classic2003), expected 2" in err


def test_dash_h_is_help_on_every_command(capsys):
    for verb in sorted(cli.commands):
        code, out, err = run_cli(capsys, verb, "-h")
        assert code == 0 and out.startswith(f"Usage: amunre {verb} "), (verb, err)


def test_every_option_value_is_named_in_one_style():
    """One metavar style: an option's value is named by what it is, in capitals (N, SEED, FILE,
    AGENT,..., KEY=VALUE), never by click's type name (INTEGER, TEXT)."""
    import re

    import click

    for name, command in cli.commands.items():
        context = click.Context(command)
        for param in command.params:
            if getattr(param, "is_flag", False) or param.name == "help":
                continue
            metavar = param.make_metavar(context)
            if isinstance(param.type, click.Choice):
                continue  # click lists the choices: [text|json]
            assert metavar not in ("INTEGER", "TEXT", "FLOAT", "PATH", "FILENAME", "BOOLEAN"), (name, param.opts)
            assert re.fullmatch(r"\[?[A-Z][A-Z0-9_.=,]*(?: [A-Z][A-Z0-9_]*)*(?:\.\.\.)?\]?(?:\.\.\.)?", metavar) or \
                re.fullmatch(r"[A-Z]+\.[a-z]+", metavar), (name, param.opts, metavar)
