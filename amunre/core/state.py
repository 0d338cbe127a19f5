"""Game state: the data of one game (players, provinces, supplies, decks, start player, and
each rule module's own data).

Flow data (which phase is running, whose decision is pending) lives in the engine, not
here. The state is plain attributes on slotted classes with integer ids so the hot path
stays fast; it converts to a JSON-able dict and back (`to_dict` / `from_dict`), and the
two are equal after a round trip.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from amunre.core.streams import draw

#: Effectively unlimited supply when a variant rules supplies infinite (A-SUPPLY).
UNLIMITED = 10**9


class PlayerState:
    """One player's holdings. `hand[k]` counts cards of kind k (the variant's `cards[k]`)."""

    __slots__ = ("gold", "hand", "provinces", "score", "breakdown")

    def __init__(self, gold: int = 0, n_cards: int = 0):
        self.gold = gold
        self.hand = [0] * n_cards
        self.provinces: list[int] = []
        self.score = 0
        # (kingdom index, scoring item key) -> points
        self.breakdown: dict[str, int] = {}

    def card_count(self) -> int:
        return sum(self.hand)


class ProvinceState:
    """What lies in a province on the board. `owner` is None when nobody controls it."""

    __slots__ = ("owner", "farmers", "free_farmers", "stones", "pyramids", "doubles", "cards", "gold")

    def __init__(self) -> None:
        self.owner: int | None = None
        self.farmers = 0  # on field spaces
        self.free_farmers = 0  # placed by a free farmer card, not on a field
        self.stones = 0
        self.pyramids = 0  # single pyramids
        self.doubles = 0  # double pyramids (2 each)
        self.cards: list[int] = []  # free cards lying face down until acquired
        self.gold = 0  # free gold lying on the province until acquired

    def pyramid_count(self) -> int:
        return self.pyramids + 2 * self.doubles

    def all_farmers(self) -> int:
        return self.farmers + self.free_farmers


class GameState:
    """Everything about a game that is not control flow.

    It holds what the game's shape gives every variant; what a rule module introduces (the
    offering level, the provinces on auction, the theft cards held) lives in that module's
    own data, `rules`, and the others read it by the name it publishes
    (`amunre.core.contract.Rule.publishes`)."""

    __slots__ = (
        "seed", "draws", "n_players", "players", "provinces", "kingdom", "round", "start_player",
        "supply_farmers", "supply_stones", "supply_pyramids", "supply_doubles",
        "deck", "discard", "in_play",
        "bank_paid", "bank_given", "finished", "winners", "rules",
    )

    def __init__(self, n_players: int, n_provinces: int, seed: int, n_cards: int = 0):
        self.seed = seed
        # how many draws each named random stream has made (`random`, `amunre.core.streams`)
        self.draws: dict[str, int] = {}
        self.n_players = n_players
        self.players = [PlayerState(n_cards=n_cards) for _ in range(n_players)]
        self.provinces = [ProvinceState() for _ in range(n_provinces)]
        self.kingdom = 0
        self.round = 0
        self.start_player = 0
        self.supply_farmers = 0
        self.supply_stones = 0
        self.supply_pyramids = 0
        self.supply_doubles = 0
        self.deck: list[int] = []  # favor/power cards, top is the end of the list
        self.discard: list[int] = []
        self.in_play: list[int] = []  # cards played face up until the phase ends
        self.bank_paid = 0  # gold players paid to the bank
        self.bank_given = 0  # gold the bank paid to players
        self.finished = False
        self.winners: list[int] = []
        # each rule module's own data, by its pipeline entry id (plain JSON data; see
        # amunre.core.contract.Rule.initial_state)
        self.rules: dict[str, Any] = {}

    # -- chance ---------------------------------------------------------------------------
    def random(self, stream: str) -> random.Random:
        """The generator of the next draw from the named stream (`amunre.core.streams`): use it
        for one draw (a shuffle, a pick) and ask again for the next."""
        n = self.draws.get(stream, 0)
        self.draws[stream] = n + 1
        return draw(self.seed, stream, n)

    # -- turn order ---------------------------------------------------------------------
    def turn_order(self) -> list[int]:
        """Players from the start player, clockwise."""
        n, s = self.n_players, self.start_player
        return [(s + i) % n for i in range(n)]

    # -- serialization ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name in self.__slots__:
            if name == "players":
                data["players"] = [{k: _plain(getattr(p, k)) for k in PlayerState.__slots__} for p in self.players]
            elif name == "provinces":
                data["provinces"] = [{k: _plain(getattr(p, k)) for k in ProvinceState.__slots__}
                                     for p in self.provinces]
            else:
                data[name] = _plain(getattr(self, name))
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        state = cls(data["n_players"], len(data["provinces"]), data["seed"])
        for name in cls.__slots__:
            if name == "players":
                state.players = [_restore(PlayerState, entry) for entry in data["players"]]
            elif name == "provinces":
                state.provinces = [_restore(ProvinceState, entry) for entry in data["provinces"]]
            else:
                setattr(state, name, copy_data(data[name]))
        return state

    def clone(self) -> GameState:
        """A copy through the JSON form (what a position file or a log holds)."""
        return GameState.from_dict(self.to_dict())

    def copy(self) -> GameState:
        """An independent copy, made directly (a game's clone takes one), the rule modules'
        data with it: nothing of it is shared with this state."""
        twin = GameState.__new__(GameState)
        twin.seed, twin.n_players, twin.kingdom, twin.round = self.seed, self.n_players, self.kingdom, self.round
        twin.start_player = self.start_player
        twin.supply_farmers, twin.supply_stones = self.supply_farmers, self.supply_stones
        twin.supply_pyramids, twin.supply_doubles = self.supply_pyramids, self.supply_doubles
        twin.bank_paid, twin.bank_given, twin.finished = self.bank_paid, self.bank_given, self.finished
        twin.deck, twin.discard, twin.in_play = self.deck[:], self.discard[:], self.in_play[:]
        twin.winners = self.winners[:]
        twin.draws = dict(self.draws)
        players = []
        for p in self.players:
            q = PlayerState.__new__(PlayerState)
            q.gold, q.hand, q.provinces = p.gold, p.hand[:], p.provinces[:]
            q.score, q.breakdown = p.score, p.breakdown.copy()
            players.append(q)
        twin.players = players
        provinces = []
        for pv in self.provinces:  # (not p, q: those are players above)
            qv = ProvinceState.__new__(ProvinceState)
            qv.owner, qv.farmers, qv.free_farmers, qv.stones = pv.owner, pv.farmers, pv.free_farmers, pv.stones
            qv.pyramids, qv.doubles, qv.cards, qv.gold = pv.pyramids, pv.doubles, pv.cards[:], pv.gold
            provinces.append(qv)
        twin.provinces = provinces
        twin.rules = copy_data(self.rules)
        return twin

    def assign(self, other: GameState) -> None:
        """Make this state equal to `other` (its seed apart) in place: every list, player and
        province object stays the one it was, so that a rule's step under way, which holds
        them, sees the new values (`Game.determinize`)."""
        for name in ("n_players", "kingdom", "round", "start_player", "supply_farmers",
                     "supply_stones", "supply_pyramids", "supply_doubles", "bank_paid", "bank_given", "finished"):
            setattr(self, name, getattr(other, name))
        for name in ("deck", "discard", "in_play", "winners"):
            getattr(self, name)[:] = getattr(other, name)
        self.draws.clear()
        self.draws.update(other.draws)
        for mine, theirs in zip(self.players, other.players):
            mine.gold, mine.score = theirs.gold, theirs.score
            mine.hand[:] = theirs.hand
            mine.provinces[:] = theirs.provinces
            mine.breakdown.clear()
            mine.breakdown.update(theirs.breakdown)
        for ours, them in zip(self.provinces, other.provinces):  # (not mine, theirs: those are players)
            ours.owner, ours.farmers, ours.free_farmers = them.owner, them.farmers, them.free_farmers
            ours.stones, ours.pyramids, ours.doubles, ours.gold = them.stones, them.pyramids, them.doubles, them.gold
            ours.cards[:] = them.cards
        for key in list(self.rules):
            if key not in other.rules:
                del self.rules[key]
        for key, data in other.rules.items():
            held = self.rules.get(key)
            if isinstance(held, dict) and isinstance(data, dict):
                held.clear()
                held.update(copy_data(data))
            elif isinstance(held, list) and isinstance(data, list):
                held[:] = copy_data(data)
            else:
                self.rules[key] = copy_data(data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable (mypy expects a method here)


def copy_data(value: Any) -> Any:
    """A deep copy of plain data (lists, dicts, and immutable leaves such as numbers, strings
    and tuples): a rule module's own slice of state."""
    # (exact types first: plain data is lists and dicts themselves, and `type(x) is` costs no call)
    kind = type(value)
    if kind is dict or (kind is not list and isinstance(value, dict)):
        # a module's data is a dict of numbers and lists of numbers: a leaf is taken as it is and
        # a list copied here, without a call for either (this runs at every view of the data)
        copied = {}
        for key, item in value.items():
            of = type(item)
            if of in _LEAVES:
                copied[key] = item
            elif of is list:  # (a list of leaves, the usual one, is checked and copied by C loops)
                copied[key] = item[:] if _LEAVES.issuperset(map(type, item)) else [
                    v if type(v) in _LEAVES else copy_data(v) for v in item]
            else:
                copied[key] = copy_data(item)
        return copied
    if kind is list or isinstance(value, list):
        return [v if type(v) in _LEAVES else copy_data(v) for v in value]
    return value


#: The types `copy_data` takes as they are at a glance (any other immutable value is too, after a call).
_LEAVES = frozenset({int, str, float, bool, type(None), tuple})


_Slotted = TypeVar("_Slotted", PlayerState, ProvinceState)


def _restore(cls: type[_Slotted], entry: dict[str, Any]) -> _Slotted:
    """A PlayerState or ProvinceState with its slots taken from a `to_dict` entry."""
    obj = cls()
    for k in cls.__slots__:
        setattr(obj, k, copy_data(entry[k]))
    return obj


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
