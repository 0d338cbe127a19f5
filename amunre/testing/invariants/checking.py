"""`Checker`: what an invariant may use of the checker that drives the game.

The invariant functions take the checker (`amunre.testing.checker.GameChecker`), which
imports them to run them. Were they to import its class back, even for a type hint, the two
would be one loop of imports; they name this Protocol instead, the part of the checker they
read and write, and `GameChecker` fulfils it by its attributes and methods alone. A new
invariant that needs more of the checker adds it here first, so that what the families and
their driver share stays written down in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

if TYPE_CHECKING:
    from amunre.core.contract import Rule
    from amunre.core.engine import Game
    from amunre.core.model import Variant
    from amunre.core.state import GameState

#: Where the running phase (or scoring) started, for [views] to replay it re-drawn: the state
#: then, the rule modules it runs, whether it is one phase, and how many answers and events
#: had been given by then.
Checkpoint = tuple["GameState", Sequence["Rule"], bool, int, int]


class Checker(Protocol):
    """The checker as the invariant families see it (`events`, `state`, `views`, `answers`)."""

    # -- the game checked, and how it was started (for the failure's rerun line) -------------
    game: Game
    variant: Variant
    n: int  # players
    seed: int
    agent: str  # the agent kind in every seat ("?" when the harness answers itself)

    # -- what the checker was asked to check ----------------------------------------------
    views_every: int  # [views] at every n-th decision (0: never)
    every_seat: bool  # [views] for every seat, not only the one asked
    #: a harness's own check of what a seat is shown beyond its view (`amunre serve`'s pages):
    #: `pages(same, same_events, alt, alt_events, seat)`, what differs or None
    pages: Callable[..., str | None] | None
    #: the rule modules' own checks of their events, by event name (`Event.check`)
    event_checks: dict[str, Callable[[dict[str, Any], GameState], str | None]]

    # -- what the game has shown so far ---------------------------------------------------
    events: list[dict[str, Any]]
    asked: list[tuple[int, str]]  # (player, kind) of every decision, in order
    _event: str | None  # the boundary event being checked, if any (for where `fail` says it was)
    _checkpoint: Checkpoint | None

    # -- the ledgers the events keep, and what the state is held to -------------------------
    start_gold: int
    deck: list[int]  # cards of each kind in the deck at the start
    max_level: int  # highest offering level (0: no phase sets one)
    paid: list[int]
    received: list[int]
    last_scores: list[int]
    rounds_started: int
    kingdoms_seen: int
    rounds_seen: int
    scorings: int
    level_seen: bool
    in_scoring: bool

    # -- counts for the report ------------------------------------------------------------
    illegal_checks: int
    counterfactuals: int
    view_checks: int
    view_skips: int

    def fail(self, invariant: str, detail: str) -> NoReturn:
        """Stop the check: `invariant` failed (a `ConformanceError` saying where, and how to rerun it)."""

    def check_state(self) -> None:
        """The state's invariants (`invariants.state.check_state`), as the checker runs them."""
