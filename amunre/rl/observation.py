"""The observation of one seat: the layout of a variant's observation vector (`ObservationLayout`,
its named sections) and the encoder that writes it (a numpy float32 vector).

The vector encodes only the seat's view (`amunre.core.view.PlayerView`) and, when the seat is
asked, its request's kind and context; players are numbered relative to the seat (0 = the seat
itself, 1 = the next clockwise...). `ObservationLayout` names every section; docs/agents.md
lists them. It needs numpy, from the optional extra `amunre[rl]`: without it, building a layout
is the extra's clear error (`amunre.rl.extra.require_extra`).
"""

from __future__ import annotations

from amunre.core.facets import EncodingFacet
from amunre.rl.actions import ActionSpace
from amunre.rl.extra import require_extra

try:  # the optional extra `amunre[rl]` (require_extra() names it when it is missing)
    import numpy as np
except ImportError:  # pragma: no cover - tested with the extra installed
    np = None

#: What every number of the observation is clipped to (an unlimited supply reads as this).
BOUND = 10_000.0

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

    def __init__(self, variant, n_players: int, space: ActionSpace):
        require_extra()  # (it writes numpy arrays)
        self.variant, self.n = variant, n_players
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
        self.sections: list[tuple[str, int, int, str]] = []
        at = 0
        for name, size, what in parts:
            self.sections.append((name, at, at + size, what))
            at += size
        self.size = at
        self.slices = {name: slice(start, stop) for name, start, stop, _ in self.sections}

    def encode(self, game, seat: int):
        """The observation vector of `seat` (numpy float32): its view, and its request if asked."""
        n = self.n
        view = game.view(seat)
        request = game.pending
        out = np.zeros(self.size, dtype=np.float32)
        s = self.slices

        def rel(player: int) -> int:
            return (player - seat) % n

        def one_hot(name: str, index: int | None) -> None:
            part = s[name]
            if index is not None and 0 <= index < part.stop - part.start:
                out[part.start + index] = 1.0

        one_hot("seat", seat)
        one_hot("to_move", n if request is None else rel(request.player))
        if request is not None:
            one_hot("kind", self.space.kinds.index(request.kind) if request.kind in self.space.kinds else None)
            out[s["simultaneous"].start] = float(bool(request.simultaneous))
        one_hot("kingdom", view.kingdom)
        one_hot("round", view.round)
        phase = view.phase
        one_hot("phase", self.phases.index(phase) if phase in self.phases else len(self.phases))
        one_hot("start_player", rel(view.start_player))
        # the values the rule modules publish, by name (none: 0, nobody holds theft cards, none on auction)
        one_hot("offering_level", min(view.published("offering_level", 0), self.levels - 1))
        out[s["hand"]] = view.hand
        players = []
        theft = view.published("theft_cards") or [0] * n
        for q in range(n):
            info = view.players[(seat + q) % n]
            players += [info.gold, info.score, theft[(seat + q) % n], info.hand_size, len(info.provinces)]
        out[s["players"]] = players
        on_auction = set(view.published("on_auction", ()))
        rows = []
        for pid, prov in enumerate(view.provinces):
            owner = [0.0] * (n + 1)
            owner[n if prov.owner is None else rel(prov.owner)] = 1.0
            rows += owner + [prov.farmers, prov.free_farmers, prov.stones, prov.pyramids, prov.doubles, prov.gold,
                             prov.cards, float(pid in on_auction)]
        out[s["provinces"]] = rows
        supplies = view.supplies
        out[s["supplies"]] = [min(supplies[k], BOUND) for k in ("farmers", "stones", "pyramids", "doubles")]
        cards = len(self.variant.cards)
        pile = [float(view.deck_size)] + [0.0] * (2 * cards)
        for card in view.discard:
            pile[1 + card] += 1
        for card in view.in_play:
            pile[1 + cards + card] += 1
        out[s["cards"]] = pile
        if self.rule_data:
            data = view.rules
            for module, fields, name in self.rule_data:
                mine = data.get(module.key) or {}
                for field, what in fields.items():
                    self._put(out, s[f"rules.{name}.{field}"], what, mine.get(field), rel)
        if request is not None and request.player == seat and request.context:
            context = request.context
            for key, what in self.space.context.items():
                if key in context:
                    self._put(out, s[f"context.{key}"], what, context[key], rel)
        np.clip(out, -BOUND, BOUND, out=out)
        return out

    def _put(self, out, part: slice, what: str, value, rel) -> None:
        """Write one rule-data field or context value of the shape `what` into `out[part]`."""
        if value is None:
            return
        size = part.stop - part.start
        if what == "count":
            if isinstance(value, (int, float)):
                out[part.start] = value
            elif isinstance(value, (list, tuple)):
                out[part.start] = len(value)
        elif what in ("provinces", "province"):
            for pid in (value if isinstance(value, (list, tuple)) else [value]):
                if isinstance(pid, int) and 0 <= pid < size:
                    out[part.start + pid] = 1.0
        elif what == "players":  # one value per seat, listed by seat
            if isinstance(value, (list, tuple)) and len(value) == self.n:
                for player, v in enumerate(value):
                    out[part.start + rel(player)] = v
        elif what == "seats":  # the seats listed
            for player in value:
                if isinstance(player, int) and 0 <= player < self.n:
                    out[part.start + rel(player)] = 1.0
        elif what == "bids":
            for player, pid, amount in value:
                if 0 <= pid < len(self.variant.board):
                    out[part.start + pid * self.n + rel(player)] = amount + 1
