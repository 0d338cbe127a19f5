"""Load a board file: the provinces a variant names in `edition.board`.

A board is checked like a variant file, against `schemas/board.schema.json` and then
province by province: numbers within their printed ranges (`board.RANGES`), `provisional`
naming real province fields, every name once. Its problems join those of the variant that
names it, so one `VariantError` lists them all.
"""

from __future__ import annotations

from pathlib import Path

from amunre.core.board import PROVINCE_FIELDS, RANGES, Board, Province
from amunre.loader.files import exists, is_file, read_toml
from amunre.loader.problems import Origins, Problems, control_character_problems, did_you_mean, one_of, report_at
from amunre.loader.resources import variants_dir
from amunre.loader.shape import schema_problems, structure


def load_board(path: str | Path) -> Board:
    """A validated `Board` from a board TOML file; `VariantError` listing every problem."""
    problems = Problems()
    board = read_board(Path(path), problems)
    if problems or board is None:
        raise problems.error()
    return board


def read_board(path: Path, problems: Problems) -> Board | None:
    """The `Board` of a board file, or None after adding its problems to `problems`."""
    label = str(path)
    known = len(problems.items)  # the variant's own problems may be there already
    if label not in problems.files:
        problems.files.append(label)
    data, lines = read_toml(path, label, problems, what="board")
    origins = Origins({p: (label, path, line) for p, line in lines.items()})

    def report(where, what, expected=None):
        report_at(problems, origins, label, where, what, expected, dedupe=True)

    control_character_problems(data, report)
    schema_problems("board", data, report)
    provinces = data.get("provinces")
    built: list[Province] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(provinces if isinstance(provinces, list) else []):
        if not isinstance(raw, dict):
            continue
        at = ("provinces", i)
        name = raw.get("name")
        for field, (low, high) in RANGES.items():
            value = raw.get(field, 0)
            if type(value) is int and not low <= value <= high:
                report(at + (field,), f"{value} is out of range for {name}", f"expected {low} to {high}")
        provisional = raw.get("provisional", [])
        for k, field in enumerate(provisional if isinstance(provisional, list) else []):
            if isinstance(field, str) and field not in PROVINCE_FIELDS:
                report(at + ("provisional", k), f"{field!r} is not a province field",
                       did_you_mean(field, PROVINCE_FIELDS) + one_of(PROVINCE_FIELDS))
        if isinstance(name, str):
            key = name.strip().lower()
            if key in seen:
                report(at + ("name",), f"{name!r} is already the name of provinces[{seen[key]}]",
                       "expected every province name once")
            else:
                seen[key] = i
        province = structure(raw, Province, at, report)
        if province is not None:
            built.append(province)
    if len(problems.items) > known:
        return None
    return Board(id=data["id"], name=data.get("name", data["id"]), provinces=tuple(built), source=str(path))


def board_file(name: str, defined_in: Path) -> Path | None:
    """The board file `name`: next to the file that names it, else a shipped one. Whatever
    lies next to the file under that name is its board, even a folder or a pipe (reading it
    then says what it is): never the shipped board of the same name in its place."""
    here = defined_in.parent / name
    if exists(here):
        return here
    shipped = variants_dir() / name
    return shipped if is_file(shipped) else None
