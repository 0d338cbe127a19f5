"""Fields that document themselves and say their range: what a variant's typed form (`amunre.core.model`),
its board and every rule module's `Params` are declared with.

`doc(text, ...)` is an attrs field whose documentation the generated docs and the schema read;
`bounded(low, high)` and its kin are validators: every count and parameter declares its range,
so a variant that loads always plays a finite game in bounded memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import attrs

V = TypeVar("V")

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeAlias

    #: An attrs validator of values V: (instance, attribute, value); a list's member
    #: validator is given the list's attribute.
    Validator: TypeAlias = Callable[[Any, "attrs.Attribute[Any]", V], Any]


def doc(text: str, read_when: dict[str, Any] | None = None, **kw: Any) -> Any:
    """An attrs field carrying its own documentation. `read_when` ({ruling field: value}) says
    that the module reads this parameter only under those rulings (a held theft card's value
    only with A-THEFTGOLD): a variant that sets it under others is warned that it is not read
    (`amunre.loader.unread`)."""
    metadata: dict[str, Any] = {"doc": text}
    if read_when:
        metadata["read_when"] = dict(read_when)
    return attrs.field(metadata=metadata, **kw)


def follows(name: str, text: str, **kw: Any) -> Any:
    """An attrs field carrying its own documentation whose default is the value of the field
    `name` before it in the same class: a specific key that falls back to a shared one (the
    market's price of one kind, which is the shared price unless set). The generated docs,
    the schema and the loader's stand-ins read the field it follows from `metadata["follows"]`."""
    return attrs.field(default=attrs.Factory(lambda self: getattr(self, name), takes_self=True),
                       metadata={"doc": text, "follows": name}, **kw)


def bounded(low: int, high: int) -> list[Validator[int]]:
    """A validator: a whole number from `low` to `high`. Every count and parameter declares
    its range, so a variant that loads always plays a finite game in bounded memory."""
    return [attrs.validators.ge(low), attrs.validators.le(high)]


def bounded_items(low: int, high: int, most: int) -> _ItemBounds:
    """A validator: at most `most` whole numbers, each from `low` to `high`; an item out of
    range is named by its index (the loader reports it at `name[index]`)."""
    return _ItemBounds(attrs.validators.and_(*bounded(low, high)), attrs.validators.max_len(most))


@attrs.frozen
class _ItemBounds:
    """Validates a list item by item, naming the index of an item out of range. Its
    `member_validator` and `iterable_validator` are those of attrs' `deep_iterable`, so the
    schema generator reads the bounds from it alike."""

    member_validator: Validator[int]
    iterable_validator: Validator[Sequence[int]]

    def __call__(self, instance: Any, attribute: attrs.Attribute[Any], value: Sequence[int]) -> None:
        self.iterable_validator(instance, attribute, value)
        for index, item in enumerate(value):
            try:
                self.member_validator(instance, attribute, item)
            except ValueError as exc:
                # 'name' must be >= 0: -1  ->  'name.3' must be >= 0: -1
                raise ValueError(str(exc).replace(f"'{attribute.name}'", f"'{attribute.name}.{index}'", 1)) from None


def bounded_values(low: int, high: int) -> Validator[dict[str, int]]:
    """A validator: a table of whole numbers, each from `low` to `high`; a value out of range
    is named by its key (the loader reports it at that key)."""

    def check(_instance: Any, attribute: attrs.Attribute[Any], table: dict[str, int]) -> None:
        for key, value in table.items():
            if value < low:
                raise ValueError(f"'{attribute.name}.{key}' must be >= {low}: {value}")
            if value > high:
                raise ValueError(f"'{attribute.name}.{key}' must be <= {high}: {value}")

    return check
