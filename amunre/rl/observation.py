"""The observation of one seat: the layout of a variant's observation vector (`ObservationLayout`,
its named sections) and the encoder that writes it (a numpy float32 vector: `encode`, or
`encode_into` an array of the caller's, a row of a batch).

The encoder reads the game's state itself, only what the seat's view shows
(`amunre.rl.observation_writer`, which the environments also use to keep each seat's vector
and rewrite only what changed: docs/research.md has the figures); tests/test_rl_encoding.py
holds it to the first, field-by-field encoder over every variant file. The writer's `BOUND`
(what every entry is clipped to) and `WRITERS` are named here too. With `history=True` the
layout ends with the last round's public history (`amunre.rl.history`).

The vector encodes only the seat's view (`amunre.core.view.PlayerView`) and, when the seat is
asked, its request's kind and context; players are numbered relative to the seat (0 = the seat
itself, 1 = the next clockwise...). `ObservationLayout` names every section; docs/agents.md
lists them. It needs numpy, from the optional extra `amunre[rl]`: without it, building a layout
is the extra's clear error (`amunre.rl.extra.require_extra`).
"""

from __future__ import annotations

from amunre.core.arguments import shown
from amunre.core.errors import ArgumentTypeError
from amunre.core.facets import EncodingFacet
from amunre.rl.actions import ActionSpace
from amunre.rl.extra import require_extra
from amunre.rl.history import HISTORY_SECTIONS
from amunre.rl.observation_writer import BOUND, WRITERS, SeatMemory, checked_seat, prepare, write  # noqa: F401

try:  # the optional extra `amunre[rl]` (require_extra() names it when it is missing)
    import numpy as np
except ImportError:  # pragma: no cover - tested with the extra installed
    np = None

#: A rule module's own data enters the observation as its `EncodingFacet.observation` declares (field
#: -> "count", "provinces" or "players"), a request's context as its decision's `context`
#: declares (key -> "count", "province", "seats" or "bids"); the sizes of each, by what the
#: field or key holds, for `n` players and `provinces` provinces.
RULE_DATA_SIZES = {"count": lambda n, provinces: 1, "provinces": lambda n, provinces: provinces,
                   "players": lambda n, provinces: n}
CONTEXT_SIZES = {"count": lambda n, provinces: 1, "province": lambda n, provinces: provinces,
                 "seats": lambda n, provinces: n, "bids": lambda n, provinces: provinces * n}


class ObservationLayout:
    """The sections of one variant's observation vector for `n_players`: `sections` is a list
    of (name, start, stop, what it holds); `size` the vector's length."""

    def __init__(self, variant, n_players: int, space: ActionSpace, history: bool = False):
        require_extra()  # (it writes numpy arrays)
        self.variant, self.n = variant, n_players
        self.history = history
        self.space = space
        modules = variant.modules
        n, provinces, cards = n_players, len(variant.board), len(variant.cards)
        self.phases = list(dict.fromkeys([heading for _, heading, _ in modules.round_phases]
                                         + ["scoring", "final scoring"]))
        self.levels = (modules.max_offering_level or 0) + 1
        # (encodings checked by the loader)
        encoded = [m for m in modules.stateful if isinstance(m, EncodingFacet) and m.observation]
        ids = [m.id for m in encoded]
        # sections named by rule id (by entry id when two entries use one rule)
        self.rule_data = [(m, m.observation, m.id if ids.count(m.id) == 1 else m.key) for m in encoded]
        parts = [
            ("seat", n, "the seat's own number, one-hot (absolute: seat 0 is player_0)"),
            ("to_move", n + 1, "whose decision is pending, one-hot by relative seat; the last entry: nobody "
                               "(the game is over)"),
            ("kind", len(space.kinds), "the pending decision's kind, one-hot in the action space's kind order"),
            ("simultaneous", 1, "1 when the pending decision is a secret one (answers revealed together)"),
            ("kingdom", len(variant.edition.kingdoms), "the kingdom, one-hot"),
            ("round", variant.edition.rounds_per_kingdom, "the round of the kingdom, one-hot"),
            ("phase", len(self.phases) + 1, "the phase, one-hot: the round's phases in order, the scoring, the "
                                           "final scoring, then anything else (setup, game over)"),
            ("start_player", n, "the start player, one-hot by relative seat"),
            ("offering_level", self.levels, "the offering level, one-hot from 0 (before the first offering, or "
                                            "where no module publishes `offering_level`)"),
            ("hand", cards, "the seat's own cards: how many of each card id"),
            ("players", 5 * n, "per relative seat: gold, points, theft cards (as published: `theft_cards`, else "
                              "0), hand size, provinces held"),
            ("provinces", provinces * (n + 9), "per province id: its owner one-hot by relative seat (the last "
                                               "entry: no owner), then farmers on fields, farmers off the fields, "
                                               "stones, single pyramids, double pyramids, gold lying on it, "
                                               "face-down cards lying on it, and 1 when it is on auction "
                                               "(as published: `on_auction`)"),
            ("supplies", 4, "farmers, stones, single and double pyramids left in the supply"),
            ("cards", 1 + 2 * cards, "the draw pile's size, then the discard pile and the face-up cards: how many "
                                     "of each card id"),
        ]
        for module, fields, name in self.rule_data:
            for field, what in fields.items():
                parts.append((f"rules.{name}.{field}", RULE_DATA_SIZES[what](n, provinces),
                              f"rule module {module.id!r}'s {field} ({what})"))
        for key, what in space.context.items():
            parts.append((f"context.{key}", CONTEXT_SIZES[what](n, provinces),
                          f"the request's context `{key}` ({what}), when the seat is asked"))
        if history:  # the optional public history of the last round (`amunre.rl.history`), last
            parts += [(name, size(n, provinces), what) for name, size, what in HISTORY_SECTIONS]
        self.sections: list[tuple[str, int, int, str]] = []
        at = 0
        for name, size, what in parts:
            self.sections.append((name, at, at + size, what))
            at += size
        self.size = at
        self.slices = {name: slice(start, stop) for name, start, stop, _ in self.sections}
        prepare(self)  # (what the writer looks up at every call: amunre.rl.observation_writer)

    def encode(self, game, seat: int, history=None):
        """The observation vector of `seat` (a new numpy float32 array): its view, and its request
        if asked; with a `history` layout, the last round's history `history` (the game's
        `amunre.rl.history.RoundHistory`; None: those entries 0). A learner may keep it:
        nothing writes to it afterwards."""
        seat = checked_seat(self, seat)
        out = np.zeros(self.size, dtype=np.float32)
        write(self, SeatMemory(out, keeps=False), game, seat, history)
        return out

    def encode_into(self, out, game, seat: int, history=None) -> None:
        """Write the observation vector of `seat` into `out` (a C-contiguous float32 array of
        `size`, or such a row of a batch)."""
        if not isinstance(out, np.ndarray) or out.shape != (self.size,) or out.dtype != np.float32 \
                or not out.flags.c_contiguous:
            raise ArgumentTypeError(f"encode_into writes into a C-contiguous float32 numpy array of shape "
                                    f"({self.size},), not {shown(out)}")
        seat = checked_seat(self, seat)
        out.fill(0.0)
        write(self, SeatMemory(out, keeps=False), game, seat, history)
