"""The `greedy` agent: a short-sighted but sensible player.

It bids on the province it values most relative to the price and within its means, buys
farmers while they pay back within the kingdom, builds pyramids (placing stones where a
pyramid is closest), offers a share of its gold, and plays its cards when they help. It is
a baseline for comparisons, not a strong player.
"""

from __future__ import annotations

from amunre.model import CARD_ID
from amunre.rules.market import price
from amunre.rules.scoring import BonusParams, bonus_met

# Cards it gives up first when it must sell.
_SELL_FIRST = [CARD_ID[k] for k in (
    "bribery", "protection", "offering_adjustment", "nile_frontier", "west_east", "upper_lower",
    "master_of_scribes", "master_of_farmers", "big_harvest", "treasury", "free_farmer", "architect",
)]


class GreedyAgent:
    name = "greedy"

    def __init__(self, rng):
        self.rng = rng

    def choose(self, game, request):
        handler = getattr(self, "_" + request.kind, None)
        if handler is None:
            return self.rng.choice(request.options)
        choice = handler(game, request.player, request.options)
        return choice if choice in request.options else request.options[0]

    # -- helpers ------------------------------------------------------------------------
    @staticmethod
    def _rounds_left(game) -> int:
        return game.variant.edition.rounds_per_kingdom - game.state.round

    def _province_value(self, game, pid: int) -> float:
        info = game.variant.board.provinces[pid]
        prov = game.state.provinces[pid]
        rounds = self._rounds_left(game)
        return (
            prov.gold + 2 * len(prov.cards) + 2.5 * prov.stones + 5 * prov.pyramid_count()
            + info.mine * rounds + info.caravan * rounds * 0.5 + 3 * info.temples
            + 1.5 * min(info.fields, 4) + info.card_limit
        )

    # -- auction ------------------------------------------------------------------------
    def _bid(self, game, p, options):
        gold = game.state.players[p].gold
        best, best_score = options[0], None
        for option in options:
            pid, amount, cards = option
            if amount > gold * 0.6 and amount > 0:
                continue
            score = self._province_value(game, pid) - amount
            for card in cards:
                # Protection is worth its card only on a bid worth defending
                score += 1.5 if card == CARD_ID["protection"] and amount >= 6 else -2
            if best_score is None or score > best_score:
                best, best_score = option, score
        return best

    # -- market -------------------------------------------------------------------------
    def _buy_cards(self, game, p, options):
        return min(options[-1], 1 if game.state.players[p].gold >= 12 else 0)

    def _buy_farmers(self, game, p, options):
        payback = 2 * self._rounds_left(game)
        budget = game.state.players[p].gold - 4
        best = 0
        for n in options:
            if price(n) <= budget and n * payback - price(n) > best * payback - price(best):
                best = n
        return best

    def _place_farmer(self, game, p, options):
        return options[0]

    def _free_farmer(self, game, p, options):
        return options[1] if len(options) > 1 else None

    def _buy_stones(self, game, p, options):
        state = game.state
        budget = state.players[p].gold * 0.5
        need = min((3 - state.provinces[i].stones % 3 for i in state.players[p].provinces), default=3)
        if state.players[p].hand[CARD_ID["architect"]]:
            need = max(1, need - 1)
        best = 0
        for n in options:
            if price(n) <= budget and (n >= need):
                best = n
                if n >= need + 3 or n >= 4:
                    break
        return best

    def _place_stone(self, game, p, options):
        provs = game.state.provinces
        # closest to a pyramid first, then the province with the fewest pyramids (sets)
        return max(options, key=lambda i: (provs[i].stones % 3, -provs[i].pyramid_count()))

    def _architect(self, game, p, options):
        return options[1] if len(options) > 1 else None

    # -- offering -----------------------------------------------------------------------
    def _offer(self, game, p, options):
        gold = game.state.players[p].gold
        if gold < 4 and any(o[0] == "theft" for o in options):
            return next(o for o in options if o[0] == "theft")
        target = max(1, gold // 4)
        # an adjustment card is only good in an offering: always bring it along
        adjust = 1 if any(o[2] for o in options) else 0
        golds = [o for o in options if o[0] == "gold" and o[2] == adjust]
        return min(golds, key=lambda o: abs(o[1] - target)) if golds else options[0]

    def _sell_for_offering(self, game, p, options):
        return None  # it offers a share of the gold it has

    def _adjust(self, game, p, options):
        state = game.state
        farmers = sum(state.provinces[i].all_farmers() for i in state.players[p].provinces)
        return max(options) if farmers >= 2 else min(options)

    def _reward(self, game, p, options):
        provs = game.state.provinces
        stones = [o for o in options if isinstance(o, tuple) and o[0] == "stone"]
        finishing = [o for o in stones if provs[o[1]].stones == 2]
        if finishing:
            return finishing[0]
        farmers = [o for o in options if isinstance(o, tuple) and o[0] == "farmer"]
        if farmers and self._rounds_left(game) > 1:
            return farmers[0]
        if stones:
            return max(stones, key=lambda o: provs[o[1]].stones)
        return options[0]

    # -- harvest ------------------------------------------------------------------------
    def _treasury(self, game, p, options):
        from amunre.rules.harvest import province_income

        state = game.state
        harvest = next(r for r in game.phases if r.id == "harvest")
        worst = min(options[1:], key=lambda i: province_income(game, i, harvest.params.camel_levels))
        if province_income(game, worst, harvest.params.camel_levels) < harvest.params.treasury_gold:
            return worst
        return None if state.round < 2 else worst

    def _big_harvest(self, game, p, options):
        provs = game.state.provinces
        best = max(options[1:], key=lambda i: provs[i].all_farmers())
        return best if provs[best].all_farmers() else None

    # -- scoring ------------------------------------------------------------------------
    def _play_bonus(self, game, p, options):
        rule = next((r for r in game.scoring if r.id == "bonus_cards"), None)
        params = rule.params if rule else BonusParams()
        state = game.state
        for kind in options[1:]:
            if bonus_met(kind, state, game.variant.board.provinces, state.players[p].provinces, params):
                return kind
        return None

    def _sell_cards(self, game, p, options):
        return options[-1]

    def _sell(self, game, p, options):
        return min(options, key=_SELL_FIRST.index)

