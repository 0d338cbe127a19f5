"""The replay viewer in a real browser: headless Chromium driven by selenium.

The test opens the page `amunre replay LOG --html` writes, steps to the end with the
keyboard, checks the final scores on the page against the log's result, checks that the
page made no network request and logged no console error, and saves a screenshot (its path
is printed). A control page that does make a request shows that the checks can see one.

It needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them) and selenium
(the `test` extra). Without them it is skipped, and pytest's summary says why (`-rs`).
Chromium is started with a fresh profile and every background service off: the network is
closed here, and the page must need none.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import run_cli

from amunre.core.words import player_names

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")
INSTALL = "apt-get install -y chromium chromium-driver (.ci/run does)"
#: URL schemes that leave the machine.
NETWORK = ("http", "https", "ws", "wss", "ftp")


def start_chromium(profile: Path, size: str = "1600,1000"):
    """Headless Chromium with a fresh profile in `profile`, driven by selenium; the test is
    skipped, saying why, where it cannot start."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("the browser test needs selenium, from the test extra: pip install '.[test]'")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if chromium is None:
        pytest.skip(f"no Chromium browser here (no `chromium` on PATH): {INSTALL}")
    if driver_path is None:
        pytest.skip(f"no ChromeDriver here (no `chromedriver` on PATH): {INSTALL}")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={size}")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    try:
        driver = webdriver.Chrome(options=options, service=Service(driver_path))
    except WebDriverException as exc:
        reason = (exc.msg or str(exc)).strip().splitlines()[0]
        pytest.skip(f"Chromium ({chromium}) did not start: {reason}")
    driver.set_page_load_timeout(60)
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()


def open_page(driver, path: Path) -> str:
    """Load a page with the logs emptied first (what the browser did before is not the page's)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("performance")
    driver.get_log("browser")
    url = path.resolve().as_uri()
    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
    return url


def requests_seen(driver, url: str) -> tuple[list[str], list[str]]:
    """(what the page at `url` requested besides itself and data: URLs, every request anywhere
    in the browser that would leave the machine), from Chrome's DevTools Network events."""
    events = [json.loads(entry["message"])["message"] for entry in driver.get_log("performance")]
    sent = [e["params"] for e in events if e["method"] == "Network.requestWillBeSent"]
    own = [p["request"]["url"] for p in sent if p.get("documentURL") == url
           and p["request"]["url"] != url and not p["request"]["url"].startswith("data:")]
    leaving = [p["request"]["url"] for p in sent if urlsplit(p["request"]["url"]).scheme in NETWORK]
    leaving += [e["params"]["url"] for e in events if e["method"] == "Network.webSocketCreated"]
    return own, leaving


def console_errors(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_the_viewer_steps_to_the_end_in_chromium(browser, tmp_path, capsys):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    log = tmp_path / "game.jsonl"
    code, _, err = run_cli(capsys, "run", "--players", "4", "--seed", "3", "--quiet", "--log", str(log))
    assert code == 0, err
    result = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    page = tmp_path / "game.html"
    code, _, err = run_cli(capsys, "replay", str(log), "--html", str(page))
    assert code == 0, err

    url = open_page(browser, page)
    body = browser.find_element(By.TAG_NAME, "body")
    WebDriverWait(browser, 30).until(lambda d: body.get_attribute("data-ready") == "true")
    step = lambda: int(body.get_attribute("data-step"))  # noqa: E731
    where = lambda: browser.find_element(By.ID, "where").text  # noqa: E731
    assert step() == 0

    # to the end, one decision at a time, with the keyboard
    decisions = result["decisions"]
    body.send_keys(Keys.ARROW_RIGHT * decisions)
    assert step() == decisions
    body.send_keys(Keys.ARROW_RIGHT)  # no step after the last
    assert step() == decisions

    scores = [int(cell.text) for cell in browser.find_elements(By.CSS_SELECTOR, "#scores td.score")]
    gold = [int(cell.text) for cell in browser.find_elements(By.CSS_SELECTOR, "#scores td.gold")]
    assert scores == result["scores"] and gold == result["gold"]
    on_board = [int(g.get_attribute("data-score")) for g in browser.find_elements(By.CSS_SELECTOR, "#board g.player")]
    assert on_board == result["scores"]
    final = browser.find_element(By.ID, "final").text
    names = player_names(4)
    assert final.startswith("Game over. Final scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, scores)))
    assert " and ".join(names[w] for w in result["winners"]) + " win" in final
    assert browser.find_element(By.CSS_SELECTOR, "#log .step.cur").get_attribute("data-step") == str(decisions)
    shot = tmp_path / "viewer-end.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    with capsys.disabled():
        print(f"\nscreenshot of the viewer at the end of the game: {shot}")

    # the other keys: the start, the next round and phase, back, the end
    body.send_keys(Keys.HOME)
    assert step() == 0 and "round 1 of 3" in where()
    body.send_keys(Keys.PAGE_DOWN)
    assert step() > 0 and "round 2 of 3" in where()
    round_two = step()
    body.send_keys(Keys.ARROW_DOWN)
    assert step() > round_two and where() != "" and "round 2 of 3" in where()
    body.send_keys(Keys.ARROW_UP)
    assert step() == round_two
    body.send_keys(Keys.PAGE_UP)
    assert step() == 0
    body.send_keys(Keys.END, Keys.ARROW_LEFT)
    assert step() == decisions - 1 and browser.find_element(By.ID, "final").text == ""
    browser.find_element(By.ID, "b-next").click()
    assert step() == decisions

    errors = console_errors(browser)
    assert not errors, f"the page logged console errors: {errors}"
    own, leaving = requests_seen(browser, url)
    assert not own and not leaving, f"the page made network requests: {own + leaving}"


def test_the_checks_see_a_request_and_a_console_error(browser, tmp_path):
    """The control: a page that asks for an image over the network is caught by both checks."""
    control = tmp_path / "control.html"
    control.write_text('<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/probe.png" alt=""></body></html>',
                       encoding="utf-8")
    url = open_page(browser, control)
    own, leaving = requests_seen(browser, url)
    assert own == ["http://127.0.0.1:9/probe.png"] and leaving == own
    assert console_errors(browser)
