"""Named random streams: each source of chance draws from its own stream of the game's seed.

A game's chance comes from a few sources: the card deck, the start player, the province
deck, and whatever a rule module draws. Each draws from a stream named after it, never from
one generator shared by all: the n-th draw of stream `name` in a game seeded `seed` is
`random.Random(draw_seed(seed, name, n))`, whatever else the game drew before. So two variants
that share a component see the same draws from it even where they differ elsewhere (a card
deck of another size, another phase, a rule that draws more): classic2003 and
supermeeple2016 on the same seed lay out the same provinces, which is what makes a paired
comparison of two editions (`amunre compare`) sharper than an unpaired one.

A game keeps only how many draws each stream has made (`GameState.draws`), so a copy costs a
small dict, and a game re-drawn for a seat (`Game.determinize`) gets another seed: its
future draws follow nothing of the truth.

The streams the core and the shipped rules use (`STREAMS`); a plug-in names its own
(`state.random("my_rule.tiles")`), with its module id in the name to keep it apart.
"""

from __future__ import annotations

import hashlib
import random

#: The streams of the core and the shipped rule modules, and what draws from each.
STREAMS = {
    "cards": "the card deck: its first shuffle and every reshuffle of the discards",
    "start_player": "the first round's start player",
    "provinces": "the province deck (drawn, or dealt for the expert draft), once per kingdom",
}


def draw_seed(seed: int, name: str, n: int) -> int:
    """The seed of draw `n` (from 0) of stream `name` in a game seeded `seed`: a hash, so
    that streams are independent and one draw tells nothing of another or of the seed."""
    digest = hashlib.blake2b(f"amunre stream {seed} {name} {n}".encode(), digest_size=16).digest()
    return int.from_bytes(digest, "big")


def draw(seed: int, name: str, n: int) -> random.Random:
    """The generator of draw `n` of stream `name` (use it for that one draw: a shuffle, a pick)."""
    return random.Random(draw_seed(seed, name, n))
