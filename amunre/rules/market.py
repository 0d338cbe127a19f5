"""Rule `market` (R-MKT-01..07): from the start player, each player may buy cards, then
farmers, then stones, in that order (a kind once passed is closed for the turn).

n items of one kind cost n x `first_price` + `price_step` x n(n-1)/2 gold: each further item
costs `price_step` more than the one before, so 1, 3, 6, 10, ... at the defaults (the
rulebooks' triangular prices; a house rule may change them). Each kind has its own price table,
which is the shared one unless set (`stones_first_price`, `stones_price_step`, and alike for
cards and farmers): "cheaper stones only" is data. Cards bought are limited by the
highest card limit among the player's provinces; farmers go at once onto empty field spaces
of his provinces; stones go at once into his provinces and every third stone in a province
becomes a pyramid.
During his turn a player may also play a Free Farmer (one farmer from the supply into any
of his provinces, off the fields) after buying farmers, and an Architect (a pyramid from 2
stones) at any moment of the stone step: before buying stones or after any stone placed,
so four stones and an Architect in an empty province can end as a pyramid and two stones.
(Earlier moments are not offered: they change nothing a later one cannot, except that an
Architect played before the card purchase with both piles empty could be bought back at
once, a corner the engine leaves out.) Each player has one market turn, so
he plays each card at most once in it, under either reading of identical cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import attrs

from amunre.core.contract import (
    Decision,
    Event,
    Rule,
    count_actions,
    none_or_province_actions,
    province_actions,
    province_option,
    takes,
    the_province,
)
from amunre.core.decisions import decide
from amunre.core.facets import WordsFacet
from amunre.core.fields import bounded, doc, follows
from amunre.core.gamesetup import supply_counts
from amunre.core.mechanics import (
    CARD_SALE_PRICE,
    build_from_stones,
    can_add_pyramid,
    field_capacity,
    free_fields,
    gain_cards,
    means,
    pay,
    place_farmer,
    place_stone,
    play_card,
)
from amunre.core.registry import register

if TYPE_CHECKING:
    from collections.abc import Callable

    from amunre.core.contract import Asking, GameLike
    from amunre.core.decisions import Steps
    from amunre.core.facets.valuation import Valuer
    from amunre.core.model import Variant
    from amunre.core.view import PlayerView
    from amunre.core.words import Words


def price(count: int, first: int = 1, step: int = 1) -> int:
    """Gold for `count` items of one kind, the first costing `first` and each further one
    `step` more than the one before: 1, 3, 6, 10, ... at the defaults (R-MKT-02)."""
    return count * first + step * count * (count - 1) // 2


#: The kinds of item on sale, in the order of a market turn; each is bought by the decision
#: `buy_<kind>` and has its own price table (`Params.prices`).
ITEMS = ("cards", "farmers", "stones")
#: The names of each kind's two price fields in `Params` (its first price, its step).
_PRICE_FIELDS = {what: (f"{what}_first_price", f"{what}_price_step") for what in ITEMS}


def _price_fields(what: str) -> tuple[str, str]:
    """The names of the price fields of items of kind `what` (written once for `ITEMS`)."""
    return _PRICE_FIELDS.get(what) or (f"{what}_first_price", f"{what}_price_step")


@attrs.frozen
class PriceTable:
    """What items of one kind cost in a market turn: the first `first_price`, each further one
    `price_step` more than the one before."""

    first_price: int
    price_step: int

    def price(self, count: int) -> int:
        """Gold for `count` items of this kind."""
        return price(count, self.first_price, self.price_step)

    def said(self, gold: str) -> str:
        """The table in words: "Each more costs more (1, 3, 6, 10, ...)" or "Each costs 1 gold"."""
        if self.price_step:
            return f"Each more costs more ({', '.join(str(self.price(n)) for n in range(1, 5))}, ...)"
        return f"Each costs {self.first_price} {gold}"


# -- what its options are worth to the planner (`Decision.appraise`, `amunre.planning.worth`) ---------
def _short(asking: Asking, cost: int) -> int:
    """Cards the seat must sell to pay `cost`."""
    return max(0, cost - asking.view.me.gold)


def _paying(asking: Asking, worth: Valuer, cost: int) -> float:
    """Paying `cost` gold, selling cards (each worth more than what it sells for) for what is short."""
    selling = max(0.0, worth.drawn_card() - CARD_SALE_PRICE * worth.thrift)
    return -worth.gold_change(-cost) + _short(asking, cost) * selling


def _appraise_buy_cards(count: int, asking: Asking, worth: Valuer) -> float:
    return count * worth.drawn_card() - _paying(asking, worth, asking.rule.params.price("cards", count))


def _appraise_buy_farmers(count: int, asking: Asking, worth: Valuer) -> float:
    """The farmers on the fields where each yields most, for their price."""
    most = max(asking.request.options)
    placed = worth.remember(("farmers placed", most), _farmers_placed, asking.view, worth, most)
    gained = placed[min(count, len(placed) - 1)]
    return gained - _paying(asking, worth, asking.rule.params.price("farmers", count))


def _farmers_placed(view: PlayerView, worth: Valuer, most: int) -> list[float]:
    """What 0, 1, 2, ... `most` farmers bring, each placed on the field where it yields most
    (fewer where no field is left): one list for every count on offer, as the first n placed
    are the same for any count."""
    fields = view.variant.board.provinces
    room = {pid: fields[pid].fields - view.provinces[pid].farmers for pid in view.me.provinces}
    gained, placed = 0.0, [0.0]
    for _ in range(most):
        open_ = [pid for pid, left in room.items() if left > 0]
        if not open_:
            break
        pid = max(open_, key=worth.farmers)
        gained += worth.farmers(pid)
        placed.append(gained)
        room[pid] -= 1
    return placed


def _appraise_place_farmer(pid: int, asking: Asking, worth: Valuer) -> float:
    return worth.farmers(pid)


def _appraise_free_farmer(pid: int | None, asking: Asking, worth: Valuer) -> float:
    if pid is None:
        return 0.0
    return worth.farmers(pid) - worth.card(asking.rule.free_farmer)


def _appraise_buy_stones(count: int, asking: Asking, worth: Valuer) -> float:
    return worth.best_stones(count) - _paying(asking, worth, asking.rule.params.price("stones", count))


def _appraise_place_stone(pid: int, asking: Asking, worth: Valuer) -> float:
    """This stone and the ones still to place after it, all there."""
    context = asking.context
    left = context.get("bought", 1) - context.get("item", 1) + 1
    return worth.stones(pid, max(1, left))


def _appraise_architect(pid: int | None, asking: Asking, worth: Valuer) -> float:
    if pid is None:
        return 0.0
    need = asking.rule.params.architect_stones
    return (worth.points_of((("pyramids", pid, 1), ("stones", pid, -need)))
            - worth.card(asking.rule.architect))


def affordable(count_max: int, budget: int, table: PriceTable) -> int:
    """The largest count <= count_max whose price (at `table`) fits the budget."""
    n = 0
    while n < count_max and table.price(n + 1) <= budget:
        n += 1
    return n


def _first_price(item: str) -> Any:
    return follows("first_price", f"Gold the first {item} bought in a market turn costs; left out, `first_price`.",
                   validator=bounded(0, 100))


def _price_step(item: str) -> Any:
    return follows("price_step", f"How much more each further {item} bought in a market turn costs than the one "
                                 "before; left out, `price_step`.", validator=bounded(0, 100))


@attrs.frozen
class Params:
    architect_stones: int = doc("Stones an Architect needs to build a pyramid.", default=2, validator=bounded(1, 3))
    first_price: int = doc("Gold the first item of a kind costs in a market turn (R-MKT-02); the shared price "
                           "table: that of every kind whose own keys are left out.",
                           default=1, validator=bounded(0, 100))
    price_step: int = doc("How much more each further item of a kind costs than the one before in a market turn "
                          "(R-MKT-02: 1, with a `first_price` of 1, makes the prices 1, 3, 6, 10, ...; 0 a flat "
                          "`first_price` each); the shared price table: that of every kind whose own keys are "
                          "left out.", default=1, validator=bounded(0, 100))
    # each kind's own table, the shared one unless set (a kind's keys left out follow
    # `first_price` and `price_step`, so every older file means what it meant)
    cards_first_price: int = _first_price("card")
    cards_price_step: int = _price_step("card")
    farmers_first_price: int = _first_price("farmer")
    farmers_price_step: int = _price_step("farmer")
    stones_first_price: int = _first_price("stone")
    stones_price_step: int = _price_step("stone")

    def prices(self, what: str) -> PriceTable:
        """The price table of one kind of item (`what`: one of `ITEMS`)."""
        first, step = _price_fields(what)
        return PriceTable(getattr(self, first), getattr(self, step))

    def price(self, what: str, count: int) -> int:
        """Gold for `count` items of kind `what` (one of `ITEMS`) at these prices (`prices(what)`'s,
        read without building the table: the planner asks it for every purchase it values)."""
        first, step = _price_fields(what)
        return price(count, getattr(self, first), getattr(self, step))


# -- how its decisions read at the table (see `Decision`) ----------------------------------
def _params_of(asking: Asking) -> Params:
    rule: Market | None = asking.rule
    return rule.params if rule is not None else Params()


def _params_in(variant: Variant, kind: str) -> Params:
    """The prices of the module asking `kind`: a `describe` reads only the words, not the module."""
    for module in variant.modules.phases:
        if kind in module.decisions:
            return cast("Market", module).params  # a market's (the module declaring `kind`)
    return Params()


def _buying(what: str, one: str, many: str) -> Callable[[int, Words], str]:
    """`describe` of a quantity of `what` to buy: how many of what, for how much."""
    def describe(option: int, w: Words) -> str:
        if not option:
            return f"buy no {w.t(many)}"
        cost = _params_in(w.variant, f"buy_{what}").price(what, option)
        return f"buy {w.plural(option, w.t(one), w.t(many))} for {cost} {w.t('gold')}"
    return describe


def _price_note(what: str) -> Callable[[int, Asking], str | None]:
    """`note` of a quantity of `what` to buy: the cards to sell for its price, if any."""
    def note(option: int, asking: Asking) -> str | None:
        return asking.must_sell(_params_of(asking).price(what, option)) if option else None
    return note


def _prices(asking: Asking, what: str) -> str:
    w = asking.words
    cards = sum(asking.view.hand)
    to_sell = f" and {w.plural(cards, w.t('favor'), w.t('favor_plural'))} to sell" if cards else ""
    how = _params_of(asking).prices(what).said(w.t("gold"))
    return f"{how}; you have {asking.gold} {w.t('gold')}{to_sell}."


def _cards_facts(asking: Asking) -> list[str]:
    w, view = asking.words, asking.view
    board = view.variant.board.provinces
    best = max(view.me.provinces, key=lambda i: board[i].card_limit, default=None)
    limit = f" ({w.province(best)} lets you buy up to {board[best].card_limit})" if best is not None else ""
    return [f"You may buy {w.t('favor_plural')}, drawn from the pile{limit}.", _prices(asking, "cards")]


def _fields_facts(asking: Asking) -> list[str]:
    w, view = asking.words, asking.view
    board = view.variant.board.provinces
    empty = [f"{w.province(i)} {board[i].fields - view.provinces[i].farmers} of {board[i].fields}"
             for i in view.me.provinces]
    return [f"Empty fields: {', '.join(empty) or 'none'}; {w.t('farmers')} left in the supply: "
            f"{view.supplies['farmers']}.", _prices(asking, "farmers")]


def _stones_facts(asking: Asking) -> list[str]:
    w, view = asking.words, asking.view
    held = [f"{w.province(i)} {view.provinces[i].stones}" for i in view.me.provinces]
    return [f"Your {w.t('stones')}: {', '.join(held) or 'none'} (a third {w.t('stone')} in a province builds a "
            f"{w.t('pyramid')} at once); left in the supply: {view.supplies['stones']}.",
            _prices(asking, "stones")]


def _field_note(pid: int, asking: Asking) -> str:
    info = asking.view.variant.board.provinces[pid]
    return f"{asking.view.provinces[pid].farmers}/{info.fields} fields used"


def _stone_note(pid: int, asking: Asking) -> str | None:
    w = asking.words
    stones = asking.view.provinces[pid].stones
    if stones % 3 == 2:
        return f"{stones} {w.t('stones')} there: this one builds a {w.t('pyramid')}"
    return f"{w.plural(stones, w.t('stone'), w.t('stones'))} there"


def _where_question(asking: Asking, term: str) -> str:
    """Where one of the items bought goes, counted when there are several ("stone 2 of 4")."""
    w = asking.words
    item, bought = asking.context.get("item", 1), asking.context.get("bought", 1)
    if bought <= 1:
        return f"Where does the {w.t(term)} you bought go?"
    return f"Where does {w.t(term)} {item} of the {bought} you bought go?"


def _architect_question(asking: Asking) -> str:
    w = asking.words
    left = asking.context.get("stones_to_place", 0)
    still = f" ({w.plural(left, w.t('stone'), w.t('stones'))} bought still to place)" if left else ""
    need = asking.rule.params.architect_stones if asking.rule is not None else 2
    return (f"Play your {w.card_noun('architect')} now, to build a {w.t('pyramid')} from {w.count(need, 'stone')} in "
            f"one of your provinces{still}?")


def _architect_note(pid: int, asking: Asking) -> str:
    w = asking.words
    return f"{w.plural(asking.view.provinces[pid].stones, w.t('stone'), w.t('stones'))} there"


#: The most items of one kind the action space (`Decision.actions`) offers to buy: 15 cost
#: 120 gold at the default prices, more than a player ever holds in practice (an unlimited
#: supply, A-SUPPLY false, or a large board would otherwise make the list long). Every
#: request offers 0.
MOST_BOUGHT = 15


def _buy_actions(bound: Callable[[Variant], int]) -> Callable[[Market, Variant], list[int]]:
    """`Decision.actions` of a quantity to buy: 0 to the variant's bound, at most `MOST_BOUGHT`."""
    return lambda rule, variant: count_actions(min(bound(variant), MOST_BOUGHT))


def _card_bound(variant: Variant) -> int:
    return max((p.card_limit for p in variant.board.provinces), default=0)


def _farmer_bound(variant: Variant) -> int:
    return min(sum(p.fields for p in variant.board.provinces), supply_counts(variant)["farmers"])


def _stone_bound(variant: Variant) -> int:
    return supply_counts(variant)["stones"]


#: The term (singular) of each kind of item bought.
_ITEM_TERMS = {"cards": "favor", "farmers": "farmer", "stones": "stone"}
#: The term (plural) of each kind of item bought.
_ITEMS_TERMS = {"cards": "favor_plural", "farmers": "farmers", "stones": "stones"}


def _buy_decision(what: str, options: str, facts: Callable[[Asking], list[str]], bound: Callable[[Variant], int],
                  appraise: Callable[[int, Asking, Valuer], float], where: str = "") -> Decision:
    """How many `what` (cards, farmers, stones) a player buys: the three purchases are asked
    alike (a count, at the market's prices, up to the variant's bound), and differ only in
    what they say of the kind (`facts`, and `where` the items go), its bound and its worth."""
    one, many = _ITEM_TERMS[what], _ITEMS_TERMS[what]
    return Decision(
        options, "an integer", _buying(what, one, many), note=_price_note(what), facts=facts,
        title=f"buying {{{many}}}", summed=f"{{{many}}} bought",
        question=lambda a: f"How many {a.words.t(many)} do you buy{where}?",
        actions=_buy_actions(bound), appraise=appraise)


def _bought(game: GameLike, p: int, what: str, count: int, cost: int) -> None:
    if "purchase" in game.hearing:
        game.emit("purchase", player=p, what=what, count=count, price=cost)


@register
class Market(Rule, WordsFacet):
    id = "market"
    kind = "phase"
    summary = "Each player buys cards, then farmers, then stones, each further item of a kind dearer."
    spec_ids = ("R-MKT-01", "R-MKT-02", "R-MKT-03", "R-MKT-04", "R-MKT-05", "R-MKT-06", "R-MKT-07")
    params = takes(Params)
    cards = {
        "free_farmer": "Places one farmer from the supply in an own province, off the fields.",
        "architect": "Builds a pyramid from `architect_stones` stones in an own province.",
    }
    decisions = {
        "buy_cards": _buy_decision(
            "cards", "0..n cards to buy (n: the best card limit of his provinces, and his means)",
            facts=_cards_facts, bound=_card_bound, appraise=_appraise_buy_cards),
        "buy_farmers": _buy_decision(
            "farmers", "0..n farmers to buy (n: empty fields, the supply, his means)",
            facts=_fields_facts, bound=_farmer_bound, appraise=_appraise_buy_farmers,
            where=" (each goes onto an empty field)"),
        "place_farmer": Decision(
            "a province of his with an empty field, one question per farmer bought (context: `item` of "
            "`bought`)", "an integer province id",
            province_option, note=_field_note,
            question=lambda a: _where_question(a, "farmer"),
            actions=province_actions, appraise=_appraise_place_farmer, title="placing a {farmer}"),
        "free_farmer": Decision(
            "None (keep the card) or a province of his for a Free Farmer", "null or an integer province id",
            lambda pid, w: f"play it: a {w.t('farmer')} in {w.province(pid)}, off the fields", note=_field_note,
            none=lambda w: f"keep the {w.card_noun('free_farmer')}",
            question=lambda a: (f"Play your {a.words.card_noun('free_farmer')}? It places a {a.words.t('farmer')} "
                                f"from the supply in one of your provinces, off its fields."),
            actions=none_or_province_actions, appraise=_appraise_free_farmer, where=the_province,
            title="playing the {free_farmer} card"),
        "buy_stones": _buy_decision(
            "stones", "0..n stones to buy (n: the supply, his means)",
            facts=_stones_facts, bound=_stone_bound, appraise=_appraise_buy_stones),
        "place_stone": Decision(
            "a province of his, one question per stone bought (context: `item` of `bought`)",
            "an integer province id",
            province_option, note=_stone_note,
            question=lambda a: _where_question(a, "stone"),
            actions=province_actions, appraise=_appraise_place_stone, title="placing a {stone}"),
        "architect": Decision(
            "None or a province of his holding enough stones for an Architect; asked "
            "before buying stones and after each stone placed (context: `stones_to_place`)",
            "null or an integer province id",
            lambda pid, w: f"play it: a {w.t('pyramid')} in {w.province(pid)}", note=_architect_note,
            none=lambda w: f"keep the {w.card_noun('architect')} for now", question=_architect_question,
            actions=none_or_province_actions, appraise=_appraise_architect, context={"stones_to_place": "count"},
            where=the_province, title="playing the {architect} card"),
    }
    events = {
        "purchase": Event("A player buys `count` items of one kind (`what`: cards, farmers or stones) for `price` "
                          "gold.", lambda e, w: f"  {w.who(e['player'])} buys "
                                                f"{w.count(e['count'], _ITEM_TERMS[e['what']])} for {e['price']} "
                                                f"{w.t('gold')}."),
    }
    #: the `purchase` line says what the gold paid for and the cards bought; `owed:` what a
    #: purchase is, where a card sale must cover it
    reasons = {"cards": None, "farmers": None, "stones": None, "cards:bought": None,
               "owed:cards": "the {favor_plural}", "owed:farmers": "the {farmers}", "owed:stones": "the {stones}"}

    def setup(self) -> None:
        self.free_farmer = self.variant.card_id("free_farmer")
        self.architect = self.variant.card_id("architect")

    def price_table(self, kind: str) -> PriceTable:
        """The prices of the purchase decision `kind` (`buy_cards`, `buy_farmers`, `buy_stones`):
        what an agent that weighs a purchase by its cost reads (`amunre.agents.greedy`)."""
        return self.params.prices(kind.removeprefix("buy_"))

    def run(self, game: GameLike) -> Steps[None]:
        for p in game.state.turn_order():
            yield from self.turn(game, p)

    def turn(self, game: GameLike, p: int) -> Steps[None]:
        state = game.state
        board = game.variant.board.provinces
        player = state.players[p]
        owned = player.provinces
        pid: int | None  # a province, or None from the Free Farmer's question

        # a) cards, up to the best card limit among own provinces
        limit = max((board[i].card_limit for i in owned), default=0)
        limit = min(limit, len(state.deck) + len(state.discard))
        count = yield from self.buy(game, p, "cards", limit)
        if count:
            gain_cards(game, p, count, "bought")

        # b) farmers onto empty field spaces, then a Free Farmer anywhere
        count = yield from self.buy(game, p, "farmers", min(field_capacity(game, p), state.supply_farmers))
        for item in range(1, count + 1):
            where = [i for i in owned if free_fields(game, i) > 0]
            pid = yield from decide(p, "place_farmer", where, {"item": item, "bought": count})
            place_farmer(game, p, pid)
        if state.supply_farmers > 0 and owned:
            # asked whether he holds the card or not (then forced): who is asked is public
            pid = yield from decide(p, "free_farmer", [None] + (list(owned) if player.hand[self.free_farmer] else []))
            if pid is not None:
                play_card(game, p, self.free_farmer, province=pid)
                place_farmer(game, p, pid, on_field=False)

        # c) stones into own provinces; the Architect at any moment that can change the
        # outcome: before buying stones (it may free stones of an empty supply) and after
        # each stone placed (R-MKT-06)
        played = yield from self.offer_architect(game, p, 0)
        count = (yield from self.buy(game, p, "stones", state.supply_stones)) if owned else 0
        for placed in range(1, count + 1):
            pid = yield from decide(p, "place_stone", list(owned), {"item": placed, "bought": count})
            yield from place_stone(game, p, pid)
            if not played:
                played = yield from self.offer_architect(game, p, count - placed)

    def buy(self, game: GameLike, p: int, what: str, most: int) -> Steps[int]:
        """Ask `p` how many `what` (cards, farmers, stones) he buys, up to `most` and what his
        means afford at this market's prices, and make him pay: how many he bought (none, and
        nothing asked, when he can afford none)."""
        table = self.params.prices(what)
        n = affordable(most, means(game.state, p), table)
        if not n:
            return 0
        count: int = yield from decide(p, f"buy_{what}", list(range(n + 1)))
        if count:
            cost = table.price(count)
            yield from pay(game, p, cost, what)
            _bought(game, p, what, count, cost)
        return count

    def offer_architect(self, game: GameLike, p: int, to_place: int) -> Steps[bool]:
        """Ask whether to play an Architect now, where one could build; True if played.
        `to_place`: stones bought and not yet placed."""
        state = game.state
        need = self.params.architect_stones
        ready = [i for i in state.players[p].provinces
                 if state.provinces[i].stones >= need and can_add_pyramid(state, i)]
        if not ready:
            return False
        # asked whether he holds the card or not (then forced): who is asked is public
        held = state.players[p].hand[self.architect]
        options: list[int | None] = [None] + ready if held else [None]  # (both branches one type, for mypy)
        pid = yield from decide(p, "architect", options, {"stones_to_place": to_place})
        if pid is None:
            return False
        play_card(game, p, self.architect, province=pid)
        yield from build_from_stones(game, pid, need)
        return True
