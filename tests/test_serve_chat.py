"""The table's chat of `amunre serve`, over HTTP: a seat's message reaches every page of the
table (the live connection too) as the text typed, with nothing the server adds but who said
it; it is refused (a 4xx, nothing kept) from a link that is no seat's, when malformed, too
long or too frequent; the store keeps the last messages across a restart; `--no-chat` (here
`build_app(chat=False)`) turns it off."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
from starlette.testclient import TestClient
from test_serve import auth, raw, wait_ready

from amunre.serve import chat as chat_rules
from amunre.serve import server as server_module
from amunre.serve.app import build_app


def fragment(link: str) -> str:
    return link.split("#", 1)[1]


class Clock:
    """The chat's clock, moved by the test (no test waits for real seconds)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def opened(client) -> dict:
    """A table of two people, each seat taken: {0: token, 1: token, None: the spectator's, "creator": ...}."""
    reply = client.post("/api/tables", json={"variant": "classic2003", "players": 3,
                                             "seats": ["human", "human", "random"], "sit": 0})
    assert reply.status_code == 201, reply.text
    table = reply.json()
    friend = client.post("/api/claim", headers=auth(fragment(table["seats"][1]["invitation"])), json={})
    return {0: fragment(table["seats"][0]["link"]), 1: fragment(friend.json()["link"]),
            None: fragment(table["spectator"]), "creator": fragment(table["creator"]), "table": table["table"]}


def said(client, token) -> list[dict]:
    reply = client.get("/api/chat", headers=auth(token))
    assert reply.status_code == 200, reply.text
    return reply.json()["messages"]


def say(client, token, text):
    return client.post("/api/chat", headers=auth(token), json={"text": text})


@pytest.fixture
def client(tmp_path):
    with TestClient(build_app(tmp_path)) as client:
        client.app.state.server.rate.clock = Clock()
        yield client


def test_a_message_reaches_every_page_as_typed_and_the_server_adds_nothing(client):
    tokens = opened(client)
    before = [client.get("/api/state", headers=auth(tokens[who])).json() for who in (0, 1, None)]
    typed = '<script>alert("hi")</script> & <b>bold</b> 🙂'
    with client.websocket_connect("/api/live") as live:
        live.send_text(json.dumps({"token": tokens[1]}))
        assert "players" in json.loads(live.receive_text())  # (the page data first)
        reply = say(client, tokens[0], typed)
        assert reply.status_code == 200, reply.text
        pushed = json.loads(live.receive_text())
    message = {"number": 0, "seat": 0, "name": "red", "text": typed}
    assert reply.json() == {"messages": [message]} and pushed == {"chat": [message]}
    for who in (0, 1, None):
        assert said(client, tokens[who]) == [message]
    # the pages' data is as it was: a message changes no seat's page (nor the table's version)
    assert [client.get("/api/state", headers=auth(tokens[who])).json() for who in (0, 1, None)] == before


def test_a_message_is_kept_as_plain_text(client):
    tokens = opened(client)
    longest = "x" * chat_rules.MAX_CHARACTERS
    for typed, kept in (("two\nlines\r\nhere\tok", "two lines here ok"), ("a\u202eb\u2066c\x07d\x1b[31me", "abcd[31me"),
                        ("  spaced   out  ", "spaced out"), (longest, longest)):
        assert say(client, tokens[0], typed).json()["messages"][-1]["text"] == kept
        client.app.state.server.rate.clock.now += chat_rules.RATE_SECONDS


def test_bad_messages_are_refused_and_nothing_is_kept(client):
    tokens = opened(client)
    too_long = "x" * (chat_rules.MAX_CHARACTERS + 1)
    post = client.post
    cases = [
        (post("/api/chat", json={"text": "hi"}), 401, "no token"),
        (say(client, tokens[None], "hi"), 403, "spectator"),
        (say(client, tokens["creator"], "hi"), 403, "opens no seat"),
        (say(client, "x" * 32, "hi"), 403, "opens no seat"),
        (post("/api/chat", headers=auth(tokens[0]), json={}), 400, "text: expected the message as a string"),
        (say(client, tokens[0], 5), 400, "expected the message as a string"),
        (say(client, tokens[0], ["hi"]), 400, "expected the message as a string"),
        (say(client, tokens[0], " \n\t "), 422, "empty"),
        (say(client, tokens[0], "\x00\x07"), 422, "empty"),
        (say(client, tokens[0], too_long), 422, f"more than a message may have ({chat_rules.MAX_CHARACTERS})"),
        (post("/api/chat", headers=raw(tokens[0]), content=b'{"text": "\\ud800"}'), 422, "lone surrogate"),
        (post("/api/chat", headers=auth(tokens[0]), json={"text": "hi", "seat": 1}), 400, "unknown field"),
        (post("/api/chat", headers=raw(tokens[0]), content=b'{"text": "a", "text": "b"}'), 400, "given twice"),
        (post("/api/chat", headers=raw(tokens[0]), content=b'"hi"'), 400, "expected a JSON object"),
        (post("/api/chat", headers=raw(tokens[0], "text/plain"), content=b'{"text": "hi"}'), 415, "application/json"),
        (post("/api/chat", headers=raw(tokens[0], origin="http://evil.example"), content=b'{"text": "hi"}'), 403,
         "another site"),
    ]
    for reply, status, words in cases:
        assert reply.status_code == status and words in reply.json()["error"], reply.text
    assert said(client, tokens[0]) == []
    assert client.app.state.server.store.chat(tokens["table"]) == []


def test_a_seat_may_say_only_so_much_so_often(client):
    tokens = opened(client)
    clock = client.app.state.server.rate.clock
    for n in range(chat_rules.RATE_MESSAGES):
        assert say(client, tokens[0], f"m{n}").status_code == 200
        clock.now += 0.1
    reply = say(client, tokens[0], "one too many")
    assert reply.status_code == 429 and f"at most {chat_rules.RATE_MESSAGES} messages" in reply.json()["error"]
    assert len(said(client, tokens[0])) == chat_rules.RATE_MESSAGES  # (the refused one is not kept)
    assert say(client, tokens[1], "the other seat may").status_code == 200  # (counted per seat)
    clock.now += chat_rules.RATE_SECONDS  # the window has moved on
    assert say(client, tokens[0], "again").status_code == 200


def test_the_last_messages_are_kept_and_survive_a_restart(tmp_path, monkeypatch):
    kept = 7  # (MESSAGES_KEPT made small: the rule, not the number, is tested)
    monkeypatch.setattr(server_module, "MESSAGES_KEPT", kept)
    with TestClient(build_app(tmp_path)) as client:
        client.app.state.server.rate.clock = clock = Clock()
        tokens = opened(client)
        for n in range(kept + 3):
            assert say(client, tokens[n % 2], f"message {n}").status_code == 200
            clock.now += chat_rules.RATE_SECONDS
        messages = said(client, tokens[None])
        assert [m["text"] for m in messages] == [f"message {n}" for n in range(3, kept + 3)]
        assert [m["number"] for m in messages] == list(range(3, kept + 3))
        assert [m["name"] for m in messages[:2]] == ["blue", "red"]
    with TestClient(build_app(tmp_path)) as client:  # started again: the same chat
        wait_ready(client, tokens[0])
        assert said(client, tokens[1]) == messages
        assert say(client, tokens[0], "after").json()["messages"][-1]["number"] == kept + 3


def test_a_closed_tables_chat_is_read_but_takes_no_message(client):
    tokens = opened(client)
    assert say(client, tokens[0], "bye").status_code == 200
    assert client.post("/api/close", headers=auth(tokens["creator"]), json={}).status_code == 200
    reply = say(client, tokens[1], "wait")
    assert reply.status_code == 409 and "closed" in reply.json()["error"]
    assert [m["text"] for m in said(client, tokens[1])] == ["bye"]


def test_no_chat_turns_it_off(tmp_path):
    with TestClient(build_app(tmp_path, chat=False)) as client:
        tokens = opened(client)
        for reply in (client.get("/api/chat", headers=auth(tokens[0])), say(client, tokens[0], "hi")):
            assert reply.status_code == 404 and "--no-chat" in reply.json()["error"]
        assert client.get("/api/creator", headers=auth(tokens["creator"])).json()["chat"] is False
        assert client.app.state.server.store.chat(tokens["table"]) == []
