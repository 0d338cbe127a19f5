"""Find the data shipped with the package: variant files, board files and JSON schemas.

In a source checkout they live in the top-level `variants/` and `schemas/` folders; after
`pip install .` the same folders are installed as `amunre.variants` and `amunre.schemas`.
"""

from __future__ import annotations

import importlib.resources
import json
from functools import cache
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _folder(package: str, source_name: str) -> Path:
    try:
        found = importlib.resources.files(package)
        path = Path(str(found))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _SOURCE_ROOT / source_name


def variants_dir() -> Path:
    """The folder holding the shipped variant files (editions, `house/`, boards)."""
    return _folder("amunre.variants", "variants")


def schemas_dir() -> Path:
    """The folder holding the shipped JSON schemas."""
    return _folder("amunre.schemas", "schemas")


@cache
def load_schema(name: str) -> dict:
    """A shipped JSON schema by file stem, e.g. `load_schema("variant")`."""
    return json.loads((schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))
