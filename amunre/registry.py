"""The one registry of rule modules: rule id -> class.

A rule module declares its contract at the top of its file (id, summary, a frozen attrs
`Params` class whose fields document themselves) and registers with `@register` at the
bottom. Third-party packages add modules through the `amunre.rules` entry-point group
(`my_id = "package.module:Class"`); they are loaded on first lookup.
"""

from __future__ import annotations

from importlib.metadata import entry_points

RULES: dict[str, type] = {}
#: Plug-ins that failed to load: entry-point name -> reason (reported, never fatal).
BROKEN_PLUGINS: dict[str, str] = {}
_loaded = False

#: Where a rule id may appear in a variant file.
KINDS = ("phase", "scoring", "final_scoring")


def register(cls):
    """Class decorator: add a rule module to the registry under its `id`."""
    if cls.id in RULES and RULES[cls.id] is not cls:
        raise ValueError(f"rule id {cls.id!r} registered twice")
    RULES[cls.id] = cls
    return cls


def _load_builtin_and_plugins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import amunre.rules  # noqa: F401  (importing registers the built-in modules)

    for entry in entry_points(group="amunre.rules"):
        # one broken plug-in must not stop every variant from loading
        try:
            cls = entry.load()
        except Exception as exc:  # noqa: BLE001 - any import error of third-party code
            BROKEN_PLUGINS[entry.name] = f"{entry.value}: {type(exc).__name__}: {exc}"
            continue
        RULES.setdefault(entry.name, cls)


def all_rules() -> dict[str, type]:
    """Every registered rule module, built-in and plug-in, by id."""
    _load_builtin_and_plugins()
    return RULES


def get_rule(rule_id: str) -> type:
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
