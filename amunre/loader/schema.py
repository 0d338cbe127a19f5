"""The variant file's JSON Schema (2020-12), generated from the code that reads the file.

`variant_schema()` describes a whole variant file: `[edition]` and `[components]` from the
field docs of `amunre.core.model`, each pipeline entry with the `params` of the rule module it
names (an `if`/`then` per rule id), `[params.<rule id>]`, and `[rulings]` with every ruling's
type, allowed values, meaning, SPEC id and default, from the modules' `Rulings` classes.
`schemas/variant.schema.json` is its output for the built-in modules (`python -m
amunre.testing.docgen` rewrites it and a test keeps it current); editors validate a variant file
with it through a first line `#:schema ../schemas/variant.schema.json` (taplo, Even Better
TOML).

The loader checks the shape of the merged file against the shipped schema (layer 1) but
leaves what lies inside `[rulings]` and inside an entry's `params` to the typed layer, which
knows the modules actually in use (plug-ins included) and words those problems itself.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import attrs

from amunre.core.model import Components, Edition

SCHEMA_ID = "https://amunre.example/schemas/variant.schema.json"
ID_PATTERN = "^[a-z0-9][a-z0-9_-]*$"

#: Most entries of each pipeline and of a group's steps: the editions use 6 phases and 6
#: scoring items; the limits keep every game a bounded number of decisions.
MOST_ENTRIES = {"phases": 12, "scoring": 12, "final_scoring": 6, "steps": 6}

#: Constraints the field types cannot say: JSON Schema keywords per `(table, key)`.
_EXTRA = {
    ("edition", "id"): {"pattern": ID_PATTERN, "description": "Variant id (lower case letters, digits, _ and -), "
                        "used on the command line (`--variant ID`)."},
    ("edition", "name"): {"minLength": 1},
    ("edition", "players"): {"minItems": 1, "uniqueItems": True},
    ("edition", "board"): {"minLength": 1},
    ("edition", "kingdoms"): {"minItems": 1, "items": {"type": "string", "minLength": 1}},
    ("edition", "rounds_per_kingdom"): {"minimum": 1},
    ("components", "starting_gold"): {"minimum": 0},
    ("components", "theft_cards_per_player"): {"minimum": 0},
    ("components", "farmers"): {"minimum": 0},
    ("components", "stones"): {"minimum": 0},
    ("components", "pyramids"): {"minimum": 0},
    ("components", "double_pyramids"): {"minimum": 0},
    ("components", "deck"): {"additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100}},
}

PIPELINE_KINDS = {"phases": "phase", "scoring": "scoring", "final_scoring": "final_scoring"}

#: A `[[scoring]]` entry's `kingdoms` (which names are the edition's the loader checks).
KINGDOMS_KEY = {
    "type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "maxItems": 10,
    "uniqueItems": True,
    "description": "The kingdoms at whose end this entry scores, by the names in edition.kingdoms "
                   "(default: every kingdom).",
}


def json_value(value: Any) -> Any:
    """A Python default as JSON: tuples become arrays, attrs objects tables."""
    if attrs.has(type(value)):
        value = attrs.asdict(value, recurse=False)
    if isinstance(value, (tuple, list)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    return value


def field_default(field: attrs.Attribute) -> Any:
    """The default of an attrs field as its value would be (converter applied); NOTHING if required."""
    default = field.default
    if default is attrs.NOTHING:
        return attrs.NOTHING
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory() if not default.takes_self else attrs.NOTHING
    if field.converter is not None and default is not attrs.NOTHING and not isinstance(default, (str, bytes)):
        try:
            default = field.converter(default)
        except Exception:  # noqa: BLE001 - keep the raw default then
            pass
    return default


def _validators(validator) -> list:
    if validator is None:
        return []
    inner = getattr(validator, "_validators", None)
    if inner is not None:
        return [v for sub in inner for v in _validators(sub)]
    return [validator]


_BOUNDS = {">=": "minimum", ">": "exclusiveMinimum", "<=": "maximum", "<": "exclusiveMaximum"}


def type_schema(annotation) -> dict:
    """JSON Schema for a field type: bool, int, float, str, arrays, tables of a type, attrs classes."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is bool:
        return {"type": "boolean"}
    if annotation is int:
        return {"type": "integer"}
    if annotation is float:
        return {"type": "number"}
    if annotation is str:
        return {"type": "string"}
    if origin in (tuple, list, set, frozenset):
        items = [a for a in args if a is not Ellipsis]
        if origin is tuple and len(items) > 1 and Ellipsis not in args:
            return {"type": "array", "prefixItems": [type_schema(a) for a in items],
                    "minItems": len(items), "maxItems": len(items)}
        return {"type": "array", "items": type_schema(items[0])} if items else {"type": "array"}
    if origin is dict:
        return ({"type": "object", "additionalProperties": type_schema(args[1])} if len(args) == 2
                else {"type": "object"})
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        kinds = [type_schema(a) for a in args if a is not type(None)]
        return kinds[0] if len(kinds) == 1 else {"anyOf": kinds}
    if attrs.has(annotation):
        return class_schema(annotation)
    return {}


def field_schema(cls, field: attrs.Attribute, hints: dict, description: str | None = None) -> dict:
    """A field's schema: its type, allowed values and bounds, meaning and default."""
    out = type_schema(hints.get(field.name, field.type))
    for validator in _validators(field.validator):
        options = getattr(validator, "options", None)
        if isinstance(options, (tuple, list, set, frozenset)):
            out["enum"] = sorted(options) if isinstance(options, (set, frozenset)) else list(options)
        if type(validator).__name__ == "_MaxLengthValidator":  # a list's own length (kingdoms)
            out["maxItems"] = validator.max_length
        op = getattr(validator, "compare_op", None)
        if op in _BOUNDS:
            out[_BOUNDS[op]] = validator.bound
        # bounds on each item of a list or table (`amunre.core.model.bounded_items`, the deck)
        members = getattr(validator, "member_validator", None) or getattr(validator, "value_validator", None)
        for member in _validators(members):
            if getattr(member, "compare_op", None) in _BOUNDS:
                where = out.setdefault("items", {}) if out.get("type") == "array" else out.setdefault(
                    "additionalProperties", {})
                where[_BOUNDS[member.compare_op]] = member.bound
        for whole in _validators(getattr(validator, "iterable_validator", None)):
            if type(whole).__name__ == "_MaxLengthValidator":
                out["maxItems"] = whole.max_length
    text = description if description is not None else field.metadata.get("doc", "")
    if text:
        out["description"] = " ".join(text.split())
    default = field_default(field)
    if default is not attrs.NOTHING:
        out["default"] = json_value(default)
    return out


def class_schema(cls, extra: dict | None = None, table: str = "", required: bool = True) -> dict:
    """A closed table of an attrs class's fields; `required` lists the fields without default."""
    hints = typing.get_type_hints(cls)
    props = {}
    for field in attrs.fields(cls):
        schema = field_schema(cls, field, hints)
        schema.update((extra or {}).get((table, field.name), {}))
        props[field.name] = schema
    out: dict = {"type": "object", "additionalProperties": False, "properties": props}
    needed = [f.name for f in attrs.fields(cls) if f.default is attrs.NOTHING]
    if required and needed:
        out["required"] = needed
    return out


def _entry(pipeline: str, rules: dict) -> dict:
    """One entry of a pipeline: its keys, and per rule id of this kind the params it takes."""
    kind = PIPELINE_KINDS[pipeline]
    fitting = sorted(r for r, c in rules.items() if getattr(c, "kind", "phase") == kind)
    return {
        "type": "object",
        "description": f"One [[{pipeline}]] entry: a {kind} rule module and its params, or a group of `steps` "
                       "under one heading. In a file that extends another, an entry with an inherited id edits "
                       "that entry (`remove = true` drops it), a new id is inserted `after` or `before` an id, or "
                       "at the end.",
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN,
                   "description": "The entry's id, unique across the variant's pipelines (default: its rule id)."},
            "rule": {"type": "string", "minLength": 1, "enum": fitting,
                     "description": f"Rule-module id: {', '.join(fitting)} (docs/rule-modules.md; a plug-in's ids are "
                                    "in the schema `amunre schema` writes where it is installed)."},
            "name": {"type": "string", "minLength": 1,
                     "description": "Name shown in the play-by-play, in the edition's words (default: the id)."},
            "params": {"type": "object",
                       "description": "The rule module's parameters; left out ones take their default."},
            "steps": {"type": "array", "minItems": 1, "maxItems": MOST_ENTRIES["steps"],
                      "items": {"$ref": f"#/$defs/{pipeline}_entry"},
                      "description": "A group: these entries run in order under this entry's name (one heading)."},
            "after": {"type": "string", "minLength": 1,
                      "description": "In a file that extends another: put this entry after the entry with this id."},
            "before": {"type": "string", "minLength": 1,
                       "description": "In a file that extends another: put this entry before the entry with this id."},
            "remove": {"type": "boolean", "description": "In a file that extends another: drop the inherited entry."},
            **({"kingdoms": KINGDOMS_KEY} if pipeline == "scoring" else {}),
        },
        "allOf": [
            {"if": {"required": ["rule"], "properties": {"rule": {"const": rule_id}}},
             "then": {"properties": {"params": params_schema(rules[rule_id])}}}
            for rule_id in fitting
        ] + [
            # an entry given by its id alone (an edit of an inherited entry): the printed
            # editions name each entry after its rule, so such an id says which params apply
            {"if": {"required": ["id"], "not": {"required": ["rule"]}, "properties": {"id": {"const": rule_id}}},
             "then": {"properties": {"params": params_schema(rules[rule_id])}}}
            for rule_id in fitting
        ],
    }


def params_schema(cls) -> dict:
    """The params table of one rule module."""
    out = class_schema(cls.Params, required=False)
    out["description"] = f"Parameters of rule module {cls.id!r}: {cls.summary}"
    return out


def rulings_schema(rules: dict) -> dict:
    """`[rulings]`: every ruling a module declares, with its type, values, meaning and default."""
    from amunre.loader.rulings import declared_rulings

    props = {}
    for key, (cls, owner) in sorted(declared_rulings(rules).items()):
        field = attrs.fields_dict(cls)[key]
        spec = field.metadata.get("spec", "")
        text = f"{spec}: {field.metadata.get('doc', '')} (declared by {owner}; docs/rulings.md)"
        props[key] = field_schema(cls, field, typing.get_type_hints(cls), text)
    return {
        "type": "object",
        "description": "Rulings (SPEC §6): each belongs to a rule module of the variant's pipelines (or to the "
                       "core); a file sets only those it changes, the others keep their module's default. See "
                       "docs/rulings.md.",
        "additionalProperties": False,
        "properties": props,
    }


def variant_schema(rules: dict | None = None) -> dict:
    """The JSON Schema of a variant file, for the given rule modules (default: every
    registered one, plug-ins included)."""
    if rules is None:
        from amunre.core.registry import all_rules

        rules = all_rules()
    edition = class_schema(Edition, _EXTRA, "edition", required=False)
    components = class_schema(Components, _EXTRA, "components", required=False)
    tables = {"edition": edition, "components": components}
    pipelines = {
        pipeline: {"type": "array", "items": {"$ref": f"#/$defs/{pipeline}_entry"},
                   "maxItems": MOST_ENTRIES[pipeline], "description": description}
        for pipeline, description in (
            ("phases", "The phases of one round, in order."),
            ("scoring", "The items of a kingdom's scoring, in order."),
            ("final_scoring", "The items scored once after the last kingdom's scoring, in order."),
        )
    }
    pipelines["phases"]["minItems"] = 1
    # a file that extends another gives only what it changes: the required keys apply to
    # a file without `extends` (and to the merged file the loader checks)
    complete = {
        "required": ["edition", "components", "phases"],
        "properties": {
            name: {"required": [f.name for f in attrs.fields(cls) if f.default is attrs.NOTHING]}
            for name, cls in (("edition", Edition), ("components", Components))
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "amunre variant file (an edition or a house rule)",
        "description": "A variant TOML file. Generated by `.venv/bin/python -m amunre.testing.docgen` "
                       "from the rule modules; see "
                       "docs/variant-format.md. A file that `extends` another needs only the keys it changes; "
                       "without `extends` the required keys apply. Rule ids, card kinds, deck and board sizes "
                       "and the pipeline's order are checked by the loader (`amunre validate FILE`).",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "extends": {"type": "string", "minLength": 1,
                        "description": "A shipped variant id or a path to a .toml file relative to this file: "
                                       "tables merge key by key, pipeline entries by id, other arrays are "
                                       "replaced whole."},
            "params": {
                "type": "object",
                "description": "[params.<rule id>]: parameters set on every pipeline entry that uses that rule.",
                "properties": {rule_id: params_schema(cls) for rule_id, cls in sorted(rules.items())},
                "additionalProperties": {"type": "object"},
            },
            **tables,
            "terms": terms_schema(rules),
            **pipelines,
            "rulings": rulings_schema(rules),
        },
        "if": {"required": ["extends"]},
        "then": {},
        "else": complete,
        "$defs": {f"{pipeline}_entry": _entry(pipeline, rules) for pipeline in PIPELINE_KINDS},
    }


def terms_schema(rules: dict) -> dict:
    """`[terms]`: the keys a variant may set (the engine's words, its modules' words, their card
    kinds, and numbered forms of these, as `amunre.core.terms` says), each a non-empty string."""
    from amunre.core.terms import MOST_NUMBERED, known_terms

    known = sorted(known_terms(rules.values(), sorted({kind for cls in rules.values() for kind in cls.cards})))
    numbers = "|".join(str(n) for n in range(MOST_NUMBERED, 0, -1))
    numbered = f"^({'|'.join(known)})_({numbers})$"
    return {"type": "object", "description": "Engine concept id -> the edition's word for it (the engine's, its "
            "rule modules' and their cards' words, or a numbered form such as `offering_level_2`).",
            "propertyNames": {"anyOf": [{"enum": known}, {"pattern": numbered}]},
            "additionalProperties": {"type": "string", "minLength": 1}}


def builtin_rules() -> dict[str, type]:
    """The rule modules shipped in `amunre.rules` (what the committed schema describes)."""
    from amunre.core.registry import all_rules

    return {rid: cls for rid, cls in all_rules().items() if cls.__module__.startswith("amunre.rules.")}


def schema_text(rules: dict | None = None) -> str:
    """The schema as the committed file holds it (default: for the built-in modules)."""
    return json.dumps(variant_schema(builtin_rules() if rules is None else rules), indent=2, ensure_ascii=False) + "\n"


def typed_layer_owns(path: tuple) -> bool:
    """Whether a key path lies inside `[rulings]` or inside a pipeline entry's `params`: the
    typed layer checks those against the modules in use, so the shape layer stays silent."""
    if len(path) >= 2 and path[0] == "rulings":
        return True
    if path and path[0] in PIPELINE_KINDS:
        for i, part in enumerate(path[:-1]):
            if part == "params" and i >= 2:
                return True
    return False
