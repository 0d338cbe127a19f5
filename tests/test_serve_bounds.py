"""`amunre serve` as a neighbour: what one visitor can make the server keep or spend is bounded.

Tables kept (`--max-stored-tables`: the oldest game over is forgotten, a game not over never),
live connections (per table and in all), a closed table's thinking bot still counted against
`--max-tables`, the finished game's log and replay page built once; and what the server says
never names a path on its disk. docs/serve.md says each bound.
"""

from __future__ import annotations

import json
import threading
import time
from importlib import resources

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_serve import Tables, answers_kept, auth, until, wait_ready

import amunre.serve.app as app_module
import amunre.serve.requests as requests_module
import amunre.serve.server as server_module
from amunre.serve.app import build_app

BOTS = ["random", "random", "random"]
PEOPLE = ["human", "human", "human"]


@pytest.fixture
def tables(tmp_path):
    with TestClient(build_app(tmp_path)) as client:
        yield Tables(client)


def finished(tables: Tables, seed: int) -> dict:
    table = tables.open("classic2003", 3, BOTS, seed=seed)
    until(lambda: tables.server.tables[table["table"]].finished, "the bots finish the game")
    return table


def test_a_server_keeps_at_most_max_stored_tables_forgetting_the_oldest_game_over(tmp_path):
    """With --max-stored-tables 2, a third table forgets the oldest finished one (its links
    open nothing, its rows and kept files are gone, and a restart does not bring it back);
    when every kept table is a game not over, opening one more is a 429 and nothing is kept."""
    with TestClient(build_app(tmp_path, max_stored=2)) as client:
        tables = Tables(client)
        oldest, newer = finished(tables, 1), finished(tables, 2)
        playing = tables.open("classic2003", 3, PEOPLE, seed=3)
        server = tables.server
        assert set(server.tables) == {newer["table"], playing["table"]}
        assert {record.id for record in server.store.tables()} == {newer["table"], playing["table"]}
        assert client.get("/api/state", headers=auth(oldest["tokens"][None])).status_code == 403
        assert tables.state(newer["tokens"][None])["finished"]  # the newer game over is kept
        another = tables.open("classic2003", 3, PEOPLE, seed=4)  # forgets the newer game over
        assert set(server.tables) == {playing["table"], another["table"]}
        reply = client.post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": PEOPLE})
        assert reply.status_code == 429 and "--max-stored-tables" in reply.json()["error"]
        assert "every one of them is being played" in reply.json()["error"]
        assert len(server.store.tables()) == 2 and len(server.tables) == 2  # nothing kept of it
    with TestClient(build_app(tmp_path, max_stored=2)) as client:
        for table in (playing, another):
            assert wait_ready(client, table["tokens"][0])["finished"] is False
        assert client.get("/api/state", headers=auth(newer["tokens"][None])).status_code == 403


def offer_rich_start(tmp_path, monkeypatch) -> None:
    """A folder the server offers with one house rule, `rich-start` (classic2003, 30 gold)."""
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "rich.toml").write_text('extends = "classic2003"\n\n[edition]\nid = "rich-start"\nname = "Rich"\n\n'
                                      '[components]\nstarting_gold = 30\n', encoding="utf-8")
    monkeypatch.setenv("AMUNRE_PATH", str(folder))


def test_a_house_rule_tables_kept_files_go_with_it(tmp_path, monkeypatch):
    offer_rich_start(tmp_path, monkeypatch)
    with TestClient(build_app(tmp_path / "data", max_stored=1)) as client:
        tables = Tables(client)
        first = tables.open("rich-start", 3, BOTS, seed=1)
        until(lambda: tables.server.tables[first["table"]].finished, "the bots finish the game")
        kept = tmp_path / "data" / "variants" / first["table"]
        assert (kept / "variant.toml").is_file()
        tables.open("rich-start", 3, BOTS, seed=2)
        assert not kept.exists()


def test_a_closed_table_counts_while_its_bot_still_thinks(tmp_path, monkeypatch):
    """Closing a table whose bot is thinking does not free its place under --max-tables
    until the thought ends (its thread works until then): else closing and opening again
    keeps any number of bots thinking at once."""
    from amunre.agents.random_agent import RandomAgent

    asked, release = [], threading.Event()
    real = RandomAgent.choose

    def slow(self, view, request):
        asked.append(request)
        release.wait(30)
        return real(self, view, request)

    monkeypatch.setattr(RandomAgent, "choose", slow)
    body = {"variant": "classic2003", "players": 3, "seats": BOTS}
    with TestClient(build_app(tmp_path, max_tables=1)) as client:
        tables = Tables(client)
        table = tables.open("classic2003", 3, BOTS, seed=3)
        until(lambda: asked, "a bot is asked")
        closer = table["close"].split("#")[1]
        assert client.post("/api/close", headers=auth(closer), json={}).json()["closed_now"] is True
        reply = client.post("/api/tables", json=body)
        assert reply.status_code == 429 and "finishing a thought" in reply.json()["error"]
        release.set()
        until(lambda: table["table"] not in tables.server.running, "the thinking bot is done")
        assert answers_kept(tables, table) == 0
        assert client.post("/api/tables", json=body).status_code == 201


def live_reply(client, token: str):
    """What a live connection sends first after its token: the page data, or the close."""
    with client.websocket_connect("/api/live") as live:
        live.send_text(json.dumps({"token": token}))
        try:
            return json.loads(live.receive_text())
        except WebSocketDisconnect as closed:
            return closed


def test_live_connections_are_bounded_per_table_and_in_all(tables, monkeypatch):
    """One more live connection than a table takes (or than the server takes) is closed
    with 4429 and a reason; the page then asks now and then (page.js)."""
    monkeypatch.setattr(app_module, "MAX_LIVE_PER_TABLE", 2)
    table = tables.open("classic2003", 3, PEOPLE, seed=5)
    token = table["tokens"][None]
    client = tables.client
    with client.websocket_connect("/api/live") as one, client.websocket_connect("/api/live") as two:
        for live in (one, two):
            live.send_text(json.dumps({"token": token}))
            assert json.loads(live.receive_text())["table"] == table["table"]
        third = live_reply(client, token)
        assert isinstance(third, WebSocketDisconnect) and third.code == 4429 and "live connections" in third.reason
        other = tables.open("classic2003", 3, PEOPLE, seed=6)  # another table is not held up by this one
        assert live_reply(client, other["tokens"][None])["table"] == other["table"]
    assert live_reply(client, token)["table"] == table["table"]  # gone: room again
    monkeypatch.setattr(app_module, "MAX_LIVE", 1)
    with client.websocket_connect("/api/live") as one:  # (counted before its token: one that never sends it too)
        refused = live_reply(client, token)
        assert isinstance(refused, WebSocketDisconnect) and refused.code == 4429
        one.send_text(json.dumps({"token": token}))
        assert json.loads(one.receive_text())["table"] == table["table"]
    assert tables.server.live == 0
    assert "4429" in (resources.files("amunre.serve") / "static" / "page.js").read_text()


def test_a_finished_games_log_and_replay_page_are_built_once(tables, monkeypatch):
    import amunre.picture.viewer as viewer
    import amunre.serve.table as table_module

    table = finished(tables, 7)
    built = {"log": 0, "page": 0}
    real_lines, real_html = table_module.log_lines, viewer.viewer_html

    def counted_lines(*args):
        built["log"] += 1
        return real_lines(*args)

    def counted_html(*args):
        built["page"] += 1
        return real_html(*args)

    monkeypatch.setattr(table_module, "log_lines", counted_lines)
    monkeypatch.setattr(viewer, "viewer_html", counted_html)
    token = table["tokens"][None]
    logs = [tables.client.get("/api/log", headers=auth(token)).text for _ in range(3)]
    pages = []
    for _ in range(3):
        link = tables.client.post("/api/replay", headers=auth(token), json={}).json()["link"]
        pages.append(tables.client.get(link).text)
    assert len(set(logs)) == 1 and len(set(pages)) == 1 and "<html" in pages[0].lower()
    assert built == {"log": 1, "page": 1}


def test_a_page_behind_a_proxy_that_ends_tls_may_post_and_another_site_may_not(tables):
    """Behind a proxy ending TLS the page is https and the request arrives as http: its
    Origin names this server's host and port all the same. Another host, another port, or a
    scheme that is no web page's is refused (403), and nothing is opened."""
    body = {"variant": "classic2003", "players": 3, "seats": PEOPLE}
    post = tables.client.post
    for origin in ("https://testserver", "http://testserver"):
        assert post("/api/tables", json=body, headers={"Origin": origin}).status_code == 201, origin
    kept = len(tables.server.store.tables())
    for origin in ("https://evil.example", "https://testserver:8443", "ftp://testserver", "testserver", "null",
                   "https://testserver.evil.example", "https://user@testserver"):
        reply = post("/api/tables", json=body, headers={"Origin": origin})
        assert reply.status_code == 403, origin
    assert len(tables.server.store.tables()) == kept


def test_a_stored_table_whose_variant_no_longer_loads_says_so_without_the_servers_paths(tmp_path, monkeypatch):
    """A house rule's table whose kept copy no longer loads (edited on the disk, or an
    engine that reads it otherwise) stops, its pages saying why, naming the file as it
    lies in the data folder, never by the server's path."""
    offer_rich_start(tmp_path, monkeypatch)
    data = tmp_path / "data"
    with TestClient(build_app(data)) as client:
        table = Tables(client).open("rich-start", 3, PEOPLE, seed=1)
    # the kept copy made unreadable as a later engine might find it: a key it no longer knows
    store_path = data / "tables.sqlite"
    import sqlite3

    with sqlite3.connect(store_path) as db:
        text = db.execute("SELECT variant_text FROM tables").fetchone()[0]
        db.execute("UPDATE tables SET variant_text = ?", (text.replace("[components]", "[componentz]"),))
    with TestClient(build_app(data)) as client:
        token = table["tokens"][0]
        for _ in range(600):
            reply = client.get("/api/state", headers=auth(token))
            if reply.status_code != 503:
                break
            time.sleep(0.05)
        assert reply.status_code == 409, reply.text
        said = reply.json()["error"]
        assert "no longer loads" in said and f"variants/{table['table']}/variant.toml" in said, said
        assert str(tmp_path) not in said and str(tmp_path.resolve()) not in said


# -- connections: bounded in number, none held without a request -------------------------------------------
class InThread:
    """`amunre serve`'s uvicorn set-up (`cli.serve.run_server`'s protocol) on a free port, in a
    thread of this process, so that a test may shorten its clocks; its log kept."""

    def __init__(self, data, caplog):
        import socket

        import uvicorn

        from amunre.cli.serve import server_config

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(server_config(uvicorn, build_app(data)))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        until(lambda: self.server.started, "the server started")

    def connect(self):
        import socket

        return socket.create_connection(("127.0.0.1", self.port), timeout=30)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


@pytest.fixture
def in_thread(tmp_path, caplog):
    served = InThread(tmp_path, caplog)
    yield served
    served.stop()


def fetched(sock, path: str = "/static/page.css") -> bytes:
    """The status line of a whole GET of `path` on `sock` (its body read to the end)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return response(sock)[0]


def response(sock) -> tuple[bytes, bytes]:
    """(status line, body) of the next whole response on `sock`."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return head.split(b"\r\n")[0], body


def closed_by_server(sock, within: float) -> bool:
    """Whether the server closes `sock` (reads end) within `within` seconds."""
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:  # (what the server sent before, read and passed by)
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            if sock.recv(65536) == b"":
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return False


def test_a_connection_that_never_finishes_its_request_is_closed(in_thread, monkeypatch):
    """Headers that never end, a body that never ends after a GET, or nothing at all: each
    connection is closed after two checks with no request begun; one that sends requests
    is not."""
    import amunre.serve.connections as connections

    monkeypatch.setattr(connections, "CHECK_SECONDS", 1.0)
    silent, headers, body = in_thread.connect(), in_thread.connect(), in_thread.connect()
    headers.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    body.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\nx")
    busy = in_thread.connect()
    until_then = time.monotonic() + 3  # (three checks: requests one after another, each whole, kept open)
    while time.monotonic() < until_then:
        assert fetched(busy) == b"HTTP/1.1 200 OK"
        time.sleep(0.1)
    for sock in (silent, headers, body):
        assert closed_by_server(sock, 10), sock
    assert fetched(busy) == b"HTTP/1.1 200 OK"


def test_a_websocket_upgrade_with_a_body_is_refused_and_one_whose_handshake_stalls_is_closed(in_thread,
                                                                                            monkeypatch):
    """uvicorn hands an upgrade request to its WebSocket protocol, which neither answered nor
    closed one that carried a body: held for good, past every check. Now refused (400); a
    well-formed one opens its live connection."""
    import amunre.serve.connections as connections

    monkeypatch.setattr(connections, "CHECK_SECONDS", 0.5)
    upgrade = (b"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
    with_body = in_thread.connect()
    with_body.sendall(upgrade + b"Content-Length: 1\r\n\r\nx")
    with_body.settimeout(5)
    assert with_body.recv(100).startswith(b"HTTP/1.1 400")
    assert closed_by_server(with_body, 5)
    chunked = in_thread.connect()
    chunked.sendall(upgrade + b"Transfer-Encoding: chunked\r\n\r\n1\r\nx\r\n")
    assert closed_by_server(chunked, 5)
    good = in_thread.connect()
    good.sendall(upgrade + b"\r\n")
    good.settimeout(5)
    assert good.recv(100).startswith(b"HTTP/1.1 101")
    assert not closed_by_server(good, 2)  # (its hello may come within 10 s)
    assert connections._handshake_done(object()) and not connections._handshake_done(
        type("Stalled", (), {"handshake_complete": False})())


def test_connections_past_the_most_the_server_takes_are_closed_at_once(in_thread, monkeypatch):
    from amunre.serve.connections import GuardedH11, most_connections

    assert most_connections() >= 32
    monkeypatch.setattr(GuardedH11, "most", 3)
    held = [in_thread.connect() for _ in range(3)]
    extra = in_thread.connect()
    assert closed_by_server(extra, 5)
    held[0].close()
    time.sleep(0.3)
    assert fetched(in_thread.connect()) == b"HTTP/1.1 200 OK"


def test_a_body_that_does_not_arrive_in_time_is_a_408_and_one_cut_off_is_not_logged(in_thread, monkeypatch,
                                                                                     caplog):
    monkeypatch.setattr(requests_module, "BODY_SECONDS", 0.5)
    slow = in_thread.connect()
    slow.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{")
    slow.settimeout(10)
    status, body = response(slow)
    assert status.startswith(b"HTTP/1.1 408") and b"did not arrive within" in body
    for _ in range(20):  # cut off: nobody left to answer, and nothing written to the log
        cut = in_thread.connect()
        cut.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100\r\n\r\n{\"var")
        cut.close()
    time.sleep(1)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.text
    assert in_thread.server.started and not in_thread.server.should_exit


# -- forgetting, races, restarts ------------------------------------------------------------------------------
def test_a_request_on_a_table_forgotten_meanwhile_is_a_404(tables):
    """The table is looked up from the token, then the body is read: forgotten between the
    two (to make room), the answer, undo or close is told so (404), not a server error."""
    import asyncio

    from amunre.serve.requests import Refused

    table = finished(tables, 8)
    live = tables.server.tables[table["table"]]
    tables.server.forget(table["table"])
    for call in (lambda: tables.server.answer(live, 0, 0, 0), lambda: tables.server.undo(live, 0, 0),
                 lambda: tables.server.close(live)):
        with pytest.raises(Refused) as refused:
            asyncio.run(call())
        assert refused.value.status == 404 and "not here any more" in refused.value.message


def idle_for(table, seconds: float) -> None:
    """Make a table's last answer `seconds` older (no test waits an hour)."""
    table.changed_at -= seconds


def test_a_table_nobody_answers_at_is_forgotten_once_idle_to_make_room(tmp_path):
    """Tables nobody plays cannot fill the store for good: with no game over left to forget,
    the one idle longest goes, once idle for IDLE_SECONDS; while every kept table is being
    played, a 429."""
    idle = server_module.IDLE_SECONDS
    with TestClient(build_app(tmp_path, max_stored=2)) as client:
        tables = Tables(client)
        first = tables.open("classic2003", 3, PEOPLE, seed=1)
        second = tables.open("classic2003", 3, PEOPLE, seed=2)
        reply = client.post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": PEOPLE})
        assert reply.status_code == 429 and "every one of them is being played" in reply.json()["error"]
        live = tables.server.tables
        idle_for(live[first["table"]], idle - 60)  # nearly idle: still played
        reply = client.post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": PEOPLE})
        assert reply.status_code == 429
        idle_for(live[first["table"]], 120)  # idle for a minute past the limit
        idle_for(live[second["table"]], idle + 30)  # idle too, but not as long
        third = tables.open("classic2003", 3, PEOPLE, seed=3)
        assert set(tables.server.tables) == {second["table"], third["table"]}
        assert client.get("/api/state", headers=auth(first["tokens"][0])).status_code == 403


def test_a_table_left_idle_before_a_restart_does_not_count_after_it(tmp_path):
    """The time of a table's last answer is kept with it: after a restart a table nobody has
    answered at for IDLE_SECONDS does not count against --max-tables again; one answered at
    since does."""
    import sqlite3

    body = {"variant": "classic2003", "players": 3, "seats": PEOPLE}
    with TestClient(build_app(tmp_path, max_tables=1)) as client:
        tables = Tables(client)
        table = tables.open("classic2003", 3, PEOPLE, seed=1)
        asked = tables.server.tables[table["table"]].pending.player
        reply = client.post("/api/answer", headers=auth(table["tokens"][asked]), json={"number": 0, "option": 0})
        assert reply.status_code == 200
        assert client.post("/api/tables", json=body).status_code == 429  # being played
    with TestClient(build_app(tmp_path, max_tables=1)) as client:  # restarted at once: still played
        wait_ready(client, table["tokens"][None])
        assert client.post("/api/tables", json=body).status_code == 429
    with sqlite3.connect(tmp_path / "tables.sqlite") as db:  # its last answer two hours ago
        db.execute("UPDATE activity SET at = at - ?", (server_module.IDLE_SECONDS + 3600,))
    with TestClient(build_app(tmp_path, max_tables=1)) as client:
        wait_ready(client, table["tokens"][None])
        assert client.post("/api/tables", json=body).status_code == 201


def test_a_replay_page_is_built_once_for_good_and_replay_addresses_are_bounded(tmp_path, monkeypatch):
    """The replay page of a finished game is built once, kept compressed in the data folder
    (asked again after others pushed it out of memory, or after a restart, it is read, not
    built); one-time addresses not yet opened are kept at most REPLAY_LINKS_KEPT, the oldest
    dropped."""
    import amunre.picture.viewer as viewer

    built = []
    real = viewer.viewer_html
    monkeypatch.setattr(viewer, "viewer_html", lambda *a: built.append(1) or real(*a))
    monkeypatch.setattr(server_module, "REPLAYS_KEPT", 1)
    monkeypatch.setattr(app_module, "REPLAY_LINKS_KEPT", 3)

    def page(client, token):
        link = client.post("/api/replay", headers=auth(token), json={}).json()["link"]
        return client.get(link)

    with TestClient(build_app(tmp_path)) as client:
        tables = Tables(client)
        games = [finished(tables, seed) for seed in (1, 2)]
        tokens = [game["tokens"][None] for game in games]
        pages = [page(client, token).text for token in tokens + tokens + tokens]
        assert len(built) == 2 and pages[0] == pages[2] == pages[4] and pages[1] == pages[3]
        assert sorted(p.name for p in (tmp_path / "replays").iterdir()) == sorted(
            f"{game['table']}.html.gz" for game in games)
        links = [client.post("/api/replay", headers=auth(tokens[0]), json={}).json()["link"] for _ in range(5)]
        assert len(tables.server.replays) == 3
        assert [client.get(link).status_code for link in links] == [404, 404, 200, 200, 200]
    with TestClient(build_app(tmp_path)) as client:
        wait_ready(client, tokens[0])
        assert page(client, tokens[0]).text == pages[0] and len(built) == 2
