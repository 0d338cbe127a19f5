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
    for vid, path, where in variant_locations():
        if vid in seen:
            continue
        seen.add(vid)
        entry = {"id": vid, "where": where, "name": vid, "players": [], "problems": None}
        try:
            variant = load_variant(path)
        except AmunreError as exc:
            entry["problems"] = str(exc)
        else:
            entry["name"], entry["players"] = variant.edition.name, list(variant.players)
        out.append(entry)
    return out


def is_shipped(variant) -> bool:
    from amunre.gamelog.write import variant_file_of

    return variant_file_of(variant) == ""


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
        return load_variant(record.variant_id)
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
