"""docs/plugins.md names every hook of the rule contract (`Rule`'s declarations and methods,
each facet's and the facet itself, `Decision`'s and `Event`'s fields), under the core or one
facet: a hook added to the contract without a word for plug-in authors fails here."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from amunre.core.contract import Decision, Event, Rule
from amunre.core.facets import FACET_OF

PAGE = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"


def hooks() -> set[str]:
    rule = {name for name in vars(Rule) if not name.startswith("_")}
    rule |= set(FACET_OF) | {facet.__name__ for facet in FACET_OF.values()}
    decision = {f"Decision.{f.name}" for f in attrs.fields(Decision)}
    return rule | decision | {f"Event.{f.name}" for f in attrs.fields(Event)}


def named(text: str) -> set[str]:
    """The names written in code spans, `Decision.question(asking)` counting as Decision.question
    and, in a row that starts with `Decision.x`, the bare names after it as Decision's too."""
    found = set()
    for line in text.splitlines():
        spans = [re.match(r"[\w.]+", span).group(0) for span in re.findall(r"`([\w.]+)[^`]*`", line)]
        owner = next((span.split(".")[0] for span in spans if span.startswith(("Decision.", "Event."))), None)
        for span in spans:
            found.add(span)
            if owner and "." not in span:
                found.add(f"{owner}.{span}")
    return found


def test_every_hook_of_the_contract_is_named_on_the_plugin_page():
    missing = sorted(hooks() - named(PAGE.read_text(encoding="utf-8")))
    assert not missing, f"docs/plugins.md does not name: {', '.join(missing)}"


def test_a_hook_the_page_does_not_name_is_noticed():
    text = re.sub(r"`table_markers[^`]*`", "the markers", PAGE.read_text(encoding="utf-8"))
    assert "table_markers" in hooks() - named(text)


def test_a_facet_the_page_does_not_name_is_noticed():
    text = PAGE.read_text(encoding="utf-8").replace("PictureFacet", "the picture facet")
    assert "PictureFacet" in hooks() - named(text)
