"""`amunre serve` in a child process, for the tests that start it as a person does."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time


class Serving:
    """`amunre serve` in a child process, its output kept."""

    def __init__(self, data, *extra, port: int = 0):
        import httpx2 as httpx  # (the test extra's HTTP client, as Starlette's TestClient uses it)

        self.out = open(data.parent / f"{data.name}-server.log", "ab")
        self.process = subprocess.Popen([sys.executable, "-m", "amunre", "serve", "--data", str(data), "--port",
                                         str(port), *extra], stdout=self.out, stderr=subprocess.PIPE)
        first = self.process.stderr.readline().decode()
        match = re.search(r"open (http://[^/ ]+/)", first)
        assert match, first
        self.url = match.group(1)
        self.client = httpx.Client(base_url=self.url, timeout=30)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.client.close()

    def stop(self) -> str:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.client.close()
        return self.process.stderr.read().decode()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def claim(serving, invitation: str) -> str:
    """The seat's own token that opening an invitation's link (`http://HOST/join#TOKEN`) gives."""
    reply = serving.client.post("/api/claim", headers=auth(invitation.split("#", 1)[1]), json={})
    assert reply.status_code == 200, reply.text
    return reply.json()["link"].split("#", 1)[1]


def state(serving, token):
    """A seat's page data (while the server sets its table up again after a start, 503, asked
    again for up to a minute)."""
    deadline = time.monotonic() + 60
    while True:
        reply = serving.client.get("/api/state", headers=auth(token))
        if reply.status_code != 503 or time.monotonic() > deadline:
            break
        assert "setting this table up again" in reply.json()["error"]
        time.sleep(0.05)
    assert reply.status_code == 200, reply.text
    return reply.json()


def play_some(serving, tokens, answers: int, seed: int) -> int:
    """Answer the two people's decisions (the bots answer on the server) `answers` times, or
    to the end; returns how many were given. The last one given is kept as
    `serving.last_answer`: (the token that gave it, its decision's number, its option's words)."""
    rng = random.Random(seed)
    given = 0
    deadline = time.monotonic() + 120
    while given < answers and time.monotonic() < deadline:
        pages = [state(serving, token) for token in tokens]
        if pages[0]["finished"]:
            break
        asked = [(token, page) for token, page in zip(tokens, pages) if page["decision"]]
        if not asked:
            time.sleep(0.02)  # a bot thinks
            continue
        token, page = asked[0]
        option = rng.randrange(len(page["decision"]["options"]))
        reply = serving.client.post("/api/answer", headers=auth(token), json={"number": page["number"],
                                                                               "option": option})
        assert reply.status_code == 200, reply.text
        serving.last_answer = (token, page["number"], page["decision"]["options"][option]["text"])
        given += 1
    return given


