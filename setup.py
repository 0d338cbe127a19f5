"""Optional compiled build: `AMUNRE_COMPILE=1 pip install .` compiles the modules below with Cython.

The .py files stay the one source (docs/performance.md, "The compiled build"): Cython compiles them
as they are, in its pure-Python mode, and the wheel carries both, the compiled module taking
precedence on import. Without AMUNRE_COMPILE this file adds nothing to the pure-Python install
that pyproject.toml describes.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "buildsupport"))
from amunre_backend import compile_requested  # noqa: E402
from compiled import COMPILER_FLAGS, CYTHON_DIRECTIVES, sources  # noqa: E402

HOW_TO_SKIP = (
    "amunre: the compiled build failed ({error}). It is optional: the pure-Python build plays the same games and "
    "needs no compiler: unset AMUNRE_COMPILE (or set it to 0) and pip install . again."
)


class CythonBuildExt(build_ext):
    """build_ext that turns the listed .py files into C with Cython first.

    Cython is imported only here, when the extensions are built: the build backend asks for it
    (buildsupport/amunre_backend.py) only when AMUNRE_COMPILE is set. Any failure, a missing
    compiler or headers as much as a C error, says the compiled build is optional and how to skip it.
    """

    def finalize_options(self):
        # setuptools finalizes this command while it only asks what the build needs, before
        # Cython is installed: translate only once Cython is there (run() says if it never came)
        try:
            from Cython.Build import cythonize
        except ImportError:
            cythonize = None
        if cythonize is not None and self.distribution.ext_modules:
            try:
                self.distribution.ext_modules = cythonize(
                    self.distribution.ext_modules,
                    compiler_directives=CYTHON_DIRECTIVES,
                    build_dir=os.path.join("build", "cython"),  # C files there, not beside the sources
                    nthreads=os.cpu_count() or 1,
                    quiet=True,
                )
            except Exception as error:  # a module Cython cannot translate
                raise SystemExit(HOW_TO_SKIP.format(error=error)) from error
        super().finalize_options()
        if self.parallel is None:  # one compiler per CPU: the modules are independent
            self.parallel = os.cpu_count() or 1

    def run(self):
        if any(source.endswith(".py") for ext in self.extensions for source in ext.sources):
            missing = "Cython is not installed: pip install Cython, or let pip fetch it"
            raise SystemExit(HOW_TO_SKIP.format(error=missing))
        try:
            super().run()
        except Exception as error:  # no C compiler, no Python headers, a C error
            raise SystemExit(HOW_TO_SKIP.format(error=error)) from error


def compiled_extensions():
    """One extension per listed module (buildsupport/compiled.py), its source the module's own .py file."""
    return [Extension(path[: -len(".py")].replace("/", "."), [path], extra_compile_args=COMPILER_FLAGS)
            for path in sources(os.path.dirname(os.path.abspath(__file__)) or ".")]


setup(
    ext_modules=compiled_extensions() if compile_requested() else [],
    cmdclass={"build_ext": CythonBuildExt},
)
