"""What one HTTP connection may hold of `amunre serve`: a bounded number of them, none for long
without a request.

uvicorn times a connection out only between requests (`timeout_keep_alive`): one that never
finishes sending its request's headers, or its body, is held for as long as the other end
keeps it open, and enough of them use up the process's file descriptors, after which nobody
is served (a "slowloris"). `GuardedH11` is uvicorn's h11 protocol with two bounds of its own:

- at most `most_connections()` at once (HTTP and WebSocket): one more is closed as it is
  accepted, so that the server keeps descriptors for its store and its pages;
- a connection that has been waiting for a request's headers or body (h11's `IDLE` or
  `SEND_BODY` on the client's side) through two checks `CHECK_SECONDS` apart, no new request
  begun in between, is closed: a person's browser sends a request in one go.

A WebSocket upgrade request that carries a body is refused (400: a browser's never does, and
uvicorn's websockets handler would neither answer nor close it). An upgraded connection is
another protocol object (uvicorn's), still checked until its opening handshake is complete
(else closed like a request that never ends), then bounded by the app's own limits
(`amunre.serve.app`: its hello within 10 s, 64 a table, 1000 in all). A server open to the
internet still belongs behind a reverse proxy (docs/serve.md), which bounds slow clients
before they reach it.
"""

from __future__ import annotations

import resource

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds between two checks of a connection: one waiting for its request through two checks
#: in a row (10 to 20 s) is closed.
CHECK_SECONDS = 10.0
#: File descriptors kept for everything but connections: the store, the variant files, the
#: pages read from the package, the worker threads' files.
RESERVED_FILES = 128


def most_connections() -> int:
    """How many connections the server takes at once: as many as the process may open files,
    less those kept for the rest (and at least 32). The soft limit is raised to the hard one
    first, where the hard one allows it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 65_536) if hard != resource.RLIM_INFINITY else 65_536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    soft = 65_536 if soft == resource.RLIM_INFINITY else soft
    return max(32, soft - RESERVED_FILES)


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol, bounded: see the module's docstring."""

    #: Set by `amunre serve` before it serves (`most_connections`).
    most = 1024

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.most:
            transport.close()  # (uvicorn's connection_lost forgets it)
            return
        self._begun = self._seen = 0  # requests whose headers arrived; as many at the last check
        self._check = self.loop.call_later(CHECK_SECONDS, self._waited)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:
            self._begun += 1

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        if any(name.lower() in (b"content-length", b"transfer-encoding") and value.strip() != b"0"
               for name, value in event.headers):
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            self.transport.close()
            return
        super().handle_websocket_upgrade(event)

    def _waited(self) -> None:
        transport = self.transport
        if transport.is_closing():
            return
        upgraded = transport.get_protocol()
        if upgraded is not self:  # a WebSocket: checked until its opening handshake is done
            if _handshake_done(upgraded):
                return
            if self._seen == -1:
                transport.close()
                return
            self._seen = -1
            self._check = self.loop.call_later(CHECK_SECONDS, self._waited)
            return
        waiting = self.conn.their_state in (h11.IDLE, h11.SEND_BODY)
        if waiting and self._begun == self._seen:
            transport.close()  # (no response can be owed: no request of it is whole)
            return
        self._seen = self._begun
        self._check = self.loop.call_later(CHECK_SECONDS, self._waited)

    def connection_lost(self, exc) -> None:  # (only until an upgrade: the WebSocket's protocol has its own)
        check = getattr(self, "_check", None)
        if check is not None:
            check.cancel()
        super().connection_lost(exc)


def _handshake_done(protocol) -> bool:
    """Whether an upgraded connection's WebSocket opening handshake is complete (uvicorn's
    websockets-sansio and wsproto protocols say so in `handshake_complete`, its legacy
    websockets one in `handshake_completed_event`); a protocol that says neither, yes."""
    done = getattr(protocol, "handshake_complete", None)
    if done is None:
        event = getattr(protocol, "handshake_completed_event", None)
        done = event.is_set() if event is not None else True
    return bool(done)
