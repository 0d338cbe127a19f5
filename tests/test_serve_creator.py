"""The creator's own link of `amunre serve` (`/creator#TOKEN`), over HTTP: it shows every
seat's link again (an invitation while nobody took it, the creator's own seat's, the
spectator's; a taken seat only as taken, never its taker's link), gives an empty seat to a
bot, and closes the table (tests/test_serve.py). Only that token does any of it (a 403
otherwise, nothing changed); a bad request is a 4xx and changes nothing; what it did is kept
across a restart (a kill -9: tests/test_serve_process.py). It shows no seat's hidden facts.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
from starlette.testclient import TestClient
from test_serve import auth, raw, until, wait_ready

from amunre.serve.app import build_app

SEATS = ["human", "human", "random", "human"]


def fragment(link: str) -> str:
    return link.split("#", 1)[1]


def opened(client, seats=SEATS, **more) -> dict:
    reply = client.post("/api/tables", json={"variant": "classic2003", "players": len(seats), "seats": seats, **more})
    assert reply.status_code == 201, reply.text
    return reply.json()


def creator_page(client, table) -> dict:
    reply = client.get("/api/creator", headers=auth(fragment(table["creator"])))
    assert reply.status_code == 200, reply.text
    return reply.json()


def kept_seats(client, table) -> list[str]:
    """The table's seats as the store keeps them."""
    return next(r.seats for r in client.app.state.server.store.tables() if r.id == table["table"])


@pytest.fixture
def client(tmp_path):
    with TestClient(build_app(tmp_path)) as client:
        yield client


def test_the_creators_link_shows_every_link_again_and_no_seats_secret(tmp_path):
    with TestClient(build_app(tmp_path)) as client:
        table = opened(client, sit=3)
        assert table["creator"].startswith("http://testserver/creator#")
        assert fragment(table["creator"]) == fragment(table["close"])  # (one token, its older name kept)
        page = creator_page(client, table)
        assert [s["state"] for s in page["seats"]] == ["invited", "invited", "bot", "yours"]
        assert [s.get("invitation") for s in page["seats"]] == [s["invitation"] for s in table["seats"]]
        assert page["seats"][3]["link"] == table["seats"][3]["link"] and page["spectator"] == table["spectator"]
        assert page["seats"][2]["kind"] == "random" and page["state"] == "played" and page["chat"] is True
        assert creator_page(client, table) == page  # (as often as he asks)
        # a friend takes his seat: the creator is told when, never the link the friend was given
        took = client.post("/api/claim", headers=auth(fragment(table["seats"][0]["invitation"])), json={})
        friends = fragment(took.json()["link"])
        reply = client.get("/api/creator", headers=auth(fragment(table["creator"])))
        again = reply.json()
        assert again["seats"][0]["state"] == "taken" and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                                                                       again["seats"][0]["taken"])
        assert set(again["seats"][0]) == {"seat", "name", "kind", "state", "taken"} and friends not in reply.text
        # nothing he is shown opens a seat but his own, or shows a hand, the seed or a decision
        for token in set(re.findall(r"#([A-Za-z0-9_-]+)", reply.text)):
            seen = client.get("/api/state", headers=auth(token))
            assert seen.status_code == 403 or seen.json()["seat"] in (3, None)
        assert set(again) == {"table", "variant", "players", "seats", "state", "spectator", "chat"}
        assert "seed" not in reply.text and "hand" not in reply.text
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("tables.sqlite*"))
    assert not any(fragment(link).encode() in stored for link in (table["creator"], table["spectator"],
                                                                   table["seats"][1]["invitation"]))
    with TestClient(build_app(tmp_path)) as client:  # started again: the same links, made again
        wait_ready(client, friends)
        assert creator_page(client, table) == again


def test_only_the_creators_token_shows_the_links_or_gives_a_seat_to_a_bot(client):
    table = opened(client, sit=3)
    other = opened(client)
    friend = client.post("/api/claim", headers=auth(fragment(table["seats"][0]["invitation"])), json={})
    not_his = [fragment(table["spectator"]), fragment(table["seats"][3]["link"]), fragment(friend.json()["link"]),
               fragment(table["seats"][1]["invitation"]), fragment(other["spectator"]), "x" * 32, "y" * 300]
    for token in not_his:
        assert client.get("/api/creator", headers=auth(token)).status_code == 403
        reply = client.post("/api/creator/bot", headers=auth(token), json={"seat": 1, "bot": "random"})
        assert reply.status_code == 403 and "closes no table" in reply.json()["error"]
    assert client.get("/api/creator").status_code == 401
    assert client.post("/api/creator/bot", json={"seat": 1, "bot": "random"}).status_code == 401
    # another table's creator changes nothing here
    reply = client.post("/api/creator/bot", headers=auth(fragment(other["creator"])), json={"seat": 1, "bot": "random"})
    assert reply.status_code == 200 and kept_seats(client, table) == SEATS
    assert creator_page(client, table)["seats"][1]["state"] == "invited"


def test_bad_requests_to_give_a_seat_to_a_bot_change_nothing(tmp_path):
    with TestClient(build_app(tmp_path, max_bot_playouts=200)) as client:
        table = opened(client, sit=3)
        client.post("/api/claim", headers=auth(fragment(table["seats"][0]["invitation"])), json={})
        token = fragment(table["creator"])
        post = client.post
        cases = [
            (post("/api/creator/bot", headers=auth(token), json={"seat": 9, "bot": "random"}), 422, "no seat"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": -1, "bot": "random"}), 422, "no seat"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": "1", "bot": "random"}), 400, "expected"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": True, "bot": "random"}), 400, "expected"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 1}), 400, "expected"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 1, "bot": "nobody"}), 422, "bot:"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 1, "bot": "human"}), 422, "bot:"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 1, "bot": "mcts:iterations=500"}), 422,
             "--max-bot-playouts 200"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 1, "bot": "random", "why": 1}), 400,
             "unknown field"),
            (post("/api/creator/bot", headers=raw(token), content=b'{"seat": 1, "seat": 1, "bot": "random"}'), 400,
             "given twice"),
            (post("/api/creator/bot", headers=raw(token, "text/plain"), content=b"{}"), 415, "application/json"),
            (post("/api/creator/bot", headers=raw(token, origin="http://evil.example"),
                  content=b'{"seat": 1, "bot": "random"}'), 403, "another site"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 0, "bot": "random"}), 409, "by a person"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 3, "bot": "random"}), 409, "by a person"),
            (post("/api/creator/bot", headers=auth(token), json={"seat": 2, "bot": "greedy"}), 409, "a bot's already"),
        ]
        for reply, status, said in cases:
            assert reply.status_code == status and said in reply.json()["error"], reply.text
        assert kept_seats(client, table) == SEATS
        assert client.app.state.server.tables[table["table"]].seats == SEATS
        assert creator_page(client, table)["seats"][1]["state"] == "invited"
        # the invitation still gives its seat
        took = client.post("/api/claim", headers=auth(fragment(table["seats"][1]["invitation"])), json={})
        assert took.status_code == 200 and took.json()["seat"] == 1


def test_a_seat_given_to_a_bot_is_kept_plays_and_the_log_replays(tmp_path):
    """Seats 1 and 2 are invitations; the creator gives seat 1 to a bot: kept (a restart
    finds it a bot's), its invitation takes nothing (saying why), and once seat 2 is given
    too the bots play the game out, and its log replays with every bot re-run."""
    with TestClient(build_app(tmp_path)) as client:
        table = opened(client, ["random", "human", "human"])
        token = fragment(table["creator"])
        reply = client.post("/api/creator/bot", headers=auth(token), json={"seat": 1, "bot": "greedy"})
        assert reply.status_code == 200 and [s["state"] for s in reply.json()["seats"]] == ["bot", "bot", "invited"]
        assert kept_seats(client, table) == ["random", "greedy", "human"]
        spectator = fragment(table["spectator"])
        assert client.get("/api/state", headers=auth(spectator)).json()["players"][1]["seat"] == "greedy"
        taken = client.post("/api/claim", headers=auth(fragment(table["seats"][1]["invitation"])), json={})
        assert taken.status_code == 409 and "gave seat 2 (blue) to a bot (greedy)" in taken.json()["error"]
        assert "link" not in taken.json()
    with TestClient(build_app(tmp_path)) as client:
        wait_ready(client, spectator)
        assert creator_page(client, table)["seats"][1] == {"seat": 1, "name": "blue", "kind": "greedy",
                                                           "state": "bot"}
        reply = client.post("/api/creator/bot", headers=auth(token), json={"seat": 2, "bot": "random"})
        assert reply.status_code == 200, reply.text
        server = client.app.state.server
        until(lambda: server.tables[table["table"]].finished, "the bots play the game out")
        reply = client.post("/api/creator/bot", headers=auth(token), json={"seat": 2, "bot": "random"})
        assert reply.status_code == 409 and "over" in reply.json()["error"]
        log = client.get("/api/log", headers=auth(spectator))
        assert log.status_code == 200
    path = tmp_path / "table.jsonl"
    path.write_text(log.text)
    replayed = subprocess.run([sys.executable, "-m", "amunre", "replay", str(path)], capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr


def test_a_closed_tables_seats_do_not_change(client):
    table = opened(client)
    token = fragment(table["creator"])
    assert client.post("/api/close", headers=auth(token), json={}).status_code == 200
    reply = client.post("/api/creator/bot", headers=auth(token), json={"seat": 0, "bot": "random"})
    assert reply.status_code == 409 and "closed" in reply.json()["error"]
    assert kept_seats(client, table) == SEATS and creator_page(client, table)["state"] == "closed"
