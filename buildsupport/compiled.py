"""What the compiled build compiles, and how: read by setup.py and by tests/test_compiled_build.py."""

from __future__ import annotations

import os
from pathlib import Path

#: The modules a game runs through: the engine, the rule modules and the agents that play them.
#: Start-up, command-line, words and pictures stay pure Python: they run once per command.
COMPILED = [
    "amunre/core/board.py",
    "amunre/core/branching.py",
    "amunre/core/contract.py",
    "amunre/core/counting.py",
    "amunre/core/decisions.py",
    "amunre/core/engine.py",
    "amunre/core/errors.py",
    "amunre/core/flow.py",
    "amunre/core/mechanics/*.py",
    "amunre/core/model.py",
    "amunre/core/modules.py",
    "amunre/core/registry.py",
    "amunre/loader/resources.py",
    "amunre/core/results.py",
    "amunre/core/round_provinces.py",
    "amunre/core/gamesetup.py",
    "amunre/core/standing.py",
    "amunre/core/state.py",
    "amunre/core/streams.py",
    "amunre/core/terms.py",
    "amunre/core/view.py",
    "amunre/planning/worth.py",
    "amunre/rules/*.py",
    "amunre/rules/*/*.py",  # a rule that is a package (offering, auction): its __init__ holds the rule
    *(f"amunre/agents/{name}.py" for name in ("asking", "greedy", "mcts", "planner", "random_agent")),
]
#: The __init__ files that only import stay Python (a rule package's holds its rule: compiled).
NOT_COMPILED = ["amunre/rules/__init__.py", "amunre/core/mechanics/__init__.py"]
#: The C optimisation levels AMUNRE_COMPILE_OPT may name; the default is 2 (-O2, not -O3: half the compile
#: time and no slower, docs/performance.md). The test suite builds at 0, a quarter of the compile time: it
#: proves the compiled modules play the same games, not how fast (the figures in the docs use the default).
OPT_LEVELS = ("0", "1", "2", "3")
DEFAULT_OPT_LEVEL = "2"


def opt_level(environ=os.environ) -> str:
    """The C optimisation level asked for by AMUNRE_COMPILE_OPT (unset or empty: the default)."""
    level = environ.get("AMUNRE_COMPILE_OPT", "").strip() or DEFAULT_OPT_LEVEL
    if level not in OPT_LEVELS:
        raise SystemExit(f"amunre: AMUNRE_COMPILE_OPT is {level!r}; expected one of {', '.join(OPT_LEVELS)} "
                         f"(the C optimisation level of the compiled build; unset means {DEFAULT_OPT_LEVEL})")
    return level


#: No debug symbols (a seventh of the size) and the optimisation level above
COMPILER_FLAGS = ["-g0", f"-O{opt_level()}"]

#: language_level 3: the sources are Python 3; binding: compiled functions introspect like Python ones;
#: annotation_typing off: annotations stay documentation, so a compiled module behaves as its .py does
CYTHON_DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


def sources(root: Path | str = ".") -> list[str]:
    """The .py files compiled, relative to `root` (the repository), sorted."""
    root = Path(root)
    found = {path.relative_to(root).as_posix() for pattern in COMPILED for path in root.glob(pattern)}
    return sorted(found - set(NOT_COMPILED))


def module_names(root: Path | str = ".") -> list[str]:
    """The dotted names of the modules compiled, sorted (a package's __init__.py by the package's name,
    as `amunre.cli.buildinfo` names it)."""
    return sorted(path[: -len(".py")].replace("/", ".").removesuffix(".__init__") for path in sources(root))
