"""What a seat's holding brings it in the kingdoms after the one being played: the planner's
horizon past the kingdom's scoring.

A pyramid built in the Old Kingdom still stands in the New one, and gold or cards kept are
still held there; a province's owner and its farmers are not. What carries over is not known
here: it is what the variant's own transition does (the flow's start of a kingdom,
`amunre.core.flow.start_kingdom`: the core's R-GAME-05, then each rule module's
`start_kingdom`), played on copies of the position. The model, in full:

- The next kingdom's position is made by playing the transition on a copy of the position
  (`project`). What the transition leaves as it was is *carried*: found once per variant,
  player count and kingdom by playing it on two marked positions (`carried`): in both
  editions the stones, the pyramids, the gold and the cards held. A later kingdom's points
  follow what is carried as it stands now; what the transition clears is cleared the same way
  from any position (checked on the two: an aspect it changes otherwise counts as carried).
- A province nobody holds after the transition goes back to auction. A later kingdom's
  scoring counts what the seat gets holding only what it keeps (`alone`), plus `regain` of
  what it would add by holding every province that went back (`with_all` - `alone`), the
  others holding nothing new in both. At `regain` 1/n (None) the seat is taken to win them as
  often as any other seat; the planner counts them all (its default `regain` 1, measured
  stronger: `amunre.agents.planner.DEFAULT_REGAIN`), so a pyramid built now on a province that
  goes back counts a point in each later kingdom, as if it stayed the builder's. For an item
  that adds up over provinces (the pyramids) that is exact for the share; for one that
  compares players (a majority, the fewest pyramids) it is a rougher guess, the seat winning
  every contest with all the provinces. At `regain` 1, where ownership is not carried, the
  sum is what the seat gets holding them all: its projection (below) is made with them held,
  and `alone` is not worked out. A reading of the seat's share instead (the provinces
  dealt out in turn, every n-th to a seat, averaged over the n offsets) was tried five ways,
  for every item or only for the items that holding more provinces can lower; each measured
  weaker wherever measured (docs/agents.md, "Past this kingdom"), so this guess stays: it
  plays better.
- Each later kingdom's scoring items (`Modules.scoring_in`: those that score at its end)
  count at `later` to the power of how many kingdoms away it is (the planner's `later`
  parameter, 1 unless told otherwise: who will hold what is already in the share), all on
  the next kingdom's projected position (a kingdom further on is not projected again). That
  position is made once per seat, from the first position of the kingdom a later term is
  asked on (`LaterKingdoms.projection` says why that is enough).
- The offering level of a later kingdom is taken at the middle level (the rounds in between
  set it again). Its harvests (each phase that pays for holdings, its runs as
  `amunre.planning.runs` counts them) count like
  its scoring items, their gold at the seat's thrift, where they read something carried: in
  the editions they read farmers and owners, which the transition clears, so what they will
  pay follows from what is not yet bought and they are left out; a house rule that keeps the
  farmers (`Rule.keeps_between_kingdoms`) makes a farmer bought now pay a share of them.
"""

from __future__ import annotations

import weakref
from operator import attrgetter
from typing import TYPE_CHECKING

from amunre.core.facets.valuation import ASPECTS, CARD_KIND, LEVEL, ValuationFacet
from amunre.core.flow import start_kingdom
from amunre.planning.runs import runs_in_kingdom
from amunre.planning.table import Table

if TYPE_CHECKING:
    from collections.abc import Callable

    from amunre.core.contract import Rule
    from amunre.core.model import Variant
    from amunre.core.modules import Modules
    from amunre.core.state import GameState

#: The aspects of a holding the transition may carry, each as `carried` tests it.
CARRIABLE = ("provinces", "farmers", "stones", "pyramids", "gold", "cards")
#: What each variant's transition carries, by its modules, then the player count and the
#: kingdom it leads into (`carried`).
_CARRIED: weakref.WeakKeyDictionary[Modules, dict[tuple[int, int], frozenset[str]]] = weakref.WeakKeyDictionary()


def project(state: GameState, variant: Variant, kingdom: int) -> None:
    """Play the variant's transition into `kingdom` on `state` (a copy: it is changed): the
    flow's own start of a kingdom (`amunre.core.flow.start_kingdom`: the core's between
    kingdoms, then every module's `start_kingdom`), at its first round."""
    state.round = 0
    start_kingdom(Table(variant, state), kingdom)  # type: ignore[arg-type]  # (what it reads of a game, a table has)


def carried(variant: Variant, n_players: int, kingdom: int,
            position_of_table: Callable[[], GameState]) -> frozenset[str]:
    """The aspects of a holding (`CARRIABLE`) the variant's transition into `kingdom` leaves as
    they were, for `n_players`: played on two copies of a position (`position_of_table()`, asked only
    then), each with every province held, farmed and built on and every player holding gold
    and cards, marked differently, and compared. An aspect the transition neither leaves nor
    clears the same way from both (a house rule's that halves the gold, say) counts as
    carried: a later kingdom then reads it as it stands now, the nearest this model comes."""
    by_count = _CARRIED.setdefault(variant.modules, {})
    found = by_count.get((n_players, kingdom))
    if found is not None:
        return found
    position = position_of_table()
    probes = [_marked(position, mark) for mark in (1, 2)]
    befores = [probe.copy() for probe in probes]
    for probe in probes:
        project(probe, variant, kingdom)
    kept, cleared_alike = set(CARRIABLE), set(CARRIABLE)
    for aspect in CARRIABLE:
        after = [_aspect(probe, aspect) for probe in probes]
        if any(_aspect(before, aspect) != now for before, now in zip(befores, after)):
            kept.discard(aspect)
        if after[0] != after[1]:
            cleared_alike.discard(aspect)
    found = by_count[n_players, kingdom] = frozenset(aspect for aspect in CARRIABLE
                                                      if aspect in kept or aspect not in cleared_alike)
    return found


def _marked(position: GameState, mark: int) -> GameState:
    """A copy of `position` with every province held (by turns, from seat `mark`), farmed and
    built on, and every player holding gold and cards: the counts differ by `mark`."""
    probe = position.copy()
    n = probe.n_players
    for index, prov in enumerate(probe.provinces):
        prov.owner = (index + mark) % n
        prov.farmers, prov.stones, prov.pyramids, prov.doubles = mark, mark, mark, mark - 1
    for seat, player in enumerate(probe.players):
        player.provinces = [index for index, prov in enumerate(probe.provinces) if prov.owner == seat]
        player.gold, player.hand = 5 * mark + seat, [mark] * len(player.hand)
    return probe


def _aspect(state: GameState, aspect: str) -> tuple[object, ...]:
    """What a position holds of one aspect (`CARRIABLE`), for every province or player."""
    provinces, players = state.provinces, state.players
    if aspect == "provinces":
        return tuple(prov.owner for prov in provinces) + tuple(tuple(player.provinces) for player in players)
    if aspect == "farmers":
        return tuple((prov.farmers, prov.free_farmers) for prov in provinces)
    if aspect == "stones":
        return tuple(prov.stones for prov in provinces)
    if aspect == "pyramids":
        return tuple((prov.pyramids, prov.doubles) for prov in provinces)
    if aspect == "gold":
        return tuple(player.gold for player in players)
    return tuple(tuple(player.hand) for player in players)  # the cards


def _carry(state: GameState, into: GameState, carries: frozenset[str]) -> None:
    """Write the aspects `carries` of `state` (changed by a change being valued) into the
    projected position `into`."""
    if "provinces" in carries:
        for prov, there in zip(state.provinces, into.provinces):
            there.owner = prov.owner
        for player, there_player in zip(state.players, into.players):
            there_player.provinces[:] = player.provinces
    if "farmers" in carries:
        for prov, there in zip(state.provinces, into.provinces):
            there.farmers, there.free_farmers = prov.farmers, prov.free_farmers
    if "stones" in carries:
        for prov, there in zip(state.provinces, into.provinces):
            there.stones = prov.stones
    if "pyramids" in carries:
        for prov, there in zip(state.provinces, into.provinces):
            there.pyramids, there.doubles = prov.pyramids, prov.doubles
    gold, cards = "gold" in carries, "cards" in carries
    if gold or cards:  # (a Nile or pyramids term carries neither: no loop over the players)
        for player, there_player in zip(state.players, into.players):
            if gold:
                there_player.gold = player.gold
            if cards:
                there_player.hand[:] = player.hand


class LaterKingdoms:
    """What a seat's worth counts of the kingdoms after `kingdom` (see the module docstring):
    each scoring item at the sum of the weights of the later kingdoms it scores in (`later`
    the next one, `later` squared the one after), the items that read the same aspects as one
    term (`terms`), all read on one projected position for each seat (`projection`). An item that
    reads nothing the transition carries gives the same points from any position now: it is
    left out (it would change no choice)."""

    def __init__(self, variant: Variant, kingdom: int, later: float, n_players: int,
                 position_of_table: Callable[[], GameState], regain: float | None = None) -> None:
        self.variant, self.kingdom, self.later = variant, kingdom, later
        #: the share of what goes back to auction the seat counts on winning (None: 1/n)
        self.regain = regain
        modules = variant.modules
        weights: dict[Rule, float] = {}
        # each phase that pays for holdings (the harvest): a later kingdom's runs
        # (`amunre.planning.runs`) count as its scoring items do, and only where they read what
        # is carried (kept farmers, say): what is bought there is not held now
        income = [module for module in modules.phases
                  if isinstance(module, ValuationFacet) and module.pays_for_holdings]
        runs = runs_in_kingdom(variant)
        for ahead in range(kingdom + 1, len(variant.edition.kingdoms)):
            for module in modules.scoring_in(ahead):
                weights[module] = weights.get(module, 0.0) + later ** (ahead - kingdom)
            for module in income:
                weights[module] = weights.get(module, 0.0) + runs * later ** (ahead - kingdom)
        self._projections: dict[int, GameState] = {}
        self._returned: dict[int, list[int]] = {}
        if not any(weights.values()):  # (the last kingdom: nothing after it)
            self.terms: tuple[LaterTerm, ...] = ()
            return
        carries = carried(variant, n_players, kingdom + 1, position_of_table)
        #: whether each seat's projection is made with the provinces that went back held by the
        #: seat: counting all of what they add (`regain` 1, the planner's default), `alone` +
        #: (`with_all` - `alone`) is `with_all`, and where ownership is not carried the provinces
        #: that went back are the same from any position, so no later term works `alone` out
        self.holds_returned = regain == 1 and "provinces" not in carries
        by_reads: dict[frozenset[str], list[tuple[Rule, float]]] = {}
        for module, weight in weights.items():
            reads = _carried_reads(module, carries)
            if weight and reads:
                by_reads.setdefault(reads, []).append((module, weight))
        #: a term for each set of aspects some later items read, in pipeline order
        self.terms = tuple(LaterTerm(self, tuple(items), reads) for reads, items in by_reads.items())

    def returned(self, player: int, there: GameState) -> list[int]:
        """The provinces nobody holds in `player`'s projection (`projection`), where ownership
        is not carried: the same from any position."""
        found = self._returned.get(player)
        if found is None:
            found = self._returned[player] = _returned(there)
        return found

    def projection(self, player: int, state: GameState) -> GameState:
        """The position at the next kingdom's start as `player`'s terms read it: made from the
        first position they are asked on (`project`), the offering level at its middle (and,
        where `holds_returned`, the provinces that went back held by `player`).

        Made once, not keyed by the position, because a later term reads of it only (a) what
        the transition carries, written over from the position valued at each ask (`_carry`)
        and part of the term's key (`_signature`), and (b) what the transition clears, the
        same from any position (`carried` checks it on two). The rest (the supplies, the
        discard pile, the modules' data, the start player) is taken from that first position:
        no declared item reads it; an item valued by playing it may, and then reads it as
        the kingdom's first position left it, where the rounds between will change it anyway."""
        found = self._projections.get(player)
        if found is None:
            found = self._projections[player] = state.copy()
            project(found, self.variant, self.kingdom + 1)
            _middle_level(found, self.variant)
            if self.holds_returned:  # (the seat holds them all from here on: `holds_returned`)
                returned = self.returned(player, found)
                for index in returned:
                    found.provinces[index].owner = player
                found.players[player].provinces.extend(returned)
        return found


def _returned(there: GameState) -> list[int]:
    """The provinces nobody holds on a projected position: gone back to auction."""
    return [index for index, prov in enumerate(there.provinces) if prov.owner is None]


def _carried_reads(module: Rule, carries: frozenset[str]) -> frozenset[str]:
    """What of a holding a change must touch to change a later item's points: what the
    transition carries (`carries`) and the item reads (any of it, for an item valued by
    playing it)."""
    declared = module.reads if isinstance(module, ValuationFacet) and _declares(module) else None
    read = ASPECTS | {CARD_KIND} if declared is None else declared
    return frozenset(aspect for aspect in read if aspect.partition(":")[0] in carries)


class LaterTerm:
    """Some scoring items' points in the kingdoms after this one (`items`: each with its
    weight), as a term of a seat's worth: what the seat gets holding what it keeps, plus
    `regain` (1/n unless given) of what it adds holding every province that went back.
    `reads`: what of a holding they read
    that the transition carries (a change of anything else leaves the term as it was)."""

    def __init__(self, kingdoms: LaterKingdoms, items: tuple[tuple[Rule, float], ...], reads: frozenset[str]) -> None:
        self.kingdoms, self.items, self.reads = kingdoms, items, reads
        #: what tells this term from another of a seat's worth (`Worth`'s key)
        self.term_id = (("later kingdoms", kingdoms.kingdom, kingdoms.later, kingdoms.regain)
                        + tuple(module.key for module, _ in items))
        #: its evaluators, by seat, the items' weights (sorted pairs) and the thrift where an
        #: item's points read it (`evaluator_for`)
        self._evaluators: dict[tuple[int, tuple[tuple[str, float], ...], float | None],
                               Callable[[GameState], float]] = {}
        #: whether an item is an income phase, whose gold counts at the thrift
        self._pays = any(isinstance(module, ValuationFacet) and module.pays_for_holdings for module, _ in items)

    def evaluator_for(self, player: int, weights: dict[str, float], thrift: float,
                      points: Callable[[Rule, GameState, int], float]) -> Callable[[GameState], float]:
        """`evaluator`, made once for a seat, the items' `weights` and the `thrift` (what
        `points` values by; the thrift only where an item is an income phase, the others' points
        do not read it): a later worth of the seat with other terms of this kingdom (another
        phase asking, another round) takes it with the values it keeps."""
        key = (player, tuple(sorted(weights.items())), thrift if self._pays else None)
        found = self._evaluators.get(key)
        if found is None:
            found = self._evaluators[key] = self.evaluator(player, points)
        return found

    def evaluator(self, player: int, points: Callable[[Rule, GameState, int], float]
                  ) -> Callable[[GameState], float]:
        """This term for `player` as a function of a position; `points(module, state, player)`
        gives an item's weighted points (an income phase's: one run's gold at the thrift and
        its points), as the seat's worth values its own kingdom's terms.
        Kept by what it reads of the position (`_signature`): the same holdings give the same
        points."""
        kingdoms, items, regain = self.kingdoms, self.items, self.kingdoms.regain
        carries = frozenset(aspect.partition(":")[0] for aspect in self.reads)
        # the provinces that went back: the same from any position unless ownership is carried
        owners_carried = "provinces" in carries
        signature = _signature(carries)
        known: dict[tuple[object, ...], float] = {}
        # (read on a projection made with the provinces that went back held: `holds_returned`)
        holds_all = kingdoms.holds_returned

        def scored(there: GameState) -> float:
            total = 0  # (a loop, as `sum` adds, without a generator: asked at every later term valued)
            for module, weight in items:
                total += weight * points(module, there, player)
            return total

        def with_returned(there: GameState) -> float:
            """Its points on `there`, plus its share of what holding every province that went
            back adds (`regain`, else 1/n)."""
            returned = (_returned(there) if owners_carried else kingdoms.returned(player, there))
            alone = scored(there)
            me = there.players[player]
            owned_before = len(me.provinces)
            for index in returned:
                there.provinces[index].owner = player
            me.provinces.extend(returned)
            try:
                with_all = scored(there)
            finally:
                del me.provinces[owned_before:]
                for index in returned:
                    there.provinces[index].owner = None
            share = regain if regain is not None else 1 / there.n_players
            return alone + (with_all - alone) * share

        def later_points(state: GameState) -> float:
            key = signature(state)
            found = known.get(key)
            if found is None:
                there = kingdoms.projection(player, state)
                _carry(state, there, carries)
                if len(known) >= KNOWN_MOST:
                    known.clear()
                # (where the projection holds them already, all of what they add is what it gets)
                found = known[key] = scored(there) if holds_all else with_returned(there)
            return found
        return later_points


#: At most this many positions' points a later term keeps (`LaterTerm.evaluator`).
KNOWN_MOST = 4096


def _signature(carries: frozenset[str]) -> Callable[[GameState], tuple[object, ...]]:
    """What a later term's points follow from, of a position: the aspects it reads that the
    transition carries (the rest is the projection's, the same from any position)."""
    of_provinces = attrgetter(*[name for aspect, names in _PROVINCE_FIELDS if aspect in carries for name in names]) \
        if any(aspect in carries for aspect, _ in _PROVINCE_FIELDS) else None
    gold, cards = "gold" in carries, "cards" in carries

    def signature(state: GameState) -> tuple[object, ...]:
        # (attrgetter and map: read in C, this is asked at every change valued)
        key: tuple[object, ...] = tuple(map(of_provinces, state.provinces)) if of_provinces is not None else ()
        if gold:
            key += tuple([player.gold for player in state.players])
        if cards:
            key += tuple([tuple(player.hand) for player in state.players])
        return key
    return signature


#: The fields of a province each aspect a later item may read is held in.
_PROVINCE_FIELDS = (("provinces", ("owner",)), ("farmers", ("farmers", "free_farmers")), ("stones", ("stones",)),
                    ("pyramids", ("pyramids", "doubles")))


def _declares(module: ValuationFacet) -> bool:
    """Whether a scoring item declares its points, or an income phase its income (rather than
    being played for them)."""
    if module.pays_for_holdings:
        return type(module).income_for is not ValuationFacet.income_for
    return type(module).points_for is not ValuationFacet.points_for


def middle_level(variant: Variant) -> int | None:
    """The middle of the offering levels the variant's modules can reach (rounded down), at
    which a holding is valued where the level is not known (not yet set, or set again before
    a later kingdom's scoring); None without an offering."""
    highest = variant.modules.max_offering_level
    return (1 + highest) // 2 if highest else None


def _middle_level(state: GameState, variant: Variant) -> None:
    """The offering level of a projected position at the middle level: the rounds before
    that kingdom's scoring set it again."""
    at, middle = variant.modules.published_at.get(LEVEL), middle_level(variant)
    if at is not None and middle is not None:
        state.rules[at] = dict(state.rules[at], **{LEVEL: middle})
