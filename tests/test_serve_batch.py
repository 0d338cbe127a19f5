"""`amunre serve` asks a secret batch (the offering's sealed offers, the expert draft) of all
its seats at once, over HTTP: the people of a batch answer in either order, each answer held
unseen (another seat's page is the same whatever it was) until the last is in, then given to
the game in the engine's order; a sealed answer may be taken back until the reveal, never
after; a bad answer is refused and changes nothing; and an acknowledged sealed answer
survives a kill -9 of the server, the bots' sealed answers asked again as they were.
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
from starlette.testclient import TestClient
from test_serve import Tables, answer, auth

from amunre.core.decisions import to_json_value
from amunre.serve.app import build_app


@pytest.fixture
def tables(tmp_path):
    with TestClient(build_app(tmp_path)) as client:
        yield Tables(client)


def people_pages(tables, table, seats) -> dict:
    return {seat: tables.state(table["tokens"][seat]) for seat in seats}


def to_batch(tables, table, seats) -> dict:
    """Answer (the first option) whoever of `seats` is asked until at least two of them are
    asked a secret decision at once; their pages."""
    for _ in range(2000):
        pages = people_pages(tables, table, seats)
        secret = [seat for seat, page in pages.items() if page["decision"] and page["decision"]["secret"]]
        if len(secret) >= 2:
            return pages
        asked = [seat for seat, page in pages.items() if page["decision"]]
        if asked:
            answer(tables, table, asked[0], 0)
        else:
            time.sleep(0.01)
    pytest.fail("no secret batch asked two people at once")


def test_the_people_of_a_secret_batch_are_asked_at_once_and_answer_in_either_order(tables):
    seats = [0, 1, 2]
    table = tables.open("classic2003", 3, seed=21)
    live = tables.server.tables[table["table"]]
    for order in ("the engine's", "reversed"):
        pages = to_batch(tables, table, seats)
        batch = [ask.seat for ask in live.batch()]
        assert sorted(batch) == sorted(seat for seat, page in pages.items() if page["decision"])
        number = pages[batch[0]]["number"]
        assert all(page["number"] == number for page in pages.values())  # the batch is one decision number
        answering = batch if order == "the engine's" else batch[::-1]
        chosen = {}
        for n, seat in enumerate(answering):
            options = live.request_of(seat).options
            index = (n + 1) % len(options)  # (a different option per seat: their order in the log tells)
            chosen[seat] = to_json_value(options[index])
            answer(tables, table, seat, index)
            if n < len(answering) - 1:
                after = people_pages(tables, table, seats)
                assert after[seat]["decision"] is None and after[seat]["sealed"]  # his own, in words
                waiting = [w["seat"] for w in after[seat]["turn"]["waiting"]]
                assert waiting == [s for s in batch if s not in answering[:n + 1]]
                assert all(after[s]["decision"] for s in waiting)  # the others still asked, as before
                assert all(after[s]["sealed"] is None for s in waiting)
                assert live.number == number  # nothing given to the game yet
        # all in: given in the engine's order, whichever came first
        given = [to_json_value(a) for a in live.game.answers[number:number + len(batch)]]
        assert given == [chosen[seat] for seat in batch]
        assert live.answered_by[number:number + len(batch)] == batch
        assert [row[0] for row in tables.server.store.numbered_answers(table["table"])] == list(range(live.number))
        after = people_pages(tables, table, seats)
        assert all(page["sealed"] is None for page in after.values())
        assert all("showed something hidden" in page["undo"] or "another seat" in page["undo"]
                   for page in after.values())  # revealed: no answer of the batch is taken back


def test_a_sealed_answer_changes_no_other_page_and_may_be_taken_back_until_the_reveal(tables):
    """Two tables at the same position (same seed, same answers so far): at a secret batch one
    seat answers one option at the first table and another at the second. The pages of every
    other seat (and the spectator's) are the same but for the table's id; his own differs.
    He takes it back (only his own), answers again, and once all are in nothing is taken back."""
    seats = [0, 1, 2]
    first, second = tables.open("classic2003", 3, seed=22), tables.open("classic2003", 3, seed=22)
    pages = to_batch(tables, first, seats)
    live = [tables.server.tables[t["table"]] for t in (first, second)]
    for seat in live[0].answered_by:  # the second table brought to the same point
        answer(tables, second, seat, 0)
    assert live[1].number == live[0].number
    batch = [ask.seat for ask in live[0].batch()]
    sealer, other = batch[0], batch[1]
    count = len(pages[sealer]["decision"]["options"])
    for table, index in ((first, 0), (second, count - 1)):
        answer(tables, table, sealer, index)
    for who in [s for s in seats if s != sealer] + [None]:
        mine, theirs = tables.state(first["tokens"][who]), tables.state(second["tokens"][who])
        for page in (mine, theirs):
            page.pop("table"), page.pop("version")  # (a table's own id; its changes counted from its clock)
        assert mine == theirs, who
    sealed = [tables.state(t["tokens"][sealer])["sealed"] for t in (first, second)]
    assert sealed[0] != sealed[1]
    # the other seat cannot take it back for him; he can, and is asked again
    page = tables.state(first["tokens"][other])
    assert "another seat has answered since" in page["undo"] or "not answered yet" in page["undo"]
    reply = tables.client.post("/api/undo", headers=auth(first["tokens"][other]), json={"number": page["number"]})
    assert reply.status_code == 409
    page = tables.state(first["tokens"][sealer])
    assert page["undo"] is None
    reply = tables.client.post("/api/undo", headers=auth(first["tokens"][sealer]), json={"number": page["number"]})
    assert reply.status_code == 200, reply.text
    again = tables.state(first["tokens"][sealer])
    assert again["decision"] == pages[sealer]["decision"] and again["sealed"] is None
    # the others told that he took it back (nothing of what it was: nobody saw it)
    assert tables.state(first["tokens"][other])["lines"][-1] == f"{live[0].names[sealer]} took back an answer."
    assert len(tables.server.store.numbered_answers(first["table"])) == live[0].number  # forgotten on the disk
    for seat in batch:
        answer(tables, first, seat, 1)
    assert live[0].number == pages[sealer]["number"] + len(batch)
    page = tables.state(first["tokens"][batch[-1]])
    reply = tables.client.post("/api/undo", headers=auth(first["tokens"][batch[-1]]), json={"number": page["number"]})
    assert reply.status_code == 409 and "showed something hidden" in reply.json()["error"]


def test_a_bad_answer_in_a_secret_batch_is_refused_and_changes_nothing(tables):
    seats = [0, 1, 2]
    table = tables.open("classic2003", 3, seed=23)
    to_batch(tables, table, seats)
    live = tables.server.tables[table["table"]]
    batch = [ask.seat for ask in live.batch()]
    answer(tables, table, batch[0], 0)
    before = people_pages(tables, table, seats)
    kept = tables.server.store.numbered_answers(table["table"])
    number = before[batch[1]]["number"]
    count = len(before[batch[1]]["decision"]["options"])
    outside = next((seat for seat in seats if seat not in batch), None)
    post = tables.client.post
    cases = [
        (batch[0], {"number": number, "option": 0}, 409, "answered this secret decision already"),
        (batch[1], {"number": number, "option": count}, 422, "no option"),
        (batch[1], {"number": number, "option": -1}, 422, "no option"),
        (batch[1], {"number": number + 1, "option": 0}, 409, "not pending"),
        (batch[1], {"number": number, "option": "0"}, 400, "option"),
        (None, {"number": number, "option": 0}, 403, "spectator"),
    ]
    if outside is not None:
        cases.append((outside, {"number": number, "option": 0}, 409, "turn"))
    for seat, body, status, said in cases:
        reply = post("/api/answer", headers=auth(table["tokens"][seat]), json=body)
        assert reply.status_code == status, (seat, body, reply.text)
        assert said in reply.json()["error"]
    after = people_pages(tables, table, seats)
    assert after == before  # nothing changed
    assert tables.server.store.numbered_answers(table["table"]) == kept


def test_an_acknowledged_sealed_answer_survives_a_kill(tmp_path):
    pytest.importorskip("httpx2", reason="the test extra's HTTP client: pip install '.[test]'")
    from serving import Serving, claim, state

    data = tmp_path / "tables"
    serving = Serving(data)
    try:
        reply = serving.client.post("/api/tables", json={"variant": "supermeeple2016", "players": 4,
                                                         "seats": ["human", "random", "human", "greedy"]})
        assert reply.status_code == 201, reply.text
        tokens = {s["seat"]: claim(serving, s["invitation"]) for s in reply.json()["seats"] if s["invitation"]}

        def pages():
            return {seat: state(serving, token) for seat, token in tokens.items()}

        def give(seat, option):
            page = state(serving, tokens[seat])
            said = serving.client.post("/api/answer", headers=auth(tokens[seat]),
                                       json={"number": page["number"], "option": option})
            assert said.status_code == 200, said.text

        for _ in range(2000):
            now = pages()
            secret = [seat for seat, page in now.items() if page["decision"] and page["decision"]["secret"]]
            if len(secret) == 2:
                break
            asked = [seat for seat, page in now.items() if page["decision"]]
            if asked:
                give(asked[0], 0)
            else:
                time.sleep(0.02)
        else:
            pytest.fail("no secret batch asked both people at once")
        first, second = secret
        give(first, 0)
        before = pages()
        assert before[first]["sealed"] and before[first]["decision"] is None and before[second]["decision"]
    finally:
        serving.kill()  # at once after the acknowledged sealed answer
    serving = Serving(data)
    try:
        after = {seat: state(serving, token) for seat, token in tokens.items()}
        assert after[first]["sealed"] == before[first]["sealed"] and after[first]["decision"] is None
        assert after[second]["decision"] == before[second]["decision"]
        assert after[first]["number"] == before[first]["number"]
        page = after[second]
        said = serving.client.post("/api/answer", headers=auth(tokens[second]),
                                   json={"number": page["number"], "option": 0})
        assert said.status_code == 200, said.text
        deadline = time.monotonic() + 60
        # (the bots of the batch answer, asked again after the restart; then all are revealed)
        while state(serving, tokens[first])["number"] == page["number"]:
            assert time.monotonic() < deadline, "the batch was not revealed"
            time.sleep(0.02)
        shown = state(serving, tokens[first])
        assert shown["sealed"] is None and shown["failure"] is None
    finally:
        serving.stop()


def test_a_bot_answers_a_batch_asked_at_once_as_it_answers_it_asked_in_turn():
    """A bot of a secret batch thinks on a copy of the game standing where the engine asks it
    (the earlier seats' answers stand-ins): it must answer as it does asked in turn after the
    true answers, or a served game's log would not replay with its bots re-run. Two bots of
    each kind, one asked each way, the batch's asked last seat first."""
    from amunre.agents import make_agent
    from amunre.core.engine import Game
    from amunre.loader import load_variant
    from amunre.serve.batch import batch_asks

    kinds, seed = ["planner", "mcts:iterations=8", "greedy"], 5
    in_turn = [make_agent(kind, seed, seat) for seat, kind in enumerate(kinds)]
    at_once = [make_agent(kind, seed, seat) for seat, kind in enumerate(kinds)]
    game = Game(load_variant("expert2016"), len(kinds), seed)
    kinds_asked = set()
    while game.pending is not None:
        request = game.pending
        if not request.simultaneous:
            choice = in_turn[request.player].choose(game.view(request.player), request)
            assert to_json_value(at_once[request.player].choose(game.view(request.player), request)) == \
                to_json_value(choice)
            game.answer(choice)
            continue
        asks = batch_asks(game)
        kinds_asked.add(request.kind)
        sealed = {ask.seat: at_once[ask.seat].choose(ask.view(), ask.request) for ask in reversed(asks)}
        for ask in asks:
            assert game.pending.player == ask.seat
            choice = in_turn[ask.seat].choose(game.view(ask.seat), game.pending)
            assert to_json_value(sealed[ask.seat]) == to_json_value(choice), (ask.seat, game.pending.kind)
            game.answer(choice)
    assert kinds_asked == {"offer", "pick_province"}


def test_a_table_closed_while_a_sealed_answer_is_held_shows_it_closed(tables):
    seats = [0, 1, 2]
    table = tables.open("classic2003", 3, seed=24)
    to_batch(tables, table, seats)
    first = tables.server.tables[table["table"]].batch()[0].seat
    answer(tables, table, first, 0)
    reply = tables.client.post("/api/close", headers=auth(table["close"].split("#")[1]), json={})
    assert reply.status_code == 200, reply.text
    for seat in seats:
        page = tables.state(table["tokens"][seat])
        assert page["closed"] and page["decision"] is None and page["sealed"] is None and page["turn"] is None


def _answer_one(table) -> None:
    """Give one answer at a table as the server would: a bot's (a batch's bots first, on the
    game standing where each is asked), else the person's (seat 0), his first option."""
    asks = table.asks()
    ask = next((ask for ask in asks if table.is_bot(ask.seat)), asks[0])
    option = table.agents[ask.seat].choose(ask.view(), ask.request) if table.is_bot(ask.seat) \
        else ask.request.options[0]
    table.give(ask.seat, option, bool(table.batch()))


def test_bots_brought_back_after_a_restart_stand_where_they_stood_though_the_batch_completed_meanwhile():
    """After a restart the bots are asked their past answers again, their sealed answers of the
    batch under way too, while a person may answer: his answer completing the batch before the
    bots are back must not leave them a step behind (they would then answer otherwise than at a
    table never restarted, and the log would not replay with them re-run)."""
    from amunre.loader import load_variant
    from amunre.serve.store import TableRecord
    from amunre.serve.table import Table

    record = TableRecord("t", "classic2003", None, None, 3, 31, ["human", "random", "random"], 0)
    variant = load_variant("classic2003")
    never = Table(record, variant)
    never.rebuild([])
    while never.pending is not None:
        _answer_one(never)
    played = Table(record, variant)
    played.rebuild([])
    while not (played.batch() and played.request_of(0) is not None and not played.bots_asked()):
        _answer_one(played)  # up to a secret batch whose bots have answered and whose person has not
    applied = [(seat, to_json_value(answer), True) for seat, answer in zip(played.answered_by, played.game.answers)]
    sealed = {played.number_of(seat): (seat, to_json_value(answer)) for seat, answer in played.held.items()}
    assert sealed
    back = Table(record, variant)  # the server started again
    back.rebuild(applied, sealed=sealed)
    assert not back.bots_ready and back.held.keys() == played.held.keys()
    held = dict(back.held)  # (taken when the bots are set to be brought back)
    back.give(0, back.request_of(0).options[0], True)  # the person completes the batch meanwhile
    assert not back.held
    back.restore_bots(applied, held)
    assert back.failure is None
    while back.pending is not None:
        _answer_one(back)
    assert [to_json_value(a) for a in back.game.answers] == [to_json_value(a) for a in never.game.answers]
