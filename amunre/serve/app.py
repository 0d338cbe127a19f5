"""The web application of `amunre serve` (Starlette; uvicorn runs it).

Pages: `/` the lobby (open a table), `/join` an invitation to take a seat, `/seat` a seat's
page and `/watch` the spectator's, both the same page, and `/close` the creator's page that
closes the table: which one it is, and which table, depends on the token in the link's
fragment (`/seat#TOKEN`), which the browser never sends in a request line, so it never
reaches an access log. The page sends it as `Authorization: Bearer TOKEN` (and as the first
message of its live WebSocket).

Whoever opens a table is given invitations, not seats (but for the one seat he takes
himself, `sit`): an invitation taken (`POST /api/claim`) gives a new seat token to that
request alone, once; opened again it says when its seat was taken. So a creator who opens
another person's invitation to see his hand is found out by that person, as boardgame.io's
lobby gives a player's credentials only to whoever joins the seat.

API (JSON in and out; every error is a 4xx with `{"error": "..."}` naming the problem, and
changes nothing):

    GET  /api/variants         what the lobby offers (with each file's problems)
    POST /api/tables           open a table: {variant, players, seats: ["human", "planner", ...], seed?, sit?}
                               (a seed only where no other person plays: no human seat, or the one
                               the creator takes, sit: it tells every hidden card;
                               sit: the human seat the creator takes himself, its link given at once)
    POST /api/claim            {}, with an invitation's token: take its seat (once): its own link
    GET  /api/state            the page data of the token's seat (`amunre.serve.seatpage`)
    POST /api/answer           {number, option}: answer decision `number` with option index `option`
    POST /api/undo             {number}: take back the seat's last answer (decision `number` pending)
    GET  /api/close            with the creator's token: the table it closes, and whether it is
    POST /api/close            {}, with the creator's token: close the table for good
    GET  /api/log              the game's log, once the game is over (`amunre replay` reads it)
    GET  /api/replay           the replay viewer page of the finished game
    WS   /api/live             first message {"token"}; then the page data at each change

An answer is kept in the store (`amunre.serve.store`) before it is acknowledged. Bots answer
in worker threads, one table at a time each, so a thinking bot blocks no other table.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import secrets
import shutil
import sqlite3
import threading
import time
from collections import OrderedDict
from importlib import resources
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from amunre.core.counting import plural
from amunre.core.engine import _is_option
from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.core.words import player_names
from amunre.gamelog.messages import excerpt
from amunre.serve import MAX_BOT_PLAYOUTS, MAX_STORED_TABLES
from amunre.serve.hosts import AllowedHosts, HostCheck
from amunre.serve.seatpage import seat_payload
from amunre.serve.store import Store, TableRecord
from amunre.serve.table import HUMAN, NotYourTurn, Table
from amunre.serve.variants import Offered, freeze, shown_problems, thaw

#: The largest request body read (an answer is a few dozen bytes).
MAX_BODY = 16 * 1024
#: Seconds a live connection has to send its token, and a request its body.
HELLO_TIMEOUT = 10
BODY_SECONDS = 10
#: Seconds a one-time replay address stays valid.
REPLAY_LINK_SECONDS = 60
#: A table nobody has answered at for this long no longer counts against --max-tables.
IDLE_SECONDS = 3600
#: The most live connections of one table (its seats' pages and its spectators') and of the server.
MAX_LIVE_PER_TABLE = 64
MAX_LIVE = 1000
#: Page data kept ready (table, seat) and board pictures kept, the most recently used.
PAYLOADS_KEPT = 2000
PICTURES_KEPT = 200
#: Replay pages of finished games kept ready in memory (each is built once, a fraction of a
#: CPU second, and kept compressed on the disk with its table), and one-time replay addresses
#: not yet opened kept at most (the oldest dropped).
REPLAYS_KEPT = 8
REPLAY_LINKS_KEPT = 1000
#: The page may load only its own script and style, and talk only to this server.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
STATIC = {"page.js": "text/javascript", "page.css": "text/css", "lobby.js": "text/javascript",
          "close.js": "text/javascript", "join.js": "text/javascript"}


class Refused(Exception):
    """A request refused: its status and what is wrong (and facts a page shows, `said`)."""

    def __init__(self, status: int, message: str, said: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.said = status, message, said or {}


def _static(name: str) -> str:
    return resources.files("amunre.serve").joinpath("static", name).read_text(encoding="utf-8")


class Server:
    """The tables of a data folder, live."""

    def __init__(self, data: Path, max_tables: int = 100, max_bot_playouts: int = MAX_BOT_PLAYOUTS,
                 max_stored: int = MAX_STORED_TABLES):
        self.data = Path(data)
        self.store = Store(self.data)
        self.max_tables = max_tables
        self.max_bot_playouts = max_bot_playouts
        self.max_stored = max_stored
        self.opening = 0  # tables being opened now
        self.tables: dict[str, Table] = {}
        self.ready: dict[str, asyncio.Event] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.watchers: dict[str, set[asyncio.Event]] = {}
        self.live = 0  # live connections open now (those still to send their token too)
        self.pictures: OrderedDict[str, object] = OrderedDict()
        self.cache: OrderedDict[tuple[str, int | None], tuple[int, str]] = OrderedDict()
        self.replay_pages: OrderedDict[str, str] = OrderedDict()
        self.running: set[str] = set()
        self.tasks: set[asyncio.Task] = set()
        self.loading = threading.Lock()  # variants load one at a time (the loader keeps caches)
        self.offered = Offered(self.loading)  # what the lobby lists, kept while its files are unchanged
        # one-time replay keys, oldest first: key -> (table, until)
        self.replays: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self.building: dict[str, asyncio.Lock] = {}  # a table's replay page is built once

    # -- tables ------------------------------------------------------------------------------
    async def open_stored(self) -> None:
        """Rebuild every stored table, one after another in a worker thread (quick: its
        answers replayed; a page asked meanwhile is told to try again, 503); then bring the
        bots of the tables still played to where they stood (slow for `mcts`: their past
        answers are worked out again), those asked now first, and let them go on."""
        records = self.store.tables()
        for record in records:
            self.ready[record.id] = asyncio.Event()
            self.locks[record.id] = asyncio.Lock()
        self._spawn(self._rebuild_all(records))

    async def _rebuild_all(self, records) -> None:
        for record in records:
            try:
                table = await anyio.to_thread.run_sync(self._built, record)
            except Exception as exc:  # noqa: BLE001 - one table that cannot be rebuilt stops no other
                why = "its variant no longer loads" if isinstance(exc, AmunreError) else "it could not be rebuilt"
                self.tables[record.id] = _Broken(record, f"{why}: {self.shown(_first_line(exc))}")
                self.tables[record.id].closed = record.closed
            else:
                self.tables[record.id] = table
                costly = self.too_costly(record.seats)
                if record.closed:
                    table.close()
                elif costly is not None and table.failure is None:  # (opened under a higher limit: it waits for one)
                    table.failure = (f"{costly}: it goes on when the server is started with a higher "
                                     "--max-bot-playouts")
                self._spawn(self.run_bots(table))  # (a table whose bots must first be brought back waits)
            self.ready[record.id].set()
        waiting = [t for t in self.tables.values()
                   if isinstance(t, Table) and not t.bots_ready and t.pending is not None]  # (not a stopped one)
        waiting.sort(key=lambda t: t.bot_to_answer() is None)  # the tables waiting for a bot first
        for table in waiting:
            try:
                await anyio.to_thread.run_sync(table.restore_bots, self.store.answers(table.id)[:table.number])
            except Exception as exc:  # noqa: BLE001 - a bot's bug stops its table, not the others
                table.failure = f"its bots could not be set up again: {_first_line(repr(exc))}"
            table.version += 1
            self.changed(table)
            self._spawn(self.run_bots(table))

    def _load(self, vid: str):
        from amunre.loader import load_variant

        with self.loading:
            return load_variant(vid)

    def _built(self, record) -> Table:
        """The table of a record, its stored answers replayed (a new one has none)."""
        with self.loading:
            variant = thaw(record, self.data / "variants")
        table = Table(record, variant)
        table.rebuild(self.store.answers(record.id))
        return table

    def shown(self, text: str) -> str:
        """A message as pages show it: the server's folders by their names only (variant
        folders as the lobby names them, a stored table's files as `variants/<table>/...`
        under the data folder), never as paths on the server's disk."""
        for spelling in sorted({str(self.data), str(self.data.resolve())}, key=len, reverse=True):
            text = text.replace(spelling + "/", "")
        return shown_problems(text)

    def _spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def too_costly(self, seats: list[str]) -> str | None:
        """What makes a table's bots cost more than this server allows, or None: a bot that
        may play out more games per decision than --max-bot-playouts."""
        from amunre.agents import playouts_per_decision

        for seat, spec in enumerate(seats):
            if spec != HUMAN and not 0 <= (work := playouts_per_decision(spec)) <= self.max_bot_playouts:
                return (f"the bot {spec!r} of seat {seat + 1} may play out {work} games per decision (counted as "
                        f"greedy playouts), more than this server allows (--max-bot-playouts "
                        f"{self.max_bot_playouts})")
        return None

    def draw_seed(self) -> int:
        """The seed of a table whose creator chose none: drawn here (as `amunre run` draws
        one, `engine.new_seed`), and told to nobody."""
        from amunre.core.engine import new_seed

        return new_seed()

    async def create(self, spec: dict) -> tuple[Table, dict[str, int | None], dict[str, int], str]:
        """A new table, its tokens (token -> seat, None: the spectator's; the seat its
        creator takes, `sit`, if any), its invitations (token -> seat, every other human
        seat) and its creator's token, which closes it; or a 4xx refusal, and nothing kept."""
        from amunre.agents import check_agents_for, check_spec
        from amunre.core.engine import check_players, check_seed

        vid = spec.get("variant")
        if not isinstance(vid, str) or not vid:
            raise Refused(400, "variant: expected a variant id the lobby lists")
        if vid not in {entry["id"] for entry in await anyio.to_thread.run_sync(self.offered)}:
            raise Refused(404, f"variant: no variant {vid!r} here (expected one the lobby lists)")
        try:
            variant = await anyio.to_thread.run_sync(self._load, vid)  # (seconds on a busy machine: not on the loop)
        except AmunreError as exc:  # (its files named as the lobby names them, never by their path here)
            raise Refused(422, f"variant {vid!r} has problems: {shown_problems(str(exc))}") from None
        players, seats = spec.get("players"), spec.get("seats")
        try:
            check_players(variant, players)
        except AmunreError as exc:
            raise Refused(422, f"players: {exc}") from None
        if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
            raise Refused(422, f"seats: expected a list of {players} seat kinds (\"human\" or an agent such as "
                               "\"planner\", \"greedy\", \"mcts\", \"random\")")
        try:
            seats = [HUMAN if s.strip() == HUMAN else check_spec(s) for s in seats]
            check_agents_for([s for s in seats if s != HUMAN], variant)
        except AmunreError as exc:
            raise Refused(422, f"seats: {exc}") from None
        costly = self.too_costly(seats)
        if costly is not None:  # (refused, not cut down: the bot asked for is the bot the log names)
            raise Refused(422, f"seats: {costly}: ask for less")
        sit = spec.get("sit")
        if sit is not None and (type(sit) is not int or not 0 <= sit < players or seats[sit] != HUMAN):
            humans = [str(seat) for seat, kind in enumerate(seats) if kind == HUMAN]
            raise Refused(422, f"sit: {excerpt(sit, 40)} is not a human seat of this table (expected "
                               f"the number, from 0, of the human seat you take yourself: "
                               f"{' or '.join(humans) if humans else 'there is none'}; or leave it out)")
        seed = spec.get("seed")
        chosen = seed is not None
        people = sum(1 for s in seats if s == HUMAN)
        if chosen and (people > 1 or (people == 1 and sit is None)):
            # whoever chose the seed could play the game through at home and know every hand:
            # fair only where nobody else's cards are at stake (the bots' are)
            said = (f"this one has {people} people" if people > 1 else
                    "its one person's seat would be handed out as an invitation: sit at it yourself (sit)")
            raise Refused(422, f"seed: a seed may be chosen only for a table where nobody but you plays, as it tells "
                               f"every hidden card ({said}): leave it out, and the server draws one it tells nobody")
        if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 20:
            seed = int(seed)  # (a page's JavaScript holds whole numbers exactly only up to 2**53)
        if seed is None:
            seed = self.draw_seed()
        try:
            check_seed(seed)
        except AmunreError as exc:
            raise Refused(422, str(exc)) from None
        playing = self.playing()
        if playing >= self.max_tables:
            raise Refused(429, f"{plural(playing, 'table is', 'tables are')} being played here (or their bots are "
                               "finishing a thought), the most this server takes (--max-tables): finish one first, "
                               "or wait for one nobody plays (an hour)")
        self._make_room()
        with self.loading:
            variant_text, board_text = freeze(variant)
        self.opening += 1  # (counted from here: tables asked for at once cannot pass the limit together)
        record = TableRecord(secrets.token_hex(6), variant.id, variant_text, board_text, players, seed, seats,
                             time.time())
        # every human seat but the creator's own is an invitation: its seat's token is made
        # only when someone takes it, and given to him alone
        invitations = {secrets.token_urlsafe(24): seat for seat, kind in enumerate(seats)
                       if kind == HUMAN and seat != sit}
        tokens: dict[str, int | None] = {secrets.token_urlsafe(24): None}
        if sit is not None:
            tokens[secrets.token_urlsafe(24)] = sit
        closer = secrets.token_urlsafe(24)
        # built (and its bots made) before it is stored: a table that cannot start is never kept
        try:
            table = await anyio.to_thread.run_sync(self._built, record)  # (not stored yet: no answers)
            table.seed_chosen = chosen
            self.store.add_table(record, tokens, closer, invitations)
            self.tables[record.id] = table
        finally:
            self.opening -= 1
        self.ready[record.id] = asyncio.Event()
        self.ready[record.id].set()
        self.locks[record.id] = asyncio.Lock()
        self._spawn(self.run_bots(table))
        return table, tokens, invitations, closer

    def playing(self) -> int:
        """The tables that count against --max-tables: those being opened, those with a
        bot thinking (a closed table's too, until its thought ends: its thread still
        works), and those waiting for an answer that someone gave within IDLE_SECONDS."""
        now = time.monotonic()
        return self.opening + sum(1 for t in self.tables.values() if isinstance(t, Table) and (
            t.id in self.running or (t.pending is not None and now - t.changed_at < IDLE_SECONDS)))

    def _make_room(self) -> None:
        """Forget tables while the server keeps --max-stored-tables (with those being
        opened), so that what it keeps in memory and on the disk, and replays when it
        starts, stays bounded: the oldest finished, closed or stopped ones first, then those
        nobody has answered at for IDLE_SECONDS, the longest idle first (a table left so
        long is forgotten only when there is no room left; and no visitor can fill the
        store for good with tables nobody plays). A 429 when none may go: every table kept
        is being played (at most --max-tables of them) or is thinking."""
        kept = len(self.ready) + self.opening
        if kept < self.max_stored:
            return
        now = time.monotonic()
        free = [t for t in self.tables.values() if t.id not in self.running and self.ready[t.id].is_set()]
        over = sorted((t for t in free if t.closed or t.failure is not None or (isinstance(t, Table) and t.finished)),
                      key=lambda t: t.record.created)
        idle = sorted((t for t in free if isinstance(t, Table) and t.pending is not None
                       and now - t.changed_at >= IDLE_SECONDS), key=lambda t: t.changed_at)
        gone = (over + idle)[:kept - self.max_stored + 1]
        if len(gone) < kept - self.max_stored + 1:
            raise Refused(429, f"this server keeps at most {self.max_stored} tables (--max-stored-tables), and every "
                               "one of them is being played: try again once one is over, or nobody has answered at "
                               "one for an hour")
        for table in gone:
            self.forget(table.id)

    def forget(self, table_id: str) -> None:
        """Remove a table for good: from the disk first (its links open nothing any more),
        then from memory, with its kept variant files."""
        self.store.forget(table_id)
        for kept in (self.tables, self.ready, self.locks, self.watchers, self.pictures, self.replay_pages,
                     self.building):
            kept.pop(table_id, None)
        for key in [key for key in self.cache if key[0] == table_id]:
            del self.cache[key]
        shutil.rmtree(self.data / "variants" / table_id, ignore_errors=True)
        (self.data / "replays" / f"{table_id}.html.gz").unlink(missing_ok=True)

    def lock_of(self, table) -> asyncio.Lock:
        """The lock of a table still here, or a 404: a request may arrive for a table that was
        forgotten meanwhile (`_make_room`)."""
        lock = self.locks.get(table.id)
        if lock is None or self.tables.get(table.id) is not table:
            raise Refused(404, "the table of this token is not here any more (a table is forgotten, once over or "
                               "left for an hour, to make room: --max-stored-tables)")
        return lock

    async def claim(self, invitation) -> tuple[dict, str]:
        """Take the seat an invitation offers: ({table, seat, name}, the seat's new token,
        known only to this request's sender); or a 4xx refusal, nothing changed: a token that
        is no invitation, an invitation taken before (when, said), a closed table's."""
        if not isinstance(invitation, str) or not invitation:
            raise Refused(401, "no invitation: open the page from its link (the part after # is the invitation)")
        token = secrets.token_urlsafe(24)
        # (in a worker thread: a claim waits for the disk, not the event loop; the store makes
        # claims sent at once take the seat once)
        found = await anyio.to_thread.run_sync(self.store.claim, invitation, token) if len(invitation) < 200 else None
        if found is None:
            raise Refused(403, "this link is no invitation here (an invitation is the /join# link whoever opened "
                               "the table gives each person)")
        name = player_names(found.players)[found.seat]
        said = {"table": found.table_id, "seat": found.seat, "name": name}
        which = f"seat {found.seat + 1} ({name})"
        if not found.fresh and found.taken is not None:  # (said even where the table was closed since)
            when = time.strftime("%Y-%m-%d at %H:%M:%S UTC", time.gmtime(found.taken))
            raise Refused(409, f"this invitation was opened before: {which} was taken on {when}. An "
                               "invitation gives its seat once, to whoever opens it first. If that was not you "
                               "(in another browser, or from another device), someone else opened your invitation "
                               "and holds your seat: tell the others, and whoever opened the table"
                               + (" (the table is closed now)" if found.closed else ""),
                          dict(said, taken=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(found.taken))))
        if found.closed:
            raise Refused(409, f"this table was closed by whoever opened it: there is no seat to take "
                               f"(the invitation of {which} is left as it was)", said)
        return said, token

    async def seat_of(self, token) -> tuple[Table, int | None]:
        """The table and seat (None: spectator) a token opens, or a 401/403 refusal."""
        if not isinstance(token, str) or not token:
            raise Refused(401, "no token: open the page from its link (the part after # is the token)")
        found = self.store.find_token(token) if len(token) < 200 else None
        if found is None:
            if len(token) < 200 and self.store.find_invitation(token) is not None:  # (its seat is taken by opening it)
                raise Refused(403, "this token is an invitation, not a seat: open its link (/join#...) to take the "
                                   "seat, and the page gives that seat's own link")
            raise Refused(403, "this token opens no seat and no table here")
        table_id, seat = found
        return self._ready(table_id), seat

    def _ready(self, table_id: str):
        """A table a token names, or a 404/503 refusal (not here; not set up again yet)."""
        if table_id not in self.ready:
            raise Refused(404, "the table of this token is not here")
        if not self.ready[table_id].is_set():
            waiting = sum(1 for ready in self.ready.values() if not ready.is_set())
            raise Refused(503, f"the server has just started and is setting this table up again, its bots asked "
                               f"their past answers once more ({waiting} tables to go): try again in a moment")
        return self.tables[table_id]

    def closed_by(self, token):
        """The table a creator's token closes, or a 401/403 refusal (a seat's token closes none)."""
        if not isinstance(token, str) or not token:
            raise Refused(401, "no token: open the page from the link that closes the table (the part after # is "
                               "the token)")
        table_id = self.store.find_closer(token) if len(token) < 200 else None
        if table_id is None:
            raise Refused(403, "this token closes no table here (only the link given to whoever opened the table "
                               "does)")
        return self._ready(table_id)

    async def close(self, table) -> bool:
        """Close a table for good: marked so on the disk first, then stopped (nobody asked,
        its bots not again, its pages saying so; it no longer counts against --max-tables).
        Whether it was open; a finished game is a 409."""
        async with self.lock_of(table):
            if table.closed:
                return False
            if isinstance(table, Table) and table.finished:
                raise Refused(409, "the game is over already: there is nothing to close")
            self.store.close_table(table.id)
            if isinstance(table, Table):
                table.close()
            else:
                table.closed = True
        self.changed(table)
        return True

    def payload_text(self, table: Table, seat: int | None) -> str:
        key = (table.id, seat)
        cached = self.cache.get(key)
        if cached is not None and cached[0] == table.version:
            self.cache.move_to_end(key)
            return cached[1]
        picture = self.pictures.get(table.id)
        if picture is None:
            from amunre.picture.svg import BoardPicture

            picture = self.pictures[table.id] = BoardPicture(table.variant, table.names)
            _bounded(self.pictures, PICTURES_KEPT)
        self.pictures.move_to_end(table.id)
        text = json.dumps(seat_payload(table, seat, picture), ensure_ascii=False)
        self.cache[key] = (table.version, text)
        self.cache.move_to_end(key)
        _bounded(self.cache, PAYLOADS_KEPT)
        return text

    async def replay_page(self, table: Table) -> str:
        """The replay viewer page of a finished game: built once (a fraction of a CPU second,
        in a worker thread), the last few kept."""
        from amunre.picture.steps import log_steps
        from amunre.picture.viewer import viewer_html

        # (each table's page built once, by one request: others asking for it meanwhile wait for
        # that build; builds of different tables do not wait for each other)
        async with self.building.setdefault(table.id, asyncio.Lock()):
            page = self.replay_pages.get(table.id)
            if page is None:
                kept = self.data / "replays" / f"{table.id}.html.gz"
                if kept.is_file():
                    page = gzip.decompress(kept.read_bytes()).decode("utf-8")
                else:
                    lines = [json.loads(line) for line in table.log_text().splitlines()]
                    page = await anyio.to_thread.run_sync(lambda: viewer_html(log_steps(lines, "table",
                                                                                        table.variant)))
                    kept.parent.mkdir(exist_ok=True)
                    partial = kept.with_suffix(".partial")
                    partial.write_bytes(gzip.compress(page.encode("utf-8")))
                    os.replace(partial, kept)  # (whole or not at all)
                self.replay_pages[table.id] = page
                _bounded(self.replay_pages, REPLAYS_KEPT)
            self.replay_pages.move_to_end(table.id)
            return page

    def changed(self, table: Table) -> None:
        table.changed_at = time.monotonic()
        for event in self.watchers.get(table.id, ()):
            event.set()

    # -- answering ---------------------------------------------------------------------------------
    async def answer(self, table: Table, seat: int, number, option) -> None:
        if type(number) is not int or type(option) is not int:
            raise Refused(400, "expected {\"number\": the pending decision's number, \"option\": an option's index}")
        async with self.lock_of(table):
            request = table.pending
            asked = request is not None and request.player == seat
            if asked and not 0 <= option < len(request.options):
                raise Refused(422, f"option: {option} is no option's index (expected 0 to "
                                   f"{len(request.options) - 1})")
            try:
                chosen = table.check_answer(seat, number, request.options[option] if asked else None)
            except NotYourTurn as exc:
                raise Refused(409, str(exc)) from None
            except AmunreError as exc:
                raise Refused(422, str(exc)) from None
            reveals = table.reveals_hidden(seat, chosen)
            try:
                self.store.add_answer(table.id, table.number, seat, chosen, reveals)  # on the disk first
            except sqlite3.IntegrityError:
                raise Refused(409, "this decision was answered already (is another server using the same --data "
                                   "folder?)") from None
            table.apply(seat, chosen, reveals)
        self.changed(table)
        self._spawn(self.run_bots(table))

    async def undo(self, table: Table, seat: int, number) -> None:
        if type(number) is not int:
            raise Refused(400, "expected {\"number\": the pending decision's number}")
        async with self.lock_of(table):
            if number != table.number:
                raise Refused(409, f"decision {number} is not pending (decision {table.number} is: reload the page)")
            problem = table.undo_problem(seat)
            if problem is not None:
                raise Refused(409, f"cannot take back: {problem}")
            stored = self.store.answers(table.id)
            self.store.drop_last_answer(table.id, len(stored) - 1)
            table.rebuild(stored[:-1], bots=False)
        self.changed(table)

    async def run_bots(self, table: Table) -> None:
        """Let the bots answer while one is asked (one runner per table)."""
        if table.id in self.running or not table.bots_ready:
            return
        self.running.add(table.id)
        try:
            while (seat := table.bot_to_answer()) is not None:
                request, view = table.game.pending, table.game.view(seat)
                try:
                    choice = await _in_daemon_thread(table.agents[seat].choose, view, request)
                    if not _is_option(choice, request.options):  # checked as a person's is, before it is kept
                        raise IllegalAnswerError(f"it answered {_first_line(repr(choice))[:80]}, which is not one "
                                                 f"of the options of {request.kind!r}")
                except Exception as exc:  # noqa: BLE001 - a bot's bug stops its table, saying so, not the server
                    if table.closed:
                        return
                    said = str(exc) if isinstance(exc, IllegalAnswerError) else _first_line(repr(exc))
                    table.failure = f"the {table.seats[seat]} bot of {table.names[seat]} failed: {said}"
                    table.version += 1
                    self.changed(table)
                    return
                async with self.locks[table.id]:
                    if table.pending is not request:  # (closed meanwhile; an undo cannot happen while a bot is asked)
                        continue
                    self.store.add_answer(table.id, table.number, seat, choice, False)
                    table.apply(seat, choice, False)
                self.changed(table)
        finally:
            self.running.discard(table.id)


async def _in_daemon_thread(function, *args):
    """`function(*args)` in a thread of its own that never holds the process up when it
    stops (Ctrl-C while a bot thinks: its answer would be given again on the next start)."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def work():
        try:
            result = function(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting task
            # (bound to a name of its own: Python unbinds `exc` when the block ends, and the
            # callback runs after that, in the loop)
            # (a bot's sys.exit is its failure, as any exception: raised in the loop, it would
            # stop the server)
            error = exc if isinstance(exc, Exception) else RuntimeError(f"it raised {type(exc).__name__}: {exc}")
            hand = lambda: done.done() or done.set_exception(error)  # noqa: E731
        else:
            hand = lambda: done.done() or done.set_result(result)  # noqa: E731
        try:
            loop.call_soon_threadsafe(hand)
        except RuntimeError:  # the loop is closed (the server stopped while it thought): nobody waits
            pass

    threading.Thread(target=work, daemon=True, name="amunre-bot").start()
    return await done


def _bounded(kept: OrderedDict, most: int) -> None:
    """Drop the least recently used entries of `kept` beyond `most`."""
    while len(kept) > most:
        kept.popitem(last=False)


def _first_line(error) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__) + (f" (and {len(text) - 1} more lines)" if len(text) > 1 else "")


class _Broken:
    """A stored table that cannot be rebuilt: it says why on every page."""

    closed = False

    def __init__(self, record, failure: str):
        self.id, self.record, self.failure = record.id, record, failure


# -- HTTP -------------------------------------------------------------------------------------------
def _error(status: int, message: str, said: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message, **(said or {})}, status_code=status, headers={"Cache-Control": "no-store"})


async def read_json(request: Request, fields: tuple[str, ...]) -> dict:
    """The request's JSON object, at most `MAX_BODY` bytes, with no field but `fields`, or a
    4xx refusal. Only `application/json` from this server's own pages (or a program, which
    sends no Origin): a page of another site cannot make a browser send that without asking
    first (CORS), which this server never allows."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, f"expected Content-Type: application/json, not {kind or 'none'}")
    origin = request.headers.get("origin")
    if origin is not None and not _same_site(origin, request.headers.get("host", "")):
        raise Refused(403, "a request from a page of another site is refused")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(413, f"the request body is larger than {MAX_BODY} bytes")
    body = b""
    try:
        with anyio.fail_after(BODY_SECONDS):  # (a page sends its few bytes at once)
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise Refused(413, f"the request body is larger than {MAX_BODY} bytes")
    except TimeoutError:
        raise Refused(408, f"the request body did not arrive within {BODY_SECONDS} seconds") from None
    except ClientDisconnect:  # (nobody is left to tell: answered quietly, not a traceback in the log)
        raise Refused(400, "the request was cut off before its body arrived") from None
    try:
        data = strict_json(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "the request body is not JSON (expected a JSON object)") from None
    if not isinstance(data, dict):
        raise Refused(400, f"expected a JSON object, not {type(data).__name__}")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise Refused(400, f"unknown field(s) {', '.join(map(repr, unknown))} (expected {', '.join(fields)})")
    return data


def _same_site(origin: str, host: str) -> bool:
    """Whether a page at `origin` is one of this server's: its host and port are the ones the
    request names (`Host`, itself checked by `HostCheck`). Either scheme: behind a proxy that
    ends TLS, the page is https and the request reaches this server as http."""
    scheme, _, rest = origin.partition("://")
    return scheme in ("http", "https") and bool(host) and rest == host


def strict_json(text: str):
    """`text` read as JSON the way `amunre replay` reads a log: a key given twice in one
    object (Python would keep the last) and NaN or Infinity (not JSON) are refused, a 400
    naming them, rather than read one way here and another by whoever checks the request."""
    return json.loads(text, object_pairs_hook=_once_each, parse_constant=_no_constant)


def _once_each(pairs) -> dict:
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise Refused(400, f"the key {excerpt(key, 40)} is given twice (expected each key once)")
        seen[key] = value
    return seen


def _no_constant(name: str):
    raise Refused(400, f"{name} is not a JSON number (expected a finite number)")


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def _page(name: str) -> Response:
    return Response(_static(name), media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-store",
                             "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"})


def build_app(data: Path, max_tables: int = 100, max_bot_playouts: int = MAX_BOT_PLAYOUTS,
              hosts: AllowedHosts | None = None, max_stored: int = MAX_STORED_TABLES) -> Starlette:
    """The application of a data folder (its store opened and checked now: a folder that is
    not one, or that another server uses, is an AmunreError before anything is served).
    `hosts`: the names a request's `Host` may give (`amunre.serve.hosts`; the command always
    gives them; None, any: a test's client in this process)."""
    server = Server(data, max_tables, max_bot_playouts, max_stored)

    def guarded(handler):
        async def endpoint(request: Request):
            try:
                return await handler(request)
            except Refused as refused:
                return _error(refused.status, refused.message, refused.said)
        return endpoint

    async def seated(request: Request) -> tuple[Table, int | None]:
        table, seat = await server.seat_of(_token(request))
        if isinstance(table, _Broken):
            raise Refused(409, f"the table stopped: {table.failure}")
        return table, seat

    async def lobby(request):
        return _page("lobby.html")

    async def seat_page(request):
        return _page("seat.html")

    async def close_page(request):
        return _page("close.html")

    async def join_page(request):
        return _page("join.html")

    async def static(request):
        name = request.path_params["name"]
        if name not in STATIC:
            return _error(404, f"no file {name!r} here")
        return Response(_static(name), media_type=STATIC[name], headers={"X-Content-Type-Options": "nosniff"})

    async def variants(request):
        return JSONResponse(await anyio.to_thread.run_sync(server.offered))

    async def tables(request):
        spec = await read_json(request, ("variant", "players", "seats", "seed", "sit"))
        table, tokens, invitations, closer = await server.create(spec)
        base = str(request.base_url)
        # a human seat has an invitation to hand out, or (the creator's own, `sit`) its link
        seats = [{"seat": seat, "name": table.names[seat], "kind": kind,
                  "invitation": next((f"{base}join#{t}" for t, s in invitations.items() if s == seat), None),
                  "link": next((f"{base}seat#{t}" for t, s in tokens.items() if s == seat), None)}
                 for seat, kind in enumerate(table.seats)]
        spectator = next(f"{base}watch#{t}" for t, s in tokens.items() if s is None)
        opened = {"table": table.id, "seats": seats, "spectator": spectator, "close": f"{base}close#{closer}"}
        if table.seed_chosen:  # a seed drawn here is never told (it tells every hidden card)
            opened["seed"] = table.record.seed
        return JSONResponse(opened, status_code=201)

    async def claim(request):
        """Take the seat of the invitation whose token is sent: its own link, once."""
        invitation = _token(request)
        await read_json(request, ())  # (JSON from this server's own page only, as every POST)
        said, token = await server.claim(invitation)
        return JSONResponse(dict(said, link=f"{request.base_url}seat#{token}"), headers={"Cache-Control": "no-store"})

    async def state(request):
        table, seat = await seated(request)
        return Response(server.payload_text(table, seat), media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    async def answer(request):
        table, seat = await seated(request)
        if seat is None:
            raise Refused(403, "a spectator's link answers nothing")
        body = await read_json(request, ("number", "option"))
        await server.answer(table, seat, body.get("number"), body.get("option"))
        return JSONResponse({"ok": True, "version": table.version})

    async def undo(request):
        table, seat = await seated(request)
        if seat is None:
            raise Refused(403, "a spectator's link takes back nothing")
        body = await read_json(request, ("number",))
        await server.undo(table, seat, body.get("number"))
        return JSONResponse({"ok": True, "version": table.version})

    async def closing(request):
        """GET: the table the creator's token closes, as its page shows it; POST: close it."""
        table = server.closed_by(_token(request))
        if request.method == "POST":
            await read_json(request, ())  # (JSON from this server's own page only, as every POST)
            closed_now = await server.close(table)
        state = ("closed" if table.closed else "stopped" if table.failure is not None
                 else "over" if table.finished else "played")
        record = table.record
        said = {"table": table.id, "variant": record.variant_id, "players": record.players, "seats": record.seats,
                "state": state}
        if request.method == "POST":
            said["closed_now"] = closed_now
        return JSONResponse(said, headers={"Cache-Control": "no-store"})

    async def log(request):
        table, _ = await seated(request)
        if table.pending is not None or table.failure is not None:
            raise Refused(409, "the log is given once the game is over (it holds the seed, which tells every "
                               "hidden card)")
        return Response(table.log_text(), media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="amunre-{table.id}.jsonl"',
                                 "Cache-Control": "no-store"})

    async def replay_link(request):
        """A one-time address of the replay viewer (its page carries its own policy, so it
        is opened as a page of its own, not from the seat's page)."""
        table, _ = await seated(request)
        if table.pending is not None or table.failure is not None:
            raise Refused(409, "the replay is shown once the game is over")
        now = time.monotonic()
        replays = server.replays
        while replays and next(iter(replays.values()))[1] < now:  # (the oldest first: all last as long)
            replays.popitem(last=False)
        key = secrets.token_urlsafe(18)
        replays[key] = (table.id, now + REPLAY_LINK_SECONDS)
        _bounded(replays, REPLAY_LINKS_KEPT)
        return JSONResponse({"link": f"/replay/{key}"})

    async def replay(request):
        found = server.replays.pop(request.path_params["key"], None)
        if found is None or found[1] < time.monotonic() or found[0] not in server.tables:
            raise Refused(404, "no replay at this address (each is opened once, within a minute: ask the page again)")
        html = await server.replay_page(server.tables[found[0]])
        return Response(html, media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def live(websocket: WebSocket):
        await websocket.accept()
        if server.live >= MAX_LIVE:
            await websocket.close(code=4429, reason="the server has as many live connections as it takes")
            return
        server.live += 1
        try:
            await _live(websocket)
        finally:
            server.live -= 1

    async def _live(websocket: WebSocket):
        try:
            with anyio.fail_after(HELLO_TIMEOUT):
                message = await websocket.receive()
            hello = message.get("text")
            if message.get("type") == "websocket.disconnect":
                return
            token = strict_json(hello).get("token") if isinstance(hello, str) and len(hello) < 1000 else None
            if not isinstance(token, str):
                raise ValueError("no token")
            table, seat = await server.seat_of(token)
        except (TimeoutError, ValueError, AttributeError, RecursionError):
            await websocket.close(code=4400, reason="expected {\"token\": ...} first")
            return
        except Refused as refused:
            await websocket.close(code=4000 + refused.status, reason=refused.message[:120])
            return
        except WebSocketDisconnect:
            return
        if isinstance(table, _Broken):
            await websocket.close(code=4409, reason="the table stopped")
            return
        if len(server.watchers.get(table.id, ())) >= MAX_LIVE_PER_TABLE:
            await websocket.close(code=4429, reason="this table has as many live connections as it takes")
            return
        wake = asyncio.Event()
        server.watchers.setdefault(table.id, set()).add(wake)
        gone = asyncio.ensure_future(_until_closed(websocket))
        try:
            sent = None
            while not gone.done():
                if sent != table.version:
                    sent = table.version
                    await websocket.send_text(server.payload_text(table, seat))
                waiting = asyncio.ensure_future(wake.wait())
                await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                wake.clear()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            gone.cancel()
            server.watchers.get(table.id, set()).discard(wake)

    async def not_found(request, exc: HTTPException):
        return _error(exc.status_code, exc.detail if isinstance(exc.detail, str) else "refused")

    async def lifespan(app):
        await server.open_stored()
        try:
            yield
        finally:
            for task in list(server.tasks):
                task.cancel()
            server.store.close()

    from contextlib import asynccontextmanager

    app = Starlette(routes=[
        Route("/", lobby), Route("/seat", seat_page), Route("/watch", seat_page), Route("/close", close_page),
        Route("/join", join_page),
        Route("/static/{name}", static),
        Route("/api/variants", guarded(variants)),
        Route("/api/tables", guarded(tables), methods=["POST"]),
        Route("/api/claim", guarded(claim), methods=["POST"]),
        Route("/api/state", guarded(state)),
        Route("/api/answer", guarded(answer), methods=["POST"]),
        Route("/api/undo", guarded(undo), methods=["POST"]),
        Route("/api/close", guarded(closing), methods=["GET", "POST"]),
        Route("/api/log", guarded(log)),
        Route("/api/replay", guarded(replay_link), methods=["POST"]),
        Route("/replay/{key}", guarded(replay)),
        WebSocketRoute("/api/live", live),
    ], exception_handlers={HTTPException: not_found}, lifespan=asynccontextmanager(lifespan),
        middleware=[] if hosts is None else [Middleware(HostCheck, allowed=hosts)])
    app.state.server = server
    return app


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the page sends, text or bytes, until it goes."""
    try:
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
    except (WebSocketDisconnect, RuntimeError):
        return
