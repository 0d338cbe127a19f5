"""Rule `auction` (R-AUC-01..07): every player acquires exactly one of the drawn provinces.

From the start player clockwise each player bids on a space of a province card: any space
on an empty card, above every bid on an occupied one, never more than he can pay (gold plus
cards sold, A-SELL). Then, clockwise, an outbid player must move to a different card and
one who is not outbid passes. The auction ends the moment every card holds exactly one
bid; everyone pays, takes the province and its free cards and gold. Protection makes
outbidding its player cost `protection_skip` spaces; Bribery lets an outbid player rebid on
the same card (once per card, or for the whole phase: A-BRIBERY). Cards played here stay
face up until the phase ends.

An answer is `(province, amount, cards)`, `cards` a tuple of the card ids played with it.
"""

from __future__ import annotations

import attrs

from amunre.decisions import decide
from amunre.mechanics import convert_full_stones, means, pay, play_card, receive
from amunre.model import CARD_ID, CARD_KINDS, doc
from amunre.registry import register
from amunre.rules.base import Rule

PROTECTION = CARD_ID["protection"]
BRIBERY = CARD_ID["bribery"]


@attrs.frozen
class Params:
    bid_spaces: tuple[int, ...] = doc(
        "Bid values printed on each province card, ascending (R-AUC-01).",
        default=(0, 1, 3, 6, 10, 15, 21, 28, 36),
        converter=tuple,
    )
    protection_skip: int = doc("Spaces an outbidder must go above a protected bid (2: skip one).", default=2)


@register
class Auction(Rule):
    id = "auction"
    kind = "phase"
    summary = "Bid on the drawn provinces until each card holds exactly one bid."
    Params = Params
    requires = ("provinces",)
    provides = ("ownership",)
    once = True

    def check(self, variant) -> list[str]:
        spaces = self.params.bid_spaces
        if not spaces or list(spaces) != sorted(set(spaces)) or spaces[0] != 0:
            return ["bid_spaces must start at 0 and strictly increase"]
        return []

    def run(self, game):
        state = game.state
        cards = list(state.on_auction)
        n = state.n_players
        spaces = self.params.bid_spaces
        can_sell = game.variant.rulings.sell_cards_to_bid
        whole_phase_bribery = game.variant.rulings.bribery_scope == "whole_phase"
        # top[card] = (space index, player) of the highest bid; where[p] = (card, space index)
        top: dict[int, tuple[int, int]] = {}
        bidders: dict[int, int] = {c: 0 for c in cards}
        where: dict[int, tuple[int, int]] = {}
        protected: set[int] = set()
        # players who played Bribery this phase: no second one (identical cards), but with
        # the whole-phase ruling they keep rebidding on the same card for free
        bribed: set[int] = set()

        def options_for(p: int, leaving: int | None):
            hand = state.players[p].hand
            can_protect = hand[PROTECTION] > 0 and p not in protected
            if p in bribed:
                has_bribery = whole_phase_bribery
            else:
                has_bribery = hand[BRIBERY] > 0
            base = means(state, p, can_sell)
            opts = []
            for c in cards:
                plays: tuple = ()
                if c == leaving:
                    if not has_bribery:
                        continue
                    if p not in bribed:
                        plays = (BRIBERY,)
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

        def place(p: int, leaving: int | None):
            opts = options_for(p, leaving)
            choice = yield from decide(p, "bid", opts, {"moving_from": leaving})
            c, amount, played = choice
            for kind in played:
                play_card(game, p, kind, face_up_until_phase_end=True)
                if kind == PROTECTION:
                    protected.add(p)
                else:
                    bribed.add(p)
            if leaving is not None:
                bidders[leaving] -= 1
                # the top bid on the card left behind is unchanged (only outbid players move)
            idx = spaces.index(amount)
            where[p] = (c, idx)
            top[c] = (idx, p)
            bidders[c] += 1
            if game.listening:
                game.emit("bid", player=p, province=c, amount=amount, moved_from=leaving,
                          cards=[CARD_KINDS[k] for k in played])

        order = state.turn_order()
        for p in order:
            yield from place(p, None)
        settled = lambda: all(v == 1 for v in bidders.values())  # noqa: E731
        turn = 0
        while not settled():
            p = order[turn % n]
            turn += 1
            c, idx = where[p]
            if top[c][1] != p:
                yield from place(p, c)
            elif game.listening:
                game.emit("pass", player=p)

        board = game.variant.board.provinces
        free_stones_build = game.variant.rulings.free_stones_build
        for p in order:
            c, idx = where[p]
            yield from pay(game, p, spaces[idx], "bid")
            prov = state.provinces[c]
            prov.owner = p
            state.players[p].provinces.append(c)
            if game.listening:
                game.emit("acquire", player=p, province=c, amount=spaces[idx])
            if prov.cards:
                for kind in prov.cards:
                    state.players[p].hand[kind] += 1
                if game.listening:
                    game.emit("cards", player=p, count=len(prov.cards), why="free")
                prov.cards = []
            if prov.gold:
                receive(game, p, prov.gold, "free")
                prov.gold = 0
            if free_stones_build and board[c].free_stones:
                convert_full_stones(game, c)
        state.on_auction = []
