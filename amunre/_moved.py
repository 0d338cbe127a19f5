"""The module names from before the package was laid out in layers (docs/architecture.md).

A plug-in or a script written against them (`from amunre.contract import Rule`, `import
amunre.engine`) keeps working: each old name is the new module itself (the same object in
`sys.modules`, so what is set on one is set on the other), with a `DeprecationWarning` that
names the new one. Nothing in amunre imports these names; a finder (`install`) answers only
for them, and only when they are imported.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings

#: old name -> the module it is now
MOVED = {
    "amunre.arena": "amunre.compare.arena",
    "amunre.arguments": "amunre.core.arguments",
    "amunre.benchmark": "amunre.compare.bench",
    "amunre.board": "amunre.core.board",
    "amunre.boardtext": "amunre.core.boardtext",
    "amunre.branching": "amunre.core.branching",
    "amunre.buildinfo": "amunre.cli.buildinfo",
    "amunre.contract": "amunre.core.contract",
    "amunre.counting": "amunre.core.counting",
    "amunre.decisions": "amunre.core.decisions",
    "amunre.docgen": "amunre.testing.docgen",
    "amunre.engine": "amunre.core.engine",
    "amunre.errors": "amunre.core.errors",
    "amunre.flow": "amunre.core.flow",
    "amunre.flow_words": "amunre.core.flow_words",
    "amunre.mechanics": "amunre.core.mechanics",
    "amunre.model": "amunre.core.model",
    "amunre.narrate": "amunre.core.words",
    "amunre.pettingzoo": "amunre.rl.pettingzoo",
    "amunre.pipeline": "amunre.core.modules",
    "amunre.position": "amunre.planning.position",
    "amunre.registry": "amunre.core.registry",
    "amunre.resources": "amunre.loader.resources",
    "amunre.results": "amunre.core.results",
    "amunre.round_provinces": "amunre.core.round_provinces",
    "amunre.seatfacts": "amunre.planning.seatfacts",
    "amunre.setup": "amunre.core.gamesetup",
    "amunre.standing": "amunre.core.standing",
    "amunre.state": "amunre.core.state",
    "amunre.streams": "amunre.core.streams",
    "amunre.terms": "amunre.core.terms",
    "amunre.view": "amunre.core.view",
    "amunre.core.valuation": "amunre.core.facets.valuation",
    "amunre.worth": "amunre.planning.worth",
}


def new_name(old: str) -> str | None:
    """What an old module name (or a module inside an old package: `amunre.position.read`) is now."""
    if old in MOVED:
        return MOVED[old]
    package, _, rest = old.rpartition(".")
    while package:
        if package in MOVED:
            return f"{MOVED[package]}.{old[len(package) + 1:]}"
        package = package.rpartition(".")[0]
    return None


class _Alias(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target
        self.spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        module.__spec__ = self.spec  # (the import system set the old name's: the module keeps its own)


class MovedFinder(importlib.abc.MetaPathFinder):
    """Finds an old name as the module it is now."""

    def find_spec(self, fullname, path=None, target=None):
        new = new_name(fullname) if fullname.startswith("amunre.") else None
        if new is None:
            return None
        warnings.warn(f"{fullname} is now {new}: import it from there (docs/architecture.md)", DeprecationWarning,
                      stacklevel=2)
        return importlib.machinery.ModuleSpec(fullname, _Alias(new), is_package=new.rpartition(".")[2] == "position")


def install() -> None:
    """Put the finder first in `sys.meta_path` (once): an old package's modules
    (`amunre.position.read`) must be found as the new ones, not loaded a second time from the
    new package's folder. It answers for the old names only (a prefix test and a lookup)."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
