"""Warnings for parameters a variant sets where its module does not read them.

A module may read a parameter only under some rulings: the gold ranking's `theft_value` counts
only with A-THEFTGOLD. Its `Params` field says so (`doc(..., read_when={ruling: value})`,
`amunre.core.fields`). A variant whose file (or a `--set`) writes such a parameter while its
rulings are otherwise loads as before, with a warning naming the key, its file and line, and
the ruling that leaves it unread (`Variant.warnings`; `amunre validate` prints them).
"""

from __future__ import annotations

from typing import Any

import attrs

from amunre.core.errors import Problem
from amunre.loader.pipelines import PIPELINES
from amunre.loader.problems import show
from amunre.loader.tomlpos import format_path


def unread_parameters(data: dict, origins, rulings, rules: dict, written_here) -> list[Problem]:
    """A warning for each parameter of a pipeline entry that the loaded file or a `--set` writes
    (`written_here(label)`) while a ruling its module reads it under has another value."""
    found: list[Problem] = []
    for pipeline in PIPELINES:
        for path, entry in _entries(data.get(pipeline), (pipeline,)):
            cls = rules.get(entry.get("rule"))
            params = entry.get("params")
            if cls is None or not isinstance(params, dict):
                continue
            for field in attrs.fields(cls.Params):
                read_when = field.metadata.get("read_when")
                at = path + ("params", field.name)
                origin = origins.at.get(at)
                if not read_when or field.name not in params or origin is None or not written_here(origin[0]):
                    continue
                for ruling, wanted in read_when.items():
                    value = getattr(rulings, ruling, wanted)
                    if value != wanted:
                        found.append(_warning(origins, at, origin, entry["rule"], field.name, ruling, wanted, value,
                                              _spec_of(cls, ruling)))
                        break
    return found


def _entries(entries: Any, path: tuple):
    """(key path, entry) of every entry of a pipeline, a group's steps included."""
    if not isinstance(entries, list):
        return
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        if isinstance(entry.get("steps"), list):
            yield from _entries(entry["steps"], path + (i, "steps"))
        else:
            yield path + (i,), entry


def _spec_of(cls, ruling: str) -> str:
    for field in attrs.fields(cls.Rulings):
        if field.name == ruling:
            return field.metadata.get("spec", "")
    return ""


def _warning(origins, at: tuple, origin: tuple, rule: str, name: str, ruling: str, wanted, value, spec: str) -> Problem:
    label, _, line = origin
    shown = format_path(origins.shown.get(at, at))
    ruled = f"{ruling} ({spec})" if spec else ruling
    message = (f"not read: {rule} reads {name} only with {ruled} = {show(wanted)}, and this variant has "
               f"{show(value)}")
    expected = f"set rulings.{ruling} = {show(wanted)} for it to count, or remove the key"
    # a file's key is named after its line; a `--set` argument names its key itself
    where = f"{label}:{line}: {shown}" if line else label
    return Problem(label, line, shown, message, expected, None, f"{where}: warning: {message} ({expected})")
