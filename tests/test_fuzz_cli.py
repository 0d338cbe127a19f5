"""The command line under hostile arguments: every verb of the click group, with random
option names and values, empty strings, huge and negative numbers, long strings, control
characters, markup, missing, nonexistent or odd paths (a directory, a name too long for the
file system, a NUL byte) and missing arguments.

Whatever the arguments, a command exits 0 (done), 1 (a failure found, a question aborted),
2 (bad input) or 4 (a human seat left the table) with a message on stderr; never a traceback
or an "internal error" (exit
3), never a hang; stdout and stderr hold no control character but newline and tab, text
with rich markup or emoji codes shows as written, and `--json` prints one JSON document.

The fuzzer keeps runs short on purpose: `--games` (check, bench) is always given, with at
most 2 games, because a huge game count is legal input that just takes long; every other
number is drawn freely, huge and negative ones included. A human seat reads an empty stdin
(it leaves the table, exit 4). The deep run (`AMUNRE_DEEP=1`) runs 10,000 command lines.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import traceback
from pathlib import Path

import click
import conftest
import pytest
import tomli_w
from click.testing import CliRunner
from helpers import time_limit
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from amunre.cli import cli, main
from amunre.loader import available_variants
from amunre.loader.resources import variants_dir

DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)
FUZZ = settings(max_examples=10_000 if DEEP else 25)
VERBS = sorted(cli.commands)
REPO = Path(__file__).resolve().parent.parent

#: Anything a terminal would act on: C0 but newline and tab, DEL, C1.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
#: Emoji: what rich makes of `:smile:` when it reads emoji codes.
EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF]")
#: Markup that rich would read, each with a word found nowhere else, and the part of it that
#: shows only when the markup is printed as written (read as markup, it is gone).
MARKUP = {"[bold red]zqa[/]": "]zqa[/]", "[link=http://x]zqb[/link]": "]zqb[/link]", "[/]zqc": "[/]zqc",
          "\\[zqd]": "\\[zqd]", ":smile:zqe": ":smile:zqe", "[reverse]zqf": "]zqf"}
CONTROLS = ["\x1b[2J", "\udcff", "\x1b]0;pwned\x07", "\x9b31m",
            "\x07", "\r", "\x1b", "\x7f", "\x00", "\x85", "\t", "\n"]


def invoke(argv, cwd=None, input: str = "", seconds: int = 60) -> tuple[int, str, str]:
    """Run the console entry point in click's test runner: (exit code, stdout, stderr).
    Color on, so that click leaves escape sequences in (it strips them for a pipe); any
    exception but SystemExit fails the test with its traceback."""
    here = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        with time_limit(seconds), CliRunner().isolation(input=input, color=True) as (out, err, _):
            try:
                main(list(argv))
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except BaseException as exc:  # noqa: BLE001 - shown with the command line
                pytest.fail(f"amunre {argv!r} raised {type(exc).__name__}:\n{''.join(traceback.format_exception(exc))}")
            return code, out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace")
    finally:
        os.chdir(here)


def assert_clean(argv, code: int, out: str, err: str) -> None:
    """The exit-code and output contract of every command line."""
    shown = f"amunre {argv!r} -> {code}\nstdout: {out[-2000:]!r}\nstderr: {err[-2000:]!r}"
    assert code in (0, 1, 2) or code == 4 and "leaves the table" in err, shown
    if code:
        assert err.strip(), shown
    assert "Traceback" not in out + err and "internal error" not in err, shown
    assert not CONTROL.search(out + err), shown
    assert set(EMOJI.findall(out + err)) <= set(EMOJI.findall("".join(argv))), shown  # none made from `:smile:`
    for token, literal in MARKUP.items():
        word = re.search("zq[a-z]", token).group()
        if any(token in arg for arg in argv) and word in out + err:
            # the word is shown: the markup around it is too (possibly inside a repr)
            assert (out + err).count(word) <= (out + err).count(literal) + (out + err).count(repr(literal)[1:-1]), shown
    flags = flags_given(argv)
    if code == 0 and "--json" in flags and "--help" not in flags:
        json.loads(out)  # one document, nothing before or after it


def flags_given(argv) -> set[str]:
    """The flags (`--json`, `--help`, ...) click reads as flags on this command line, parsing
    it as click does: an option that takes a value takes the next argument whatever it looks
    like (`run --seed --json --seed 0` sets the seed to "--json", then to 0: no `--json`),
    `--opt=value` is one argument, and after `--` every argument is positional."""
    command = cli.commands.get(argv[0]) if argv else None
    if command is None:
        return set()
    takes_value = {opt for param in command.params if isinstance(param, click.Option) and not param.is_flag
                   for opt in param.opts + param.secondary_opts}
    flags = set()
    rest = iter(argv[1:])
    for arg in rest:
        if arg == "--":
            break
        if arg in takes_value:
            next(rest, None)  # its value
        elif arg.startswith("--") and "=" not in arg:
            flags.add(arg)
    return flags


# ---------------------------------------------------------------- the files a command line names


def _log_text() -> str:
    folder = Path(tempfile.mkdtemp(prefix="amunre-fuzz-log-"))
    try:
        code, _, err = invoke(["run", "--seed", "3", "--players", "3", "--agents", "random", "--quiet",
                               "--log", str(folder / "game.jsonl")])
        assert code == 0, err
        return (folder / "game.jsonl").read_text(encoding="utf-8")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


LOG_TEXT = _log_text()
POSITION_TEXT = (REPO / "tests" / "positions" / "e06_final_scoring.toml").read_text(encoding="utf-8")
HOUSE = 'extends = "classic2003"\n\n[edition]\nid = "fuzzed"\nname = "[bold red]zqa[/] house"\n\n' \
        '[terms]\ngold = ":smile:zqe"\n'


def fixtures(folder: Path) -> dict[str, str]:
    """Fresh files for one command line (a command may overwrite them: `run --log house.toml`)."""
    (folder / "house.toml").write_text(HOUSE, encoding="utf-8")
    (folder / "game.jsonl").write_text(LOG_TEXT, encoding="utf-8")
    (folder / "position.toml").write_text(POSITION_TEXT, encoding="utf-8")
    (folder / "empty.toml").write_text("", encoding="utf-8")
    (folder / "sub").mkdir(exist_ok=True)
    return {"house": str(folder / "house.toml"), "log": str(folder / "game.jsonl"),
            "position": str(folder / "position.toml")}


# ---------------------------------------------------------------- values and command lines

#: Values any argument may get: the hostile ones.
HOSTILE = st.one_of(
    st.sampled_from(["", " ", "-", "--", "-1", "0", "1.5", "1e9", "nan", "99999999999999999999999999",
                     "-9223372036854775809", "9223372036854775807", "18446744073709551616", ",", ",,", "x,",
                     "a" * 300, "a" * 300 + ".toml", "a/" * 200 + "b.toml", "/", ".", "..", "sub", "sub/",
                     "/nonexistent/x.toml", "/dev/null", "/etc/passwd", "empty.toml", "x\x00y.toml", "\udcff.toml",
                     "classic2003.toml", "=", "a=b", "x=1"]),
    st.sampled_from(list(MARKUP)), st.sampled_from(CONTROLS).map(lambda c: f"a{c}b"),
    st.text(max_size=30),
    st.text(alphabet="[]/:\\-=,.ab1 ", max_size=20),
)


#: Sensible values per parameter name ("VARIANTS", "POSITION", "LOG": the fixture files).
VALUES = {
    "variant_name": ["VARIANTS"], "variant_ref": ["VARIANTS"], "variant_positional": ["VARIANTS"],
    "variant_option": ["VARIANTS"], "variant_positionals": ["VARIANTS"], "variant_options": ["VARIANTS"],
    "a_ref": ["VARIANTS"], "b_ref": ["VARIANTS"],
    "files": ["VARIANTS"], "position": ["POSITION"], "log_file": ["LOG"], "refs": ["VARIANTS"],
    "lineup": ["random", "greedy", "random,greedy,random,random", "human", "", "random,"],
    "seconds": ["0.05", "0", "-1", "x", "nan"],
    "workers": ["1", "2", "0", "x"], "scheduler": ["nonsense", "tcp://", "http://x:1", "tcp://host"],
    "sweep": ["components.starting_gold=10,20", "components.starting_gold=1", "nosuch.key=1,2", "=,",
              "components.starting_gold=[1,2],3", "rulings.bribery_scope=whole_phase,one_card"],
    "csv_path": ["out.csv", "/nonexistent/dir/x.csv", "sub", "house.toml"],
    "plot_path": ["out.png", "out.svg", "/nonexistent/x.png", "sub"],
    "records_path": ["records.csv", "/nonexistent/dir/r.csv", "sub", "out.csv", "house.toml"],
    "players": ["3", "4", "5", "3,4", "2", "6"], "seed": ["0", "1", "42", "-1"],
    "agent_kinds": ["random", "greedy", "random,greedy", "human", "", "random,,greedy"],
    "agents": ["random", "greedy", "random,greedy,random", "human,greedy,greedy,greedy", "", "human"],
    "overrides": ["components.starting_gold=25", "rulings.bribery_scope=whole_phase", "edition.name='[bold]zqa'",
                  "params.auction.protection_skip=3", "components.starting_gold=-5", "nosuch.key=1",
                  "edition.name=\"\x1b[31m\""],
    "answers": ["play_bonus=met", "play_bonus=none", "sell_cards=all", "pyramids=most", "x=y", "=", ""],
    "log_path": ["out.jsonl", "sub", "/nonexistent/dir/x.jsonl", "a" * 300, "house.toml"],
    "file": ["LOG", "POSITION", "house.toml", "sub"], "step": ["0", "3", "99999", "-1", "x"],
    "output": ["out.svg", "sub", "/nonexistent/dir/x.svg", "house.toml", "a" * 300],
    "html_path": ["game.html", "sub", "/nonexistent/dir/x.html", "game.jsonl", "a" * 300],
    # (serve: the server is not started, see `no_server`; everything before it is)
    "folders": ["sub", "house.toml", "/nonexistent/dir", "."], "host": ["127.0.0.1", "localhost", "::1", "x", ""],
    "port": ["0", "70000", "-1", "x"], "data": ["tables", "sub/tables", "house.toml", "/proc/amunre"],
    "max_tables": ["1", "100", "0", "x"], "max_bot_playouts": ["0", "1000", "-1", "x"],
    "max_stored": ["1", "1000", "0", "x"],
    "allowed": ["192.168.1.5", "games.example.org:8443", "[::1]", "a b", "host:0", "http://x", ""],
    "target_differences": ["winning_score=2", "close=5pt", "margin=0", "nosuch=1", "=", "winning_score=x"],
}


def known_values(name: str, files: dict[str, str]):
    """Values that make sense for a parameter, by its name (so that commands get far)."""
    fill = {"VARIANTS": sorted(available_variants()) + [files["house"]], "POSITION": [files["position"]],
            "LOG": [files["log"]]}
    return st.sampled_from([v for value in VALUES.get(name, ["1"]) for v in fill.get(value, [value])])


#: Game counts: small only (a huge count is legal and just long: `bench --games 10**26` runs
#: until stopped), plus the invalid ones.
GAMES = st.sampled_from(["1", "2", "0", "-1", "", "x", "1.5", "-99999999999999999999999999"])


@st.composite
def command_lines(draw, files: dict[str, str]) -> list[str]:
    """A verb and a shuffled list of its options and arguments, each value sensible or hostile,
    some left out or left without their value, some options unknown."""
    verb = draw(st.sampled_from(VERBS))
    command = cli.commands[verb]
    pieces: list[list[str]] = []

    def value(name: str) -> str:
        if name == "games":
            return draw(GAMES)
        return draw(st.one_of(known_values(name, files), HOSTILE) if draw(st.booleans()) else known_values(name, files))

    for param in command.params:
        if isinstance(param, click.Argument):
            count = 1 if param.nargs == 1 else draw(st.integers(1, 3))
            if draw(st.integers(0, 9)) == 0:
                count = 0  # a missing argument
            pieces += [[value(param.name)] for _ in range(count)]
            continue
        if param.name != "games" and not draw(st.booleans()):
            continue
        option = draw(st.sampled_from(param.opts))
        if param.is_flag:
            pieces.append([option])
        else:
            for _ in range(draw(st.integers(1, 2)) if param.multiple else 1):
                pieces.append([option, value(param.name)])
    for _ in range(draw(st.integers(0, 2))):
        pieces.append(draw(st.sampled_from([
            ["--help"], ["--version"], ["--nosuch"], ["--json"], ["--games"], ["--seed"], ["-x"],
            ["extra"], [draw(HOSTILE)], ["--" + draw(st.text(alphabet="abcdefghij-\x1b[", max_size=8))],
        ])))
    order = draw(st.permutations(range(len(pieces))))
    return [verb] + [arg for i in order for arg in pieces[i]]


@pytest.fixture(scope="module")
def folder():
    path = Path(tempfile.mkdtemp(prefix="amunre-fuzz-cli-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module", autouse=True)
def no_server(folder):
    """`amunre serve` parses, checks its folders, makes its data folder and binds its socket,
    then returns instead of serving forever; its default data folder is under the fuzzer's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("amunre.cli.serve.run_server",
                      lambda uvicorn, app, sock: (sock.close(), app.state.server.store.close()))
        patch.setenv("XDG_DATA_HOME", str(folder / "xdg"))
        yield


def _fresh(folder: Path) -> dict[str, str]:
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
    return fixtures(folder)


# ---------------------------------------------------------------- the tests


@FUZZ
@given(data=st.data())
def test_any_command_line_exits_cleanly(folder, data):
    files = _fresh(folder)
    argv = data.draw(command_lines(files), label="argv")
    code, out, err = invoke(argv, cwd=folder)
    assert_clean(argv, code, out, err)


@pytest.mark.parametrize("argv, flags", [
    (["run", "--json", "--seed", "0"], {"--json"}),
    (["run", "--seed", "--json", "--seed", "0"], set()),  # --json is the first seed
    (["run", "--log", "--json", "--json"], {"--json"}),  # the log is a file named --json
    (["run", "--seed", "--help", "--json"], {"--json"}),
    (["run", "--seed=--json", "--quiet"], {"--quiet"}),
    (["validate", "--json", "--", "--help", "--json"], {"--json"}),  # after --: file names
    (["run", "--set", "--pause", "--step"], {"--step"}),
    (["score", "position.toml", "--answer", "--no-final", "--final"], {"--final"}),
])
def test_the_oracle_reads_flags_as_click_does(argv, flags):
    """`assert_clean` expects one JSON document only where click really parses `--json` as
    the flag; click's own parser agrees with `flags_given` on each of these."""
    assert flags_given(argv) == flags
    command = cli.commands[argv[0]]
    ctx = command.make_context(argv[0], list(argv[1:]), resilient_parsing=True)
    for param in command.params:
        if isinstance(param, click.Option) and param.is_flag and not param.secondary_opts:
            assert bool(ctx.params[param.name]) == any(opt in flags for opt in param.opts), param.name


def test_the_fuzzer_knows_sensible_values_for_every_parameter_of_every_verb():
    """The command lines take every verb and option from the click group itself; here every
    parameter that takes a value has its own sensible values too (a new option gets them, or
    this fails), so that the fuzzer gets past parsing into the command."""
    untyped = [(verb, param.name) for verb, command in cli.commands.items() for param in command.params
               if not getattr(param, "is_flag", False) and param.name not in VALUES and param.name != "games"]
    assert not untyped, f"no sensible values for {untyped}: add them to VALUES"


@FUZZ
@given(verb=st.sampled_from(VERBS), where=st.integers(0, 3), token=st.one_of(st.sampled_from(list(MARKUP) + CONTROLS),
       st.text(alphabet="\x1b\x9b\x07\r[]:/\\smile", min_size=1, max_size=12)))
def test_markup_and_control_characters_in_any_argument_are_shown_literally(folder, verb, where, token):
    """Command-line arguments are user input too: echoed in a message, they show as written,
    control characters escaped and markup not read."""
    files = _fresh(folder)
    bad = f"x{token}y"
    command = cli.commands[verb]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    options = [p for p in command.params if isinstance(p, click.Option) and not p.is_flag]
    fill = {"position": files["position"], "log_file": files["log"]}
    if where == 0 and arguments:  # the first argument is the odd one
        argv = [verb, bad] + [fill.get(p.name, "classic2003") for p in arguments[1:]]
    elif where == 1 and options:  # an option's value
        argv = [verb, options[0].opts[0], bad] + [fill.get(p.name, "classic2003") for p in arguments]
    elif where == 2:  # an unknown option
        argv = [verb, f"--{bad}"] + [fill.get(p.name, "classic2003") for p in arguments]
    else:  # an extra argument, or a verb that is not one
        argv = [verb, "classic2003", "classic2003", "classic2003", bad] if where == 3 else [bad]
    if verb in ("check", "bench"):
        argv += ["--games", "1", "--agents", "random"]
    code, out, err = invoke(argv, cwd=folder)
    assert_clean(argv, code, out, err)


@settings(max_examples=500 if DEEP else 4)
@given(name=st.lists(st.sampled_from(["\x1b[2J", "\x1b]0;t\x07", "\x9b", "\r", "\udcff", "[bold]", ":smile:", "\\[",
                                      "[b]", "a", " "]), min_size=1, max_size=6).map("".join))
def test_a_file_name_with_control_characters_or_markup_is_shown_literally(folder, name):
    """A file's name is user input too: every command that shows a path shows it escaped."""
    _fresh(folder)
    house = folder / f"v{name}.toml"
    house.write_text(HOUSE, encoding="utf-8")
    log = str(folder / f"g{name}.jsonl")
    # a board file so named, which a variant names (as TOML text: "\\u001b", a lone surrogate as its byte)
    shutil.copy(variants_dir() / "board.toml", folder / f"b{name}.toml")
    own_board = folder / "own-board.toml"
    own_board.write_text(HOUSE.replace('id = "fuzzed"', f'id = "fuzzed"\nboard = {_toml_string("b" + name + ".toml")}'),
                         encoding="utf-8", errors="surrogateescape")
    for argv in (["board", "--variant", str(own_board)], ["board", "--variant", str(own_board), "--provisional"],
                 ["show", str(own_board)], ["run", "--variant", str(own_board), "--seed", "2", "--players", "3"],
                 ["diff", str(own_board), "classic2003"],
                 ["run", "--variant", str(house), "--seed", "1", "--players", "3", "--agents", "random", "--log", log],
                 ["run", "--variant", str(house), "--quiet", "--log", log, "--set", "components.starting_gold=25"],
                 ["replay", log], ["show", str(house)], ["diff", "classic2003", str(house)],
                 ["diff", "--json", str(house), str(house)], ["board", "--variant", str(house)],
                 ["board", "--variant", str(house), "--provisional"], ["validate", str(house)],
                 ["validate", "--json", str(house)],
                 ["check", str(house), "--games", "1", "--players", "3", "--agents", "random"],
                 ["score", "position.toml", "--variant", str(house)], ["score", f"p{name}.toml"],
                 # (--workers 1, in this process: bench's workers are handed the variant's data, never its
                 # file's name, and starting two of them for each example was a third of this test's CPU)
                 ["bench", "--variant", str(house), "--games", "1", "--players", "3", "--agents", "random",
                  "--workers", "1"]):
        code, out, err = invoke(argv, cwd=folder)
        assert_clean(argv, code, out, err)


def _toml_string(text: str) -> str:
    """`text` as a TOML basic string (a lone surrogate, which TOML cannot hold, left raw)."""
    return '"' + "".join(c if " " <= c <= "~" and c not in '"\\' or "\ud800" <= c <= "\udfff"
                         else f"\\u{ord(c):04x}" for c in text) + '"'


@pytest.mark.parametrize("argv", [["validate", "\udcff.toml"], ["run", "--variant", "\udcff"], ["show", "x\udcff.toml"],
                                  ["run", "--players", "\udcff"], ["run", "--bogus\udcff"], ["\udcff"],
                                  ["score", "position.toml", "--answer", "\udcff=x"],
                                  ["diff", "--json", "a\udcff", "b"]])
def test_an_undecodable_byte_in_an_argument_is_shown_escaped(folder, argv):
    """A byte that is not UTF-8 (a file name from another system) reaches Python as a lone
    surrogate, which a UTF-8 terminal cannot be written: it is shown as its escape."""
    _fresh(folder)
    code, out, err = invoke(argv, cwd=folder)
    assert_clean(argv, code, out, err)
    assert "\\udcff" in out + err


# markup in file strings: every string but these is allowed to be any printable text
_SAFE = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_categories=("Cc", "Cs")),
                min_size=1, max_size=16)
MARKUP_TEXT = st.one_of(
    st.builds(lambda a, b, c: f"{a}[{b}]{c}[/]", _SAFE, st.sampled_from(["bold red", "blink", "reverse", "link=x"]),
              _SAFE),
    st.builds(lambda a, b: f"{a}:{b}:", _SAFE, st.sampled_from(["smile", "skull", "warning"])),
    st.builds(lambda a: f"\\[{a}]", _SAFE),
    st.builds(lambda a, b, c: a + b + c, _SAFE, st.sampled_from(["[", "]", ":", "\\", "[/"]), _SAFE),
)


def _variant_with(folder: Path, name: str, term: str, province: str | None = None) -> Path:
    """A variant file extending classic2003 with this name and word for gold and farmers, and
    a board whose provinces are named by this text and a number (None: the shipped board)."""
    doc = {"extends": "classic2003", "edition": {"id": "fuzzed", "name": name},
           "terms": {"gold": term, "farmers": term}}
    if province is not None:
        board = tomllib.loads((variants_dir() / "board.toml").read_text(encoding="utf-8"))
        for i, entry in enumerate(board["provinces"]):  # every province: whichever the game names
            entry["name"] = f"{province} {i}"
        (folder / "fuzz-board.toml").write_text(tomli_w.dumps(board), encoding="utf-8")
        doc["edition"]["board"] = "fuzz-board.toml"
    path = folder / ("fuzzed.toml" if province is not None else "fuzzed-words.toml")
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    return path


def _words(text: str) -> str:
    """`text` as a table cell may show it: spaces runs collapsed (rich pads and wraps cells)."""
    return " ".join(text.split())


@settings(max_examples=1_000 if DEEP else 6)
@given(name=MARKUP_TEXT, term=MARKUP_TEXT, province=MARKUP_TEXT)
def test_markup_in_a_variant_file_is_printed_literally_by_every_command(folder, name, term, province):
    """A variant's name, terms and board names with rich markup or emoji codes reach the
    terminal as written: the play-by-play, the final table, show, diff, board, score.
    (Control characters never get this far: the loader refuses them, test_control_characters.)"""
    _fresh(folder)
    path = str(_variant_with(folder, name, term, province))
    words = str(_variant_with(folder, name, term))  # the shipped board: the position's provinces
    code, out, err = invoke(["validate", path, words], cwd=folder)
    assume(code == 0)  # text the loader refuses (blank, too long, ...) is another test's business
    runs = [
        (["run", "--variant", path, "--seed", "1", "--players", "3", "--agents", "random"], [name, term, province]),
        (["show", path], []),
        (["diff", "classic2003", path], [name, term]),
        (["board", "--variant", path], [province]),
        (["score", "position.toml", "--variant", words], [name]),
        (["validate", "--json", path], []),
        (["diff", "--json", "classic2003", path], []),
    ]
    for argv, shown in runs:
        code, out, err = invoke(argv, cwd=folder)
        assert_clean(argv, code, out, err)
        assert code == 0, (argv, err)
        for text in shown:
            assert _words(text) in _words(out), (argv, text, out[-3000:])
        assert not EMOJI.search(out)
    code, out, _ = invoke(["show", path], cwd=folder)
    shown = tomllib.loads(out)
    assert (shown["edition"]["name"], shown["terms"]["gold"]) == (name, term)


@pytest.mark.parametrize("verb", ["variants", "diff"])
def test_a_terminal_gets_file_strings_literally_in_rich_tables_too(folder, monkeypatch, verb):
    """On a terminal `variants` and `diff` print rich tables: the markup still shows as written,
    and the only escape sequences are rich's own colours."""
    _fresh(folder)
    path = str(_variant_with(folder, "[bold red]zqa[/] :smile:", "[blink]zqg[/]", "[reverse]zqf"))
    import amunre.cli.variants_cmd as variants_cmd

    if verb == "variants":  # a shipped variant list holding the odd file
        monkeypatch.setattr(variants_cmd, "variant_locations", lambda: [("fuzzed", Path(path), "shipped")])
    argv = ["variants"] if verb == "variants" else ["diff", "classic2003", path]
    with CliRunner().isolation(color=True, env={"COLUMNS": "300"}) as (out, err, _):
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
        try:
            main(argv)
        except SystemExit as exc:
            assert exc.code == 0
        text = out.getvalue().decode()
    plain = re.sub("\x1b\\[[0-9;]*m", "", text)  # rich's colours
    assert "[bold red]zqa[/] :smile:" in plain
    assert verb == "variants" or "[blink]zqg[/]" in plain
    assert not CONTROL.search(plain) and not EMOJI.search(plain)


# ---------------------------------------------------------------- the cases the classes came from


@pytest.mark.parametrize("argv, expected", [
    (["check", "classic2003", "--agents", ""], "--agents is empty"),
    (["check", "classic2003", "--agents", " , "], "--agents is empty"),
    (["check", "classic2003", "--agents", "random,,greedy"], "--agents has an empty name"),
    (["check", "classic2003", "--agents", "human"], "cannot play unattended"),
    (["check", "classic2003", "--players", ""], "--players must be player counts"),
    (["check", "classic2003", "--players", "3,,4"], "--players must be player counts"),
    (["check", "classic2003", "--players", "2"], "--players must be among 3, 4, 5"),
    (["check", "classic2003", "--seed", "9223372036854775807", "--games", "2"], "goes past the last seed"),
    (["bench", "--agents", ""], "--agents is empty"),
    (["bench", "--agents", "human"], "cannot play unattended"),
])
def test_a_check_that_would_check_nothing_is_bad_input(argv, expected):
    code, out, err = invoke(argv)
    assert code == 2 and expected in err and "all invariants held" not in out, (code, out, err)


LONG = "a" * 300


@pytest.mark.parametrize("argv, named", [
    (["run", "--variant", LONG], ("variant", LONG[:30])),
    (["run", "--variant", LONG + ".toml"], ("variant", LONG[:30])),
    (["run", "--quiet", "--log", LONG], ("log", LONG[:30])),
    (["run", "--quiet", "--log", "x\x00.jsonl"], ("--log",)),
    (["show", LONG + ".toml"], ("VARIANT", "variant", LONG[:30])),
    (["check", "a/" * 200 + "x.toml", "--games", "1"], ("FILE_OR_ID", "variant", "a/a/a/a/")),
    (["diff", "classic2003", LONG + ".toml"], ("variant", LONG[:30])),
    (["board", "--variant", LONG + ".toml"], ("variant", LONG[:30])),
    (["bench", "--variant", LONG + ".toml", "--games", "1"], ("variant", LONG[:30])),
    (["score", LONG + ".toml"], ("POSITION", "position", LONG[:30])),
    (["score", "position.toml", "--variant", LONG + ".toml"], ("variant", LONG[:30])),
    (["replay", LONG + ".jsonl"], ("LOG_FILE", "log", LONG[:30])),
    (["replay", "x\x00.jsonl"], ("NUL",)),
    (["score", "x\x00.toml"], ("NUL",)),
    (["validate", "x\x00.toml"], ("NUL",)),
])
def test_a_path_the_file_system_refuses_is_a_clear_error_naming_it(folder, argv, named):
    """Named by the option or argument, or by the start of the path itself."""
    fixtures(folder)  # (the files the other arguments name: this case alone, in any order, finds them)
    code, out, err = invoke(argv, cwd=folder)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, (code, out, err)
    assert any(name in err for name in named), (named, err)
    assert "Traceback" not in err and "OSError" not in err


def test_validate_reports_a_long_path_as_a_problem_of_that_file():
    code, out, err = invoke(["validate", LONG + ".toml", "classic2003"])
    assert code == 1 and f"{LONG}.toml: 1 problem" in out and "classic2003: ok" in out, (out, err)


def test_json_with_a_human_seat_keeps_stdout_one_json_document():
    """The human's questions go to stderr: stdout is exactly the result (a real process, so
    that click's own prompt is the one used)."""
    proc = subprocess.run([sys.executable, "-m", "amunre", "run", "--json", "--seed", "1",
                           "--agents", "human,greedy,greedy,greedy"],
                          input="0\n" * 3000, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    assert result["players"][0]["agent"] == "human"
    assert "your decision" in proc.stderr and "choice" in proc.stderr


def test_a_human_seat_with_stdin_closed_leaves_the_table():
    """`<&-`: no stdin at all. The seat leaves the table (exit 4), never a traceback."""
    proc = subprocess.run([sys.executable, "-m", "amunre", "run", "--seed", "1",
                           "--agents", "human,greedy,greedy,greedy"],
                          stdin=None, capture_output=True, text=True, timeout=120, cwd=REPO,
                          preexec_fn=lambda: os.close(0))
    assert proc.returncode == 4 and proc.stderr.rstrip().endswith("the game stops here."), proc.stderr[-500:]
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr


@pytest.mark.parametrize("argv", [["run", "--seed", "1"], ["check", "classic2003", "--games", "1"],
                                  ["validate", "classic2003"], ["show", "classic2003"],
                                  ["diff", "classic2003", "expert2016", "--json"]])
def test_a_bug_is_an_internal_error_never_bad_input(monkeypatch, argv):
    """An unexpected exception (here a loader that fails unexpectedly) is reported as a bug,
    exit 3 with its traceback; never as a problem with the input, never on stdout."""
    import amunre.loader

    def broken(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    for module in [amunre.loader] + [m for name, m in sys.modules.items() if name.startswith("amunre.cli")]:
        if hasattr(module, "load_variant"):
            monkeypatch.setattr(module, "load_variant", broken)
    code, out, err = invoke(argv)
    assert code == 3, (code, out, err)
    assert err.startswith("internal error: this is a bug in amunre") and "RecursionError" in err
    assert "Traceback" in err and "problem" not in out and "cannot load" not in err + out
