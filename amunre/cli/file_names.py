"""How a command names the files it read: as the user named them.

A shipped variant is named by its id (`classic2003`), never by the place pip put it (a long
site-packages path that differs from machine to machine); a file the user gave by path is
named by that path, as given. A board file is named as it lies next to its variant: the
shipped `board.toml`, or its path beside the user's own variant file.
"""

from __future__ import annotations

import os
from pathlib import Path

from amunre.loader.resources import shipped_name as _shipped_name
from amunre.loader.resources import variants_dir


def is_shipped_id(variant, given: str) -> bool:
    """Whether the user named a shipped variant by its id (not by a path to a file)."""
    return given == variant.id and not Path(given).suffix == ".toml" and _shipped_name(variant.source) is not None


def variant_shown(variant, given: str) -> str:
    """The variant as the user named it: its id, or the path given on the command line."""
    return variant.id if is_shipped_id(variant, given) or not given else given


def board_shown(variant, given: str) -> str:
    """The board file of `variant`: `shipped board.toml` for a shipped board, else its path
    as seen from where the user named the variant (absolute only if that was absolute)."""
    source = variant.board.source
    shipped = _shipped_name(source)
    if shipped is not None and is_shipped_id(variant, given):
        return f"shipped {shipped}"
    if Path(given).is_absolute():
        return str(Path(source).resolve())
    try:
        return os.path.relpath(source)
    except ValueError:  # another drive (Windows)
        return str(source)


def problem_shown(text: str) -> str:
    """A problem line with the shipped variants folder left out of its file names."""
    root = str(variants_dir())
    return text.replace(root + os.sep, "").replace(root, "variants")
