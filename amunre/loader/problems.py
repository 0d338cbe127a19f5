"""Problems found while loading a variant or board file, and the words that describe them.

Loading does not stop at the first problem: every step adds to one `Problems`, which lists
each as `file:line: path.to.key: what is wrong (what was expected)`, the variant file first,
then the files it extends and its board, each in line order. `Origins` knows which file set
each key of the merged data and on which line, so that `report_at` puts a problem where its
author can fix it. `show`, `got`, `one_of` and `did_you_mean` word values and expectations
the same way in every message.

Each problem is also kept structured (`Problem`: file, line, column, key path, what is wrong,
what was expected), for `amunre validate --json`; `Problems.error()` raises both at once.
A problem may come from a command-line argument (`--set KEY=VALUE`) instead of a file: it
is then written `--set KEY=VALUE: what is wrong (what was expected)`.
"""

from __future__ import annotations

import datetime
import difflib
import json
import unicodedata
from typing import Any

import attrs

from amunre.core.errors import Problem, VariantError
from amunre.loader.tomlpos import format_path


@attrs.define
class Problems:
    """Problems collected while loading, each with a file, a line and a key path."""

    items: list = attrs.field(factory=list)  # (file, line, order, Problem)
    paths: set = attrs.field(factory=set)  # (file, key path) already reported
    files: list = attrs.field(factory=list)  # files in reporting order (the variant first)
    arguments: dict = attrs.field(factory=dict)  # `--set K=V` label -> the key path it sets, as printed
    #: a file whose parent (`extends`) was not found: only what can be judged without it is checked
    orphaned: bool = False

    def add(self, file: str, line: int | None, path: tuple, what: str, expected: str | None = None,
            shown: tuple | None = None) -> None:
        shown = path if shown is None else shown
        where = format_path(shown)
        if file in self.arguments:
            # an argument names its key itself; a deeper key is named after it
            text = f"{file}: " + (f"{where}: " if where and where != self.arguments[file] else "") + what
            line = None
        else:
            line = line or 1
            text = f"{file}:{line}: {where or '(top level)'}: {what}"
        if expected:
            text += f" ({expected})"
        self.items.append((file, line or 0, (where, len(self.items)),
                           Problem(file, line, where, what, expected or None, None, text)))
        self.paths.add((file, tuple(path)))

    def add_syntax(self, file: str, line: int, column: int | None, message: str) -> None:
        """A TOML syntax error: the file cannot be read further."""
        text = f"{file}:{line}: TOML syntax error: {message}"
        self.items.append((file, line, ("", len(self.items)),
                           Problem(file, line, "", f"TOML syntax error: {message}", "expected valid TOML",
                                   column, text)))

    def records(self) -> list[Problem]:
        """The problems in report order (arguments, the variant file, its parents, its board),
        each once."""
        seen, out = set(), []

        def rank(file):
            if file in self.arguments:  # in the order given
                return (-1, list(self.arguments).index(file))
            return (self.files.index(file), "") if file in self.files else (len(self.files), file)

        for _, _, _, problem in sorted(self.items, key=lambda item: (rank(item[0]), item[1], item[2])):
            if problem.text not in seen:
                seen.add(problem.text)
                out.append(problem)
        return out

    def reported(self, file: str, path: tuple) -> bool:
        """Whether this path, or one of its parents, already has a problem."""
        path = tuple(path)
        return any((file, path[:k]) in self.paths for k in range(len(path) + 1))

    def lines(self) -> list[str]:
        return [problem.text for problem in self.records()]

    def error(self, fallback: str | None = None) -> VariantError:
        """A `VariantError` with every problem, its `details` the structured ones."""
        records = self.records()
        if not records and fallback:
            records = [Problem(fallback, 1, "", "could not be loaded", None, None,
                               f"{fallback}:1: (top level): could not be loaded")]
        error = VariantError([p.text for p in records])
        error.details = records
        return error

    def __bool__(self) -> bool:
        return bool(self.items)


@attrs.define
class Origins:
    """For each key path of the merged data: the file that sets it and the line.

    `shown` renames a path in messages (a `[params.rule]` override applied to a pipeline
    entry is reported under the name the author wrote)."""

    at: dict = attrs.field(factory=dict)  # key path -> (file label, path, line)
    shown: dict = attrs.field(factory=dict)

    def find(self, path: tuple):
        """(file label, file path, line, shown path) for the nearest written parent of `path`."""
        path = tuple(path)
        if path not in self.at:
            # a key written below it (`--set a.b.c=1` reported at the unknown `a`)
            below = [p for p in self.at if len(p) > len(path) and p[:len(path)] == path]
            if below:
                label, file, line = self.at[min(below, key=len)]
                return label, file, line, self.shown.get(min(below, key=len), path)[:len(path)] or path
        for k in range(len(path), -1, -1):
            hit = self.at.get(path[:k])
            if hit is not None:
                label, file, line = hit
                shown = self.shown.get(path[:k])
                if shown is not None:
                    shown = shown + path[k:]
                return label, file, line, shown
        return None


def report_at(problems: Problems, origins: Origins, fallback: str, path: tuple, what: str,
              expected: str | None = None, dedupe: bool = False) -> None:
    """A problem at `path` of the merged data, in the file and at the line that set it
    (`fallback`, line 1, when no file did); with `dedupe`, none for a path that has one already."""
    found = origins.find(path)
    label, line, shown = (found[0], found[2], found[3]) if found else (fallback, 1, None)
    if dedupe and problems.reported(label, path):
        return
    problems.add(label, line, path, what, expected, shown)


def show(value: Any) -> str:
    """A value as messages quote it: TOML spelling, or `a table` / `an array`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()  # as TOML writes it, not datetime.date(...)
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
    if isinstance(value, datetime.datetime):
        return "a date-time"
    if isinstance(value, datetime.date):
        return "a date"
    if isinstance(value, datetime.time):
        return "a time"
    return type(value).__name__


def got(value: Any) -> str:
    """`got <value>, <its kind>` for a value of the wrong type (only the kind for a container)."""
    if isinstance(value, (dict, list, tuple)):
        return f"got {_kind_of(value)}"
    return f"got {show(value)}, {_kind_of(value)}"


def one_of(names) -> str:
    """`expected one of: ...` naming every allowed name in order."""
    names = sorted(names)
    return "expected one of: " + ", ".join(names) if names else "expected nothing here"


def did_you_mean(word: str, names) -> str:
    """`did you mean 'x'? ` for the allowed name closest to `word`; empty when none is close."""
    close = difflib.get_close_matches(str(word), sorted(names), n=1)
    return f"did you mean {close[0]!r}? " if close else ""


def control_character_problems(data, report, path: tuple = ()) -> None:
    """Report every string (key or value) of `data` holding a control character: names and
    terms reach the terminal, where ESC, OSC or C1 sequences would act instead of print."""
    def bad(text: str):
        return next((c for c in text if _is_control(c) and c != "\t"), None)

    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str) and bad(key):
                report(path + (key,), f"the key holds the control character U+{ord(bad(key)):04X}",
                       "expected printable text")
            control_character_problems(value, report, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            control_character_problems(value, report, path + (i,))
    elif isinstance(data, str) and bad(data):
        report(path, f"the text holds the control character U+{ord(bad(data)):04X}",
               "expected printable text: no escape sequences or line breaks")


def printable(text: str) -> str:
    """`text` with control characters written as escapes (\\x1b), safe to print."""
    return "".join(repr(c)[1:-1] if _is_control(c) else c for c in text)


def _is_control(char: str) -> bool:
    """A character that does not print as itself: a C0 or C1 control character or DEL, a
    Unicode line or paragraph separator, a format character (a direction override such as
    U+202E reorders what follows on screen; zero-width ones hide), or a lone surrogate (an
    undecodable byte of an argument, which cannot even be written as UTF-8)."""
    code = ord(char)
    if code < 32 or 127 <= code < 160:
        return True
    return code > 0x7F and unicodedata.category(char) in ("Zl", "Zp", "Cf", "Cs")
