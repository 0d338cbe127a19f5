"""Reading a game log strictly: line by line within the limits, each line one JSON object
checked against its schema branch with JSON's own types (see `amunre.gamelog`)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from functools import cache

import jsonschema

from amunre.core.errors import ReplayError
from amunre.gamelog.lines import FORMAT, MAX_DEPTH, MAX_LINE_BYTES, MAX_LOG_BYTES, OLDER_FORMATS
from amunre.gamelog.messages import _where, excerpt, label, shown_path
from amunre.loader.files import nesting_depth
from amunre.loader.resources import load_schema

# -- reading ---------------------------------------------------------------------------------

class _BadJSON(Exception):
    """A JSON text Python would read but a log must not hold."""


def _no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _BadJSON(f"the key {excerpt(key, 40)} appears twice (expected each key once)")
        seen[key] = value
    return seen


def _no_constant(name):
    raise _BadJSON(f"{name} is not a JSON number (expected a finite number)")


def _finite(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _BadJSON(f"{excerpt(text, 40)} is too large a number (expected a finite number)")
    return value


def _parse(raw: str):
    return json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant, parse_float=_finite)


def _is_integer(checker, value) -> bool:
    """A JSON integer is written as one: Python reads `20.0` as a float, and JSON Schema
    alone would call it an integer."""
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _validators() -> dict:
    """One validator per line type (the schema's branches), with strict integers."""
    base = jsonschema.Draft202012Validator
    strict = jsonschema.validators.extend(
        base, type_checker=base.TYPE_CHECKER.redefine("integer", _is_integer))
    return {b["properties"]["type"]["const"]: strict(b) for b in load_schema("log-line")["oneOf"]}


_JSON_TYPES = {bool: "a boolean", int: "an integer", float: "a number with a fraction", str: "a string",
               list: "an array", dict: "an object", type(None): "null"}


def _schema_message(error) -> str:
    """A schema error in a few words, its found value shown as a short excerpt (the
    library's own message would repeat the whole value)."""
    found = error.instance
    kind = _JSON_TYPES.get(type(found), "a value")
    check, wanted = error.validator, error.validator_value
    if check == "type":
        wanted = [wanted] if isinstance(wanted, str) else wanted
        return (f"{kind} {excerpt(found)} "
                f"(expected {' or '.join(_JSON_TYPES.get(_TYPE_NAMES.get(w), w) for w in wanted)})")
    if check == "required":
        return error.message if len(error.message) < 100 else "a required key is missing"
    if check == "additionalProperties":
        extra = sorted(set(found) - set(error.schema.get("properties", {}))) if isinstance(found, dict) else []
        return (f"unexpected key {excerpt(extra[0], 40)}" if extra else "unexpected keys") + \
            f" (expected only {', '.join(sorted(error.schema.get('properties', {})))})"
    if check == "const":
        return f"{excerpt(found)} (expected {excerpt(wanted)})"
    if check in ("minimum", "maximum"):
        return f"{excerpt(found)} (expected {'at least' if check == 'minimum' else 'at most'} {wanted})"
    if check in ("minItems", "maxItems", "minLength", "maxLength"):
        return f"{excerpt(found)} (expected {check}: {wanted})"
    return f"{kind} {excerpt(found)} does not fit the schema ({check}: {excerpt(wanted, 40)})"


_TYPE_NAMES = {"boolean": bool, "integer": int, "number": float, "string": str, "array": list, "object": dict,
               "null": type(None)}


_FIXED_EVENTS = {"decision": frozenset({"type", "event", "player", "kind", "options"}),
                 "answer": frozenset({"type", "event", "player", "kind", "options", "answer"})}


def plain_event(line: dict) -> bool:
    """Whether an event line fits the schema's event branch, checked in plain Python (the
    schema is checked for every other line, and for an event line this refuses, to word
    the problem; a test holds the two to the same answer)."""
    event = line.get("event")
    if line.get("type") != "event" or type(event) is not str or not event:
        return False
    keys = _FIXED_EVENTS.get(event)
    if keys is None:
        return True
    player, kind, options = line.get("player"), line.get("kind"), line.get("options")
    return (line.keys() == keys and type(player) is int and player >= 0 and type(kind) is str and kind != ""
            and type(options) is int and options >= 1)


def _open_log(path):
    """`path` opened for reading, once it is known to be a regular file of a sane size (a
    device or a pipe would never end; opening a pipe waits for a writer)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: not a regular file (expected the "
                              f"file `amunre run --log` writes)")
        file = open(path, "rb")
    except OSError as exc:
        raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL byte in the name
        raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc}") from None
    if os.fstat(file.fileno()).st_size > MAX_LOG_BYTES:
        file.close()
        raise _too_large(path)
    return file


def _too_large(path) -> ReplayError:
    return ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: larger than {MAX_LOG_BYTES >> 20} MB "
                       f"(the logs `amunre run --log` writes are well under 10 MB)")


def _rows(path) -> Iterator[tuple[int, bytes]]:
    """(number, bytes without the newline) of every line of a log file, read one at a time:
    at most `MAX_LINE_BYTES` for a line, `MAX_LOG_BYTES` for the file."""
    where = label(path)
    with _open_log(path) as file:
        number = total = 0
        while True:
            try:
                raw = file.readline(MAX_LINE_BYTES + 1)
            except OSError as exc:
                raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc.strerror or exc}") from None
            if not raw:
                return
            number, total = number + 1, total + len(raw)
            if total > MAX_LOG_BYTES:  # it grew since it was opened
                raise _too_large(path)
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            elif len(raw) > MAX_LINE_BYTES:
                raise ReplayError(f"{where}:{number}: a line longer than {MAX_LINE_BYTES >> 20} MB (expected the "
                                  f"lines `amunre run --log` writes, each under a few kB)")
            yield number, raw


def _checked(raw: bytes, number: int, where: str, validators: dict) -> dict:
    """One line of a log, parsed and checked against its schema branch."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{where}:{number}: not UTF-8 text (byte 0x{raw[exc.start]:02x}; expected the "
                          f"JSON Lines `amunre run --log` writes)") from None
    if not text.strip():
        raise ReplayError(f"{where}:{number}: an empty line (expected one JSON object on every line)")
    try:
        line = _parse(text)
    except _BadJSON as exc:
        raise ReplayError(f"{where}:{number}: {exc}") from None
    except json.JSONDecodeError as exc:
        said = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg  # "Unterminated string starting at"
        raise ReplayError(f"{where}:{number}: not a JSON line ({said} at column {exc.colno})") from None
    except RecursionError:
        raise ReplayError(f"{where}:{number}: nesting too deep at line {number} "
                          f"(expected at most {MAX_DEPTH} levels)") from None
    except ValueError:  # an integer longer than Python converts
        raise ReplayError(f"{where}:{number}: a number too long to read "
                          f"(expected a number of at most a few hundred digits)") from None
    if nesting_depth(line, MAX_DEPTH) > MAX_DEPTH:
        raise ReplayError(f"{where}:{number}: nesting too deep at line {number} "
                          f"(expected at most {MAX_DEPTH} levels)")
    kind = line.get("type") if isinstance(line, dict) else None
    if not isinstance(kind, str) or kind not in validators:
        raise ReplayError(f"{where}:{number}: not a log line (expected an object whose type is "
                          f"{', '.join(validators)}; see schemas/log-line.schema.json)")
    if kind == "event" and plain_event(line):
        return line  # what the schema's event branch says, without its cost per line
    if kind == "header" and isinstance(line.get("format"), str) and line["format"] in OLDER_FORMATS:
        raise ReplayError(f"{where}:{number}: format: the log is {line['format']}, {OLDER_FORMATS[line['format']]}; "
                          f"this amunre replays {FORMAT} (replay the log with the amunre version that wrote it, "
                          f"its header's `amunre`)")
    error = jsonschema.exceptions.best_match(validators[kind].iter_errors(line))
    if error is not None:
        at = _where(error.absolute_path) if error.absolute_path else kind
        article = "an" if kind[0] in "aeiou" else "a"
        raise ReplayError(f"{where}:{number}: {at}: {_schema_message(error)} "
                          f"(in {article} {kind} line of schemas/log-line.schema.json)")
    return line


_LAST = ("result", "incomplete")


def _sized_lines(path) -> Iterator[tuple[dict, int]]:
    """(line, its size in bytes) of every line of a log file, in order, each checked (`_checked`)
    and in its place: the header first and only there, events, the result or `incomplete`
    last. `ReplayError` at the first line that is wrong, when it is reached; a log that ends
    without its last line is an error once its end is reached."""
    where = label(path)
    validators = _validators()
    number, previous = 0, None
    for number, raw in _rows(path):
        line = _checked(raw, number, where, validators)
        kind = line["type"]
        if previous in _LAST:
            raise ReplayError(f"{where}:{number - 1}: {excerpt(previous, 40)} before the last line (expected "
                              f"only events between the header and the last line)")
        if number == 1 and kind != "header":
            raise ReplayError(f"{where}:1: expected the header first, as `amunre run --log` writes")
        if number > 1 and kind == "header":
            raise ReplayError(f"{where}:{number}: a second header (expected one, on line 1)")
        previous = kind
        yield line, len(raw) + 1
    if number == 0:
        raise ReplayError(f"{where}: the log is empty (expected the JSON Lines `amunre run --log` writes)")
    if previous not in _LAST:
        raise ReplayError(f"{where}:{number}: expected the result last, as `amunre run --log` writes "
                          f"(is the log cut short?)")


def iter_log(path) -> Iterator[dict]:
    """The lines of a log file one at a time, each checked as `read_log` checks it: the
    memory it takes does not grow with the log's length."""
    return (line for line, _ in _sized_lines(path))


def read_log(path) -> list[dict]:
    """The lines of a log file, each checked against its schema branch; `ReplayError` with
    the file and line number for anything else. (`replay_log` replays a log as it reads it.)"""
    return list(iter_log(path))
