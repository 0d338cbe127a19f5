"""`amunre serve` over HTTP: what each seat is shown, what a bad request gets, undo.

The hidden-information property runs over HTTP: at decisions of seeded games of every
variant file, for every seat, two tables of the server are made to stand at two games that
seat cannot tell apart (the true one, and one where what it may not know is drawn again,
by the conformance suite's [views] re-draw), and the seat's page data fetched through its
token must be the same, field by field; the spectator's too. At a secret batch the other
seats of the batch have answered too, in secret (the server holds their answers until all are
in), one option at the first table and another at the second: that changes nothing either.
"""

from __future__ import annotations

import json
from pathlib import Path

import conftest
import pytest
from conftest import variant_files

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
from helpers import published
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from amunre.core.flow_words import end_of, tie_line
from amunre.core.results import game_result
from amunre.core.words import Words
from amunre.loader import load_variant
from amunre.serve.app import build_app
from amunre.serve.requests import MAX_BODY
from amunre.serve.table import Table
from amunre.testing import ConformanceError, play_checked

VARIANTS = variant_files()
DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)


class Tables:
    """A server (in this process) with tables opened through its API, and their links' tokens."""

    def __init__(self, client: TestClient):
        self.client = client
        self.server = client.app.state.server

    def open(self, variant: str = "classic2003", players: int = 4, seats=None, seed: int = 1) -> dict:
        seats = seats or ["human"] * players
        body = {"variant": variant, "players": players, "seats": seats, "seed": seed}
        drawn = self.server.draw_seed
        if "human" in seats:  # (refused where another person plays: the server is made to draw it)
            del body["seed"]
            self.server.draw_seed = lambda: seed
        try:
            reply = self.client.post("/api/tables", json=body)
        finally:
            self.server.draw_seed = drawn
        assert reply.status_code == 201, reply.text
        data = reply.json()
        # each invitation taken (as each person opens theirs): the seats' own tokens
        data["tokens"] = {s["seat"]: self.claim(s["invitation"]) for s in data["seats"] if s["invitation"]}
        data["tokens"][None] = data["spectator"].split("#", 1)[1]
        return data

    def claim(self, invitation: str) -> str:
        """The seat's own token that opening an invitation's link gives."""
        reply = self.client.post("/api/claim", headers=auth(invitation.split("#", 1)[1]), json={})
        assert reply.status_code == 200, reply.text
        return reply.json()["link"].split("#", 1)[1]

    def state(self, token: str) -> dict:
        reply = self.client.get("/api/state", headers=auth(token))
        assert reply.status_code == 200, reply.text
        return reply.json()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def raw(token: str, kind: str = "application/json", **more) -> dict:
    """Headers of a body sent as it is (not through the client's `json=`)."""
    return {"Authorization": f"Bearer {token}", "Content-Type": kind, **more}


@pytest.fixture
def tables(tmp_path):
    with TestClient(build_app(tmp_path)) as client:
        yield Tables(client)


# -- hidden information ----------------------------------------------------------------------------------
def shown_pages(tables: Tables, first: dict, second: dict, seats: list[str]):
    """The `pages` check of the conformance suite: both games put at two tables, each seat's
    (and the spectator's) page data fetched over HTTP and compared."""
    def pages(same, same_events, alt, alt_events, seat):
        server = tables.server
        server.tables[first["table"]] = Table.around(first["table"], same, same_events, seats)
        server.tables[second["table"]] = Table.around(second["table"], alt, alt_events, seats)
        held = [server.tables[first["table"]], server.tables[second["table"]]]
        if any(ask.seat == seat for ask in held[0].asks()):  # a secret batch: the others answer it unlike
            for table, pick in zip(held, (0, -1)):
                for ask in [ask for ask in table.asks() if ask.seat != seat]:
                    table.give(ask.seat, ask.request.options[pick], True)
        server.cache.clear()
        for who in (seat, None):
            mine = tables.state(first["tokens"][who])
            theirs = tables.state(second["tokens"][who])
            assert mine.pop("table") == first["table"] and theirs.pop("table") == second["table"]
            if mine != theirs:
                differ = sorted(key for key in mine if mine[key] != theirs.get(key))
                return f"{'the spectator' if who is None else 'its'} page data differs in: {', '.join(differ)}"
        return None
    return pages


def check_pages(tables: Tables, path, players: int, seed: int, agent: str, every: int):
    variant = load_variant(path)
    seats = ["human"] * players
    first = tables.open(variant.id, players, seats, 1)
    second = tables.open(variant.id, players, seats, 2)
    return play_checked(variant, players, seed, agent, illegal_every=0, roundtrip_every=0, counterfactual=False,
                        views_every=every, every_seat=True, pages=shown_pages(tables, first, second, seats))


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@settings(max_examples=20 if DEEP else 1, deadline=None)
@given(seed=st.integers(0, 2**32), agent=st.sampled_from(["random", "greedy"]), data=st.data())
def test_a_seats_page_data_does_not_depend_on_what_it_may_not_know(tmp_path_factory, path, seed, agent, data):
    variant = load_variant(path)
    players = data.draw(st.sampled_from(variant.players))
    with TestClient(build_app(tmp_path_factory.mktemp("serve"))) as client:
        # every decision in the deep profile (each check: every seat, re-drawn, over HTTP); every
        # 40th in the quick one
        checker = check_pages(Tables(client), path, players, seed, agent, every=1 if DEEP else 40)
    assert checker.view_checks > 0  # pages really were compared in this game


def test_catches_a_page_that_shows_another_seats_hand(tables, monkeypatch):
    from amunre.serve import seatpage

    real = seatpage.seat_payload

    def leaky(table, seat, picture):
        page = real(table, seat, picture)
        page["others"] = [list(p.hand) for i, p in enumerate(table.game.state.players) if i != seat]
        return page

    monkeypatch.setattr(seatpage, "seat_payload", leaky)
    monkeypatch.setattr("amunre.serve.server.seat_payload", leaky)
    with pytest.raises(ConformanceError) as info:
        for seed in range(3):
            check_pages(tables, "classic2003", 4, seed, "random", every=3)
    assert info.value.invariant == "views" and "differs in: others" in str(info.value)


def test_catches_a_page_that_says_the_seed(tables, monkeypatch):
    from amunre.serve import seatpage

    real = seatpage.seat_payload

    def leaky(table, seat, picture):
        return dict(real(table, seat, picture), seed=table.game.state.seed)

    monkeypatch.setattr("amunre.serve.server.seat_payload", leaky)
    with pytest.raises(ConformanceError) as info:
        check_pages(tables, "classic2003", 4, 0, "random", every=3)
    assert "differs in: seed" in str(info.value)


def test_the_play_by_play_of_a_seat_never_says_the_seed(tables):
    table = tables.open("classic2003", 4, seed=424242)
    page = tables.state(table["tokens"][0])
    assert page["lines"] and not any("424242" in line for line in page["lines"])
    assert "424242" not in json.dumps(page)


def test_a_token_opens_its_own_seat_of_its_own_table_only(tables):
    one, two = tables.open(seed=3), tables.open(seed=4)
    for table in (one, two):
        for seat, token in table["tokens"].items():
            page = tables.state(token)
            assert page["table"] == table["table"] and page["seat"] == seat
            assert (page["hand"] is None) == (seat is None)
    assert set(one["tokens"].values()).isdisjoint(two["tokens"].values())


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others(tables):
    table = tables.open("supermeeple2016", 4, seed=9)
    game = tables.server.tables[table["table"]].game
    for seat in range(4):
        page = tables.state(table["tokens"][seat])
        assert sum(card["count"] for card in page["hand"]) == sum(game.state.players[seat].hand) + \
            published(game.state, "theft_cards")[seat]
        assert [p["cards"] for p in page["players"]] == [sum(p.hand) for p in game.state.players]


def test_the_live_connection_sends_what_the_state_request_returns(tables):
    table = tables.open(seed=5)
    asked = tables.server.tables[table["table"]].game.pending.player
    token = table["tokens"][asked]
    with tables.client.websocket_connect("/api/live") as live:
        live.send_text(json.dumps({"token": token}))
        first = json.loads(live.receive_text())
        assert first == tables.state(token)
        reply = tables.client.post("/api/answer", headers=auth(token), json={"number": first["number"], "option": 0})
        assert reply.status_code == 200, reply.text
        after = json.loads(live.receive_text())
        assert after["number"] == first["number"] + 1 and after == tables.state(token)


def test_a_live_connection_without_a_good_token_is_closed_saying_why(tables):
    from starlette.websockets import WebSocketDisconnect

    for hello in ('{"token": "nope"}', "not json", '["token"]'):
        with tables.client.websocket_connect("/api/live") as live:
            live.send_text(hello)
            with pytest.raises(WebSocketDisconnect) as info:
                live.receive_text()
            assert info.value.code >= 4000


# -- bad requests: a 4xx naming the problem, and nothing changed ------------------------------------------
def answers_kept(tables, table) -> int:
    return len(tables.server.store.answers(table["table"]))


def test_bad_answers_are_refused_and_change_nothing(tables):
    table = tables.open(seed=6)
    game = tables.server.tables[table["table"]].game
    asked = game.pending.player
    other = next(seat for seat in table["tokens"] if seat is not None and seat != asked)
    page = tables.state(table["tokens"][asked])
    number, count = page["number"], len(page["decision"]["options"])
    post = tables.client.post
    cases = [
        (post("/api/answer", json={"number": number, "option": 0}), 401, "no token"),
        (post("/api/answer", headers=auth("x" * 30), json={"number": number, "option": 0}), 403, "opens no seat"),
        (post("/api/answer", headers=auth(table["tokens"][other]), json={"number": number, "option": 0}), 409,
         "turn"),
        (post("/api/answer", headers=auth(table["tokens"][None]), json={"number": number, "option": 0}), 403,
         "spectator"),
        (post("/api/answer", headers=auth(table["tokens"][asked]), json={"number": number + 1, "option": 0}), 409,
         "not pending"),
        (post("/api/answer", headers=auth(table["tokens"][asked]), json={"number": number, "option": count}), 422,
         "no option"),
        (post("/api/answer", headers=auth(table["tokens"][asked]), json={"number": number, "option": -1}), 422,
         "no option"),
        (post("/api/answer", headers=auth(table["tokens"][asked]), json={"number": number, "option": "0"}), 400,
         "option"),
        (post("/api/answer", headers=auth(table["tokens"][asked]), json={"number": number, "option": True}), 400,
         "option"),
        (post("/api/answer", headers=auth(table["tokens"][asked]), json=[number, 0]), 400, "JSON object"),
        (post("/api/answer", headers=auth(table["tokens"][asked]), json={"number": number, "option": 0, "x": 1}),
         400, "unknown field"),
        (post("/api/answer", headers=raw(table["tokens"][asked]), content=b"{not json"), 400, "not JSON"),
        (post("/api/answer", headers=raw(table["tokens"][asked]), content=b"\xff\xfe"), 400, "not JSON"),
        (post("/api/answer", headers=raw(table["tokens"][asked]), content=b"[" * 100_000), 413, "larger"),
        (post("/api/answer", headers=raw(table["tokens"][asked]),
              content=b'{"number": ' + b"1" * (MAX_BODY + 1) + b"}"), 413, "larger"),
        (post("/api/undo", headers=auth(table["tokens"][asked]), json={"number": number}), 409, "not answered"),
        (post("/api/undo", headers=auth(table["tokens"][asked]), json={"number": "1"}), 400, "number"),
        (post("/api/undo", headers=auth(table["tokens"][asked]), json={"number": number, "z": 1}), 400, "unknown"),
        (post("/api/answer", headers=raw(table["tokens"][asked], "text/plain"),
              content=json.dumps({"number": number, "option": 0})), 415, "application/json"),
        (post("/api/answer", headers=raw(table["tokens"][asked], origin="http://evil.example"),
              content=json.dumps({"number": number, "option": 0})), 403, "another site"),
        (post("/api/tables", headers={"Content-Type": "text/plain"},
              content=json.dumps({"variant": "classic2003", "players": 4, "seats": ["random"] * 4})), 415,
         "application/json"),
        (tables.client.get("/api/log", headers=auth(table["tokens"][asked])), 409, "over"),
        (post("/api/replay", headers=auth(table["tokens"][None])), 409, "over"),
        (tables.client.get("/replay/nosuchkey"), 404, "no replay"),
        (tables.client.get("/api/nothing"), 404, "Not Found"),
        (tables.client.delete("/api/answer"), 405, ""),
        (tables.client.get("/static/../app.py"), 404, ""),
    ]
    for reply, status, said in cases:
        assert reply.status_code == status, (status, reply.text)
        assert said in reply.json()["error"]
    assert tables.state(table["tokens"][asked]) == page  # nothing changed
    assert answers_kept(tables, table) == 0


def test_a_key_given_twice_is_refused_as_replay_refuses_it(tables):
    """JSON lets the last of a key given twice win, silently: the server refuses it, as
    `amunre replay` does (and NaN, which is not JSON), naming the key."""
    from starlette.websockets import WebSocketDisconnect

    table = tables.open(seed=6)
    asked = tables.server.tables[table["table"]].game.pending.player
    token = table["tokens"][asked]
    page = tables.state(token)
    number = page["number"]
    twice = f'{{"number": {number}, "option": 99, "option": 0}}'.encode()
    reply = tables.client.post("/api/answer", headers=raw(token), content=twice)
    assert reply.status_code == 400 and reply.json()["error"] == \
        'the key "option" is given twice (expected each key once)'
    opening = b'{"variant": "classic2003", "players": 2, "players": 3, "seats": ["human", "random", "random"]}'
    reply = tables.client.post("/api/tables", headers={"Content-Type": "application/json"}, content=opening)
    assert reply.status_code == 400 and '"players" is given twice' in reply.json()["error"]
    opening = b'{"variant": "classic2003", "players": 3, "seats": ["human", "random", "random"], "seed": NaN}'
    reply = tables.client.post("/api/tables", headers={"Content-Type": "application/json"}, content=opening)
    assert reply.status_code == 400 and "NaN is not a JSON number" in reply.json()["error"]
    with tables.client.websocket_connect("/api/live") as live:
        live.send_text(f'{{"token": "nope", "token": {json.dumps(token)}}}')
        with pytest.raises(WebSocketDisconnect) as info:
            live.receive_text()
        assert info.value.code == 4400 and '"token" is given twice' in info.value.reason
    assert tables.state(token) == page and answers_kept(tables, table) == 0  # nothing changed
    assert len(tables.server.store.tables()) == 1


def test_bad_tables_are_refused_and_none_is_kept(tables):
    post = tables.client.post
    cases = [
        ({"variant": "nosuch", "players": 4, "seats": ["human"] * 4}, 404, "no variant"),
        ({"variant": "classic2003", "players": 9, "seats": ["human"] * 9}, 422, "players"),
        ({"variant": "classic2003", "players": "4", "seats": ["human"] * 4}, 422, "players"),
        ({"variant": "classic2003", "players": 4, "seats": ["human"] * 3}, 422, "seats"),
        ({"variant": "classic2003", "players": 4, "seats": ["human", "wizard", "human", "human"]}, 422, "wizard"),
        ({"variant": "classic2003", "players": 4, "seats": ["human", "mcts:x=1", "human", "human"]}, 422, "seats"),
        ({"variant": "classic2003", "players": 4, "seats": ["human"] + ["random"] * 3, "seed": -1}, 422, "seed"),
        ({"variant": "classic2003", "players": 4, "seats": ["human"] + ["random"] * 3, "seed": 1.5}, 422, "seed"),
        ({"variant": "classic2003", "players": 4, "seats": ["human"] * 4, "colour": "red"}, 400, "unknown field"),
        ({"players": 4, "seats": ["human"] * 4}, 400, "variant"),
    ]
    for body, status, said in cases:
        reply = post("/api/tables", json=body)
        assert reply.status_code == status, (body, reply.text)
        assert said in reply.json()["error"], reply.json()
    assert tables.server.store.tables() == []


def test_a_bot_that_may_work_more_per_decision_than_the_server_allows_is_refused(tmp_path):
    """What a table may cost is bounded: a bot's work per decision, in games played out
    (`playouts_per_decision`, which each agent declares), at most --max-bot-playouts. The
    default refuses the million iterations that slowed every other table."""
    body = {"variant": "classic2003", "players": 3}
    with TestClient(build_app(tmp_path / "default")) as client:
        reply = client.post("/api/tables", json=dict(body, seats=["human", "mcts:iterations=1000000", "random"]))
        assert reply.status_code == 422
        assert reply.json()["error"] == (
            "seats: the bot 'mcts:iterations=1000000' of seat 2 may play out 1000000 games per decision (counted as "
            "greedy playouts), more than this server allows (--max-bot-playouts 1000): ask for less")
        assert client.app.state.server.store.tables() == []
    with TestClient(build_app(tmp_path / "small", max_bot_playouts=500)) as client:
        for seats, status in ((["human", "mcts:iterations=501", "random"], 422),
                              (["human", "random", "mcts:iterations=63:rollout=planner"], 422),  # 63 x 8
                              (["human", "mcts:iterations=62:rollout=planner", "planner"], 201),
                              (["human", "mcts:iterations=500", "greedy"], 201)):
            reply = client.post("/api/tables", json=dict(body, seats=seats))
            assert reply.status_code == status, (seats, reply.text)
            if status == 422:
                assert "--max-bot-playouts 500" in reply.json()["error"]
        assert len(client.app.state.server.store.tables()) == 2


def test_a_table_opened_under_a_higher_limit_waits_for_one(tmp_path):
    """A server started again with a lower --max-bot-playouts sets up a table whose bot asks
    more, and stops it, saying why; started with a limit high enough, it goes on."""
    seats = ["human", "human", "mcts:iterations=300"]
    with TestClient(build_app(tmp_path, max_bot_playouts=300)) as client:
        table = Tables(client).open("classic2003", 3, seats)
    with TestClient(build_app(tmp_path, max_bot_playouts=100)) as client:
        page = wait_ready(client, table["tokens"][0])
        assert page["failure"].startswith("the bot 'mcts:iterations=300' of seat 3 may play out 300 games") and \
            page["failure"].endswith("it goes on when the server is started with a higher --max-bot-playouts")
        assert page["turn"] is None and page["undo"].startswith("the table stopped")
    with TestClient(build_app(tmp_path, max_bot_playouts=300)) as client:
        page = wait_ready(client, table["tokens"][0])
        assert page["failure"] is None and page["turn"] is not None


def wait_ready(client, token: str) -> dict:
    """A seat's page data once the server, just started, has set its table up again."""
    import time

    for _ in range(600):
        reply = client.get("/api/state", headers=auth(token))
        if reply.status_code != 503:
            assert reply.status_code == 200, reply.text
            return reply.json()
        time.sleep(0.05)
    raise AssertionError("the table was not set up again in 30 s")


def test_a_request_naming_the_server_by_a_name_it_was_not_given_is_refused(tmp_path):
    """DNS rebinding: a page of another site has its own name point at this server, and its
    requests pass the Origin check (same origin: its own). Only the Host header tells them
    apart: a name the server was not given gets a 400 saying what to do, and nothing is
    done; a WebSocket is closed unopened."""
    from starlette.websockets import WebSocketDisconnect

    from amunre.serve.hosts import allowed_hosts

    hosts = allowed_hosts("127.0.0.1", 8000, ["games.example.org", "192.168.1.5:9000", "[FD00:0::5]"])
    body = {"variant": "classic2003", "players": 3, "seats": ["human", "random", "random"]}
    with TestClient(build_app(tmp_path, hosts=hosts), base_url="http://127.0.0.1:8000") as client:
        def opened(host: str):
            return client.post("/api/tables", json=body, headers={"Host": host, "Origin": f"http://{host}"})

        refused = ["evil.example:8000", "evil.example", "localhost:8001", "127.0.0.1:9000", "192.168.1.5:8000",
                   "192.168.1.5", "games.example.org:9999", "127.0.0.1.evil.example:8000", "localhost.:8000",
                   "127.0.0.1:8000:1", "[::1", "127.0.0.1:0", "127.0.0.1:", "user@127.0.0.1:8000", "[fd00::6]"]
        for host in refused:
            reply = opened(host)
            assert reply.status_code == 400, (host, reply.text)
            assert "this server does not answer to the name" in reply.json()["error"], host
        said = opened("evil.example:8000").json()["error"]
        assert "(DNS rebinding)" in said and "start amunre serve with --allowed-host evil.example " in said
        assert "--allowed-host evil.example:8001" in opened("evil.example:8001").json()["error"]
        assert client.app.state.server.store.tables() == []  # nothing done
        page = client.get("/", headers={"Host": "evil.example:8000"})
        assert page.status_code == 400 and page.headers["content-type"].startswith("text/plain")
        assert "--allowed-host evil.example" in page.text
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect("/api/live", headers={"Host": "evil.example:8000"}) as live:
                live.receive_text()
        allowed = ["127.0.0.1:8000", "localhost:8000", "LocalHost:8000", "[::1]:8000", "localhost",
                   "games.example.org", "games.example.org:8000", "192.168.1.5:9000", "[fd00::5]:8000"]
        for host in allowed:
            reply = opened(host)
            assert reply.status_code == 201, (host, reply.text)
            assert reply.json()["spectator"].startswith(f"http://{host}/watch#")
        token = Tables(client).claim(reply.json()["seats"][0]["invitation"])
        with client.websocket_connect("/api/live", headers={"Host": "[fd00::5]:8000"}) as live:
            live.send_text(json.dumps({"token": token}))
            assert json.loads(live.receive_text())["seat"] == 0


def test_the_names_a_server_answers_to():
    from amunre.serve.hosts import HostError, allowed_hosts

    def names(host, *given):
        return sorted(allowed_hosts(host, 8000, given).pairs, key=str)

    loopback = [("127.0.0.1", 8000), ("127.0.0.1", None), ("[::1]", 8000), ("[::1]", None), ("localhost", 8000),
                ("localhost", None)]
    assert names("127.0.0.1") == names("::1") == names("localhost") == names("0.0.0.0") == names("::") == \
        sorted(loopback, key=str)
    assert names("192.168.1.5") == [("192.168.1.5", 8000), ("192.168.1.5", None)]  # (loopback does not reach it)
    assert names("0.0.0.0", "192.168.1.5", "Games.Example.org:443") == sorted(
        loopback + [("192.168.1.5", 8000), ("192.168.1.5", None), ("games.example.org", 443)], key=str)
    for bad in ("", "a b", "host:port", "host:70000", "host:0", "http://host", "[::1", "host/x"):
        with pytest.raises(HostError, match="--allowed-host .*expected NAME or NAME:PORT"):
            allowed_hosts("127.0.0.1", 8000, [bad])


def test_pages_allow_no_request_to_another_origin(tables):
    for path in ("/", "/seat", "/watch", "/join", "/close"):
        reply = tables.client.get(path)
        assert reply.status_code == 200
        policy = reply.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "connect-src 'self'" in policy and "script-src 'self'" in policy
        assert "http" not in policy  # no other origin named


# -- undo --------------------------------------------------------------------------------------------------
def answer(tables, table, seat, option=0):
    page = tables.state(table["tokens"][seat])
    reply = tables.client.post("/api/answer", headers=auth(table["tokens"][seat]),
                               json={"number": page["number"], "option": option})
    assert reply.status_code == 200, reply.text
    return page


def test_a_person_takes_back_an_answer_that_showed_nothing_hidden(tables):
    table = tables.open(seed=7)
    live = tables.server.tables[table["table"]]
    asked = live.game.pending.player
    before = answer(tables, table, asked)
    assert live.reveals == [False]  # a bid shows nobody anything
    page = tables.state(table["tokens"][asked])
    assert page["undo"] is None and page["number"] == before["number"] + 1
    reply = tables.client.post("/api/undo", headers=auth(table["tokens"][asked]), json={"number": page["number"]})
    assert reply.status_code == 200, reply.text
    again = tables.state(table["tokens"][asked])
    assert again["number"] == before["number"] and again["decision"] == before["decision"]
    assert answers_kept(tables, table) == 0
    # the others are told, in their play-by-play, that an answer was taken back, and nothing
    # of what it was: their lines are those of before it, and that one
    said = f"{live.names[asked]} took back an answer."
    for seat, token in table["tokens"].items():
        if seat != asked:
            assert tables.state(token)["lines"] == [*before["lines"], said], seat
    answer(tables, table, asked)  # (answered again: the line stays where it was said)
    assert tables.state(table["tokens"][asked])["lines"][len(before["lines"])] == said


def test_no_undo_once_another_seat_has_answered(tables):
    table = tables.open(seed=8)
    live = tables.server.tables[table["table"]]
    first = live.game.pending.player
    answer(tables, table, first)
    second = live.game.pending.player
    assert second != first
    answer(tables, table, second)
    page = tables.state(table["tokens"][first])
    assert "another seat has answered" in page["undo"]
    reply = tables.client.post("/api/undo", headers=auth(table["tokens"][first]), json={"number": page["number"]})
    assert reply.status_code == 409 and "another seat" in reply.json()["error"]


def test_no_undo_of_an_answer_that_showed_something_hidden(tables):
    """Answers are given until one shows its seat a hidden fact (a card drawn, a province
    turned up, a secret revealed): that one cannot be taken back."""
    table = tables.open("classic2003", 3, seed=12)
    live = tables.server.tables[table["table"]]
    for _ in range(200):
        seat = live.game.pending.player
        answer(tables, table, seat, option=len(live.game.pending.options) - 1)
        if live.reveals[-1]:
            break
    else:
        pytest.fail("no answer showed anything hidden in 200 answers")
    page = tables.state(table["tokens"][seat])
    assert "showed something hidden" in page["undo"]
    reply = tables.client.post("/api/undo", headers=auth(table["tokens"][seat]), json={"number": page["number"]})
    assert reply.status_code == 409


def test_bots_answer_on_their_own_and_the_table_reaches_the_end(tables):
    table = tables.open("supermeeple2016", 4, seats=["human", "random", "greedy", "planner"], seed=13)
    live = tables.server.tables[table["table"]]
    import time

    for _ in range(2000):
        if live.game.pending is None:
            break
        if live.request_of(0) is not None:  # (in a secret batch: asked with the bots, not after them)
            answer(tables, table, 0, option=0)
        else:
            time.sleep(0.005)
    page = tables.state(table["tokens"][0])
    assert page["finished"] and page["winners"]
    # every player's place and points, best first, as the game's result has them (its
    # tie-break too: pyramids, then stones in own provinces), and the tie-break in words
    result = game_result(live.game, live.names, live.seats)
    assert page["standings"]["rows"] == sorted(
        ({"place": p["rank"], "name": p["name"], "points": p["score"], "pyramids": p["pyramids"],
          "stones": p["stones"]} for p in result["players"]), key=lambda row: row["place"])
    assert [row["name"] for row in page["standings"]["rows"] if row["place"] == 1] == sorted(
        page["winners"], key=lambda name: live.names.index(name))
    assert page["standings"]["tie"] == tie_line(end_of(live.game), Words(live.variant, live.names))
    log = tables.client.get("/api/log", headers=auth(table["tokens"][0]))
    assert log.status_code == 200
    assert not any(token in log.text for token in table["tokens"].values())
    link = tables.client.post("/api/replay", headers=auth(table["tokens"][None]))
    assert link.status_code == 200
    replay = tables.client.get(link.json()["link"])
    assert replay.status_code == 200 and "<svg" in replay.text
    assert tables.client.get(link.json()["link"]).status_code == 404  # opened once


def test_no_undo_while_a_bot_is_answering():
    from amunre.serve.store import TableRecord

    table = Table(TableRecord("t", "classic2003", None, None, 4, 3, ["human", "random", "random", "random"], 0),
                  load_variant("classic2003"))
    table.rebuild([])
    while table.pending.player != 0:  # (the bots answer up to the person's decision)
        seat = table.pending.player
        table.apply(seat, table.agents[seat].choose(table.game.view(seat), table.pending), False)
    table.apply(0, table.pending.options[0], False)
    if table.pending.player != 0:
        assert "(a bot) is answering" in table.undo_problem(0)


# -- closing a table -------------------------------------------------------------------------------------
def until(check, what: str):
    """Wait (up to 30 s) for `check()` to hold: a bot's thread, a table set up again."""
    import time

    for _ in range(600):
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within 30 s")


def test_the_creator_closes_the_table_he_opened_and_nobody_else_does(tmp_path, monkeypatch):
    """Opening a table gives its creator a link of his own that closes it: the bot thinking
    then is not asked again and its answer is dropped, the pages say the table is closed,
    nobody may answer or take back, it no longer counts against --max-tables, and all this
    after a restart too. A seat's link, the spectator's and another table's creator's close
    nothing; the closing link opens no seat; the store keeps only its digest."""
    import threading

    from amunre.agents.random_agent import RandomAgent
    from amunre.serve.store import digest

    asked, release = [], threading.Event()
    real = RandomAgent.choose

    def slow(self, view, request):  # (the bots think until the test lets them)
        asked.append(request)
        release.wait(30)
        return real(self, view, request)

    monkeypatch.setattr(RandomAgent, "choose", slow)
    people = ["human", "human", "human"]
    with TestClient(build_app(tmp_path, max_tables=1)) as client:
        tables = Tables(client)
        table = tables.open("classic2003", 3, ["human", "random", "random"], seed=3)
        assert table["close"].startswith("http://testserver/close#")
        closer = table["close"].split("#")[1]
        live = tables.server.tables[table["table"]]
        if live.pending.player == 0:
            answer(tables, table, 0)
        until(lambda: asked, "a bot is asked")
        kept = answers_kept(tables, table)
        other = Tables(client)
        post, get = client.post, client.get
        for token in (table["tokens"][0], table["tokens"][None], "x" * 30):
            for reply in (post("/api/close", headers=auth(token), json={}), get("/api/close", headers=auth(token))):
                assert reply.status_code == 403 and "closes no table" in reply.json()["error"]
        assert post("/api/close", json={}).status_code == 401
        assert get("/api/state", headers=auth(closer)).status_code == 403  # it opens no seat
        assert post("/api/close", headers=raw(closer, "text/plain"), content=b"{}").status_code == 415
        assert post("/api/close", headers=raw(closer, origin="http://evil.example"), content=b"{}").status_code == 403
        assert post("/api/close", headers=auth(closer), json={"why": 1}).status_code == 400
        assert post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": people}).status_code == 429
        assert tables.state(table["tokens"][0])["closed"] is False and live.pending is not None  # nothing changed
        said = get("/api/close", headers=auth(closer)).json()
        assert said == {"table": table["table"], "variant": "classic2003", "players": 3,
                        "seats": ["human", "random", "random"], "state": "played"}

        reply = post("/api/close", headers=auth(closer), json={})
        assert reply.status_code == 200 and reply.json()["state"] == "closed" and reply.json()["closed_now"] is True
        release.set()
        until(lambda: table["table"] not in tables.server.running, "the thinking bot is done")
        assert len(asked) == 1 and answers_kept(tables, table) == kept  # its answer dropped, nobody asked again
        for token in (table["tokens"][0], table["tokens"][None]):
            page = tables.state(token)
            assert page["closed"] is True and page["failure"] == "whoever opened it closed it"
            assert page["turn"] is None and page["decision"] is None
        reply = post("/api/answer", headers=auth(table["tokens"][0]), json={"number": kept, "option": 0})
        assert reply.status_code == 409 and "closed it" in reply.json()["error"]
        reply = post("/api/undo", headers=auth(table["tokens"][0]), json={"number": kept})
        assert reply.status_code == 409 and "closed it" in reply.json()["error"]
        assert post("/api/close", headers=auth(closer), json={}).json()["closed_now"] is False  # again: as it was
        second = other.open("classic2003", 3, people)  # (it no longer counts against --max-tables)
        reply = post("/api/close", headers=auth(second["close"].split("#")[1]), json={})
        assert reply.status_code == 200 and tables.state(second["tokens"][0])["closed"]
        third = other.open("classic2003", 3, people)
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("tables.sqlite*"))
    assert closer.encode() not in stored and digest(closer).encode() in stored
    with TestClient(build_app(tmp_path, max_tables=2)) as client:  # started again: still closed
        page = wait_ready(client, table["tokens"][0])
        assert page["closed"] is True and page["turn"] is None
        assert client.get("/api/close", headers=auth(closer)).json()["state"] == "closed"
        reply = client.post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": people})
        assert reply.status_code == 201  # the third and this one: the closed ones do not count
        assert wait_ready(client, third["tokens"][0])["closed"] is False
        assert len(asked) == 1  # (its bots were not brought back)


def test_a_finished_game_is_not_closed(tables, monkeypatch):
    table = tables.open("classic2003", 3, ["random", "random", "random"], seed=2)
    until(lambda: tables.server.tables[table["table"]].finished, "the bots finish the game")
    reply = tables.client.post("/api/close", headers=auth(table["close"].split("#")[1]), json={})
    assert reply.status_code == 409 and "the game is over already" in reply.json()["error"]
    assert tables.state(table["tokens"][None])["closed"] is False and not tables.server.store.tables()[0].closed


# -- a house rule's table ----------------------------------------------------------------------------------
def test_a_house_rule_table_keeps_its_rules_and_its_log_replays(tmp_path, monkeypatch):
    import subprocess
    import sys

    folder = tmp_path / "rules"
    folder.mkdir()
    rule = folder / "rich.toml"
    rule.write_text('extends = "classic2003"\n\n[edition]\nid = "rich-start"\nname = "Rich start"\n\n'
                    '[components]\nstarting_gold = 30\n', encoding="utf-8")
    (folder / "broken.toml").write_text("this is not [[ toml", encoding="utf-8")
    (folder / "typo.toml").write_text('[editon]\nid = "typo"\n', encoding="utf-8")  # TOML, but no variant
    monkeypatch.setenv("AMUNRE_PATH", str(folder))
    with TestClient(build_app(tmp_path / "data")) as client:
        tables = Tables(client)
        listed = {v["id"]: v for v in client.get("/api/variants").json()}
        assert listed["rich-start"]["problems"] is None and "TOML" in listed["broken"]["problems"]
        assert listed["typo"]["problems"] and str(folder) not in listed["typo"]["problems"]
        assert listed["rich-start"]["where"] == "rules"  # the folder by its name, not its path
        table = tables.open("rich-start", 3, ["random", "random", "random"], seed=4)
        assert table["seed"] == 4  # chosen, so told
        rule.write_text(rule.read_text().replace("30", "5"))  # edited while the table is played
        live = tables.server.tables[table["table"]]
        import time

        for _ in range(600):
            if live.pending is None:
                break
            time.sleep(0.01)
        page = tables.state(table["tokens"][None])
        assert page["finished"]
        log = client.get("/api/log", headers=auth(table["tokens"][None])).text
    header = json.loads(log.splitlines()[0])
    setup = json.loads(log.splitlines()[1])
    # the house rule's copy named as it lies in the data folder, not by the server's path
    assert setup["gold"] == 30 and header["variant_file"] == f"variants/{table['table']}/variant.toml"
    assert str(tmp_path) not in log
    (tmp_path / "game.jsonl").write_text(log)
    replayed = subprocess.run([sys.executable, "-m", "amunre", "replay", str(tmp_path / "game.jsonl"), "--variant",
                               header["variant_file"], "--json"], capture_output=True, text=True, cwd=tmp_path / "data")
    assert replayed.returncode == 0, replayed.stderr


def test_the_lobby_loads_a_file_again_only_once_it_or_a_file_it_depends_on_changed(tmp_path, monkeypatch):
    """The lobby's list is kept: a second look loads no file; an edited file is loaded
    again, and so is every file extending it, and a file whose board was missing once the
    board is there; nothing else is."""
    import shutil

    import amunre.loader
    from amunre.loader.resources import variants_dir

    folder = tmp_path / "rules"
    folder.mkdir()
    base, child, boarded = folder / "base.toml", folder / "child.toml", folder / "boarded.toml"
    base.write_text('extends = "classic2003"\n[edition]\nid = "base"\nname = "Base"\n', encoding="utf-8")
    child.write_text('extends = "base.toml"\n[edition]\nid = "child"\nname = "Child"\n', encoding="utf-8")
    boarded.write_text('extends = "classic2003"\n[edition]\nid = "boarded"\nname = "Boarded"\n'
                       'board = "own-board.toml"\n', encoding="utf-8")
    monkeypatch.setenv("AMUNRE_PATH", str(folder))
    loaded: list[str] = []
    real = amunre.loader.load_variant

    def counted(path, *args, **kwargs):
        loaded.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(amunre.loader, "load_variant", counted)
    with TestClient(build_app(tmp_path / "data")) as client:
        def listed() -> dict:
            loaded.clear()
            reply = client.get("/api/variants")
            assert reply.status_code == 200
            return {v["id"]: v for v in reply.json()}

        first = listed()
        assert {"base.toml", "child.toml", "boarded.toml", "classic2003.toml"} <= set(loaded)
        assert first["child"]["name"] == "Child" and "own-board.toml" in first["boarded"]["problems"]
        assert listed() == first and loaded == []  # nothing read again
        base.write_text(base.read_text().replace('"Base"', '"Base, edited"'), encoding="utf-8")
        second = listed()
        assert sorted(loaded) == ["base.toml", "child.toml"]  # the edited file and the one extending it
        assert second["base"]["name"] == "Base, edited"
        child.write_text(child.read_text() + "[components]\nstarting_gold = -5\n", encoding="utf-8")
        third = listed()
        assert loaded == ["child.toml"] and "starting_gold" in third["child"]["problems"]
        shutil.copy(variants_dir() / "board.toml", folder / "own-board.toml")  # the missing board made
        fourth = listed()
        assert loaded == ["boarded.toml"] and fourth["boarded"]["problems"] is None
        assert listed() == fourth and loaded == []


def test_a_variant_with_problems_is_refused_naming_its_file_as_the_lobby_does(tmp_path, monkeypatch):
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "bad.toml").write_text('extends = "classic2003"\n[edition]\nid = "bad"\nname = "Bad"\n'
                                     "[components]\nstarting_gold = -5\n", encoding="utf-8")
    monkeypatch.setenv("AMUNRE_PATH", str(folder))
    with TestClient(build_app(tmp_path / "data")) as client:
        listed = {v["id"]: v for v in client.get("/api/variants").json()}
        reply = client.post("/api/tables", json={"variant": "bad", "players": 3, "seats": ["random"] * 3})
        assert reply.status_code == 422
        said = reply.json()["error"]
        assert said.startswith("variant 'bad' has problems: rules/bad.toml:")
        assert listed["bad"]["problems"] in said  # as the lobby shows them
        assert str(tmp_path) not in said and str(folder.resolve()) not in said
        assert client.app.state.server.store.tables() == []


def test_a_random_seed_is_never_told(tables):
    reply = tables.client.post("/api/tables", json={"variant": "classic2003", "players": 3,
                                                    "seats": ["human", "human", "human"]})
    assert reply.status_code == 201 and "seed" not in reply.json()


def test_a_seed_is_chosen_only_at_a_table_where_nobody_but_its_creator_plays(tables):
    """A seed tells every hidden card: whoever chose it could replay the game at home and
    know the others' hands. Refused where two people sit, and where the one person's seat
    goes out as an invitation (the creator does not sit: that person would not know); allowed
    where the creator plays the one human seat himself against bots (only the bots' cards are
    at stake), or bots only."""
    post = tables.client.post
    for seats, seed in ((["human", "human", "random"], 5), (["human"] * 4, "123"), (["random", "human", "human"], 0)):
        reply = post("/api/tables", json={"variant": "classic2003", "players": len(seats), "seats": seats,
                                          "seed": seed, "sit": seats.index("human")})
        assert reply.status_code == 422, reply.text
        said = reply.json()["error"]
        assert said.startswith("seed: a seed may be chosen only for a table where nobody but you plays") and \
            f"this one has {seats.count('human')} people" in said and "leave it out" in said
    reply = post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": ["random", "human", "greedy"],
                                      "seed": 5})
    assert reply.status_code == 422 and "would be handed out as an invitation" in reply.json()["error"]
    assert tables.server.store.tables() == []  # none kept
    for seats, sit in ((["human", "random", "greedy"], 0), (["random", "random", "random"], None)):
        reply = post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": seats, "seed": "77",
                                          "sit": sit})
        assert reply.status_code == 201 and reply.json()["seed"] == 77
    reply = post("/api/tables", json={"variant": "classic2003", "players": 3, "seats": ["human", "human", "random"]})
    assert reply.status_code == 201 and "seed" not in reply.json()  # drawn, and told to nobody
    assert [record.seed for record in tables.server.store.tables()][:2] == [77, 77]


# -- the data folder ---------------------------------------------------------------------------------------
def test_a_data_folder_serves_one_server_and_must_be_a_store(tmp_path):
    from amunre.core.errors import AmunreError

    first = build_app(tmp_path / "one")
    with pytest.raises(AmunreError, match="another amunre serve is using this folder"):
        build_app(tmp_path / "one")
    first.state.server.store.close()
    build_app(tmp_path / "one").state.server.store.close()  # free again
    (tmp_path / "two").mkdir()
    (tmp_path / "two" / "tables.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(AmunreError, match="not a table store"):
        build_app(tmp_path / "two")
    import sqlite3

    (tmp_path / "three").mkdir()
    with sqlite3.connect(tmp_path / "three" / "tables.sqlite") as other:
        other.execute("CREATE TABLE tables (name TEXT)")
    with pytest.raises(AmunreError, match="not a table store"):
        build_app(tmp_path / "three")


def test_a_binary_or_missing_hello_closes_the_live_connection(tables):
    from starlette.websockets import WebSocketDisconnect

    with tables.client.websocket_connect("/api/live") as live:
        live.send_bytes(b"\x00\x01")
        with pytest.raises(WebSocketDisconnect) as info:
            live.receive_text()
        assert info.value.code == 4400


def test_a_foreign_store_is_left_as_it_was(tmp_path):
    import sqlite3

    from amunre.core.errors import AmunreError

    for n, schema in enumerate(["CREATE TABLE foo (x)", "CREATE TABLE tables (id TEXT, name TEXT)"]):
        folder = tmp_path / str(n)
        folder.mkdir()
        with sqlite3.connect(folder / "tables.sqlite") as other:
            other.execute(schema)
        before = (folder / "tables.sqlite").read_bytes()
        with pytest.raises(AmunreError, match="not a table store"):
            build_app(folder)
        assert (folder / "tables.sqlite").read_bytes() == before
        assert not (folder / "tables.sqlite-wal").exists()


def test_tables_opened_at_once_do_not_pass_the_limit(tmp_path):
    import anyio
    import httpx2 as httpx

    with TestClient(build_app(tmp_path, max_tables=2)):
        pass  # (the store made)

    async def burst():
        app = build_app(tmp_path / "burst", max_tables=2)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
                body = {"variant": "classic2003", "players": 4, "seats": ["human"] * 4}
                replies = []

                async def one():
                    replies.append(await client.post("/api/tables", json=body))

                async with anyio.create_task_group() as group:
                    for _ in range(8):
                        group.start_soon(one)
                return sorted(reply.status_code for reply in replies)

    assert anyio.run(burst) == [201, 201] + [429] * 6


# -- a bot that fails ------------------------------------------------------------------------------------
class _Raising:
    """A bot whose choose() raises (its bug)."""

    def __init__(self, rng, **params):
        pass

    def choose(self, view, request):
        raise RuntimeError("a bot bug")


class _Stray:
    """A bot that answers something that is no option."""

    def __init__(self, rng, **params):
        pass

    def choose(self, view, request):
        return 12345


class _Exiting:
    """A bot that calls sys.exit (it stopped the whole server, and again at each start)."""

    def __init__(self, rng, **params):
        pass

    def choose(self, view, request):
        raise SystemExit(0)


class _Boundless:
    """A bot that declares a work per decision that is no count."""

    playouts_per_decision = float("inf")

    def __init__(self, rng, **params):
        pass

    def choose(self, view, request):
        return request.options[0]


@pytest.mark.parametrize("bot,said", [
    (_Raising, "the raising bot of blue failed: RuntimeError('a bot bug')"),
    (_Stray, "the stray bot of blue failed: it answered 12345, which is not one of the options of 'bid'"),
    (_Exiting, "the exiting bot of blue failed: RuntimeError('it raised SystemExit: 0')"),
])
def test_a_bot_that_fails_stops_its_table_saying_so_and_keeps_nothing_it_said(tmp_path, monkeypatch, bot, said):
    """A bot's exception reached nobody (its table hung, saying nothing, for good), and a bot's
    answer that is no option was kept on disk before the game refused it (after a restart, every
    page said the variant no longer loaded). Now the table stops, naming the bot and what it did,
    and no answer of it is kept."""
    import time

    import amunre.agents as agents

    kind = bot.__name__.lstrip("_").lower()
    monkeypatch.setitem(agents._FACTORIES, kind, bot)
    with TestClient(build_app(tmp_path)) as client:
        tables = Tables(client)
        table = tables.open("classic2003", 3, [kind] * 3)
        deadline = time.monotonic() + 120  # (a wait for the bot's thread, not a measure of speed)
        while (page := tables.state(table["tokens"][None]))["failure"] is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert page["failure"] == said
        assert tables.server.store.answers(table["table"]) == []


def test_a_bot_whose_work_is_no_count_is_refused_not_a_server_error(tmp_path, monkeypatch):
    import amunre.agents as agents

    monkeypatch.setitem(agents._FACTORIES, "boundless", _Boundless)
    with TestClient(build_app(tmp_path)) as client:
        reply = client.post("/api/tables", json={"variant": "classic2003", "players": 3,
                                                 "seats": ["human", "boundless", "random"]})
        assert reply.status_code == 422, reply.text
        assert "the bot 'boundless' of seat 2 may play out inf games per decision" in reply.json()["error"]
