"""What the compiled build compiles, and how: read by setup.py and by tests/test_compiled_build.py."""

from __future__ import annotations

from pathlib import Path

#: The modules a game runs through: the engine, the rule modules and the agents that play them.
#: Start-up, command-line, words and pictures stay pure Python: they run once per command.
COMPILED = [
    *(f"amunre/{name}.py" for name in (
        "board", "branching", "contract", "counting", "decisions", "engine", "errors", "flow", "mechanics",
        "model", "pipeline", "registry", "resources", "results", "round_provinces", "setup", "standing",
        "state", "streams", "terms", "view", "worth")),
    "amunre/rules/*.py",
    *(f"amunre/agents/{name}.py" for name in ("asking", "greedy", "mcts", "planner", "random_agent")),
]
#: The package's own __init__ files stay Python (they only import).
NOT_COMPILED = ["amunre/rules/__init__.py"]
#: No debug symbols (a seventh of the size) and -O2, not -O3 (half the compile time; docs/performance.md)
COMPILER_FLAGS = ["-g0", "-O2"]

#: language_level 3: the sources are Python 3; binding: compiled functions introspect like Python ones;
#: annotation_typing off: annotations stay documentation, so a compiled module behaves as its .py does
CYTHON_DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


def sources(root: Path | str = ".") -> list[str]:
    """The .py files compiled, relative to `root` (the repository), sorted."""
    root = Path(root)
    found = {path.relative_to(root).as_posix() for pattern in COMPILED for path in root.glob(pattern)}
    return sorted(found - set(NOT_COMPILED))


def module_names(root: Path | str = ".") -> list[str]:
    """The dotted names of the modules compiled, sorted."""
    return sorted(path[: -len(".py")].replace("/", ".") for path in sources(root))
