"""The links a table's creator is given, made again from his own token.

When a table is opened, its spectator's link, the creator's own seat's (`sit`) and each
invitation are made from the creator's token (an HMAC-SHA256 of the table and the link's
role, keyed by that token), not drawn at random: so his link (`/creator#TOKEN`) can show
every one of them again, as often as he asks, while the store keeps only their digests (the
file alone makes none of them). Without the creator's token they are as unguessable as
tokens drawn at random: an HMAC keyed by 24 random bytes.

A seat's token that a person got by taking an invitation is drawn at random when it is
taken, given to him alone, and made from nothing the creator holds: the creator's link never
shows it (it says the seat was taken, and when).
"""

from __future__ import annotations

import base64
import hashlib
import hmac


def made_link(creator: str, table_id: str, role: str) -> str:
    """The token of a link of `table_id` (`role`: "spectator", "seat 0", "invitation 2", ...)
    that the creator's token `creator` makes."""
    mac = hmac.new(creator.encode("utf-8"), f"amunre serve {table_id} {role}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")


def spectator_role() -> str:
    return "spectator"


def seat_role(seat: int) -> str:
    return f"seat {seat}"


def invitation_role(seat: int) -> str:
    return f"invitation {seat}"
