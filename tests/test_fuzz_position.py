"""Whatever a position file holds, reading it gives a position that scores to the end, or one
`PositionError` with a message: never another exception, never a hang, never a file read
that the position names, never a control character on the terminal.

The hypothesis tests mutate the shipped positions in tests/positions/, each in both
spellings (TOML and JSON): keys dropped, renamed, added or retyped to every TOML and JSON
type (huge, negative, float, NaN, control characters, rich markup, long strings, paths),
and the text itself (a line twice, a JSON key twice, random bytes, nesting thousands deep,
numbers of thousands of digits, NaN, lone surrogates, a cut). The `ci` profile runs 25
examples of each; the deep run (`AMUNRE_DEEP=1`) runs 10,000.
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
import tomllib
from functools import cache
from pathlib import Path

import conftest
import pytest
import tomli_w
from click.testing import CliRunner
from helpers import mutate, run_cli, time_limit, write
from hypothesis import given, settings
from hypothesis import strategies as st

from amunre.cli import cli
from amunre.core.engine import Game
from amunre.core.errors import PositionError
from amunre.loader import load_variant
from amunre.loader.resources import variants_dir
from amunre.planning.position import (
    Position,
    position_from_data,
    position_variant,
    read_position,
    read_position_raw,
    score_position,
)

POSITIONS = Path(__file__).parent / "positions"
SHIPPED = sorted(p for p in POSITIONS.iterdir() if p.suffix in (".toml", ".json"))


def _parse(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)


#: Each shipped position in both spellings: (name, text).
BASES = {}
for _path in SHIPPED:
    _data = _parse(_path)
    BASES[_path.stem + ".toml"] = tomli_w.dumps(_data) if _path.suffix == ".json" else _path.read_text("utf-8")
    BASES[_path.stem + ".json"] = json.dumps(_data, indent=2) if _path.suffix == ".toml" else _path.read_text("utf-8")

#: Values a key may be retyped to: every TOML and JSON type, the huge, the odd, the hostile,
#: and values that fit (so that mutated positions are accepted too and get scored).
ODD_VALUES = [
    0, 1, 2, 3, 4, 5, -1, -2**63, 2**63, 10**30, 100_000, 100_001, 1000, 1001, 2**63 - 1,
    1.0, 1.5, -0.0, float("inf"), float("nan"), True, False, None,
    datetime.datetime(1979, 5, 27, 7, 32), datetime.date(2003, 1, 1), datetime.time(7, 32),
    "", "x" * 500, "z" * 100_000, "blue", "red", "New Kingdom", "Old Kingdom", "Edfu", "architect", "upper_lower",
    "classic2003", "supermeeple2016", "expert2016", "long-kingdoms", "nosuch", "/etc/passwd", "../../x.toml",
    "/proc/self/environ", "classic2003.toml", "~/.ssh/id_rsa", "nul\x00.toml", "y" * 300 + ".toml",
    "\x1b[2J\x1b[31mred", "\x9b31mcsi", "[bold red]loud[/]", "[link=file:///etc/passwd]x[/link]", "bell\x07",
    "line\nbreak", "tab\tname", "\u202eevil", "\x7f", "\ud800",
    [], {}, [1, "a"], [[1]], [{}], {"a": {"b": 1}}, {"farmers": 1}, {"Edfu": {}}, {"architect": 1},
    {"stones": 1.0}, [{"name": "x"}] * 12,
]

#: Keys a mutation may add or rename to: the position's own, and strangers.
KEYS = ["variant", "seed", "kingdom", "offering_level", "start_player", "supplies", "players", "unowned",
        "name", "gold", "theft", "score", "hand", "provinces", "farmers", "free_farmers", "stones", "pyramids",
        "doubles", "Edfu", "Memphis", "Atlantis", "architect", "master_of_dice", "x", "", "\x1b[2J", "[bold]b[/]"]

#: Examples per test: a few in CI, 10,000 in the deep profile.
FUZZ = settings(max_examples=10_000 if conftest.DEEP else 25)  # conftest.DEEP: AMUNRE_DEEP=1

#: More decisions than scoring any position takes (a card played or sold per card in hand).
MAX_DECISIONS = 1000


@cache
def variant_of(vid: str):
    return load_variant(vid)


def assert_clean(error: PositionError) -> None:
    """A message for a person: problems, each a line, nothing that acts on a terminal."""
    text = str(error)
    assert text and error.problems and all(isinstance(p, str) and p for p in error.problems), text
    assert not any(ord(c) < 32 and c != "\n" or 127 <= ord(c) < 160 for c in text), repr(text[:300])
    text.encode("utf-8")  # no lone surrogate: printable on a UTF-8 terminal
    assert all(len(p) <= 700 for p in error.problems), max(map(len, error.problems))


def scores_to_the_end(variant, position: Position) -> int:
    """Score the position (kingdom and final scoring) by the API, and once more with random
    answers through the engine; the decisions the random run took."""
    score_position(variant, position.state, names=position.names)
    sheet = score_position(variant, position.state, final=True, names=position.names)
    assert len(sheet.totals) == len(position.names)
    game = Game.from_state(variant, position.state.clone())
    game.run_rules(list(game.variant.modules.scoring_in(game.state.kingdom)) + list(game.final_scoring))
    decisions = 0
    while (request := game.pending) is not None:
        decisions += 1
        assert decisions <= MAX_DECISIONS, f"scoring asks more than {MAX_DECISIONS} decisions"
        game.answer(request.options[decisions % len(request.options)])
    return decisions


def read_and_score(raw: bytes, name: str):
    """Read `raw` as a position file (as `amunre score` does without --variant) and score it:
    the Position, or the PositionError."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(raw)
        with time_limit(20):
            try:
                data, lines = read_position_raw(path)
                variant = variant_of(position_variant(data, str(path), lines))
                position = position_from_data(data, variant, str(path), lines)
            except PositionError as exc:
                assert_clean(exc)
                return exc
            scores_to_the_end(variant, position)
            return position


def spell(data, spelling: str) -> tuple[bytes, str] | None:
    """Position data written as TOML or JSON (the other one when this one cannot write it)."""
    for kind in (spelling, "json" if spelling == "toml" else "toml"):
        try:
            if kind == "toml":
                return tomli_w.dumps(data).encode("utf-8", "surrogatepass"), "fuzz.toml"
            return json.dumps(data, indent=1).encode("utf-8"), "fuzz.json"  # NaN written as NaN
        except (TypeError, ValueError, RecursionError):
            continue
    return None


@st.composite
def mutated_data(draw):
    """A shipped position, parsed, with one to four keys dropped, renamed, added or retyped."""
    name = draw(st.sampled_from(sorted(BASES)))
    text = BASES[name]
    data = tomllib.loads(text) if name.endswith(".toml") else json.loads(text)
    mutate(draw, data, draw(st.integers(1, 4)), ODD_VALUES, lambda key: KEYS,
           kinds=("drop", "rename", "retype", "retype", "add", "duplicate"))
    return data, draw(st.sampled_from(["toml", "json"]))


@FUZZ
@given(mutated_data())
def test_mutated_data_scores_or_raises_position_error(case):
    data, spelling = case
    written = spell(data, spelling)
    if written is None:
        return  # neither spelling can write it (a NUL in a TOML key and a date in JSON): no file
    result = read_and_score(*written)
    assert isinstance(result, (Position, PositionError))


def _snippets(json_text: bool) -> list[str]:
    deep = ["[" * 3000 + "]" * 3000, "[" * 70 + "]" * 70, "{\"a\": " * 2000 + "1" + "}" * 2000]
    if json_text:
        return ['"players": [], ', '"gold": 1, "gold": 2, ', "NaN", "-Infinity", "1e400", "9" * 5000, "-1",
                '"\\ud800"', '"\\u001b[2J"', '"[bold red]x[/]"', "1.0", *deep, '"deep": ' + deep[0] + ", "]
    return ["players = []\n", "gold = 1\ngold = 2\n", "nan", "-inf", "9" * 5000, "-9223372036854775809",
            '"\\u001b[2J"', "'[bold red]x[/]'", "1.0", "x = " + deep[0] + "\n",
            "x = " + deep[2].replace('"a": ', "a = ") + "\n",
            "[" + "a." * 3000 + "a]\n", "[[players]]\n", "[players.provinces.Edfu]\nfarmers = 99\n",
            "variant = '/etc/passwd'\n"]


@st.composite
def mutated_text(draw):
    """A shipped position's text (TOML or JSON) with a line twice, bytes, a snippet
    (deep nesting, a huge number, NaN, a key twice, an escape) put in somewhere, or cut."""
    name = draw(st.sampled_from(sorted(BASES)))
    text = BASES[name]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["duplicate", "bytes", "snippet", "snippet", "cut"]))
        if kind == "duplicate":
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end == -1 else end + 1
            text = text[:end] + text[start:end] + text[end:]
        elif kind == "bytes":
            text = text[:at] + draw(st.binary(min_size=1, max_size=20)).decode("utf-8", "surrogateescape") + text[at:]
        elif kind == "snippet":
            text = text[:at] + draw(st.sampled_from(_snippets(name.endswith(".json")))) + text[at:]
        else:
            text = text[:at]
    return text.encode("utf-8", "surrogateescape"), name


@FUZZ
@given(mutated_text())
def test_mutated_text_scores_or_raises_position_error(case):
    raw, name = case
    result = read_and_score(raw, "fuzz" + Path(name).suffix)
    assert isinstance(result, (Position, PositionError))


@FUZZ
@given(st.one_of(mutated_text(), mutated_data().map(lambda case: spell(*case))))
def test_amunre_score_exits_cleanly_on_any_position(case):
    """The command line: exit 0 with a table, or exit 2 with `error: ...`; no traceback."""
    if case is None:
        return
    raw, name = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("fuzz" + Path(name).suffix)
        path.write_bytes(raw)
        with time_limit(30):
            result = CliRunner().invoke(cli, ["score", str(path), "--final"])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ") and "Traceback" not in result.output
    else:
        assert "total" in result.stdout


# -- the classes, one example each, with the message they must give ---------------------------


def test_shipped_positions_are_valid_and_score():
    assert len(SHIPPED) >= 2 and {p.suffix for p in SHIPPED} == {".toml", ".json"}
    for path in SHIPPED:
        data, lines = read_position_raw(path)
        variant = variant_of(position_variant(data, str(path), lines))
        scores_to_the_end(variant, read_position(path, variant))


def problems_of(tmp_path, name: str, text: str | bytes) -> list[str]:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    with time_limit(20), pytest.raises(PositionError) as caught:
        data, lines = read_position_raw(path)
        position_from_data(data, variant_of(position_variant(data, str(path), lines)), str(path), lines)
    assert_clean(caught.value)
    return [p.removeprefix(str(path)) for p in caught.value.problems]


THREE = "[[players]]\n[[players]]\n[[players]]\n"


@pytest.mark.parametrize("name, text, expected", [
    # wrong types, each at its line and key
    ("p.toml", THREE + "[players.hand]\narchitect = 1.5\n",
     ":5: players[2].hand.architect: wrong type: got 1.5, a float (expected an integer >= 0)"),
    ("p.toml", THREE + "[players.hand]\narchitect = 1.0\n",
     ":5: players[2].hand.architect: wrong type: got 1.0, a float (expected an integer)"),
    ("p.json", '{"players": [{}, {},\n {"gold": 2.0}]}',
     ":2: players[2].gold: wrong type: got 2.0, a float (expected an integer)"),
    ("p.json", '{"players": [{}, {}, {}],\n "kingdom": [1]}',
     ":2: kingdom: wrong type: got an array (expected a kingdom's name or its number from 1)"),
    ("p.toml", 'start_player = true\n' + THREE,
     ":1: start_player: wrong type: got true, a boolean (expected a player's name or a 0-based index)"),
    # numbers out of the schema's bounds
    ("p.toml", THREE + "gold = -3\n", ":4: players[2].gold: -3 is too small (expected at least 0)"),
    ("p.toml", THREE + "gold = 100001\n", ":4: players[2].gold: 100001 is too large (expected at most 100000)"),
    ("p.toml", "seed = 9223372036854775808\n" + THREE,
     ":1: seed: 9223372036854775808 is too large (expected at most 9223372036854775807)"),
    ("p.json", '{"supplies": {"stones": 5000}, "players": [{}, {}, {}]}',
     ":1: supplies.stones: 5000 is too large (expected at most 1000)"),
    ("p.toml", THREE + "gold = " + "9" * 4000 + "\n", ":4: players[2].gold: 9999"),
    # what the parser lets through or chokes on
    ("p.toml", "x = " + "[" * 5000 + "]" * 5000 + "\n", ":1: (top level): nesting too deep at line 1"),
    ("p.json", '{\n"x": ' + "[" * 100_000 + "]" * 100_000 + "}", ":2: (top level): nesting too deep at line 2"),
    ("p.json", '{"x":\n' + "[" * 100 + "]" * 100 + "}", ":2: (top level): nesting too deep at line 2"),
    ("p.json", '{"players": [{}, {}, {"gold":\n' + "9" * 5000 + "}]}",
     ":2: (top level): a number too long to read at line 2"),
    ("p.toml", THREE + "gold = " + "9" * 5000 + "\n", ":4: (top level): a number too long to read at line 4"),
    ("p.json", '{"players": [{}, {},\n {"gold": NaN}]}',
     ":2: players[2].gold: NaN is not a JSON number (expected an integer: JSON has no NaN or Infinity)"),
    ("p.json", '{"players": [{}, {}, {"gold": 1}],\n "seed": Infinity}', ":2: seed: Infinity is not a JSON number"),
    ("p.json", '{"players": [{}],\n "players": [{}, {}, {}]}',
     ":2: players: the key is given twice (first at line 1) (expected each key once in an object"),
    ("p.json", '{"players": [{}, {}, {"hand": {"architect": 1,\n "architect": 2}}]}',
     ":2: players[2].hand.architect: the key is given twice (first at line 1)"),
    ("p.json", b'{"players": [{}, {}, {"name": "\xff"}]}', ":1: (top level): not UTF-8 text (byte 0xff at offset 31)"),
    ("p.toml", b"[[players]]\nname = '\xc3'\n", ":2: (top level): not UTF-8 text (byte 0xc3 at offset 20)"),
    ("p.json", '{"players": [{}, {}, {"name": "a\\ud800"}]}',
     ":1: players[2].name: the text holds the control character U+D800"),
    ("p.json", '{"players": [{}, {}, {}', ":1: (top level): JSON syntax error: "),
    ("p.json", "[]", ":1: (top level): got an array (expected an object"),
    # terminal control
    ("p.toml", THREE + 'name = "\\u001b[2J"\n', ":4: players[2].name: the text holds the control character U+001B"),
    ("p.json", '{"players": [{}, {}, {"name": "\\u009b31m"}]}',
     ":1: players[2].name: the text holds the control character U+009B"),
    ("p.toml", THREE + '[players.provinces."\\u0007x"]\n',
     ':4: players[2].provinces."\\u0007x": the key holds the control character U+0007'),
    ("p.json", '{"players": [{}, {}, {"provinces": {"\\u009b2J": {}}}]}',
     ':1: players[2].provinces."\\x9b2J": the key holds the control character U+009B'),
    ("p.toml", THREE + f'name = "{"n" * 65}"\n',
     ":4: players[2].name: too long (65 characters) (expected a name of at most 64"),
    # files outside the position
    ("p.toml", 'variant = "/etc/passwd"\n' + THREE,
     ":1: variant: '/etc/passwd' is a path, but a position names its variant by a shipped id only (expected one of: "),
    ("p.toml", 'variant = "../../x.toml"\n' + THREE,
     "; a variant file of your own is given on the command line: --variant FILE)"),
    ("p.json", '{"variant": "classic2030", "players": [{}, {}, {}]}',
     ":1: variant: no shipped variant 'classic2030' (did you mean 'classic2003'? expected one of: "),
    ("p.json", '{"variant": "", "players": [{}, {}, {}]}', ":1: variant: empty (expected a non-empty string)"),
])
def test_each_class_is_one_problem_at_its_line_and_key(tmp_path, name, text, expected):
    problems = problems_of(tmp_path, name, text)
    assert any(p.startswith(expected) or expected in p for p in problems), problems


def test_a_huge_value_is_echoed_with_its_middle_left_out(tmp_path):
    (line,) = problems_of(tmp_path, "p.toml", THREE + "gold = " + "9" * 4000 + "\n")
    assert line.startswith(":4: players[2].gold: 99999") and line.endswith("is too large (expected at most 100000)")
    assert "characters left out" in line and len(line) < 700


def test_every_problem_at_once_with_its_line_in_json(tmp_path):
    text = ('{\n "variant": "classic2003",\n "kingdom": 7,\n "players": [\n  {"name": "a", "gold": 1.0},\n'
            '  {"name": "\\u001b]0;x\\u0007", "hand": {"architect": -1}},\n  {"colour": "blue"}\n ]\n}\n')
    problems = problems_of(tmp_path, "p.json", text)
    assert problems == [
        ":3: kingdom: 7 is not a kingdom number (1 to 2)",
        ":5: players[0].gold: wrong type: got 1.0, a float (expected an integer)",
        ":6: players[1].name: the text holds the control character U+001B (expected printable text: no escape "
        "sequences or line breaks)",
        ":6: players[1].hand.architect: -1 is too small (expected at least 0)",
        ":7: players[2].colour: unknown key (expected one of: gold, hand, name, provinces, score, theft)",
    ]


def test_a_position_never_makes_the_program_read_the_file_it_names(tmp_path, monkeypatch):
    """Even a real variant file next to the position is refused when the position names it:
    the user passes it with --variant."""
    own = write(tmp_path / "own.toml", 'extends = "classic2003"\n[edition]\nid = "own"\n')
    position = write(tmp_path / "p.toml", f'variant = "{own}"\n' + THREE)
    opened = []
    real = Path.read_bytes

    def read_bytes(self):
        opened.append(self)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: opened.append(self) or "")
    with pytest.raises(PositionError, match="variant: '.*own.toml' is a path, but a position names its variant"):
        data, lines = read_position_raw(position)
        position_variant(data, str(position), lines)
    assert opened[0] == position and own not in opened
    assert all(variants_dir() in p.parents for p in opened[1:])  # the shipped ids, and nothing else
    monkeypatch.undo()
    result = CliRunner().invoke(cli, ["score", str(position), "--variant", str(own)])
    assert result.exit_code == 0 and "total" in result.stdout, result.output


# -- what the path is: its size and kind, checked before it is read ----------------------

def _path_of_kind(folder: Path, what, suffix: str) -> Path:
    path = folder / f"p{suffix}"
    if isinstance(what, int):
        with open(path, "wb") as file:
            file.truncate(what)  # sparse: nothing written
    elif what == "fifo":
        os.mkfifo(path)
    elif what == "directory":
        path.mkdir()
    elif what == "device":
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("what, expected", [
    ("fifo", "is a named pipe (FIFO), not a regular file"),
    ("device", "is a device, not a regular file"),
    (3 * 2**30, f"is {3 * 2**30} bytes (expected a position file of at most 1000000 bytes)"),
])
def test_a_pipe_a_device_a_folder_or_a_huge_file_as_a_position_is_one_line_never_read(tmp_path, capsys, what,
                                                                                       expected):
    path = _path_of_kind(tmp_path, what, ".toml")
    with time_limit(20):
        code, out, err = run_cli(capsys, "score", str(path))
    assert code == 2 and out == "" and err.startswith("error: POSITION '") and f"p.toml' {expected}" in err, err
    assert err.count("\n") == 1


@FUZZ
@given(what=st.one_of(st.integers(1_000_001, 2**36), st.sampled_from(["fifo", "directory", "device"])),
       suffix=st.sampled_from([".toml", ".json", ".TOML"]))
def test_any_position_path_that_is_no_file_of_a_sane_size_is_refused_without_reading_it(what, suffix):
    with tempfile.TemporaryDirectory() as folder:
        path = _path_of_kind(Path(folder), what, suffix)
        with time_limit(20), pytest.raises(PositionError) as info:
            read_position_raw(path)
    message = str(info.value)
    assert message.count("\n") == 0 and f"{path.name}' is " in message, message
    assert (f"is {what} bytes" if isinstance(what, int) else "is a") in message, message


def test_cli_score_broken_positions_exit_2_with_the_problem(tmp_path, capsys):
    cases = [
        ("deep.json", '{"players": ' + "[" * 50_000 + "]" * 50_000 + "}", "deep.json:1: (top level): nesting too deep"),
        ("float.toml", THREE + "[players.hand]\narchitect = 2.0\n",
         "float.toml:5: players[2].hand.architect: wrong type"),
        ("path.toml", 'variant = "/etc/hostname"\n' + THREE, "path.toml:1: variant: '/etc/hostname' is a path"),
        ("esc.toml", THREE + 'name = "\\u001b[2J\\u009b"\n', "esc.toml:4: players[2].name: the text holds the control"),
        ("dup.json", '{"players": [{}, {}, {}], "players": [{}, {}, {}]}',
         "dup.json:1: players: the key is given twice"),
    ]
    for name, text, expected in cases:
        path = write(tmp_path / name, text)
        code, out, err = run_cli(capsys, "score", str(path))
        assert code == 2 and err.startswith("error: ") and expected in err, err
        assert "Traceback" not in out + err and "\x1b" not in err and "\x9b" not in err
    long = tmp_path / ("p" * 300 + ".toml")
    code, out, err = run_cli(capsys, "score", str(long))
    assert code == 2 and "Traceback" not in err
    assert err.startswith("error: POSITION '") and f"({len(str(long))} characters): the path is too long" in err, err
    assert "the path is too long for the file system (expected a shorter path to a .toml or .json position file)" in err


def test_cli_score_prints_names_literally(tmp_path, capsys):
    """A name that is rich markup shows as written, in the table and the winner line."""
    data = _parse(POSITIONS / "e06_final_scoring.toml")
    data["players"][2]["name"] = "[bold red]blue[/]"
    data["start_player"] = 0
    path = tmp_path / "markup.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_cli(capsys, "score", str(path), "--final")
    assert code == 0, err
    header = next(line for line in out.splitlines() if "item" in line)
    assert "[bold red]blue[/]" in header and "Winner: [bold red]blue[/]" in out and "\x1b" not in out


def test_cli_score_notes_a_variant_other_than_the_positions_own(capsys):
    """--variant may score a position with other rules, but says so: a 2016 position scored
    with the 2003 rules by mistake would otherwise look like a valid result."""
    position = str(POSITIONS / "old_kingdom_2016.json")
    code, out, err = run_cli(capsys, "score", position, "--variant", "classic2003")
    assert code == 0 and "total" in out
    assert err == (f"note: {position} was written for supermeeple2016; "
                   "scoring it with the rules of classic2003 as --variant asks\n")
    code, out, err = run_cli(capsys, "score", position, "--variant", "supermeeple2016")
    assert code == 0 and err == ""
