"""The comparison report (`amunre compare --html`) in headless Chromium, as the viewer's test
does it: no network request, no console error, the numbers on the page are the JSON's, and
screenshots at 1280x800 and on a phone, 390x844 (their paths are printed). Skipped with its reason without Chromium."""

from __future__ import annotations

import json

import pytest
from helpers import run_cli
from test_viewer_browser import browser, console_errors, open_page, requests_seen  # noqa: F401 (a fixture)

pytest.importorskip("matplotlib", reason="the report's pictures need the plot extra: pip install '.[plot]'")


#: A designer's own file, given by a path relative to where he runs the command.
HOUSE = """extends = "classic2003"

[edition]
id = "my-house-rule"
name = "classic2003 with a longer kingdom"
summary = "A designer's file, named on the page by the path he gave."

[components]
starting_gold = 25
"""

#: Every word of a table's headings and first column on one line: [element, word] of each
#: word the layout split over two lines (a Range over it has more than one line box).
SPLIT_WORDS = """
const split = [];
for (const cell of document.querySelectorAll("th, td:first-child")) {
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) split.push([cell.tagName, match[0]]);
    }
  }
}
return split;
"""


@pytest.mark.parametrize("argv", [
    ["classic2003", "supermeeple2016", "--agents", "greedy"],
    ["classic2003", "--sweep", "components.starting_gold=15,25", "--agents", "planner,greedy,greedy,greedy"],
    ["classic2003", "house/my-house.toml", "--agents", "random"],
], ids=["editions", "sweep-mixed-lineup", "designers-file"])
def test_the_report_shows_the_jsons_numbers_offline(browser, tmp_path, capsys, monkeypatch, argv):  # noqa: F811
    from selenium.webdriver.common.by import By

    monkeypatch.chdir(tmp_path)
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "my-house.toml").write_text(HOUSE, encoding="utf-8")
    page = tmp_path / "report.html"
    code, out, err = run_cli(capsys, "compare", *argv, "--games", "16", "--workers", "1", "--json",
                             "--html", str(page))
    assert code == 0, err
    doc = json.loads(out)
    browser.set_window_size(1280, 800)
    url = open_page(browser, page)
    # the verdicts in words come first, on the first screen, each the JSON's sentence and numbers
    section = browser.find_element(By.ID, "verdicts")
    said = section.find_elements(By.CSS_SELECTOR, "dd[data-family]")
    assert [dd.text for dd in said] == [v["sentence"] for v in doc["verdicts"]] and said
    screen = browser.execute_script("return window.innerHeight")
    for dd, verdict in zip(said, doc["verdicts"]):
        assert dd.is_displayed() and dd.location["y"] + dd.size["height"] <= screen, dd.text
        assert float(dd.get_attribute("data-low")) == verdict["low"]
        assert float(dd.get_attribute("data-high")) == verdict["high"]
    assert section.location["y"] < browser.find_element(By.ID, "rules").location["y"]
    cells = browser.find_elements(By.CSS_SELECTOR, "td[data-mean]")
    both = doc["rows"] + doc["by_kingdom"]  # the main table's rows and the by-kingdom section's
    rows = {row["key"]: row for row in both}
    shown = 0
    for cell in cells:
        row = rows[cell.get_attribute("data-key")]
        value = row["values"][int(cell.get_attribute("data-column"))]
        assert value is not None and float(cell.get_attribute("data-mean")) == value["mean"]
        shown += 1
    assert shown == sum(1 for row in both for v in row["values"] if v is not None and v["mean"] is not None)
    diffs = browser.find_elements(By.CSS_SELECTOR, "td[data-diff]")
    assert len(diffs) == sum(1 for row in both for p in row["versus_first"] if p is not None)
    # the by-kingdom section: after the table, a row per statistic and kingdom in the edition's kingdom names
    heading = browser.find_element(By.ID, "by-kingdom")
    assert heading.text == "By kingdom"
    assert heading.location["y"] > browser.find_element(By.ID, "table").location["y"]
    section = heading.find_element(By.XPATH, "following-sibling::table[1]")
    keys = [cell.get_attribute("data-key") for cell in section.find_elements(By.CSS_SELECTOR, "td[data-key]")]
    assert keys and {row["key"] for row in doc["by_kingdom"]} == set(keys)
    labels = [td.text for td in section.find_elements(By.CSS_SELECTOR, "tbody td:first-child")]
    assert labels == [row["label"][:1].upper() + row["label"][1:] for row in doc["by_kingdom"]]
    assert any(label.endswith(", Old Kingdom") for label in labels)
    assert any(label.endswith(", New Kingdom") for label in labels)
    assert len(browser.find_elements(By.CSS_SELECTOR, "figure svg")) >= 3  # forest, scores, items (and curves)
    # each rate's count is the JSON's
    counted = browser.find_elements(By.CSS_SELECTOR, "td[data-successes]")
    assert counted and all(float(cell.get_attribute("data-successes")) == rows[cell.get_attribute("data-key")][
        "values"][int(cell.get_attribute("data-column"))]["successes"] for cell in counted)
    assert all(f" of {rows[cell.get_attribute('data-key')]['values'][int(cell.get_attribute('data-column'))]['n']})"
               in cell.text for cell in counted)
    # a shipped variant named by its id, a designer's file by the path he gave; never where pip put it
    facts = browser.find_element(By.CSS_SELECTOR, "dl:not(.verdicts)").text
    assert "classic2003, shipped with amunre" in facts, facts
    assert "/variants/" not in facts and "site-packages" not in facts and str(tmp_path) not in facts, facts
    if "house/my-house.toml" in argv:
        assert "my-house-rule from house/my-house.toml" in facts, facts
    # no word of a heading or a row's name is split over two lines ("editio/n")
    split = browser.execute_script(SPLIT_WORDS)
    assert not split, f"words split over two lines: {split}"
    if "--sweep" in argv:
        assert browser.find_element(By.ID, "figure-sweep")
        assert "win rate per seat, planner" in browser.find_element(By.TAG_NAME, "table").text.lower() or \
            any("Win rate per seat, planner" in td.text for td in browser.find_elements(By.TAG_NAME, "td"))
    # readable at 1280x800: nothing wider than the window
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 1280
    shot = tmp_path / "report.png"
    browser.execute_script("window.scrollTo(0, 0)")
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    by_kingdom = tmp_path / "report-by-kingdom.png"
    browser.execute_script("arguments[0].scrollIntoView()", heading)
    assert browser.save_screenshot(str(by_kingdom)) and by_kingdom.stat().st_size > 10_000
    # on a phone (390x844): the page never scrolls sideways (a wide table scrolls in its own
    # box), and each verdict reads within the screen's width, its family's name above it
    browser.set_window_size(390, 844)
    width = browser.execute_script("return window.innerWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    for dd in browser.find_elements(By.CSS_SELECTOR, "#verdicts dd[data-family]"):
        assert dd.location["x"] >= 0 and dd.location["x"] + dd.size["width"] <= width, dd.text
        assert dd.find_element(By.XPATH, "preceding-sibling::dt[1]").location["y"] < dd.location["y"]
    phone = tmp_path / "report-phone.png"
    browser.execute_script("window.scrollTo(0, 0)")
    assert browser.save_screenshot(str(phone)) and phone.stat().st_size > 10_000
    with capsys.disabled():
        print(f"\nscreenshots of the comparison report: {shot}, its by-kingdom section: {by_kingdom}, "
              f"on a phone: {phone}")
    errors = console_errors(browser)
    assert not errors, f"the page logged console errors: {errors}"
    own, leaving = requests_seen(browser, url)
    assert not own and not leaving, f"the page made network requests: {own + leaving}"
