"""`amunre serve` in real browsers: two people, each in their own headless Chromium, each
taking their seat by opening their invitation, and two bots play a whole game of each
edition (and of the expert rule's draft; the quick run plays only that one) through the
pages. The secret batches are asked of
both people at once and both answer them; once, one has answered in secret and the other
not, the first page says whom it waits for, the server is killed (SIGKILL) and started again
and the sealed answer is still there; the pages carry on; the final scores on the page are
those `amunre replay` finds in the table's log. And the lobby: what it shows once a table is
open (its creator's own seat, an invitation per other person), an invitation taken, opened again by another browser (the
creator peeking) and by the one that took it, and closing the table.

Each person answers by clicking: an option's button, or a province on the board where the
decision's options are about provinces. At every step each page's hand must be its own
seat's (as that seat's own API state has it), never the other's. Skipped, saying why, where
Chromium cannot be started (as the replay viewer's browser test).
"""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time

import pytest
from conftest import deep_only

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
pytest.importorskip("httpx2", reason="the test extra's HTTP client: pip install '.[test]'")
from serving import Serving, auth, state
from test_viewer_browser import console_errors, start_chromium

SEATS = ["human", "greedy", "human", "random"]
#: The variants a whole game is played of: each edition, and the expert rule's draft. The quick run plays
#: the expert rule's game alone (a minute and more each): it has every kind of check, both kinds of secret
#: batch (the offers and the province draft) among them; the deep run (AMUNRE_DEEP=1) plays them all.
EDITIONS = [pytest.param("classic2003", marks=deep_only), pytest.param("supermeeple2016", marks=deep_only),
            "expert2016"]
#: Answers given through the pages before the server is killed (at the next secret batch,
#: one person's sealed answer given and the other's not).
KILL_AFTER = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def page_number(driver) -> int | None:
    found = driver.execute_script("return document.body.dataset.number")
    return None if found is None else int(found)


def page_hand(driver) -> tuple[int | None, list[str]]:
    """Where the page stands and the hand it shows, read at once (read one after the other,
    the page could take the next data between them: the hand of a later decision)."""
    number, hand = driver.execute_script("return [document.body.dataset.number, "
                                         "[...document.querySelectorAll('#hand li')].map(li => li.textContent)]")
    return None if number is None else int(number), hand


def shown_hand(page: dict) -> list[str]:
    """The hand as page.js writes it, from a seat's page data."""
    if not page["hand"]:
        return ["no cards"]
    return [(f"{c['count']} × " if c["count"] > 1 else "") + c["card"] + (f" — {c['text']}" if c["text"] else "")
            for c in page["hand"]]


def answer_on_page(driver, rng: random.Random) -> bool:
    """Click an answer if the page asks one: a province on the board (when options are about
    provinces, half the time) and then the first option's button left. Whether it clicked."""
    asks = driver.execute_script("return !document.getElementById('decision').hidden && "
                                 "document.querySelectorAll('#options button:not([disabled])').length > 0")
    if not asks:
        return False
    provinces = driver.execute_script("return [...document.querySelectorAll('#board g.province.choosable')]"
                                      ".map(g => g.dataset.pid)")
    if provinces and rng.random() < 0.5:
        pid = rng.choice(provinces)
        driver.execute_script("document.querySelector(`#board g.province[data-pid='${arguments[0]}'] rect`)"
                              ".dispatchEvent(new MouseEvent('click', {bubbles: true}))", pid)
        time.sleep(0.05)
        if not driver.execute_script("return document.querySelectorAll('#options button:not([disabled])').length"):
            return True  # the click answered (one option on that province)
    # the first option (quick, and the people keep gold for the secret offers: a seat with one
    # legal offer is not asked); found and clicked in one script, as the page may draw its
    # options again between two calls
    click_first_option(driver)
    return True


def click_first_option(driver) -> bool:
    """Click the page's first option (quick: a whole game is played so), if it asks one."""
    return bool(driver.execute_script(
        "const b = document.getElementById('decision').hidden ? null : "
        "document.querySelector('#options button:not([disabled])'); if (b) b.click(); return !!b;"))


def up_to_date(driver, page: dict) -> bool:
    """Whether the page shows the data `page` (the seat's API state) holds."""
    return driver.execute_script("return document.body.dataset.version") == str(page["version"])


def wait_version(driver, serving, token) -> dict:
    """The seat's state once its page shows it (the page follows the live connection)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        page = state(serving, token)
        if up_to_date(driver, page):
            return page
        time.sleep(0.05)
    pytest.fail("the page did not catch up with its seat's state within 30 s")


@pytest.mark.parametrize("variant", EDITIONS)
def test_two_people_and_two_bots_play_a_whole_game_in_their_browsers(tmp_path, variant):
    port = free_port()
    data = tmp_path / "tables"
    serving = Serving(data, port=port)
    drivers = []
    try:
        # (no seed: two people sit, and a seed tells every hidden card; the log, given at the end, names it)
        reply = serving.client.post("/api/tables", json={"variant": variant, "players": 4, "seats": SEATS})
        assert reply.status_code == 201, reply.text
        table = reply.json()
        people = [s for s in table["seats"] if s["invitation"]]
        for n, person in enumerate(people):  # each opens his invitation: the page takes the seat
            driver = start_chromium(tmp_path / f"profile-{n}", "1280,800")
            drivers.append(driver)
            driver.get(person["invitation"])
        # (each seat's own token, which only that browser was given, read from its address)
        tokens = [wait_for(driver, "return location.pathname === '/seat' && location.hash.slice(1)",
                           "the invitation taken") for driver in drivers]
        names = [person["name"] for person in people]
        rng = random.Random(7)
        given, hands_differed, killed, together = 0, False, False, set()
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            pages = [state(serving, token) for token in tokens]
            if pages[0]["finished"]:
                break
            for driver, page in zip(drivers, pages):
                number, hand = page_hand(driver)
                if number == page["number"]:  # the page is up to date: its hand is its seat's own
                    assert hand == shown_hand(page)
            hands_differed |= shown_hand(pages[0]) != shown_hand(pages[1])
            asked = [n for n, page in enumerate(pages) if page["decision"]]
            if not all(up_to_date(drivers[n], pages[n]) for n in asked):
                time.sleep(0.05)  # (a page asked something is catching up: answered on it once it shows it)
                continue
            secret = len(asked) == 2 and all(page["decision"]["secret"] for page in pages)
            if secret:  # both people asked their secret decisions at once
                together.add(pages[0]["decision"]["kind"])
            if secret and given >= KILL_AFTER and not killed:
                # one answers in secret; the other's page still asks him, the first's says whom
                # it waits for and nothing of what anyone else answered; then a kill -9
                assert click_first_option(drivers[0])
                sealed = wait_version(drivers[0], serving, tokens[0])
                assert sealed["sealed"] and sealed["decision"] is None
                said = drivers[0].find_element("id", "status").text
                assert "Your sealed answer" in said and names[1] in said and names[0] not in said.split("Waiting")[1]
                drivers[0].execute_script("const b = document.getElementById('yours-done'); if (b) b.click();")
                drivers[0].save_screenshot(str(tmp_path / f"serve-sealed-{variant}.png"))
                other = wait_version(drivers[1], serving, tokens[1])  # still asked, told nothing of it
                assert other["decision"] == pages[1]["decision"] and other["sealed"] is None
                assert drivers[1].find_element("id", "status").text.startswith("Your turn (in secret")
                drivers[1].execute_script("const b = document.getElementById('yours-done'); if (b) b.click();")
                drivers[1].save_screenshot(str(tmp_path / f"serve-asked-{variant}.png"))
                serving.kill()
                serving = Serving(data, port=port)
                again = wait_version(drivers[0], serving, tokens[0])  # (the open page reconnects by itself)
                assert again["sealed"] == sealed["sealed"] and again["number"] == sealed["number"]
                given, killed = given + 1, True
                continue
            clicked = 0
            for n in asked[:2 if secret else 1]:  # (both people of a secret batch click now)
                clicked += answer_on_page(drivers[n], rng)
            given += clicked
            if not clicked:
                time.sleep(0.05)
        else:
            pytest.fail(f"the game did not end in 10 minutes ({given} answers given through the pages)")
        assert killed and hands_differed
        # the offers (the people keep gold), and the expert rule's province draft, asked of both at once
        assert together >= ({"offer", "pick_province"} if variant == "expert2016" else {"offer"}), together
        final = state(serving, tokens[0])
        for driver in drivers:  # the pages say the game is over, with the scores
            deadline = time.monotonic() + 30
            while driver.execute_script("return document.getElementById('finished').hidden") \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
            points = driver.execute_script("return [...document.querySelectorAll('#players tr')].slice(1)"
                                           ".map(tr => Number(tr.children[1].textContent))")
            assert points == [p["points"] for p in final["players"]]
            # (a request sent while the server was down failed at the network, whichever way the
            # socket went: refused, reset, not connected; or one sent while it was setting the tables
            # up again was told 503: the page said so and went on, as docs/serve.md says)
            assert not [e for e in console_errors(driver) if "net::ERR_" not in e["message"]
                        and "Failed to load resource: the server responded with a status of 503"
                        not in e["message"]]
        drivers[0].save_screenshot(str(tmp_path / f"serve-final-{variant}.png"))
        print(f"screenshots: {tmp_path}")
        log = serving.client.get("/api/log", headers=auth(tokens[1]))
        assert log.status_code == 200
    finally:
        for driver in drivers:
            driver.quit()
        serving.stop()
    path = tmp_path / "table.jsonl"
    path.write_text(log.text)
    replayed = subprocess.run([sys.executable, "-m", "amunre", "replay", str(path), "--json"], capture_output=True,
                              text=True)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["scores"] == [p["points"] for p in final["players"]]


def wait_for(driver, script: str, what: str, *args):
    """Wait (up to 30 s) for a page's `script` to return something true; that value."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = driver.execute_script(script, *args)
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"{what}: not within 30 s")


def set_seats(driver, kinds: list[str]) -> None:
    """Type each seat's kind as a person does (an input event after each)."""
    driver.execute_script("const inputs = [...document.querySelectorAll('.seat-kind')];"
                          "arguments[0].forEach((kind, i) => { inputs[i].value = kind;"
                          "inputs[i].dispatchEvent(new Event('input', {bubbles: true})); });", kinds)


def test_the_lobby_says_when_a_seed_may_be_chosen_and_closes_the_table_it_opened(tmp_path):
    """The lobby: the seed field says why it may be chosen only for a table of at most one
    person, and is closed (and no seed sent) while two people sit; a refusal is shown in the
    server's words. Once a table is open it shows its creator's own seat and an invitation
    per other person (to copy, not to click); a friend opening his takes the seat and is
    shown its own link; the creator opening another friend's (peeking) takes that seat, and
    the friend opening it then is told it was taken, and warned; opened again where it was
    taken, it leads back to the seat; a seat's link opened in a browser that did not take it
    warns. The creator's link and button close the table, and the seat's page then says it
    is closed, as his own page does. Screenshots: /tmp/amunre-lobby-*.png, /tmp/amunre-seat-*.png,
    /tmp/amunre-invitation-spent.png."""
    serving = Serving(tmp_path / "tables", "--max-bot-playouts", "200")
    driver = start_chromium(tmp_path / "profile", "1280,900")
    friend = None
    try:
        driver.get(serving.url)
        wait_for(driver, "return document.querySelectorAll('#variant option').length", "the variants listed")
        driver.execute_script("const v = document.getElementById('variant'); v.value = 'classic2003';"
                              "v.dispatchEvent(new Event('change'));"
                              "const p = document.getElementById('players'); p.value = '3';"
                              "p.dispatchEvent(new Event('change'));")
        note = driver.execute_script("return document.getElementById('seed-note').textContent")
        assert "nobody but you plays" in " ".join(note.split())
        seed = driver.find_element("id", "seed")
        set_seats(driver, ["human", "random", "random"])
        assert seed.is_enabled()
        seed.send_keys("42")
        set_seats(driver, ["human", "human", "random"])  # two people: the field closes
        assert not seed.is_enabled() and "told to nobody" in seed.get_attribute("placeholder")
        assert seed.get_attribute("value") == ""  # (not shown as if it were used)
        driver.save_screenshot("/tmp/amunre-lobby-seed.png")
        set_seats(driver, ["human", "random", "random"])
        assert seed.is_enabled() and seed.get_attribute("value") == "42"  # (what was typed, back)
        pick_sit = ("const s = document.getElementById('sit'); s.value = arguments[0]; "
                    "s.dispatchEvent(new Event('change'));")
        driver.execute_script(pick_sit, "")  # his one person's seat handed out: that person would not know
        assert not seed.is_enabled() and seed.get_attribute("value") == ""
        driver.execute_script(pick_sit, "0")
        assert seed.is_enabled() and seed.get_attribute("value") == "42"
        set_seats(driver, ["human", "human", "mcts:iterations=500"])  # more than the server allows
        driver.find_element("id", "open-button").click()
        error = wait_for(driver, "return document.getElementById('open-error').textContent", "the refusal shown")
        assert "--max-bot-playouts 200" in error
        driver.save_screenshot("/tmp/amunre-lobby-refused.png")
        driver.execute_script("const p = document.getElementById('players'); p.value = '4';"
                              "p.dispatchEvent(new Event('change'));")
        set_seats(driver, ["human", "human", "human", "random"])
        sits = driver.execute_script("return [...document.getElementById('sit').options].map(o => o.value)")
        assert sits == ["0", "1", "2", ""] and driver.find_element("id", "sit").get_attribute("value") == "0"
        driver.find_element("id", "open-button").click()
        wait_for(driver, "return !document.getElementById('links').hidden", "the table opened")
        assert driver.execute_script("return document.getElementById('open-error').textContent") == ""
        creator_link = driver.find_element("id", "creator-link").get_attribute("href")
        own_link = driver.find_element("id", "own-link").get_attribute("href")
        invitations = driver.execute_script("return [...document.querySelectorAll('#invitation-list input')]"
                                            ".map(i => i.value)")
        assert "/creator#" in creator_link and "/seat#" in own_link
        assert len(invitations) == 2 and all("/join#" in link for link in invitations)
        assert not driver.execute_script("return document.querySelector('#invitation-list a')")  # (not to click)
        driver.save_screenshot("/tmp/amunre-lobby-opened.png")
        token = own_link.split("#")[1]
        assert state(serving, token)["seat"] == 0 and state(serving, token)["closed"] is False
        lobby = driver.current_window_handle

        # a friend opens his invitation: the seat is his, and its own link shown to keep
        friend = start_chromium(tmp_path / "friend", "1280,900")
        friend.get(invitations[0])
        wait_for(friend, "return document.body.dataset.yours === 'claimed'", "the friend's seat taken")
        mine = friend.current_url
        assert "/seat#" in mine and friend.find_element("id", "yours-link").get_attribute("value") == mine
        assert friend.find_element("id", "yours-title").text.startswith("This seat is yours now: you are blue")
        assert state(serving, mine.split("#")[1])["seat"] == 1
        friend.save_screenshot("/tmp/amunre-seat-claimed.png")

        # the creator opens the other friend's invitation (to peek): he takes that seat...
        driver.switch_to.new_window("tab")
        driver.get(invitations[1])
        wait_for(driver, "return document.body.dataset.yours === 'claimed'", "the peek")
        # ... and the friend, opening it, is told so, and warned
        friend.get(invitations[1])
        wait_for(friend, "return document.body.dataset.state", "the spent invitation's page")
        assert friend.execute_script("return document.body.dataset.state") == "taken"
        assert friend.find_element("id", "join-title").text == "This invitation was used already"
        assert friend.find_element("id", "join-said").text.startswith("Seat 3 (black) at this table was taken on ")
        assert friend.find_element("id", "join-warning").is_displayed()
        assert not friend.find_element("id", "join-mine").is_displayed()
        friend.save_screenshot("/tmp/amunre-invitation-spent.png")
        # his own invitation, opened again where he took it, leads back to his seat
        friend.get(invitations[0])
        wait_for(friend, "return document.body.dataset.state", "his own invitation again")
        assert friend.find_element("id", "join-mine").is_displayed()
        assert not friend.find_element("id", "join-warning").is_displayed()
        assert friend.find_element("id", "join-seat").get_attribute("href") == mine
        # a seat's link in a browser that did not take it (a seat's link handed out): a warning
        driver.get(mine)
        wait_for(driver, "return document.body.dataset.yours", "the seat page's question")
        assert driver.execute_script("return document.body.dataset.yours") == "unknown"
        assert driver.find_element("id", "yours-warning").is_displayed()
        driver.save_screenshot("/tmp/amunre-seat-unknown.png")
        # his own seat, which the lobby remembered in his browser: no question
        driver.get(own_link)
        wait_for(driver, "return document.body.dataset.number", "the creator's seat")
        assert driver.execute_script("return document.body.dataset.yours") is None
        assert not driver.find_element("id", "yours").is_displayed()

        driver.switch_to.window(lobby)
        driver.find_element("id", "close-button").click()
        said = wait_for(driver, "return document.getElementById('close-said').textContent", "the table closed")
        assert said.startswith("The table is closed")
        assert not driver.find_element("id", "close-button").is_enabled()
        driver.save_screenshot("/tmp/amunre-lobby-closed.png")
        assert state(serving, token)["closed"] is True
        driver.get(own_link)
        status = wait_for(driver, "return document.getElementById('status').textContent", "the seat's page")
        assert status.startswith("This table is closed")
        driver.save_screenshot("/tmp/amunre-seat-closed.png")
        driver.get(creator_link)
        wait_for(driver, "return document.body.dataset.state", "the creator's page")
        assert driver.execute_script("return document.body.dataset.state") == "closed"
        assert not driver.find_element("id", "close-button").is_enabled()
        driver.save_screenshot("/tmp/amunre-close-page.png")
        # (the refusals asked for above are the errors the browsers log: the table refused, the
        # spent invitation)
        refused = ("/api/tables - Failed to load resource: the server responded with a status of 422",
                   "/api/claim - Failed to load resource: the server responded with a status of 409")
        for browser in (driver, friend):
            assert not [e for e in console_errors(browser) if not any(r in e["message"] for r in refused)]
    finally:
        driver.quit()
        if friend is not None:
            friend.quit()
        serving.stop()
