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

Every layer runs whatever the others found: a part that fails to type is replaced by a
stand-in (`amunre.loader.unsettled`) so the modules' checks still run on what is settled.

This module runs the steps in order and is the one to import; each step has its own module:
`amunre.loader.files` finds and reads files, `amunre.loader.merge` resolves `extends` and
`[params.<rule id>]` (`amunre.loader.edits` edits pipeline entries by id),
`amunre.loader.pipelines` types the entries, `amunre.loader.shape` runs layers 1 and 2,
`amunre.loader.rulings` composes `[rulings]` from the modules, `amunre.loader.checks` layer
3, `amunre.loader.board` loads the board, and `amunre.loader.problems` collects the problems
and words them. `amunre.loader.overrides` applies `--set KEY=VALUE` to the merged data, and
`amunre.loader.schema` generates `schemas/variant.schema.json` from the modules.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from amunre.core import arguments
from amunre.core.errors import VariantError  # noqa: F401 - raised from here, imported from here
from amunre.core.model import Components, Edition, Variant
from amunre.core.registry import all_rules
from amunre.loader.board import board_file, load_board, read_board
from amunre.loader.checks import MIN_PLAYERS, card_kinds, check_meaning, check_rules
from amunre.loader.files import allowed_folders, available_variants, inside, resolve_path, variant_files
from amunre.loader.merge import resolve_extends
from amunre.loader.overrides import apply_overrides
from amunre.loader.pipelines import (
    PIPELINES,
    build_specs,
    check_declarations,
    check_ids,
    check_kingdoms,
    rules_used,
)
from amunre.loader.problems import Problems, control_character_problems, report_at
from amunre.loader.resources import variants_dir
from amunre.loader.rulings import compose_rulings, declared_rulings
from amunre.loader.schema import typed_layer_owns
from amunre.loader.shape import schema_problems, structure
from amunre.loader.unread import unread_parameters
from amunre.loader.unsettled import Undecided, Unsettled, settle

# what callers import from here, whichever module defines it
__all__ = [
    "MIN_PLAYERS", "PIPELINES", "available_variants", "load_board", "load_variant", "resolve_path",
    "variant_files",
]


def as_variant(variant: object, overrides: Sequence[str] = ()) -> Variant:
    """`variant` as a `Variant`: one already loaded, or a variant id or file path, loaded (with
    `overrides`, checked texts: `amunre.core.arguments.overrides`): what the faces that take
    either (the PettingZoo environment, compare's jobs) accept."""
    if isinstance(variant, Variant):
        if overrides:
            raise arguments.wrong_value("overrides", overrides, "none for a loaded Variant",
                                        "overrides apply to a variant named by id or path")
        return variant
    if isinstance(variant, (str, os.PathLike)):
        return load_variant(variant, overrides)
    raise arguments.wrong_type("variant", variant, "a variant id, a variant file's path or a loaded Variant")


def load_variant(id_or_path: str | os.PathLike[str], overrides: Sequence[str] = ()) -> Variant:
    """A typed, validated Variant from a shipped id or a path to a variant TOML file;
    `overrides` are `KEY=VALUE` texts (`--set`, see `amunre.loader.overrides`) laid over
    the merged file before it is checked. A wrong argument is an `ArgumentTypeError` or
    `ArgumentValueError` (`amunre.core.arguments`), a file or an override that makes no valid
    variant a `VariantError`, an id or path that leads to no file an `UnknownVariantError`."""
    overrides = arguments.overrides(overrides)
    path = resolve_path(_id_or_path(id_or_path))
    problems = Problems()
    data, origins, _chain = resolve_extends(path, str(path), (), problems)
    label = str(path)
    dropped: set = set()  # rule modules a `--set` took out of the pipelines
    if overrides:
        before = rules_used(data)
        data = apply_overrides(overrides, data, origins, problems)
        dropped = before - rules_used(data)

    def report(where, what, expected=None):
        report_at(problems, origins, label, where, what, expected, dedupe=True)

    def closeness(key: tuple) -> int:
        """0: a `--set` (or `--sweep`) argument wrote it, 1: the file being loaded, 2: a parent."""
        written_by = (origins.find(key) or ("",))[0]
        return 0 if written_by in problems.arguments else 1 if written_by == label else 2

    if problems.orphaned:
        # its parent was not found: the keys it lacks may be the parent's, and a rule's checks
        # need the merged pipeline; its unknown keys, wrong types and values are its own
        control_character_problems(data, report)
        check_kingdoms(data, report, closeness)
        schema_problems("variant", data, lambda where, what, expected=None:
                        None if what == "missing" or typed_layer_owns(where) else report(where, what, expected))
        raise problems.error(fallback=label)
    control_character_problems(data, report)
    # before the shape layer: at an entry's `kingdoms` its words say more than the schema's
    check_kingdoms(data, report, closeness)
    # inside [rulings] and params the typed layer knows the modules in use (plug-ins too)
    schema_problems("variant", data, lambda where, what, expected=None:
                    None if typed_layer_owns(where) else report(where, what, expected))

    def part(key: str, cls):
        value = data.get(key)
        if not isinstance(value, dict):
            return Unsettled(key)  # the schema reports it
        return structure(value, cls, (key,), report) or settle(value, cls, key)

    edition = part("edition", Edition)
    components = part("components", Components)
    rules = all_rules()

    check_ids(data, report, closeness, rules)
    check_declarations(data, report, rules)
    pipelines = {pipeline: build_specs(data, pipeline, rules, report) for pipeline in PIPELINES}
    used = rules_used(data)

    owners = declared_rulings(rules)

    def set_here(key: str) -> bool:
        # a ruling of a module a `--set` dropped goes with it, as one inherited from a parent
        found = origins.find(("rulings", key))
        if found is None or key not in owners:
            return False
        return found[0] in problems.arguments or (found[0] == label and owners[key][1] not in dropped)

    rulings = compose_rulings(data, used, rules, set_here, report)

    check_meaning(data, report, closeness)

    board = None
    board_name = data.get("edition", {}).get("board") if isinstance(data.get("edition"), dict) else None
    if isinstance(board_name, str) and board_name:
        found = origins.find(("edition", "board"))
        defined_in = found[1] if found and found[1] else path  # a --set board is looked for next to the file
        board_path = board_file(board_name, defined_in) if board_name.endswith(".toml") else None
        if not board_name.endswith(".toml"):
            # a variant file is data: it names a board file, never any other file to read
            report(("edition", "board"), f"{board_name!r} is not a .toml board file",
                   f"expected a board .toml file next to {defined_in.name} or a shipped board in {variants_dir()}")
        elif Path(board_name).is_absolute():
            report(("edition", "board"), f"{board_name!r} is an absolute path",
                   f"expected a board file relative to {defined_in.name}")
        elif board_path is None:
            report(("edition", "board"), f"board file {board_name!r} not found",
                   f"expected a file next to {defined_in.name} or a shipped board in {variants_dir()}")
        elif not inside(board_path, allowed_folders(path)):
            # a variant file is data: it may read only files in its own folder tree
            report(("edition", "board"), f"{board_name!r} lies outside the folder of the variant being loaded",
                   f"expected a board file in {allowed_folders(path)[0]} or below, or a shipped board")
        else:
            board = read_board(board_path, problems)

    terms = data.get("terms", {})
    settled = not problems
    # built even when a problem is known, from stand-ins for what failed, so that the rule
    # modules' own checks report beside the other problems (see amunre.loader.unsettled)
    variant = Variant(
        edition=edition,
        components=components,
        terms=dict(terms) if isinstance(terms, dict) else {},
        phases=pipelines["phases"],
        scoring=pipelines["scoring"],
        final_scoring=pipelines["final_scoring"],
        rulings=rulings if rulings is not None else Unsettled("rulings"),
        board=board if board is not None else Unsettled("board"),
        cards=_card_kinds(components, [rules[r] for r in sorted(used) if r in rules]),
        source=str(path),
        resolved=data,
    )

    check_rules(variant, report, closeness, settled)
    if problems or not settled:
        raise problems.error(fallback=label)
    unread = unread_parameters(data, origins, rulings, rules,
                               lambda written_by: written_by == label or written_by in problems.arguments)
    return attrs.evolve(variant, warnings=tuple(unread)) if unread else variant


def _id_or_path(value: object) -> str | Path:
    """`load_variant`'s first argument, checked: a str, or a path (any os.PathLike) as a Path,
    which is always taken as a file, never as a shipped id."""
    if isinstance(value, os.PathLike) and not isinstance(value, Path):
        named = os.fspath(value)
        value = Path(named) if isinstance(named, str) else named
    if not isinstance(value, (str, Path)):
        raise arguments.wrong_type("id_or_path", value, "a shipped variant id or a variant file's path (a str "
                                   "or an os.PathLike)")
    return value


def _card_kinds(components, modules):
    try:
        return card_kinds(components, modules)
    except Undecided:
        return Unsettled("cards")
