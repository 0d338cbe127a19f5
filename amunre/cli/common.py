"""Option parsing shared by the commands: variant, player count, seed and agent list,
each checked against the variant with one clear error line."""

from __future__ import annotations

import secrets

from amunre.agents import agent_names
from amunre.engine import MAX_SEED
from amunre.errors import AmunreError
from amunre.loader import load_variant


def parse_seed(text: str | None) -> int:
    if text is None:
        return secrets.randbelow(2**32)
    try:
        seed = int(text)
    except ValueError:
        raise AmunreError(f"--seed must be a whole number from 0 to {MAX_SEED}, not {text!r}") from None
    if not 0 <= seed <= MAX_SEED:
        raise AmunreError(f"--seed must be a whole number from 0 to {MAX_SEED}, not {text!r}")
    return seed


def parse_players(variant, text: str | None) -> int:
    allowed = variant.edition.players
    if text is None:
        return 4 if 4 in allowed else allowed[0]
    try:
        count = int(text)
    except ValueError:
        count = None
    if count not in allowed:
        raise AmunreError(
            f"--players must be one of {', '.join(map(str, allowed))} for {variant.id}, not {text!r}"
        )
    return count


def parse_agents(text: str | None, players: int, default: str = "greedy") -> list[str]:
    names = [n.strip() for n in (default if text is None else text).split(",")]
    known = agent_names()
    for name in names:
        if not name:
            raise AmunreError(f"--agents has an empty name in {text!r} (expected names from: {', '.join(known)})")
        if name not in known:
            raise AmunreError(f"unknown agent {name!r} in --agents (available: {', '.join(known)})")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise AmunreError(f"--agents names {len(names)} agents for {players} players (give 1 or {players})")
    return names


def make_console():
    """A rich console; piped output gets a wide page so tables are not squeezed to 80
    columns and cut (a terminal keeps its own width)."""
    import sys

    from rich.console import Console

    return Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)


def variant_arg(text: str):
    return load_variant(text)
