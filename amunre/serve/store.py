"""Where `amunre serve` keeps its tables: one SQLite file in the `--data` folder.

A table is its variant (a shipped id, or the resolved text of a house rule, so that editing
the file later changes no game under way), its player count, its seed, each seat's kind
(`human` or an agent spec) and its answers, in order: with those the game is replayed
exactly (`amunre.core.engine`). Every answer is committed (`synchronous=FULL`) before the server
acknowledges it, so a killed process loses nothing it said it had.

The tokens that open a seat or the spectator's page, the invitations to take a seat, and
the creator's own (his link: it shows the others again, gives an empty seat to a bot, closes
the table) are never stored: only their SHA-256 digests are, so the file alone opens no
seat, takes none and closes no table. (The links handed out when a table is opened are made
from the creator's token, `amunre.serve.links`: his link makes them again; the file cannot.)
A seat given to a bot is kept as the table's seats (`Store.give_to_bot`); the table's chat
as its last messages (`Store.add_chat`). A closed table is
kept, marked closed. A table is removed for good only to make room (`Store.forget`, when the
server keeps as many as `--max-stored-tables` and one more is opened).

An invitation (one per human seat the creator hands out) is not a seat: taking it
(`Store.claim`) marks it taken, with the time, and keeps the digest of a new seat token in
the same transaction, so that an invitation gives its seat once, to whoever opened it first,
and whoever opens it again can be told when it was taken. Stores made before invitations
(their seats' digests in `tokens`) work as they were: their seats' links open their seats.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

from amunre.core.decisions import to_json_value
from amunre.core.errors import AmunreError
from amunre.core.words import literal

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    variant_id TEXT NOT NULL,
    variant_text TEXT,          -- the resolved house rule; NULL for a shipped variant
    board_text TEXT,            -- its board file, where it is not a shipped one
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL          -- JSON: per seat, "human" or an agent spec
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,     -- SHA-256 of the token, never the token
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER                 -- NULL: the spectator's token
);
CREATE TABLE IF NOT EXISTS invitations (
    digest TEXT PRIMARY KEY,     -- SHA-256 of the invitation's token, never the token
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    taken REAL                   -- when it was taken (its seat's token then kept in tokens); NULL: not yet
);
CREATE TABLE IF NOT EXISTS closers (
    digest TEXT PRIMARY KEY,     -- SHA-256 of the creator's token (it closes the table), never the token
    table_id TEXT NOT NULL REFERENCES tables(id)
);
CREATE TABLE IF NOT EXISTS closed (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    at REAL NOT NULL             -- when its creator closed it
);
CREATE TABLE IF NOT EXISTS activity (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    at REAL NOT NULL             -- when someone last answered or took back at it
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,     -- counts the table's messages from 0 (the oldest beyond the last kept dropped)
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,          -- what the seat typed, as it was kept (text only, never HTML)
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS answers (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    answer TEXT NOT NULL,        -- JSON, as a log holds it
    reveals INTEGER NOT NULL,    -- 1: it showed its seat something hidden (no undo)
    PRIMARY KEY (table_id, number)
);
"""


#: The columns of each table of a store, in order, as `SCHEMA` makes them.
_COLUMNS = {"tables": ["id", "created", "variant_id", "variant_text", "board_text", "players", "seed", "seats"],
            "tokens": ["digest", "table_id", "seat"], "answers": ["table_id", "number", "seat", "answer", "reveals"],
            "closers": ["digest", "table_id"], "closed": ["table_id", "at"],
            "invitations": ["digest", "table_id", "seat", "taken"], "activity": ["table_id", "at"],
            "chat": ["table_id", "number", "seat", "text"]}


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TableRecord:
    """One stored table (what `Store.tables` reads back)."""

    def __init__(self, table_id: str, variant_id: str, variant_text: str | None, board_text: str | None,
                 players: int, seed: int, seats: list[str], created: float, closed: bool = False,
                 active: float | None = None):
        self.id, self.variant_id, self.variant_text, self.board_text = table_id, variant_id, variant_text, board_text
        self.players, self.seed, self.seats, self.created = players, seed, seats, created
        self.closed = closed  # (its creator closed it)
        self.active = created if active is None else active  # when someone last answered (or took back) at it


class Claim:
    """What opening an invitation did (`Store.claim`): `taken` says when its seat was taken,
    now (`fresh`) or before; a closed table's invitation takes nothing (`closed`)."""

    def __init__(self, table_id: str, seat: int, players: int, taken: float | None, fresh: bool, closed: bool,
                 bot: str | None = None):
        self.table_id, self.seat, self.players = table_id, seat, players
        self.taken, self.fresh, self.closed = taken, fresh, closed
        self.bot = bot  # (the bot its creator gave the seat to before anyone took it: nothing taken)


class Store:
    """The SQLite file of a data folder. One connection, used under a lock (the server's
    event loop and its bot threads both write)."""

    FILE = "tables.sqlite"
    LOCK = "serving.lock"

    def __init__(self, folder: Path):
        folder = Path(folder)
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # it holds the seeds: its owner's only
            self._held = open(folder / self.LOCK, "a")
        except OSError as exc:
            raise AmunreError(f"--data {literal(str(folder))}: cannot use it as a data folder "
                              f"({exc.strerror or exc})") from None
        try:  # one server per folder: a second would not see the first one's tables
            fcntl.flock(self._held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._held.close()
            raise AmunreError(f"--data {literal(str(folder))}: another amunre serve is using this folder "
                              "(stop it, or give another --data)") from None
        self.path = folder / self.FILE
        self._lock = threading.Lock()
        try:
            self.path.touch(mode=0o600, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            foreign = self._foreign()
            if foreign:  # (checked before anything is written: another program's file is left as it was)
                raise ValueError(foreign)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # committed means on the disk
            self._db.executescript(SCHEMA)
            self.tables()  # what is there reads as tables of this program
        except (sqlite3.DatabaseError, ValueError, TypeError, OSError) as exc:
            self._held.close()
            raise AmunreError(f"--data {literal(str(folder))}: {self.FILE} is not a table store of amunre serve "
                              f"({exc}): give another --data folder") from None

    def _foreign(self) -> str | None:
        """What makes the file another program's (a table of another name or shape), or None
        for an empty file or a store of this one."""
        found = [row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for name in found:
            if name not in _COLUMNS:
                return f"it holds a table {name!r}"
            columns = [row[1] for row in self._db.execute(f"PRAGMA table_info({name})")]
            if columns != _COLUMNS[name]:
                return f"its table {name!r} has the columns {', '.join(columns)}"
        return None

    def close(self) -> None:
        with self._lock:
            self._db.close()
            self._held.close()  # (the lock goes with it)

    def add_table(self, record: TableRecord, tokens: dict[str, int | None], closer: str | None = None,
                  invitations: dict[str, int] | None = None) -> None:
        """A new table, its tokens (token -> seat, None for the spectator), its creator's
        token (his own link: it shows the others again, gives an empty seat to a bot, closes the
        table) and its invitations (token -> seat), in one transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (record.id, record.created or time.time(), record.variant_id, record.variant_text,
                              record.board_text, record.players, record.seed, json.dumps(record.seats)))
            self._db.executemany("INSERT INTO tokens VALUES (?, ?, ?)",
                                 [(digest(token), record.id, seat) for token, seat in tokens.items()])
            if closer is not None:
                self._db.execute("INSERT INTO closers VALUES (?, ?)", (digest(closer), record.id))
            self._db.executemany("INSERT INTO invitations VALUES (?, ?, ?, NULL)",
                                 [(digest(token), record.id, seat) for token, seat in (invitations or {}).items()])

    def tables(self) -> list[TableRecord]:
        with self._lock:
            rows = self._db.execute("SELECT id, variant_id, variant_text, board_text, players, seed, seats, created, "
                                    "closed.at IS NOT NULL, activity.at FROM tables LEFT JOIN closed ON "
                                    "closed.table_id = id LEFT JOIN activity ON activity.table_id = id "
                                    "ORDER BY created").fetchall()
        return [TableRecord(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], bool(r[8]), r[9])
                for r in rows]

    def find_token(self, token: str) -> tuple[str, int | None] | None:
        """(table id, seat or None for the spectator) that a token opens, or None."""
        with self._lock:
            row = self._db.execute("SELECT table_id, seat FROM tokens WHERE digest = ?", (digest(token),)).fetchone()
        return None if row is None else (row[0], row[1])

    def claim(self, invitation: str, seat_token: str) -> Claim | None:
        """Take the seat an invitation offers: marked taken and `seat_token` kept as its seat's
        token, in one transaction, on the disk when this returns; or, where it was taken
        before (or its table is closed), nothing changed and when it was taken said. None: no
        invitation of that token. Once only, however many ask at once: the row is taken only
        where it is not yet (and the lock makes the others wait until it is)."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute("SELECT invitations.table_id, seat, taken, players, closed.at IS NOT NULL, seats "
                                   "FROM invitations JOIN tables ON tables.id = invitations.table_id "
                                   "LEFT JOIN closed ON closed.table_id = invitations.table_id WHERE digest = ?",
                                   (digest(invitation),)).fetchone()
            if row is None:
                return None
            table_id, seat, taken, players, closed, seats = row
            kind = json.loads(seats)[seat]
            if taken is not None or closed or kind != "human":
                return Claim(table_id, seat, players, taken, False, bool(closed), None if kind == "human" else kind)
            now = time.time()
            changed = self._db.execute("UPDATE invitations SET taken = ? WHERE digest = ? AND taken IS NULL",
                                       (now, digest(invitation))).rowcount
            if changed != 1:  # (cannot happen under the lock; were it to, the seat is not given twice)
                raise sqlite3.IntegrityError("the invitation was taken meanwhile")
            self._db.execute("INSERT INTO tokens VALUES (?, ?, ?)", (digest(seat_token), table_id, seat))
            return Claim(table_id, seat, players, now, True, False)

    def find_invitation(self, token: str) -> tuple[str, int, float | None] | None:
        """(table id, seat, when it was taken or None) of an invitation, or None."""
        with self._lock:
            row = self._db.execute("SELECT table_id, seat, taken FROM invitations WHERE digest = ?",
                                   (digest(token),)).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def find_closer(self, token: str) -> str | None:
        """The table a creator's token closes, or None (a seat's token closes none)."""
        with self._lock:
            row = self._db.execute("SELECT table_id FROM closers WHERE digest = ?", (digest(token),)).fetchone()
        return None if row is None else row[0]

    def links_of(self, table_id: str) -> tuple[dict[str, int | None], dict[str, tuple[int, float | None]]]:
        """What is kept of a table's links: its tokens' digests (-> seat, None: the
        spectator's) and its invitations' (-> (seat, when taken or None))."""
        with self._lock:
            tokens = self._db.execute("SELECT digest, seat FROM tokens WHERE table_id = ?", (table_id,)).fetchall()
            invited = self._db.execute("SELECT digest, seat, taken FROM invitations WHERE table_id = ?",
                                       (table_id,)).fetchall()
        return dict(tokens), {row[0]: (row[1], row[2]) for row in invited}

    def give_to_bot(self, table_id: str, seat: int, kind: str) -> list[str] | None:
        """Make human `seat` of a table the bot `kind`, where nobody sits there yet (no seat
        token; its invitation, if any, not taken): the table's seats as they are now (on the
        disk when this returns), or None and nothing changed. Under the same lock as
        `claim`: an invitation taken at the same moment either takes the seat first (then
        this changes nothing) or finds it a bot's (and takes nothing)."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute("SELECT seats FROM tables WHERE id = ?", (table_id,)).fetchone()
            seated = self._db.execute("SELECT 1 FROM tokens WHERE table_id = ? AND seat = ?",
                                      (table_id, seat)).fetchone()
            seats = None if row is None else json.loads(row[0])
            if seats is None or seated is not None or seats[seat] != "human":
                return None
            seats[seat] = kind
            self._db.execute("UPDATE tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))
            return seats

    def chat(self, table_id: str) -> list[tuple[int, int, str]]:
        """(number, seat, text) of each message kept of a table, the oldest first."""
        with self._lock:
            return [tuple(row) for row in self._db.execute(
                "SELECT number, seat, text FROM chat WHERE table_id = ? ORDER BY number", (table_id,)).fetchall()]

    def add_chat(self, table_id: str, seat: int, text: str, kept: int) -> int:
        """Keep a message of `seat` (on the disk when this returns), and only the `kept`
        newest of the table; its number."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            last = self._db.execute("SELECT MAX(number) FROM chat WHERE table_id = ?", (table_id,)).fetchone()[0]
            number = 0 if last is None else last + 1
            self._db.execute("INSERT INTO chat VALUES (?, ?, ?, ?)", (table_id, number, seat, text))
            self._db.execute("DELETE FROM chat WHERE table_id = ? AND number <= ?", (table_id, number - kept))
            return number

    def close_table(self, table_id: str) -> None:
        """Mark a table closed (on the disk when this returns; again: nothing changes)."""
        with self._lock, self._db:
            self._db.execute("INSERT OR IGNORE INTO closed VALUES (?, ?)", (table_id, time.time()))

    def forget(self, table_id: str) -> None:
        """Remove a table and everything kept of it (its answers, tokens, invitations,
        creator's token, chat), in one transaction: its links open nothing any more."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            for name in ("answers", "tokens", "invitations", "closers", "closed", "activity", "chat"):
                self._db.execute(f"DELETE FROM {name} WHERE table_id = ?", (table_id,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def answers(self, table_id: str) -> list[tuple[int, object, bool]]:
        """(seat, answer as JSON reads it, reveals) of every answer of a table, in order."""
        with self._lock:
            rows = self._db.execute("SELECT seat, answer, reveals FROM answers WHERE table_id = ? ORDER BY number",
                                    (table_id,)).fetchall()
        return [(seat, json.loads(answer), bool(reveals)) for seat, answer, reveals in rows]

    def numbered_answers(self, table_id: str) -> list[tuple[int, int, object, bool]]:
        """(number, seat, answer as JSON reads it, reveals) of every answer of a table, in
        order: the sealed answers of a secret batch under way may leave gaps (each is kept
        under the number its seat's place in the batch gives it)."""
        with self._lock:
            rows = self._db.execute("SELECT number, seat, answer, reveals FROM answers WHERE table_id = ? "
                                    "ORDER BY number", (table_id,)).fetchall()
        return [(number, seat, json.loads(answer), bool(reveals)) for number, seat, answer, reveals in rows]

    def add_answer(self, table_id: str, number: int, seat: int, answer, reveals: bool) -> None:
        """Keep answer `number` (from 0) of a table: on the disk when this returns."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO answers VALUES (?, ?, ?, ?, ?)",
                             (table_id, number, seat, json.dumps(to_json_value(answer)), int(reveals)))
            self._db.execute("INSERT OR REPLACE INTO activity VALUES (?, ?)", (table_id, time.time()))

    def drop_last_answer(self, table_id: str, number: int) -> None:
        """Take back answer `number`: the table's last, or a sealed answer of the secret batch
        under way (an undo)."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM answers WHERE table_id = ? AND number = ?", (table_id, number))
            self._db.execute("INSERT OR REPLACE INTO activity VALUES (?, ?)", (table_id, time.time()))
