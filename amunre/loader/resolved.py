"""A loaded variant written back as one complete variant file (`amunre show`).

Nothing is left to a default or a parent: `extends` and `[params.<rule id>]` are applied,
every ruling in use and every entry's params are written at their effective values, and
every entry has its id and name. The text loads as a variant file again, with the same
effective rules (a test checks it): it names a shipped board by name, and any other board
relative to the folder of the file it was loaded from, so saved there it loads.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import tomli_w

from amunre.loader.compare import entry_kingdoms, ordered_rulings
from amunre.loader.overrides import option_of
from amunre.loader.pipelines import PIPELINES, entry_id
from amunre.loader.resources import variants_dir
from amunre.loader.schema import json_value


def board_named(variant) -> str:
    """The board as the written file names it: a shipped board by name, another by its path
    relative to the folder of the file the variant was loaded from (a variant file may read
    only files in its own folder tree, so the written file loads when saved in that folder)."""
    name = variant.edition.board
    source = Path(variant.board.source) if getattr(variant.board, "source", "") else None
    shipped = variants_dir() / name
    if source is None or (shipped.is_file() and shipped.resolve() == source.resolve()):
        return name
    return _own_board_path(variant)


def _own_board_path(variant) -> str:
    return Path(os.path.relpath(Path(variant.board.source).resolve(),
                                Path(variant.source).resolve().parent)).as_posix()


def resolved_data(variant) -> dict:
    """The variant as the tables of a complete variant file."""
    edition = json_value(variant.edition)
    edition["board"] = board_named(variant)
    data = {"edition": edition, "components": json_value(variant.components), "terms": dict(variant.terms)}
    for pipeline in PIPELINES:
        specs = iter(getattr(variant, pipeline))

        def entry(raw):
            if isinstance(raw, dict) and isinstance(raw.get("steps"), list):
                gid = entry_id(raw)
                return {"id": gid, "name": raw.get("name", gid), "steps": [entry(step) for step in raw["steps"]]}
            spec = next(specs)  # noqa: B023 - called within this iteration only
            out = {"id": spec.id, "rule": spec.rule, "name": spec.name}
            if spec.kingdoms is not None:  # (only where set: every kingdom is the default)
                out["kingdoms"] = entry_kingdoms(variant, spec)
            return {**out, "params": json_value(spec.params)}

        data[pipeline] = [entry(raw) for raw in variant.resolved.get(pipeline) or []]
    data["rulings"] = json_value(ordered_rulings(variant))
    return data


def _comment(text: str) -> str:
    return "# " + " ".join(str(text).split())


def _or(counts) -> str:
    words = [str(n) for n in counts]
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def resolved_toml(variant, overrides=()) -> str:
    """The complete variant file's text, with a comment saying where it comes from."""
    head = [_comment(f"{variant.id}: {variant.edition.name}"),
            _comment(f"resolved by `amunre show` from {variant.source}"),
            _comment("every default written out: this file loads as a variant on its own")]
    head += [_comment(f"with {option_of(text)} {text}") for text in overrides]
    if board_named(variant) != variant.edition.board or not (variants_dir() / variant.edition.board).is_file():
        head.append(_comment(f"its board is a file of {Path(variant.source).resolve().parent}: save this file "
                             "there, or copy the board beside it"))
    ruled_out = variant.modules.players_ruled_out
    if ruled_out:
        # edition.players stays as written (a ruling may allow more): say what is played
        head.append(_comment(
            f"played by {_or(variant.players)} players: "
            + "; ".join(f"rule module {rule!r} does not allow {n}" for n, rule in sorted(ruled_out.items()))
            + " (see its rulings)"))
    return "\n".join(head) + "\n\n" + _one_line_arrays(tomli_w.dumps(resolved_data(variant)))


# an array of scalars as tomli-w writes it: one item per line, each a whole literal
_ARRAY = re.compile(r"\[\n((?:    [^\s\[{][^\n]*,\n)+)\]")


def _one_line_arrays(text: str) -> str:
    """`bid_spaces = [0, 1, 3]` on one line, as a person writes it."""
    return _ARRAY.sub(lambda m: "[" + ", ".join(line.strip()[:-1] for line in m.group(1).splitlines()) + "]", text)
