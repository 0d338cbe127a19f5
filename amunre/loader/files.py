"""Find variant files and read them.

Shipped variants live in `variants/` (the editions) and its subfolders, such as
`variants/house/` (house rules); a variant is named by its `[edition] id` or by the path to
its file. The folders `AMUNRE_PATH` names (separated as `PATH` is: `:` here, `;` on Windows)
are searched for ids before the shipped variants, each with its subfolders one level down:
a designer's own files, found by id wherever the tool was installed (`search_folders`).
Board files sit in the same folders and are told apart by their `[[provinces]]`.
`read_toml` reads one file together with the line of every key, so that problems can point
at it; whatever the file holds (binary junk, another encoding, tables nested thousands
deep) becomes a reported problem, never another exception, and so does whatever the path
is: a pipe, a device or a folder, or a file over `MAX_BYTES`, is refused before it is read.
"""

from __future__ import annotations

import re
import stat
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from amunre.core.arguments import shown
from amunre.core.errors import UnknownVariantError, VariantError
from amunre.loader.problems import Problems
from amunre.loader.resources import variants_dir
from amunre.loader.tomlpos import key_lines

#: Deepest nesting of tables and arrays a variant or board file may use. The real files
#: need 5; the limit keeps every recursive step of loading far from Python's own limit.
MAX_DEPTH = 64
#: Longest array and longest string a file may hold. The real files need 15 items and 80
#: characters; the limits keep loading fast and the printed words short, whatever a file holds.
MAX_ITEMS = 100
MAX_STRING = 500
#: Largest variant or board file, in bytes: 200 times the largest shipped file (5 kB), so
#: no hand-written file comes near it, while a huge file (gigabytes, or a sparse file) is
#: refused from its size alone, before a byte of it is read. Position files have the same
#: limit (`amunre.planning.position.read.MAX_BYTES`).
MAX_BYTES = 1_000_000


#: The environment variable naming the folders of variant files searched before the shipped ones.
SEARCH_PATH = "AMUNRE_PATH"


def search_entries() -> list[str]:
    """The non-empty entries of `AMUNRE_PATH`, as written."""
    import os

    return [entry for entry in os.environ.get(SEARCH_PATH, "").split(os.pathsep) if entry.strip()]


def search_folders() -> list[Path]:
    """The folders `AMUNRE_PATH` names, in order (an entry that is not a folder is skipped,
    as `PATH` skips one: `amunre variants` reports it)."""
    folders = []
    for entry in search_entries():
        path = Path(entry).expanduser()
        try:
            if path.is_dir():
                folders.append(path)
        except (OSError, ValueError):
            continue
    return folders


def searched_tomls(folder: Path) -> list[Path]:
    """The .toml files of a search folder and of its subfolders one level down (not deeper:
    a folder such as a home directory must not be walked whole)."""
    try:
        return sorted(folder.glob("*.toml")) + sorted(folder.glob("*/*.toml"))
    except OSError:
        return []


def variant_locations() -> list[tuple[str, Path, str]]:
    """(id, file, where) of every variant found, in search order: the `AMUNRE_PATH` folders
    first (where: the folder as written), then the shipped ones (where: "shipped"). An id
    found twice is listed twice; the first is the one used."""
    found = []
    entries = {str(Path(entry).expanduser()): entry for entry in search_entries()}
    with _not_looked_at():  # (see `looked_at`)
        for folder in search_folders():
            for path in searched_tomls(folder):
                vid = _edition_id(path)
                if vid is not None:
                    found.append((vid, path, entries.get(str(folder), str(folder))))
        root = variants_dir()
        for path in _shipped_tomls(root):
            vid = _edition_id(path)
            if vid is not None:
                found.append((vid, path, "shipped"))
    return found


#: The set the current `looked_at` block collects into (None: no block, or one that looks
#: away, `_not_looked_at`). A context variable rather than a thread-local: `amunre serve`
#: runs loads in asyncio tasks and worker threads, and a context variable belongs to the
#: task (or thread) that set it, and follows work handed on with the context (such as
#: `asyncio.to_thread`), where a thread-local would be shared by every task of the loop.
_watched: ContextVar[set[Path] | None] = ContextVar("amunre_looked_at", default=None)


@contextmanager
def looked_at() -> Iterator[set[Path]]:
    """The set of every path the loader looks for (found or not) or reads in this thread or
    asyncio task while the block runs: what a load depended on, so that whoever keeps its
    result knows when it must load again (`amunre serve`'s lobby). A file that was missing
    is in it too: a board or parent made later changes the result. Blocks nest: an outer
    block gets the paths of the blocks inside it too. The files `variant_locations` goes
    through to find the variants' ids are not (an id names the file that list gives it: a
    result of `extends = "id"` depends on that list, which its keeper compares whole)."""
    outer = _watched.get()
    paths: set[Path] = set()
    token = _watched.set(paths)
    try:
        yield paths
    finally:
        _watched.reset(token)
        if outer is not None:
            outer |= paths


@contextmanager
def _not_looked_at() -> Iterator[None]:
    """Paths looked at while this block runs go into no `looked_at` set (see there)."""
    token = _watched.set(None)
    try:
        yield
    finally:
        _watched.reset(token)


def _look(path: Path) -> None:
    paths = _watched.get()
    if paths is not None:
        paths.add(Path(path))


def is_file(path: Path) -> bool:
    """Whether `path` is a regular file; False, not an exception, for a name the system
    refuses (too long, a NUL byte in it)."""
    _look(path)
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def allowed_folders(loaded: Path) -> tuple[Path, ...]:
    """Where the files a variant names (`extends`, `board`) may lie: the folder of the file
    being loaded and below it, or the shipped variants. A variant file is data: it must not
    make the loader read other files of the machine."""
    folders = []
    for folder in (loaded.parent, variants_dir(), *search_folders()):
        try:
            folders.append(folder.resolve())
        except (OSError, RuntimeError):
            continue
    return tuple(folders)


def inside(path: Path, folders: tuple[Path, ...]) -> bool:
    """Whether `path`, its links followed, lies in one of `folders` (or below)."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    return any(real.is_relative_to(folder) for folder in folders)


def exists(path: Path) -> bool:
    """Whether something (a file, a folder, a pipe...) is at `path`, its links followed;
    False, not an exception, for a name the system refuses."""
    _look(path)
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _shipped_tomls(root: Path) -> list[Path]:
    """Every .toml file under `root`, its subfolders included: the top level first, then
    each subfolder (`house/`, ...) in name order."""
    return sorted(root.rglob("*.toml"), key=lambda p: (len(p.relative_to(root).parts), p.as_posix()))


def _edition_id(path: Path) -> str | None:
    """The `[edition] id` of a variant file, None for board files, unreadable files and files
    over `MAX_BYTES`."""
    try:
        if not is_file(path) or path.stat().st_size > MAX_BYTES:
            return None
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    edition = data.get("edition")
    if not isinstance(edition, dict) or "provinces" in data:
        return None
    vid = edition.get("id")
    return vid if isinstance(vid, str) else path.stem


def variant_files(root: Path | None = None) -> list[Path]:
    """Every variant file under `root` (default: the shipped `variants/`): the editions at
    the top and the house rules in `house/`. Board files are left out; a file that does not
    parse is kept, so that whatever runs over the list reports it instead of skipping it."""
    root = variants_dir() if root is None else Path(root)
    files = []
    for path in _shipped_tomls(root):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            files.append(path)
            continue
        if "provinces" not in data:
            files.append(path)
    return files


def available_variants() -> dict[str, Path]:
    """Variant ids -> files: those of the `AMUNRE_PATH` folders first, then the shipped ones
    (editions at the top of `variants/`, house rules in `variants/house/`, any subfolder).
    Board files (no `[edition]` table) are skipped; of an id found twice, the first wins."""
    found: dict[str, Path] = {}
    for vid, path, _ in variant_locations():
        found.setdefault(vid, path)
    return found


def shipped_file(variant_id: str) -> Path | None:
    """The file of a variant id (an `AMUNRE_PATH` folder's first, then a shipped one), None
    when no file has it."""
    if search_entries():
        return available_variants().get(variant_id)
    root = variants_dir()
    # fast path: a file named after its id
    for candidate in (root / f"{variant_id}.toml", root / "house" / f"{variant_id}.toml"):
        if is_file(candidate) and _edition_id(candidate) == variant_id:
            return candidate
    return available_variants().get(variant_id)


#: Most characters of a variant id or path a message shows (a path is shown whole up to this;
#: an id a caller got wrong may be any text, a megabyte of it).
PATH_SHOWN = 1000


def _unknown_message(text: str) -> str:
    shipped = ", ".join(sorted(available_variants())) or "none found"
    return f"unknown variant {shown(text, PATH_SHOWN)} (available: {shipped}; or give a path to a .toml file)"


def resolve_path(id_or_path: str | Path) -> Path:
    """The file for a shipped variant id or a path; `UnknownVariantError` listing the
    available ids otherwise."""
    text = str(id_or_path)
    named = shown(text, PATH_SHOWN)
    if not text.strip():
        raise UnknownVariantError(f"an empty variant name {named} ({_unknown_message(text).partition('(')[2]}")
    path = Path(text)
    if isinstance(id_or_path, Path) or path.suffix == ".toml" or exists(path):
        if exists(path) and path.is_dir():
            raise UnknownVariantError(f"{named} is a directory (expected a variant .toml file or a shipped id)")
        if not is_file(path):
            shipped = ", ".join(sorted(available_variants()))
            what = "does not exist" if not exists(path) else f"is {_kind_of(path)}, not a regular file"
            if not exists(path) and _is_link(path):  # a link whose target is missing, or a loop
                what = _broken_link(path)
            raise UnknownVariantError(
                f"variant file {named} {what} (shipped variants: {shipped})"
            )
        return path
    found = shipped_file(text)
    if found is None:
        raise UnknownVariantError(_unknown_message(text))
    return found


def _kind_of(path: Path) -> str:
    try:
        return file_kind(path.stat().st_mode)
    except (OSError, ValueError):
        return "not a regular file"


def _is_link(path: Path) -> bool:
    try:
        return path.is_symlink()
    except OSError:  # a name too long, say: not a link this can tell of
        return False


def _broken_link(path: Path) -> str:
    """Why a symbolic link leads to no file: a loop, or a target that does not exist."""
    import errno
    import os

    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a symbolic link loop"
    try:
        target = os.readlink(path)
    except OSError:
        return "is a symbolic link to no file"
    return f"is a symbolic link to {target!r}, which does not exist"


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, in a few words (from its `st_mode`)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_text(path: Path, label: str, problems: Problems, what: str, language: str = "TOML",
              limit: int = MAX_BYTES) -> str:
    """The text of a `what` file in `language` (TOML, JSON); a file that cannot be read, is
    not a regular file, is larger than `limit` bytes or is not UTF-8 is reported (the bad
    byte's line) and ends loading at once. What the path is and its size are checked before
    it is opened: a pipe or a device would never end (opening a pipe waits for a writer),
    and a huge file would be read whole."""
    expected = f"expected a {what} .{language.lower()} file"
    _look(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            problems.add(label, 1, (), f"the {what} file is {file_kind(info.st_mode)}, not a regular file",
                         expected)
            raise problems.error()
        _check_size(info.st_size, label, problems, what, limit)
        raw = path.read_bytes()
    except VariantError:  # reported above (a VariantError is a ValueError too: not the NUL below)
        raise
    except OSError as exc:
        problems.add(label, 1, (), f"cannot read the {what} file ({exc.strerror or exc})",
                     f"expected a readable {what} .{language.lower()} file")
        raise problems.error() from None
    except ValueError:  # a NUL character in the name
        problems.add(label, 1, (), f"the {what} file's name holds a NUL character", expected)
        raise problems.error() from None
    _check_size(len(raw), label, problems, what, limit)  # it grew since it was looked at
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        problems.add(label, line, (), f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                     f"expected a {what} file in {language}, which is UTF-8 text")
        raise problems.error() from None


def _check_size(size: int, label: str, problems: Problems, what: str, limit: int) -> None:
    if size > limit:
        problems.add(label, 1, (), f"the {what} file is {size} bytes, too large",
                     f"expected a {what} file of at most {limit} bytes")
        raise problems.error()


def read_toml(path: Path, label: str, problems: Problems, what: str = "variant") -> tuple[dict, dict]:
    """(data, key lines) of a TOML file; a file that cannot be read as TOML ends loading at once."""
    text = read_text(path, label, problems, what)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"line (\d+), column (\d+)", message) or re.search(r"line (\d+)", message)
        line = int(match.group(1)) if match else text.count("\n") + 1
        column = int(match.group(2)) if match and match.re.groups == 2 else None
        problems.add_syntax(label, line, column, message)
        raise problems.error() from None
    except RecursionError:
        too_deep(text, label, problems)
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        digits = re.search(r"[0-9_]{500,}", text)
        line = text.count("\n", 0, digits.start()) + 1 if digits else 1
        problems.add(label, line, (), f"a number too long to read at line {line}",
                     "expected a number of at most a few hundred digits")
        raise problems.error() from None
    if nesting_depth(data) > MAX_DEPTH:
        too_deep(text, label, problems)
    lines = key_lines(text)
    _too_large(data, label, lines, problems)
    return data, lines


def _too_large(data, label: str, lines: dict, problems: Problems) -> None:
    """Report every array longer than MAX_ITEMS and string longer than MAX_STRING, and stop:
    anything that size is a mistake, and merging or checking it would only take long."""
    found = False
    todo = [((), data)]
    while todo:
        path, value = todo.pop()
        line = next((lines[path[:k]] for k in range(len(path), 0, -1) if path[:k] in lines), 1)
        if isinstance(value, str) and len(value) > MAX_STRING:
            problems.add(label, line, path, f"a string of {len(value)} characters, too long",
                         f"expected at most {MAX_STRING}")
            found = True
        elif isinstance(value, list) and len(value) > MAX_ITEMS:
            problems.add(label, line, path, f"{len(value)} items, too many", f"expected at most {MAX_ITEMS}")
            found = True
        elif isinstance(value, dict):
            todo += [(path + (k,), v) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(path + (i,), v) for i, v in enumerate(value)]
    if found:
        raise problems.error()


def nesting_depth(data, limit: int = MAX_DEPTH) -> int:
    """How deep tables and arrays nest in `data`, counted without recursion (the data may be
    deep) and only until the count passes `limit`."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, dict):
            value = list(value.values())
        elif not isinstance(value, list):
            continue
        deepest = max(deepest, depth)
        if depth > limit:
            return depth
        todo += [(v, depth + 1) for v in value]
    return deepest


def too_deep(text: str, label: str, problems: Problems):
    """Report nesting deeper than MAX_DEPTH at the line where it goes too deep, and stop."""
    line = _deep_line(text)
    problems.add(label, line, (),
                 f"nesting too deep at line {line} (more than {MAX_DEPTH} tables or arrays inside each other)",
                 f"expected at most {MAX_DEPTH} levels")
    raise problems.error() from None


def _deep_line(text: str) -> int:
    """The first line where brackets, braces or a dotted key nest deeper than MAX_DEPTH."""
    depth, line, quote, comment = 0, 1, None, False
    for i, c in enumerate(text):
        if c == "\n":
            line, comment = line + 1, False
        if comment:
            continue
        if quote:
            if c == quote and text[i - 1] != "\\":
                quote = None
            continue
        if c in "\"'":
            quote = c
        elif c == "#":
            comment = True
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        if depth > MAX_DEPTH:
            return line
    for number, row in enumerate(text.splitlines(), 1):
        if row.count(".") > MAX_DEPTH:  # a dotted key or header
            return number
    return 1
