"""The creator's own page and the chat of `amunre serve`, in headless Chromium.

The creator (at 1280x800) opens his own link: every seat's link is there again (the
invitations he was given, his own seat's, the spectator's). A friend (a phone, 390x844)
takes his invitation; the creator's page then shows that seat taken, and he gives the seat
nobody took to a bot by clicking. At their seats, the two chat: a message holding a
`<script>` element is shown as the text typed and runs nothing; the other's chat tab counts
it as new; the phone's page does not scroll sideways and its chat's text is at least 11 px.
Screenshots: /tmp/amunre-creator-page.png, /tmp/amunre-chat-1280x800.png,
/tmp/amunre-chat-390x844.png. Skipped, saying why, where Chromium cannot be started.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
pytest.importorskip("httpx2", reason="the test extra's HTTP client: pip install '.[test]'")
from serving import Serving, state
from test_serve_browser import wait_for
from test_serve_layout_browser import viewport
from test_viewer_browser import console_errors, start_chromium

SCRIPT = '<script>window.hacked = 1</script> <img src=x onerror="window.hacked = 2"> hello'


def chat_lines(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('#chat-lines li')].map(li => li.textContent)")


def send(driver, message: str) -> None:
    driver.execute_script("document.querySelector('[data-tab=\"chat-box\"]').click()")
    box = driver.find_element("id", "chat-text")
    box.send_keys(message)
    driver.execute_script("document.getElementById('chat-form').requestSubmit()")


def test_the_creator_reopens_the_links_gives_a_seat_to_a_bot_and_two_seats_chat(tmp_path):
    serving = Serving(tmp_path / "tables")
    creator = start_chromium(tmp_path / "creator", "1280,800")
    friend = None
    try:
        reply = serving.client.post("/api/tables", json={"variant": "classic2003", "players": 4, "sit": 0,
                                                         "seats": ["human", "human", "human", "random"]})
        assert reply.status_code == 201, reply.text
        table = reply.json()
        creator.get(table["creator"])
        wait_for(creator, "return document.body.dataset.state", "the creator's page")
        shown = creator.execute_script(
            "return [...document.querySelectorAll('#seat-list li')].map(li => [li.dataset.state,"
            " (li.querySelector('input.invitation') || {}).value || null,"
            " (li.querySelector('a.own-link') || {}).href || null])")
        assert shown == [["yours", None, table["seats"][0]["link"]],
                         ["invited", table["seats"][1]["invitation"], None],
                         ["invited", table["seats"][2]["invitation"], None], ["bot", None, None]]
        assert creator.find_element("id", "spectator-link").get_attribute("href") == table["spectator"]

        friend = start_chromium(tmp_path / "friend", "390,844")
        viewport(friend, 390, 844, True)  # (a window is never narrower than 500 px: the phone's own metrics)
        friend.get(table["seats"][1]["invitation"])
        assert friend.execute_script("return [innerWidth, innerHeight]") == [390, 844]
        wait_for(friend, "return document.body.dataset.yours === 'claimed'", "the friend's seat taken")
        friend.execute_script("document.getElementById('yours-done').click()")
        creator.refresh()
        wait_for(creator, "return document.querySelector('#seat-list li[data-seat=\"1\"]')?.dataset.state === 'taken'",
                 "the friend's seat shown taken")
        assert not creator.execute_script("return document.querySelector('#seat-list li[data-seat=\"1\"] input')")
        # seat 3, which nobody took, goes to a bot
        creator.execute_script("const li = document.querySelector('#seat-list li[data-seat=\"2\"]');"
                               "li.querySelector('select').value = 'random'; li.querySelector('button.give').click();")
        wait_for(creator, "return document.querySelector('#seat-list li[data-seat=\"2\"]')?.dataset.state === 'bot'",
                 "the seat given to a bot")
        assert "played by random" in creator.find_element("id", "seat-said").text
        own = table["seats"][0]["link"]
        assert state(serving, own.split("#")[1])["players"][2]["seat"] == "random"
        creator.save_screenshot("/tmp/amunre-creator-page.png")

        # at their seats, the two chat
        creator.get(own)
        wait_for(creator, "return !document.getElementById('chat-tab').hidden", "the chat tab")
        # (his own page told this browser the seat is his: no warning)
        assert creator.execute_script("return document.body.dataset.yours") is None
        wait_for(friend, "return !document.getElementById('chat-tab').hidden", "the friend's chat tab")
        send(creator, SCRIPT)
        wait_for(creator, "return document.querySelectorAll('#chat-lines li').length === 1", "the message shown")
        assert chat_lines(creator) == ["red (you):" + SCRIPT]
        assert wait_for(friend, "return document.getElementById('chat-tab').textContent.includes('1 new')",
                        "the message counted as new on the friend's tab")
        send(friend, "hi red")
        wait_for(friend, "return document.querySelectorAll('#chat-lines li').length === 2", "the friend's page")
        assert chat_lines(friend) == ["red:" + SCRIPT, "blue (you):hi red"]
        wait_for(creator, "return document.querySelectorAll('#chat-lines li').length === 2", "the reply reached red")
        for driver in (creator, friend):  # text, never markup: nothing it holds ran or was made an element
            assert driver.execute_script("return window.hacked === undefined && "
                                         "!document.querySelector('#chat-lines script, #chat-lines img')")
        measured = friend.execute_script(
            "document.getElementById('tabs-box').scrollIntoView();"
            "return [document.documentElement.scrollWidth > innerWidth,"
            " Math.min(...[...document.querySelectorAll('#chat-lines li, #chat-text')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize)))]")
        assert measured[0] is False and measured[1] >= 11, measured
        creator.save_screenshot("/tmp/amunre-chat-1280x800.png")
        friend.save_screenshot("/tmp/amunre-chat-390x844.png")
        for driver in (creator, friend):
            assert not console_errors(driver)
    finally:
        creator.quit()
        if friend is not None:
            friend.quit()
        serving.stop()
