"""Writing a seat's observation vector (`amunre.rl.observation` lays it out): `ObservationWriter`
keeps each seat's vector of one game and brings it up to date, writing only the entries whose
source changed since that seat's last observation.

Every observation reads the state again, as quickly as Python reads it (`operator.attrgetter`
mapped over the players, the provinces' slots in one loop, `list.count` for the piles): the
whole numbers (the hand, the players', each province's, the supplies and piles) into one flat
list, in an order fixed per seat, compared at C speed with the list the seat's vector was last
written from, so that only the entries that differ are written (one by one through a
memoryview: nine on average along a 4-player game). The one-hot flags of the flow, the
owners, each rule module's data, the request's context and the history are compared whole
with what they were written from. Nothing depends on events or on the game object being the
same one: a clone, an undo or a new game is only a state whose numbers differ. A fresh vector
(`ObservationLayout.encode`) is this writer with nothing remembered, its whole numbers
written in one numpy call.

tests/test_rl_encoding.py holds the vectors to the reference encoder (tests/rl_reference.py),
tests/test_rl_incremental.py the kept vectors to fresh ones at every step of whole games.
"""

from __future__ import annotations

from itertools import chain, compress, count
from operator import attrgetter, ne

from amunre.core.arguments import whole_number
from amunre.core.state import copy_data
from amunre.rl.extra import require_extra

try:  # the optional extra `amunre[rl]` (require_extra() names it when it is missing)
    import numpy as np
except ImportError:  # pragma: no cover - tested with the extra installed
    np = None

#: What every number of the observation is clipped to (an unlimited supply reads as this).
BOUND = 10_000.0
BOUND_WHOLE = int(BOUND)

FLATTEN = chain.from_iterable
OWNER = attrgetter("owner")
CARDS = attrgetter("cards")
GOLD_AND_SCORE = attrgetter("gold", "score")
HAND = attrgetter("hand")
PROVINCES = attrgetter("provinces")
#: A block never written (any key differs from it).
UNSET = object()


def _bounded_whole(value: int) -> int:
    """A whole number clipped to the observation's bounds (see `BOUND`)."""
    return min(max(value, -BOUND_WHOLE), BOUND_WHOLE)


class SeatMemory:
    """One seat's vector and what its parts were last written from."""

    __slots__ = ("vector", "flat", "keeps", "flags", "owners", "on_auction", "marks", "numbers", "rules", "request",
                 "context_written", "history")

    def __init__(self, vector, keeps: bool = True):
        self.vector = vector  # a float32 array of the layout's size (or a row of a batch)
        self.keeps = keeps  # False: written once and dropped (a fresh vector), so nothing is copied to compare
        self.flat = memoryview(vector)  # (one entry at a time: quicker than through numpy)
        self.flags: list[int] = []  # the one-hot entries of the flow, as set
        self.marks: list[int] = []  # the owners' and the auction's one-hot entries, as set
        self.owners = self.on_auction = self.numbers = self.history = self.request = UNSET
        self.rules: dict = {}  # each rule module's data, as written (a copy)
        self.context_written = False


class ObservationWriter:
    """Each seat's observation of a game, kept and brought up to date (module docstring).
    `observe(game, seat)` gives the seat's kept vector: the caller copies it if it keeps it,
    since the next `observe` of that seat writes into it."""

    def __init__(self, layout):
        require_extra()
        self.layout = layout
        self._seats: list[SeatMemory | None] = [None] * layout.n

    def observe(self, game, seat: int, history=None):
        """The vector of `seat` in `game` now (with a history layout, `history` its game's
        `RoundHistory`), the seat's own kept array."""
        if type(seat) is not int or not 0 <= seat < self.layout.n:  # (the quick test first: every step asks)
            seat = checked_seat(self.layout, seat)
        memory = self._seats[seat]
        if memory is None:
            memory = self._seats[seat] = SeatMemory(np.zeros(self.layout.size, dtype=np.float32))
        write(self.layout, memory, game, seat, history)
        return memory.vector


def checked_seat(layout, seat) -> int:
    """`seat` as an int, a seat of the layout's players (else a clear ArgumentTypeError or
    ArgumentValueError naming it)."""
    return whole_number("seat", seat, low=0, high=layout.n - 1,
                        expected=f"a seat number from 0 to {layout.n - 1} (a layout of {layout.n} players)")


def write(layout, memory: SeatMemory, game, seat: int, history=None) -> None:
    """Bring `memory`'s vector up to the observation of `seat` in `game`: every entry whose
    source differs from what it was written from is written again (all of them the first
    time, into a vector of zeros)."""
    n, at = layout.n, layout._at
    state = game.state
    request = game.pending
    modules = layout.variant.modules
    flat = memory.flat
    # the flow's one-hot flags: a few entries, set again when any moved
    flags = [at["seat"] + seat, layout._phase_at.get(game.phase_name, layout._phase_other),
             at["start_player"] + (state.start_player - seat) % n]
    if request is None:
        flags.append(at["to_move"] + n)
    else:
        flags.append(at["to_move"] + (request.player - seat) % n)
        kind = layout._kind_at.get(request.kind)
        if kind is not None:
            flags.append(kind)
        if request.simultaneous:
            flags.append(at["simultaneous"])
    # the values the rule modules publish, by name (none: 0, nobody holds theft cards, none on auction)
    for (start, size), index in zip(layout._counted, (
            state.kingdom, state.round, min(modules.published(state, "offering_level", 0), layout.levels - 1))):
        if 0 <= index < size:
            flags.append(start + index)
    if flags != memory.flags:
        for index in memory.flags:
            flat[index] = 0.0
        for index in flags:
            flat[index] = 1.0
        memory.flags = flags
    provinces = state.provinces
    owners = list(map(OWNER, provinces))
    auction = tuple(modules.published(state, "on_auction", ()))
    if owners != memory.owners or auction != memory.on_auction:
        first, row = layout._provinces_at, layout._row
        marks = [first + pid * row + (n if owner is None else (owner - seat) % n) for pid, owner in enumerate(owners)]
        marks += [first + pid * row + n + 8 for pid in auction if 0 <= pid < len(provinces)]
        for index in memory.marks:
            flat[index] = 0.0
        for index in marks:
            flat[index] = 1.0
        memory.owners, memory.on_auction, memory.marks = owners, auction, marks
    vector = memory.vector
    players = state.players
    theft = modules.published(state, "theft_cards") or layout._no_theft
    discard, in_play, kinds = state.discard, state.in_play, layout._card_ids
    # the whole numbers, in the order of `layout._positions[seat]` (`prepare`)
    numbers = [*players[seat].hand, *FLATTEN(map(GOLD_AND_SCORE, players)), *theft,
               *map(sum, map(HAND, players)), *map(len, map(PROVINCES, players)),
               *[number for p in provinces for number in (p.farmers, p.free_farmers, p.stones, p.pyramids, p.doubles,
                                                          p.gold)],  # (slots read in a loop: quicker than attrgetter)
               *map(len, map(CARDS, provinces)),
               state.supply_farmers, state.supply_stones, state.supply_pyramids, state.supply_doubles, len(state.deck),
               *map(discard.count, kinds), *(map(in_play.count, kinds) if in_play else layout._no_cards)]
    written = memory.numbers
    if numbers != written:
        positions = layout._positions[seat]
        if written is UNSET or len(written) != len(numbers):  # (all of them: one numpy call)
            try:
                found = np.fromiter(numbers, dtype=np.int64, count=len(numbers))
            except OverflowError:  # (beyond 64 bits: clipped first, in Python)
                found = np.fromiter(map(_bounded_whole, numbers), dtype=np.int64, count=len(numbers))
            vector[layout._position_arrays[seat]] = found.clip(-BOUND_WHOLE, BOUND_WHOLE, out=found)
        else:
            for index in compress(count(), map(ne, numbers, written)):  # (the few that changed, found at C speed)
                number = numbers[index]
                flat[positions[index]] = number if -BOUND_WHOLE <= number <= BOUND_WHOLE else _bounded_whole(number)
        memory.numbers = numbers
    if layout._rule_parts:
        _write_rule_data(layout, memory, state.rules, seat)
    asked = request if request is not None and request.player == seat else None
    if asked is not memory.request:
        if memory.context_written:
            vector[layout._context_span] = 0.0
            memory.context_written = False
        if asked is not None and asked.context:
            parts = layout._context_parts
            for key, value in asked.context.items():  # (a lazy context's keys: not one look-up per part)
                found = parts.get(key)
                if found is not None and value is not None:
                    write_field, start, size = found
                    write_field(memory.flat, start, size, n, value, seat)  # (item by item: a memoryview is quicker)
                    memory.context_written = True
        memory.request = asked
    if layout.history:
        _write_history(layout, memory, history, seat)


def _write_rule_data(layout, memory: SeatMemory, data: dict, seat: int) -> None:
    """The rule modules' own data as each shows it to `seat` (`view_state`), a module's fields
    written again when its data changed."""
    n, vector = layout.n, memory.vector
    written = memory.rules
    for module, fields, span in layout._rule_parts:
        mine = data.get(module.key)
        if mine == written.get(module.key, UNSET):
            continue
        if module.key in written:
            vector[span] = 0.0
        written[module.key] = copy_data(mine) if memory.keeps else None
        if mine is None:
            continue
        if layout._shown[module.key]:  # a module with hidden data shows each seat its part
            mine = module.view_state(mine, seat)
        if not mine:
            continue
        for field, write_field, start, size in fields:
            value = mine.get(field)
            if value is not None:
                write_field(memory.flat, start, size, n, value, seat)  # (item by item: a memoryview is quicker)


def _write_history(layout, memory: SeatMemory, history, seat: int) -> None:
    """The last round's public history (all 0 without one), written again when the round it
    shows changed."""
    key = None if history is None else (history, history.rounds)
    if key == memory.history:
        return
    start = layout._at["history.bids"]
    vector = memory.vector
    if history is None:
        vector[start:] = 0.0
    else:
        history.write(vector, start, seat)
        np.minimum(vector[start:], BOUND, out=vector[start:])
    memory.history = key


def prepare(layout) -> None:
    """Work out once what `write` looks up at every call: each section's start, the index of
    each kind and phase, where each whole number of `write`'s list goes for each seat."""
    n, provinces, cards = layout.n, len(layout.variant.board), len(layout.variant.cards)
    at = {name: start for name, start, _, _ in layout.sections}
    layout._at = at
    layout._kind_at = {kind: at["kind"] + i for i, kind in enumerate(layout.space.kinds)}
    layout._phase_at = {phase: at["phase"] + i for i, phase in enumerate(layout.phases)}
    layout._phase_other = at["phase"] + len(layout.phases)  # (setup, game over)
    row = n + 9  # a province's entries: owner one-hot (n + 1), 7 numbers, on auction
    layout._row, layout._provinces_at, layout._card_ids = row, at["provinces"], range(cards)
    layout._no_theft, layout._no_cards = (0,) * n, (0,) * cards
    layout._positions = [_number_positions(at, n, provinces, cards, seat) for seat in range(n)]
    layout._position_arrays = [np.array(positions, dtype=np.intp) for positions in layout._positions]
    # the one-hot sections of a count: the kingdom, the round, the offering level
    layout._counted = [(layout.slices[name].start, layout.slices[name].stop - layout.slices[name].start)
                       for name in ("kingdom", "round", "offering_level")]
    layout._shown = {m.key: hides for m, hides in layout.variant.modules.shown}

    def writing(what: str, part: slice) -> tuple:
        return WRITERS[what], part.start, part.stop - part.start

    # each rule module's fields: its writer (`WRITERS`), where it starts, its size; and the whole span
    layout._rule_parts = []
    for module, fields, name in layout.rule_data:
        parts = [(field, *writing(what, layout.slices[f"rules.{name}.{field}"])) for field, what in fields.items()]
        span = slice(min(start for _, _, start, _ in parts), max(start + size for _, _, start, size in parts))
        layout._rule_parts.append((module, parts, span))
    layout._context_parts = {key: writing(what, layout.slices[f"context.{key}"])
                             for key, what in layout.space.context.items()}
    context = [layout.slices[f"context.{key}"] for key in layout.space.context]
    layout._context_span = slice(min((part.start for part in context), default=0),
                                 max((part.stop for part in context), default=0))


def _number_positions(at: dict, n: int, provinces: int, cards: int, seat: int) -> list[int]:
    """Where each whole number `write` lists goes in the vector of `seat`, in its order: the
    seat's hand; each player's gold and score, theft cards, hand size, provinces held (by
    absolute seat, to the entries of his seat relative to `seat`); each province's six numbers
    then each province's face-down cards; the supplies; the draw pile's size; the discard pile's
    and the face-up cards' counts by card id."""
    players = [at["players"] + 5 * ((p - seat) % n) for p in range(n)]
    row, first = n + 9, at["provinces"]
    return [*range(at["hand"], at["hand"] + cards),
            *(start + i for start in players for i in (0, 1)), *(start + 2 for start in players),
            *(start + 3 for start in players), *(start + 4 for start in players),
            *(first + pid * row + n + 1 + i for pid in range(provinces) for i in range(6)),
            *(first + pid * row + n + 7 for pid in range(provinces)),
            *range(at["supplies"], at["supplies"] + 4), at["cards"],
            *range(at["cards"] + 1, at["cards"] + 1 + 2 * cards)]


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
