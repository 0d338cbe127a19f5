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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.boardtext import province_line
from amunre.core.contract import Decision, Event, Rule, Statistic, ruling
from amunre.core.decisions import Lazy, decide
from amunre.core.fields import bounded, bounded_items, doc
from amunre.core.mechanics import convert_full_stones, means, pay, play_card, receive
from amunre.core.registry import register

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import TypeAlias

    from amunre.core.contract import Asking, GameLike
    from amunre.core.decisions import Steps
    from amunre.core.model import Variant
    from amunre.core.valuation import Valuer
    from amunre.core.view import PlayerView
    from amunre.core.words import Words

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


if TYPE_CHECKING:
    # the names `Auction.Params` and `Auction.Rulings` hide in its class body
    _Params = Params
    _Rulings = Rulings


def _describe_bid(option: Bid, w: Words) -> str:
    province, amount, cards = option
    return f"bid {amount} on {w.province(province)}" + "".join(
        f", playing the {w.card_noun(w.variant.cards[c])}" for c in cards)


def _bid_group(option: Bid, w: Words) -> tuple[str, str]:
    """A bid shown among many: under its card (and the cards played with it: `Abu + "bidding
    blockade"`), by its amount."""
    province, amount, cards = option
    return (w.province(province) + "".join(f" + {w.card_label(w.variant.cards[c])}" for c in cards), str(amount))


def _bid_question(asking: Asking) -> str:
    w = asking.words
    leaving = asking.context.get("moving_from")
    if leaving is not None:
        again = ""
        if any(option[0] == leaving for option in asking.request.options):
            again = f" (or bid again on it{' with the ' + w.card_noun('bribery') if _bribes(asking) else ''})"
        return (f"You were outbid on {w.province(leaving)}: move your {w.t('bid_marker')} to another "
                f"card{again}, and bid how much?")
    return f"Place your {w.t('bid_marker')}: on which province card, and how much?"


def _bribes(asking: Asking) -> bool:
    """Whether a rebid on the card he was outbid on plays a card (else his Bribery still holds)."""
    leaving = asking.context.get("moving_from")
    return any(option[0] == leaving and option[2] for option in asking.request.options)


def _bid_facts(asking: Asking) -> list[str]:
    """Every card on auction: what lies on it, its top bid (bidder, protection), the others on it."""
    w, view = asking.words, asking.view
    protected = set(asking.context.get("protected", ()))
    on_card: dict[int, list[tuple[int, int]]] = {}
    for player, card, amount in asking.context.get("bids", ()):
        on_card.setdefault(card, []).append((amount, player))
    cards = sum(view.hand)
    can_sell = f" and {w.plural(cards, w.t('favor'), w.t('favor_plural'))} to sell" if cards else ""
    lines = [f"The {w.t('province_cards')} on auction (you have {asking.gold} {w.t('gold')}{can_sell}):"]
    for card in view.published("on_auction", ()):
        bids = sorted(on_card.get(card, ()), reverse=True)
        if bids:
            amount, player = bids[0]
            top = f"top bid {amount} by {w.who(player)}"
            if player in protected:
                top += f" ({w.card('protection')}: outbidding skips a space)"
            under = [f"{w.who(q)} at {a}, outbid" for a, q in bids[1:]]
            status = "; ".join([top] + under)
        else:
            status = "no bid yet"
        lines.append(f"  {w.province(card)}: {status} -- {province_line(view, card, w)}")
    return lines


def _bid_note(option: Bid, asking: Asking) -> str | None:
    province, amount, cards = option
    # a card played with the bid can no longer be sold to pay it
    return asking.must_sell(amount)


def _bid_line(e: dict[str, Any], w: Words) -> str:
    """One line per bid, with the cards played with it (their `play` events have no line)."""
    who, where, marker = w.who(e["player"]), w.province(e["province"]), w.t("bid_marker")
    left = e["moved_from"]
    played = [c for c in e["cards"] if c != "bribery"]
    over = f", outbidding {w.who(e['outbid'])}" if e.get("outbid") is not None else ""
    if left is None:
        text = f"{who} places the {marker} on space {e['amount']} of {where}"
    elif left == e["province"]:
        # a rebid on the card he was outbid on: a Bribery played now, or one still in force
        if "bribery" in e["cards"]:
            text = (f"{who}, outbid on {where}, plays {w.a(w.card_noun('bribery'))} and raises the {marker} "
                    f"there to space {e['amount']}")
        else:
            text = (f"{who}, outbid on {where}, raises the {marker} there to space {e['amount']} (his "
                    f"{w.card('bribery')} holds for the whole phase)")
    else:
        text = f"{who}, outbid on {w.province(left)}, moves the {marker} to space {e['amount']} of {where}"
    cards = "".join(f", playing {w.a(w.card_noun(c))}" for c in played)
    return f"  {text}{over}{cards}."


def _acquire_line(e: dict[str, Any], w: Words) -> str:
    """The price, and what comes with the province: the cards and gold lying on it go to
    his hand, the stones and pyramids standing in it stay (R-AUC-07)."""
    gold = w.t("gold")
    line = f"  {w.who(e['player'])} acquires {w.province(e['province'])} for {e['amount']} {gold}"
    taken = []
    if e.get("cards"):
        taken.append(f"the {w.noun(e['cards'], 'favor')}" if e["cards"] == 1 else
                     f"the {w.count(e['cards'], 'favor')}")
    if e.get("gold"):
        taken.append(f"the {e['gold']} {gold}")
    if taken:
        line += f" and takes {w.join(taken)} lying on it"
    standing = []
    if e.get("doubles"):
        standing.append(w.count(e["doubles"], "double_pyramid"))
    if e.get("pyramids"):
        standing.append(w.count(e["pyramids"], "pyramid"))
    if e.get("stones"):
        standing.append(w.count(e["stones"], "stone"))
    if standing:
        line += f"; {w.join(standing)} stand{'s' if len(standing) == 1 and standing[0][:2] == '1 ' else ''} in it"
    return line + "."


def _bid_actions(rule: Auction, variant: Variant) -> list[Bid]:
    """Every bid the variant can ask: each province, each card combination that can go with a
    bid (none, Bribery, Protection, both, in the order the options list them), each space."""
    plays = [(), (rule.bribery,), (rule.protection,), (rule.bribery, rule.protection)]
    return [(c, amount, cards) for c in range(len(variant.board)) for cards in plays
            for amount in rule.params.bid_spaces]


def _bid_board(leaving: int | None, where: Iterable[tuple[int, tuple[int, int]]], protected: Iterable[int],
               spaces: Sequence[int]) -> dict[str, Any]:
    """A bid question's context: the card the player's marker leaves, every marker as
    [player, card, amount], the players whose bid is protected."""
    return {"moving_from": leaving, "bids": [[q, c, spaces[i]] for q, (c, i) in where],
            "protected": sorted(protected)}


# -- what its options are worth to the planner (`Decision.appraise`, `amunre.planning.worth`) ---------
#: What a province's empty fields add to its worth at an auction, as a share of what farmers
#: filling them would yield: they must still be bought.
FIELDS_SHARE = 0.5


def province_at_auction(pid: int, asking: Asking, worth: Valuer) -> float:
    """Holding `pid` through the kingdom, with the gold and cards lying on it and a share of
    what its fields could yield."""
    return worth.remember(("at auction", pid), _at_auction, pid, asking.view, worth)


def _at_auction(pid: int, view: PlayerView, worth: Valuer) -> float:
    lying = view.provinces[pid]
    fields = view.variant.board.provinces[pid].fields
    held = worth.province(pid)
    farmed = worth.gain((("own", pid, 1), ("farmers", pid, fields))) - held if fields else 0.0
    return held + worth.gold_change(lying.gold) + lying.cards * worth.drawn_card() + FIELDS_SHARE * farmed


def _appraise_bids(options: Sequence[Bid], asking: Asking, worth: Valuer) -> list[float]:
    """Each bid: the province, less its price (cards sold for what gold does not cover) and
    the cards played; a Protection keeps a bid worth defending. (All at once: many bids share
    a province and a price.)"""
    gold = asking.view.me.gold
    protection = asking.rule.protection
    per_gold = worth.gold_worth()
    provinces: dict[int, float] = {}
    selling: float | None = None  # what a card sold for a gold loses
    values = []
    for pid, amount, played in options:
        province = provinces.get(pid)
        if province is None:
            province = provinces[pid] = province_at_auction(pid, asking, worth)
        surplus = province + (-amount * per_gold if amount else 0.0)  # (as `worth.gold_change(-amount)`)
        if selling is None:
            selling = max(0.0, worth.drawn_card() - worth.gold)
        short = max(0, amount + len(played) - gold) if amount > gold else 0
        value = surplus - short * selling
        for card in played:
            value -= worth.card(card)
            if card == protection:
                value += 0.25 * max(0.0, surplus)
        values.append(value)
    return values


@register
class Auction(Rule):
    id = "auction"
    kind = "phase"
    summary = "Bid on the drawn provinces until each card holds exactly one bid."
    spec_ids = ("R-AUC-01", "R-AUC-02", "R-AUC-03", "R-AUC-04", "R-AUC-05", "R-AUC-06", "R-AUC-07",
                "A-SELL", "A-FREESTONES", "A-BRIBERY", "A-IDENTICAL", "A-PROTECTION")
    Params = Params
    params: _Params
    Rulings = Rulings
    rulings: _Rulings
    cards = {
        "protection": "Played with a bid: whoever outbids its player must skip a space (`protection_skip`).",
        "bribery": "Lets an outbid player bid again on the card he was outbid on (A-BRIBERY).",
    }
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
        ),
    }
    events = {
        "bid": Event("A player places or moves his bid marker (with the cards played; `outbid`: the player "
                     "whose top bid it beats, or null).", _bid_line),
        "pass": Event("A player who was not outbid passes.",
                      lambda e, w: f"  {w.who(e['player'])} is not outbid and passes."),
        "acquire": Event("A player pays his bid and takes the province, with the `cards` and `gold` lying on "
                         "it; the `stones`, single `pyramids` and `doubles` standing in it stay there.",
                         _acquire_line,
                         statistics=(Statistic("auction_price", "{gold} paid per province in the auction",
                                               lambda e: e["amount"], "mean"),)),
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
