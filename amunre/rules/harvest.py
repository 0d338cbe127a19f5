"""Rule `harvest` (R-HAR-01..02): from the start player, each player takes his income.

Each farmer in his provinces yields the offering level in gold, gold mines always pay, and
caravans pay only at the levels showing a camel. Before counting, a player may play a
Treasury (one chosen province yields nothing, he takes `treasury_gold` instead) and a Big
Harvest (+`big_harvest_bonus` per farmer in one chosen province). With A-TEMPLEHARVEST,
temples also score the offering level at every harvest.
"""

from __future__ import annotations

import attrs

from amunre.decisions import decide
from amunre.mechanics import add_points, play_card, receive
from amunre.model import CARD_ID, doc
from amunre.registry import register
from amunre.rules.base import Rule

TREASURY = CARD_ID["treasury"]
BIG_HARVEST = CARD_ID["big_harvest"]


@attrs.frozen
class Params:
    treasury_gold: int = doc("Gold a Treasury card pays instead of one province's income.", default=8)
    big_harvest_bonus: int = doc("Extra gold per farmer in the province chosen for a Big Harvest.", default=1)
    camel_levels: tuple[int, ...] = doc(
        "Offering levels at which caravans pay.", default=(1, 2), converter=tuple
    )


def province_income(game, pid: int, camel_levels, bonus: int = 0) -> int:
    """Gold one province yields at the current level (farmers, mine, caravan)."""
    state = game.state
    info = game.variant.board.provinces[pid]
    prov = state.provinces[pid]
    level = state.offering_level
    gold = (prov.farmers + prov.free_farmers) * (level + bonus) + info.mine
    if info.caravan and level in camel_levels:
        gold += info.caravan
    return gold


@register
class Harvest(Rule):
    id = "harvest"
    kind = "phase"
    summary = "Farmers, gold mines and caravans pay; Treasury and Big Harvest apply."
    Params = Params

    def run(self, game):
        state = game.state
        temples_too = game.variant.rulings.temples_score_at_harvest
        board = game.variant.board.provinces
        for p in state.turn_order():
            player = state.players[p]
            owned = player.provinces
            skip = boost = None
            if player.hand[TREASURY] and owned:
                skip = yield from decide(p, "treasury", [None] + list(owned))
                if skip is not None:
                    play_card(game, p, TREASURY, province=skip)
            if player.hand[BIG_HARVEST] and owned:
                boost = yield from decide(p, "big_harvest", [None] + list(owned))
                if boost is not None:
                    play_card(game, p, BIG_HARVEST, province=boost)
            gold = 0
            for pid in owned:
                if pid != skip:
                    bonus = self.params.big_harvest_bonus if pid == boost else 0
                    gold += province_income(game, pid, self.params.camel_levels, bonus)
            if skip is not None:
                gold += self.params.treasury_gold
            receive(game, p, gold, "harvest")
            if temples_too:
                temples = sum(board[i].temples for i in owned)
                if temples:
                    add_points(game, p, "temples_harvest", temples * state.offering_level)
