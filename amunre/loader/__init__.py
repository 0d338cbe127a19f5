"""Load a variant: read TOML, resolve `extends`, validate, and build the typed `Variant`.

Validation has three layers and reports every problem it finds in one `VariantError`,
each on its own line as `file:line: path.to.key: what is wrong (what was expected)`:

1. shape: the merged data against `schemas/variant.schema.json` (unknown tables and keys,
   missing keys, wrong types);
2. types: cattrs structures `[edition]`, `[components]`, `[rulings]` and every pipeline
   entry's `params` into its rule module's `Params` class, field by field;
3. meaning: rule ids exist and sit in the right list, card kinds are known, the deck can
   deal the starting cards, player counts make sense, the board file exists and is valid,
   and every rule module's own `check(variant)`.

This module runs the steps in order and is the one to import; each step has its own module:
`amunre.loader.files` finds and reads files, `amunre.loader.merge` resolves `extends` and
`[params.<rule id>]`, `amunre.loader.shape` runs layers 1 and 2, `amunre.loader.checks`
layer 3, `amunre.loader.board` loads the board, and `amunre.loader.problems` collects the
problems and words them.
"""

from __future__ import annotations

from pathlib import Path

from amunre.loader.board import board_file, load_board, read_board
from amunre.errors import VariantError
from amunre.model import Components, Edition, RuleSpec, Rulings, Variant
from amunre.registry import all_rules
from amunre.resources import variants_dir
from amunre.loader.checks import MIN_PLAYERS, check_meaning, check_rules
from amunre.loader.files import available_variants, resolve_path, variant_files
from amunre.loader.merge import PIPELINES, resolve_extends
from amunre.loader.problems import Problems, report_at
from amunre.loader.shape import field_names, schema_problems, structure

# what callers import from here, whichever module defines it
__all__ = [
    "MIN_PLAYERS", "PIPELINES", "available_variants", "load_board", "load_variant", "resolve_path",
    "variant_files",
]


def load_variant(id_or_path: str | Path) -> Variant:
    """A typed, validated Variant from a shipped id or a path to a variant TOML file."""
    path = resolve_path(id_or_path)
    problems = Problems()
    data, origins, _chain = resolve_extends(path, str(path), (), problems)
    label = str(path)

    def report(where, what, expected=None):
        report_at(problems, origins, label, where, what, expected, dedupe=True)

    schema_problems("variant", data, report)

    def part(key: str, cls):
        value = data.get(key)
        return structure(value, cls, (key,), report) if isinstance(value, dict) else None

    edition = part("edition", Edition)
    components = part("components", Components)
    rulings = part("rulings", Rulings)
    pipelines: dict[str, tuple | None] = {}
    rules = all_rules()
    for pipeline in PIPELINES:
        entries = data.get(pipeline, [])
        specs = []
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if not isinstance(entry, dict) or not isinstance(entry.get("rule"), str):
                specs = None
                continue
            cls = rules.get(entry["rule"])
            raw = entry.get("params", {})
            params = None
            if cls is not None and isinstance(raw, dict):
                hint = "unknown parameter" if field_names(cls.Params) else f"unknown parameter (rule {entry['rule']!r} takes none)"
                params = structure(raw, cls.Params, (pipeline, i, "params"), report, hint)
            if params is None or specs is None:
                specs = None
                continue
            name = entry.get("name", entry["rule"])
            specs.append(RuleSpec(rule=entry["rule"], name=name if isinstance(name, str) else entry["rule"],
                                  params=params))
        pipelines[pipeline] = tuple(specs) if specs is not None and isinstance(entries, list) else None

    check_meaning(data, report)

    board = None
    board_name = data.get("edition", {}).get("board") if isinstance(data.get("edition"), dict) else None
    if isinstance(board_name, str) and board_name:
        found = origins.find(("edition", "board"))
        defined_in = found[1] if found else path
        board_path = board_file(board_name, defined_in)
        if board_path is None:
            report(("edition", "board"), f"board file {board_name!r} not found",
                   f"expected a file next to {defined_in.name} or a shipped board in {variants_dir()}")
        else:
            board = read_board(board_path, problems)

    terms = data.get("terms", {})
    if problems or None in (edition, components, rulings, board) or None in pipelines.values():
        raise VariantError(problems.lines() or [f"{label}:1: (top level): could not be loaded"])
    variant = Variant(
        edition=edition,
        components=components,
        terms=dict(terms),
        phases=pipelines["phases"],
        scoring=pipelines["scoring"],
        final_scoring=pipelines["final_scoring"],
        rulings=rulings,
        board=board,
        source=str(path),
        resolved=data,
    )
    check_rules(variant, report)
    if problems:
        raise VariantError(problems.lines())
    return variant
