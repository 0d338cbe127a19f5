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
