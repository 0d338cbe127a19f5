"""The variants a server offers, and a table's variant kept as it was when the table opened.

The lobby offers the shipped variants and every variant file in the folders `amunre serve`
was given (searched as `AMUNRE_PATH` folders are), each checked by the loader with the
same messages as `amunre validate`: a file with problems is listed with them, and no table
can be opened with it. A table of a shipped variant keeps its id; a table of any other file
keeps that variant resolved (`amunre show`'s text, and its board file's where that is not a
shipped one), so that editing the file later changes no game under way.
"""

from __future__ import annotations

import os
from pathlib import Path

import tomli_w

from amunre.errors import AmunreError

BOARD_NAME = "board.toml"


def offered() -> list[dict]:
    """Every variant the lobby lists: id, name, where it comes from, its player counts, and
    the loader's problems with it (None when it loads)."""
    from amunre.loader import load_variant
    from amunre.loader.files import variant_locations

    seen: set[str] = set()
    out = []
    located = variant_locations()
    for vid, path, where in located:
        if vid in seen:
            continue
        seen.add(vid)
        # (a folder by its name only: the lobby tells nobody where the server's files are)
        entry = {"id": vid, "where": where if where == "shipped" else Path(where).name, "name": vid, "players": [],
                 "problems": None}
        try:
            variant = load_variant(path)
        except AmunreError as exc:
            entry["problems"] = str(exc) if where == "shipped" else _folder_named(str(exc), Path(path).parent)
        else:
            entry["name"], entry["players"] = variant.edition.name, list(variant.players)
        out.append(entry)
    return out + _unreadable(located)


def _unreadable(located) -> list[dict]:
    """The files of the search folders that are not TOML at all (the search passes them by,
    as it passes board files by): listed with what is wrong, rather than not at all."""
    import tomllib

    from amunre.loader import load_variant
    from amunre.loader.files import _searched_tomls, search_folders

    known = {path.resolve() for _, path, _ in located}
    out = []
    for folder in search_folders():
        for path in _searched_tomls(folder):
            if path.resolve() in known:
                continue
            try:
                if "provinces" in tomllib.loads(path.read_text(encoding="utf-8")):
                    continue  # a board file
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                pass
            try:
                load_variant(path)
                continue
            except AmunreError as exc:
                problems = _folder_named(str(exc), folder)
            out.append({"id": path.stem, "where": folder.name, "name": path.name, "players": [], "problems": problems})
    return out


def _folder_named(text: str, folder: Path) -> str:
    """A message with the server's folder written as its name only."""
    for spelling in {str(folder), str(folder.resolve())}:
        text = text.replace(spelling + "/", folder.name + "/")
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
    from amunre.loader.resolved import _board, resolved_data

    if is_shipped(variant):
        return None, None
    data = resolved_data(variant)
    board_text = None
    if _board(variant) != variant.edition.board or not _shipped_board(variant.edition.board):
        board_text = Path(variant.board.source).read_text(encoding="utf-8")
        data["edition"]["board"] = BOARD_NAME
    return tomli_w.dumps(data), board_text


def _shipped_board(name: str) -> bool:
    from amunre.resources import variants_dir

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
