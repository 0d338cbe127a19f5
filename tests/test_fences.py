"""The package's fences, checked by the tools Python maintainers know (docs/architecture.md).

- import-linter holds the layers and the forbidden imports of `[tool.importlinter]` in
  pyproject.toml: each package imports only those below it, no rule module imports another,
  no face (nor the loader or the planner) imports a rule module, the optional extras only
  their own face. Every import counts: at the top, for type checking, and inside a function.
- ruff holds the lint of `[tool.ruff]` (a short rule set, documented there).
- grimp (import-linter's import graph) shows that no modules import each other in a loop when
  the program runs: only a type hint may name a module that imports the naming one (the core's
  modules name each other's types; at run time its imports go one way).

Each tool is run as a command, as a maintainer runs it; a broken fence is its report.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def tool(name: str) -> str:
    """The command of a tool of the test extra, beside this Python's (a venv's bin)."""
    found = Path(sys.executable).parent / name
    if found.is_file():
        return str(found)
    on_path = shutil.which(name)
    if on_path is None:
        pytest.fail(f"{name} is not installed: pip install '.[test]'")
    return on_path


def test_the_layers_and_forbidden_imports_hold():
    run = subprocess.run([tool("lint-imports"), "--no-cache"], cwd=REPO, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " broken" in run.stdout and "0 broken" in run.stdout  # (it read the contracts)


def test_a_broken_fence_is_reported(tmp_path):
    """The check really looks: a core module importing the planner breaks the layers."""
    import tomllib

    copy = tmp_path / "repo"
    shutil.copytree(REPO / "amunre", copy / "amunre", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    state = copy / "amunre" / "core" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nfrom amunre.planning import worth  # noqa\n",
                     encoding="utf-8")
    assert tomllib.loads((copy / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    run = subprocess.run([tool("lint-imports"), "--no-cache"], cwd=copy, capture_output=True, text=True,
                         timeout=600, env={"PYTHONPATH": str(copy), "PATH": ""})
    assert run.returncode != 0 and "amunre.core.state -> amunre.planning" in run.stdout, run.stdout[-3000:]


#: The modules of the package that import each other in a loop at run time (every import but
#: those for type checking), each loop as its sorted names: printed by a subprocess, so that the
#: package is the one on its PYTHONPATH.
RUNTIME_LOOPS = """
import json, sys
import grimp

graph = grimp.build_graph("amunre", exclude_type_checking_imports=True)
modules = sorted(graph.modules)
index, low, stack, on, loops, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)

def visit(module):  # Tarjan's strongly connected components
    index[module] = low[module] = counter[0]
    counter[0] += 1
    stack.append(module)
    on.add(module)
    for other in sorted(graph.find_modules_directly_imported_by(module)):
        if other not in index:
            visit(other)
            low[module] = min(low[module], low[other])
        elif other in on:
            low[module] = min(low[module], index[other])
    if low[module] == index[module]:
        loop = []
        while True:
            other = stack.pop()
            on.discard(other)
            loop.append(other)
            if other == module:
                break
        if len(loop) > 1:
            loops.append(sorted(loop))

for module in modules:
    if module not in index:
        visit(module)
print(json.dumps(loops))
"""


def runtime_loops(root: Path) -> list[list[str]]:
    import json

    run = subprocess.run([sys.executable, "-c", RUNTIME_LOOPS], cwd=root, capture_output=True, text=True,
                         timeout=600, env={"PYTHONPATH": str(root), "PATH": ""})
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_no_modules_import_each_other_in_a_loop_when_it_runs():
    assert runtime_loops(REPO) == []


def test_an_import_loop_is_reported(tmp_path):
    """The check really looks: the state importing the engine (which imports the state) is a loop."""
    copy = tmp_path / "repo"
    shutil.copytree(REPO / "amunre", copy / "amunre", ignore=shutil.ignore_patterns("__pycache__"))
    state = copy / "amunre" / "core" / "state.py"
    planted = "\n\ndef _planted():\n    from amunre.core import engine  # noqa\n"
    state.write_text(state.read_text(encoding="utf-8") + planted, encoding="utf-8")
    loops = runtime_loops(copy)
    assert any({"amunre.core.state", "amunre.core.engine"} <= set(loop) for loop in loops), loops


def test_the_lint_holds():
    run = subprocess.run([tool("ruff"), "check", "--no-cache", "amunre", "tests", "benchmarks"], cwd=REPO,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_a_lint_problem_is_reported(tmp_path):
    """The lint really looks, with the project's own settings: an unused import is caught."""
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "planted.py").write_text('"""A module."""\n\nimport os\n', encoding="utf-8")
    run = subprocess.run([tool("ruff"), "check", "--no-cache", "planted.py"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 1 and "F401" in run.stdout, run.stdout


def test_every_package_folder_is_installed():
    """A folder of the package (a layer, or a module split into a package) is in the list
    `pip install .` installs: one left out would load from a checkout and be missing from an
    install."""
    import tomllib

    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
                 ["packages"])
    folders = {".".join(init.parent.relative_to(REPO).parts) for init in (REPO / "amunre").rglob("__init__.py")}
    assert folders - listed == set(), "add them to [tool.setuptools] packages in pyproject.toml"
