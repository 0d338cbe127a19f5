"""Rule `province_draw` (R-PROV-01, R-GAME-05): each round the start player draws one
province card per player from the province deck and places each province's immediate bonus
(free cards face down, free stones, free gold) on it. Between kingdoms the cards used in the
kingdom are reshuffled as the next kingdom's deck; unused cards leave the game.

The province deck is this module's own state (`deck`, top at the end, and `used`, the cards
drawn this kingdom): a player sees how many cards are left, never their order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.contract import CheckProblem, Event, Rule, takes
from amunre.core.facets import EncodingFacet, HiddenFacet, WordsFacet
from amunre.core.fields import bounded, doc
from amunre.core.registry import register
from amunre.core.round_provinces import lay_out, lying_lines, too_few_provinces

if TYPE_CHECKING:
    import random

    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.model import Variant


@attrs.frozen
class Params:
    provinces_per_player: int = doc(
        "0: every province of the board forms the deck (2003); n: the deck holds n cards per player (2016).",
        default=0, validator=bounded(0, 15),
    )


@register
class ProvinceDraw(Rule, WordsFacet, HiddenFacet, EncodingFacet):
    id = "province_draw"
    kind = "phase"
    summary = "Draw one province card per player and place the immediate bonuses."
    spec_ids = ("R-PROV-01", "R-GAME-05")
    params = takes(Params)
    # what an observation vector holds of its data: the deck's size and the provinces used
    observation = {"deck": "count", "used": "provinces"}
    events = {
        "provinces": Event(
            "The start player draws the round's province cards; `lying`: what lies on each then (see "
            "`amunre.core.round_provinces.lay_out`), in `kingdom`.",
            lambda e, w: f"{w.who(e['player'])} draws the {w.t('province_cards')}: "
                         f"{', '.join(w.province(i) for i in e['provinces'])}." + lying_lines(e, w),
        ),
    }
    terms = {"province_cards": "province cards", "immediate_bonus": "free material"}
    provides = ("provinces",)
    once = True
    #: the round's province cards are its own data, published for the auction that follows
    publishes = {"round_provinces": "the province cards laid out this round, in the order laid out"}

    def check(self, variant: Variant) -> list[CheckProblem]:
        rounds = variant.edition.rounds_per_kingdom
        most = max(variant.edition.players)
        per = self.params.provinces_per_player
        if per and per < rounds:
            # each player acquires one province per round: the draw must cover every round
            return [CheckProblem(
                f"provinces_per_player is {per} but each kingdom has {rounds} rounds, and each player "
                "acquires one province per round (set provinces_per_player to the rounds, or 0 to follow them)",
                ("params.provinces_per_player", "edition.rounds_per_kingdom"))]
        return too_few_provinces(variant, most, per or rounds, "params.provinces_per_player" if per else "")

    # -- its own state: the province deck ----------------------------------------------------
    def initial_state(self, game: GameLike) -> dict[str, Any]:
        return {"deck": [], "used": [], "round_provinces": []}

    def view_state(self, data: dict[str, Any], player: int | None) -> dict[str, Any]:
        # the deck is face down: its size is known, its order is not
        return {"deck": len(data["deck"]), "used": sorted(data["used"]),
                "round_provinces": list(data["round_provinces"])}

    def hidden_variants(self, data: dict[str, Any], player: int, rng: random.Random) -> dict[str, Any]:
        # the deck is any of the cards this kingdom is drawn from that nobody has seen drawn: in
        # the first kingdom with `provinces_per_player`, which cards were left out is hidden too.
        # From an order he may know (sorted): the draw must not follow the truth
        unseen = sorted(set(data.get("drawn_from", data["deck"])) - set(data["used"]))
        redrawn = {"deck": rng.sample(unseen, len(data["deck"])), "used": list(data["used"]),
                   "round_provinces": list(data["round_provinces"])}
        if "drawn_from" in data:
            redrawn["drawn_from"] = list(data["drawn_from"])
        return redrawn

    def start_kingdom(self, game: GameLike) -> None:
        state = game.state
        mine = state.rules[self.key]
        if state.kingdom == 0:
            deck = list(range(len(game.variant.board)))
            mine["drawn_from"] = list(deck)  # public: every card, some maybe left out unseen
            state.random("provinces").shuffle(deck)
            if self.params.provinces_per_player:
                # the cards drawn are the top of the shuffled deck (its end): a variant that
                # draws from the whole deck lays out the same provinces on the same seed
                deck = deck[len(deck) - self.params.provinces_per_player * state.n_players:]
        else:
            deck = mine["used"]
            mine["drawn_from"] = sorted(deck)  # public: the cards drawn in the kingdom before
            state.random("provinces").shuffle(deck)
        mine["deck"] = deck
        mine["used"] = []

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        board = game.variant.board.provinces
        mine = state.rules[self.key]
        drawn = [mine["deck"].pop() for _ in range(state.n_players)]
        mine["used"].extend(drawn)
        mine["round_provinces"] = drawn
        lying = lay_out(game, drawn, board, "provinces" in game.hearing)
        if "provinces" in game.hearing:
            game.emit("provinces", player=state.start_player, provinces=list(drawn), lying=lying,
                      kingdom=state.kingdom)
        return
        yield  # a generator with no decisions
