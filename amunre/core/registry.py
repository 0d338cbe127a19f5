"""The one registry of rule modules: rule id -> class.

A rule module declares its contract at the top of its file (id, summary, a frozen attrs
`Params` class whose fields document themselves) and registers with `@register` at the
bottom; the registry imports the built-in ones (`BUILT_IN_RULES`) by name on first lookup,
as it does plug-ins. Third-party packages add modules through the `amunre.rules` entry-point group
(`my_id = "package.module:Class"`); they are loaded on first lookup. A plug-in that fails to
import, is not a `Rule`, or whose name is taken (a built-in rule id, another plug-in's) is
kept out and recorded in `BROKEN_PLUGINS`, and a variant that uses its id says why.
"""

from __future__ import annotations

import importlib
import threading
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from amunre.core.contract import Rule

    R = TypeVar("R", bound=type[Rule])

RULES: dict[str, type[Rule]] = {}
#: Plug-ins that failed to load, or whose name another module has: entry-point name -> reason
#: (reported in the error of a variant that uses that id, never fatal to the others).
BROKEN_PLUGINS: dict[str, str] = {}
_loaded = False
_LOADING = threading.RLock()  # (re-entrant: a plug-in's import may look a rule up)

#: The installed package (distribution) of each plug-in loaded through its entry point:
#: rule id -> package name (`plugin_origin`).
PLUGIN_PACKAGES: dict[str, str] = {}

#: Where a rule id may appear in a variant file.
KINDS = ("phase", "scoring", "final_scoring")


def register(cls: R) -> R:
    """Class decorator: add a rule module to the registry under its `id`."""
    if cls.id in RULES and RULES[cls.id] is not cls:
        raise ValueError(f"rule id {cls.id!r} registered twice")
    RULES[cls.id] = cls
    return cls


def _load_builtin_and_plugins() -> None:
    global _loaded
    if _loaded:
        return
    with _LOADING:  # two threads loading their first variant at once (`amunre serve`) load it once
        if _loaded:
            return
        _load_all()
        _loaded = True  # only once every module is in: another thread must not see half of them


#: The package of the built-in rule modules: importing it registers them. The core finds them by
#: this name when it first looks a rule up, as it finds a plug-in's by its entry point, and never
#: imports them itself: the rules stand on the core, not the other way round (docs/architecture.md).
BUILT_IN_RULES = "amunre.rules"


def _load_all() -> None:
    importlib.import_module(BUILT_IN_RULES)

    for entry in entry_points(group="amunre.rules"):
        # one broken plug-in must not stop every variant from loading
        try:
            cls = entry.load()
        except Exception as exc:  # noqa: BLE001 - any import error of third-party code
            BROKEN_PLUGINS[entry.name] = f"{entry.value}: {type(exc).__name__}: {exc}"
            continue
        wrong = _not_a_module(entry, cls)
        if wrong:
            BROKEN_PLUGINS[entry.name] = f"{entry.value}: {wrong}"
            continue
        RULES[entry.name] = cls
        dist = getattr(entry, "dist", None)  # the installed package that declares the entry point
        name = dist.metadata["Name"] if dist is not None and dist.metadata is not None else None
        if name:
            PLUGIN_PACKAGES[entry.name] = name


def _not_a_module(entry: EntryPoint, cls: object) -> str | None:
    """Why a loaded plug-in cannot be registered under its entry-point name, or None. Its
    name taken already (a built-in rule id, another plug-in's) is one reason: kept out, and
    named in the error of a variant that uses that id (`amunre.loader.checks`), instead of
    one of the two being used without a word."""
    from amunre.core.contract import Rule

    if not (isinstance(cls, type) and issubclass(cls, Rule)):
        return f"{cls!r} is not a rule module (expected a subclass of amunre.core.contract.Rule)"
    if cls.id != entry.name:
        return f"its class has the id {cls.id!r}, not its entry-point name {entry.name!r} (expected the same id)"
    taken = RULES.get(entry.name)
    if taken is not None and taken is not cls:  # the same class: it also registered itself with @register
        where = f"{taken.__module__}:{taken.__qualname__}"
        owner = (f"the built-in rule module {where}" if is_built_in(taken)
                 else f"the plug-in {where}")
        return f"its name {entry.name!r} is already the id of {owner}, so it was not loaded"
    return None


def all_rules() -> dict[str, type[Rule]]:
    """Every registered rule module, built-in and plug-in, by id."""
    _load_builtin_and_plugins()
    return RULES


def is_built_in(cls: type) -> bool:
    """Whether a rule class is one of amunre's own modules (not a plug-in's)."""
    return cls.__module__ == BUILT_IN_RULES or cls.__module__.startswith(BUILT_IN_RULES + ".")


def plugin_origin(rule_id: str) -> dict[str, str | None] | None:
    """None for a built-in rule module (or an unknown id); for a plug-in, where it comes from:
    {"rule": its id, "module": the module its class is defined in, "package": the installed
    package whose entry point registered it (None when not known: registered otherwise)}."""
    cls = all_rules().get(rule_id)
    if cls is None or is_built_in(cls):
        return None
    return {"rule": rule_id, "module": cls.__module__, "package": PLUGIN_PACKAGES.get(rule_id)}


def get_rule(rule_id: str) -> type[Rule]:
    """The rule class for an id; KeyError with the available ids otherwise."""
    rules = all_rules()
    try:
        return rules[rule_id]
    except KeyError:
        broken = BROKEN_PLUGINS.get(rule_id)
        why = f"; its plug-in failed to load: {broken}" if broken else ""
        raise KeyError(
            f"unknown rule module {rule_id!r} (available: {', '.join(sorted(rules))}){why}"
        ) from None
