"""The report's re-scored section and identical games (`amunre compare --html`) in headless
Chromium: the numbers on the page are the JSON's (the whole game's rows and each item's
kingdoms, in a second table), the identical games are said at the top, a pair that cannot be
re-scored says why, and a screenshot of the section (its path is printed).
Skipped with its reason without Chromium."""

from __future__ import annotations

import json

import pytest
from conftest import REPO
from helpers import run_cli
from test_viewer_browser import browser, console_errors, open_page  # noqa: F401 (a fixture)

from amunre.compare.report import shown_label

pytest.importorskip("matplotlib", reason="the report's pictures need the plot extra: pip install '.[plot]'")

#: A house rule of three kingdoms: the 2003 games have no position for its middle scoring.
THREE = """extends = "classic2003"
[edition]
id = "three-kingdoms"
name = "2003 in three kingdoms"
kingdoms = ["Old Kingdom", "Middle Kingdom", "New Kingdom"]
"""


@pytest.mark.parametrize("second", [str(REPO / "variants" / "house" / "monumental-pyramids.toml"), "three.toml"],
                         ids=["re-scored", "absent"])
def test_the_rescored_section_shows_the_jsons_numbers(browser, tmp_path, capsys, monkeypatch, second):  # noqa: F811
    from selenium.webdriver.common.by import By

    monkeypatch.chdir(tmp_path)
    (tmp_path / "three.toml").write_text(THREE, encoding="utf-8")
    page = tmp_path / "report.html"
    code, out, err = run_cli(capsys, "compare", "classic2003", second, "--games", "6", "--workers", "1",
                             "--agents", "random", "--json", "--html", str(page))
    assert code == 0, err
    doc = json.loads(out)
    browser.set_window_size(1280, 800)
    open_page(browser, page)
    # the identical games, above the rule differences
    (line,) = browser.find_elements(By.CSS_SELECTOR, "ul.identical li")
    (identical,) = doc["identical"]
    assert int(line.get_attribute("data-identical")) == identical["identical"]
    assert int(line.get_attribute("data-games")) == identical["games"] == 6
    assert f"{identical['identical']} of 6 games identical to classic2003's" in line.text
    assert line.location["y"] < browser.find_element(By.ID, "rules").location["y"]
    (rescored,) = doc["rescored"]
    cells = browser.find_elements(By.CSS_SELECTOR, "td[data-rescored]")
    if rescored["absent"]:
        assert not cells
        (absent,) = browser.find_elements(By.CSS_SELECTOR, "p.absent")
        assert rescored["absent"] in absent.text and "kingdoms" in absent.text
        return
    rows = {row["key"]: row for row in rescored["rows"] + rescored["by_kingdom"]}
    assert rescored["by_kingdom"] and not set(rescored["rows"][0]) - {"key", "label", "value", "arithmetic", "play"}
    seen = set()
    for cell in cells:
        row = rows[cell.get_attribute("data-key")]
        what = cell.get_attribute("data-what")
        expected = row["value"]["mean"] if what == "value" else row[what]["diff"]
        assert float(cell.get_attribute("data-value")) == expected, (row["key"], what)
        seen.add((row["key"], what))
    assert seen == {(key, what) for key in rows for what in ("value", "arithmetic", "play")}
    heading = browser.find_element(By.ID, "rescored")
    assert heading.text == "How much is arithmetic"
    assert heading.location["y"] > browser.find_element(By.ID, "table").location["y"]
    # the kingdoms in a table of their own, after the game's, each label the JSON's
    whole, split = browser.find_elements(By.CSS_SELECTOR, "table.rescored")
    assert "by-kingdom" in split.get_attribute("class") and "by-kingdom" not in whole.get_attribute("class")
    assert whole.location["y"] < split.location["y"]
    labels = [cell.text for cell in split.find_elements(By.CSS_SELECTOR, "tbody td:first-child")]
    assert labels == [shown_label(row["label"]) for row in rescored["by_kingdom"]]
    assert {cell.get_attribute("data-key") for cell in split.find_elements(By.CSS_SELECTOR, "td[data-rescored]")} == {
        row["key"] for row in rescored["by_kingdom"]}
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 1280
    shot = tmp_path / "report-rescored.png"
    browser.execute_script("arguments[0].scrollIntoView()", heading)
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    kingdoms = tmp_path / "report-rescored-by-kingdom.png"
    browser.execute_script("arguments[0].scrollIntoView()", split)
    assert browser.save_screenshot(str(kingdoms)) and kingdoms.stat().st_size > 10_000
    with capsys.disabled():
        print(f"\nscreenshots of the re-scored section: {shot}, {kingdoms}")
    errors = console_errors(browser)
    assert not errors, f"the page logged console errors: {errors}"
