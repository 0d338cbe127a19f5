"""The checks of the arguments a Python caller passes to amunre's public API.

The public API is what README.md and docs/*.md show a program calling (`load_variant`,
`Game`, `play_game`, `make_agent`, the PettingZoo `env`, compare's jobs and executors...:
tests/test_api_arguments.py lists them). A wrong argument is an `ArgumentTypeError` (also a
`TypeError`: a value of the wrong type) or an `ArgumentValueError` (also a `ValueError`: the
right type, a wrong value), worded `NAME must be WHAT, not VALUE (a TYPE)`, the value cut
short, and a hint after it where a word more helps (`(expected one of 3, 4, 5 for
classic2003)`): never an error from inside the function (`'int' object has no attribute
'split'`), never a huge value echoed whole. Each check returns the value it accepts.
"""

from __future__ import annotations

import itertools
import numbers
import reprlib
from collections.abc import Mapping

from amunre.core.errors import ArgumentTypeError, ArgumentValueError

#: The largest seed: seeds are 63-bit, so that any game's seed fits a signed 64-bit integer.
MAX_SEED = 2**63 - 1

#: Most `overrides` a function takes: a variant has a few hundred keys, and the count bounds
#: what an endless iterator given as `overrides` costs (it is never read past it).
MAX_OVERRIDES = 1_000

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 4

_OVERRIDES = "expected a list of KEY=VALUE texts such as ['components.starting_gold=25'], or () for none"


def shown(value: object, limit: int = 60) -> str:
    """A value for a message: its repr, cut short (a long text, a long or deeply nested list);
    a text is cut in its middle past `limit` characters (a path may want more than 60)."""
    if isinstance(value, str) and limit != _SHORT.maxstring:
        text = repr(value)
        return text if len(text) <= limit else f"{text[:limit // 2]}...{text[-(limit // 2 - 3):]}"
    return _SHORT.repr(value)


def brief(value: object) -> str:
    """`shown(value)` and its type: `None (a NoneType)`, `'4' (a str)`."""
    kind = type(value).__name__
    return f"{shown(value)} ({'an' if kind[:1] in 'aeiou' else 'a'} {kind})"


def _message(name: str, value: object, expected: str, hint: str) -> str:
    return f"{name} must be {expected}, not {brief(value)}" + (f" ({hint})" if hint else "")


def wrong_type(name: str, value: object, expected: str, hint: str = "") -> ArgumentTypeError:
    return ArgumentTypeError(_message(name, value, expected, hint))


def wrong_value(name: str, value: object, expected: str, hint: str = "") -> ArgumentValueError:
    return ArgumentValueError(_message(name, value, expected, hint))


def whole_number(name: str, value: object, low: int | None = None, high: int | None = None,
                 expected: str | None = None, hint: str = "") -> int:
    """`value` as an int: a Python or NumPy integer from `low` to `high`, never a bool (True
    is 1 to Python, a mistake here), a float (4.0) or a text ("4")."""
    if expected is None:
        span = (f" from {low} to {high}" if high is not None else f" of at least {low}") if low is not None else ""
        expected = f"a whole number{span}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise wrong_type(name, value, expected, hint)
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        raise wrong_value(name, value, expected, hint)
    return number


def seed(value: object, name: str = "seed") -> int:
    """A game's seed: a whole number from 0 to MAX_SEED."""
    return whole_number(name, value, 0, MAX_SEED)


def flag(name: str, value: object) -> bool:
    """A True or False (not 0, 1 or "no", which a caller may mean otherwise)."""
    if not isinstance(value, bool):
        raise wrong_type(name, value, "True or False")
    return value


def text(name: str, value: object, hint: str = "") -> str:
    if not isinstance(value, str):
        raise wrong_type(name, value, "a str", hint)
    return value


def one_of(name: str, value: object, choices: tuple[str, ...], expected: str | None = None) -> str:
    """`value`, one of the texts `choices`."""
    expected = expected or f"one of {', '.join(choices)}"
    # (a str first: `in` would compare a numpy array element-wise)
    if not isinstance(value, str):
        raise wrong_type(name, value, expected)
    if value not in choices:
        raise wrong_value(name, value, expected)
    return value


def overrides(value: object, name: str = "overrides") -> tuple[str, ...]:
    """`--set`-style overrides: any iterable of KEY=VALUE texts (a list, a tuple, a generator),
    as a tuple of at most MAX_OVERRIDES. A single text is refused rather than read one
    character at a time (`--set c`) or taken as one override: `overrides="a=1"` is far more
    often a missing pair of brackets than a wish, and `overrides=("a=1")` looks like a tuple."""
    if isinstance(value, (str, bytes)):
        raise ArgumentTypeError(f"{name} must be a list of KEY=VALUE texts, not the text {shown(value)} "
                                f"(expected e.g. {name}=[{shown(value)}])")
    if isinstance(value, Mapping):  # its keys alone would be read
        raise ArgumentTypeError(f"{name} must be a list of KEY=VALUE texts, not a mapping {brief(value)} "
                                f"({_OVERRIDES}: [f'{{key}}={{value}}' for key, value in {name}.items()])")
    try:
        texts = tuple(itertools.islice(value, MAX_OVERRIDES + 1))  # type: ignore[call-overload]
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a list of KEY=VALUE texts, not {brief(value)} "
                                f"({_OVERRIDES})") from None
    if len(texts) > MAX_OVERRIDES:
        raise ArgumentValueError(f"{name}: more than {MAX_OVERRIDES} texts (expected at most one per key of the "
                                 f"variant)")
    for i, item in enumerate(texts):
        if not isinstance(item, str):
            raise ArgumentTypeError(f"{name}[{i}] must be a KEY=VALUE text, not {brief(item)} ({_OVERRIDES})")
    return texts


def listed(name: str, value: object, expected: str, hint: str = "", iterable: bool = False) -> list:
    """`value`, a list or tuple (not a text, a mapping, a set whose order is not kept or a
    one-shot iterator), as a list; with `iterable`, any iterable but a text or a mapping."""
    if isinstance(value, (list, tuple)) or (iterable and hasattr(value, "__iter__")
                                            and not isinstance(value, (str, bytes, Mapping))):
        return list(value)  # type: ignore[call-overload]
    raise wrong_type(name, value, expected, hint)
