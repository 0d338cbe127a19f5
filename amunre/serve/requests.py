"""Reading and refusing the requests of `amunre serve` (`amunre.serve.app` routes them): a
request's JSON body read strictly and within bounds, its token, a refusal (`Refused`) and the
JSON error it is answered with, and the server's own pages and files as they are sent."""

from __future__ import annotations

import json
from importlib import resources

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from amunre.gamelog.messages import excerpt

#: The largest request body read (an answer is a few dozen bytes).
MAX_BODY = 16 * 1024
#: Seconds a request has to send its body.
BODY_SECONDS = 10
#: The page may load only its own script and style, and talk only to this server.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Refused(Exception):
    """A request refused: its status and what is wrong (and facts a page shows, `said`)."""

    def __init__(self, status: int, message: str, said: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.said = status, message, said or {}


def _static(name: str) -> str:
    return resources.files("amunre.serve").joinpath("static", name).read_text(encoding="utf-8")



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
