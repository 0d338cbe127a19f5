"""How a log's problems are said: a value cut to a short excerpt, a path and a line's place shown
literally, the first difference between two lines named by its key."""

from __future__ import annotations

import json
import re

from amunre.gamelog.lines import EXCERPT, canonical

# -- messages --------------------------------------------------------------------------------

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def excerpt(value, limit: int = EXCERPT) -> str:
    """A value as short JSON text for a message: at most `limit` characters (cut in the
    middle with `...`), every control and non-ASCII character escaped."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(type(value).__name__)
    text = text.replace("\x7f", "\\u007f")
    if len(text) > limit:
        half = (limit - 3) // 2
        text = text[:half] + "..." + text[-half:]
    return text


def label(path, limit: int = 120) -> str:
    """A path as a message's `file:line` prefix: control characters escaped, cut to `limit`
    characters."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], str(path))
    if len(text) > limit:
        text = text[:60] + "..." + text[-(limit - 63):]
    return text


def shown_path(path, limit: int = 120) -> str:
    """A path quoted inside a message (see `label`), with its length when it is cut."""
    text = label(path, limit)
    return f"'{text}'" + (f" ({len(str(path))} characters)" if len(str(path)) > limit else "")


def _where(path) -> str:
    """A key path for a message: `scores/0`, `breakdown/1/"0:temples"`; a line's top level is
    `(the line)`."""
    parts = []
    for part in path:
        if isinstance(part, int):
            parts.append(str(part))
        else:
            text = excerpt(part, 40)
            parts.append(text[1:-1] if re.fullmatch(r'"[A-Za-z0-9_:.\-]+"', text) else text)
    return "/".join(parts) or "(the line)"


def first_difference(old, new, path=()):
    """(key path, old value, new value) where two JSON values first differ, types
    included; None when they are the same. Walks without deep recursion into equal parts."""
    if type(old) is not type(new):
        return path, old, new
    if isinstance(old, dict):
        # what a line is comes first: an answer where the replay has a decision says so
        for key in sorted(set(old) | set(new), key=lambda k: (k not in ("type", "event"), k)):
            if key not in old or key not in new:
                return path + (key,), old.get(key, _MISSING), new.get(key, _MISSING)
            if canonical(old[key]) != canonical(new[key]):
                return first_difference(old[key], new[key], path + (key,))
        return None
    if isinstance(old, list):
        for i, (a, b) in enumerate(zip(old, new)):
            if canonical(a) != canonical(b):
                return first_difference(a, b, path + (i,))
        if len(old) != len(new):
            return path, old, new
        return None
    return None if canonical(old) == canonical(new) else (path, old, new)


class _Missing:
    pass


_MISSING = _Missing()


def _shown(value) -> str:
    return "nothing" if value is _MISSING else excerpt(value)


def _difference_message(where: str, number: int, old: dict, new: dict) -> str:
    found = first_difference(old, new)
    path, was, now = found if found else ((), old, new)
    return (f"{where}:{number}: {_where(path)}: the log has {_shown(was)}, the replay {_shown(now)} "
            f"(the line differs on replay)")
