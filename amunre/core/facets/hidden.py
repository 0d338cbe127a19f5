"""The hidden-information facet of the rule contract: what of a module's data a seat may see.

A module whose own data (`Rule.initial_state`) holds what some seats may not see (a secret
hand, the order of its draw pile) adds `HiddenFacet` to its bases. Without it every seat
sees all of the module's data: the view hands it out as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import random


class HiddenFacet:
    """Hidden information: see the module docstring."""

    def view_state(self, data: dict[str, Any], player: int | None) -> dict[str, Any]:
        """What `player` may see of this module's data (everything, unless overridden); None is
        a spectator, who sees what every player may see (the board picture's view). The view
        hands its reader a copy of what this returns: the data itself may be returned."""
        return data

    def hidden_variants(self, data: dict[str, Any], player: int, rng: random.Random) -> dict[str, Any]:
        """The data with what `player` may not see drawn again at random, from an order the
        player may know: what a determinized game plays on, and the `[views]` invariant checks."""
        return data
