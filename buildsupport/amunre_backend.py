"""The build backend of amunre: setuptools', asking for Cython only when a compiled build is wanted.

`pip install .` builds pure Python and needs no compiler. `AMUNRE_COMPILE=1 pip install .` also
compiles the engine's hot modules from the same .py files (setup.py lists them); only then does the
build environment need Cython, so only then is it asked for.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 - every other hook is setuptools' own

CYTHON = "Cython>=3.0"


def compile_requested() -> bool:
    return os.environ.get("AMUNRE_COMPILE", "").strip() not in ("", "0")


def _with_cython(requires: list[str]) -> list[str]:
    return [*requires, CYTHON] if compile_requested() else requires


def get_requires_for_build_wheel(config_settings=None):
    return _with_cython(_setuptools.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings=None):
    return _with_cython(_setuptools.get_requires_for_build_editable(config_settings))
