"""What one seat may know: a read-only view of the game for one player.

An agent receives `game.view(player)` and the request, never the state. The view shows
every public fact of the board (owners, farmers, stones, pyramids, gold lying on
provinces, how many cards lie face down on them), each player's gold, score, provinces
and hand size, the player's own hand, the start player, the supplies, the size of the draw
pile and the face-up cards; each value a rule module publishes (`published`: the offering
level, the provinces on auction, the theft cards held, where the variant's modules
publish them); and each rule module's own data as its `view_state` shows it to this player. It never
shows another hand's cards, the draw pile's order, the face-down cards' kinds, the random
generator, or a sealed answer of a simultaneous batch (those are not in the state).

Views are live: they read the current state each time, so a game keeps one per seat and
asking for it costs nothing. Nothing a view hands out is a live part of the game: numbers,
tuples, and fresh copies of lists and dicts (a module's data, a player's breakdown), so an
agent may do with them what it likes. Python cannot wall an object off: the underscore attributes
(`_game`, `_p`) reach the state, and an agent that reads them cheats. The built-in agents
use only the public attributes, and `to_dict()` (what the conformance suite compares) holds
nothing hidden. `to_dict()` is a JSON-able snapshot, which the conformance
suite compares across games that differ only in what the player may not know.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from amunre.core.facets import HiddenFacet
from amunre.core.state import copy_data

if TYPE_CHECKING:
    import random

    from amunre.core.engine import Game
    from amunre.core.model import Variant
    from amunre.core.state import GameState, PlayerState, ProvinceState


#: A province's public face: (owner, farmers, free_farmers, stones, pyramids, doubles, gold,
#: cards), the cards lying on it by their number.
Face = tuple[int | None, int, int, int, int, int, int, int]
#: A player's public holding: (gold, provinces, score).
Holding = tuple[int, tuple[int, ...], int]


def face(p: ProvinceState) -> Face:
    """The public face of a province's state (`PlayerView.faces` writes the same out for every
    province at once: keep the two alike)."""
    return (p.owner, p.farmers, p.free_farmers, p.stones, p.pyramids, p.doubles, p.gold, len(p.cards))


def holding(p: PlayerState) -> Holding:
    """The public holding of a player's state (`PlayerView.holdings` writes the same out for
    every player at once: keep the two alike)."""
    return (p.gold, tuple(p.provinces), p.score)


class ProvinceView:
    """The public face of one province."""

    __slots__ = ("_p",)

    def __init__(self, province: ProvinceState) -> None:
        self._p = province

    # (properties written out, not `property(lambda ...)`: so that their types are known)
    @property
    def owner(self) -> int | None:
        """The seat that holds it, or None."""
        return self._p.owner

    @property
    def farmers(self) -> int:
        """Farmers on its fields."""
        return self._p.farmers

    @property
    def free_farmers(self) -> int:
        """Farmers placed by a card (the free farmer), not on a field."""
        return self._p.free_farmers

    @property
    def stones(self) -> int:
        """Stones not yet built into a pyramid."""
        return self._p.stones

    @property
    def pyramids(self) -> int:
        """Single pyramids (1 each toward the count)."""
        return self._p.pyramids

    @property
    def doubles(self) -> int:
        """Double pyramids (2 each toward the count, where the edition has them)."""
        return self._p.doubles

    @property
    def gold(self) -> int:
        """Gold lying on it, taken by whoever acquires it."""
        return self._p.gold

    @property
    def cards(self) -> int:
        """Face-down cards lying on it: how many, not which."""
        return len(self._p.cards)

    def pyramid_count(self) -> int:
        """Its pyramids as the scoring counts them: singles plus twice the doubles."""
        return self._p.pyramid_count()

    def public(self) -> Face:
        """(owner, farmers, free_farmers, stones, pyramids, doubles, gold, cards) at once: a
        search agent reads them all at every decision."""
        return face(self._p)

    def all_farmers(self) -> int:
        """Every farmer on it: on the fields and placed by a card."""
        return self._p.all_farmers()

    def to_dict(self) -> dict[str, Any]:
        """Its public face as a dict (what the conformance suite compares)."""
        return {k: getattr(self, k) for k in ("owner", "farmers", "free_farmers", "stones", "pyramids", "doubles",
                                               "gold", "cards")}


class PlayerInfo:
    """What everyone knows about one player: his hand only by its size."""

    __slots__ = ("_p",)

    def __init__(self, player: PlayerState) -> None:
        self._p = player

    @property
    def gold(self) -> int:
        """Gold held."""
        return self._p.gold

    @property
    def score(self) -> int:
        """Points so far."""
        return self._p.score

    @property
    def provinces(self) -> tuple[int, ...]:
        """Ids of the provinces he holds."""
        return tuple(self._p.provinces)

    @property
    def hand_size(self) -> int:
        """How many cards he holds (which, only he knows)."""
        return sum(self._p.hand)

    @property
    def breakdown(self) -> dict[str, int]:
        """His points so far by scoring item key (the keys of `amunre run --json`'s breakdown), a copy."""
        return dict(self._p.breakdown)

    def holding(self) -> Holding:
        """(gold, provinces, score) at once: a search agent reads them at every decision."""
        return holding(self._p)

    def to_dict(self) -> dict[str, Any]:
        """What everyone knows of him as a dict."""
        return {"gold": self.gold, "score": self.score, "provinces": list(self._p.provinces),
                "hand_size": self.hand_size, "breakdown": self.breakdown}


class PlayerView:
    """Everything `player` may know of `game`, read live from its state."""

    __slots__ = ("_game", "player", "_players", "_provinces")

    #: What each plain attribute holds (docs/agent-view.md is made from these and the docstrings).
    ATTRIBUTES = {"player": "The seat this view is of: 0, 1, ... (the request's `player`)."}

    _players: tuple[PlayerInfo, ...] | None
    _provinces: tuple[ProvinceView, ...] | None

    def __init__(self, game: Game, player: int) -> None:
        self._game = game
        self.player = player
        # built on first use: an agent that reads only the request pays nothing
        self._players = self._provinces = None

    @property
    def players(self) -> tuple[PlayerInfo, ...]:
        """What everyone knows of each player, by seat."""
        if self._players is None:
            self._players = tuple(PlayerInfo(p) for p in self._game.state.players)
        return self._players

    @property
    def provinces(self) -> tuple[ProvinceView, ...]:
        """The public face of each province, by province id."""
        if self._provinces is None:
            self._provinces = tuple(ProvinceView(p) for p in self._game.state.provinces)
        return self._provinces

    def holdings(self) -> tuple[Holding, ...]:
        """Every player's `PlayerInfo.holding()`, by seat, at once (what the planner keys its
        valuations on at each decision: no view object per player)."""
        # (`holding` written out in one comprehension: a call for each player costs more)
        return tuple([(p.gold, tuple(p.provinces), p.score) for p in self._game.state.players])

    def faces(self) -> tuple[Face, ...]:
        """Every province's `ProvinceView.public()`, by id, at once (as `holdings`)."""
        # (`face` written out in one comprehension: a call for each province costs more)
        return tuple([(p.owner, p.farmers, p.free_farmers, p.stones, p.pyramids, p.doubles, p.gold, len(p.cards))
                      for p in self._game.state.provinces])

    # -- the rules (public) ---------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        """The variant played (its edition, components, params, rulings, modules, terms): shared
        by every game of it, so read it and never change it."""
        return self._game.variant

    def published(self, name: str, default: Any = None) -> Any:
        """The value a rule module publishes under `name` (`amunre.core.contract.Rule.publishes`:
        "offering_level", "on_auction", "theft_cards" by seat, as the built-in modules name
        them), a copy; `default` when no module of the variant publishes it. Published
        values are public: every seat sees the same."""
        return copy_data(self._game.variant.modules.published(self._game.state, name, default))

    # The names of the view from before the rule data moved to its modules: they still read,
    # with a DeprecationWarning that says what to read instead (a bot written against them).
    @property
    def offering_level(self) -> Any:
        """Deprecated: `published("offering_level", 0)`."""
        return self._moved("offering_level", 0)

    @property
    def on_auction(self) -> Any:
        """Deprecated: `published("on_auction", ())`."""
        return tuple(self._moved("on_auction", ()))

    def _moved(self, name: str, default: Any) -> Any:
        warnings.warn(f"PlayerView.{name} is now read by name: view.published({name!r}, {default!r}) "
                      "(docs/plugins.md, published values)", DeprecationWarning, stacklevel=3)
        return self.published(name, default)

    def publishes(self, name: str) -> bool:
        """Whether a rule module of the variant publishes `name` (a face shows it only then)."""
        return name in self._game.variant.modules.published_at

    # -- own holdings ---------------------------------------------------------------------
    @property
    def me(self) -> PlayerInfo:
        """`players[player]`: the seat's own public facts."""
        return self.players[self.player]

    @property
    def hand(self) -> tuple[int, ...]:
        """Own cards: count per card id (the variant's `cards`)."""
        return tuple(self._game.state.players[self.player].hand)

    # -- public facts ---------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        """How many play."""
        return self._game.state.n_players

    @property
    def kingdom(self) -> int:
        """The kingdom, from 0 (the Old Kingdom in the printed editions)."""
        return self._game.state.kingdom

    @property
    def round(self) -> int:
        """The round of the kingdom, from 0."""
        return self._game.state.round

    @property
    def start_player(self) -> int:
        """The seat that starts the round (the pharaoh)."""
        return self._game.state.start_player

    @property
    def deck_size(self) -> int:
        """Cards left in the draw pile (its order is hidden)."""
        return len(self._game.state.deck)

    @property
    def discard(self) -> tuple[int, ...]:
        """The discard pile: each card's id, in the order discarded."""
        return tuple(self._game.state.discard)

    @property
    def in_play(self) -> tuple[int, ...]:
        """Cards played face up this phase, by id, until the phase ends."""
        return tuple(self._game.state.in_play)

    @property
    def phase(self) -> str:
        """The running phase's or scoring's name (`auction`, `offering`, ...; `setup` before the first)."""
        return self._game.phase_name

    @property
    def supplies(self) -> dict[str, int]:
        """What the general supply still holds: farmers, stones, pyramids, doubles."""
        s = self._game.state
        return {"farmers": s.supply_farmers, "stones": s.supply_stones, "pyramids": s.supply_pyramids,
                "doubles": s.supply_doubles}

    def turn_order(self) -> list[int]:
        """The seats from the start player on, clockwise."""
        return self._game.state.turn_order()

    def sample_game(self, rng: random.Random) -> Game:
        """A game consistent with everything this seat may know, the rest drawn again with
        `rng` (`Game.determinize`): what a search agent plays forward. Asked of the seat
        whose decision is pending (or once the game is over)."""
        return self._game.determinize(self.player, rng)

    @property
    def rules(self) -> dict[str, Any]:
        """Each stateful module's data, as it shows it to this player: a copy, so that nothing
        its reader does to it (a hypothetical play of a module, a bot's bookkeeping) reaches
        the game (`view_state` may hand back the game's own data, as the default does)."""
        return self.rules_unless(None)

    def rules_unless(self, kept: dict[str, Any] | None) -> dict[str, Any]:
        """`rules`, or `kept` itself where it holds just what `rules` would now (a copy its
        reader took before and never changed): no copy is made then. A planner asks at every
        decision, and the modules' data seldom changes between two."""
        data, player = self._game.state.rules, self.player
        # a module without the hidden-information facet shows all of its data (`Modules.shown`;
        # `hides`: the module is a HiddenFacet, whose view_state the type checker cannot see on a Rule)
        shown = {m.key: m.view_state(data[m.key], player) if hides else data[m.key]  # type: ignore[attr-defined]
                 for m, hides in self._game.variant.modules.shown if m.key in data}
        if kept is not None and kept == shown:  # (compared at C speed; copying is not)
            return kept
        copied: dict[str, Any] = copy_data(shown)
        return copied

    def rule_data(self, key: str) -> Any:
        """One module's data (by its key), as `rules` holds it: the copy of what it shows this
        player. KeyError for a module that keeps none."""
        module = self._game.variant.modules.rule(key)
        data = self._game.state.rules[key]
        if isinstance(module, HiddenFacet):  # (without the facet a module shows all of its data)
            data = module.view_state(data, self.player)
        return copy_data(data)

    def to_dict(self) -> dict[str, Any]:
        """The whole view as JSON-able data (what the conformance suite compares across games
        that differ only in what the seat may not know)."""
        return {
            "player": self.player,
            "hand": list(self.hand),
            "players": [p.to_dict() for p in self.players],
            "provinces": [p.to_dict() for p in self.provinces],
            "kingdom": self.kingdom,
            "round": self.round,
            "start_player": self.start_player,
            "deck_size": self.deck_size,
            "discard": list(self.discard),
            "in_play": list(self.in_play),
            "supplies": self.supplies,
            "rules": self.rules,
            "phase": self.phase,
        }


def hide_from(variant: Variant, state: GameState, player: int, rng: random.Random, cards: bool = True) -> None:
    """Re-draw, in place, what `player` may not know of `state`, keeping all he may know.

    The draw pile's order, the face-down cards on provinces and (with `cards`) the other
    players' cards are dealt again from their pooled kinds, each place keeping its size; the
    game gets another seed (its random streams with it); each rule module re-draws its own hidden data
    (`hidden_variants`, which must likewise start from an order the player may know). The
    player's view is the same before and after: the conformance suite checks that
    (`[views]`); and what is drawn depends on `rng` and the view alone (tests/test_mcts.py)."""
    pools = [state.deck] + [p.cards for p in state.provinces if p.cards]
    sizes = [len(pool) for pool in pools]
    others = [p for i, p in enumerate(state.players) if i != player] if cards else []
    pooled = [card for pool in pools for card in pool]
    for other in others:
        pooled += [kind for kind, count in enumerate(other.hand) for _ in range(count)]
    # from an order the player may know: the same `rng` then draws the same facts whatever the
    # truth was (else a search agent's choice would follow the hidden cards through its draws)
    pooled.sort()
    rng.shuffle(pooled)
    at = 0
    for pool, size in zip(pools, sizes):
        pool[:] = pooled[at:at + size]
        at += size
    for other in others:
        size = sum(other.hand)
        other.hand[:] = [0] * len(other.hand)
        for card in pooled[at:at + size]:
            other.hand[card] += 1
        at += size
    for module in variant.modules.stateful:
        if module.key in state.rules and isinstance(module, HiddenFacet):
            state.rules[module.key] = module.hidden_variants(state.rules[module.key], player, rng)
    # the game's seed with the public answers replays the whole truth, and its random
    # streams would draw what the truth will draw: another seed
    state.seed = rng.getrandbits(63)
