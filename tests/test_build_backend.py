"""The build backend (buildsupport/amunre_backend.py): when a build is compiled, and never an editable one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def backend(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "buildsupport"))
    sys.modules.pop("amunre_backend", None)
    import amunre_backend

    yield amunre_backend
    sys.modules.pop("amunre_backend", None)


@pytest.mark.parametrize("value, compiled", [
    (None, False), ("", False), ("0", False), (" 0 ", False), ("false", False), ("No", False), ("OFF", False),
    ("1", True), ("yes", True), ("true", True),
])
def test_amunre_compile_asks_for_cython_only_when_on(backend, monkeypatch, value, compiled):
    if value is None:
        monkeypatch.delenv("AMUNRE_COMPILE", raising=False)
    else:
        monkeypatch.setenv("AMUNRE_COMPILE", value)
    assert backend.compile_requested() is compiled
    assert (backend.CYTHON in backend._with_cython(["setuptools>=64"])) is compiled


def test_an_editable_install_is_never_compiled(backend, monkeypatch, tmp_path):
    """Compiled modules in the working tree would hide every edit of their .py files: refused, saying what to do."""
    monkeypatch.setenv("AMUNRE_COMPILE", "1")
    with pytest.raises(SystemExit) as refused:
        backend.get_requires_for_build_editable()
    assert "editable install" in str(refused.value) and "AMUNRE_COMPILE=1 pip install ." in str(refused.value)
    with pytest.raises(SystemExit):
        backend.build_editable(str(tmp_path))
    assert not list(tmp_path.iterdir())  # nothing built


@pytest.mark.parametrize("pxd", sorted((REPO / "amunre").rglob("*.pxd")), ids=lambda path: path.stem)
def test_a_pxd_declares_exactly_the_slots_of_its_classes(pxd):
    """An extension type's attributes (a `.pxd` beside its `.py`, read by the compiled build
    only) are the class's `__slots__` in the pure build: an attribute added to one and not the
    other would fail only on the compiled build."""
    import importlib
    import re

    module = importlib.import_module(".".join(pxd.relative_to(REPO).with_suffix("").parts))
    declared: dict[str, set[str]] = {}
    current = None
    for line in pxd.read_text().splitlines():
        if match := re.match(r"cdef class (\w+)", line):
            current = declared.setdefault(match[1], set())
        elif current is not None and (match := re.match(r"\s+cdef public \w+ (\w+)$", line)):
            current.add(match[1])
    assert declared, f"{pxd.name} declares no class"
    for name, attributes in declared.items():
        assert attributes == set(getattr(module, name).__slots__), name


@pytest.mark.parametrize("value, flag", [(None, "-O2"), ("", "-O2"), ("0", "-O0"), (" 1 ", "-O1"), ("3", "-O3")])
def test_the_compiled_builds_optimisation_level_is_the_one_asked_for(monkeypatch, value, flag):
    """AMUNRE_COMPILE_OPT picks the C optimisation level (the test suite's build: 0); unset, the default -O2."""
    monkeypatch.syspath_prepend(str(REPO / "buildsupport"))
    import compiled

    environ = {} if value is None else {"AMUNRE_COMPILE_OPT": value}
    assert f"-O{compiled.opt_level(environ)}" == flag


@pytest.mark.parametrize("value", ["fast", "-O2", "4", "s"])
def test_an_unknown_optimisation_level_is_refused_saying_which_there_are(monkeypatch, value):
    monkeypatch.syspath_prepend(str(REPO / "buildsupport"))
    import compiled

    with pytest.raises(SystemExit) as refused:
        compiled.opt_level({"AMUNRE_COMPILE_OPT": value})
    assert f"AMUNRE_COMPILE_OPT is {value!r}" in str(refused.value) and "0, 1, 2, 3" in str(refused.value)
