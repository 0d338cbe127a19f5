"""Rule `market` (R-MKT-01..07): from the start player, each player may buy cards, then
farmers, then stones, in that order (a kind once passed is closed for the turn).

n items of one kind cost n(n+1)/2 gold. Cards bought are limited by the highest card limit
among the player's provinces; farmers go at once onto empty field spaces of his provinces;
stones go at once into his provinces and every third stone in a province becomes a pyramid.
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

import attrs

from amunre.contract import Decision, Rule, province_option
from amunre.decisions import decide
from amunre.mechanics import (
    build_from_stones, can_add_pyramid, field_capacity, free_fields, gain_cards, means, pay, place_farmer,
    place_stone, play_card,
)
from amunre.model import bounded, doc
from amunre.registry import register


def price(count: int) -> int:
    """Gold for `count` items of one kind: 1, 3, 6, 10, ... (R-MKT-02)."""
    return count * (count + 1) // 2


def affordable(count_max: int, budget: int) -> int:
    """The largest count <= count_max whose price fits the budget."""
    n = 0
    while n < count_max and price(n + 1) <= budget:
        n += 1
    return n


@attrs.frozen
class Params:
    architect_stones: int = doc("Stones an Architect needs to build a pyramid.", default=2, validator=bounded(1, 3))




@register
class Market(Rule):
    id = "market"
    kind = "phase"
    summary = "Each player buys cards, then farmers, then stones at triangular prices."
    spec_ids = ("R-MKT-01", "R-MKT-02", "R-MKT-03", "R-MKT-04", "R-MKT-05", "R-MKT-06", "R-MKT-07")
    Params = Params
    cards = {
        "free_farmer": "Places one farmer from the supply in an own province, off the fields.",
        "architect": "Builds a pyramid from `architect_stones` stones in an own province.",
    }
    decisions = {
        "buy_cards": Decision("0..n cards to buy (n: the best card limit of his provinces, and his means)",
                              "an integer"),
        "buy_farmers": Decision("0..n farmers to buy (n: empty fields, the supply, his means)", "an integer"),
        "place_farmer": Decision("a province of his with an empty field, one question per farmer bought",
                                 "an integer province id", province_option),
        "free_farmer": Decision("None (keep the card) or a province of his for a Free Farmer",
                                "null or an integer province id", province_option),
        "buy_stones": Decision("0..n stones to buy (n: the supply, his means)", "an integer"),
        "place_stone": Decision("a province of his, one question per stone bought", "an integer province id",
                                province_option),
        "architect": Decision("None or a province of his holding enough stones for an Architect; asked "
                              "before buying stones and after each stone placed (context: `stones_to_place`)",
                              "null or an integer province id", province_option),
    }
    reasons = {"cards": "for {favor_plural}", "farmers": "for {farmers}", "stones": "for {stones}"}

    def setup(self) -> None:
        self.free_farmer = self.variant.card_id("free_farmer")
        self.architect = self.variant.card_id("architect")

    def run(self, game):
        for p in game.state.turn_order():
            yield from self.turn(game, p)

    def turn(self, game, p: int):
        state = game.state
        board = game.variant.board.provinces
        player = state.players[p]
        owned = player.provinces

        # a) cards, up to the best card limit among own provinces
        limit = max((board[i].card_limit for i in owned), default=0)
        limit = min(limit, len(state.deck) + len(state.discard))
        n = affordable(limit, means(state, p))
        if n:
            count = yield from decide(p, "buy_cards", list(range(n + 1)))
            if count:
                yield from pay(game, p, price(count), "cards")
                gain_cards(game, p, count, "bought")

        # b) farmers onto empty field spaces, then a Free Farmer anywhere
        room = min(field_capacity(game, p), state.supply_farmers)
        n = affordable(room, means(state, p))
        if n:
            count = yield from decide(p, "buy_farmers", list(range(n + 1)))
            if count:
                yield from pay(game, p, price(count), "farmers")
                for _ in range(count):
                    where = [i for i in owned if free_fields(game, i) > 0]
                    pid = yield from decide(p, "place_farmer", where)
                    place_farmer(game, p, pid)
        if player.hand[self.free_farmer] and state.supply_farmers > 0 and owned:
            pid = yield from decide(p, "free_farmer", [None] + list(owned))
            if pid is not None:
                play_card(game, p, self.free_farmer, province=pid)
                place_farmer(game, p, pid, on_field=False)

        # c) stones into own provinces; the Architect at any moment that can change the
        # outcome: before buying stones (it may free stones of an empty supply) and after
        # each stone placed (R-MKT-06)
        played = yield from self.offer_architect(game, p, 0)
        n = affordable(state.supply_stones, means(state, p)) if owned else 0
        if n:
            count = yield from decide(p, "buy_stones", list(range(n + 1)))
            if count:
                yield from pay(game, p, price(count), "stones")
                for placed in range(1, count + 1):
                    pid = yield from decide(p, "place_stone", list(owned))
                    yield from place_stone(game, p, pid)
                    if not played:
                        played = yield from self.offer_architect(game, p, count - placed)

    def offer_architect(self, game, p: int, to_place: int):
        """Ask whether to play an Architect now, where one could build; True if played.
        `to_place`: stones bought and not yet placed."""
        state = game.state
        if not state.players[p].hand[self.architect]:
            return False
        need = self.params.architect_stones
        ready = [i for i in state.players[p].provinces
                 if state.provinces[i].stones >= need and can_add_pyramid(state, i)]
        if not ready:
            return False
        pid = yield from decide(p, "architect", [None] + ready, {"stones_to_place": to_place})
        if pid is None:
            return False
        play_card(game, p, self.architect, province=pid)
        yield from build_from_stones(game, pid, need)
        return True
