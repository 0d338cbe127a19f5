"""What every rule module has in common: its contract and the hooks the engine calls."""

from __future__ import annotations

import attrs


#: What every round's pipeline must provide: each player acquires one province per round.
ROUND_MUST_PROVIDE = ("ownership",)


@attrs.frozen
class NoParams:
    """This rule module takes no parameters."""


class Rule:
    """A pluggable rule module.

    Subclasses set `id`, `kind` ("phase", "scoring" or "final_scoring"), `summary` and a
    frozen attrs `Params` class, and implement `run(game)` as a generator that yields
    decision requests (via `decide`) and applies the phase to `game.state`.
    """

    id: str = ""
    kind: str = "phase"
    summary: str = ""
    Params: type = NoParams
    # Pipeline contract, checked when a variant loads: what a phase makes available to the
    # phases after it in the round, what it needs from the phases before it, and whether it
    # may appear only once per round.
    provides: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    once: bool = False

    def __init__(self, spec, variant):
        self.spec = spec
        self.name = spec.name
        self.params = spec.params
        self.variant = variant

    def check(self, variant) -> list[str]:
        """Semantic problems this module finds with the variant (messages, no location)."""
        return []

    def start_kingdom(self, game) -> None:
        """Called before the first round of each kingdom."""

    def run(self, game):
        """Play the phase (or score the item). A generator yielding decision requests."""
        return
        yield  # pragma: no cover
