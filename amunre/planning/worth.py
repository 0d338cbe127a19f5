"""The planner's valuation: what a change of one seat's holding is worth to it, in points,
by the variant's own rules. Nothing here knows a rule.

The model. A seat's worth on a position is a sum of terms, each a function of the position:

- the gold it holds, each gold at one number, its `thrift` (below);
- each phase that pays for holdings (`pays_for_holdings`: the harvest), times the runs it has
  left in this kingdom (`amunre.planning.runs`): its gold at the thrift, and its points;
- each scoring item of this kingdom's end (`Modules.scoring_in`) and each final item: the
  points it would give the seat were it scored on the position now (a final item as if the
  seat held no gold while the game goes on: its part of a gold is in the thrift);
- looking past this kingdom (`later`), the later kingdoms' items on the position the variant's
  transition makes of this one (`amunre.planning.horizon`).

Points count at their item's weight (a strategy: `planner:pyramids=2`). A term's points come
from its module: its declared formula (`ValuationFacet.points_for` / `income_for`), else from
playing the module on a copy of the position (`played`), its decisions answered by their first
policy. So a house rule that changes a value, an income, a ruling or the pipeline changes
what a holding is worth, with no line here changed.

The few rule consequences a change itself needs are asked of the module that owns the rule,
never written here again: how many pyramids more stones build with the pieces the supply
holds (`amunre.core.mechanics.pyramids_from_stones_in`), where a farmer may still go
(`free_fields`, for `best_farmer`), what a card sells for (`sell_card`'s price, a card's
floor), and how a later kingdom starts (`amunre.core.flow.start_kingdom`, played by the
horizon).

A change (`Change`: what, where, amount) is worth what it adds to the worth. It is made on the
position, the terms it touches are valued again, and it is taken back (`apply` and `undo`, or
in place for one change). A term is touched when the change touches an aspect of a holding it
reads (`TOUCHES`, `ValuationFacet.reads`; a module valued by playing it reads everything of
this kingdom's position, and, as a later kingdom's item, everything the transition carries):

    ("own", province, 1)         the seat holds the province (for this kingdom; past it, as
                                 the variant's transition leaves it: `amunre.planning.horizon`)
    ("farmers", province, n)     n more farmers on its fields
    ("stones", province, n)      n more stones (some become pyramids, as many as the
                                 construction builds with the pieces the supply holds:
                                 `amunre.core.mechanics.pyramids_from_stones_in`)
    ("pyramids", province, n)    n more single pyramids (a double counts as two where scored)
    ("gold", None, n)            n more gold (negative: paid)
    ("cards", kind, n)           n more cards of that kind in hand
    ("offering_level", None, n)  the offering level set to n (the value a module publishes
                                 under that name: a variant without one values it at nothing)

Gold is one number. A gold is worth what it can still buy in the decisions left to the seat
plus what the final items make of it at the end, counted once:

    thrift = (buys + foresight x final_gold) x (1 + early x (1/2 - the share of the game's rounds begun))

The planner works it out (`PlannerAgent.gold_now`) and gives it to the worth. `buys` is what a
gold buys in the game's middle (the whole-game planner reads it from the variant:
`amunre.planning.even_table`); `final_gold` is what the final items make of a gold on an even
table (every seat holding the seat's gold: for the printed 6, 4, 2 ranking among four, 0.3),
counted at `foresight` (a gold held now may be spent before the end; the standings now say
little about those at the end); the whole is worth more before the middle and less after, as
the decisions left to the seat run out (`early`). So the gold held counts
at the thrift, a gold paid or gained in any change at the thrift (`points_of`, `gold_change`,
`gold_worth`: the same number), and a final item that reads the seat's gold is valued as if the
seat held none: its part is in the thrift, not counted again on the present standings.
At the final scoring (`only_final_left`) nothing is left to buy and the end is now: the thrift
is 0 and the final items read the seat's gold on the true standings (`gold_worth` is then
theirs, averaged over `spread` gold either way: a ranking pays by steps). Other items that read
gold (a house rule's kingdom scoring of it, say) count it as they score it, on top.

The position (`position_of`) is built from the seat's view alone: the others' hands are
unknown, so empty; the modules' data is what the seat is shown of it, copied (a thought never
writes into the live game).

What is kept, and by what key:

- a worth's position, its terms' values and the changes' points are lent to the next worth of
  the same seat (`Worth(previous=...)`) when its `key` is equal (the variant, the seat, the
  items' weights, thrift, foresight, spread, terms, and what the seat sees, `Seen`: the board,
  every player's holding, its hand, the level, the supplies, the discard pile, the cards in
  play, the modules' data); the terms' values and the points too when only what no declared
  term reads moved (the cards in play or on auction, the discard pile, a module's data);
- the terms a change of some aspects touches, by what the terms read (`_TOUCHING`);
- what each card kind's holding adds to a seat's worth (`CardWorths`), by kingdom, whether
  only the final scoring is left, and how many provinces it holds: an approximation (a card's
  worth moves a little with the level, the gold, the pyramids); its floor, what the cards sell
  for at the thrift now, is applied when it is read. One planner seat keeps one; mcts's
  playouts share their planner's across sampled games of the same seat;
- what a worth's decisions work out once for its position (`remember`: the gold's worth at
  the final scoring, a province on auction's worth);
- a later kingdom's projected position, made once per later-kingdoms model from the first
  position a term is asked on (the same from any position in what the transition clears; at
  `regain` 1, where ownership is not carried, with the provinces that went back held by the
  seat), and its points by what they read of the position (`amunre.planning.horizon`);
- what the final items make of a gold on an even table (`final_gold`), in the worth's
  `remember`ed values; the planner keeps it once per variant and player count, and
  `final_gold_of` for the process, by the variant's modules, the player count, the seat, the
  weights, the spread and every player's gold, where each term a change of gold touches reads
  the players' gold alone;
- what a change of each card kind touches (`_CARD_TOUCHES`), by the variant's card kinds;
- in `amunre.planning.horizon`: what each transition carries (`_CARRIED`, by the variant's
  modules, then the player count and the kingdom), the provinces that go back (by player), and
  a later term's points by what it reads (at most `KNOWN_MOST`, then emptied);
- in the planner: the income phases' runs, the thrift and the spread, by the variant, the
  player count, the module asking, the kingdom and the round; each decision kind's declaration
  and module, by the variant.

A decision's `appraise(option, asking, worth)` (`amunre.core.contract.Decision`) turns an
option into changes with its own module's prices and asks `points_of`; the `planner` agent
takes the best. A `Worth` is the valuation facet's `Valuer` (`amunre.core.facets.valuation`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from amunre.core.contract import Rule
from amunre.core.facets.valuation import ASPECTS, CARD_KIND, LEVEL, TOUCHES, ValuationFacet  # noqa: F401 - ASPECTS: the aspects, named here too
from amunre.core.mechanics import CARD_SALE_PRICE, free_fields, pyramids_from_stones_in
from amunre.core.state import GameState
from amunre.planning.horizon import LaterKingdoms, LaterTerm, middle_level
from amunre.planning.table import Table, play_module

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import TypeAlias

    from amunre.core.model import Variant
    from amunre.core.modules import Modules
    from amunre.core.state import PlayerState, ProvinceState
    from amunre.core.view import Face, Holding, PlayerView

    #: Several changes made together, valued together.
    Changes: TypeAlias = "tuple[Change | tuple[str, Any, int], ...]"


class Change(NamedTuple):
    """One change of a seat's holding (see the module docstring); a plain tuple
    `(what, where, amount)` is one too. `where`: a province, a card kind or None, as `what` says."""

    what: str
    where: Any
    amount: int


class Seen(NamedTuple):
    """What a seat sees of the game that its worth reads (`seen_by`): two moments that look
    the same give every change the same points."""

    kingdom: int
    round: int
    #: the offering level (the value its publisher publishes; 0 without one)
    level: int
    hand: tuple[int, ...]
    #: every player's (gold, provinces, points)
    holdings: tuple[Holding, ...]
    #: every province's face (owner, farmers, stones, pyramids, ...)
    faces: tuple[Face, ...]
    in_play: tuple[int, ...]
    #: the rule modules' data as the seat is shown it (the provinces on auction among it)
    rules: dict[str, Any]
    #: what the general supply holds (farmers, stones, pyramids, doubles): the construction
    #: builds a pyramid of stones only while a piece is left (`amunre.core.mechanics`)
    supplies: tuple[int, int, int, int]
    #: the discard pile (a module valued by playing it may read it)
    discard: tuple[int, ...]

    def same_holdings(self, other: Seen) -> bool:
        """Whether `other` differs from this at most in what no declared term reads: the
        cards in play, the discard pile and the modules' data (the provinces on auction among
        it). The supplies count: what more stones build depends on the pieces left."""
        return (self.kingdom == other.kingdom and self.round == other.round and self.level == other.level
                and self.hand == other.hand and self.holdings == other.holdings and self.faces == other.faces
                and self.supplies == other.supplies)


class WorthKey(NamedTuple):
    """What a `Worth` depends on (`Worth.key`): two worths with equal keys value every change
    the same."""

    #: the variant whose rules the terms are (one object for a game: `same_terms` asks `is`)
    variant: Variant
    player: int | None
    #: the scoring items' weights, as sorted (item, weight) pairs
    weights: tuple[tuple[str, float], ...]
    thrift: float
    foresight: float
    spread: int
    #: each term's identity and runs (`Worth._term_ids`)
    terms: tuple[tuple[object, int], ...]
    seen: Seen

    def same_terms(self, other: WorthKey) -> bool:
        """Whether `other` is the same variant, seat, weights, thrift and terms (on another
        position, maybe)."""
        return (self.variant is other.variant and self.player == other.player and self.weights == other.weights
                and self.thrift == other.thrift and self.foresight == other.foresight
                and self.spread == other.spread and self.terms == other.terms)


#: Makes a named tuple of its fields in order: `tuple.__new__`, in C, where the class's own
#: `__new__` is a Python function (these are made thousands of times a game).
_new = tuple.__new__


class _PlayerBefore(NamedTuple):
    """A player's holding before a change (`Undo`); a hand or provinces of None: not changed."""

    #: the player's state on the position, written back into
    player_state: PlayerState
    gold: int
    hand: list[int] | None
    provinces: list[int] | None


class _ProvinceBefore(NamedTuple):
    """A province before a change (`Undo`)."""

    #: the province's state on the position, written back into
    province_state: ProvinceState
    owner: int | None
    farmers: int
    stones: int
    pyramids: int


class Undo(NamedTuple):
    """What `apply` keeps to take a change back (`undo`): the players and provinces it
    touched as they were, and the offering level (`levels`: the data holding it, or None)."""

    players: list[_PlayerBefore]
    provinces: list[_ProvinceBefore]
    levels: dict[str, Any] | None
    level: int | None


#: A player's holding or a province's face, as `position_of` wrote it.
_Written = TypeVar("_Written")
#: What a `Worth.remember`ed function makes (a number, mostly).
_Made = TypeVar("_Made")
#: What more stones touch when they complete no pyramid.
STONES_ONLY = frozenset({"stones"})
#: Where a worth keeps what a gold is worth on its position (`Worth.gold_worth`).
GOLD_WORTH = ("gold worth",)
#: The key `Worth.final_gold` remembers its value by.
FINAL_GOLD = ("final gold",)
#: The terms a change of some aspects touches (their indexes), by what each term reads: the
#: same for every seat and game of a variant, so kept for all (worked out as changes come).
_TOUCHING: dict[tuple[frozenset[str] | None, ...], dict[frozenset[str], list[int]]] = {}
#: What a change of each card kind touches, by a variant's card kinds.
_CARD_TOUCHES: dict[tuple[str, ...], list[frozenset[str]]] = {}
#: The gold a seat holds reads only its gold.
GOLD_HELD = frozenset({"gold"})
#: What the final items make of a gold (`final_gold_of`), by the variant's modules, then the
#: player count, the seat, the weights, the spread and every player's gold.
_FINAL_GOLD: weakref.WeakKeyDictionary[Modules, dict[tuple[object, ...], float]] = weakref.WeakKeyDictionary()
#: How many of those a variant keeps: a seat asks it at its first decision, where every player
#: holds the starting gold, so a handful of keys are asked again and again.
_FINAL_GOLD_KEPT = 1024


def position_of(view: PlayerView, into: GameState | None = None, seen: Seen | None = None,
                before: Seen | None = None) -> GameState:
    """A game state holding everything `view` shows: the board, every player's gold,
    provinces and points, the seat's own hand (the others' are unknown: empty), the
    supplies, the rule modules' data as the seat sees it (with what they publish: the
    offering level, the theft cards held). What is hidden from the seat is not there. `into`: a
    state an earlier call made for the same seat, written over (no new state to build);
    `seen`, what the view shows now (`seen_by`), and `before`, what `into` was made from: then
    only the players and provinces that changed are written."""
    variant = view.variant
    state = into if into is not None else GameState(view.n_players, len(variant.board), 0, len(variant.cards))
    if seen is None:
        seen = seen_by(view)
    holdings, faces = seen.holdings, seen.faces
    old_holdings, old_faces = ((before.holdings, before.faces) if into is not None and before is not None
                               else ((), ()))
    if holdings != old_holdings:
        # (zipped with what was written before, None where nothing was: one comparison each)
        for player, info, old_info in zip(state.players, holdings, _padded(old_holdings, len(holdings))):
            if info != old_info:
                player.gold, owned, player.score = info
                player.provinces = list(owned)
    if view.player is not None:  # (a spectator's view holds no hand)
        state.players[view.player].hand = list(seen.hand)
    if faces != old_faces:
        for prov, seen_face, old_face in zip(state.provinces, faces, _padded(old_faces, len(faces))):
            if seen_face != old_face:
                (prov.owner, prov.farmers, prov.free_farmers, prov.stones, prov.pyramids, prov.doubles, prov.gold,
                 _) = seen_face
    state.kingdom, state.round = view.kingdom, view.round
    state.start_player = view.start_player
    state.supply_farmers, state.supply_stones, state.supply_pyramids, state.supply_doubles = seen.supplies
    state.discard, state.in_play = list(seen.discard), list(seen.in_play)
    rules = state.rules = dict(seen.rules)
    level_at = variant.modules.published_at.get(LEVEL)
    if level_at is not None:  # a copy of its own: the level is changed on it (`apply`), not in `seen`
        rules[level_at] = dict(rules[level_at])
    return state


def final_gold_of(view: PlayerView, weights: dict[str, float], spread: int) -> float:
    """`Worth.final_gold` of a worth of the seat's view once only the final scoring is left,
    kept for every later position that gives it alike: where each term a change of gold
    touches reads the players' gold alone (the printed gold ranking), it follows from the
    variant, the player count, the seat, the weights, the spread and every player's gold, and
    is kept by them (each planner seat asks it once a game, and each worked it out anew);
    else it is worked out on the view."""
    after_the_end = Worth(view, weights, 0.0, {}, True, spread=spread)
    if not all(reads is not None and (reads <= GOLD_HELD or reads.isdisjoint(GOLD_HELD))
               for reads in after_the_end._reads):
        return after_the_end.final_gold()
    key = (view.n_players, view.player, tuple(sorted(weights.items())), after_the_end.spread,
           tuple([gold for gold, _, _ in view.holdings()]))
    known = _FINAL_GOLD.get(view.variant.modules)
    if known is None:
        known = _FINAL_GOLD[view.variant.modules] = {}
    found = known.get(key)
    if found is None:
        if len(known) >= _FINAL_GOLD_KEPT:  # (a long-lived process, e.g. a server, keeps no more than this)
            known.clear()
        found = known[key] = after_the_end.final_gold()
    return found


def _padded(written: tuple[_Written, ...], count: int) -> tuple[_Written | None, ...]:
    """What `position_of` wrote before, `count` long: None where it wrote nothing."""
    return written if len(written) == count else written[:count] + (None,) * (count - len(written))


def seen_by(view: PlayerView, before: Seen | None = None) -> Seen:
    """What the seat sees now that its worth reads (`Seen`): everything public and its hand. A
    module valued by playing it may read any of it; the level, which the terms read, stands
    apart from the modules' data, which they do not. `before`: what it saw at its last
    decision, whose copy of the modules' data is taken where that has not changed since."""
    hand = view.hand if view.player is not None else ()  # (a spectator's view holds no hand)
    rules = view.rules_unless(before.rules if before is not None else None)
    level_at = view.variant.modules.published_at.get(LEVEL)
    level = rules[level_at][LEVEL] if level_at is not None else 0
    supplies = view.supplies
    return _new(Seen, (view.kingdom, view.round, level, hand, view.holdings(), view.faces(), view.in_play, rules,
                       (supplies["farmers"], supplies["stones"], supplies["pyramids"], supplies["doubles"]),
                       view.discard))


def apply(state: GameState, player: int, changes: Changes, levels: dict[str, Any] | None = None) -> Undo:
    """Make `changes` (see the module docstring) to `player`'s holding in `state`; returns
    what `undo` needs to take it back. `levels`: the data of `state` that holds the offering
    level (its publisher's), None where no module publishes one."""
    me = state.players[player]
    kinds = [what for what, _, _ in changes]
    # what the changes can touch is kept (a hand or a list of provinces only when they may change it)
    kept = _new(Undo, ([_new(_PlayerBefore, (me, me.gold, me.hand[:] if "cards" in kinds else None,
                                              me.provinces[:] if "own" in kinds else None))], [],
                       levels, levels[LEVEL] if levels else None))
    for what, where, _ in changes:
        if what in ("own", "farmers", "pyramids", "stones"):
            prov = state.provinces[where]
            kept.provinces.append(_new(_ProvinceBefore, (prov, prov.owner, prov.farmers, prov.stones, prov.pyramids)))
            if what == "own" and prov.owner is not None and prov.owner != player:
                other = state.players[prov.owner]
                kept.players.append(_new(_PlayerBefore, (other, other.gold, other.hand[:], other.provinces[:])))
    for what, where, amount in changes:
        if what == "gold":
            me.gold += amount
        elif what == "cards":
            me.hand[where] += amount
        elif what == LEVEL:
            if levels is not None:
                levels[LEVEL] = amount
        elif what == "own":
            prov = state.provinces[where]
            if prov.owner is not None and prov.owner != player:
                state.players[prov.owner].provinces.remove(where)
            if prov.owner != player:
                prov.owner = player
                me.provinces.append(where)
        elif what == "farmers":
            state.provinces[where].farmers += amount
        elif what == "pyramids":
            state.provinces[where].pyramids += amount
        elif what == "stones":
            _add_stones(state, where, amount)
        else:
            raise _unknown(what)
    return kept


def _unknown(what: object) -> ValueError:
    """The error of a change of no known kind."""
    return ValueError(f"unknown change {what!r} (expected one of {', '.join(TOUCHES)})")


def declares_formula(module: Rule, runs: int) -> bool:
    """Whether `module` declares the formula a term of it is valued by (`income_for` for an
    income phase with `runs` left, else `points_for`: the valuation facet), rather than being
    played."""
    if not isinstance(module, ValuationFacet):
        return False
    if runs:
        return type(module).income_for is not ValuationFacet.income_for
    return type(module).points_for is not ValuationFacet.points_for


def declared_reads(module: Rule, runs: int) -> frozenset[str] | None:
    """What of a holding a term of `module` reads (its valuation facet's `reads`, where it
    declares the term's formula), or None: anything (a module valued by playing it may read
    anything, whatever it declares)."""
    if not (isinstance(module, ValuationFacet) and declares_formula(module, runs)) or module.reads is None:
        return None
    return frozenset(module.reads)


def _not_declared(state: GameState, player: int) -> None:
    """The points or income of a module without the valuation facet: not declared (played instead)."""
    return None


def _add_stones(state: GameState, province: int, amount: int) -> None:
    """`amount` more stones in a province, turned into pyramids as the construction builds
    them with the pieces the supply holds (`amunre.core.mechanics.pyramids_from_stones_in`)."""
    prov = state.provinces[province]
    built, prov.stones = pyramids_from_stones_in(state, province, prov.stones + amount)
    prov.pyramids += built


def undo(state: GameState, kept: Undo) -> None:
    """Take back a change `apply` made (`kept`: what it returned)."""
    if kept.levels is not None:
        kept.levels[LEVEL] = kept.level
    for province_before in reversed(kept.provinces):
        prov = province_before.province_state
        prov.owner, prov.farmers = province_before.owner, province_before.farmers
        prov.stones, prov.pyramids = province_before.stones, province_before.pyramids
    for player_before in reversed(kept.players):
        player = player_before.player_state
        player.gold = player_before.gold
        if player_before.hand is not None:
            player.hand[:] = player_before.hand
        if player_before.provinces is not None:
            player.provinces[:] = player_before.provinces


#: What `CardWorths` keeps a value under: (kind, count) for a holding of cards, ("drawn",
#: thrift) for a card drawn blind at that thrift.
CardKey = tuple[int, int] | tuple[str, float]


class CardWorths:
    """What each card kind is worth to one seat (`Worth.card`, `Worth.drawn_card`), kept
    across its decisions while the key stays the same: the kingdom, whether only the final
    scoring is left, and how many provinces the seat holds (what a card brings changes with
    those, and hardly with each purchase or bid)."""

    __slots__ = ("key", "worths")

    def __init__(self) -> None:
        self.key: tuple[int, bool, int] | None = None
        self.worths: dict[CardKey, float] = {}

    def at(self, view: PlayerView, only_final_left: bool) -> dict[CardKey, float]:
        """The card worths for the seat's position now (new ones when the key moved)."""
        key = (view.kingdom, only_final_left, len(view.me.provinces))
        if key != self.key:
            self.key, self.worths = key, {}
        return self.worths


class Worth:
    """The worth of changes of one seat's holding at one moment (see the module docstring).

    `weights`: scoring item key -> weight (1 if absent); `thrift`: points a gold held is worth
    (what it still buys plus what the final items make of it at the end: the planner's
    `gold_now`), unused once `only_final_left` (only the final scoring is left: a gold buys
    nothing more, and the final items score it on the true standings);
    `income_runs`: income module -> how many times it still runs this kingdom (the planner
    works it out from where the game stands). Nothing is worked out until a value is asked
    for; `previous`, the `Worth` of an earlier decision of the same seat, lends what it worked
    out when the position it stood on is the same (`key` tells), or differs only in what no
    term reads (the cards in play or on auction, a module's data)."""

    __slots__ = ("view", "player", "variant", "weights", "thrift", "foresight", "spread", "_income_runs",
                 "_only_final_left", "_terms", "_reads", "_term_ids", "later", "regain",
                 "_kingdom", "_card_touches", "_previous", "_touching", "_later_kingdoms",
                 "_evaluators", "_base",
                 "_parts", "_gains", "_remembered", "_cards", "_key", "_seen", "_level_at")

    _terms: Sequence[tuple[Rule | LaterTerm | None, int]]
    _reads: tuple[frozenset[str] | None, ...]
    _touching: dict[frozenset[str], list[int]]
    _term_ids: tuple[tuple[object, int], ...]
    _card_touches: list[frozenset[str]]
    _later_kingdoms: LaterKingdoms | None

    def __init__(self, view: PlayerView, weights: dict[str, float], thrift: float, income_runs: dict[Rule, int],
                 only_final_left: bool = False, cards: dict[CardKey, float] | None = None,
                 previous: Worth | None = None, foresight: float = 1.0, spread: int = 1, later: float = 0.0,
                 regain: float | None = None) -> None:
        self.view = view
        self.player = view.player
        self.variant = view.variant
        self.weights = weights
        # (a gold buys nothing once only the final scoring is left: its worth is then the final
        # items' on the true standings, `gold_worth`)
        self.thrift = 0.0 if only_final_left else thrift
        self.foresight = foresight
        self.spread = max(1, spread)
        self.later = later
        self.regain = regain
        kingdom = self._kingdom = view.kingdom
        self._income_runs, self._only_final_left = income_runs, only_final_left
        # the same terms as the last worth's: a caller keeps its runs for a while, in one kingdom
        # (its scoring items, `Modules.scoring_in`, and the kingdoms after it are the terms'; a
        # view is of one game, so the same view is of the same table)
        if previous is not None and previous._income_runs == income_runs \
                and previous._only_final_left == only_final_left \
                and previous.variant is self.variant and previous._kingdom == kingdom \
                and previous.player == self.player \
                and (previous.view is view or previous.view.n_players == view.n_players) \
                and previous.later == later and previous.regain == regain:
            self._terms, self._reads, self._term_ids = previous._terms, previous._reads, previous._term_ids
            self._card_touches, self._touching = previous._card_touches, previous._touching
            self._later_kingdoms = previous._later_kingdoms
        else:
            modules = self.variant.modules
            # what a change of each card kind touches: any card, and that kind
            kinds = self.variant.cards
            found = _CARD_TOUCHES.get(kinds)
            if found is None:
                found = _CARD_TOUCHES.setdefault(kinds, [TOUCHES["cards"] | {CARD_KIND + name} for name in kinds])
            self._card_touches = found
            # the terms of the seat's worth: the gold it holds; each phase that pays for holdings,
            # times the runs it has left in the kingdom; each item scored at this kingdom's end
            # (unless only the final scoring is left) and at the game's
            terms: list[tuple[Rule | LaterTerm | None, int]] = [(None, 1)]
            terms += [(m, runs) for m, runs in income_runs.items() if runs > 0]
            terms += [(m, 0) for m in ([] if only_final_left else list(modules.scoring_in(kingdom)))
                      + list(modules.final_scoring)]
            # and, looking past this kingdom (`later`), what the holding brings in the kingdoms
            # after it (`amunre.planning.horizon`)
            self._later_kingdoms = None
            if later and not only_final_left:
                kingdoms = previous._later_kingdoms if previous is not None else None
                # the last worth's model of the same kingdoms, table, `later` and `regain` (its
                # projections and its terms' values by what they read stay true: another phase
                # asking, or another round, changes the runs of this kingdom's terms, not them)
                if (kingdoms is None or kingdoms.variant is not self.variant or kingdoms.kingdom != kingdom
                        or kingdoms.later != later or kingdoms.regain != regain
                        or previous.view.n_players != view.n_players):  # type: ignore[union-attr]
                    kingdoms = LaterKingdoms(self.variant, kingdom, later, view.n_players,
                                             self._position_of_table, regain)
                self._later_kingdoms = kingdoms
                terms += [(term, 0) for term in kingdoms.terms]
            self._terms = terms
            # what of a holding each term reads (None: anything; a module valued by playing it
            # may read anything, whatever it declares)
            self._reads = tuple(GOLD_HELD if m is None
                                else m.reads if isinstance(m, LaterTerm)
                                else self._gold_blind(declared_reads(m, runs)) if self._counts_gold_at_end(m)
                                else declared_reads(m, runs) for m, runs in self._terms)
            # (a final item valued without the seat's gold is another term than the item itself)
            self._term_ids = tuple((m.term_id if isinstance(m, LaterTerm)
                                    else ("without gold", id(m)) if m is not None and self._counts_gold_at_end(m)
                                    else id(m), runs) for m, runs in self._terms)
            # the terms a change of these aspects touches (worked out as changes come)
            self._touching = _TOUCHING.setdefault(self._reads, {})
        while previous is not None and previous._base is None:  # never asked: nothing to lend
            previous = previous._previous
        self._previous: Worth | None = previous
        # each term as a function of a position (made by `_start`, or lent with the terms)
        self._evaluators: list[Callable[[GameState], float]] = []
        # the position, built at the first value asked for (by `_start`, which every reader runs first)
        self._base: GameState = None  # type: ignore[assignment]
        #: the key of the data that holds the offering level (its publisher's), or None
        self._level_at: str | None = (previous._level_at if previous is not None and previous.variant is self.variant
                                      else self.variant.modules.published_at.get(LEVEL))
        self._parts: list[float] = []  # each term's worth on it
        self._gains: dict[tuple[object, ...], float] = {}
        # what the decisions' appraisals worked out on the position (`remember`)
        self._remembered: dict[object, Any] = {}
        # what each card kind is worth, which changes slowly: a caller may keep it for longer
        self._cards: dict[CardKey, float] = {} if cards is None else cards
        self._key: WorthKey | None = None
        self._seen: Seen | None = None  # what the seat saw when the key was made

    @property
    def key(self) -> WorthKey:
        """What this worth depends on: the seat, its thrift, the terms and what it sees."""
        if self._key is None:
            previous = self._previous
            before = previous._seen if previous is not None else None
            self._seen = seen_by(self.view, before)  # (`position_of` reads it too)
            weights = tuple(sorted(self.weights.items())) if self.weights else ()
            self._key = _new(WorthKey, (self.variant, self.player, weights, self.thrift, self.foresight, self.spread,
                                        self._term_ids, self._seen))
        return self._key

    def points_of(self, changes: Changes) -> float:
        """Points the changes, made together, are worth to the seat now (see the module
        docstring)."""
        if len(changes) == 1:
            return self.points_of_one(*changes[0])
        found = self._gains.get(changes)
        if found is None:
            if self._base is None:
                self._start()
                found = self._gains.get(changes)
                if found is not None:
                    return found
            found = self._gains[changes] = self._points_of_several(changes)
        return found

    #: the name `points_of` had before (a plug-in's appraisal may use it)
    gain = points_of

    def _counts_gold_at_end(self, module: Rule) -> bool:
        """Whether `module` is a final item whose worth of the seat's gold is in the gold's own
        worth (the `thrift`: what the final items make of a gold at the end) while the game goes
        on: it is then valued as if the seat held no gold, so a gold is counted once."""
        return not self._only_final_left and module in self.variant.modules.final_scoring

    @staticmethod
    def _gold_blind(reads: frozenset[str] | None) -> frozenset[str] | None:
        """What a final item reads, but the seat's gold (`_counts_gold_at_end`)."""
        return None if reads is None else reads - GOLD_HELD

    def points_of_one(self, what: str, where: Any, amount: int) -> float:
        """`points_of` the one change `(what, where, amount)` (kept by that flat key: most
        changes valued are one)."""
        key = (what, where, amount)
        found = self._gains.get(key)
        if found is None:
            if self._base is None:
                self._start()
                found = self._gains.get(key)
                if found is not None:
                    return found
            found = self._gains[key] = self._points_of_one_change(what, where, amount)
        return found

    def whole(self, changes: Changes = ()) -> float:
        """The seat's whole worth after the changes: every term's value (its gold, income to
        come and points to come), not only what the changes add."""
        if self._base is None:
            self._start()
        gain = self.points_of(changes)
        parts = self._parts
        for index in range(len(self._terms)):
            if parts[index] is None:
                parts[index] = self._evaluators[index](self._base)
        return sum(parts) + gain

    def _start(self) -> None:
        """Build the position and value each term on it, or take both from `previous` when it
        stood on the same position (the terms' worths and the gains when it differed only in
        what no term reads)."""
        key = self.key  # now: the view is live, it shows the game as it goes on (and the earlier
        # sight lends its copy of the modules' data where that has not changed)
        previous, self._previous = self._previous, None
        if previous is not None and previous.key == key:  # (the key holds the variant)
            self._base, self._parts, self._gains = previous._base, previous._parts, previous._gains
            self._remembered = previous._remembered
            self._evaluators = previous._evaluators  # the same terms
            return
        kept_parts: list[float] | None = None
        if previous is not None and previous.key.same_terms(key):
            # the same seat, thrift and terms on another position: the same functions of it
            self._evaluators = previous._evaluators
            if key.seen.same_holdings(previous.key.seen) and None not in self._reads:
                # only what no term reads moved (the cards in play or on auction, a module's
                # data): each term's worth and each change's gain stay (not what an appraisal
                # remembered, which may read anything)
                kept_parts, self._gains = previous._parts, previous._gains
        else:
            self._evaluators = [self._evaluator(module, runs) for module, runs in self._terms]
        # the earlier worth is done with: its position is written over (when of the same table;
        # tested where it is used, so that the type checker sees there is a previous)
        into = (previous._base if previous is not None and previous.variant is self.variant
                and previous.player == self.player and previous._base.n_players == self.view.n_players else None)
        self._base = position_of(self.view, into, self._seen, previous._seen if previous is not None else None)
        levels = self._levels()
        if levels is not None and levels[LEVEL] == 0:
            # before the first offering the level is not set: a holding is valued at the
            # middle level, not at none
            middle = middle_level(self.variant)
            if middle is not None:
                levels[LEVEL] = middle
        # each worked out when a change first touches it (None until then)
        self._parts = kept_parts if kept_parts is not None else [None] * len(self._terms)  # type: ignore[list-item]

    def _points_of_several(self, changes: Changes) -> float:
        """Several changes (or none: `whole`) made on the position together, each term they
        can change valued again (a term's module declares what it `reads`; a change of
        anything else leaves it as it was)."""
        state = self._base
        terms = self._terms_valued(frozenset().union(*(self._aspects_touched(state, *one) for one in changes)))
        if not terms:
            return 0.0
        gold_before = state.players[self.player].gold
        kept = apply(state, self.player, changes, self._levels())
        try:
            return self._points_gained(terms, state, gold_before)
        finally:
            undo(state, kept)

    def _points_of_one_change(self, what: str, where: Any, amount: int) -> float:
        """`_points_of_several` for one change, made on the position and taken back in place
        (nothing kept)."""
        state = self._base
        terms = self._terms_valued(self._aspects_touched(state, what, where, amount))
        if not terms:  # (a card of a kind no term reads, say: nothing to make and take back)
            return 0.0
        me = state.players[self.player]
        try:
            return self._made_in_place(state, me, me.gold, what, where, amount, terms)
        except BaseException:  # a module failed midway: the position is built again when next asked
            self._base, self._previous, self._key = None, None, None  # type: ignore[assignment]
            self._gains, self._remembered = {}, {}
            raise

    def _terms_valued(self, touched: frozenset[str]) -> list[int]:
        """The terms a change of the `touched` aspects touches (their indexes: a term whose
        module reads none of them stays as it was), each valued on the position."""
        terms = self._touching.get(touched)
        if terms is None:
            terms = self._touching[touched] = [index for index, reads in enumerate(self._reads)
                                               if reads is None or not reads.isdisjoint(touched)]
        parts = self._parts
        for index in terms:
            if parts[index] is None:
                parts[index] = self._evaluators[index](self._base)
        return terms

    def _aspects_touched(self, state: GameState, what: str, where: Any, amount: int) -> frozenset[str]:
        """What of a holding one change touches (`TOUCHES`; stones that complete no pyramid
        only the stones, a card its kind as well)."""
        if what == "stones":
            # (the construction's own number, `amunre.core.mechanics`: read at every stone valued)
            built = pyramids_from_stones_in(state, where, state.provinces[where].stones + amount)[0]
            return TOUCHES["stones"] if built else STONES_ONLY
        if what == "cards":
            return self._card_touches[where]  # type: ignore[no-any-return]  # (indexed by Any)
        touched = TOUCHES.get(what)
        if touched is None:
            raise _unknown(what)
        return touched

    def _made_in_place(self, state: GameState, me: PlayerState, gold_before: int, what: str, where: Any,
                       amount: int, terms: list[int]) -> float:
        """What one change adds, made on the position and taken back."""
        if what == "stones":
            prov = state.provinces[where]
            stones, pyramids = prov.stones, prov.pyramids
            _add_stones(state, where, amount)
            total = self._points_gained(terms, state, gold_before)
            prov.stones, prov.pyramids = stones, pyramids
        elif what == "gold":
            me.gold = gold_before + amount
            total = self._points_gained(terms, state, gold_before)
            me.gold = gold_before
        elif what == "cards":
            hand = me.hand
            hand[where] += amount
            total = self._points_gained(terms, state, gold_before)
            hand[where] -= amount
        elif what == "own":
            prov = state.provinces[where]
            if prov.owner is not None:  # (held already, or taken from another: the general way)
                kept = apply(state, self.player, ((what, where, amount),), self._levels())
                try:
                    return self._points_gained(terms, state, gold_before)
                finally:
                    undo(state, kept)
            owned = me.provinces
            prov.owner = self.player
            owned.append(where)
            total = self._points_gained(terms, state, gold_before)
            owned.pop()
            prov.owner = None
        elif what == "farmers":
            prov = state.provinces[where]
            prov.farmers += amount
            total = self._points_gained(terms, state, gold_before)
            prov.farmers -= amount
        elif what == "pyramids":
            prov = state.provinces[where]
            prov.pyramids += amount
            total = self._points_gained(terms, state, gold_before)
            prov.pyramids -= amount
        else:  # the offering level
            levels = self._levels()
            if levels is None:  # no module publishes one: nothing reads it
                return 0.0
            level = levels[LEVEL]
            levels[LEVEL] = amount
            total = self._points_gained(terms, state, gold_before)
            levels[LEVEL] = level
        return total

    def _levels(self) -> dict[str, Any] | None:
        """The data of the position that holds the offering level (its publisher's), or None:
        looked up at each use, as a later worth may write the position over (`position_of`)."""
        level_at = self._level_at
        return None if level_at is None else self._base.rules[level_at]

    def _points_gained(self, terms: list[int], state: GameState, gold_before: int) -> float:
        """What the `terms` gained on `state` (changed) from their worth before (`_parts`);
        `gold_before`, the gold the seat held before."""
        parts, evaluate = self._parts, self._evaluators
        total = 0.0
        for index in terms:
            if index:
                total += evaluate[index](state) - parts[index]
            else:  # the gold held, exactly: n gold is worth n times the thrift, no rounding
                total += (state.players[self.player].gold - gold_before) * self.thrift
        return total

    def _position_of_table(self) -> GameState:
        """A position of this seat's table (the players, the board): what the transition is
        tried on to learn what it carries (`amunre.planning.horizon.carried`)."""
        return position_of(self.view)

    def _evaluator(self, module: Rule | LaterTerm | None, runs: int) -> Callable[[GameState], float]:
        """One term of the seat's worth as a function of a position: the gold it holds (no
        module), a phase's gold and points (`income_for`) times the `runs` it has left, or
        a scoring item's points (`points_for`); as the module declares them, else by
        playing it on a copy."""
        me, thrift, weights, variant = self.player, self.thrift, self.weights, self.variant
        if module is None:
            return lambda state: state.players[me].gold * thrift
        if isinstance(module, LaterTerm):
            return module.evaluator_for(me, weights, thrift, _item_points(variant, weights, thrift))
        if self._counts_gold_at_end(module):
            return _without_gold(self._term_of(module, runs), me)
        return self._term_of(module, runs)

    def _term_of(self, module: Rule, runs: int) -> Callable[[GameState], float]:
        """A module's term (`_evaluator`) as it reads the position."""
        me, thrift, weights, variant = self.player, self.thrift, self.weights, self.variant
        if runs:
            income_for = module.income_for if isinstance(module, ValuationFacet) else _not_declared

            def income(state: GameState) -> float:
                found = income_for(state, me)
                gained, points = found if found is not None else played(module, state, me, variant)
                return runs * (gained * thrift + _weighted(points, weights))
            return income
        points_for = module.points_for if isinstance(module, ValuationFacet) else _not_declared
        if not weights:  # (the common case, without a call more for each)
            def unweighted(state: GameState) -> float:
                found = points_for(state, me)
                return sum((found if found is not None else played(module, state, me, variant)[1]).values())
            return unweighted

        def scored(state: GameState) -> float:
            found = points_for(state, me)
            return _weighted(found if found is not None else played(module, state, me, variant)[1], weights)
        return scored

    # -- what the decisions' appraisals read ------------------------------------------------
    def remember(self, key: str | tuple[object, ...], make: Callable[..., _Made], *args: object) -> _Made:
        """A value a decision's appraisal works out once for this position (`make(*args)`:
        a function and its arguments rather than a closure, which every call would build)."""
        found = self._remembered.get(key)
        if found is None:
            found = self._remembered[key] = make(*args)
        return found

    def gold_change(self, amount: int) -> float:
        """`amount` more gold (negative: paid), at what a gold is worth to the seat now
        (`gold_worth`)."""
        return amount * self.gold_worth() if amount else 0.0

    def gold_worth(self) -> float:
        """Points one gold is worth to the seat (the module docstring's gold): its `thrift`
        while the game goes on; once only the final scoring is left, what the final items make
        of a gold on the true standings, averaged over `spread` gold either way of the seat's
        (a ranking pays by steps)."""
        if not self._only_final_left:
            return self.thrift
        found = self._remembered.get(GOLD_WORTH)
        if found is None:
            spread = self.spread
            more, fewer = self.points_of_one("gold", None, spread), self.points_of_one("gold", None, -spread)
            found = self._remembered[GOLD_WORTH] = (more - fewer) / (2 * spread)
        return found

    def final_gold(self) -> float:
        """What the final items (a gold ranking) make of one gold on an even table: every seat
        holding the seat's gold, this one `spread` gold more or fewer (the others' gold at the
        end is not known). For a ranking by places it reads the variant's rules and the player
        count, not the standings (6, 4 and 2 points among four: 0.3 a gold; among three: 0.2).
        Asked of a worth of the final scoring (`only_final_left`), where the final items read
        the seat's gold (before it, they count it through the `thrift`: 0 here)."""
        found = self._remembered.get(FINAL_GOLD)
        if found is None:
            self.points_of_one("gold", None, self.spread)  # (each term valued on the true position first)
            players = self._base.players
            golds = [p.gold for p in players]
            mine = golds[self.player]
            for p in players:
                p.gold = mine
            try:  # (what the terms gain on the even table, from the same values before: a difference)
                more = self._points_of_one_change("gold", None, self.spread)
                fewer = self._points_of_one_change("gold", None, -self.spread)
            finally:
                for p, gold in zip(players, golds):
                    p.gold = gold
            found = self._remembered[FINAL_GOLD] = (more - fewer) / (2 * self.spread) - self.thrift
        return found

    def weight(self, item: str) -> float:
        """The weight of a scoring item's points (1 unless the planner was told otherwise)."""
        return self.weights.get(item, 1.0)

    def drawn_card(self) -> float:
        """A card drawn blind: the worth of each kind, weighted by its count in the deck."""
        found = self._cards.get(("drawn", self.thrift))  # (at this thrift: each kind's floor)
        if found is None:
            found = self._cards["drawn", self.thrift] = self._drawn()
        return found

    def _drawn(self) -> float:
        """`drawn_card` worked out (a method: it was a closure, made at every ask)."""
        card_id = self.variant.card_id
        counts = [(card_id(name), count) for name, count in self.variant.components.deck.items() if count]
        total = sum([count for _, count in counts])
        return sum([self.card(kind) * count for kind, count in counts]) / total if total else 0.0

    def best_farmer(self) -> float:
        """One more farmer in the seat's best province for it (0 without room): where a farmer
        may go is asked of the move that places it (`amunre.core.mechanics.free_fields`)."""
        owned = self.view.me.provinces
        if not owned:
            return 0.0
        if self._base is None:
            self._start()
        table = Table(self.variant, self._base)
        return max([self.points_of_one("farmers", pid, 1) for pid in owned if free_fields(table, pid) > 0],
                   default=0.0)

    def best_stones(self, count: int = 1) -> float:
        """`count` more stones in the seat's best province for them (0 without a province)."""
        return max([self.points_of_one("stones", pid, count) for pid in self.view.me.provinces], default=0.0)

    def province(self, pid: int) -> float:
        """Holding `pid` through this kingdom, with what lies on it."""
        return self.points_of_one("own", pid, 1)

    def farmers(self, pid: int, count: int = 1) -> float:
        return self.points_of_one("farmers", pid, count)

    def stones(self, pid: int, count: int = 1) -> float:
        """The pyramids they complete (stones toward the next one count nothing: a share of
        it measured weaker against greedy, 27% and 32% wins at 0.8 and 0.4 of a pyramid per
        stone, 39% at none, over 800 games each)."""
        return self.points_of_one("stones", pid, count)

    def pyramids(self, pid: int, count: int = 1) -> float:
        return self.points_of_one("pyramids", pid, count)

    def card(self, kind: int, count: int = 1) -> float:
        """Holding `count` more cards of `kind`: at least what they sell for, the price of the
        move that sells a card (`amunre.core.mechanics.sell_card`, `CARD_SALE_PRICE` a card).
        The floor stands whatever the auction's ruling `sell_cards_to_bid` (A-SELL) says: that
        ruling says only whether a bid may count on cards sold, and a card still sells at a
        payment (`pay`), before the offering (or in it, where cards count as gold) and before
        the gold ranking (R-MKT-07); where it is off, the auction offers no bid beyond the
        gold held, so its appraisal charges no card sold (`amunre.rules.auction.valuing`)."""
        found = self._cards.get((kind, count))
        if found is None:  # (kept without the floor: the thrift moves every round)
            found = self._cards[kind, count] = self.points_of_one("cards", kind, count)
        floor = count * CARD_SALE_PRICE * self.thrift
        return floor if floor > found else found  # (`max`, without the call: asked for every card valued)

    def level(self, level: int) -> float:
        """This round's offering at `level` rather than where it stands."""
        return self.points_of_one(LEVEL, None, level)


def _item_points(variant: Variant, weights: dict[str, float], thrift: float
                 ) -> Callable[[Rule, GameState, int], float]:
    """A scoring item's weighted points for a player on a position, or an income phase's run's
    (its gold at `thrift` points each, and its points): as it declares them, else by playing it
    on a copy."""
    def points(module: Rule, state: GameState, player: int) -> float:
        found = None
        if isinstance(module, ValuationFacet):
            if module.pays_for_holdings:
                income = module.income_for(state, player)
                gained, scored = income if income is not None else played(module, state, player, variant)
                return gained * thrift + _weighted(scored, weights)
            found = module.points_for(state, player)
        if found is None:
            found = played(module, state, player, variant)[1]
        return _weighted(found, weights)
    return points


def _without_gold(term: Callable[[GameState], float], player: int) -> Callable[[GameState], float]:
    """`term` valued as if `player` held no gold (`Worth._counts_gold_at_end`): the position's
    gold is put back after."""
    def valued(state: GameState) -> float:
        me = state.players[player]
        gold, me.gold = me.gold, 0
        try:
            return term(state)
        finally:
            me.gold = gold
    return valued


def _weighted(points: Mapping[str, float], weights: dict[str, float]) -> float:
    """Points by item, each at its item's weight (1 unless given)."""
    if not weights:
        return sum(points.values())
    return sum(weights.get(item, 1.0) * value for item, value in points.items())


def played(module: Rule, state: GameState, player: int, variant: Variant) -> tuple[float, dict[str, float]]:
    """(gold, {item: points}) `player` gets when `module` is played on a copy of `state`: the
    modules' data copied too, so that a module that writes into its data (a count of its runs)
    changes neither `state` nor anything `state` was made from."""
    twin = state.copy()
    mine = twin.players[player]
    before, gold = dict(mine.breakdown), mine.gold
    play_module(module, Table(variant, twin), variant.modules.decisions)
    points: dict[str, float] = {}
    for key, value in mine.breakdown.items():
        if value != before.get(key, 0):
            item = key.partition(":")[2]
            points[item] = points.get(item, 0) + value - before.get(key, 0)
    return mine.gold - gold, points
