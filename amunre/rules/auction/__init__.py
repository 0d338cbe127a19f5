"""Rule `auction` (R-AUC-01..07): every player acquires exactly one of the drawn provinces.

From the start player clockwise each player bids on a space of a province card: any space
on an empty card, above every bid on an occupied one, never more than he can pay (gold plus
cards sold, A-SELL). Then, clockwise, an outbid player must move to a different card and
one who is not outbid passes. The auction ends the moment every card holds exactly one
bid; everyone pays, takes the province and its free cards and gold. Protection makes
outbidding its player cost `protection_skip` spaces for the rest of the phase (played with a
bid, or also on a turn he passes: A-PROTECTION); Bribery lets an outbid player rebid on the
same card (once per card, or for the whole phase: A-BRIBERY). Cards played here stay face up
until the phase ends.

Identical cards (A-IDENTICAL): the auction is the one phase where a player has several
turns, so it is where the two readings part. With `same_time` (2003) a player may play a
second Bribery on a later turn; with `same_phase` (2016) not. A second Protection would
change nothing (the first one already lasts the phase), so it is never offered.

An answer is `(province, amount, cards)`, `cards` a tuple of the card ids played with it.

The rule is a package, one concern a file: here its play (`Auction`: its parameters and
rulings, what it declares, its `run`, and the context each bid question carries); `words.py`
everything a person reads of it (a bid described, the bid question and its facts, the event
lines); `valuing.py` what its bids are worth to the planner; `actions.py` its fixed action
space.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.contract import Decision, Event, Rule, Statistic, answers, ruling, takes
from amunre.core.decisions import Lazy, decide
from amunre.core.facets import PictureFacet, WordsFacet
from amunre.core.fields import bounded, bounded_items, doc
from amunre.core.mechanics import convert_full_stones, means, pay, play_card, receive
from amunre.core.registry import register
from amunre.rules.auction.actions import _bid_actions
from amunre.rules.auction.valuing import _appraise_bids
from amunre.rules.auction.words import (
    _acquire_line,
    _bid_facts,
    _bid_group,
    _bid_line,
    _bid_note,
    _bid_question,
    _describe_bid,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import TypeAlias

    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.model import Variant

    #: A bid: (province, amount, the ids of the cards played with it).
    Bid: TypeAlias = tuple[int, int, tuple[int, ...]]


@attrs.frozen
class Params:
    bid_spaces: tuple[int, ...] = doc(
        "Bid values printed on each province card, ascending (R-AUC-01).",
        default=(0, 1, 3, 6, 10, 15, 21, 28, 36),
        converter=tuple, validator=bounded_items(0, 1000, 30),
    )
    protection_skip: int = doc("Spaces an outbidder must go above a protected bid (2: skip one).", default=2,
                               validator=bounded(1, 9))


@attrs.frozen
class Rulings:
    sell_cards_to_bid: bool = ruling(
        "A-SELL", "Cards may be sold for 1 gold each mid-auction to afford a bid.", True)
    free_stones_build: bool = ruling(
        "A-FREESTONES", "Free stones that bring a province to 3 stones (with stones left from the Old Kingdom) "
        "become a pyramid when the province is acquired.", True)
    bribery_scope: str = ruling(
        "A-BRIBERY", "`one_rebid` (one card allows one rebid on the same province) or `whole_phase` (rebids on "
        "the same province for the rest of the auction).", "whole_phase",
        validator=attrs.validators.in_(("one_rebid", "whole_phase")))
    identical_cards: str = ruling(
        "A-IDENTICAL", "Two identical cards may not be played `same_time` (2003: a second Bribery on a later "
        "bidding turn is allowed) or in the `same_phase` (2016).", "same_time",
        validator=attrs.validators.in_(("same_time", "same_phase")))
    protection_timing: str = ruling(
        "A-PROTECTION", "Protection is played `with_bid` (together with placing a bid) or on `any_turn` of the "
        "auction, also one where its player passes.", "with_bid",
        validator=attrs.validators.in_(("with_bid", "any_turn")))




def _bid_board(leaving: int | None, where: Iterable[tuple[int, tuple[int, int]]], protected: Iterable[int],
               spaces: Sequence[int]) -> dict[str, Any]:
    """A bid question's context: the card the player's marker leaves, every marker as
    [player, card, amount], the players whose bid is protected."""
    return {"moving_from": leaving, "bids": [[q, c, spaces[i]] for q, (c, i) in where],
            "protected": sorted(protected)}


#: The price paid for each province, a row per province by its name.
_PRICE_BY_PROVINCE = Statistic("province_price.{province}",
                               lambda fields, w: f"{w.t('gold')} paid for {w.province(fields['province'])}",
                               itemgetter("amount"), "mean")


@register
class Auction(Rule, WordsFacet, PictureFacet):
    id = "auction"
    kind = "phase"
    summary = "Bid on the drawn provinces until each card holds exactly one bid."
    spec_ids = ("R-AUC-01", "R-AUC-02", "R-AUC-03", "R-AUC-04", "R-AUC-05", "R-AUC-06", "R-AUC-07",
                "A-SELL", "A-FREESTONES", "A-BRIBERY", "A-IDENTICAL", "A-PROTECTION")
    params = takes(Params)
    rulings = answers(Rulings)
    cards = {
        "protection": "Played with a bid: for the rest of the auction, whoever outbids its player must bid at "
                      "least `protection_skip` spaces above his bid instead of 1.",
        "bribery": "Once outbid, its player may bid again on the same province card instead of moving to "
                   "another: `bribery_scope`.",
    }
    ruling_words = {"bribery_scope": {"one_rebid": "once",
                                      "whole_phase": "each time he is outbid there, until the auction ends"}}
    decisions = {
        "bid": Decision(
            options="(province, amount, cards): a bid space on a drawn province, with the cards played with it "
                    "(context: `moving_from`, the card he was outbid on; `bids`, [player, province, amount] of "
                    "every bid marker placed; `protected`, the players who played Protection)",
            json="[province id, amount, [card ids]]",
            describe=_describe_bid,
            group=_bid_group,
            question=_bid_question,
            facts=_bid_facts,
            note=_bid_note,
            actions=_bid_actions,
            appraise_all=_appraise_bids,
            where=lambda option: option[0],  # the province card bid on
            context={"moving_from": "province", "protected": "seats", "bids": "bids"},
            title="placing the {bid_marker}",
            counted="bids ({bid_marker} placed or moved)",  # (each bid is one: counted where asked)
        ),
        "protect": Decision(
            options="true (play Protection now, on a turn he passes) or false; asked only with A-PROTECTION "
                    "`any_turn`",
            json="a boolean",
            describe=lambda option, w: f"play the {w.card_noun('protection')} now" if option else "keep it",
            question=lambda asking: (f"Nobody outbid you: do you play your {asking.words.card_noun('protection')} "
                                     f"now, so that outbidding you skips a space?"),
            actions=lambda rule, variant: [False, True],
            appraise=lambda play, asking, worth: -worth.card(asking.rule.protection) if play else 0.0,
            title="playing the {protection} card on a pass",
        ),
    }
    events = {
        "bid": Event("A player places or moves his bid marker (with the cards played; `outbid`: the player "
                     "whose top bid it beats, or null).", _bid_line),
        "pass": Event("A player who was not outbid passes.",
                      lambda e, w: f"  {w.who(e['player'])} is not outbid and passes.",
                      statistics=(Statistic("passes", "passes in the auction (not outbid)"),)),
        "acquire": Event("A player pays his bid and takes the province, with the `cards` and `gold` lying on "
                         "it; the `stones`, single `pyramids` and `doubles` standing in it stay there.",
                         _acquire_line,
                         statistics=(Statistic("auction_price", "{gold} paid per province in the auction",
                                               itemgetter("amount"), "mean"),
                                     Statistic("provinces_taken", "provinces taken in the auction"),
                                     _PRICE_BY_PROVINCE)),
    }
    #: the price, and the cards and gold lying on a province, are said by the `acquire` line
    reasons = {"bid": None, "free": None, "cards:free": None, "owed:bid": "your bid"}
    terms = {"bid_marker": "bid marker"}
    requires = ("provinces",)
    provides = ("ownership",)
    once = True
    #: the provinces are on auction from its start to its end: its own data, published for the
    #: faces (the board picture's panel, the observation); the round's cards come from the draw
    publishes = {"on_auction": "the provinces on auction, while the auction runs (else none)"}
    reads_published = ("round_provinces",)

    def initial_state(self, game: GameLike) -> dict[str, Any]:
        return {"on_auction": []}

    def setup(self) -> None:
        self.protection = self.variant.card_id("protection")
        self.bribery = self.variant.card_id("bribery")

    def table_markers(self, event: dict[str, Any], markers: dict[int, tuple[int, int, str]]) -> None:
        """Each player's bid marker: placed and moved by his bids, marked by the Protection he
        plays (with a bid or on a turn he passes: it lasts the phase), taken off when he
        acquires the province."""
        # (the player read where the event has one: these three always do)
        name = event["event"]
        if name == "bid":
            player = event["player"]
            kept = markers.get(player)
            protected = bool(kept and kept[2]) or "protection" in event["cards"]
            markers[player] = (event["province"], event["amount"], self.variant.term("protection") if protected else "")
        elif name == "play" and event["card"] == "protection" and event["player"] in markers:
            player = event["player"]
            province, amount, _ = markers[player]
            markers[player] = (province, amount, self.variant.term("protection"))
        elif name == "acquire":
            markers.pop(event["player"], None)

    def check(self, variant: Variant) -> list[str]:
        spaces = self.params.bid_spaces
        if not spaces or list(spaces) != sorted(set(spaces)) or spaces[0] != 0:
            return ["bid_spaces must start at 0 and strictly increase"]
        return []

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        mine = state.rules[self.key]
        cards = list(self.published(state, "round_provinces"))
        mine["on_auction"] = list(cards)
        n = state.n_players
        spaces = self.params.bid_spaces
        can_sell = self.rulings.sell_cards_to_bid
        whole_phase_bribery = self.rulings.bribery_scope == "whole_phase"
        second_bribery = self.rulings.identical_cards == "same_time"
        protect_on_pass = self.rulings.protection_timing == "any_turn"
        PROTECTION, BRIBERY = self.protection, self.bribery
        # top[card] = (space index, player) of the highest bid; where[p] = (card, space index)
        top: dict[int, tuple[int, int]] = {}
        bidders: dict[int, int] = dict.fromkeys(cards, 0)
        where: dict[int, tuple[int, int]] = {}
        protected: set[int] = set()
        # players who played Bribery this phase: with the whole-phase ruling they keep
        # rebidding on the same card for free; otherwise each rebid takes a card
        bribed: set[int] = set()

        def options_for(p: int, leaving: int | None) -> list[Bid]:
            hand = state.players[p].hand
            can_protect = hand[PROTECTION] > 0 and p not in protected
            free_rebid = p in bribed and whole_phase_bribery
            can_bribe = hand[BRIBERY] > 0 and (p not in bribed or second_bribery)
            base = means(state, p, can_sell)
            opts: list[Bid] = []
            for c in cards:
                plays: tuple[int, ...] = ()
                if c == leaving:
                    if free_rebid:
                        pass
                    elif can_bribe:
                        plays = (BRIBERY,)
                    else:
                        continue
                if c in top:
                    t_idx, t_player = top[c]
                    low = t_idx + (self.params.protection_skip if t_player in protected else 1)
                else:
                    low = 0
                for extra in ((), (PROTECTION,)) if can_protect else ((),):
                    played = plays + extra
                    # a played card can no longer be sold to pay the bid
                    limit = base - len(played) if can_sell else base
                    for i in range(low, len(spaces)):
                        if spaces[i] > limit:
                            break
                        opts.append((c, spaces[i], played))
            return opts

        def place(p: int, leaving: int | None) -> Steps[None]:
            opts = options_for(p, leaving)
            # the bid board as everyone sees it, for whoever shows the question (the human seat);
            # worked out only if read, from a snapshot of this moment
            board_now = Lazy(_bid_board, leaving, tuple(where.items()), tuple(protected), spaces)
            choice = yield from decide(p, "bid", opts, board_now)
            c, amount, played = choice
            for kind in played:
                play_card(game, p, kind, face_up_until_phase_end=True, province=c, told=True)
                if kind == PROTECTION:
                    protected.add(p)
                else:
                    bribed.add(p)
            if leaving is not None:
                bidders[leaving] -= 1
                # the top bid on the card left behind is unchanged (only outbid players move)
            beaten = top[c][1] if c in top else None
            idx = spaces.index(amount)
            where[p] = (c, idx)
            top[c] = (idx, p)
            bidders[c] += 1
            if "bid" in game.hearing:
                game.emit("bid", player=p, province=c, amount=amount, moved_from=leaving, outbid=beaten,
                          cards=[game.variant.cards[k] for k in played])

        order = state.turn_order()
        for p in order:
            yield from place(p, None)
        settled: Callable[[], bool] = lambda: all(v == 1 for v in bidders.values())  # noqa: E731
        turn = 0
        while not settled():
            p = order[turn % n]
            turn += 1
            c, idx = where[p]
            if top[c][1] != p:
                yield from place(p, c)
                continue
            if "pass" in game.hearing:
                game.emit("pass", player=p)
            if protect_on_pass and p not in protected:
                # asked whether he holds the card or not (then forced): who is asked is public.
                # He may play it only if he can still pay his bid without selling it: a played
                # card can no longer be sold (his bid may count it, where cards sell to bid)
                can_play = state.players[p].hand[PROTECTION] and (
                    not can_sell or means(state, p) - 1 >= spaces[idx])
                if (yield from decide(p, "protect", [False, True] if can_play else [False])):
                    play_card(game, p, PROTECTION, face_up_until_phase_end=True)
                    protected.add(p)

        board = game.variant.board.provinces
        free_stones_build = self.rulings.free_stones_build
        for p in order:
            c, idx = where[p]
            yield from pay(game, p, spaces[idx], "bid")
            prov = state.provinces[c]
            prov.owner = p
            state.players[p].provinces.append(c)
            lying_cards, gold = len(prov.cards), prov.gold
            if prov.cards:
                for kind in prov.cards:
                    state.players[p].hand[kind] += 1
                if "cards" in game.hearing:
                    game.emit("cards", player=p, count=len(prov.cards), why="free")
                prov.cards = []
            if prov.gold:
                receive(game, p, prov.gold, "free")
                prov.gold = 0
            if "acquire" in game.hearing:
                game.emit("acquire", player=p, province=c, amount=spaces[idx], cards=lying_cards, gold=gold,
                          stones=prov.stones, pyramids=prov.pyramids, doubles=prov.doubles)
            if free_stones_build and board[c].free_stones:
                yield from convert_full_stones(game, c)
        mine["on_auction"] = []
