"""A table's chat: what a seat may say (text only, bounded), how often (a window per seat),
and the messages as the pages are sent them.

A message is only what a person typed at his seat: the server adds nothing to it but the
seat's colour (who said it), so the chat carries no fact of the game that a seat's page does
not already show. It is text, never HTML: kept and sent as JSON, and written into the page as
text (`textContent`). Its control characters and direction overrides are dropped (a line
break becomes a space), so it reads as it prints. The store keeps a table's last
`MESSAGES_KEPT` messages.
"""

from __future__ import annotations

import time
from collections import deque

from amunre.core.words import player_names
from amunre.serve.requests import Refused

#: The longest message, in characters.
MAX_CHARACTERS = 300
#: The messages kept of a table (the oldest dropped).
MESSAGES_KEPT = 200
#: A seat may send at most this many messages ...
RATE_MESSAGES = 5
#: ... in any window of this many seconds (one more is a 429).
RATE_SECONDS = 10.0

#: Characters that change how the rest of a line prints: direction overrides and isolates.
_DIRECTION = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def cleaned(text) -> str:
    """`text` as it is kept: control characters and direction marks dropped, white space (line
    breaks too) one space; or a 4xx refusal saying what is wrong."""
    if not isinstance(text, str):
        raise Refused(400, f"text: expected the message as a string, not {type(text).__name__}")
    if len(text) > MAX_CHARACTERS:
        raise Refused(422, f"text: {len(text)} characters, more than a message may have ({MAX_CHARACTERS})")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(422, "text: it holds a lone surrogate, which is no character (expected text)") from None
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or (ch.isprintable() and ch not in _DIRECTION))
    kept = " ".join(kept.split())
    if not kept:
        raise Refused(422, "text: the message is empty (expected something to say)")
    return kept


class Rate:
    """How many messages each seat of each table sent lately: at most `RATE_MESSAGES` in any
    `RATE_SECONDS` (in memory only: a restart forgets it, and begins with a full allowance)."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.sent: dict[tuple[str, int], deque] = {}

    def take(self, table_id: str, seat: int) -> None:
        """Count one more message of `seat`, or a 429 refusal (nothing counted)."""
        now = self.clock()
        times = self.sent.setdefault((table_id, seat), deque())
        while times and now - times[0] >= RATE_SECONDS:
            times.popleft()
        if len(times) >= RATE_MESSAGES:
            wait = RATE_SECONDS - (now - times[0])
            raise Refused(429, f"at most {RATE_MESSAGES} messages every {RATE_SECONDS:g} seconds from a seat: "
                               f"wait {max(1, round(wait))} s")
        times.append(now)

    def forget(self, table_id: str) -> None:
        for key in [key for key in self.sent if key[0] == table_id]:
            del self.sent[key]


def messages(rows, players: int) -> list[dict]:
    """The kept messages as the pages are sent them: {number, seat, name, text}."""
    names = player_names(players)
    return [{"number": number, "seat": seat, "name": names[seat], "text": text} for number, seat, text in rows]
