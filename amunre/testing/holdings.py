"""Everything a game object holds, as plain data: to compare two games in full.

The [views] invariant hands a seat's `sample_game()` of two games that differ only in what
the seat may not know, and asks that the two samples hold the same things: not only their
states and requests, but their seeds, checkpoints, recorded inputs, and the running rule
step's own variables (its generator's frames). `holdings(game)` walks all of it. A value of
a kind it does not know is an error, not a silent skip: a new attribute that could carry a
hidden fact must be taught here before the invariant can vouch for it.

Shared, read-only parts (the variant, its rule modules, functions) are named, not walked:
they are the same in every game of a variant.

On the compiled build (docs/performance.md) a rule step is a compiled generator and a helper a
compiled function: their names and where each generator of a chain stands are walked, but their
variables are not visible to Python. The pure build, which CI checks too, walks them in full.
"""

from __future__ import annotations

import random
import types

import attrs

from amunre.core.decisions import Lazy, Request
from amunre.core.model import Variant
from amunre.core.state import GameState, PlayerState, ProvinceState

_PLAIN = (type(None), bool, int, float, str, bytes)
_PLAIN_TYPES = frozenset(_PLAIN)


def holdings(game) -> dict:
    """Every attribute of `game`, walked into plain data (see the module docstring)."""
    return _Walker(game).walk_root()


class _Walker:
    def __init__(self, root):
        self.root = root
        self.seen: dict[int, int] = {}  # id -> order first seen, for shared and cyclic references
        # every object seen, kept alive: a temporary one (a request's context as a dict) freed
        # during the walk would leave its id to the next, which would then read as seen before
        self.kept: list = []

    def walk_root(self) -> dict:
        return {name: self.walk(value) for name, value in sorted(_attributes(self.root).items())}

    def walk(self, value):
        kind = type(value)
        if kind in _PLAIN_TYPES:
            return value
        if (kind is list or kind is tuple) and all(type(v) in _PLAIN_TYPES for v in value):
            return [kind.__name__, list(value)]  # most of a state: counts and ids, nothing to follow
        if isinstance(value, _PLAIN):
            return value
        if value is self.root:
            return "<the game>"
        key = id(value)
        if key in self.seen:
            return ("<seen>", self.seen[key])
        self.seen[key] = len(self.seen)
        self.kept.append(value)
        return self._walk_new(value)

    def _walk_new(self, value):
        from amunre.core.contract import Rule
        from amunre.core.engine import Game
        from amunre.core.view import PlayerView

        walk = self.walk
        if isinstance(value, (list, tuple)):
            return [type(value).__name__, [walk(v) for v in value]]
        if isinstance(value, (set, frozenset)):
            return ["set", sorted(repr(walk(v)) for v in value)]
        if isinstance(value, dict):
            if all(type(k) is str for k in value):
                return ["dict", [(k, walk(value[k])) for k in sorted(value)]]
            return ["dict", sorted((repr(walk(k)), repr(walk(v))) for k, v in value.items())]
        if isinstance(value, (GameState, PlayerState, ProvinceState)):
            return [type(value).__name__, {k: walk(getattr(value, k)) for k in type(value).__slots__}]
        if isinstance(value, random.Random):
            return ["Random", list(value.getstate()[1]), value.getstate()[2]]
        if isinstance(value, Request):
            return ["Request", value.player, value.kind, walk(value.options), walk(dict(value.context)),
                    value.simultaneous]
        if isinstance(value, Lazy):
            return ["Lazy", walk(dict(value))]
        if _is_generator(value):
            return self._generator(value)
        if isinstance(value, Game):
            raise TypeError("a game holds another game: holdings() cannot vouch for it")
        if isinstance(value, (Variant, Rule)) or type(value).__name__ == "Modules":
            return ["shared", type(value).__name__, getattr(value, "id", None) or getattr(value, "key", None)]
        if attrs.has(type(value)):  # a variant's frozen settings (a rule's params, rulings)
            return ["settings", type(value).__qualname__, repr(value)]
        if isinstance(value, PlayerView):
            return ["PlayerView", value.player]
        if isinstance(value, types.MethodType):
            return ["method", value.__func__.__qualname__, walk(value.__self__)]
        if isinstance(value, types.FunctionType) or type(value).__name__ == COMPILED_FUNCTION:
            cells = [c.cell_contents for c in value.__closure__ or ()]
            return ["function", value.__qualname__, walk(cells)]
        if isinstance(value, (types.BuiltinFunctionType, type)):
            return ["builtin", getattr(value, "__qualname__", repr(value))]
        if hasattr(type(value), "__slots__") or hasattr(value, "__dict__"):
            module = type(value).__module__
            if module.startswith("amunre.") and not module.startswith("amunre.rules"):
                return [type(value).__name__, {k: walk(v) for k, v in sorted(_attributes(value).items())}]
        raise TypeError(f"holdings() does not know how to compare a {type(value).__module__}."
                        f"{type(value).__qualname__}: teach amunre.testing.holdings what it may hold")

    def _generator(self, gen) -> list:
        """A running step: where each frame of its `yield from` chain stands and its variables."""
        frames = []
        while _is_generator(gen):
            frame = gen.gi_frame
            if frame is None:
                frames.append([gen.gi_code.co_qualname, "finished"])
                break
            frames.append([gen.gi_code.co_qualname, frame.f_lasti,
                           {name: self.walk(v) for name, v in sorted(frame.f_locals.items())}])
            gen = gen.gi_yieldfrom
        return ["generator", frames]


#: The type names of a Cython-compiled function and generator (their module names Cython's version).
COMPILED_FUNCTION = "cython_function_or_method"
COMPILED_GENERATOR = "generator"


def _is_generator(value) -> bool:
    if isinstance(value, types.GeneratorType):
        return True
    kind = type(value)
    return kind.__name__ == COMPILED_GENERATOR and kind.__module__.startswith("_cython_")


def _attributes(obj) -> dict:
    found = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                found[name] = getattr(obj, name)
    return found
