"""The first two layers of validation: shape (JSON Schema) and types (cattrs).

`schema_problems` checks data against a shipped schema (`schemas/<name>.schema.json`);
`structure` builds an attrs class from a table with strict hooks (no integer where a boolean
belongs, no string for a number). Both turn every library error into the project's own
words and hand it to a `report(path, what, expected)` callback, so that a file with five
mistakes gets five problems, not one traceback.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import cattrs
from cattrs.errors import (
    BaseValidationError,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
)

from amunre.loader.problems import did_you_mean, got, one_of, show
from amunre.loader.resources import load_schema

# --------------------------------------------------------------------------------------
# Layer 1: JSON Schema


_TYPE_WORDS = {
    "integer": "an integer", "string": "a string", "boolean": "true or false", "object": "a table",
    "array": "an array", "number": "a number",
}


def _expected(schema: dict) -> str:
    if "enum" in schema:
        return "one of: " + ", ".join(show(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items", {})
        inner = _expected(items) if items.get("type") or items.get("enum") else ""
        if items.get("type") == "object" or "$ref" in items:
            return "an array of tables"
        return f"an array of {_plural(inner)}" if inner else "an array"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        inner = _expected(schema["additionalProperties"])
        return f"a table of {_plural(inner)}" if inner and inner != "a value" else "a table"
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


_validators: dict[str, Any] = {}


def _declared(name: str, path: tuple) -> dict:
    """The schema `properties` declare for a table key path (a `required` list may stand
    apart from the properties it names, as in an `else` branch)."""
    schema = load_schema(name)
    for key in path:
        if not isinstance(key, str):
            return {}
        schema = schema.get("properties", {}).get(key, {})
    return schema


def _validator(name: str):
    if name not in _validators:
        import jsonschema

        schema = load_schema(name)
        cls = jsonschema.validators.validator_for(schema)
        _validators[name] = cls(schema)
    return _validators[name]


def _is_rule_id(path: tuple) -> bool:
    """Whether a key path is a pipeline entry's `rule`: any registered module's id, a plug-in's
    too, which the shipped schema's list does not hold (the loader words those problems)."""
    return bool(path) and path[0] in ("phases", "scoring", "final_scoring") and path[-1] == "rule"


def schema_problems(name: str, data: dict, report) -> None:
    """Report every schema violation of `data` through `report(path, what, expected)`."""
    for error in _validator(name).iter_errors(data):
        path = tuple(error.absolute_path)
        schema, value, kw = error.schema, error.instance, error.validator
        if kw == "additionalProperties":
            allowed = schema.get("properties", {})
            for key in value:
                if key not in allowed:
                    noun = "unknown table" if isinstance(value[key], dict) else "unknown key"
                    report(path + (key,), noun, did_you_mean(key, allowed) + one_of(allowed))
        elif kw == "required":
            props = schema.get("properties", {})
            for key in error.validator_value:
                if key not in value:
                    found = props.get(key, {}) if "type" in props.get(key, {}) else _declared(name, path + (key,))
                    report(path + (key,), "missing", f"expected {_expected(found)}")
        elif kw == "type":
            report(path, f"wrong type: {got(value)}",
                   "expected a string" if _is_rule_id(path) else f"expected {_expected(schema)}")
        elif kw == "enum" and _is_rule_id(path):
            continue  # which rule ids exist is the loader's to say (plug-ins too, with "did you mean")
        elif "propertyNames" in error.relative_schema_path and path == ("terms",):
            continue  # which term keys exist is the loader's to say (plug-ins' words too, with "did you mean")
        elif kw == "enum":
            report(path, f"{show(value)} is not allowed", f"expected {_expected(schema)}")
        elif kw == "minimum":
            report(path, f"{show(value)} is too small", f"expected at least {error.validator_value}")
        elif kw == "maximum":
            report(path, f"{show(value)} is too large", f"expected at most {error.validator_value}")
        elif kw == "minItems":
            report(path, "too few items", f"expected at least {error.validator_value}")
        elif kw == "maxItems":
            report(path, f"{len(value)} items, too many", f"expected at most {error.validator_value}")
        elif kw == "minLength":
            report(path, "empty", "expected a non-empty string")
        elif kw == "uniqueItems":
            report(path, "has repeated items", "expected each item once")
        elif kw == "pattern" and value == "":
            report(path, "empty", f"expected a non-empty string matching {error.validator_value}")
        elif kw == "pattern":
            report(path, f"{show(value)} has characters that are not allowed",
                   f"expected it to match {error.validator_value}")
        else:  # the library's words, cut short: they quote the value, which may be huge
            message = error.message if len(error.message) <= 120 else error.message[:117] + "..."
            report(path, message, f"expected what the {kw!r} rule of schemas/{name}.schema.json allows")


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
            raise _WrongValue(f"wrong type: {got(value)}", f"expected {expected}")
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
                    raise _WrongValue(f"wrong type: {got(value)}", f"expected {expected}")
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


def field_names(cls) -> list[str]:
    """The field names of an attrs class; none for anything else."""
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


#: the message of an attrs `ge`/`le`/`gt`/`lt` validator: 'name' must be >= 1: -3
#: (or, for a table of numbers, 'name.key' must be ...)
_BOUND = re.compile(r"^'(\w+(?:\.[^']+)?)' must be ([<>]=?) (-?\d+): (.+)$")


def _leaf(exc: BaseException, path: tuple, typ, cls, extra_hint: str = ""):
    if isinstance(exc, BaseValidationError):
        yield from _cattrs_problems(exc, path, cls, extra_hint)
    elif isinstance(exc, ForbiddenExtraKeysError):
        names = field_names(exc.cl)
        for key in sorted(exc.extra_fields):
            expected = one_of(names) if names else "expected no parameters here"
            yield path + (key,), extra_hint or "unknown key", did_you_mean(key, names) + expected
    elif isinstance(exc, _WrongValue):
        yield path, exc.what, exc.expected + _allowed(cls, path[-1] if path else None)
    elif isinstance(exc, KeyError):
        yield path, "missing", f"expected {_type_word(typ)}"
    elif isinstance(exc, (ValueError, TypeError)) and len(exc.args) >= 2 and isinstance(exc.args[1], attrs.Attribute):
        # an attrs validator: (message, attribute, [options, value])
        attribute = exc.args[1]
        if len(exc.args) >= 4 and isinstance(exc.args[2], (tuple, list, set, frozenset)):
            yield (path + (attribute.name,), f"{show(exc.args[3])} is not allowed",
                   "expected one of: " + ", ".join(show(o) for o in exc.args[2]))
        else:
            yield path + (attribute.name,), str(exc.args[0]), None
    elif isinstance(exc, ValueError) and _BOUND.match(str(exc)):
        # an attrs bound (ge, le, ...) on a field, or on each item of a list field
        name, op, bound, value = _BOUND.match(str(exc)).groups()
        name, _, key = name.partition(".")
        # a list's index, a table's key (one of thousands of digits stays text: Python refuses to read it)
        inner = (int(key) if key.isascii() and key.isdigit() and len(key) < 19 else key,) if key else ()
        at = (path if path and path[-1] == name else path + (name,)) + inner
        yield at, f"{value} is out of range", f"expected a value {op} {bound}"
    elif isinstance(exc, (ValueError, TypeError)):
        yield path, f"invalid value ({exc})", f"expected {_type_word(typ)}" if typ else None
    else:
        yield path, f"{type(exc).__name__}: {exc}", None


def typed_value(value: Any, typ) -> Any:
    """`value` typed as `typ` with the strict hooks; raises on a wrong type."""
    return _converter.structure(value, typ)


def _allowed(cls, name) -> str:
    """`; one of: ...` for a field of `cls` that allows only some values (a ruling), else ""."""
    try:
        field = attrs.fields_dict(cls).get(name) if isinstance(name, str) else None
    except (TypeError, attrs.exceptions.NotAnAttrsClassError):
        return ""
    options = getattr(field.validator, "options", None) if field is not None else None
    return "; one of: " + ", ".join(show(o) for o in options) if isinstance(options, (tuple, list)) else ""


def structure(data: Any, cls, path: tuple, report, extra_hint: str = ""):
    """`cls` from `data`, or None after reporting every bad field.

    An unknown key stops the conversion before the values of the known ones are checked
    (their validators run when the class is made), so a misspelt key would hide a bad value
    beside it: the known keys are then converted again on their own and their problems
    reported too (a key they lack is not one: the misspelt key may be meant for it). A wrong
    type, or a first value out of range, would hide the others alike (the class is never
    made, or its validators stop at the first): each key given is then checked on its own."""
    try:
        return _converter.structure(data, cls)
    except Exception as exc:  # noqa: BLE001 - every failure becomes a reported problem
        found = list(_cattrs_problems(exc, path, cls, extra_hint))
        if isinstance(data, dict) and attrs.has(cls):
            names = set(field_names(cls))
            known = {key: value for key, value in data.items() if key in names}
            if len(known) < len(data):
                try:
                    _converter.structure(known, cls)
                except Exception as more:  # noqa: BLE001 - as above
                    found += [problem for problem in _cattrs_problems(more, path, cls, extra_hint)
                              if problem not in found and problem[1] != "missing"]
            found += [problem for problem in _each_field_problems(known, cls, path) if problem not in found]
        for where, what, expected in found:
            report(where, what, expected)
        return None


def _each_field_problems(data: dict, cls, path: tuple):
    """(path, what, expected) of each key of `data` (fields of `cls`) typed and validated on
    its own. A validator that needs the other fields (it reads the instance) cannot run alone:
    what it would say waits for the whole class, as before."""
    attrs.resolve_types(cls)
    fields = attrs.fields_dict(cls)
    for name, raw in data.items():
        field = fields[name]
        try:
            value = typed_value(raw, field.type)
        except Exception as exc:  # noqa: BLE001 - a wrong type, said as the whole class says it
            yield from _cattrs_problems(exc, path + (name,), cls)
            continue
        try:
            if field.converter is not None:
                value = field.converter(value)
            if field.validator is not None:
                field.validator(None, field, value)
        except (ValueError, TypeError) as exc:
            yield from _leaf(exc, path, None, cls)
        except Exception:  # noqa: BLE001 - a validator that reads the instance: see above
            continue
