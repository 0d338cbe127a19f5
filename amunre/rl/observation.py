"""The observation of one seat: the layout of a variant's observation vector (`ObservationLayout`,
its named sections) and the encoder that writes it (a numpy float32 vector: `encode`, or
`encode_into` an array of the caller's, a row of a batch).

The encoder reads the game's state itself, only what the seat's view shows, and writes it in
a few numpy calls (an environment step costs what the engine's decision costs plus this:
docs/research.md has the figures); tests/test_rl_encoding.py holds it to the first,
field-by-field encoder over every variant file. With `history=True` the layout ends with the
last round's public history (`amunre.rl.history`).

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
from amunre.rl.history import HISTORY_SECTIONS

try:  # the optional extra `amunre[rl]` (require_extra() names it when it is missing)
    import numpy as np
except ImportError:  # pragma: no cover - tested with the extra installed
    np = None

#: What every number of the observation is clipped to (an unlimited supply reads as this).
BOUND = 10_000.0
BOUND_WHOLE = int(BOUND)

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
        self._prepare()

    def encode(self, game, seat: int, history=None):
        """The observation vector of `seat` (a new numpy float32 array): its view, and its request
        if asked; with a `history` layout, the last round's history `history` (the game's
        `amunre.rl.history.RoundHistory`; None: those entries 0). A learner may keep it:
        nothing writes to it afterwards."""
        out = np.zeros(self.size, dtype=np.float32)
        self._write(out, game, seat)
        if history is not None and self.history:
            self._write_history(out, history, seat)
        return out

    def encode_into(self, out, game, seat: int, history=None) -> None:
        """Write the observation vector of `seat` into `out` (a float32 array of `size`, or a
        row of a batch: the vector environment writes each game's straight into its batch)."""
        out.fill(0.0)
        self._write(out, game, seat)
        if history is not None and self.history:
            self._write_history(out, history, seat)

    def _write_history(self, out, history, seat: int) -> None:
        start = self._at["history.bids"]
        history.write(out, start, seat)
        np.minimum(out[start:], BOUND, out=out[start:])

    def _prepare(self) -> None:
        """What `_write` looks up at every call, worked out once: each section's start, the
        index of each kind and phase, and where each whole number read from the state goes."""
        n, provinces, cards = self.n, len(self.variant.board), len(self.variant.cards)
        at = {name: start for name, start, _, _ in self.sections}
        self._at = at
        self._kind_at = {kind: at["kind"] + i for i, kind in enumerate(self.space.kinds)}
        self._phase_at = {phase: at["phase"] + i for i, phase in enumerate(self.phases)}
        row = n + 9  # a province's entries: owner one-hot (n + 1), 7 numbers, on auction
        first = at["provinces"]
        self._row, self._provinces_at = row, first
        rows = np.arange(provinces) * row + first
        # the whole numbers, in the order `_write` lists them: the hand, each player's five,
        # each province's farmers, free farmers, stones, pyramids, doubles, gold, then every
        # province's face-down cards, the supplies, the draw pile's size, the discard pile's and
        # the face-up cards' counts
        self._numbers_at = np.concatenate([
            np.arange(cards) + at["hand"], np.arange(5 * n) + at["players"],
            (rows[:, None] + n + 1 + np.arange(6)).ravel(), rows + n + 7,
            np.arange(4) + at["supplies"], np.arange(1 + 2 * cards) + at["cards"]]).astype(np.intp)
        # the one-hot sections of a count: the kingdom, the round, the offering level
        self._counted = [(self.slices[name].start, self.slices[name].stop - self.slices[name].start)
                         for name in ("kingdom", "round", "offering_level")]
        self._shown = {m.key: hides for m, hides in self.variant.modules.shown}
        # each rule-data field and context key: its writer (`WRITERS`), where it starts, its size
        def writing(what: str, part: slice) -> tuple:
            return WRITERS[what], part.start, part.stop - part.start

        self._rule_parts = [(module, [(field, *writing(what, self.slices[f"rules.{name}.{field}"]))
                                      for field, what in fields.items()])
                            for module, fields, name in self.rule_data]
        self._context_parts = {key: writing(what, self.slices[f"context.{key}"])
                               for key, what in self.space.context.items()}

    def _write(self, out, game, seat: int) -> None:
        """Write the observation of `seat` into `out`, which is all 0. It reads the state
        itself, without a view's copies, but only what `game.view(seat)` shows (the privacy
        tests of tests/test_pettingzoo.py hold it to that): the seat's own hand, the others'
        hand sizes, the rule modules' data as each shows it to this seat (`view_state`).
        The one-hot entries go in through a memoryview, the whole numbers read from the state
        with one numpy call: numpy's cost is per call far more than per entry."""
        n, at = self.n, self._at
        state = game.state
        request = game.pending
        modules = self.variant.modules
        phase = self._phase_at.get(game.phase_name, at["phase"] + len(self.phases))  # (else: setup, game over)
        ones = [at["seat"] + seat, phase, at["start_player"] + (state.start_player - seat) % n]
        if request is None:
            ones.append(at["to_move"] + n)
        else:
            ones.append(at["to_move"] + (request.player - seat) % n)
            kind = self._kind_at.get(request.kind)
            if kind is not None:
                ones.append(kind)
            if request.simultaneous:
                ones.append(at["simultaneous"])
        # the values the rule modules publish, by name (none: 0, nobody holds theft cards, none on auction)
        for (start, size), index in zip(self._counted, (
                state.kingdom, state.round, min(modules.published(state, "offering_level", 0), self.levels - 1))):
            if 0 <= index < size:
                ones.append(start + index)
        first, row = self._provinces_at, self._row
        provinces = state.provinces
        ones += [first + pid * row + (n if p.owner is None else (p.owner - seat) % n)
                 for pid, p in enumerate(provinces)]
        ones += [first + pid * row + n + 8 for pid in modules.published(state, "on_auction", ())
                 if 0 <= pid < len(provinces)]
        flat = memoryview(out)  # (one entry at a time: quicker through a memoryview than through numpy)
        for index in ones:
            flat[index] = 1.0
        players = state.players
        numbers = list(players[seat].hand)
        theft = modules.published(state, "theft_cards") or (0,) * n
        for q in range(n):
            p = (seat + q) % n
            player = players[p]
            numbers += (player.gold, player.score, theft[p], sum(player.hand), len(player.provinces))
        numbers += [value for p in provinces for value in
                    (p.farmers, p.free_farmers, p.stones, p.pyramids, p.doubles, p.gold)]
        numbers += [len(p.cards) for p in provinces]
        numbers += (min(state.supply_farmers, BOUND_WHOLE), min(state.supply_stones, BOUND_WHOLE),
                    min(state.supply_pyramids, BOUND_WHOLE), min(state.supply_doubles, BOUND_WHOLE), len(state.deck))
        cards = len(self.variant.cards)
        piles = [0] * (2 * cards)
        for card in state.discard:
            piles[card] += 1
        for card in state.in_play:
            piles[cards + card] += 1
        numbers += piles
        if max(numbers) > BOUND_WHOLE or min(numbers) < -BOUND_WHOLE:  # (seldom: gold and points are far below)
            numbers = [min(max(number, -BOUND_WHOLE), BOUND_WHOLE) for number in numbers]
        out[self._numbers_at] = np.array(numbers, dtype=np.int64)  # (whole numbers convert fastest as such)
        if self._rule_parts:
            data = state.rules
            for module, fields in self._rule_parts:
                if module.key not in data:
                    continue
                mine = data[module.key]
                if self._shown[module.key]:  # a module with hidden data shows each seat its part
                    mine = module.view_state(mine, seat)
                if not mine:
                    continue
                for field, write, start, size in fields:
                    value = mine.get(field)
                    if value is not None:
                        write(out, start, size, n, value, seat)
        if request is not None and request.player == seat and request.context:
            parts = self._context_parts
            for key, value in request.context.items():  # (a lazy context's keys: not one look-up per part)
                found = parts.get(key)
                if found is not None and value is not None:
                    write, start, size = found
                    write(out, start, size, n, value, seat)


# The writers of a rule module's field or a request's context value, by the encoding declared
# (`RULE_DATA_SIZES`, `CONTEXT_SIZES`): each writes `value` into `out[start:start + size]`
# for the observer `seat` of `n` players; a value of another shape writes nothing.
def _write_count(out, start: int, size: int, n: int, value, seat: int) -> None:
    if isinstance(value, (int, float)):
        out[start] = _bounded(value)
    elif isinstance(value, (list, tuple)):
        out[start] = _bounded(len(value))


def _write_provinces(out, start: int, size: int, n: int, value, seat: int) -> None:
    for pid in (value if isinstance(value, (list, tuple)) else [value]):
        if isinstance(pid, int) and 0 <= pid < size:
            out[start + pid] = 1.0


def _write_players(out, start: int, size: int, n: int, value, seat: int) -> None:
    """One value per seat, listed by seat."""
    if isinstance(value, (list, tuple)) and len(value) == n:
        for player, v in enumerate(value):
            out[start + (player - seat) % n] = _bounded(v)


def _write_seats(out, start: int, size: int, n: int, value, seat: int) -> None:
    """1 for each seat listed."""
    for player in value:
        if isinstance(player, int) and 0 <= player < n:
            out[start + (player - seat) % n] = 1.0


def _write_bids(out, start: int, size: int, n: int, value, seat: int) -> None:
    """[player, province, amount] each: amount + 1 at the province's entry of the player."""
    provinces = size // n
    for player, pid, amount in value:
        if 0 <= pid < provinces:
            out[start + pid * n + (player - seat) % n] = _bounded(amount + 1)


WRITERS = {"count": _write_count, "provinces": _write_provinces, "province": _write_provinces,
           "players": _write_players, "seats": _write_seats, "bids": _write_bids}


def _bounded(value):
    """`value` clipped to the observation's bounds (every entry is: see `BOUND`)."""
    return min(max(value, -BOUND), BOUND)
