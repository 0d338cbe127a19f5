"""`amunre serve` as a person starts it: a real server process, killed mid-game and started
again on the same data folder; and the command line's own errors."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette", reason="amunre serve needs the serve extra: pip install '.[serve]'")
pytest.importorskip("httpx2", reason="the test extra's HTTP client: pip install '.[test]'")
from serving import Serving, auth, claim, play_some, state


def test_a_killed_server_loses_nothing_and_the_log_replays(tmp_path):
    data = tmp_path / "tables"
    serving = Serving(data)
    try:
        reply = serving.client.post("/api/tables", json={"variant": "supermeeple2016", "players": 4,
                                                         "seats": ["human", "greedy", "human", "random"]})
        assert reply.status_code == 201, reply.text
        table = reply.json()
        tokens = [claim(serving, s["invitation"]) for s in table["seats"] if s["invitation"]]
        spectator = table["spectator"].split("#")[1]
        assert play_some(serving, tokens, 25, 1) == 25
        while not any(state(serving, token)["decision"] for token in tokens):
            time.sleep(0.02)  # the bots answer up to the next person's decision
        before = [state(serving, token) for token in tokens + [spectator]]
    finally:
        serving.kill()
    serving = Serving(data)
    try:
        after = [state(serving, token) for token in tokens + [spectator]]
        for old, new in zip(before, after):  # every link still opens its seat, where it was
            assert new["number"] == old["number"] and new["players"] == old["players"]
            assert new["decision"] == old["decision"] and new["hand"] == old["hand"]
            assert new["version"] > old["version"]
        assert play_some(serving, tokens, 10, 2) == 10
        token, number, words = serving.last_answer
    finally:
        serving.kill()  # at once after an acknowledged answer, the bots perhaps thinking
    serving = Serving(data)
    try:
        page = state(serving, token)  # the acknowledged answer is kept: the game went past it, or,
        # its secret batch not yet complete (a bot was thinking), it is held as the seat's sealed answer
        assert page["number"] > number or (page["number"] == number and page["decision"] is None
                                           and page["sealed"] == words), (page["number"], number, page["sealed"])
        play_some(serving, tokens, 10_000, 3)
        final = state(serving, tokens[0])
        assert final["finished"]
        log = serving.client.get("/api/log", headers=auth(tokens[1]))
        assert log.status_code == 200
    finally:
        said = serving.stop()
    path = tmp_path / "table.jsonl"
    path.write_text(log.text)
    replayed = subprocess.run([sys.executable, "-m", "amunre", "replay", str(path), "--json"], capture_output=True,
                              text=True)
    assert replayed.returncode == 0, replayed.stderr
    verdict = json.loads(replayed.stdout)
    assert verdict["scores"] == [p["points"] for p in final["players"]]
    server_output = (tmp_path / "tables-server.log").read_bytes().decode() + said
    for token in tokens + [spectator]:  # no token in what the server printed, nor in the log
        assert token not in server_output and token not in log.text


def test_a_taken_seat_survives_a_kill_and_its_invitation_stays_spent(tmp_path):
    """A seat taken through its invitation is on the disk before the taker is answered: the
    server killed (SIGKILL) at once after, and started again, the seat's token opens it, the
    invitation still says when it was taken, and the other invitation still takes its seat.
    No token, an invitation's or a seat's, is in what the server printed."""
    data = tmp_path / "tables"
    said = []
    serving = Serving(data)
    try:
        reply = serving.client.post("/api/tables", json={"variant": "classic2003", "players": 3,
                                                         "seats": ["human", "human", "random"]})
        assert reply.status_code == 201, reply.text
        first, second = [s["invitation"] for s in reply.json()["seats"][:2]]
        token = claim(serving, first)
        spent = serving.client.post("/api/claim", headers=auth(first.split("#")[1]), json={})
    finally:
        serving.kill()
        said.append(serving.process.stderr.read().decode())
    assert spent.status_code == 409, spent.text
    serving = Serving(data)
    try:
        assert state(serving, token)["seat"] == 0
        again = serving.client.post("/api/claim", headers=auth(first.split("#")[1]), json={})
        assert again.status_code == 409 and again.json()["taken"] == spent.json()["taken"]
        other = claim(serving, second)
    finally:
        serving.kill()
        said.append(serving.process.stderr.read().decode())
    serving = Serving(data)
    try:
        assert state(serving, other)["seat"] == 1 and state(serving, token)["seat"] == 0
    finally:
        said.append(serving.stop())
    printed = (tmp_path / "tables-server.log").read_bytes().decode() + "".join(said)
    for secret in (first.split("#")[1], second.split("#")[1], token, other):
        assert secret not in printed


def test_a_page_of_another_site_cannot_open_tables_through_its_own_name(tmp_path):
    """The DNS-rebinding request of issue 34 (`curl -H 'Host: evil.example:PORT' -H 'Origin:
    http://evil.example:PORT' .../api/tables` answered 201): refused by the real command,
    which answers to its own address and to the names given with --allowed-host."""
    from urllib.parse import urlsplit

    body = {"variant": "classic2003", "players": 3, "seats": ["human", "random", "random"]}
    serving = Serving(tmp_path / "tables", "--allowed-host", "games.example.org")
    try:
        port = urlsplit(serving.url).port
        evil = f"evil.example:{port}"
        reply = serving.client.post("/api/tables", json=body, headers={"Host": evil, "Origin": f"http://{evil}"})
        assert reply.status_code == 400, reply.text
        assert "--allowed-host evil.example " in reply.json()["error"]
        assert serving.client.get("/", headers={"Host": evil}).status_code == 400
        for host in (f"localhost:{port}", "games.example.org"):
            reply = serving.client.post("/api/tables", json=body, headers={"Host": host, "Origin": f"http://{host}"})
            assert reply.status_code == 201, reply.text
            assert reply.json()["spectator"].startswith(f"http://{host}/watch#")
    finally:
        serving.stop()


def test_the_command_says_what_is_wrong(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        cases = [
            (["--port", str(port)], "cannot listen"),
            (["--port", "70000"], "not a whole number from 0 to 65535"),
            (["--host", "no such host.invalid", "--port", "0"], "--host"),
            ([str(tmp_path / "missing")], "does not exist"),
            (["--data", str(tmp_path / "file"), "--port", "0"], "--data"),
            (["--max-bot-playouts", "-1"], "'-1' is not a whole number from 0 to 100000000"),
            (["--allowed-host", "http://x", "--port", "0"], "--allowed-host \"http://x\": expected NAME or NAME:PORT"),
        ]
        (tmp_path / "file").write_text("x")
        for args, said in cases:
            run = subprocess.run([sys.executable, "-m", "amunre", "serve", *args], capture_output=True, text=True,
                                 timeout=60, env=dict(os.environ, AMUNRE_PATH=""))
            assert run.returncode == 2, (args, run.stderr)
            assert said in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
    finally:
        taken.close()


def test_without_the_web_stack_the_command_names_the_extra(monkeypatch):
    from click.testing import CliRunner

    from amunre.cli import cli

    real_import = __import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn":
            raise ImportError("No module named 'uvicorn'", name="uvicorn")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr("builtins.__import__", no_uvicorn)
    result = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "pip install 'amunre[serve]'" in result.output and "uvicorn" in result.output


def test_a_seat_given_to_a_bot_and_a_message_survive_a_kill(tmp_path):
    """What the creator's link did and what a seat said are acknowledged once kept: a kill -9
    right after loses neither. And `--no-chat` turns the chat off."""
    data = tmp_path / "tables"
    serving = Serving(data)
    try:
        reply = serving.client.post("/api/tables", json={"variant": "classic2003", "players": 3, "sit": 0,
                                                         "seats": ["human", "human", "human"]})
        table = reply.json()
        creator, own = table["creator"].split("#")[1], table["seats"][0]["link"].split("#")[1]
        reply = serving.client.post("/api/creator/bot", headers=auth(creator), json={"seat": 2, "bot": "random"})
        assert reply.status_code == 200, reply.text
        reply = serving.client.post("/api/chat", headers=auth(own), json={"text": "hello <b>all</b>"})
        assert reply.status_code == 200, reply.text
    finally:
        serving.kill()  # at once after both were acknowledged
    serving = Serving(data, "--no-chat")
    try:
        assert state(serving, own)["players"][2]["seat"] == "random"
        seats = serving.client.get("/api/creator", headers=auth(creator)).json()["seats"]
        assert [s["state"] for s in seats] == ["yours", "invited", "bot"]
        reply = serving.client.get("/api/chat", headers=auth(own))
        assert reply.status_code == 404 and "--no-chat" in reply.json()["error"]
    finally:
        serving.kill()
    serving = Serving(data)
    try:
        state(serving, own)
        messages = serving.client.get("/api/chat", headers=auth(own)).json()["messages"]
        assert messages == [{"number": 0, "seat": 0, "name": "red", "text": "hello <b>all</b>"}]
    finally:
        serving.stop()
