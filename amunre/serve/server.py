"""The tables of `amunre serve`, live (`Server`): opening them (within --max-tables and
--max-stored-tables), claiming invitations, answering and taking back, the bots answering in
threads of their own, what the creator's link may do (show the links again, give an empty
seat to a bot, close the table), the chat, forgetting tables to make room, and the page data
and replay pages they are shown by (`amunre.serve.app` routes the requests to it)."""

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
from pathlib import Path

import anyio

from amunre.core.counting import plural
from amunre.core.decisions import is_option
from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.core.kept import keep_most_recent
from amunre.core.words import player_names
from amunre.gamelog.messages import excerpt
from amunre.serve import MAX_BOT_PLAYOUTS, MAX_STORED_TABLES
from amunre.serve.chat import MESSAGES_KEPT, Rate, cleaned, messages
from amunre.serve.links import invitation_role, made_link, seat_role, spectator_role
from amunre.serve.requests import Refused
from amunre.serve.seatpage import seat_payload
from amunre.serve.store import Store, TableRecord, digest
from amunre.serve.table import HUMAN, NotYourTurn, Table
from amunre.serve.variants import Offered, freeze, shown_problems, thaw

#: A table nobody has answered at for this long no longer counts against --max-tables.
IDLE_SECONDS = 3600
#: Page data kept ready (table, seat) and board pictures kept, the most recently used.
PAYLOADS_KEPT = 2000
PICTURES_KEPT = 200
#: Replay pages of finished games kept ready in memory (each is built once, a fraction of a
#: CPU second, and kept compressed on the disk with its table).
REPLAYS_KEPT = 8


class Server:
    """The tables of a data folder, live."""

    def __init__(self, data: Path, max_tables: int = 100, max_bot_playouts: int = MAX_BOT_PLAYOUTS,
                 max_stored: int = MAX_STORED_TABLES, chat: bool = True):
        self.data = Path(data)
        self.chat_on = chat  # (off: `amunre serve --no-chat`)
        self.rate = Rate()
        self.chat_versions: dict[str, int] = {}  # a table's chat changes counted (the live pages are sent it)
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
                # (what stands now, taken here: people may answer while the bots are brought back)
                await anyio.to_thread.run_sync(table.restore_bots, self.store.answers(table.id)[:table.number],
                                               dict(table.held))
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
        given: list[tuple[int, object, bool]] = []
        sealed: dict[int, tuple[int, object]] = {}  # (the answers of a secret batch under way, past a gap)
        for number, seat, answer, reveals in self.store.numbered_answers(record.id):
            if number == len(given) and not sealed:
                given.append((seat, answer, reveals))
            else:
                sealed[number] = (seat, answer)
        table.rebuild(given, sealed=sealed)
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
        # the creator's own token; the links he is given are made from it (so that his link
        # shows them again: `amunre.serve.links`)
        closer = secrets.token_urlsafe(24)
        # every human seat but the creator's own is an invitation: its seat's token is made
        # only when someone takes it, and given to him alone
        invitations = {made_link(closer, record.id, invitation_role(seat)): seat for seat, kind in enumerate(seats)
                       if kind == HUMAN and seat != sit}
        tokens: dict[str, int | None] = {made_link(closer, record.id, spectator_role()): None}
        if sit is not None:
            tokens[made_link(closer, record.id, seat_role(sit))] = sit
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
                     self.building, self.chat_versions):
            kept.pop(table_id, None)
        self.rate.forget(table_id)
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
        if found.bot is not None:
            raise Refused(409, f"whoever opened the table gave {which} to a bot ({found.bot}) before anyone took it: "
                               "there is no seat to take (ask them for another table)", said)
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

    def created_by(self, token):
        """The table whose creator's token this is, or a 401/403 refusal (a seat's token, an
        invitation, the spectator's, are none: they close no table)."""
        if not isinstance(token, str) or not token:
            raise Refused(401, "no token: open the page from the creator's link of the table (the part after # is "
                               "the token)")
        table_id = self.store.find_closer(token) if len(token) < 200 else None
        if table_id is None:
            raise Refused(403, "this token is no table's creator's link here: it closes no table and gives no seat "
                               "(only the link given to whoever opened the table does)")
        return self._ready(table_id)

    closed_by = created_by  # (the name the closing link had)

    def links_again(self, table, creator: str, base: str) -> dict:
        """What the creator's link shows of a table's links: each seat's (a bot's; an
        invitation not yet taken, to hand out again; one taken, and when, but never the token
        its taker was given; the creator's own seat's link) and the spectator's. Links made
        before they were made from the creator's token (an older server) are said to be
        unknown."""
        tokens, invited = self.store.links_of(table.id)
        seats = []
        for seat, kind in enumerate(table.record.seats if isinstance(table, _Broken) else table.seats):
            entry = {"seat": seat, "name": player_names(table.record.players)[seat], "kind": kind}
            own, offered = made_link(creator, table.id, seat_role(seat)), made_link(creator, table.id,
                                                                                    invitation_role(seat))
            invitation = invited.get(digest(offered))
            if kind != HUMAN:
                entry["state"] = "bot"
            elif tokens.get(digest(own), -1) == seat:
                entry.update(state="yours", link=f"{base}seat#{own}")
            elif invitation is not None and invitation[1] is None:
                entry.update(state="invited", invitation=f"{base}join#{offered}")
            elif invitation is not None:
                entry.update(state="taken", taken=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(invitation[1])))
            else:
                entry["state"] = "taken" if seat in tokens.values() else "unknown"
            seats.append(entry)
        spectator = made_link(creator, table.id, spectator_role())
        return {"seats": seats,
                "spectator": f"{base}watch#{spectator}" if digest(spectator) in tokens else None}

    async def give_to_bot(self, table, seat, kind) -> None:
        """Give an empty human seat (nobody has taken it) to the bot `kind`: kept, then its
        bot made and asked when its turn comes. A 4xx refusal and nothing changed otherwise:
        a seat that is no number of this table's, a bot the table cannot take, a seat a person
        took (or a bot's), a table no longer played."""
        from amunre.agents import check_agents_for, check_spec

        if type(seat) is not int or not isinstance(kind, str):
            raise Refused(400, "expected {\"seat\": a seat's number, from 0, \"bot\": an agent such as \"planner\"}")
        if not 0 <= seat < table.record.players:
            raise Refused(422, f"seat: {seat} is no seat of this table (expected 0 to {table.record.players - 1})")
        if isinstance(table, _Broken) or table.closed or table.failure is not None:
            raise Refused(409, "the table is closed or stopped: its seats no longer change")
        if table.finished:
            raise Refused(409, "the game is over already: its seats no longer change")
        try:
            kind = check_spec(kind.strip())
            check_agents_for([kind], table.variant)
        except AmunreError as exc:
            raise Refused(422, f"bot: {exc}") from None
        if kind == HUMAN:
            raise Refused(422, "bot: expected an agent such as \"planner\", \"greedy\", \"mcts\", \"random\"")
        costly = self.too_costly([*table.seats[:seat], kind, *table.seats[seat + 1:]])
        if costly is not None:
            raise Refused(422, f"bot: {costly}: ask for less")
        async with self.lock_of(table):
            if table.seats[seat] != HUMAN:
                raise Refused(409, f"seat {seat + 1} ({table.names[seat]}) is a bot's already ({table.seats[seat]})")
            seats = await anyio.to_thread.run_sync(self.store.give_to_bot, table.id, seat, kind)
            if seats is None:
                raise Refused(409, f"seat {seat + 1} ({table.names[seat]}) was taken by a person: it is theirs")
            table.give_to_bot(seat, kind, seats)
        self.changed(table)
        self._spawn(self.run_bots(table))

    # -- the chat ----------------------------------------------------------------------------------
    def chat_of(self, table) -> list[dict]:
        """The table's kept messages, the oldest first (a 404 where the chat is off)."""
        self._chat_is_on()
        return messages(self.store.chat(table.id), table.record.players)

    async def say(self, table, seat: int, text) -> None:
        """Keep a message of a seat: within its size and rate, then on the disk, then sent to
        every live page of the table; or a 4xx refusal and nothing kept."""
        self._chat_is_on()
        text = cleaned(text)
        if table.closed:
            raise Refused(409, "this table was closed by whoever opened it: its chat is closed too")
        async with self.lock_of(table):
            self.rate.take(table.id, seat)
            await anyio.to_thread.run_sync(self.store.add_chat, table.id, seat, text, MESSAGES_KEPT)
            self.chat_versions[table.id] = self.chat_versions.get(table.id, 0) + 1
        for event in self.watchers.get(table.id, ()):  # (what players say is no answer: the table stays as idle)
            event.set()

    def _chat_is_on(self) -> None:
        if not self.chat_on:
            raise Refused(404, "the chat is off on this server (it was started with --no-chat)")

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
            keep_most_recent(self.pictures, PICTURES_KEPT)
        self.pictures.move_to_end(table.id)
        text = json.dumps(seat_payload(table, seat, picture), ensure_ascii=False)
        self.cache[key] = (table.version, text)
        self.cache.move_to_end(key)
        keep_most_recent(self.cache, PAYLOADS_KEPT)
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
                keep_most_recent(self.replay_pages, REPLAYS_KEPT)
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
            request = None if table.pending is None else table.request_of(seat)
            asked = request is not None
            if asked and not 0 <= option < len(request.options):
                raise Refused(422, f"option: {option} is no option's index (expected 0 to "
                                   f"{len(request.options) - 1})")
            try:
                chosen = table.check_answer(seat, number, request.options[option] if asked else None)
            except NotYourTurn as exc:
                raise Refused(409, str(exc)) from None
            except AmunreError as exc:
                raise Refused(422, str(exc)) from None
            # (a secret batch's answers are revealed together: none of them is taken back once they are)
            reveals = True if table.batch() else table.reveals_hidden(seat, chosen)
            try:  # on the disk first (a sealed one under its place in the batch)
                self.store.add_answer(table.id, table.number_of(seat), seat, chosen, reveals)
            except sqlite3.IntegrityError:
                raise Refused(409, "this decision was answered already (is another server using the same --data "
                                   "folder?)") from None
            table.give(seat, chosen, reveals)
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
            if seat in table.held:  # a sealed answer of the batch under way: nobody saw it
                self.store.drop_last_answer(table.id, table.number_of(seat))
                table.take_back_sealed(seat)
                table.note_taken_back(seat)
                self.changed(table)
                self._spawn(self.run_bots(table))
                return
            stored = self.store.answers(table.id)
            self.store.drop_last_answer(table.id, len(stored) - 1)
            table.rebuild(stored[:-1], bots=False)
            table.note_taken_back(seat)
        self.changed(table)

    async def run_bots(self, table: Table) -> None:
        """Let the bots answer while one is asked (one runner per table): the bots of a
        secret batch all at once, each in a thread of its own, without waiting for the
        people of the batch."""
        if table.id in self.running or not table.bots_ready:
            return
        self.running.add(table.id)
        try:
            while asks := table.bots_asked():
                choices = await asyncio.gather(*(_bot_choice(table, ask) for ask in asks), return_exceptions=True)
                for ask, choice in zip(asks, choices):
                    if isinstance(choice, BaseException):  # a bot's bug stops its table, saying so, not the server
                        if table.closed:
                            return
                        said = str(choice) if isinstance(choice, IllegalAnswerError) else _first_line(repr(choice))
                        table.failure = f"the {table.seats[ask.seat]} bot of {table.names[ask.seat]} failed: {said}"
                        table.version += 1
                        self.changed(table)
                        return
                async with self.locks[table.id]:
                    for ask, choice in zip(asks, choices):
                        # (closed meanwhile; an undo cannot happen while a bot is asked, but a person's
                        # sealed answer taken back leaves the bots' requests as they were)
                        if table.request_of(ask.seat) is not ask.request:
                            continue
                        secret = bool(table.batch())  # (revealed with its batch: never taken back)
                        self.store.add_answer(table.id, table.number_of(ask.seat), ask.seat, choice, secret)
                        table.give(ask.seat, choice, secret)
                self.changed(table)
        finally:
            self.running.discard(table.id)


async def _bot_choice(table: Table, ask):
    """A bot's answer to its decision (its view: where the engine asks it), checked as a
    person's is before it is kept; or the exception that says why there is none."""
    choice = await _in_daemon_thread(table.agents[ask.seat].choose, ask.view(), ask.request)
    if not is_option(choice, ask.request.options):
        raise IllegalAnswerError(f"it answered {_first_line(repr(choice))[:80]}, which is not one "
                                 f"of the options of {ask.request.kind!r}")
    return choice


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


def _first_line(error) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__) + (f" (and {len(text) - 1} more lines)" if len(text) > 1 else "")


class _Broken:
    """A stored table that cannot be rebuilt: it says why on every page."""

    closed = False

    def __init__(self, record, failure: str):
        self.id, self.record, self.failure = record.id, record, failure
