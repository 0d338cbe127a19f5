"""Which build of amunre is running: pure Python, or with modules compiled by Cython.

`AMUNRE_COMPILE=1 pip install .` compiles the engine's hot modules from their own .py files
(setup.py, docs/performance.md); Python then imports the compiled file, found beside the .py,
in its place. What counts is what would be imported, so this looks at the installed package's
files and never imports a module to find out.
"""

from __future__ import annotations

import importlib.machinery
import os

import amunre

#: The file name endings of compiled modules on this Python (".cpython-311-x86_64-linux-gnu.so", ".so" ...).
COMPILED_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def compiled_modules() -> list[str]:
    """The dotted names of amunre's modules that import from a compiled file, sorted."""
    names = set()
    for root in amunre.__path__:
        for folder, _, files in os.walk(root):
            package = os.path.relpath(folder, os.path.dirname(root)).replace(os.sep, ".")
            for name in files:
                suffix = next((s for s in COMPILED_SUFFIXES if name.endswith(s)), None)
                if suffix is not None:
                    module = name[: -len(suffix)]
                    names.add(package if module == "__init__" else f"{package}.{module}")
    return sorted(names)


def describe_build() -> str:
    """One line: "pure Python", or "compiled (Cython): N modules"."""
    compiled = compiled_modules()
    if not compiled:
        return "pure Python"
    return f"compiled (Cython): {len(compiled)} module{'s' if len(compiled) != 1 else ''}"
