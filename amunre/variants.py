"""Load a variant: read TOML, resolve `extends`, validate, and build the typed `Variant`.

(Minimal first version: validation with file:line reporting is being added.)
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import cattrs

from amunre.board import Board, Province
from amunre.errors import UnknownVariantError, VariantError
from amunre.model import Components, Edition, RuleSpec, Rulings, Variant
from amunre.registry import get_rule
from amunre.resources import variants_dir

_converter = cattrs.Converter(forbid_extra_keys=True)


def available_variants() -> dict[str, Path]:
    """Shipped variant ids -> files (editions at the top, house rules in `house/`)."""
    found = {}
    root = variants_dir()
    for path in sorted(root.glob("*.toml")) + sorted(root.glob("house/*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError:
            continue
        edition = data.get("edition")
        if isinstance(edition, dict) and "id" in edition:
            found[edition["id"]] = path
    return found


def resolve_path(id_or_path: str | Path) -> Path:
    text = str(id_or_path)
    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise UnknownVariantError(f"variant file {text!r} does not exist")
        return path
    shipped = available_variants()
    if text in shipped:
        return shipped[text]
    raise UnknownVariantError(
        f"unknown variant {text!r} (available: {', '.join(sorted(shipped))}; or give a path to a .toml file)"
    )


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _read_resolved(path: Path, seen=()) -> dict:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    parent = data.pop("extends", None)
    if parent is None:
        return data
    parent_path = resolve_path(parent) if not (path.parent / str(parent)).is_file() else path.parent / str(parent)
    return _merge(_read_resolved(parent_path, seen + (path,)), data)


def load_board(path: Path) -> Board:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    provinces = tuple(Province(**p) for p in data["provinces"])
    return Board(id=data["id"], name=data.get("name", data["id"]), provinces=provinces, source=str(path))


def _specs(entries: list[dict]) -> tuple[RuleSpec, ...]:
    specs = []
    for entry in entries:
        cls = get_rule(entry["rule"])
        params = _converter.structure(entry.get("params", {}), cls.Params)
        specs.append(RuleSpec(rule=entry["rule"], name=entry.get("name", entry["rule"]), params=params))
    return tuple(specs)


def load_variant(id_or_path: str | Path) -> Variant:
    """A typed Variant from a shipped id or a path to a variant TOML file."""
    path = resolve_path(id_or_path)
    data = _read_resolved(path)
    board_path = path.parent / data["edition"]["board"]
    if not board_path.is_file():
        board_path = variants_dir() / data["edition"]["board"]
    try:
        return Variant(
            edition=_converter.structure(data["edition"], Edition),
            components=_converter.structure(data["components"], Components),
            terms=dict(data.get("terms", {})),
            phases=_specs(data.get("phases", [])),
            scoring=_specs(data.get("scoring", [])),
            final_scoring=_specs(data.get("final_scoring", [])),
            rulings=_converter.structure(data["rulings"], Rulings),
            board=load_board(board_path),
            source=str(path),
            resolved=data,
        )
    except Exception as exc:  # replaced by full validation
        raise VariantError([f"{path}: {exc}"]) from None
