"""Whatever a variant file holds, loading it returns a `Variant` or raises `VariantError`:
never another exception, never a hang. And a variant file is data, never code: nothing in
it makes the loader import a module or read a file other than the TOML files it extends
and its board.

The hypothesis tests mutate the shipped variant files (drop, rename or retype a key,
duplicate keys, insert bytes, nest thousands deep, huge numbers); the `ci` profile keeps
them quick, `HYPOTHESIS_PROFILE=deep` runs many more examples.
"""

from __future__ import annotations

import builtins
import copy
import io
import pathlib
import signal
import sys
import tempfile
import tomllib
from contextlib import contextmanager
from pathlib import Path

from helpers import parent_table, toml_paths
import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from amunre.errors import VariantError
from amunre.loader import load_variant, variant_files
from amunre.model import Variant
from amunre.resources import schemas_dir, variants_dir

SHIPPED = [p for p in variant_files(variants_dir())]
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in SHIPPED}

#: Values a key may be retyped to: other types, the huge and the odd.
ODD_VALUES = [10**30, -2**63, 2**63, -1, 0, 1.5, float("inf"), float("nan"), "", "x" * 500, "classic2003",
              True, False, [], {}, [1, "a"], [[1]], {"a": {"b": 1}}, ["architect"] * 50, "../board.toml",
              "/etc/passwd", "os.system", "__import__('os')", "nul\x00.toml", "y" * 300 + ".toml", "."]


@contextmanager
def time_limit(seconds: int):
    """Fail instead of hanging: an alarm interrupts a load that takes too long."""
    def stop(signum, frame):
        raise TimeoutError(f"loading took more than {seconds}s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


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
                return load_variant(path)
            except VariantError as exc:
                assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
                return exc


@st.composite
def mutated_data(draw):
    """A shipped file, parsed, with one to three keys dropped, renamed or retyped."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    data = tomllib.loads(TEXTS[name])
    for _ in range(draw(st.integers(1, 3))):
        paths = list(toml_paths(data))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = parent_table(data, path), path[-1]
        kind = draw(st.sampled_from(["drop", "rename", "retype"]))
        if kind == "drop":
            del parent[key]
        elif kind == "rename" and isinstance(parent, dict):
            new = draw(st.sampled_from(["id", "rule", "params", "steps", "extends", "board", "x", str(key) + "s", "remove"]))
            parent[new] = parent.pop(key)
        else:
            parent[key] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))  # never a list inside itself
    return name, data


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
        kind = draw(st.sampled_from(["duplicate", "bytes", "deep_array", "deep_table", "deep_key", "huge", "cut"]))
        if kind == "duplicate" and lines:
            lines.insert(at, lines[min(at, len(lines) - 1)])
        elif kind == "bytes":
            lines.insert(at, draw(st.binary(min_size=1, max_size=20)).decode("utf-8", errors="surrogateescape"))
        elif kind == "deep_array":
            depth = draw(st.integers(50, 3000))
            lines.insert(at, "deep = " + "[" * depth + "]" * depth + "\n")
        elif kind == "deep_table":
            depth = draw(st.integers(50, 1500))
            lines.insert(at, "deep = " + "{ a = " * depth + "1" + " }" * depth + "\n")
        elif kind == "deep_key":
            depth = draw(st.integers(50, 3000))
            lines.insert(at, draw(st.sampled_from(["", "["])) + "a" + ".a" * depth + draw(st.sampled_from([" = 1", "]"])) + "\n")
        elif kind == "huge":
            lines.insert(at, f"{draw(st.sampled_from(['starting_gold', 'farmers', 'points', 'players', 'x']))} = "
                             f"{draw(st.sampled_from(['1' + '0' * 30, '-9223372036854775808', '1e400', '[' + '9' * 40 + ']']))}\n")
        elif kind == "cut" and lines:
            lines = lines[:at]
    return name, "".join(lines)


@given(mutated_text())
def test_mutated_text_loads_or_raises_variant_error(case):
    name, text = case
    raw = text.encode("utf-8", errors="surrogateescape")
    result = load_text(raw, name)
    assert isinstance(result, (Variant, VariantError))


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
        assert read in allowed or variants_dir().resolve() in read.parents or schemas_dir().resolve() in read.parents, read
    assert reads  # the watch saw the file being read
    text = "\n".join(info.value.problems)
    assert "unknown rule module 'os.system'" in text and "unknown rule module 'importlib'" in text
