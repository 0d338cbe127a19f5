"""A seat's page of `amunre serve` fits the screen, measured in headless Chromium.

At 1280x800, 1366x768 and 390x844 (a phone), at every decision of a whole seeded game of one
person against bots: the options, the hand and the players' scores lie inside the viewport
(`getBoundingClientRect`), the page never scrolls sideways, and no visible text, the board's
included, is below 11 px. And the turn: the tab's title says "(Your turn)" exactly while the
seat is asked, and the score sheets the finished page keeps hold the very points the game's
log gives each item of each kingdom. Screenshots at both desktop widths and the phone's are
written to docs/ (`SCREENSHOTS`), the pictures docs/serve.md shows.
Skipped, saying why, where Chromium cannot be started (as the replay viewer's browser test).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
pytest.importorskip("httpx2", reason="the test extra's HTTP client: pip install '.[test]'")
from serving import Serving, auth, claim, state
from test_serve_browser import wait_for
from test_viewer_browser import console_errors, start_chromium

SMALLEST_PX = 11
#: (width, height, a phone?) of each screen measured.
SCREENS = ((1280, 800, False), (1366, 768, False), (390, 844, True))
DOCS = Path(__file__).resolve().parent.parent / "docs"
#: The screenshots docs/serve.md shows, by screen width (written by the whole-game test).
SCREENSHOTS = {1280: DOCS / "serve-table-1280x800.png", 1366: DOCS / "serve-table-1366x768.png",
               390: DOCS / "serve-table-390x844.png"}

#: What lies outside the viewport, whether the page scrolls sideways, and every visible text
#: below the smallest size (the board's: its font size times the picture's scale).
MEASURE = """
const smallest = arguments[0], w = innerWidth, h = innerHeight;
const outside = [];
for (const id of ['options', 'hand-box', 'players', 'finished']) {
  const e = document.getElementById(id);
  if (!e || !e.getClientRects().length) continue;  // (not shown now)
  const r = e.getBoundingClientRect();
  if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5 || r.height < 10)
    outside.push([id, Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]);
}
const small = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const svg = document.querySelector('#board svg');
const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const e = node.parentElement;
  if (!node.textContent.trim() || !e.getClientRects().length || e.closest('title')) continue;
  const inSvg = e.closest('svg');
  const px = inSvg ? parseFloat(e.closest('text').getAttribute('font-size')) * scale
                   : parseFloat(getComputedStyle(e).fontSize);
  if (px < smallest - 1e-6) small.push([node.textContent.trim().slice(0, 40), px]);
}
return {outside: outside, sideways: document.documentElement.scrollWidth > w, small: small.slice(0, 5),
        scrolled: [scrollX, scrollY]};
"""


#: Where a decision is open: the options' scroll position, how many of its option buttons
#: lie whole inside the options box (and how many there are), whether the question is cut,
#: and whether a score sheet shown over the page covers any of the decision.
DECISION = """
const box = document.getElementById('decision');
if (box.hidden) return null;
const options = document.getElementById('options'), o = options.getBoundingClientRect();
const buttons = [...options.querySelectorAll('button')];
const whole = buttons.filter((b) => { const r = b.getBoundingClientRect();
  return r.top >= o.top - 0.5 && r.bottom <= o.bottom + 0.5 && r.height >= 20; }).length;
const q = document.getElementById('question'), qr = q.getBoundingClientRect(), d = box.getBoundingClientRect();
const cut = q.scrollHeight > q.clientHeight + 1 || qr.top < d.top - 0.5 || qr.bottom > d.bottom + 0.5;
const pop = document.getElementById('sheet-pop'), was = pop.hidden;
pop.hidden = false;  // (as at a scoring: shown over the page)
const p = pop.getBoundingClientRect();
const covers = p.right > d.left && p.left < d.right && p.bottom > d.top && p.top < d.bottom;
pop.hidden = was;
const column = document.getElementById('side').getBoundingClientRect();
return {top: options.scrollTop, whole: whole, count: buttons.length, cut: cut, covered: covers,
        height: Math.round(o.height), column: Math.round(column.height)};
"""
#: A click on the board's first choosable province where the options are at least twice as
#: many as the provinces (a bid: several amounts each): "filtered" (the options of that
#: province shown), "answered" (it had one), or "" (no such decision).
FILTER_BY_PROVINCE = """
const provinces = [...document.querySelectorAll('#board g.province.choosable')];
if (!provinces.length || document.querySelectorAll('#options button').length < 2 * provinces.length) return '';
provinces[0].querySelector('rect').dispatchEvent(new MouseEvent('click', {bubbles: true}));
return document.getElementById('filter').hidden ? 'answered' : 'filtered';
"""
#: At least this many whole options in view at a desktop screen (all of them when fewer).
FEW_OPTIONS = 4


def check_decision(found: dict | None, where: str, phone: bool) -> None:
    """A decision's options begin at the top, at a desktop screen show a few whole options,
    its question is whole, and a score sheet shown meanwhile leaves it uncovered."""
    if found is None:
        return
    assert found["top"] == 0, f"{where}: the options start scrolled by {found['top']} px"
    assert not found["cut"], f"{where}: the question is cut"
    assert not found["covered"], f"{where}: a score sheet covers the decision"
    if not phone:
        need = min(FEW_OPTIONS, found["count"])
        assert found["whole"] >= need, (f"{where}: {found['whole']} of {found['count']} options whole in view in "
                                        f"{found['height']} px of a {found['column']} px column")


def viewport(driver, width: int, height: int, phone: bool) -> None:
    """The page's viewport exactly `width` x `height` CSS pixels (a window's own bars aside)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})


def open_table(serving, seats: list[str], seed: int | None = None) -> tuple[str, list[str]]:
    """A classic2003 table of `seats`, its creator at seat 0: (his seat's link, the other
    people's seat tokens, each taken with its invitation)."""
    body = {"variant": "classic2003", "players": len(seats), "seats": seats, "sit": 0}
    if seed is not None:
        body["seed"] = seed
    reply = serving.client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    table = reply.json()
    own = next(s["link"] for s in table["seats"] if s.get("link"))
    return own, [claim(serving, s["invitation"]) for s in table["seats"] if s.get("invitation")]


def take_seat(driver, link: str) -> None:
    """Open the seat's page and say the link is one's own (the lobby would have remembered it)."""
    driver.get(link)
    wait_for(driver, "return document.body.dataset.number", "the seat's page")
    if driver.execute_script("return !document.getElementById('yours-keep').hidden"):
        driver.find_element("id", "yours-keep").click()


def click_an_option(driver, rng: random.Random, number: int) -> None:
    """Click one of the page's options and wait until the answer is taken: the next decision,
    or (a secret one, the others of its batch still to answer) the page asking nothing."""
    count = driver.execute_script("return document.querySelectorAll('#options button:not([disabled])').length")
    # (the options scrolled to their end first: the next decision's must start at the top anyway)
    driver.execute_script("const o = document.getElementById('options'); o.scrollTop = o.scrollHeight")
    # (found and clicked in one script: the page may draw its options again between two calls)
    driver.execute_script("document.querySelectorAll('#options button:not([disabled])')[arguments[0]].click()",
                          rng.randrange(count))
    wait_for(driver, "return Number(document.body.dataset.number) !== arguments[0] || "
                     "document.getElementById('decision').hidden", "the answer taken", number)


def test_the_page_fits_every_screen_at_every_decision_of_a_game(tmp_path):
    serving = Serving(tmp_path / "tables")
    driver = start_chromium(tmp_path / "profile", "1366,900")
    try:
        link, _ = open_table(serving, ["human", "random", "random"], seed=5)
        take_seat(driver, link)
        rng = random.Random(5)
        decisions, shot, filtered = 0, set(), False
        while True:
            wait_for(driver, "return document.body.dataset.turn === 'yours' || "
                             "!document.getElementById('finished').hidden", "a decision or the end")
            finished = driver.execute_script("return !document.getElementById('finished').hidden")
            if not finished and not filtered:  # (once: the options of one province, as a click on it shows)
                number = int(driver.execute_script("return document.body.dataset.number"))
                clicked = driver.execute_script(FILTER_BY_PROVINCE)
                if clicked == "answered":
                    wait_for(driver, "return Number(document.body.dataset.number) !== arguments[0] || "
                                     "document.getElementById('decision').hidden", "the answer taken", number)
                    continue
                filtered = clicked == "filtered"
            driver.execute_script("document.getElementById('sheet-pop').hidden = true")  # (read, and closed)
            for width, height, phone in SCREENS:
                viewport(driver, width, height, phone)
                found = driver.execute_script(MEASURE, SMALLEST_PX)
                where = f"{width}x{height} at decision {decisions}{' (the end)' if finished else ''}"
                assert not found["outside"], f"{where}: outside the viewport: {found['outside']}"
                assert not found["sideways"], f"{where}: the page scrolls sideways"
                assert not found["small"], f"{where}: text below {SMALLEST_PX} px: {found['small']}"
                assert found["scrolled"] == [0, 0], where
                try:
                    check_decision(driver.execute_script(DECISION), where, phone)
                except AssertionError:
                    driver.save_screenshot(str(tmp_path / "failed.png"))  # (to look at)
                    raise
                if decisions >= 12 and width not in shot:  # (a few moves in: a board with something on it)
                    driver.save_screenshot(str(SCREENSHOTS[width]))
                    shot.add(width)
            if finished:
                # every player's place and points, best first, the winners first
                rows = driver.execute_script("return [...document.querySelectorAll('#standings tr[data-place]')]"
                                             ".map(tr => [...tr.children].map(td => td.textContent))")
                winners = driver.execute_script("return document.getElementById('winners').textContent")
                assert len(rows) == 3 and rows[0][0] == "1" and rows[0][1] in winners, rows
                assert [int(row[0]) for row in rows] == sorted(int(row[0]) for row in rows)
                driver.save_screenshot(str(tmp_path / "finished.png"))  # (to look at)
                break
            number = int(driver.execute_script("return document.body.dataset.number"))
            click_an_option(driver, rng, number)
            decisions += 1
        assert decisions > 20 and shot == set(SCREENSHOTS) and filtered
        assert not console_errors(driver)
    finally:
        driver.quit()
        serving.stop()


def test_the_title_says_whose_turn_and_the_score_sheets_are_the_logs(tmp_path):
    """Two people (one in Chromium, the other answering over HTTP) and a bot: the tab's title
    reads "(Your turn) ..." exactly while the page's seat is asked; the finished page's score
    sheets give each item of each kingdom the points the log's result gives it, and their
    running totals end at the final scores."""
    serving = Serving(tmp_path / "tables")
    driver = start_chromium(tmp_path / "profile", "1280,800")
    try:
        link, (other,) = open_table(serving, ["human", "human", "random"])
        take_seat(driver, link)
        mine = link.split("#", 1)[1]
        rng = random.Random(11)
        titles = set()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            page = state(serving, mine)
            if page["finished"]:
                break
            wait_for(driver, "return Number(document.body.dataset.version) >= arguments[0]", "the page updated",
                     page["version"])
            title = driver.execute_script("return document.title")
            icon = driver.execute_script("return document.getElementById('favicon').href")
            if page["decision"]:
                assert title == "(Your turn) Amun-Re table" and "circle" in icon
                click_an_option(driver, rng, page["number"])
            elif page["turn"] and any(waiting["seat"] == 1 for waiting in page["turn"]["waiting"]):
                assert title == "Amun-Re table" and "circle" not in icon
                theirs = state(serving, other)
                reply = serving.client.post("/api/answer", headers=auth(other), json={
                    "number": theirs["number"], "option": rng.randrange(len(theirs["decision"]["options"]))})
                assert reply.status_code == 200, reply.text
            else:
                time.sleep(0.02)  # the bot thinks
                continue
            titles.add(title)
        else:
            pytest.fail("the game did not end in 2 minutes")
        assert titles == {"(Your turn) Amun-Re table", "Amun-Re table"}
        wait_for(driver, "return !document.getElementById('finished').hidden", "the finished page")
        assert driver.execute_script("return document.title") == "Amun-Re table"
        sheets = driver.execute_script("""
            return [...document.querySelectorAll('#final-sheets table.sheet')].map(t => ({
              kingdom: Number(t.dataset.kingdom),
              items: [...t.querySelectorAll('tr[data-item]')].map(tr => [tr.dataset.item,
                [...tr.children].slice(1).map(td => Number(td.textContent))]),
              running: [...t.querySelector('tr.running').children].slice(1).map(td => Number(td.textContent))}))""")
        log = [json.loads(line) for line in serving.client.get("/api/log", headers=auth(mine)).text.splitlines()]
    finally:
        driver.quit()
        serving.stop()
    result = log[-1]
    scored: list[dict] = [{} for _ in result["scores"]]  # (the sheets' points, as the log keys them)
    for sheet in sheets:
        for key, points in sheet["items"]:
            for player, value in enumerate(points):
                where = f"{sheet['kingdom']}:{key}"
                scored[player][where] = scored[player].get(where, 0) + value
    # (an item a player scored nothing for is a 0 on the sheet, and absent or 0 in the log)
    nonzero = [{key: value for key, value in mine.items() if value} for mine in scored]
    assert len(sheets) >= 2 and nonzero == [{k: v for k, v in b.items() if v} for b in result["breakdown"]]
    assert sheets[-1]["running"] == result["scores"]
