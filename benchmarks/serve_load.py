"""Many tables at once on one `amunre serve`: how soon a page hears of its own answer.

    .venv/bin/python benchmarks/serve_load.py [TABLES] [ANSWERS] [--variant VARIANT] [--bots KIND]

Starts `amunre serve` on a fresh data folder, opens TABLES tables (default 20), each with one
scripted person and three bots (default `random`, the quickest to think, so that what is
measured is the server), and plays them all at once: each person keeps a live WebSocket
open, answers each of its decisions with a random option as soon as its page asks it, up to
ANSWERS answers (default 40) or the game's end. Measured, for every answer, the time from
sending it to the page update that shows it (the next decision, or a secret answer shown
sealed; the server sends that update as soon as the answer is kept, before any bot thinks),
as p50, p95 and max; the server's memory (RSS) at the start and at the end, and per table;
and, once the server is stopped, that every answer it acknowledged is in its store. A
benchmark, never a test: the figures depend on the machine (docs/serve.md gives them for the
development machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def person(client, url: str, token: str, answers: int, seed: int, latencies: list, acked: list) -> None:
    import websockets

    rng = random.Random(seed)
    given = 0
    async with websockets.connect(url.replace("http://", "ws://") + "api/live", max_size=None) as live:
        await live.send(json.dumps({"token": token}))
        page = json.loads(await live.recv())
        while given < answers:
            if page["finished"] or page["failure"]:
                return
            if not page["decision"]:
                page = json.loads(await live.recv())
                continue
            number = page["number"]
            sent = time.perf_counter()
            option = rng.randrange(len(page["decision"]["options"]))
            reply = await client.post("/api/answer", headers={"Authorization": f"Bearer {token}"},
                                      json={"number": number, "option": option})
            if reply.status_code != 200:
                raise SystemExit(f"an answer was refused: {reply.status_code} {reply.text}")
            while True:  # the update that shows it (it may ask this person again; a secret one: sealed)
                page = json.loads(await live.recv())
                if page["number"] > number or page["finished"] or page.get("sealed"):
                    latencies.append(time.perf_counter() - sent)
                    # where it is kept: at `number`, or, an answer of a secret batch, under its seat's
                    # place in the batch (before the next decision's number; a batch has at most 4)
                    acked.append(range(number, page["number"] if page["number"] > number else number + 4))
                    break
            given += 1


async def run(tables: int, answers: int, variant: str, bots: str, data: Path) -> dict:
    try:
        import httpx2 as httpx  # the test extra's HTTP client
    except ImportError:
        import httpx

    said = open(data.parent / "server.log", "w+b")  # (a pipe left unread would stop the server once full)
    server = subprocess.Popen([sys.executable, "-m", "amunre", "serve", "--data", str(data), "--port", "0"],
                              stderr=said, stdout=subprocess.DEVNULL)
    url = None
    while url is None:
        time.sleep(0.1)
        said.seek(0)
        found = re.search(r"open (http://\S+/)", said.read().decode())
        url = found and found.group(1)
    latencies: list[float] = []
    per_table: list[list] = []
    try:
        async with httpx.AsyncClient(base_url=url, timeout=120) as client:
            start_rss = rss_kib(server.pid)
            opened = []
            for n in range(tables):
                reply = await client.post("/api/tables", json={"variant": variant, "players": 4,
                                                               "seats": ["human", bots, bots, bots], "seed": n,
                                                               "sit": 0})  # (the person's own seat: its link)
                reply.raise_for_status()
                table = reply.json()
                opened.append((table["table"], table["seats"][0]["link"].split("#")[1]))
            began = time.perf_counter()
            per_table = [[] for _ in opened]
            await asyncio.gather(*(person(client, url, token, answers, n, latencies, per_table[n])
                                   for n, (_, token) in enumerate(opened)))
            wall = time.perf_counter() - began
            end_rss = rss_kib(server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
        said.seek(0)
        errors = said.read().decode()
        if "Traceback" in errors:
            print(errors[-3000:], file=sys.stderr)
    with sqlite3.connect(data / "tables.sqlite") as db:
        kept = {table_id: {n for (n,) in db.execute("SELECT number FROM answers WHERE table_id = ? AND seat = 0",
                                                    (table_id,))} for table_id, _ in opened}
    lost = sum(1 for (table_id, _), places in zip(opened, per_table) for place in places
               if not kept[table_id] & set(place))
    ordered = sorted(latencies)
    return {"tables": tables, "answers": len(latencies), "wall_s": round(wall, 1),
            "p50_ms": round(1000 * statistics.median(ordered), 1),
            "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
            "max_ms": round(1000 * ordered[-1], 1),
            "rss_start_mib": round(start_rss / 1024, 1), "rss_end_mib": round(end_rss / 1024, 1),
            "rss_per_table_kib": round((end_rss - start_rss) / tables), "acknowledged_lost": lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", nargs="?", type=int, default=20)
    parser.add_argument("answers", nargs="?", type=int, default=40)
    parser.add_argument("--variant", default="supermeeple2016")
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="amunre-serve-load-") as folder:
        result = asyncio.run(run(args.tables, args.answers, args.variant, args.bots, Path(folder) / "data"))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
