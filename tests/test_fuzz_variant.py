"""Whatever a variant file holds, loading it returns a `Variant` or raises `VariantError`:
never another exception, never a hang; and a variant that loads plays to its end within a
bounded number of decisions. A variant file is data, never code: nothing in it makes the
loader import a module or read a file other than the TOML files it extends and its board.

The hypothesis tests mutate every shipped variant file (drop, rename, retype or duplicate a
key, duplicate lines, insert bytes and control characters, nest thousands deep, huge and
negative numbers, long strings, cut the file short), set every numeric parameter to the
ends of its declared range, and give a pipeline entry an id another entry has, in any
pipeline, or another entry's rule id (by `--set`, a renamed entry or an added one). The
`ci` profile keeps them to seconds; the deep run (`AMUNRE_DEEP=1`) runs 10,000 examples of each.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import pathlib
import sys
import tempfile
import tomllib
from pathlib import Path

import conftest
import pytest
import tomli_w
from click.testing import CliRunner
from helpers import mutate, time_limit
from hypothesis import event, given, settings
from hypothesis import strategies as st

from amunre.agents import make_agents
from amunre.cli import cli
from amunre.core.engine import Game
from amunre.core.errors import UnknownVariantError, VariantError
from amunre.core.model import Variant
from amunre.loader import load_variant, variant_files
from amunre.loader.pipelines import PIPELINES, entry_id
from amunre.loader.resources import schemas_dir, variants_dir

SHIPPED = list(variant_files(variants_dir()))
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in SHIPPED}

#: Values a key may be retyped to: other types, the huge and the odd.
ODD_VALUES = [10**30, -2**63, 2**63, -1, 0, 1.5, float("inf"), float("nan"), "", "x" * 500, "classic2003",
              True, False, [], {}, [1, "a"], [[1]], {"a": {"b": 1}}, ["architect"] * 50, "../board.toml",
              "/etc/passwd", "os.system", "__import__('os')", "nul\x00.toml", "y" * 300 + ".toml", ".",
              "\x1b[2J\x1b[31mred", "[bold red]loud[/]", "bell\x07", "line\nbreak", "\u202eevil", "z" * 100_000,
              2, 3, 15, 100, 1000, 1001, [0, 1, 3], [0] * 31, [2147483648, 2, 1], [-1, 5]]

#: The examples per test: a few in CI, 10,000 in the deep profile.
FUZZ = settings(max_examples=10_000 if conftest.DEEP else 25)  # conftest.DEEP: AMUNRE_DEEP=1

#: More decisions than any game of a loadable variant needs (the most a shipped variant
#: needs is about 700): a game still going at this count would not end.
MAX_DECISIONS = 20_000


def plays_to_the_end(variant: Variant, seed: int = 0) -> int:
    """Play a game of `variant` with random agents, its fewest players; the decisions taken."""
    n = min(variant.players)
    game, agents = Game(variant, n, seed), make_agents(["random"] * n, seed)
    decisions = 0
    while (request := game.pending) is not None:
        decisions += 1
        assert decisions <= MAX_DECISIONS, f"{variant.id}: no end after {MAX_DECISIONS} decisions"
        game.answer(agents[request.player].choose(game.view(request.player), request))
    assert game.state.finished
    return decisions


def load_text(text: str | bytes, name: str = "fuzz.toml"):
    """Load `text` as a variant file in a fresh folder: a Variant, or the VariantError."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
        with time_limit(20):
            try:
                variant = load_variant(path)
            except VariantError as exc:
                assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
                return exc
            plays_to_the_end(variant)
            return variant


@st.composite
def mutated_data(draw):
    """A shipped file, parsed, with one to three keys dropped, renamed or retyped."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    data = tomllib.loads(TEXTS[name])
    renames = ["id", "rule", "params", "steps", "extends", "board", "x", "remove"]
    mutate(draw, data, draw(st.integers(1, 3)), ODD_VALUES, lambda key: [*renames, str(key) + "s"])
    return name, data


@FUZZ
@given(mutated_data())
def test_mutated_data_loads_or_raises_variant_error(case):
    name, data = case
    try:
        text = tomli_w.dumps(data)
    except (TypeError, ValueError):
        return  # tomli-w cannot write it (a key that is not a string): no file to load
    result = load_text(text, name)
    assert isinstance(result, (Variant, VariantError))


@st.composite
def mutated_text(draw):
    """A shipped file's text with lines duplicated, bytes inserted, deep nesting or a huge
    number put in somewhere."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    lines = TEXTS[name].splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines)))
        kind = draw(st.sampled_from(["duplicate", "bytes", "control", "deep_array", "deep_table", "deep_key",
                                     "huge", "cut"]))
        if kind == "duplicate" and lines:
            lines.insert(at, lines[min(at, len(lines) - 1)])
        elif kind == "bytes":
            lines.insert(at, draw(st.binary(min_size=1, max_size=20)).decode("utf-8", errors="surrogateescape"))
        elif kind == "control" and lines:
            # a control character inside a line: in a string, a key or between tokens
            line = lines[min(at, len(lines) - 1)]
            cut = draw(st.integers(0, len(line)))
            char = draw(st.sampled_from(["\x1b", "\x00", "\x07", "\x9b", "\r", "\x7f", "\u2028"]))
            lines[min(at, len(lines) - 1)] = line[:cut] + char + line[cut:]
        elif kind == "deep_array":
            depth = draw(st.integers(50, 3000))
            lines.insert(at, "deep = " + "[" * depth + "]" * depth + "\n")
        elif kind == "deep_table":
            depth = draw(st.integers(50, 1500))
            lines.insert(at, "deep = " + "{ a = " * depth + "1" + " }" * depth + "\n")
        elif kind == "deep_key":
            depth = draw(st.integers(50, 3000))
            lines.insert(at, draw(st.sampled_from(["", "["])) + "a" + ".a" * depth
                         + draw(st.sampled_from([" = 1", "]"])) + "\n")
        elif kind == "huge":
            key = draw(st.sampled_from(["starting_gold", "farmers", "points", "players", "x"]))
            value = draw(st.sampled_from(["1" + "0" * 30, "-9223372036854775808", "1e400", "[" + "9" * 40 + "]"]))
            lines.insert(at, f"{key} = {value}\n")
        elif kind == "cut" and lines:
            lines = lines[:at]
    return name, "".join(lines)


@FUZZ
@given(mutated_text())
def test_mutated_text_loads_or_raises_variant_error(case):
    name, text = case
    raw = text.encode("utf-8", errors="surrogateescape")
    result = load_text(raw, name)
    assert isinstance(result, (Variant, VariantError))


def _limits(schema: dict) -> list:
    """The values at the ends of an integer's or an integer list's declared range."""
    if schema.get("type") == "integer":
        return [schema["minimum"], schema["maximum"]]
    items = schema.get("items", {})
    if schema.get("type") == "array" and items.get("type") == "integer":
        most = schema.get("maxItems", 10)
        return [[], [items["minimum"]] * most, [items["maximum"]] * most,
                list(range(items["minimum"], items["minimum"] + most))]
    return []


def _limit_settings(path) -> list:
    """(file, `--set` text) for every numeric key of a shipped variant at the ends of its range."""
    import typing

    import attrs

    from amunre.loader.schema import class_schema, field_schema

    variant = load_variant(path)
    settings_ = []
    for table, cls in (("edition", type(variant.edition)), ("components", type(variant.components))):
        for key, schema in class_schema(cls)["properties"].items():
            settings_ += [(path, f"{table}.{key}={json.dumps(v)}") for v in _limits(schema)]
    for kind in variant.components.deck:
        settings_ += [(path, f"components.deck.{kind}={v}") for v in (0, 100)]
    for pipeline in ("phases", "scoring", "final_scoring"):
        for spec in getattr(variant, pipeline):
            hints = typing.get_type_hints(type(spec.params))
            for field in attrs.fields(type(spec.params)):
                for v in _limits(field_schema(type(spec.params), field, hints)):
                    settings_.append((path, f"{pipeline}.{spec.id}.params.{field.name}={json.dumps(v)}"))
    for key, value in variant.rulings.as_dict().items():
        if type(value) is int:
            owner = next(cls for cls in variant.rulings._by_class if key in attrs.fields_dict(cls))
            schema = field_schema(owner, attrs.fields_dict(owner)[key], typing.get_type_hints(owner))
            settings_ += [(path, f"rulings.{key}={v}") for v in _limits(schema)]
    return settings_


LIMITS = [case for path in SHIPPED for case in _limit_settings(path)]


@FUZZ
@given(st.lists(st.sampled_from(LIMITS), min_size=1, max_size=3), st.integers(0, 2**16))
def test_every_count_and_parameter_at_the_ends_of_its_range_plays_to_the_end(cases, seed):
    """A variant with any numeric value set to an end of its declared range (one to three at
    once) either is refused at load with the one error type, or plays to its end within a
    bounded number of decisions: no crash, no endless auction or offering, no memory blow-up."""
    path = cases[0][0]
    settings_ = [setting for file, setting in cases if file == path]
    with time_limit(20):
        try:
            variant = load_variant(path, settings_)
        except VariantError as exc:
            assert exc.problems
            return
        plays_to_the_end(variant, seed)


def test_the_limits_cover_every_module_and_component():
    """The cases above reach every numeric parameter of every module in a shipped variant."""
    keys = {setting.partition("=")[0] for _, setting in LIMITS}
    assert {"components.starting_gold", "components.farmers", "edition.rounds_per_kingdom",
            "phases.auction.params.protection_skip", "phases.auction.params.bid_spaces",
            "phases.offering.params.rewards", "rulings.nile_min_pyramids", "components.deck.architect"} <= keys
    assert any(key.startswith("scoring.") for key in keys)


HOARD = (
    'extends = "classic2003"\n[edition]\nid = "hoard"\nplayers = [2]\nrounds_per_kingdom = 7\n'
    'kingdoms = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]\n'
    "[components]\nstarting_gold = 1000\nfarmers = 1000\n"
    "[params.harvest]\ntreasury_gold = 1000\nbig_harvest_bonus = 100\n"
    + "".join(f'[[phases]]\nid = "harvest{i}"\nrule = "harvest"\n' for i in range(2, 9))
)


def test_a_hoarder_at_the_ends_of_every_range_stays_in_bounded_memory():
    """The offering offers every amount of gold a player holds, one option each, and gold has no
    cap in play. At the ends of the ranges (1,000 starting gold, 1,000 treasury gold, eight
    harvests a round, 70 rounds) a player who always offers the least hoards about 32,000
    gold: the largest question then has about 64,000 options, a few megabytes, and the game
    still ends in a second. This pins that bound."""
    variant = load_text(HOARD, "hoard.toml")
    assert not isinstance(variant, VariantError), variant
    game, rng, largest = Game(variant, 2, 1), __import__("random").Random(1), 0
    with time_limit(20):
        while (request := game.pending) is not None:
            largest = max(largest, len(request.options))
            game.answer(request.options[0] if request.kind == "offer" else rng.choice(request.options))
    assert game.state.finished
    assert 10_000 < largest <= 200_000, largest  # hoarding worked, and stayed bounded


@pytest.mark.parametrize("text, expected", [
    ("x = " + "[" * 100_000 + "]" * 100_000, "nesting too deep at line 1"),
    ("[edition]\nname = 1\n" + "[" + "a." * 5000 + "a]\n", "nesting too deep at line 3"),
    ("[components]\nstarting_gold = " + "9" * 5000 + "\n", "a number too long to read at line 2"),
])
def test_extremes_are_reported_quickly(text, expected):
    result = load_text(text)
    assert isinstance(result, VariantError)
    if expected:
        assert any(expected in line for line in result.problems), result.problems


# -- what the path is: its size and kind, checked before it is read ----------------------

#: A variant file, its parent (`extends`) and its board, each in a file named by its role.
ROLES = {
    "variant": ('extends = "parent.toml"\n[edition]\nid = "child"\nboard = "own_board.toml"\n', "child.toml"),
    "parent": ((variants_dir() / "classic2003.toml").read_text(encoding="utf-8").replace('"classic2003"', '"parent"'),
               "parent.toml"),
    "board": ((variants_dir() / "board.toml").read_text(encoding="utf-8"), "own_board.toml"),
}
WHAT = {"variant": "variant", "parent": "variant", "board": "board"}


def _variant_with(folder: Path, role: str, make) -> Path:
    """The three files of `ROLES` in `folder`, the one of `role` made by `make(path)`
    instead; the child's path."""
    for name, (text, file_name) in ROLES.items():
        path = folder / file_name
        if name == role:
            make(path)
        else:
            path.write_text(text, encoding="utf-8")
    return folder / ROLES["variant"][1]


def _sparse(size: int):
    def make(path: Path) -> None:
        with open(path, "wb") as file:
            file.truncate(size)  # a hole: no disk used, no byte written
    return make


def _refused(child: Path, monkeypatch) -> list[str]:
    """The problems of loading `child`, with every whole-file read recorded: none may be
    of the file refused."""
    reads = []
    real = pathlib.Path.read_bytes
    monkeypatch.setattr(pathlib.Path, "read_bytes", lambda self: reads.append(self.name) or real(self))
    with time_limit(20), pytest.raises(VariantError) as info:
        load_variant(child)
    monkeypatch.undo()
    return info.value.problems, reads


@pytest.mark.parametrize("role", sorted(ROLES))
def test_a_variant_or_board_file_too_large_is_refused_by_its_size_before_it_is_read(tmp_path, monkeypatch, role):
    """A 3 GiB file (sparse: nothing written) is refused from its size: it was read whole
    before (MemoryError)."""
    from amunre.loader.files import MAX_BYTES

    child = _variant_with(tmp_path, role, _sparse(3 * 2**30))
    problems, reads = _refused(child, monkeypatch)
    name = ROLES[role][1]
    assert problems == [f"{tmp_path / name}:1: (top level): the {WHAT[role]} file is {3 * 2**30} bytes, too large "
                        f"(expected a {WHAT[role]} file of at most {MAX_BYTES} bytes)"], problems
    assert name not in reads


def test_a_variant_file_of_the_largest_size_allowed_is_read():
    from amunre.loader.files import MAX_BYTES

    text = ROLES["parent"][0].replace('"parent"', '"padded"')
    padded = text + "#" * (MAX_BYTES - len(text.encode()) - 1) + "\n"
    assert len(padded.encode()) == MAX_BYTES
    assert isinstance(load_text(padded), Variant)
    assert "too large (expected a variant file of at most" in load_text(padded + "\n").problems[0]


@pytest.mark.parametrize("role, kind, make", [
    (role, kind, make) for role in sorted(ROLES) for kind, make in [
        ("a named pipe (FIFO)", os.mkfifo),
        ("a directory", lambda path: path.mkdir()),
    ]] + [("variant", "a device",
           lambda path: path.symlink_to("/dev/zero"))])  # (a file's own links stay in its folder)
def test_a_pipe_a_device_or_a_folder_named_as_a_variant_or_board_file_says_what_it_is(tmp_path, monkeypatch, role,
                                                                                      kind, make):
    """Never opened (opening a pipe waits for a writer; /dev/zero never ends), never "not
    found", and never the shipped board of the same name in its place."""
    child = _variant_with(tmp_path, role, make)
    if role == "variant":
        with time_limit(20), pytest.raises(UnknownVariantError) as info:
            load_variant(child)
        assert f"{str(child)!r} is {kind}" in str(info.value), info.value
        return
    problems, reads = _refused(child, monkeypatch)
    name = ROLES[role][1]
    assert problems == [f"{tmp_path / name}:1: (top level): the {WHAT[role]} file is {kind}, not a regular file "
                        f"(expected a {WHAT[role]} .toml file)"], problems
    assert name not in reads


def test_a_pipe_named_as_the_board_on_the_command_line_exits_cleanly(tmp_path):
    child = _variant_with(tmp_path, "board", os.mkfifo)
    with time_limit(20):
        result = CliRunner().invoke(cli, ["run", "--variant", str(child), "--seed", "1", "--quiet"])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "own_board.toml:1: (top level): the board file is a named pipe (FIFO), not a regular file" in result.output


@FUZZ
@given(role=st.sampled_from(sorted(ROLES)),
       what=st.one_of(st.integers(1_000_001, 2**36), st.sampled_from(["fifo", "directory", "device", "dangling"])))
def test_any_path_that_is_no_readable_file_of_a_sane_size_is_refused_without_reading_it(role, what):
    """Oversized (sparse) files of any size, pipes, folders, devices and dangling links in
    each role: one problem naming the file, quickly, never a read of it."""
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        make = {"fifo": os.mkfifo, "directory": lambda path: path.mkdir(),
                "device": lambda path: path.symlink_to("/dev/zero"),
                "dangling": lambda path: path.symlink_to(folder / "gone.toml")}.get(what) \
            if isinstance(what, str) else _sparse(what)
        child = _variant_with(folder, role, make)
        with time_limit(20):
            try:
                load_variant(child)
            except (VariantError, UnknownVariantError) as exc:
                text = str(exc)
            else:
                raise AssertionError(f"{role} as {what!r} loaded")
        assert text.count("\n") == 0 and ROLES[role][1] in text, text
        if isinstance(what, int):
            assert f"is {what} bytes, too large" in text, text


# -- data, never code --------------------------------------------------------------------


def test_extends_to_a_file_that_is_not_a_variant_is_refused(tmp_path):
    for target in ("/etc/passwd", "../../../../etc/passwd", "/etc", "~/.ssh/id_rsa"):
        path = tmp_path / "evil.toml"
        path.write_text(f'extends = "{target}"\n[edition]\nid = "evil"\n', encoding="utf-8")
        result = load_text(path.read_text(), "evil.toml")
        assert isinstance(result, VariantError)
        (line,) = result.problems
        assert f"extends: {target!r} is a path but not to a .toml file (expected a shipped variant id (" in line


def test_a_variant_reads_only_toml_files_in_its_own_folder_tree(tmp_path):
    """`extends` and `board` may name a shipped variant or board, or a .toml file in the
    folder of the file being loaded or below: never an absolute path, never a file beside or
    above that folder, not even through a link."""
    outside, home = tmp_path / "outside", tmp_path / "home"
    (home / "sub").mkdir(parents=True)
    outside.mkdir()
    base = (variants_dir() / "classic2003.toml").read_text(encoding="utf-8")
    board = (variants_dir() / "board.toml").read_text(encoding="utf-8")
    for folder in (outside, home / "sub"):
        (folder / "base.toml").write_text(base.replace('"classic2003"', '"base"'), encoding="utf-8")
        (folder / "board.toml").write_text(board, encoding="utf-8")
    (home / "link.toml").symlink_to(outside / "base.toml")

    def problems(text):
        path = home / "v.toml"
        path.write_text(text + '\n[edition]\nid = "v"\n', encoding="utf-8")
        try:
            load_variant(path)
        except VariantError as exc:
            return exc.problems
        return []

    assert problems('extends = "sub/base.toml"') == []
    for refused, why in [
        ('extends = "../outside/base.toml"', "lies outside the folder of the variant being loaded"),
        ('extends = "link.toml"', "lies outside the folder of the variant being loaded"),
        (f'extends = "{outside / "base.toml"}"', "is an absolute path"),
        ('extends = ""', "extends: empty"),
    ]:
        (line,) = problems(refused)
        assert why in line, line
    child = home / "b.toml"
    for board_name, why in [("../outside/board.toml", "lies outside the folder"),
                            (str(outside / "board.toml"), "is an absolute path")]:
        child.write_text(f'extends = "classic2003"\n[edition]\nid = "b"\nboard = "{board_name}"\n', encoding="utf-8")
        with pytest.raises(VariantError) as info:
            load_variant(child)
        (line,) = info.value.problems
        assert f"edition.board: {board_name!r} " in line and why in line
    child.write_text('extends = "classic2003"\n[edition]\nid = "b"\nboard = "sub/board.toml"\n', encoding="utf-8")
    assert len(load_variant(child).board) == 15


def test_board_that_is_not_a_toml_file_is_refused():
    text = 'extends = "classic2003"\n[edition]\nid = "evil"\nboard = "/etc/passwd"\n'
    result = load_text(text)
    assert isinstance(result, VariantError)
    assert any("edition.board: '/etc/passwd' is not a .toml board file" in line for line in result.problems)


HOSTILE = """
extends = "classic2003"
[edition]
id = "hostile"
board = "board.toml"
[[phases]]
id = "os"
rule = "os.system"
after = "market"
[[scoring]]
id = "subprocess"
rule = "amunre.rules.auction:Auction"
[params."importlib"]
x = 1
[rulings]
"__import__('os')" = true
[terms]
architect = "{0.__class__}"
"""


def _watch(reads: list, imports: list):
    """Record every file opened and every module imported (patches undone by the caller)."""
    real_open, real_import = builtins.open, builtins.__import__
    real_read_text, real_read_bytes = pathlib.Path.read_text, pathlib.Path.read_bytes

    def open_(file, *args, **kw):
        reads.append(Path(str(file)))
        return real_open(file, *args, **kw)

    def import_(name, *args, **kw):
        imports.append(name)
        return real_import(name, *args, **kw)

    def read_text(self, *args, **kw):
        reads.append(self)
        return real_read_text(self, *args, **kw)

    def read_bytes(self):
        reads.append(self)
        return real_read_bytes(self)

    return [(builtins, "open", open_), (io, "open", open_), (builtins, "__import__", import_),
            (pathlib.Path, "read_text", read_text), (pathlib.Path, "read_bytes", read_bytes)]


def test_nothing_in_a_file_imports_a_module_or_reads_another_file(tmp_path, monkeypatch):
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE.lstrip(), encoding="utf-8")
    with pytest.raises(VariantError):
        load_variant(path)  # warm up: every lazy import of the loader's own error paths
    before = set(sys.modules)
    reads, imports = [], []
    for target, name, replacement in _watch(reads, imports):
        monkeypatch.setattr(target, name, replacement)
    with pytest.raises(VariantError) as info:
        load_variant(path)
    monkeypatch.undo()
    assert set(sys.modules) == before
    assert not {"os.system", "subprocess", "importlib", "amunre.rules.auction:Auction"} & set(imports)
    allowed = {path.resolve()}
    for read in reads:
        read = read.resolve()
        assert (read in allowed or variants_dir().resolve() in read.parents
                or schemas_dir().resolve() in read.parents), read
    assert reads  # the watch saw the file being read
    text = "\n".join(info.value.problems)
    assert "unknown rule module 'os.system'" in text and "unknown rule module 'importlib'" in text


# -- sizes: nothing in a file is large enough to make loading or a game long ----------------


@pytest.mark.parametrize("where, text, expected", [
    ("terms", '[terms]\ngold = "' + "G" * 501 + '"\n', ":6: terms.gold: a string of 501 characters, too long"),
    ("kingdoms", "kingdoms = [" + ", ".join(['"k"'] * 101) + "]\n", ":4: edition.kingdoms: 101 items, too many"),
    ("phases", "".join(f'[[phases]]\nid = "x{i}"\nrule = "harvest"\nafter = "market"\n' for i in range(101)),
     ":5: phases: 101 items, too many"),
])
def test_an_array_or_string_too_large_is_refused_as_the_file_is_read(where, text, expected):
    """Checked before any merging, so a file of 20,000 `after` entries cannot make loading
    quadratic: it is refused at once, with its line."""
    head = 'extends = "classic2003"\n[edition]\nid = "big"\n'
    body = head + text if where == "kingdoms" else head + "\n" + text
    with time_limit(5):
        problems = load_text(body, "big.toml").problems
    assert len(problems) == 1 and expected in problems[0], problems


def test_a_pipeline_holds_at_most_twelve_phases(tmp_path):
    body = 'extends = "classic2003"\n[edition]\nid = "long"\n' + "".join(
        f'[[phases]]\nid = "x{i}"\nrule = "harvest"\n' for i in range(13 - len(load_variant("classic2003").phases)))
    (only,) = load_text(body).problems
    assert "phases: 13 items, too many (expected at most 12)" in only


def test_a_set_number_too_long_to_read_is_a_problem_not_a_crash():
    """Python refuses to convert an integer of 5,000 digits: it was a ValueError out of the
    override's parser (found by the PettingZoo arguments' fuzz test)."""
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", ["components.starting_gold=" + "9" * 5000])
    (only,) = info.value.problems
    assert only.endswith(": a number too long to read (expected a number of at most a few hundred digits)")
    assert len(only) < 300


def test_a_huge_set_value_is_refused_and_named_by_its_ends():
    with pytest.raises(VariantError) as info:
        load_variant("classic2003", ["edition.name=" + "b" * 10_000])
    (only,) = info.value.problems
    assert "a string of 10000 characters, too long (expected at most 500)" in only and len(only) < 300


# -- entry ids clashing across pipelines: refused at load, never a crash in a game ---------

#: A rule each pipeline can take once more without any other problem (for an added entry).
SPARE_RULE = {"phases": "harvest", "scoring": "temples", "final_scoring": "gold_ranking"}


def _entries(data: dict) -> list[tuple]:
    """(pipeline, entry, its id, its rule or None for a group) of every entry of `data`'s
    pipelines, the steps of groups included."""
    found = []

    def walk(pipeline, entries):
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict):
                found.append((pipeline, entry, entry_id(entry), None if "steps" in entry else entry.get("rule")))
                walk(pipeline, entry.get("steps"))

    for pipeline in PIPELINES:
        walk(pipeline, data.get(pipeline))
    return found


#: Each shipped file's merged pipelines, as the loader resolves them.
MERGED = {path.name: _entries(load_variant(path).resolved) for path in SHIPPED}


def _clashing(draw, entries: list, me: tuple) -> tuple[str, str]:
    """(an id that clashes with the other entries if `me` takes it, how it clashes): another
    entry's id (in another pipeline or the same), or, for a rule entry, the rule id another
    entry uses when `me` uses another rule."""
    pipeline, entry, own, rule = me
    others = [e for e in entries if e[1] is not entry]
    targets = [(e[2], "id in another pipeline" if e[0] != pipeline else "id in the same pipeline")
               for e in others if e[2] != own]
    if rule is not None:
        targets += [(e[3], "another entry's rule id") for e in others
                    if e[3] is not None and e[3] != rule and e[3] != own]
    return draw(st.sampled_from(sorted(set(targets))))


@st.composite
def clashing_ids(draw):
    """A shipped variant with one entry id made to clash, three ways: a `--set
    <pipeline>.<id>.id=<clash>`, an entry of the file renamed (a file that extends nothing),
    or a new entry added to another pipeline under an id the variant has (any file).
    (file name, file text or None for the shipped file, `--set` texts, the clashing id)."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    data = tomllib.loads(TEXTS[name])
    modes = ["set", "add"] + (["rename"] if "extends" not in data else [])
    mode = draw(st.sampled_from(modes))
    merged = MERGED[name]
    if mode == "set":
        me = draw(st.sampled_from(merged))
        clash, how = _clashing(draw, merged, me)
        event(f"clash by --set: {how}")
        return name, None, [f"{me[0]}.{me[2]}.id={clash}"], clash
    if mode == "rename":
        own = _entries(data)
        me = draw(st.sampled_from(own))
        clash, how = _clashing(draw, own, me)
        me[1]["id"] = clash
        event(f"clash by a renamed entry: {how}")
        return name, tomli_w.dumps(data), [], clash
    pipeline = draw(st.sampled_from(sorted(PIPELINES)))
    clash = draw(st.sampled_from(sorted({e[2] for e in merged if e[0] != pipeline})))
    data.setdefault(pipeline, []).append({"id": clash, "rule": SPARE_RULE[pipeline]})
    event(f"clash by an added entry: id in another pipeline ({pipeline})")
    return name, tomli_w.dumps(data), [], clash


@FUZZ
@given(clashing_ids())
def test_an_entry_id_clashing_across_pipelines_is_refused_where_it_is_written(case):
    """Whatever entry takes an id another entry has (in any pipeline), or the rule id of
    another entry, the variant is refused with a problem naming that id, at the `--set` that
    did it or at a line of the file; it never loads to crash a game later."""
    name, text, settings_, clash = case
    with time_limit(20):
        if text is None:
            path = next(p for p in SHIPPED if p.name == name)
            try:
                load_variant(path, settings_)
            except VariantError as exc:
                result = exc
            else:
                result = None
        else:
            result = load_text(text, name)
    assert isinstance(result, VariantError), f"{name} {settings_} loaded with the id {clash!r} twice"
    named = [p for p in result.problems if f"duplicate entry id {clash!r}" in p
             or (f"entry id {clash!r} of" in p and "could not tell them apart" in p)]
    assert named, result.problems
    if settings_:
        assert any(p.startswith(f"--set {settings_[0]}: ") for p in named), named
    else:
        assert any(p.startswith(f"{Path(tempfile.gettempdir())}") and f"{name}:" in p for p in named), named
