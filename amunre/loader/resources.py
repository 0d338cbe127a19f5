"""Find the data shipped with the package: variant files, board files and JSON schemas.

In a source checkout they live in the top-level `variants/` and `schemas/` folders; after
`pip install .` the same folders are installed inside the package as the data packages
`amunre._variants` and `amunre._schemas` (see pyproject.toml).
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import os

_SOURCE_ROOT = Path(__file__).resolve().parents[2]


def _folder(package: str, source_name: str) -> Path:
    # An installed data folder has no __init__.py: it is a namespace package, whose
    # search locations name the folder itself.
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location)
        if path.is_dir():
            return path
    return _SOURCE_ROOT / source_name


def variants_dir() -> Path:
    """The folder holding the shipped variant files (editions, `house/`, boards)."""
    return _folder("amunre._variants", "variants")


def shipped_name(path: str | os.PathLike[str]) -> str | None:
    """`path` relative to the shipped variants folder (`board.toml`, `house/x.toml`), or None
    when it lies elsewhere: a shipped file is named so, not by where pip put it."""
    try:
        return Path(path).resolve().relative_to(variants_dir().resolve()).as_posix()
    except (ValueError, OSError):
        return None


def schemas_dir() -> Path:
    """The folder holding the shipped JSON schemas."""
    return _folder("amunre._schemas", "schemas")


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A shipped JSON schema by file stem, e.g. `load_schema("variant")`."""
    schema: dict[str, Any] = json.loads((schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))
    return schema
