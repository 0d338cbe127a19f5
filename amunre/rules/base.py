"""What every rule module has in common: its contract and the hooks the engine calls."""

from __future__ import annotations

import attrs


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
