"""Every file a doc names exists in the repository, and no doc sends the reader outside it.

Scans README.md and docs/*.md for repository paths written in backticks (`docs/x.md`,
`variants/house/y.toml`, `benchmarks/z.py`, ...) and for relative Markdown links, and checks
each exists; a path that climbs out of the repository (`../shared/...`) is a failure."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
TOP = ("docs/", "variants/", "schemas/", "benchmarks/", "tests/", "amunre/", ".ci/")
QUOTED = re.compile(r"`([A-Za-z0-9_./-]+\.(?:md|toml|py|json|txt|png|svg|html|csv|sh))(?:::[A-Za-z0-9_]+)?`")
LINKED = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def named_paths(doc: Path) -> list[tuple[str, Path]]:
    """(as written, where it points) for each repository path the doc names."""
    text = doc.read_text(encoding="utf-8")
    found = [(p, REPO / p) for p in QUOTED.findall(text) if p.startswith(TOP)]
    found += [(p, (doc.parent / p)) for p in LINKED.findall(text) if not re.match(r"[a-z]+:", p)]
    return found


def test_every_path_a_doc_names_exists_inside_the_repository():
    bad = []
    for doc in DOCS:
        for written, target in named_paths(doc):
            resolved = target.resolve()
            if not resolved.is_relative_to(REPO):
                bad.append(f"{doc.relative_to(REPO)}: {written} points outside the repository")
            elif not resolved.exists():
                bad.append(f"{doc.relative_to(REPO)}: {written} does not exist")
    assert not bad, "\n".join(bad)


def test_the_check_sees_a_missing_and_an_outside_path(tmp_path, monkeypatch):
    doc = REPO / "docs" / "README-probe.md"  # never written: the scan is given the text directly
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: "see `docs/nothing-here.md` and "
                                                                         "[x](../../outside.md)")
    found = named_paths(doc)
    assert [w for w, t in found] == ["docs/nothing-here.md", "../../outside.md"]
    assert not found[0][1].exists() and not found[1][1].resolve().is_relative_to(REPO)
