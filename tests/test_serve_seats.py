"""`amunre serve`'s seats are fair to every person at the table, its creator included.

Whoever opens a table is given invitations, not seats: an invitation gives its seat once, to
whoever opens it first, with a seat token nobody else is given (the creator neither), and
says to whoever opens it again when the seat was taken. So a creator who opens a friend's
invitation to see his hand is found out by the friend. These tests go through the HTTP API
(the server in this process); a taking that survives a kill -9 is in
tests/test_serve_process.py, the pages in tests/test_serve_browser.py.
"""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
pytest.importorskip("httpx2", reason="the test extra's HTTP client: pip install '.[test]'")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_serve import auth, raw, until, wait_ready

from amunre.serve.app import build_app

PEOPLE = ["human", "human", "random"]


def opened(client, seats=PEOPLE, **more) -> dict:
    reply = client.post("/api/tables", json={"variant": "classic2003", "players": len(seats), "seats": seats, **more})
    assert reply.status_code == 201, reply.text
    return reply.json()


def fragment(link: str) -> str:
    return link.split("#", 1)[1]


def claim(client, invitation: str, **headers):
    """Open an invitation's link as its page does: POST /api/claim with its token."""
    return client.post("/api/claim", headers={**auth(fragment(invitation)), **headers}, json={})


def rows(client) -> dict:
    """What the store holds of the links: every row of its tokens, invitations and closers."""
    store = client.app.state.server.store
    with store._lock:
        return {name: sorted(store._db.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
                for name in ("tokens", "invitations", "closers", "closed")}


@pytest.fixture
def client(tmp_path):
    with TestClient(build_app(tmp_path)) as client:
        yield client


def test_no_link_the_creator_is_given_opens_another_persons_seat(client):
    """The gap this closes: opening a table gave its creator every person's seat link, so he
    could look at any hand, unseen. Now every link in the answer, whatever its shape, opens
    at most his own seat (`sit`) and the spectator's view; each other person's seat is an
    invitation, which opens no seat until it is taken (and then gives the seat's token to
    whoever took it, not to the creator)."""
    import re

    for more, own in (({}, set()), ({"sit": 3}, {3})):
        reply = client.post("/api/tables", json={"variant": "classic2003", "players": 4,
                                                 "seats": ["human", "human", "random", "human"], **more})
        assert reply.status_code == 201, reply.text
        tokens = sorted(set(re.findall(r"#([A-Za-z0-9_-]+)", reply.text)))
        # (three people, the spectator, the creator's own link: given as `creator` and, its older name, `close`)
        assert len(tokens) == 5
        opens = set()
        for token in tokens:
            page = client.get("/api/state", headers=auth(token))
            assert page.status_code in (200, 403), page.text
            if page.status_code == 200:
                opens.add(page.json()["seat"])
        assert opens == own | {None}, f"the creator's links open seats {sorted(opens - {None})}, expected {own}"
    table = reply.json()
    assert [s["invitation"] is not None for s in table["seats"]] == [True, True, False, False]
    assert [s["link"] is not None for s in table["seats"]] == [False, False, False, True]
    assert all("/join#" in s["invitation"] for s in table["seats"][:2])
    said = client.get("/api/state", headers=auth(fragment(table["seats"][0]["invitation"]))).json()["error"]
    assert said.startswith("this token is an invitation, not a seat: open its link (/join#...)")
    stored = json.dumps(rows(client))
    assert not any(token in stored for token in tokens)  # (only digests kept)


def test_a_creator_who_opens_another_persons_invitation_spends_it_and_the_person_is_told(client):
    table = opened(client, sit=0)
    friend = table["seats"][1]["invitation"]
    peek = claim(client, friend)  # the creator looks at his friend's hand
    assert peek.status_code == 200, peek.text
    assert peek.json()["seat"] == 1 and peek.json()["name"] == "blue" and "/seat#" in peek.json()["link"]
    assert client.get("/api/state", headers=auth(fragment(peek.json()["link"]))).json()["hand"]
    taken = client.app.state.server.store.find_invitation(fragment(friend))[2]
    reply = claim(client, friend)  # the friend opens his invitation
    assert reply.status_code == 409
    said = reply.json()
    when = time.strftime("%Y-%m-%d at %H:%M:%S UTC", time.gmtime(taken))
    assert said["error"].startswith(f"this invitation was opened before: seat 2 (blue) was taken on {when}.")
    assert "someone else opened your invitation and holds your seat" in said["error"]
    assert said["taken"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(taken))
    assert (said["table"], said["seat"], said["name"]) == (table["table"], 1, "blue")
    assert "link" not in said and fragment(peek.json()["link"]) not in reply.text  # (no seat for him)


class _Yielding:
    """The store's lock, which lets the other threads in each time it is let go (as a busy
    machine might): a taking checked under one hold and made under another would be made
    by every thread that checked meanwhile."""

    def __init__(self, lock):
        self.lock = lock

    def __enter__(self):
        self.lock.acquire()

    def __exit__(self, *exc):
        self.lock.release()
        time.sleep(0.005)  # (not a measure: the others' turn)


def test_an_invitation_gives_its_seat_once_to_many_opening_it_at_once(tmp_path):
    """Ten requests take one invitation at once: their takings run in worker threads, all
    ten let into the store together (a barrier), and the store's lock lets the others in
    whenever it is let go. One is given the seat, nine are told it was taken, and the store
    holds one token of that seat."""
    import threading

    import anyio
    import httpx2 as httpx

    async def race():
        app = build_app(tmp_path)
        store = app.state.server.store
        store._lock = _Yielding(store._lock)
        together, real = threading.Barrier(10, timeout=60), store.claim

        def claim(*args):
            together.wait()
            return real(*args)

        store.claim = claim
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
                table = (await client.post("/api/tables", json={"variant": "classic2003", "players": 3,
                                                                "seats": PEOPLE})).json()
                invitation = fragment(table["seats"][1]["invitation"])
                replies = []

                async def one():
                    replies.append(await client.post("/api/claim", headers=auth(invitation), json={}))

                async with anyio.create_task_group() as group:
                    for _ in range(10):
                        group.start_soon(one)
                with store._lock:
                    held = store._db.execute("SELECT COUNT(*) FROM tokens WHERE table_id = ? AND seat = 1",
                                             (table["table"],)).fetchone()[0]
                return replies, held

    replies, held = anyio.run(race)
    assert sorted(reply.status_code for reply in replies) == [200] + [409] * 9
    assert held == 1
    assert all("was opened before" in reply.json()["error"] for reply in replies if reply.status_code == 409)


def test_a_taken_seats_token_opens_that_seat_only(client):
    one, two = opened(client, sit=0), opened(client, sit=0)
    token = fragment(claim(client, one["seats"][1]["invitation"]).json()["link"])
    other = fragment(claim(client, two["seats"][1]["invitation"]).json()["link"])
    assert token != other and token != fragment(one["seats"][1]["invitation"])
    page = client.get("/api/state", headers=auth(token)).json()
    assert (page["table"], page["seat"], page["you"]) == (one["table"], 1, "blue")
    assert client.get("/api/state", headers=auth(other)).json()["table"] == two["table"]
    with client.websocket_connect("/api/live") as live:  # its live page too
        live.send_text(json.dumps({"token": token}))
        assert json.loads(live.receive_text())["seat"] == 1
    for post in ("/api/claim", "/api/close"):  # it takes no other seat, closes nothing
        reply = client.post(post, headers=auth(token), json={})
        assert reply.status_code == 403, (post, reply.text)
    assert client.get("/api/state", headers=auth(fragment(one["seats"][1]["invitation"]))).status_code == 403
    with client.websocket_connect("/api/live") as live:  # the invitation opens no live page either
        live.send_text(json.dumps({"token": fragment(one["seats"][1]["invitation"])}))
        with pytest.raises(WebSocketDisconnect) as info:
            live.receive_text()
        assert info.value.code == 4403 and "invitation" in info.value.reason
    live = client.app.state.server.tables[one["table"]]
    until(lambda: live.pending.player != 2, "the bot answers up to a person's decision")
    asked = live.pending.player
    page = client.get("/api/state", headers=auth(token)).json()
    mine = token if asked == 1 else fragment(one["seats"][0]["link"])
    theirs = fragment(one["seats"][0]["link"]) if asked == 1 else token
    number = page["number"]
    reply = client.post("/api/answer", headers=auth(theirs), json={"number": number, "option": 0})
    assert reply.status_code == 409 and "turn" in reply.json()["error"]  # (it answers for its own seat only)
    reply = client.post("/api/answer", headers=auth(mine), json={"number": number, "option": 0})
    assert reply.status_code == 200, reply.text


def test_a_spent_unknown_or_bad_invitation_is_refused_and_changes_nothing(client):
    table = opened(client, sit=0)
    spent, fresh = table["seats"][1]["invitation"], opened(client)["seats"][0]["invitation"]
    seat = claim(client, spent).json()["link"]
    before = rows(client)
    cases = [
        (claim(client, spent), 409, "this invitation was opened before"),
        (claim(client, spent), 409, "this invitation was opened before"),
        (client.post("/api/claim", json={}), 401, "no invitation"),
        (claim(client, "http://x/join#" + "x" * 32), 403, "no invitation here"),
        (claim(client, "http://x/join#" + "x" * 300), 403, "no invitation here"),
        (claim(client, seat), 403, "no invitation here"),
        (claim(client, table["seats"][0]["link"]), 403, "no invitation here"),
        (claim(client, table["spectator"]), 403, "no invitation here"),
        (claim(client, table["close"]), 403, "no invitation here"),
        (client.post("/api/claim", headers=raw(fragment(fresh), "text/plain"), content=b"{}"), 415,
         "application/json"),
        (client.post("/api/claim", headers=raw(fragment(fresh), origin="http://evil.example"), content=b"{}"), 403,
         "another site"),
        (client.post("/api/claim", headers=auth(fragment(fresh)), json={"seat": 0}), 400, "unknown field"),
        (client.post("/api/claim", headers=raw(fragment(fresh)), content=b"[]"), 400, "JSON object"),
        (client.get("/api/claim", headers=auth(fragment(fresh))), 405, ""),
    ]
    for reply, status, said in cases:
        assert reply.status_code == status, (status, reply.text)
        assert said in reply.json()["error"], reply.json()
    assert rows(client) == before  # nothing taken, nothing made
    assert client.get("/api/state", headers=auth(fragment(seat))).json()["seat"] == 1  # (the taker's, still)
    closing = opened(client)
    invitation, spent = closing["seats"][0]["invitation"], closing["seats"][1]["invitation"]
    assert claim(client, spent).status_code == 200
    assert client.post("/api/close", headers=auth(fragment(closing["close"])), json={}).status_code == 200
    before = rows(client)
    reply = claim(client, invitation)  # a closed table has no seat to give
    assert reply.status_code == 409 and reply.json()["error"].startswith("this table was closed by whoever opened it")
    reply = claim(client, spent)  # and one taken before it was closed says so still
    assert reply.status_code == 409 and reply.json()["error"].startswith("this invitation was opened before") and \
        reply.json()["error"].endswith("(the table is closed now)")
    assert rows(client) == before


def test_the_seat_the_creator_takes_must_be_a_human_seat(client):
    for sit in (2, 3, -1, True, "0", 0.0):
        reply = client.post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": PEOPLE, "sit": sit})
        assert reply.status_code == 422, (sit, reply.text)
        assert reply.json()["error"].startswith(f"sit: {json.dumps(sit)} is not a human seat of this table") and \
            "0 or 1" in reply.json()["error"]
    assert client.app.state.server.store.tables() == []


#: The store as amunre serve kept it before invitations (a seat's token in `tokens`).
OLD_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, variant_id TEXT NOT NULL, variant_text TEXT,
    board_text TEXT, players INTEGER NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL);
CREATE TABLE tokens (digest TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER);
CREATE TABLE closers (digest TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id));
CREATE TABLE closed (table_id TEXT PRIMARY KEY REFERENCES tables(id), at REAL NOT NULL);
CREATE TABLE answers (table_id TEXT NOT NULL REFERENCES tables(id), number INTEGER NOT NULL, seat INTEGER NOT NULL,
    answer TEXT NOT NULL, reveals INTEGER NOT NULL, PRIMARY KEY (table_id, number));
"""


def test_a_store_made_before_invitations_keeps_its_seats_and_takes_new_tables(tmp_path):
    """A data folder of the server before invitations: its tables' seat links (their
    digests in `tokens`) still open their seats, and answer, after it is opened by this
    one; and new tables there get invitations."""
    from amunre.serve.store import digest

    (tmp_path / "tables.sqlite").touch(mode=0o600)
    with sqlite3.connect(tmp_path / "tables.sqlite") as old:
        old.executescript(OLD_SCHEMA)
        old.execute("INSERT INTO tables VALUES ('0ld0ld0ld0ld', 1.0, 'classic2003', NULL, NULL, 3, 5, ?)",
                    (json.dumps(PEOPLE),))
        old.executemany("INSERT INTO tokens VALUES (?, '0ld0ld0ld0ld', ?)",
                        [(digest("seat-zero-" * 3), 0), (digest("seat-one-" * 3), 1), (digest("watch-" * 5), None)])
    with TestClient(build_app(tmp_path)) as client:
        pages = [wait_ready(client, token) for token in ("seat-zero-" * 3, "seat-one-" * 3, "watch-" * 5)]
        assert [(p["table"], p["seat"]) for p in pages] == [("0ld0ld0ld0ld", 0), ("0ld0ld0ld0ld", 1),
                                                             ("0ld0ld0ld0ld", None)]
        asked = pages[0]["turn"]["seat"]
        token = ("seat-zero-" * 3, "seat-one-" * 3)[asked]
        reply = client.post("/api/answer", headers=auth(token), json={"number": 0, "option": 0})
        assert reply.status_code == 200, reply.text
        table = opened(client)
        taken = claim(client, table["seats"][1]["invitation"])
        assert taken.status_code == 200, taken.text
    with TestClient(build_app(tmp_path)) as client:  # and again, as this server left it
        assert wait_ready(client, "seat-one-" * 3)["number"] == 1
        assert wait_ready(client, fragment(taken.json()["link"]))["seat"] == 1
