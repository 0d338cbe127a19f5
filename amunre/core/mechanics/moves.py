"""The shared moves of the game, which several rule modules carry out: paying, selling,
drawing cards, placing farmers and stones, building pyramids, scoring points. Every gold
movement between a player and the bank goes through `pay`/`receive` so the bank ledger
stays balanced. (How their events read is `events.py`; how their decisions are asked,
`asking.py`.)

The moves that may ask a player a decision (`pay`: which card to sell when his gold is
short; `place_stone`, `add_pyramid`, `build_from_stones`, `convert_full_stones`: whether to
swap two singles for a double pyramid) are carried out with `yield from`
(`yield from pay(game, p, 2, "tribute")`, which gives what the move returns). Called without
it, a generator silently does nothing. So in a step whose module's `run` is checked (every
module but the built-in ones, which a test reads instead: `amunre.core.contract.Rule`), such a
call returns a `Move` that the step's open moves (`game._open_moves`) list until it is
carried out, and one still open at the end of the step raises `RuleModuleError`. In the
built-in modules' steps the call returns the bare generator: the hot path pays one
attribute look-up per move.

Pyramids are built in three phases (stones bought in the market, stones given as offering
rewards, free stones at acquisition), so the question of the double pyramid is answered
here once, by the core: `ConstructionRulings` (A-DOUBLESWAP) joins every variant's rulings.
It lives beside the move that reads it, since it decides how the move plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from amunre.core.contract import ruling
from amunre.core.decisions import decide
from amunre.core.errors import RuleModuleError

if TYPE_CHECKING:
    from collections.abc import Iterable

    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.state import GameState

R = TypeVar("R")

#: R-MKT-07 (any card may be sold for 1 gold at any time), the doubling of pyramids of
#: R-MKT-05 and its ruling, and the card supply reshuffled the moment it runs out (R-MKT-03).
SPEC_IDS = ("R-MKT-03", "R-MKT-05", "R-MKT-07", "A-DOUBLESWAP")


@attrs.frozen
class ConstructionRulings:
    double_swap: str = ruling(
        "A-DOUBLESWAP", "When a second single pyramid is built in a province and a double pyramid is left: "
        "`optional` (its owner may swap the two singles for the double, 2003) or `automatic` (they are "
        "swapped, 2016).", "optional",
        validator=attrs.validators.in_(("optional", "automatic")))


def receive(game: GameLike, player: int, amount: int, why: str) -> None:
    """The bank gives `amount` gold to `player`."""
    if amount <= 0:
        return
    state = game.state
    state.players[player].gold += amount
    state.bank_given += amount
    if "gold" in game.hearing:
        game.emit("gold", player=player, amount=amount, why=why)


def means(state: GameState, player: int, can_sell: bool = True) -> int:
    """Gold the player can raise right now: his gold, plus 1 per card he could sell (the
    theft card is never among his cards)."""
    gold = state.players[player].gold
    return gold + sum(state.players[player].hand) if can_sell else gold


#: The gold a card sells for (R-MKT-07).
CARD_SALE_PRICE = 1


def sell_card(game: GameLike, player: int, kind: int, told: bool = False) -> None:
    """Discard a card face up and take `CARD_SALE_PRICE` gold (allowed at any time). `told`:
    the rule selling it narrates the sale itself (several cards in one line)."""
    hand = game.state.players[player].hand
    hand[kind] -= 1
    game.state.discard.append(kind)
    if "sell" in game.hearing:
        if told:
            game.emit("sell", player=player, card=game.variant.cards[kind], told=True)
        else:
            game.emit("sell", player=player, card=game.variant.cards[kind])
    receive(game, player, CARD_SALE_PRICE, "sell")


class Move(Generic[R]):
    """A shared move called in a checked step: nothing happens until the rule carries it out
    with `yield from`, which runs `steps(game, *args)` and gives what it returns. `opened`:
    the step's open moves, which list it until then."""

    __slots__ = ("game", "steps", "args", "opened")

    opened: list[Move[Any]] | None  # None once carried out

    def __init__(self, game: GameLike, steps: Callable[..., Steps[R]], args: tuple[Any, ...],
                 opened: list[Move[Any]]):
        self.game, self.steps, self.args, self.opened = game, steps, args, opened
        opened.append(self)

    def __iter__(self) -> Steps[R]:
        opened = self.opened
        if opened is None:
            # a second run would pay, or place, twice
            raise RuleModuleError(f"{self.shown()} was carried out twice with `yield from` (expected each call "
                                  "of a shared move carried out once: call it again for a second one)")
        self.opened = None
        if opened and opened[-1] is self:  # carried out at once, as `yield from pay(...)` does
            opened.pop()
        elif self in opened:
            opened.remove(self)
        return self.steps(self.game, *self.args)

    def shown(self) -> str:
        """The call as the rule wrote it, e.g. `pay(game, 0, 2, 'tribute')`."""
        name = self.steps.__name__.lstrip("_")  # the move's generator is its name with a _
        return f"{name}(game, {', '.join(repr(a) for a in self.args)})"


def pay(game: GameLike, player: int, amount: int, why: str) -> Steps[None] | Move[None]:
    """Pay the bank, first selling cards (the player chooses which) to cover a shortfall.
    Carried out with `yield from pay(...)`."""
    opened = getattr(game, "_open_moves", None)
    if opened is None:
        return _pay(game, player, amount, why)
    return Move(game, _pay, (player, amount, why), opened)


def _pay(game: GameLike, player: int, amount: int, why: str) -> Steps[None]:
    if amount <= 0:
        return
    state = game.state
    p = state.players[player]
    while p.gold < amount:
        kinds = [k for k in range(len(p.hand)) if p.hand[k]]
        kind = yield from decide(player, "sell", kinds, {"short": amount - p.gold, "for": why})
        sell_card(game, player, kind)
    p.gold -= amount
    state.bank_paid += amount
    if "pay" in game.hearing:
        game.emit("pay", player=player, amount=amount, why=why)


def draw_card(game: GameLike) -> int | None:
    """Top card of the deck. The discard pile becomes the new deck the moment the deck runs
    out (R-MKT-03), or at the next draw if nothing had been discarded by then."""
    state = game.state
    if not state.deck:
        _reshuffle(game)
        if not state.deck:
            return None
    card = state.deck.pop()
    if not state.deck:
        _reshuffle(game)
    return card


def _reshuffle(game: GameLike) -> None:
    state = game.state
    if not state.discard:
        return
    state.deck = state.discard
    state.discard = []
    state.random("cards").shuffle(state.deck)
    if "reshuffle" in game.hearing:
        game.emit("reshuffle", cards=len(state.deck))


def gain_cards(game: GameLike, player: int, count: int, why: str) -> int:
    """Draw up to `count` cards into the player's hand; returns how many were drawn. The
    `cards` event's line says `why` through the rules' reasons (None: another line says it)."""
    hand = game.state.players[player].hand
    got = 0
    for _ in range(count):
        kind = draw_card(game)
        if kind is None:
            break
        hand[kind] += 1
        got += 1
    if got and "cards" in game.hearing:
        game.emit("cards", player=player, count=got, why=why)
    return got


def play_card(game: GameLike, player: int, kind: int, face_up_until_phase_end: bool = False,
              province: int | None = None, told: bool = False) -> None:
    """Play a card from hand: it goes to the discard pile (or stays face up for the phase).
    `province` names the province it is played on, where it has one; `told`: the line of
    the action it goes with says it (a bid, a bonus scored), so it has no line of its own."""
    game.state.players[player].hand[kind] -= 1
    (game.state.in_play if face_up_until_phase_end else game.state.discard).append(kind)
    if "play" in game.hearing:
        if told:
            game.emit("play", player=player, card=game.variant.cards[kind], province=province, told=True)
        else:
            game.emit("play", player=player, card=game.variant.cards[kind], province=province)


def end_phase_cards(state: GameState) -> None:
    """Cards kept face up during a phase go to the discard pile when it ends."""
    if state.in_play:
        state.discard.extend(state.in_play)
        state.in_play = []


def free_fields(game: GameLike, province: int) -> int:
    """Empty field spaces of a province: how many more farmers `place_farmer` may put on its
    fields (what the rules offer a farmer on, and what the planner values one by)."""
    return game.variant.board.provinces[province].fields - game.state.provinces[province].farmers


def field_capacity(game: GameLike, player: int) -> int:
    """Empty field spaces over the player's provinces."""
    board = game.variant.board.provinces
    provs = game.state.provinces
    return sum(board[i].fields - provs[i].farmers for i in game.state.players[player].provinces)


def place_farmer(game: GameLike, player: int, province: int, on_field: bool = True, told: bool = False) -> None:
    """A farmer from the supply into a province (onto a field, or off the fields). `told`:
    the rule's own line says where it went."""
    state = game.state
    prov = state.provinces[province]
    if on_field:
        prov.farmers += 1
    else:
        prov.free_farmers += 1
    state.supply_farmers -= 1
    if "farmer" in game.hearing:
        if told:
            game.emit("farmer", player=player, province=province, free=not on_field, told=True)
        else:
            game.emit("farmer", player=player, province=province, free=not on_field)


def next_pyramid_piece(supply_singles: int, supply_doubles: int, singles_here: int) -> str | None:
    """The piece one more pyramid on a province takes (R-MKT-05, A-SUPPLY): "double" where a
    single stands there and a double is left (the single goes back to the supply), else
    "single" while one is left, else None. The one statement of it: the construction builds by
    it and `pyramids_from_stones_in` counts by it. (Where the owner may keep two singles,
    A-DOUBLESWAP, the construction asks him before it takes the double.)"""
    if singles_here >= 1 and supply_doubles > 0:
        return "double"
    if supply_singles > 0:
        return "single"
    return None


def can_add_pyramid(state: GameState, province: int) -> bool:
    """A pyramid piece is left for this province (a single, or a double replacing its single)."""
    here = state.provinces[province].pyramids
    return next_pyramid_piece(state.supply_pyramids, state.supply_doubles, here) is not None


def add_pyramid(game: GameLike, province: int, stones: int = 0) -> Steps[bool] | Move[bool]:
    """Add one pyramid (carried out with `yield from`: it may ask the owner about the double,
    A-DOUBLESWAP).

    With a single already there and a double left, the two become a double, automatically or
    at the owner's choice; keeping two singles needs a single left. Gives False when no
    piece is left. `stones`: how many of the province's stones it is built from (for the
    line that tells it)."""
    opened = getattr(game, "_open_moves", None)
    if opened is None:
        return _add_pyramid(game, province, stones)
    return Move(game, _add_pyramid, (province, stones), opened)


def _add_pyramid(game: GameLike, province: int, stones: int = 0) -> Steps[bool]:
    state = game.state
    prov = state.provinces[province]
    kind = next_pyramid_piece(state.supply_pyramids, state.supply_doubles, prov.pyramids)
    if (kind == "double" and state.supply_pyramids > 0 and prov.owner is not None
            and game.variant.rulings.of(ConstructionRulings).double_swap == "optional"):
        swap = yield from decide(prov.owner, "double_swap", [True, False], {"province": province, "stones": stones})
        kind = "double" if swap else "single"
    if kind == "double":
        prov.pyramids -= 1
        state.supply_pyramids += 1
        prov.doubles += 1
        state.supply_doubles -= 1
    elif kind == "single":
        prov.pyramids += 1
        state.supply_pyramids -= 1
    else:
        return False
    if "pyramid" in game.hearing:
        game.emit("pyramid", province=province, kind=kind, owner=prov.owner, stones=stones)
    return True


def build_from_stones(game: GameLike, province: int, stones: int) -> Steps[bool] | Move[bool]:
    """Turn `stones` stones of a province into a pyramid (3, or 2 with an architect); carried
    out with `yield from`, which gives whether it was built."""
    opened = getattr(game, "_open_moves", None)
    if opened is None:
        return _build_from_stones(game, province, stones)
    return Move(game, _build_from_stones, (province, stones), opened)


def _build_from_stones(game: GameLike, province: int, stones: int) -> Steps[bool]:
    prov = game.state.provinces[province]
    if prov.stones < stones or not can_add_pyramid(game.state, province):
        return False
    built = yield from _add_pyramid(game, province, stones)
    if built:
        prov.stones -= stones
        game.state.supply_stones += stones
    return built


def convert_full_stones(game: GameLike, province: int) -> Steps[None] | Move[None]:
    """Every 3 stones in a province become a pyramid at once (carried out with `yield from`)."""
    opened = getattr(game, "_open_moves", None)
    if opened is None:
        return _convert_full_stones(game, province)
    return Move(game, _convert_full_stones, (province,), opened)


#: Stones in a province that become one pyramid at once (R-MKT-05).
STONES_PER_PYRAMID = 3


def pyramids_from_stones(stones: int) -> tuple[int, int]:
    """(pyramids built, stones left) of `stones` stones in one province, as the construction
    builds them, supplies allowing (`pyramids_from_stones_in` counts the supply's pieces)."""
    return divmod(stones, STONES_PER_PYRAMID)


def pyramids_from_stones_in(state: GameState, province: int, stones: int) -> tuple[int, int]:
    """(pyramids built, stones left) of `stones` stones in `province` on `state`, as
    `convert_full_stones` builds them with the supply's pieces: `pyramids_from_stones`, but
    only while a piece is left (`can_add_pyramid`). A limited supply of pyramids (A-SUPPLY)
    leaves the rest as stones. What a valuation of more stones asks of this module."""
    built, left = pyramids_from_stones(stones)
    singles = state.supply_pyramids
    if built <= singles:  # (the common case: a single for each, a swap for a double frees one)
        return built, left
    doubles, here = state.supply_doubles, state.provinces[province].pyramids
    made = 0
    while made < built:  # each as `_add_pyramid` builds it, a double taken wherever one may be
        piece = next_pyramid_piece(singles, doubles, here)
        if piece == "double":
            here, doubles, singles = here - 1, doubles - 1, singles + 1
        elif piece == "single":
            here, singles = here + 1, singles - 1
        else:
            break
        made += 1
    return made, left + (built - made) * STONES_PER_PYRAMID


def _convert_full_stones(game: GameLike, province: int) -> Steps[None]:
    prov = game.state.provinces[province]
    for _ in range(pyramids_from_stones(prov.stones)[0]):  # (the one rule of how many, shared with valuations)
        built = yield from _build_from_stones(game, province, STONES_PER_PYRAMID)
        if not built:
            break


def place_stone(game: GameLike, player: int | None, province: int, told: bool = False) -> Steps[None] | Move[None]:
    """Place a stone from the supply; a third stone builds a pyramid immediately (carried out
    with `yield from`). `told`: the rule's own line says where it went."""
    opened = getattr(game, "_open_moves", None)
    if opened is None:
        return _place_stone(game, player, province, told)
    return Move(game, _place_stone, (player, province, told), opened)


def _place_stone(game: GameLike, player: int | None, province: int, told: bool = False) -> Steps[None]:
    state = game.state
    state.supply_stones -= 1
    state.provinces[province].stones += 1
    if "stone" in game.hearing:
        if told:
            game.emit("stone", player=player, province=province, told=True)
        else:
            game.emit("stone", player=player, province=province)
    if state.provinces[province].stones >= STONES_PER_PYRAMID:
        yield from _convert_full_stones(game, province)


#: The shared moves a rule carries out with `yield from` (each may ask a decision).
MOVES = (pay, place_stone, add_pyramid, build_from_stones, convert_full_stones)


def add_points(game: GameLike, player: int, item: str, points: int, told: bool = False) -> None:
    """Score points for a scoring item of the current kingdom. The `score` event carries
    the player's running `total`; `told`: the rule's own line says what earned them (its
    event follows), so the score has no line of its own."""
    p = game.state.players[player]
    p.score += points
    key = f"{game.state.kingdom}:{item}"
    p.breakdown[key] = p.breakdown.get(key, 0) + points
    if "score" in game.hearing:
        if told:
            game.emit("score", player=player, item=item, points=points, total=p.score, told=True)
        else:
            game.emit("score", player=player, item=item, points=points, total=p.score)


def score_each(game: GameLike, item: str, event: str, score: Callable[[int, bool], tuple[int, dict[str, Any] | None]],
               order: Iterable[int] | None = None, item_field: bool = True) -> None:
    """Score a scoring item for every player, in turn order (or `order`): `score(player,
    heard)` gives (points, the fields of the rule's own `event` for that player, or None for no
    line), the fields worked out only when someone hears the event (`heard`). The points go to
    `item` (`add_points`, told by the rule's line), then the event is emitted with the player,
    the item (unless not `item_field`), the points and his new total besides those fields."""
    state = game.state
    heard = event in game.hearing
    for player in state.turn_order() if order is None else order:
        points, fields = score(player, heard)
        add_points(game, player, item, points, told=heard)
        if heard and fields is not None:
            if item_field:
                fields = {"item": item, **fields}
            game.emit(event, player=player, points=points, total=state.players[player].score, **fields)

