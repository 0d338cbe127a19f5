"""Read a position file and check it against its schema and the variant, every problem at once.

A position file is data from anywhere, read as the variant loader reads a variant file
(`amunre.loader.files.read_toml` and its helpers, reused here): whatever it holds (bytes
that are not UTF-8, a syntax error, nesting thousands deep, a number of thousands of digits,
a JSON key given twice, NaN) becomes a problem with its file, line and key path, raised as
one `PositionError` listing every problem as `file:line: key.path: what is wrong (what was
expected)`, never another exception. Its strings must be printable (no escape sequences),
its numbers integers within the bounds of `schemas/position.schema.json`.

A position names its variant by a shipped id (`variant = "classic2003"`), never by a file:
a position is data and must not make the program read other files of the machine. A variant
file of one's own is given on the command line instead (`amunre score POSITION --variant FILE`).
"""

from __future__ import annotations

import errno
import json
import re
import stat
from pathlib import Path

from amunre.core.errors import PositionError, VariantError
from amunre.core.model import Variant
from amunre.core.state import GameState
from amunre.loader.files import (
    MAX_DEPTH,
    available_variants,
    file_kind,
    nesting_depth,
    read_text,
    read_toml,
    too_deep,
)
from amunre.loader.problems import Problems, control_character_problems, did_you_mean, got, printable
from amunre.loader.shape import schema_problems
from amunre.loader.tomlpos import format_path, line_for
from amunre.planning.position.build import build_state
from amunre.planning.position.fields import (
    PROVINCE_COUNTS,
    SUPPLIES,
    UNOWNED_COUNTS,
    Position,
    player_entries,
    player_names,
)
from amunre.planning.position.jsonpos import json_key_lines

#: The variant of a position that names none.
DEFAULT_VARIANT = "classic2003"
#: Longest player name, in characters (a name is printed in every table column).
MAX_NAME = 64
#: Largest position file, in bytes (a real one holds a few kilobytes).
MAX_BYTES = 1_000_000
#: Longest problem line printed: a longer one (a huge value echoed) loses its middle.
MAX_LINE = 600


def read_position_data(path: str | Path) -> dict:
    """The raw data of a position file, TOML or JSON by its extension."""
    return read_position_raw(path)[0]


def read_position_raw(path: str | Path, argument: str | None = None) -> tuple[dict, dict]:
    """(data, key path -> line) of a position file, TOML or JSON by its extension.

    `argument` names where the path came from (`POSITION`, a command-line argument) in the
    messages about the path itself; `PositionError` for anything that cannot be read."""
    path = Path(path)
    label = str(path)
    named = f"{argument} {quote(label)}" if argument else f"position file {quote(label)}"
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise _path_error(_safe(f"{named}: a position file must end in .toml or .json"))
    _check_path(path, named)
    problems = Problems()
    try:
        if suffix == ".toml":
            data, lines = read_toml(path, label, problems, what="position")
        else:
            data, lines = _read_json(path, label, problems)
    except VariantError:
        raise _error(problems.lines(), label) from None
    if not isinstance(data, dict):
        raise _error([f"{label}:1: (top level): {got(data)} "
                      f"(expected an object: a position is a table/object of keys at the top level)"], label)
    return data, lines


def _check_path(path: Path, named: str) -> None:
    """A clear error for a path that does not lead to a readable regular file of a sane size."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise _path_error(_safe(f"{named} does not exist (expected a .toml or .json position file)")) from None
    except ValueError:  # a NUL character in the name
        raise _path_error(_safe(f"{named}: the path holds a NUL character (expected a file name)")) from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise _path_error(_safe(
                f"{named} ({len(str(path))} characters): the path is too long for the file system "
                f"(expected a shorter path to a .toml or .json position file)")) from None
        raise _path_error(_safe(f"{named}: cannot read it ({exc.strerror or exc}) "
                                  f"(expected a readable .toml or .json position file)")) from None
    if stat.S_ISDIR(info.st_mode):
        raise _path_error(_safe(f"{named} is a directory (expected a .toml or .json position file)"))
    if not stat.S_ISREG(info.st_mode):
        raise _path_error(_safe(f"{named} is {file_kind(info.st_mode)}, not a regular file (expected a .toml or "
                                  f".json position file)"))
    if info.st_size > MAX_BYTES:
        raise _path_error(_safe(f"{named} is {info.st_size} bytes (expected a position file of at most "
                                  f"{MAX_BYTES} bytes)"))


class _Constant(ValueError):
    """NaN or Infinity in a JSON text."""


def _refuse_constant(word: str):
    raise _Constant(word)


def _read_json(path: Path, label: str, problems: Problems) -> tuple[dict, dict]:
    """(data, key lines) of a JSON position, its problems reported as `read_toml` reports a
    TOML file's (and a key given twice, NaN and Infinity refused)."""
    text = read_text(path, label, problems, "position", "JSON")
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except _Constant as exc:
        _, _, constants = json_key_lines(text)
        path_, line, word = constants[0] if constants else ((), 1, str(exc))
        problems.add(label, line, path_, f"{word} is not a JSON number",
                     "expected an integer: JSON has no NaN or Infinity")
        raise problems.error() from None
    except RecursionError:
        too_deep(text, label, problems)
    except json.JSONDecodeError as exc:
        problems.add(label, exc.lineno, (), f"JSON syntax error: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                     "expected valid JSON")
        raise problems.error() from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        line = _long_number_line(text)
        problems.add(label, line, (), f"a number too long to read at line {line}",
                     "expected a number of at most a few hundred digits")
        raise problems.error() from None
    if nesting_depth(data) > MAX_DEPTH:
        too_deep(text, label, problems)
    lines, repeated, _ = json_key_lines(text)
    for key_path, line, first in repeated:
        problems.add(label, line, key_path, f"the key is given twice (first at line {first})",
                     "expected each key once in an object: JSON would keep only the last")
    if problems:
        raise problems.error()
    return data, lines


def _long_number_line(text: str) -> int:
    digits = re.search(r"[0-9]{500,}", text)
    return text.count("\n", 0, digits.start()) + 1 if digits else 1


def read_position(path: str | Path, variant: Variant) -> Position:
    """Read and check a position file; `PositionError` lists every problem found."""
    data, lines = read_position_raw(path)
    return position_from_data(data, variant, source=str(path), lines=lines)


def load_position(path: str | Path, variant: Variant) -> GameState:
    """The game state a position file describes, checked against the variant."""
    return read_position(path, variant).state


def position_variant(data: dict, source: str = "position", lines: dict | None = None) -> str:
    """The shipped variant id a position names in `variant` (classic2003 when it names none).

    A position names a shipped variant, never a file: a path or an unknown id is a problem at
    the `variant` key (reported with whatever else is wrong with the position's shape), and
    the user passes a variant file of their own on the command line instead."""
    name = data.get("variant", DEFAULT_VARIANT)
    shipped = available_variants()
    if isinstance(name, str) and name in shipped:
        return name
    found = _Found(source, lines)
    if isinstance(name, str) and name:
        ids = ", ".join(sorted(shipped))
        instead = "a variant file of your own is given on the command line: --variant FILE"
        if "/" in name or "\\" in name or name.lower().endswith((".toml", ".json")) or name.startswith("."):
            found.add(("variant",), f"{quote(name)} is a path, but a position names its variant by a shipped id only",
                      f"expected one of: {ids}; {instead}")
        else:
            found.add(("variant",), f"no shipped variant {quote(name)}",
                      f"{did_you_mean(name, shipped)}expected one of: {ids}; {instead}")
    _shape_problems(data, found)
    raise found.error()


def position_from_data(data: dict, variant: Variant, source: str = "position", lines: dict | None = None) -> Position:
    """Check position data (shape, then meaning) and build its state; all problems at once.

    The error lists each problem as `source[:line]: key: what is wrong (what was expected)`;
    `lines` (key path -> line, from `amunre.loader.tomlpos.key_lines` or
    `amunre.planning.position.jsonpos.json_key_lines`) supplies the line numbers."""
    found = _Found(source, lines)
    _shape_problems(data, found)
    for path, key, message in _semantic_problems(data, variant, found.reported):
        found.add(path, message, shown=key, first=False)
    if found:
        raise found.error()
    return build_state(data, variant)


# -- collecting problems ----------------------------------------------------------------


class _Found:
    """The problems of one position, each with its key path and line when known."""

    def __init__(self, source: str, lines: dict | None):
        self.source, self.lines = source, lines or {}
        self.items: list[tuple[int, int, str]] = []  # (line or 0, order, text)
        self.paths: set[tuple] = set()

    def add(self, path: tuple, what: str, expected: str | None = None, shown: str | None = None,
            first: bool = True) -> None:
        """A problem at `path`, unless the path or a parent of it has one; with `first` false,
        the next problems at this path are reported too (the checks of meaning, each its own)."""
        path = tuple(path)
        if self.reported(path):
            return
        if first:
            self.paths.add(path)
        line = line_for(self.lines, path)
        where = shown or format_path(path) or "(top level)"
        text = f"{self.source}{f':{line}' if line else ''}: {where}: {what}" + (f" ({expected})" if expected else "")
        self.items.append((line or 0, len(self.items), text))

    def reported(self, path: tuple) -> bool:
        """Whether `path` or a parent of it has a problem already."""
        return any(path[:k] in self.paths for k in range(len(path) + 1))

    def report(self, path: tuple, what: str, expected: str | None = None) -> None:
        """`add`, as the loader's checks call their `report`."""
        self.add(path, what, expected)

    def __bool__(self) -> bool:
        return bool(self.items)

    def error(self) -> PositionError:
        return _error([text for _, _, text in sorted(self.items)], self.source)


def _path_error(problem: str) -> PositionError:
    """The one problem of a position path that cannot be read (missing, a folder, too big):
    its message as it is, and as the error's only `problems` line, as `_error` gives them."""
    error = PositionError(problem)
    error.problems = [problem]
    return error


def _error(problems: list[str], source: str) -> PositionError:
    """One `PositionError` listing `problems` (each made safe to print), its `problems` the lines."""
    problems = [_safe(p) for p in problems]
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    error = PositionError(f"{count} in the position {_safe(quote(source, 200)[1:-1])}\n"
                          + "\n".join(f"  {p}" for p in problems))
    error.problems = problems
    return error


def quote(text: str, most: int = 60) -> str:
    """`text` quoted for a message, its middle left out when it is long."""
    if len(text) > most:
        text = f"{text[:most - 20]}…{text[-15:]}"
    return repr(text)


def _safe(line: str) -> str:
    """A problem line safe to print: control characters and lone surrogates as escapes, a
    huge echoed value cut in the middle."""
    line = printable(line).encode("utf-8", "backslashreplace").decode("utf-8")
    if len(line) > MAX_LINE:
        cut = len(line) - MAX_LINE + 40
        line = f"{line[:MAX_LINE * 2 // 3]} … ({cut} characters left out) … {line[-(MAX_LINE // 3 - 40):]}"
    return line


# -- shape: what any position must be, whatever its variant --------------------------------

#: What a key that takes two types expects (the schema alone words it `a value`).
_EITHER = {
    ("kingdom",): "expected a kingdom's name or its number from 1",
    ("start_player",): "expected a player's name or a 0-based index",
}


def _shape_problems(data: dict, found: _Found) -> None:
    """Printable strings, the schema (types and bounds), integers never written as floats,
    names of a printable length."""
    control_character_problems(data, found.report)
    _text_problems(data, found)

    def schema_report(path, what, expected=None):
        if tuple(path) in _EITHER and what.startswith("wrong type"):
            expected = _EITHER[tuple(path)]
        found.add(path, what, expected)

    schema_problems("position", data, schema_report)
    _float_problems(data, found)
    for i, player in enumerate(player_entries(data)):
        name = player.get("name")
        if isinstance(name, str) and len(name) > MAX_NAME:
            found.add(("players", i, "name"), f"too long ({len(name)} characters)",
                      f"expected a name of at most {MAX_NAME} characters")


def _walk(data):
    """(path, key or value) of every key and value in `data`, without recursion."""
    todo = [((), data)]
    while todo:
        path, value = todo.pop()
        yield path, value
        if isinstance(value, dict):
            for key, inner in value.items():
                yield path + (key,), key
                todo.append((path + (key,), inner))
        elif isinstance(value, list):
            todo += [(path + (i,), inner) for i, inner in enumerate(value)]


def _text_problems(data, found: _Found) -> None:
    """A lone surrogate (`"\\ud800"` in JSON) is no text: it cannot even be printed."""
    for path, value in _walk(data):
        if isinstance(value, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            found.add(path, "the text holds a lone surrogate escape (\\ud800 to \\udfff)",
                      "expected valid Unicode text")


def _float_problems(data, found: _Found) -> None:
    """Every count of a position is an integer: JSON Schema takes 2.0 for one, a position not."""
    for path, value in _walk(data):
        if isinstance(value, float):
            found.add(path, f"wrong type: {got(value)}", "expected an integer")


# -- meaning: against the variant -------------------------------------------------------

def _count(value) -> int | None:
    """A valid count, or None (the schema check reports the rest)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _semantic_problems(data: dict, variant: Variant, reported=lambda path: False) -> list[tuple]:
    """The problems of meaning, against the variant; a value the shape check already
    refused (`reported`) is left out of sums and comparisons."""
    problems: list[tuple] = []

    def add(path: tuple, message: str, shown: str | None = None) -> None:
        problems.append((path, shown or format_path(path), message))
    board = variant.board
    players = player_entries(data)
    names = player_names(data)
    allowed = variant.players
    if isinstance(data.get("players"), list) and len(players) not in allowed:
        add(("players",), f"{len(players)} players, but {variant.id} is played by {', '.join(map(str, allowed))}")
    seen_names: dict[str, int] = {}
    for i, player in enumerate(players):
        name = player.get("name")
        if isinstance(name, str):
            if name in seen_names:
                add(("players", i, "name"), f"{quote(name)} is already the name of players[{seen_names[name]}]")
            else:
                seen_names[name] = i

    kingdom = data.get("kingdom")
    kingdoms = variant.edition.kingdoms
    if isinstance(kingdom, str) and kingdom not in kingdoms:
        add(("kingdom",), f"no kingdom named {quote(kingdom)} (kingdoms: {', '.join(kingdoms)})")
    elif isinstance(kingdom, int) and not isinstance(kingdom, bool) and not 1 <= kingdom <= len(kingdoms):
        add(("kingdom",), f"{kingdom} is not a kingdom number (1 to {len(kingdoms)})")

    level = _count(data.get("offering_level"))
    top = variant.modules.max_offering_level or 4  # 4: the printed track, when no rule sets a level
    published = variant.modules.published_at
    if "offering_level" in data and "offering_level" not in published:
        add(("offering_level",), "the variant has no offering level (no rule module of it publishes "
                                 "`offering_level`): leave the key out")
    elif level is not None and level > top:
        add(("offering_level",), f"{level} is above the highest level, {top}")
    if "theft_cards" not in published:
        for i, entry in enumerate(players if isinstance(players, list) else ()):
            if isinstance(entry, dict) and entry.get("theft"):
                add(("players", i, "theft"), "the variant has no theft cards (no rule module of it publishes "
                                             "`theft_cards`): leave the key out")

    start = data.get("start_player")
    if isinstance(start, bool):
        pass  # the schema reports it
    elif isinstance(start, int) and players and not 0 <= start < len(players):
        add(("start_player",), f"{start} is not a player index (0 to {len(players) - 1})")
    elif isinstance(start, str) and start not in seen_names:
        add(("start_player",),
            f"no player named {quote(start)} (players: {', '.join(quote(n, 30)[1:-1] for n in names)})")

    # provinces: names, ownership, fields
    province_names = ", ".join(p.name for p in board.provinces)
    where: dict[int, str] = {}
    placed = dict.fromkeys(("farmers", "stones", "pyramids", "doubles"), 0)

    def check_province(path: tuple, name, counts, allowed_keys) -> None:
        try:
            pid = board.index(name)
        except KeyError:
            add(path, f"no province named {quote(name)} on the board (provinces: {province_names})")
            return
        if pid in where:
            add(path, f"{board.provinces[pid].name} is already given at {where[pid]}")
        else:
            where[pid] = format_path(path)
        if not isinstance(counts, dict):
            return
        farmers = _count(counts.get("farmers"))
        fields = board.provinces[pid].fields
        if farmers is not None and farmers > fields:
            add(path + ("farmers",),
                f"{farmers} farmers, but {board.provinces[pid].name} has {fields} field "
                f"space{'s' if fields != 1 else ''} (put extra farmers from free farmer cards in free_farmers)")
        for count_key in allowed_keys:
            value = _count(counts.get(count_key))
            if value is not None and not reported(path + (count_key,)):
                placed["farmers" if count_key == "free_farmers" else count_key] += value

    for i, player in enumerate(players):
        provinces = player.get("provinces")
        if isinstance(provinces, dict):
            for name, counts in provinces.items():
                check_province(("players", i, "provinces", name), name, counts, PROVINCE_COUNTS)
    unowned = data.get("unowned")
    if isinstance(unowned, dict):
        for name, counts in unowned.items():
            check_province(("unowned", name), name, counts, UNOWNED_COUNTS)

    # cards: known kinds, and no more of a kind than the deck has
    held = dict.fromkeys(variant.cards, 0)
    for i, player in enumerate(players):
        hand = player.get("hand")
        if not isinstance(hand, dict):
            continue
        for kind, count in hand.items():
            if kind not in held:
                add(("players", i, "hand", kind), f"unknown card kind (known: {', '.join(variant.cards)})")
            elif _count(count) is not None and not reported(("players", i, "hand", kind)):
                held[kind] += count
    deck = variant.components.deck
    for kind, count in held.items():
        if count > deck.get(kind, 0):
            add(("players",), f"the players hold {count}, but the {variant.id} deck has {deck.get(kind, 0)}",
                shown=f"players[*].hand.{kind}")

    # supplies: given counts, or room left in the components for what the board holds
    supplies = data.get("supplies") if isinstance(data.get("supplies"), dict) else {}
    if variant.rulings.finite_supply:
        comp = variant.components
        for key, (_, comp_attr) in SUPPLIES.items():
            if key in supplies:
                continue
            total = getattr(comp, comp_attr)
            if placed[key] > total:
                add(("supplies", key), f"the position places {placed[key]} {key} on the board, "
                    f"but {variant.id} has only {total} (give supplies.{key} to override)")
    return problems


