"""The encoding facet of the rule contract: what of a module's data an observation vector holds.

A module whose own data a learning agent should observe adds `EncodingFacet` to its bases
and says which fields the vector holds, and how (`amunre.rl.observation`). Its decisions
join the fixed action space through `Decision.actions` and `Decision.context`, on the
decisions themselves. Without the facet its data is not observed.
"""

from __future__ import annotations


class EncodingFacet:
    """Encoding for reinforcement learning: see the module docstring."""

    #: What of its own data (its `view_state`, as the seat sees it) an observation vector
    #: encodes: field -> "count" (one number; a list counts its items), "provinces" (a 0/1 per
    #: province: the ids listed) or "players" (one number per player, by relative seat). A
    #: field not listed is left out of the observation.
    observation: dict[str, str] = {}
