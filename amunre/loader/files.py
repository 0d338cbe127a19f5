"""Find variant files and read them.

Shipped variants live in `variants/` (the editions) and `variants/house/` (house rules);
a variant is named by its `[edition] id` or by the path to its file. Board files sit in
the same folders and are told apart by their `[[provinces]]`. `read_toml` reads one file
together with the line of every key, so that problems can point at it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from amunre.errors import UnknownVariantError, VariantError
from amunre.resources import variants_dir
from amunre.loader.tomlpos import key_lines
from amunre.loader.problems import Problems


def _edition_id(path: Path) -> str | None:
    """The `[edition] id` of a variant file, None for board files and unreadable files."""
    try:
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
    for path in sorted(root.glob("*.toml")) + sorted(root.glob("house/*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            files.append(path)
            continue
        if "provinces" not in data:
            files.append(path)
    return files


def available_variants() -> dict[str, Path]:
    """Shipped variant ids -> files: editions at the top of `variants/`, house rules in
    `variants/house/`. Board files (no `[edition]` table) are skipped."""
    found: dict[str, Path] = {}
    root = variants_dir()
    for path in sorted(root.glob("*.toml")) + sorted(root.glob("house/*.toml")):
        vid = _edition_id(path)
        if vid is not None:
            found.setdefault(vid, path)
    return found


def shipped_file(variant_id: str) -> Path | None:
    """The file of a shipped variant id, None when no shipped file has it."""
    root = variants_dir()
    # fast path: a file named after its id
    for candidate in (root / f"{variant_id}.toml", root / "house" / f"{variant_id}.toml"):
        if candidate.is_file() and _edition_id(candidate) == variant_id:
            return candidate
    return available_variants().get(variant_id)


def _unknown_message(text: str) -> str:
    shipped = ", ".join(sorted(available_variants())) or "none found"
    return f"unknown variant {text!r} (available: {shipped}; or give a path to a .toml file)"


def resolve_path(id_or_path: str | Path) -> Path:
    """The file for a shipped variant id or a path; `UnknownVariantError` listing the
    available ids otherwise."""
    text = str(id_or_path)
    path = Path(text)
    if isinstance(id_or_path, Path) or path.suffix == ".toml" or path.exists():
        if not path.is_file():
            shipped = ", ".join(sorted(available_variants()))
            raise UnknownVariantError(
                f"variant file {text!r} does not exist (shipped variants: {shipped})"
            )
        return path
    found = shipped_file(text)
    if found is None:
        raise UnknownVariantError(_unknown_message(text))
    return found


def read_toml(path: Path, label: str, problems: Problems, what: str = "variant") -> tuple[dict, dict]:
    """(data, key lines) of a TOML file; a syntax error ends loading at once."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(label, 1, (), f"cannot read the {what} file ({exc.__class__.__name__}: {exc})")
        raise VariantError(problems.lines()) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"line (\d+)", message)
        line = int(match.group(1)) if match else text.count("\n") + 1
        problems.items.append((label, line, ("", len(problems.items)), f"{label}:{line}: TOML syntax error: {message}"))
        raise VariantError(problems.lines()) from None
    return data, key_lines(text)
