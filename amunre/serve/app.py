"""The web application of `amunre serve` (Starlette; uvicorn runs it): its routes, the pages
and the API below, and the live WebSocket. The tables behind them are `amunre.serve.server`'s;
a request is read, or refused, by `amunre.serve.requests`.

Pages: `/` the lobby (open a table), `/join` an invitation to take a seat, `/seat` a seat's
page and `/watch` the spectator's, both the same page, and `/creator` the creator's own page
(every seat's link again, an empty seat given to a bot, the table closed; `/close`, the
older name of his link, opens it too): which one it is, and which table, depends on the token in the link's
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
    GET  /api/creator          with the creator's token: the table, every seat's link or state again
    POST /api/creator/bot      {seat, bot}, with the creator's token: give an empty seat to a bot
    GET  /api/close            with the creator's token: the table it closes, and whether it is
    POST /api/close            {}, with the creator's token: close the table for good
    GET  /api/chat             the table's chat (its last messages); a 404 with --no-chat
    POST /api/chat             {text}, with a seat's token: say something (`amunre.serve.chat`)
    GET  /api/log              the game's log, once the game is over (`amunre replay` reads it)
    GET  /api/replay           the replay viewer page of the finished game
    WS   /api/live             first message {"token"}; then the page data at each change, and
                               {"chat": [...]} at each message said

An answer is kept in the store (`amunre.serve.store`) before it is acknowledged. Bots answer
in worker threads, one table at a time each, so a thinking bot blocks no other table.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from amunre.core.kept import keep_most_recent
from amunre.serve import MAX_BOT_PLAYOUTS, MAX_STORED_TABLES
from amunre.serve.hosts import AllowedHosts, HostCheck
from amunre.serve.requests import Refused, _error, _page, _static, _token, read_json, strict_json
from amunre.serve.server import Server, _Broken
from amunre.serve.table import Table

#: Seconds a live connection has to send its token.
HELLO_TIMEOUT = 10
#: Seconds a one-time replay address stays valid.
REPLAY_LINK_SECONDS = 60
#: The most live connections of one table (its seats' pages and its spectators') and of the server.
MAX_LIVE_PER_TABLE = 64
MAX_LIVE = 1000
#: One-time replay addresses not yet opened kept at most (the oldest dropped).
REPLAY_LINKS_KEPT = 1000
#: The files `/static/` serves, and their types.
STATIC = {"page.js": "text/javascript", "page.css": "text/css", "lobby.js": "text/javascript",
          "creator.js": "text/javascript", "join.js": "text/javascript", "common.js": "text/javascript"}


def build_app(data: Path, max_tables: int = 100, max_bot_playouts: int = MAX_BOT_PLAYOUTS,
              hosts: AllowedHosts | None = None, max_stored: int = MAX_STORED_TABLES, chat: bool = True) -> Starlette:
    """The application of a data folder (its store opened and checked now: a folder that is
    not one, or that another server uses, is an AmunreError before anything is served).
    `hosts`: the names a request's `Host` may give (`amunre.serve.hosts`; the command always
    gives them; None, any: a test's client in this process). `chat`: whether the tables have
    a chat (`amunre serve --no-chat`: none)."""
    server = Server(data, max_tables, max_bot_playouts, max_stored, chat)

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

    async def creator_page(request):
        return _page("creator.html")

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
        # (his own link: the links again, a seat to a bot, closing; `close`, its older name, is the same token)
        opened = {"table": table.id, "seats": seats, "spectator": spectator, "creator": f"{base}creator#{closer}",
                  "close": f"{base}close#{closer}"}
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

    async def creator(request):
        """The creator's page data: the table, every seat's link (or state) again, the
        spectator's; never anything a seat hides (no hand, no seed)."""
        token = _token(request)
        return creator_said(server.created_by(token), token, request)

    def creator_said(table, token: str, request: Request) -> JSONResponse:
        said = dict(_table_said(table), **server.links_again(table, token, str(request.base_url)), chat=server.chat_on)
        return JSONResponse(said, headers={"Cache-Control": "no-store"})

    async def to_bot(request):
        """Give an empty seat to a bot: {seat, bot}."""
        table = server.created_by(_token(request))
        body = await read_json(request, ("seat", "bot"))
        await server.give_to_bot(table, body.get("seat"), body.get("bot"))
        return creator_said(table, _token(request), request)

    async def chat(request):
        """GET: the table's messages; POST {text}: a seat says something."""
        table, seat = await seated(request)
        if request.method == "POST":
            if seat is None:
                raise Refused(403, "a spectator's link says nothing in the chat (only a seat's does)")
            body = await read_json(request, ("text",))
            await server.say(table, seat, body.get("text"))
        return JSONResponse({"messages": server.chat_of(table)}, headers={"Cache-Control": "no-store"})

    async def closing(request):
        """GET: the table the creator's token closes, as its page shows it; POST: close it."""
        table = server.created_by(_token(request))
        if request.method == "POST":
            await read_json(request, ())  # (JSON from this server's own page only, as every POST)
            closed_now = await server.close(table)
        said = _table_said(table)
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
        keep_most_recent(replays, REPLAY_LINKS_KEPT)
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
            sent, said = None, server.chat_versions.get(table.id, 0)
            while not gone.done():
                if sent != table.version:
                    sent = table.version
                    await websocket.send_text(server.payload_text(table, seat))
                if said != server.chat_versions.get(table.id, 0):  # (the page asked for the chat as it opened)
                    said = server.chat_versions.get(table.id, 0)
                    await websocket.send_text(json.dumps({"chat": server.chat_of(table)}, ensure_ascii=False))
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
        Route("/", lobby), Route("/seat", seat_page), Route("/watch", seat_page), Route("/close", creator_page),
        Route("/creator", creator_page),
        Route("/join", join_page),
        Route("/static/{name}", static),
        Route("/api/variants", guarded(variants)),
        Route("/api/tables", guarded(tables), methods=["POST"]),
        Route("/api/claim", guarded(claim), methods=["POST"]),
        Route("/api/state", guarded(state)),
        Route("/api/answer", guarded(answer), methods=["POST"]),
        Route("/api/undo", guarded(undo), methods=["POST"]),
        Route("/api/close", guarded(closing), methods=["GET", "POST"]),
        Route("/api/creator", guarded(creator)),
        Route("/api/creator/bot", guarded(to_bot), methods=["POST"]),
        Route("/api/chat", guarded(chat), methods=["GET", "POST"]),
        Route("/api/log", guarded(log)),
        Route("/api/replay", guarded(replay_link), methods=["POST"]),
        Route("/replay/{key}", guarded(replay)),
        WebSocketRoute("/api/live", live),
    ], exception_handlers={HTTPException: not_found}, lifespan=asynccontextmanager(lifespan),
        middleware=[] if hosts is None else [Middleware(HostCheck, allowed=hosts)])
    app.state.server = server
    return app


def _table_said(table) -> dict:
    """A table as its creator's page names it: variant, players, seats' kinds, and whether it
    is being played, over, closed or stopped."""
    state = ("closed" if table.closed else "stopped" if table.failure is not None
             else "over" if table.finished else "played")
    record = table.record
    return {"table": table.id, "variant": record.variant_id, "players": record.players, "seats": list(record.seats),
            "state": state}


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the page sends, text or bytes, until it goes."""
    try:
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
    except (WebSocketDisconnect, RuntimeError):
        return
