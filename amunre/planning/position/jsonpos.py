"""Where each key of a JSON document is written: key paths to line numbers, as
`amunre.loader.tomlpos.key_lines` does for TOML, so that a problem in a JSON position points
at its line too. The same pass finds what `json.loads` lets through but a position refuses:
a key given twice in one object (the last would silently win) and the NaN and Infinity
literals (not JSON).

It scans without recursion (the text may nest thousands deep) and is meant for text that
`json.loads` has parsed; on broken input it stops quietly and keeps what it found.
"""

from __future__ import annotations

import json

CONSTANTS = ("NaN", "Infinity", "-Infinity")


def json_key_lines(text: str) -> tuple[dict[tuple, int], list[tuple[tuple, int, int]], list[tuple[tuple, int, str]]]:
    """(key path -> line of its first writing, [(path, line, first line) of each key written
    again in the same object], [(path, line, literal) of each NaN or Infinity])."""
    lines: dict[tuple, int] = {}
    repeated: list[tuple[tuple, int, int]] = []
    constants: list[tuple[tuple, int, str]] = []
    # a frame per open object or array: [kind, path, key or index, want a key?, keys seen]
    stack: list[list] = []
    i, n, line = 0, len(text), 1

    def here() -> tuple:
        """The key path of a value starting now."""
        if not stack:
            return ()
        kind, path, at, _, _ = stack[-1]
        return path + (at,) if at is not None else path

    def start_value(line: int) -> tuple:
        if stack and stack[-1][0] == "[":
            path = here()
            lines.setdefault(path, line)
            return path
        return here()

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r,:":
            if c == "," and stack:
                frame = stack[-1]
                if frame[0] == "{":
                    frame[3] = True
                else:
                    frame[2] += 1
            i += 1
        elif c in "{[":
            path = start_value(line)
            stack.append([c, path, None if c == "{" else 0, c == "{", {}])
            i += 1
        elif c in "}]":
            if stack:
                stack.pop()
            i += 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            frame = stack[-1] if stack else None
            if frame is not None and frame[0] == "{" and frame[3]:
                try:
                    key = json.loads(text[i:j + 1])
                except ValueError:
                    return lines, repeated, constants
                frame[2], frame[3] = key, False
                path = frame[1] + (key,)
                if key in frame[4]:
                    repeated.append((path, line, frame[4][key]))
                else:
                    frame[4][key] = line
                lines.setdefault(path, line)
            else:
                start_value(line)
            line += text.count("\n", i, j)  # never in valid JSON, but keep counting right
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in ' \t\r\n,:{}[]"':
                j += 1
            word = text[i:j]
            path = start_value(line)
            if word in CONSTANTS:
                constants.append((path, line, word))
            i = max(j, i + 1)
    return lines, repeated, constants
