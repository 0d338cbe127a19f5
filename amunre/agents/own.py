"""An agent of one's own, named by where its code is rather than by a kind amunre knows.

A spec `LOCATION:NAME[:KEY=VALUE...]` names the object `NAME` of a module or a file:

- `mypkg.bots:Cautious`: the module `mypkg.bots` (imported as Python would, the current
  directory searched too, as `python -m` does);
- `./my_bot.py:Cautious` or `bots/my_bot.py:Cautious`: a file (a path with a `/` or
  ending in `.py`), loaded once per process under a module name of its own, its folder
  first on `sys.path` while it loads (its top-level imports find the files beside it).

`NAME` is told from a parameter by having no `=`. The object is a class or a factory; each
seat of each game gets `NAME(**params)` of its own, with `rng=` the seat's generator when
`NAME` takes a parameter named `rng`. A parameter's value is a text, or the number or flag
its default is (`caution: float = 0.5` gets `0.7` from `caution=0.7`); a key `NAME` does not
take is refused before any game, naming the keys it takes. The spec is a plain string, so it
travels to worker processes, each of which resolves it again (the module or file must be
there too).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

from amunre.core.errors import ArgumentValueError

#: What an own agent's spec looks like, for the messages.
SHAPE = "LOCATION:NAME, e.g. mypkg.bots:Cautious or ./my_bot.py:Cautious:caution=0.7"

_resolved: dict[tuple[str, str], Any] = {}
_RESOLVING = threading.Lock()


def is_file_location(location: str) -> bool:
    """Whether a location names a file (a path) rather than a module."""
    return location.endswith(".py") or "/" in location or "\\" in location


def join_drive(parts: list[str]) -> list[str]:
    """`C:\\bots\\my_bot.py:Cautious` split at its colons: the drive letter joined back to its path."""
    if len(parts) > 1 and len(parts[0]) == 1 and parts[0].isalpha() and parts[1][:1] in ("\\", "/"):
        return [f"{parts[0]}:{parts[1]}", *parts[2:]]
    return parts


def describe(kind: str) -> str:
    """How a message names an own agent's code: `the file ./my_bot.py` or `the module mypkg.bots`."""
    location, _, _ = kind.rpartition(":")
    return f"the file {location}" if is_file_location(location) else f"the module {location}"


def factory_of(kind: str) -> Any:
    """The object a `LOCATION:NAME` kind names, loaded once per process; an
    ArgumentValueError naming the spec and what went wrong when it cannot be had."""
    key = (os.getcwd(), kind)  # (a relative path or a module on the current directory reads from there)
    found = _resolved.get(key)
    if found is None:
        with _RESOLVING:
            found = _resolved.get(key)
            if found is None:
                found = _resolved[key] = _load(kind)
    return found


def _load(kind: str) -> Any:
    location, _, name = kind.rpartition(":")
    module = _load_file(kind, location) if is_file_location(location) else _import(kind, location)
    try:
        found = getattr(module, name)
    except AttributeError:
        public = sorted(n for n, v in vars(module).items() if not n.startswith("_") and inspect.isclass(v)
                        and getattr(v, "__module__", None) == module.__name__)
        raise ArgumentValueError(f"agent {kind!r}: {describe(kind)} has no {name!r} (expected a class or factory "
                                 f"there; its classes: {', '.join(public) or 'none'})") from None
    if not callable(found):
        raise ArgumentValueError(f"agent {kind!r}: {name} in {describe(kind)} is a {type(found).__name__}, not a "
                                 f"class or factory (expected something to call for each seat's agent)")
    return found


def _import(kind: str, location: str):
    try:
        return importlib.import_module(location)
    except ModuleNotFoundError as exc:
        top = location.split(".")[0]
        if exc.name != top or os.getcwd() in sys.path or "" in sys.path:
            raise _cannot_load(kind, exc) from None
    except BaseException as exc:  # the researcher's code failed, sys.exit too: said as its failure
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _cannot_load(kind, exc) from None
    # not found on the path: the current directory too, as `python -m` searches it
    sys.path.append(os.getcwd())
    try:
        return importlib.import_module(location)
    except BaseException as exc:  # the researcher's code failed, sys.exit too: said as its failure
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _cannot_load(kind, exc) from None


def _load_file(kind: str, location: str):
    path = Path(location).expanduser()
    if not path.is_file():
        raise ArgumentValueError(f"agent {kind!r}: no file {location} (from {os.getcwd()}; expected a Python "
                                 f"file's path, {SHAPE})")
    resolved = path.resolve()
    # a module name of its own per file, so two files both named my_bot.py do not meet
    digest = hashlib.blake2b(str(resolved).encode(), digest_size=6).hexdigest()
    module_name = f"amunre_own_agent_{resolved.stem.replace('-', '_')}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise ArgumentValueError(f"agent {kind!r}: {location} cannot be loaded as Python (expected a .py file)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # (a dataclass or pickle in it looks its module up by name)
    # its own folder first on the path while it loads, as `python my_bot.py` would have it:
    # `from frugal import Frugal` finds frugal.py beside it (then the path is as it was, so that
    # a file there named like a module elsewhere shadows nothing afterwards)
    folder = str(resolved.parent)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # the researcher's file failed while loading, sys.exit too
        del sys.modules[module_name]
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _cannot_load(kind, exc) from None
    finally:
        if folder in sys.path:
            sys.path.remove(folder)  # (the first occurrence: the one inserted, unless the file moved it)
    return module


def _cannot_load(kind: str, exc: BaseException) -> ArgumentValueError:
    return ArgumentValueError(f"agent {kind!r}: {describe(kind)} could not be loaded: {failure(exc)}")


def failure(exc: BaseException) -> str:
    """`Type: message (file, line N, in function)`: an exception of the researcher's code and
    the last place it passed in code outside amunre (where the fault most likely is)."""
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{text}" if str(exc.lineno) in text else f"{text} ({exc.filename}, line {exc.lineno})"
    amunre_root = str(Path(__file__).resolve().parents[1])
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not str(Path(f.filename).resolve()).startswith(amunre_root) and "importlib" not in f.filename]
    if frames:
        last = frames[-1]
        text += f" ({last.filename}, line {last.lineno}, in {last.name})"
    return text


def make_own(kind: str, params: dict[str, str], rng) -> Any:
    """A seat's agent of an own kind: its factory called with the parameters as it takes them
    (the module docstring says how); an ArgumentValueError when they do not fit or it raises."""
    factory = factory_of(kind)
    arguments = _arguments(kind, factory, params)
    if _takes_rng(factory):
        arguments["rng"] = rng
    try:
        return factory(**arguments)
    except BaseException as exc:  # the researcher's code failed, sys.exit too: said as its failure
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise ArgumentValueError(f"agent {kind!r} could not be made: {failure(exc)}") from None


def _signature(factory) -> inspect.Signature | None:
    try:
        return inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without one: call it as it is
        return None


def _takes_rng(factory) -> bool:
    signature = _signature(factory)
    return signature is not None and "rng" in signature.parameters


def _arguments(kind: str, factory, params: dict[str, str]) -> dict[str, Any]:
    """The parameters as keyword arguments of `factory`, each converted to its default's type."""
    signature = _signature(factory)
    if signature is None:
        return dict(params)
    taken = {n: p for n, p in signature.parameters.items() if n != "rng" and p.kind in
             (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)}
    open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())
    out: dict[str, Any] = {}
    for key, text in params.items():
        parameter = taken.get(key)
        if parameter is None:
            if open_ended:
                out[key] = text
                continue
            keys = ", ".join(taken) or "none"
            raise ArgumentValueError(f"agent {kind!r} takes no parameter {key!r} (its parameters: {keys})")
        out[key] = _converted(kind, key, text, parameter.default)
    missing = [n for n, p in taken.items() if p.default is inspect.Parameter.empty and n not in out]
    if missing:
        raise ArgumentValueError(f"agent {kind!r} needs {', '.join(missing)} (expected e.g. "
                                 f"{kind}:{missing[0]}=VALUE; parameters without a default must be given)")
    return out


def _converted(kind: str, key: str, text: str, default: Any) -> Any:
    """`text` as its parameter's default's type: a flag, a whole number or a number; else the text."""
    try:
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError
            return text.lower() in ("true", "1", "yes")
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
    except ValueError:
        raise ArgumentValueError(f"agent {kind!r}: {key}={text!r} is not a {type(default).__name__} (expected one "
                                 f"like its default, {default!r})") from None
    return text
