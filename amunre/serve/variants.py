"""The variants a server offers, and a table's variant kept as it was when the table opened.

The lobby offers the shipped variants and every variant file in the folders `amunre serve`
was given (searched as `AMUNRE_PATH` folders are), each checked by the loader with the
same messages as `amunre validate`: a file with problems is listed with them, and no table
can be opened with it (the list is kept, and a file loaded again only once it or a file it
depends on changed: `Offered`). A table of a shipped variant keeps its id; a table of any other file
keeps that variant resolved (`amunre show`'s text, and its board file's where that is not a
shipped one), so that editing the file later changes no game under way.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import tomli_w

from amunre.core.errors import AmunreError

BOARD_NAME = "board.toml"


class Offered:
    """The list the lobby offers, kept between calls: a file is loaded again only when it,
    or a file its load looked at (the files it extends, its board, and those it looked for
    and did not find), changed its size, times or inode, or when the files found in the
    folders changed (a file added, removed or renamed, an id changed: `extends = "id"` may
    then name another file). Loading every file took seconds on a busy machine; a `stat` of
    each file it depends on takes microseconds. Calls from several threads take turns
(`lock`: the one every load of the server takes, as the loader keeps caches of its own)."""

    def __init__(self, lock: threading.Lock | None = None):
        self._kept: dict[Path, tuple[tuple, tuple]] = {}  # file -> (key, (name, players, problems))
        self._lock = lock or threading.Lock()

    def __call__(self) -> list[dict]:
        with self._lock:
            return self._offered()

    def _offered(self) -> list[dict]:
        from amunre.loader.files import variant_locations

        seen: set[str] = set()
        out = []
        located = variant_locations()
        found = tuple((vid, str(path)) for vid, path, _ in located)
        used: set[Path] = set()
        for vid, path, where in located:
            if vid in seen:
                continue
            seen.add(vid)
            # (a folder by its name only: the lobby tells nobody where the server's files are)
            entry = {"id": vid, "where": where if where == "shipped" else Path(where).name, "name": vid, "players": [],
                     "problems": None}
            name, players, problems = self._checked(path, found, used)
            if problems is None:
                entry["name"], entry["players"] = name, players
            else:
                entry["problems"] = problems
            out.append(entry)
        out += self._unreadable(located, found, used)
        self._kept = {path: kept for path, kept in self._kept.items() if path in used}  # (files gone: forgotten)
        return out

    def _checked(self, path: Path, found: tuple, used: set[Path]) -> tuple:
        """(name, player counts, None) of a file that loads, else (None, [], its problems,
        the server's folders named by their names only); loaded again only when what it
        depends on changed."""
        from amunre.loader import load_variant
        from amunre.loader.files import looked_at

        used.add(path)
        kept = self._kept.get(path)
        if kept is not None:
            (then, stamps), result = kept
            if then == found and _stamps(Path(name) for name, _ in stamps) == stamps:
                return result
        with looked_at() as looked:
            try:
                variant = load_variant(path)
            except AmunreError as exc:
                result = (None, [], shown_problems(str(exc)))
            else:
                result = (variant.edition.name, list(variant.players), None)
        self._kept[path] = ((found, _stamps(looked | {Path(path)})), result)
        return result

    def _unreadable(self, located, found: tuple, used: set[Path]) -> list[dict]:
        """The files of the search folders that are not TOML at all (the search passes them
        by, as it passes board files by): listed with what is wrong, rather than not at all."""
        import tomllib

        from amunre.loader.files import search_folders, searched_tomls

        known = {path.resolve() for _, path, _ in located}
        out = []
        for folder in search_folders():
            for path in searched_tomls(folder):
                if path.resolve() in known:
                    continue
                try:
                    if "provinces" in tomllib.loads(path.read_text(encoding="utf-8")):
                        continue  # a board file
                except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                    pass
                _, _, problems = self._checked(path, found, used)
                if problems is not None:
                    out.append({"id": path.stem, "where": folder.name, "name": path.name, "players": [],
                                "problems": problems})
        return out


def _stamps(paths) -> tuple[tuple[str, tuple | None], ...]:
    """What tells whether files changed: (path, (inode, size, modified, changed) or None when
    there is nothing there), sorted."""
    stamps = []
    for path in sorted(paths, key=str):
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            stamps.append((str(path), None))
        else:
            stamps.append((str(path), (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)))
    return tuple(stamps)


def shown_problems(text: str) -> str:
    """A loader's message as the lobby and the server's refusals show it: every folder of
    variant files written as its name only (`rules/broken.toml`, `variants/classic2003.toml`),
    never as the path on the server's disk."""
    from amunre.loader.files import search_folders
    from amunre.loader.resources import variants_dir

    spellings = {}
    for folder in [variants_dir(), *search_folders()]:
        for spelling in {str(folder), str(folder.resolve())}:
            spellings.setdefault(spelling, folder.name)
    for spelling in sorted(spellings, key=len, reverse=True):  # (a folder inside another: the inner first)
        text = re.sub(re.escape(spelling) + r"(?![\w.-])", lambda _, name=spellings[spelling]: name, text)
    return text


def shipped_path(variant_id: str) -> Path | None:
    """The shipped file of a variant id (not one of a folder the server was given)."""
    from amunre.loader.files import variant_locations

    return next((path for vid, path, where in variant_locations() if where == "shipped" and vid == variant_id), None)


def is_shipped(variant) -> bool:
    """Whether `variant` was loaded from the shipped file of its id."""
    found = shipped_path(variant.id)
    if found is None or not variant.source:
        return False
    try:
        return Path(variant.source).resolve() == found.resolve()
    except (OSError, RuntimeError):
        return False


def freeze(variant) -> tuple[str | None, str | None]:
    """(variant text, board text) a table keeps: (None, None) for a shipped variant."""
    from amunre.loader.resolved import board_named, resolved_data

    if is_shipped(variant):
        return None, None
    data = resolved_data(variant)
    board_text = None
    if board_named(variant) != variant.edition.board or not _shipped_board(variant.edition.board):
        board_text = Path(variant.board.source).read_text(encoding="utf-8")
        data["edition"]["board"] = BOARD_NAME
    return tomli_w.dumps(data), board_text


def _shipped_board(name: str) -> bool:
    from amunre.loader.resources import variants_dir

    return (variants_dir() / name).is_file()


def thaw(record, folder: Path):
    """The variant of a stored table: a shipped one by its id, else its kept text written to
    `folder/<table id>/` and loaded from there."""
    from amunre.loader import load_variant

    if record.variant_text is None:
        found = shipped_path(record.variant_id)
        if found is None:
            raise AmunreError(f"no shipped variant {record.variant_id!r} any more")
        return load_variant(found)
    home = folder / record.id
    home.mkdir(parents=True, exist_ok=True)
    path = home / "variant.toml"
    _write(path, record.variant_text)
    if record.board_text is not None:
        _write(home / BOARD_NAME, record.board_text)
    return load_variant(path)


def _write(path: Path, text: str) -> None:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    partial = path.with_suffix(".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
