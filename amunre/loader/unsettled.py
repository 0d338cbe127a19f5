"""Stand-ins for the parts of a variant that failed to type, so that every problem is
reported at once.

The rule modules' own checks (`check_rules`) need a built `Variant`. When another layer
has already found a problem, the loader builds one anyway from what did type, with an
`Unsettled` stand-in for each part that did not: the fields of that part that are fine on
their own read as usual, and reading any other raises `Undecided`. A check that reads an
undecided value is skipped, because its answer depends on how that value gets fixed; any
check that reads only settled values reports now, beside the type errors.
"""

from __future__ import annotations

from typing import Any

import attrs

from amunre.loader.shape import typed_value


class Undecided(Exception):
    """A check read a value that has a problem of its own."""


class Unsettled:
    """A part of the variant (e.g. `components`) that did not type as a whole: its `settled`
    fields read as usual, anything else raises `Undecided`."""

    def __init__(self, what: str, settled: dict[str, Any] | None = None):
        self.__dict__.update(settled or {})
        self.__dict__["_what"] = what

    def __getattr__(self, name: str):  # only reached for a name that did not settle
        raise Undecided(f"{self._what}.{name}")

    # a board, a list of entries or a table read as a whole is undecided too
    def __len__(self):
        raise Undecided(self._what)

    def __iter__(self):
        raise Undecided(self._what)

    def __getitem__(self, key):
        raise Undecided(f"{self._what}[{key!r}]")

    def __bool__(self):
        return True  # `x or default` must not quietly replace an undecided part


def settle(data: Any, cls, what: str) -> Unsettled:
    """The fields of attrs class `cls` that type and validate on their own from table `data`,
    each by itself; defaults fill the fields `data` leaves out."""
    settled: dict[str, Any] = {}
    if isinstance(data, dict) and attrs.has(cls):
        attrs.resolve_types(cls)
        for field in attrs.fields(cls):
            try:
                settled[field.name] = _settle_field(data, field, settled)
            except Exception:  # noqa: BLE001 - a field that fails stays undecided
                continue
    return Unsettled(what, settled)


def _settle_field(data: dict, field: attrs.Attribute, settled: dict):
    if field.name in data:
        value = typed_value(data[field.name], field.type)
        if field.converter is not None:
            value = field.converter(value)
    elif "follows" in field.metadata:  # (`amunre.core.fields.follows`: another field's value)
        value = settled[field.metadata["follows"]]  # undecided while that one is
    elif isinstance(field.default, attrs.Factory) and not field.default.takes_self:
        value = field.default.factory()
    elif field.default is not attrs.NOTHING:
        value = field.default
    else:
        raise Undecided(field.name)
    if field.validator is not None:
        field.validator(None, field, value)
    return value
