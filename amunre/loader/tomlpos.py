"""Where each key of a TOML document is written: key paths to line numbers.

`tomllib` returns plain data without positions, so error messages could not point at a line.
This module scans the text once more and records, for every key it meets, the line where
that key is written. A key path is a tuple of table keys (str) and array indices (int,
0-based); it prints as `phases[2].params.bid_spaces`.

What it understands: `[table]` and `[[array]]` headers (the n-th `[[phases]]` is
`phases[n-1]`; `[phases.params]` after it belongs to that element), `key = value` lines,
dotted and quoted keys, inline tables, arrays spanning several lines (each element gets the
line it starts on), all four kinds of strings, and comments. It is meant to run on text that
`tomllib` has already accepted: on broken input it stops quietly and keeps what it found.
"""

from __future__ import annotations

import json
import re

Path = tuple  # a key path: tuple[str | int, ...]

_PUNCT = "[]{}=,."
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")

# token kinds
_NL, _PUN, _STR, _WORD = "nl", "punct", "str", "word"


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, value, line) for the whole text; comments dropped, newlines kept as tokens."""
    out: list[tuple[str, str, int]] = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            out.append((_NL, "\n", line))
            line += 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c in _PUNCT:
            out.append((_PUN, c, line))
            i += 1
        elif c in "\"'":
            start_line = line
            multi = text.startswith(c * 3, i)
            if multi:
                end = text.find(c * 3, i + 3)
                while end != -1 and c == '"' and _escaped(text, end):
                    end = text.find(c * 3, end + 1)
                if end == -1:
                    end = n
                # a closing delimiter may carry up to two more quotes of content
                while end + 3 < n and text[end + 3] == c:
                    end += 1
                body = text[i + 3:end]
                i = end + 3
            else:
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if (c == '"' and text[j] == "\\") else 1
                body = text[i + 1:j]
                if c == '"':
                    try:
                        body = json.loads('"' + body + '"')
                    except ValueError:
                        pass
                i = j + 1
            if multi:
                line += body.count("\n")
            out.append((_STR, body, start_line))
        else:
            j = i
            while j < n and text[j] not in " \t\r\n#\"'" and text[j] not in "[]{}=,":
                j += 1
            out.append((_WORD, text[i:j], line))
            i = j
    return out


def _escaped(text: str, pos: int) -> bool:
    """Whether the character at pos is preceded by an odd number of backslashes."""
    k = pos - 1
    count = 0
    while k >= 0 and text[k] == "\\":
        count += 1
        k -= 1
    return count % 2 == 1


class _Scanner:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0
        self.lines: dict[tuple, int] = {}
        self.arrays: dict[tuple, int] = {}  # array-of-tables path -> elements seen

    # -- helpers -------------------------------------------------------------------------
    def peek(self, ahead: int = 0):
        k = self.i + ahead
        return self.toks[k] if k < len(self.toks) else (None, None, 0)

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def skip_newlines(self) -> None:
        while self.peek()[0] == _NL:
            self.i += 1

    def record(self, path: tuple, line: int) -> None:
        self.lines.setdefault(path, line)

    def key(self, stop: str) -> list[str]:
        """A dotted key up to (not including) the punctuation `stop`."""
        parts: list[str] = []
        while True:
            kind, value, _ = self.peek()
            if kind is None or kind == _NL or (kind == _PUN and value == stop):
                return parts
            self.i += 1
            if kind == _STR:
                parts.append(value)
            elif kind == _WORD:
                parts.extend(p for p in value.split(".") if p)
            # a lone "." between quoted parts needs nothing

    # -- document ------------------------------------------------------------------------
    def run(self) -> dict[tuple, int]:
        table: tuple = ()
        while self.i < len(self.toks):
            self.skip_newlines()
            kind, value, line = self.peek()
            if kind is None:
                break
            if kind == _PUN and value == "[":
                is_array = self.peek(1)[:2] == (_PUN, "[")
                self.i += 2 if is_array else 1
                parts = self.key("]")
                self.i += 2 if is_array else 1
                table = self.header(parts, is_array, line)
            elif kind in (_WORD, _STR):
                self.pair(table)
            else:  # not valid TOML at statement level: stop quietly
                break
            # ignore anything left on the line
            while self.peek()[0] not in (_NL, None):
                self.i += 1
        return self.lines

    def header(self, parts: list[str], is_array: bool, line: int) -> tuple:
        path: tuple = ()
        for k, part in enumerate(parts):
            path += (part,)
            last = k == len(parts) - 1
            if last and is_array:
                self.record(path, line)
                count = self.arrays.get(path, 0) + 1
                self.arrays[path] = count
                path += (count - 1,)
            elif path in self.arrays:
                path += (self.arrays[path] - 1,)
            self.record(path, line)
        return path

    def pair(self, table: tuple) -> None:
        line = self.peek()[2]
        parts = self.key("=")
        if self.peek()[:2] != (_PUN, "="):
            return
        self.i += 1
        path = table
        for part in parts:
            path += (part,)
            self.record(path, line)
        self.value(path)

    def value(self, path: tuple) -> None:
        kind, value, line = self.peek()
        if kind == _PUN and value == "{":
            self.i += 1
            while True:
                kind, value, line = self.peek()
                if kind is None or kind == _NL:
                    return
                if kind == _PUN and value in ",":
                    self.i += 1
                    continue
                if kind == _PUN and value == "}":
                    self.i += 1
                    return
                self.pair(path)
        elif kind == _PUN and value == "[":
            self.i += 1
            index = 0
            while True:
                self.skip_newlines()
                kind, value, line = self.peek()
                if kind is None:
                    return
                if kind == _PUN and value == "]":
                    self.i += 1
                    return
                if kind == _PUN and value == ",":
                    self.i += 1
                    continue
                element = path + (index,)
                self.record(element, line)
                self.value(element)
                index += 1
        else:
            # a scalar: a string, or one or more words (a date and time may hold a space)
            self.i += 1
            if kind == _WORD:
                while self.peek()[0] == _WORD:
                    self.i += 1


def key_lines(text: str) -> dict[tuple, int]:
    """Every key path written in `text` -> the line (1-based) where it is written."""
    return _Scanner(text).run()


def line_for(lines: dict[tuple, int], path: tuple) -> int | None:
    """The line of `path`, or of its nearest written parent; None when nothing matches."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return None


def format_path(path) -> str:
    """`("phases", 2, "params", "bid_spaces")` -> `phases[2].params.bid_spaces`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            text = part if _BARE.match(part) else json.dumps(part, ensure_ascii=False)
            out += f".{text}" if out else text
    return out


def parse_path(text: str) -> tuple:
    """The inverse of `format_path` for bare keys: `phases[2].params` -> ("phases", 2, "params")."""
    out: list = []
    for match in re.finditer(r'"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+)|\[(\d+)\]', text):
        quoted, bare, index = match.groups()
        if index is not None:
            out.append(int(index))
        elif quoted is not None:
            out.append(json.loads(f'"{quoted}"'))
        else:
            out.append(bare)
    return tuple(out)
