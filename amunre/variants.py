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

Lines come from `amunre.tomlpos`; a key set by a file that `extends` another is reported
in that file, a key it inherits in the file it was inherited from.

`extends = "classic2003"` (a shipped id) or `extends = "../my.toml"` (a path relative to the
file) starts from another variant: tables merge key by key, arrays (pipelines included)
are replaced whole. `[params.<rule id>]` changes single parameters of every pipeline entry
that uses that rule, without copying the pipeline.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import attrs
import cattrs
from cattrs.errors import (
    BaseValidationError, ClassValidationError, ForbiddenExtraKeysError, IterableValidationError,
)

from amunre.board import PROVINCE_FIELDS, RANGES, Board, Province
from amunre.errors import UnknownVariantError, VariantError
from amunre.model import CARD_KINDS, Components, Edition, RuleSpec, Rulings, Variant
from amunre.rules.base import ROUND_MUST_PROVIDE
from amunre.registry import all_rules
from amunre.resources import load_schema, variants_dir
from amunre.tomlpos import format_path, key_lines

#: The pipelines of a variant file, by the rule kind each accepts.
PIPELINES = {"phases": "phase", "scoring": "scoring", "final_scoring": "final_scoring"}
#: Fewest players a variant may allow (the rulebooks say 3-5; 2 still plays).
MIN_PLAYERS = 2


# --------------------------------------------------------------------------------------
# Finding variant files


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


def _shipped(variant_id: str) -> Path | None:
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
    found = _shipped(text)
    if found is None:
        raise UnknownVariantError(_unknown_message(text))
    return found


# --------------------------------------------------------------------------------------
# Problems and where they are


@attrs.define
class _Problems:
    """Problems collected while loading, each with a file, a line and a key path."""

    items: list = attrs.field(factory=list)  # (file, line, order, text)
    paths: set = attrs.field(factory=set)  # (file, key path) already reported
    files: list = attrs.field(factory=list)  # files in reporting order (the variant first)

    def add(self, file: str, line: int | None, path: tuple, what: str, expected: str | None = None,
            shown: tuple | None = None) -> None:
        shown = path if shown is None else shown
        where = format_path(shown) or "(top level)"
        text = f"{file}:{line or 1}: {where}: {what}"
        if expected:
            text += f" ({expected})"
        self.items.append((file, line or 1, (where, len(self.items)), text))
        self.paths.add((file, tuple(path)))

    def reported(self, file: str, path: tuple) -> bool:
        """Whether this path, or one of its parents, already has a problem."""
        path = tuple(path)
        return any((file, path[:k]) in self.paths for k in range(len(path) + 1))

    def lines(self) -> list[str]:
        seen, out = set(), []
        def rank(file):
            return (self.files.index(file), "") if file in self.files else (len(self.files), file)

        for _, _, _, text in sorted(self.items, key=lambda item: (rank(item[0]), item[1], item[2])):
            if text not in seen:
                seen.add(text)
                out.append(text)
        return out

    def __bool__(self) -> bool:
        return bool(self.items)


@attrs.define
class _Origins:
    """For each key path of the merged data: the file that sets it and the line.

    `shown` renames a path in messages (a `[params.rule]` override applied to a pipeline
    entry is reported under the name the author wrote)."""

    at: dict = attrs.field(factory=dict)  # key path -> (file label, path, line)
    shown: dict = attrs.field(factory=dict)

    def find(self, path: tuple):
        """(file label, file path, line, shown path) for the nearest written parent of `path`."""
        path = tuple(path)
        for k in range(len(path), -1, -1):
            hit = self.at.get(path[:k])
            if hit is not None:
                label, file, line = hit
                shown = self.shown.get(path[:k])
                if shown is not None:
                    shown = shown + path[k:]
                return label, file, line, shown
        return None


def _report(problems: _Problems, origins: _Origins, fallback: str, path: tuple, what: str,
            expected: str | None = None, dedupe: bool = False) -> None:
    found = origins.find(path)
    label, line, shown = (found[0], found[2], found[3]) if found else (fallback, 1, None)
    if dedupe and problems.reported(label, path):
        return
    problems.add(label, line, path, what, expected, shown)


# --------------------------------------------------------------------------------------
# Describing values and expectations


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "an array"
    return repr(value)


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


def _got(value: Any) -> str:
    if isinstance(value, (dict, list, tuple)):
        return f"got {_kind_of(value)}"
    return f"got {_show(value)}, {_kind_of(value)}"


_TYPE_WORDS = {
    "integer": "an integer", "string": "a string", "boolean": "true or false", "object": "a table",
    "array": "an array", "number": "a number",
}


def _expected(schema: dict) -> str:
    if "enum" in schema:
        return "one of: " + ", ".join(_show(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items", {})
        inner = _expected(items) if items.get("type") or items.get("enum") else ""
        if items.get("type") == "object" or "$ref" in items:
            return "an array of tables"
        return f"an array of {_plural(inner)}" if inner else "an array"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        inner = _expected(schema["additionalProperties"])
        return f"a table of {_plural(inner)}" if inner else "a table"
    text = _TYPE_WORDS.get(kind, "a value") if isinstance(kind, str) else "a value"
    if "minimum" in schema:
        text += f" >= {schema['minimum']}"
    return text


def _plural(text: str) -> str:
    for one, many in (("an integer", "integers"), ("a string", "strings"), ("a table", "tables"),
                      ("true or false", "booleans"), ("a number", "numbers"), ("an array", "arrays")):
        if text.startswith(one):
            return many + text[len(one):]
    return text


def _one_of(names) -> str:
    names = sorted(names)
    return "expected one of: " + ", ".join(names) if names else "expected nothing here"


def _did_you_mean(word: str, names) -> str:
    close = difflib.get_close_matches(str(word), sorted(names), n=1)
    return f"did you mean {close[0]!r}? " if close else ""


# --------------------------------------------------------------------------------------
# Layer 1: JSON Schema


_validators: dict[str, Any] = {}


def _validator(name: str):
    if name not in _validators:
        import jsonschema

        schema = load_schema(name)
        cls = jsonschema.validators.validator_for(schema)
        _validators[name] = cls(schema)
    return _validators[name]


def _schema_problems(name: str, data: dict, report) -> None:
    """Report every schema violation of `data` through `report(path, what, expected)`."""
    for error in _validator(name).iter_errors(data):
        path = tuple(error.absolute_path)
        schema, value, kw = error.schema, error.instance, error.validator
        if kw == "additionalProperties":
            allowed = schema.get("properties", {})
            for key in value:
                if key not in allowed:
                    noun = "unknown table" if isinstance(value[key], dict) else "unknown key"
                    report(path + (key,), noun, _did_you_mean(key, allowed) + _one_of(allowed))
        elif kw == "required":
            props = schema.get("properties", {})
            for key in error.validator_value:
                if key not in value:
                    report(path + (key,), "missing", f"expected {_expected(props.get(key, {}))}")
        elif kw == "type":
            report(path, f"wrong type: {_got(value)}", f"expected {_expected(schema)}")
        elif kw == "enum":
            report(path, f"{_show(value)} is not allowed", f"expected {_expected(schema)}")
        elif kw == "minimum":
            report(path, f"{_show(value)} is too small", f"expected at least {error.validator_value}")
        elif kw == "maximum":
            report(path, f"{_show(value)} is too large", f"expected at most {error.validator_value}")
        elif kw == "minItems":
            report(path, "too few items", f"expected at least {error.validator_value}")
        elif kw == "minLength":
            report(path, "empty", "expected a non-empty string")
        elif kw == "uniqueItems":
            report(path, "has repeated items", "expected each item once")
        elif kw == "pattern":
            report(path, f"{_show(value)} has characters that are not allowed",
                   f"expected it to match {error.validator_value}")
        else:
            report(path, error.message, None)


# --------------------------------------------------------------------------------------
# Layer 2: cattrs


class _WrongValue(TypeError):
    """A strict structure hook rejected a value."""

    def __init__(self, what: str, expected: str):
        super().__init__(f"{what} ({expected})")
        self.what, self.expected = what, expected


def _strict(check, expected: str):
    def hook(value, _type):
        if not check(value):
            raise _WrongValue(f"wrong type: {_got(value)}", f"expected {expected}")
        return value

    return hook


def _make_converter() -> cattrs.Converter:
    base = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    base.register_structure_hook(int, _strict(lambda v: type(v) is int, "an integer"))
    base.register_structure_hook(bool, _strict(lambda v: type(v) is bool, "true or false"))
    base.register_structure_hook(str, _strict(lambda v: type(v) is str, "a string"))
    base.register_structure_hook(
        float, lambda v, _t: float(_strict(lambda x: type(x) in (int, float), "a number")(v, _t))
    )

    def origin(t):
        return getattr(t, "__origin__", None)

    def guard(container: type, expected: str):
        def factory(t):
            inner = base.get_structure_hook(t)

            def hook(value, _type):
                if not isinstance(value, container):
                    raise _WrongValue(f"wrong type: {_got(value)}", f"expected {expected}")
                return inner(value, _type)

            return hook

        return factory

    conv = base.copy()
    conv.register_structure_hook_factory(
        lambda t: origin(t) in (tuple, list, set, frozenset), guard((list, tuple), "an array")
    )
    conv.register_structure_hook_factory(lambda t: origin(t) is dict, guard(dict, "a table"))
    return conv


_converter = _make_converter()


def _type_word(t) -> str:
    word = {int: "an integer", str: "a string", bool: "true or false", float: "a number"}.get(t)
    if word:
        return word
    if origin := getattr(t, "__origin__", None):
        return "a table" if origin is dict else "an array"
    return "a value"


def _field_names(cls) -> list[str]:
    try:
        return [f.name for f in attrs.fields(cls)]
    except (TypeError, attrs.exceptions.NotAnAttrsClassError):
        return []


def _cattrs_problems(exc: BaseException, path: tuple, cls, extra_hint: str = ""):
    """(path, what, expected) for every leaf of a cattrs detailed-validation error."""
    if isinstance(exc, IterableValidationError):
        with_notes, without = exc.group_exceptions()
        for sub, note in with_notes:
            yield from _leaf(sub, path + (note.index,), note.type, cls)
        for sub in without:
            yield from _leaf(sub, path, None, cls)
    elif isinstance(exc, ClassValidationError):
        with_notes, without = exc.group_exceptions()
        for sub, note in with_notes:
            yield from _leaf(sub, path + (note.name,), note.type, exc.cl)
        for sub in without:
            yield from _leaf(sub, path, None, exc.cl, extra_hint)
    else:
        yield from _leaf(exc, path, None, cls, extra_hint)


def _leaf(exc: BaseException, path: tuple, typ, cls, extra_hint: str = ""):
    if isinstance(exc, BaseValidationError):
        yield from _cattrs_problems(exc, path, cls, extra_hint)
    elif isinstance(exc, ForbiddenExtraKeysError):
        names = _field_names(exc.cl)
        for key in sorted(exc.extra_fields):
            expected = _one_of(names) if names else "expected no parameters here"
            yield path + (key,), extra_hint or "unknown key", _did_you_mean(key, names) + expected
    elif isinstance(exc, _WrongValue):
        yield path, exc.what, exc.expected
    elif isinstance(exc, KeyError):
        yield path, "missing", f"expected {_type_word(typ)}"
    elif isinstance(exc, (ValueError, TypeError)) and len(exc.args) >= 2 and isinstance(exc.args[1], attrs.Attribute):
        # an attrs validator: (message, attribute, [options, value])
        attribute = exc.args[1]
        if len(exc.args) >= 4 and isinstance(exc.args[2], (tuple, list, set, frozenset)):
            yield (path + (attribute.name,), f"{_show(exc.args[3])} is not allowed",
                   "expected one of: " + ", ".join(_show(o) for o in exc.args[2]))
        else:
            yield path + (attribute.name,), str(exc.args[0]), None
    elif isinstance(exc, (ValueError, TypeError)):
        yield path, f"invalid value ({exc})", f"expected {_type_word(typ)}" if typ else None
    else:
        yield path, f"{type(exc).__name__}: {exc}", None


def _structure(data: Any, cls, path: tuple, report, extra_hint: str = ""):
    """`cls` from `data`, or None after reporting every bad field."""
    try:
        return _converter.structure(data, cls)
    except Exception as exc:  # noqa: BLE001 - every failure becomes a reported problem
        for where, what, expected in _cattrs_problems(exc, path, cls, extra_hint):
            report(where, what, expected)
        return None


# --------------------------------------------------------------------------------------
# Reading files and resolving `extends`


@attrs.define
class _Layer:
    path: Path
    label: str


def _read_toml(path: Path, label: str, problems: _Problems, what: str = "variant") -> tuple[dict, dict]:
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


def _merge(base: dict, over: dict) -> dict:
    """`over` on top of `base`: tables merge key by key, everything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _replaced(data: dict, prefix: tuple = ()):
    """Key paths where `data` sets a value that replaces (not merges into) a parent's."""
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _replaced(value, prefix + (key,))
        else:
            yield prefix + (key,)


def _merge_origins(parent: _Origins, child: _Origins, child_data: dict) -> _Origins:
    roots = set(_replaced(child_data))
    at = {p: v for p, v in parent.at.items() if not any(p[:k] in roots for k in range(1, len(p) + 1))}
    shown = {p: v for p, v in parent.shown.items() if p in at}
    at.update(child.at)
    shown.update(child.shown)
    return _Origins(at, shown)


def _find_parent(value: str, child: Path) -> Path | None:
    relative = child.parent / value
    if relative.is_file():
        return relative
    if value.endswith(".toml") or "/" in value or "\\" in value:
        return None
    return _shipped(value)


def _resolve(path: Path, label: str, stack: tuple, problems: _Problems) -> tuple[dict, _Origins, list]:
    """Merged data, origins and the chain of files (child first) for one variant file."""
    problems.files.append(label)
    data, lines = _read_toml(path, label, problems)
    origins = _Origins({p: (label, path, line) for p, line in lines.items()})

    def report(where, what, expected=None):
        problems.add(label, lines.get(where) or lines.get(where[:1]) or 1, where, what, expected)

    chain = [_Layer(path, label)]
    extends = data.pop("extends", None)
    overrides = data.pop("params", None)
    merged, merged_origins = data, origins
    if extends is not None:
        if not isinstance(extends, str) or not extends:
            report(("extends",), f"wrong type: {_got(extends)}",
                   "expected a shipped variant id or a path relative to this file")
        else:
            parent = _find_parent(extends, path)
            here = stack + ((path.resolve(), label),)
            if parent is None:
                report(("extends",), f"cannot find {extends!r}",
                       f"expected a shipped variant id ({', '.join(sorted(available_variants()))}) "
                       "or a path relative to this file")
                raise VariantError(problems.lines())
            if any(parent.resolve() == seen for seen, _ in here):
                start = [seen for seen, _ in here].index(parent.resolve())
                names = [name for _, name in here[start:]] + [here[start][1]]
                report(("extends",), "extends cycle: " + " -> ".join(names),
                       "expected a chain that ends in a file without `extends`")
                raise VariantError(problems.lines())
            pdata, porigins, pchain = _resolve(parent, str(parent), here, problems)
            merged = _merge(pdata, data)
            merged_origins = _merge_origins(porigins, origins, data)
            chain += pchain
            _check_own_id(data, pdata, report)
    if overrides is not None:
        _apply_overrides(overrides, merged, merged_origins, origins, label, path, report)
    return merged, merged_origins, chain


def _check_own_id(data: dict, parent: dict, report) -> None:
    edition = data.get("edition")
    parent_id = parent.get("edition", {}).get("id") if isinstance(parent.get("edition"), dict) else None
    own = edition.get("id") if isinstance(edition, dict) else None
    if parent_id is None:
        return
    if own is None:
        report(("edition",) if isinstance(edition, dict) else ("extends",), "a variant that extends another needs its own edition.id",
               f"expected an id other than {parent_id!r}, e.g. [edition] id = \"my-{parent_id}\"")
    elif own == parent_id:
        report(("edition", "id"), f"{own!r} is the id of the file it extends", "expected an id of its own")


def _apply_overrides(overrides, merged: dict, merged_origins: _Origins, own: _Origins, label: str,
                     path: Path, report) -> None:
    """Apply `[params.<rule id>]` to every pipeline entry of `merged` using that rule."""
    if not isinstance(overrides, dict):
        report(("params",), f"wrong type: {_got(overrides)}", "expected a table of [params.<rule id>] tables")
        return
    rules = all_rules()
    for rule_id, values in overrides.items():
        where = ("params", rule_id)
        if rule_id not in rules:
            report(where, f"unknown rule module {rule_id!r}", _did_you_mean(rule_id, rules) + _one_of(rules))
            continue
        if not isinstance(values, dict):
            report(where, f"wrong type: {_got(values)}", f"expected a table of parameters of rule {rule_id!r}")
            continue
        used = False
        for pipeline in PIPELINES:
            entries = merged.get(pipeline)
            if not isinstance(entries, list):
                continue
            entries = merged[pipeline] = list(entries)  # never change the parent's lists
            for i, entry in enumerate(entries):
                if not isinstance(entry, dict) or entry.get("rule") != rule_id:
                    continue
                used = True
                params = entry.get("params", {})
                params = _merge(params, values) if isinstance(params, dict) else dict(values)
                entries[i] = dict(entry, params=params)
                for key_path, hit in own.at.items():
                    if key_path[:2] == where and len(key_path) > 2:
                        target = (pipeline, i, "params") + key_path[2:]
                        merged_origins.at[target] = hit
                        merged_origins.shown[target] = key_path
        if not used:
            in_use = sorted({e.get("rule") for p in PIPELINES for e in merged.get(p, []) or []
                             if isinstance(e, dict) and isinstance(e.get("rule"), str)})
            report(where, f"no pipeline entry uses rule {rule_id!r}",
                   "expected a rule of the pipeline: " + ", ".join(in_use))


# --------------------------------------------------------------------------------------
# The board


def load_board(path: str | Path) -> Board:
    """A validated `Board` from a board TOML file; `VariantError` listing every problem."""
    problems = _Problems()
    board = _load_board(Path(path), problems)
    if problems or board is None:
        raise VariantError(problems.lines())
    return board


def _load_board(path: Path, problems: _Problems) -> Board | None:
    label = str(path)
    if label not in problems.files:
        problems.files.append(label)
    data, lines = _read_toml(path, label, problems, what="board")
    origins = _Origins({p: (label, path, line) for p, line in lines.items()})

    def report(where, what, expected=None):
        _report(problems, origins, label, where, what, expected, dedupe=True)

    _schema_problems("board", data, report)
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
                       _did_you_mean(field, PROVINCE_FIELDS) + _one_of(PROVINCE_FIELDS))
        if isinstance(name, str):
            key = name.strip().lower()
            if key in seen:
                report(at + ("name",), f"{name!r} is already the name of provinces[{seen[key]}]",
                       "expected every province name once")
            else:
                seen[key] = i
        province = _structure(raw, Province, at, report)
        if province is not None:
            built.append(province)
    if problems:
        return None
    return Board(id=data["id"], name=data.get("name", data["id"]), provinces=tuple(built), source=str(path))


def _board_file(name: str, defined_in: Path) -> Path | None:
    for candidate in (defined_in.parent / name, variants_dir() / name):
        if candidate.is_file():
            return candidate
    return None


# --------------------------------------------------------------------------------------
# Layer 3: meaning


def _check_meaning(data: dict, report) -> None:
    rules = all_rules()
    for pipeline, kind in PIPELINES.items():
        entries = data.get(pipeline)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            rule_id = entry.get("rule") if isinstance(entry, dict) else None
            if not isinstance(rule_id, str):
                continue
            cls = rules.get(rule_id)
            if cls is None:
                report((pipeline, i, "rule"), f"unknown rule module {rule_id!r}",
                       _did_you_mean(rule_id, rules) + _one_of(rules))
            elif getattr(cls, "kind", "phase") != kind:
                fitting = sorted(r for r, c in rules.items() if getattr(c, "kind", "phase") == kind)
                report((pipeline, i, "rule"), f"{rule_id!r} is a {cls.kind} rule, not a {kind} rule",
                       f"expected in [[{pipeline}]] one of: {', '.join(fitting)}")

    _check_pipeline(data.get("phases"), rules, report)

    components = data.get("components")
    edition = data.get("edition")
    players = edition.get("players") if isinstance(edition, dict) else None
    counts = [n for n in players if type(n) is int] if isinstance(players, list) else []
    for i, n in enumerate(players if isinstance(players, list) else []):
        if type(n) is int and n < MIN_PLAYERS:
            report(("edition", "players", i), f"{n} player{'s' if n != 1 else ''} cannot play",
                   f"expected at least {MIN_PLAYERS}; the rulebooks say 3 to 5")
    if not isinstance(components, dict):
        return
    deck = components.get("deck")
    deck = deck if isinstance(deck, dict) else {}
    for kind in deck:
        if kind not in CARD_KINDS:
            report(("components", "deck", kind), "unknown card kind",
                   _did_you_mean(kind, CARD_KINDS) + _one_of(CARD_KINDS))
    starting = components.get("starting_cards")
    if isinstance(starting, list):
        most = max(counts, default=0)
        first: dict[str, int] = {}
        for i, kind in enumerate(starting):
            if not isinstance(kind, str):
                continue
            if kind not in CARD_KINDS:
                report(("components", "starting_cards", i), f"{kind!r} is not a card kind",
                       _did_you_mean(kind, CARD_KINDS) + _one_of(CARD_KINDS))
            else:
                first.setdefault(kind, i)
        for kind, i in first.items():
            need = starting.count(kind) * most
            have = deck.get(kind, 0)
            if type(have) is int and need > have:
                report(("components", "starting_cards", i),
                       f"{most} players need {need} {kind!r} cards from the deck but it holds {have}",
                       f"expected components.deck.{kind} >= {need}")


def _check_pipeline(entries, rules, report) -> None:
    """The round's phases in a workable order: each phase's needs are provided by an earlier
    phase, a once-per-round phase appears once, and the round gives every player a province."""
    if not isinstance(entries, list):
        return
    ids = [e.get("rule") if isinstance(e, dict) else None for e in entries]
    if any(rule_id not in rules for rule_id in ids):
        return  # an unknown id is reported already; guessing its contract would only add noise
    provided: dict[str, str] = {}
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        cls = rules.get(entry.get("rule")) if isinstance(entry, dict) else None
        if cls is None or getattr(cls, "kind", "phase") != "phase":
            continue
        for need in cls.requires:
            if need not in provided:
                makers = sorted(r for r, c in rules.items() if need in getattr(c, "provides", ()))
                report(("phases", i, "rule"), f"{cls.id!r} needs {need!r} from an earlier phase of the round",
                       f"expected one of {', '.join(makers)} before it")
        if cls.once and cls.id in seen:
            report(("phases", i, "rule"), f"{cls.id!r} may appear only once per round",
                   "expected a single entry for it in [[phases]]")
        seen.add(cls.id)
        for made in cls.provides:
            provided.setdefault(made, cls.id)
    for need in ROUND_MUST_PROVIDE:
        if need not in provided:
            makers = sorted(r for r, c in rules.items() if need in getattr(c, "provides", ()))
            report(("phases",), f"no phase of the round provides {need!r}: players would never acquire provinces",
                   f"expected a phase such as {', '.join(makers)}")


def _check_rules(variant: Variant, report) -> None:
    rules = all_rules()
    for pipeline in PIPELINES:
        for i, spec in enumerate(getattr(variant, pipeline)):
            try:
                found = rules[spec.rule](spec, variant).check(variant)
            except Exception as exc:  # noqa: BLE001 - a broken check is itself a problem to report
                found = [f"the module's check failed with {type(exc).__name__}: {exc}"]
            names = set(_field_names(type(spec.params)))
            for message in found or ():
                # a message that starts with a parameter's name is about that parameter
                first = re.match(r"\w+", message)
                where = (pipeline, i, "params") + ((first.group(),) if first and first.group() in names else ())
                report(where, message, f"checked by rule module {spec.rule!r}")


# --------------------------------------------------------------------------------------
# Loading


def load_variant(id_or_path: str | Path) -> Variant:
    """A typed, validated Variant from a shipped id or a path to a variant TOML file."""
    path = resolve_path(id_or_path)
    problems = _Problems()
    data, origins, _chain = _resolve(path, str(path), (), problems)
    label = str(path)

    def report(where, what, expected=None):
        _report(problems, origins, label, where, what, expected, dedupe=True)

    _schema_problems("variant", data, report)

    def part(key: str, cls):
        value = data.get(key)
        return _structure(value, cls, (key,), report) if isinstance(value, dict) else None

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
                hint = "unknown parameter" if _field_names(cls.Params) else f"unknown parameter (rule {entry['rule']!r} takes none)"
                params = _structure(raw, cls.Params, (pipeline, i, "params"), report, hint)
            if params is None or specs is None:
                specs = None
                continue
            name = entry.get("name", entry["rule"])
            specs.append(RuleSpec(rule=entry["rule"], name=name if isinstance(name, str) else entry["rule"],
                                  params=params))
        pipelines[pipeline] = tuple(specs) if specs is not None and isinstance(entries, list) else None

    _check_meaning(data, report)

    board = None
    board_name = data.get("edition", {}).get("board") if isinstance(data.get("edition"), dict) else None
    if isinstance(board_name, str) and board_name:
        found = origins.find(("edition", "board"))
        defined_in = found[1] if found else path
        board_path = _board_file(board_name, defined_in)
        if board_path is None:
            report(("edition", "board"), f"board file {board_name!r} not found",
                   f"expected a file next to {defined_in.name} or a shipped board in {variants_dir()}")
        else:
            board = _load_board(board_path, problems)

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
    _check_rules(variant, report)
    if problems:
        raise VariantError(problems.lines())
    return variant
