"""The build backend of amunre: setuptools', asking for Cython only when a compiled build is wanted.

`pip install .` builds pure Python and needs no compiler. `AMUNRE_COMPILE=1 pip install .` also
compiles the engine's hot modules from the same .py files (buildsupport/compiled.py lists them);
only then does the build environment need Cython, so only then is it asked for. AMUNRE_COMPILE
unset, empty, 0, false, no or off (any case) means pure Python.

An editable install (`pip install -e .`) is never compiled: a compiled module would sit beside its
.py in the working tree and be imported instead of it, so edits of the .py would silently not run.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every other hook is setuptools' own

CYTHON = "Cython>=3.0"
OFF = ("", "0", "false", "no", "off")


def compile_requested() -> bool:
    return os.environ.get("AMUNRE_COMPILE", "").strip().lower() not in OFF


def _with_cython(requires: list[str]) -> list[str]:
    return [*requires, CYTHON] if compile_requested() else requires


def _refuse_editable() -> None:
    if compile_requested():
        raise SystemExit(
            "amunre: AMUNRE_COMPILE is set, but an editable install (pip install -e) is never compiled: the "
            "compiled modules would sit beside their .py files in this working tree and hide every edit of them. "
            "Install compiled without -e (AMUNRE_COMPILE=1 pip install .), or editable without AMUNRE_COMPILE "
            "(AMUNRE_COMPILE=0 pip install -e .)."
        )


def get_requires_for_build_wheel(config_settings=None):
    return _with_cython(_setuptools.get_requires_for_build_wheel(config_settings))


def get_requires_for_build_editable(config_settings=None):
    _refuse_editable()
    return _setuptools.get_requires_for_build_editable(config_settings)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _refuse_editable()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
