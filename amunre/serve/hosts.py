"""The names `amunre serve` answers to: every request's `Host` header is checked.

A page of another site can reach a server on this machine or this network by DNS
rebinding: its own name (`evil.example`) made to point, after the page is loaded, at
127.0.0.1 or at the server's address. The browser then sends the page's requests here as
requests of that site, same-origin, so the `Origin` check lets them through, and the page
reads the answers. What it cannot change is the name the browser puts in `Host`: its own.
So a request is served only when `Host` names this server by a name it was given:

- the `--host` it listens on, and for a loopback or every-address `--host` (127.0.0.1,
  ::1, localhost, 0.0.0.0, ::) also the loopback names `localhost`, `127.0.0.1`, `[::1]`;
- each `--allowed-host NAME[:PORT]`: the address or name the other machines use (on
  0.0.0.0 the machine's addresses cannot be known for sure, so they are given), or a
  reverse proxy's public name.

A name given without a port is taken at the server's own port or with no port (a browser
leaves out 80 and 443, as it does behind a proxy); `NAME:PORT` only at that port. Any other
`Host`, or none, gets a 400 saying which name was refused and how to allow it, and nothing
else happens; a WebSocket is closed before it opens (the browser sees a 403).

Starlette's `TrustedHostMiddleware` does nearly this, but it drops the port before it
compares, cannot say what to do in its refusal ("Invalid host header") and redirects to a
`www.` name of its own accord: so this small check of our own, the same shape.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable

#: The names of this machine's loopback interface, as a browser writes them in `Host`.
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
#: `--host` values that listen on every address (the loopback one among them).
EVERY_ADDRESS = ("0.0.0.0", "::", "")


class HostError(ValueError):
    """An `--allowed-host` value that names no host."""


def host_name(text: str) -> str:
    """A host as `Host` writes it: lower case, an IPv6 address in brackets, compressed."""
    text = text.strip().lower()
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        return text
    return f"[{address.compressed}]" if address.version == 6 else address.compressed


def split_host(value: str) -> tuple[str, int | None] | None:
    """(name, port or None) of a `Host` header or an `--allowed-host` value, or None when
    it is not one (an empty name, a port that is no number from 1 to 65535, spaces...)."""
    if not value or not value.isascii() or any(c.isspace() or c in "/\\@?#" for c in value):
        return None
    if value.startswith("["):  # an IPv6 address: [::1] or [::1]:8000
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[:end + 1], value[end + 1:]
    elif value.count(":") > 1:  # a bare IPv6 address (only as an --allowed-host value)
        name, rest = value, ""
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if not name or name == "[]":
        return None
    if not rest:
        return host_name(name), None
    port = rest[1:]
    if rest[0] != ":" or not port.isdigit() or len(port) > 5 or not 1 <= int(port) <= 65535:
        return None
    return host_name(name), int(port)


class AllowedHosts:
    """The (name, port) pairs a `Host` header may hold (port None: none written), and the
    port the server listens on."""

    def __init__(self, pairs: frozenset[tuple[str, int | None]], port: int):
        self.pairs, self.port = pairs, port

    def accepts(self, value: str | None) -> bool:
        return value is not None and split_host(value) in self.pairs


def allowed_hosts(host: str, port: int, named: Iterable[str] = ()) -> AllowedHosts:
    """The names a server listening on `host`, `port` answers to, with the `--allowed-host`
    values `named` (a HostError for one that is not a host, naming it)."""
    own = [host_name(host)] if host not in EVERY_ADDRESS else []
    if host in EVERY_ADDRESS or host_name(host) in LOOPBACK or _loopback(host):
        own += LOOPBACK
    pairs = {(name, p) for name in own for p in (port, None)}
    for value in named:
        found = split_host(value)
        if found is None:
            raise HostError(f"--allowed-host {json.dumps(value)[:80]}: expected NAME or NAME:PORT, the name or "
                            "address browsers use to reach this server (192.168.1.5, games.example.org:8443, "
                            "[fd00::5])")
        name, given = found
        pairs |= {(name, port), (name, None)} if given is None else {(name, given)}
    return AllowedHosts(frozenset(pairs), port)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class HostCheck:
    """ASGI middleware: a request is passed on only when its `Host` is one of `allowed`
    (`allowed_hosts`); otherwise a 400 (a JSON `{"error"}` under /api/, else plain text
    for a person who opened the page) saying what to do, or a WebSocket closed unopened."""

    def __init__(self, app, allowed: AllowedHosts):
        self.app, self.allowed = app, allowed

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        values = [value for key, value in scope.get("headers", ()) if key.lower() == b"host"]
        value = values[0].decode("latin-1") if len(values) == 1 else None
        if self.allowed.accepts(value):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":  # (closed before it is accepted: the handshake gets a 403)
            await send({"type": "websocket.close", "code": 4400, "reason": "this server does not answer to that "
                                                                            "name (Host)"})
            return
        message = refusal(value, len(values), self.allowed.port)
        if scope["path"].startswith("/api/"):
            body, kind = json.dumps({"error": message}).encode(), b"application/json"
        else:
            body, kind = message.encode() + b"\n", b"text/plain; charset=utf-8"
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                                (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})


def refusal(value: str | None, count: int, port: int) -> str:
    """What a request whose `Host` is refused is told (`port`: the server's)."""
    if value is None:
        return ("no Host header" if count == 0 else "more than one Host header") + \
            " (expected one naming this server)"
    found = split_host(value)
    shown = json.dumps(value if len(value) <= 80 else value[:80] + "...")
    name = found[0] if found is not None else None
    hint = (f"if {shown} is the address you opened, start amunre serve with --allowed-host "
            f"{name if found[1] in (None, port) else f'{name}:{found[1]}'} (docs/serve.md, Sharing a table on a LAN)"
            if found is not None else "expected NAME or NAME:PORT")
    return (f"this server does not answer to the name {shown} (the Host header): it answers only to the names "
            f"it was started with, so that a page of another site cannot reach it through its own name (DNS "
            f"rebinding); {hint}")
