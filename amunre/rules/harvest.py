"""Rule `harvest` (R-HAR-01..02): from the start player, each player takes his income.

Each farmer in his provinces yields the offering level in gold, gold mines always pay, and
caravans pay only at the levels showing a camel. Before counting, a player may play a
Treasury (one chosen province yields nothing, he takes `treasury_gold` instead) and a Big
Harvest (+`big_harvest_bonus` per farmer in one chosen province). With A-TEMPLEHARVEST,
temples also score the offering level at every harvest.
"""

from __future__ import annotations

import attrs

from amunre.contract import Decision, Rule, ScoringItem, ruling
from amunre.counting import province_income
from amunre.decisions import decide
from amunre.mechanics import add_points, play_card, receive
from amunre.model import bounded, bounded_items, doc
from amunre.registry import register

#: The scoring item of temples scored at a harvest (A-TEMPLEHARVEST).
TEMPLES_AT_HARVEST = "temples_harvest"


@attrs.frozen
class Params:
    treasury_gold: int = doc("Gold a Treasury card pays instead of one province's income.", default=8,
                             validator=bounded(0, 1000))
    big_harvest_bonus: int = doc("Extra gold per farmer in the province chosen for a Big Harvest.", default=1,
                                 validator=bounded(0, 100))
    camel_levels: tuple[int, ...] = doc(
        "Offering levels at which caravans pay.", default=(1, 2), converter=tuple,
        validator=bounded_items(1, 20, 20),
    )


@attrs.frozen
class Rulings:
    temples_score_at_harvest: bool = ruling(
        "A-TEMPLEHARVEST", "Temples also score the offering level at every harvest, not only at a kingdom's end.",
        False)


# -- how its decisions read at the table (see `Decision`) ----------------------------------
def _income_note(pid, asking) -> str | None:
    """What the province would yield at this harvest."""
    if asking.rule is None:
        return None
    return f"it yields {asking.rule.income(asking.view, asking.view.variant.board, pid)} {asking.words.t('gold')} now"


def _treasury_question(asking) -> str:
    w = asking.words
    gold = asking.rule.params.treasury_gold if asking.rule is not None else 8
    return (f"Play your {w.card('treasury')} card? The province you choose yields nothing at this harvest; you take "
            f"{gold} {w.t('gold')} instead.")


def _big_harvest_question(asking) -> str:
    w = asking.words
    bonus = asking.rule.params.big_harvest_bonus if asking.rule is not None else 1
    return (f"Play your {w.card('big_harvest')} card? Each {w.t('farmer')} in the province you choose yields "
            f"{bonus} {w.t('gold')} more at this harvest.")


def _farmers_note(pid, asking) -> str:
    w = asking.words
    farmers = asking.view.provinces[pid].all_farmers()
    return f"{w.plural(farmers, w.t('farmer'), w.t('farmers'))} there"


@register
class Harvest(Rule):
    id = "harvest"
    kind = "phase"
    summary = "Farmers, gold mines and caravans pay; Treasury and Big Harvest apply."
    spec_ids = ("R-HAR-01", "R-HAR-02", "A-TEMPLEHARVEST")
    Params = Params
    Rulings = Rulings
    cards = {
        "treasury": "One chosen province yields nothing this harvest; its player takes `treasury_gold` instead.",
        "big_harvest": "+`big_harvest_bonus` gold per farmer in one chosen province this harvest.",
    }
    decisions = {
        "treasury": Decision("None or a province of his to give up for the Treasury gold",
                             "null or an integer province id",
                             lambda pid, w: f"play it on {w.province(pid)}", note=_income_note,
                             none=lambda w: f"keep the {w.card('treasury')} card", question=_treasury_question),
        "big_harvest": Decision("None or a province of his for a Big Harvest", "null or an integer province id",
                                lambda pid, w: f"play it on {w.province(pid)}", note=_farmers_note,
                                none=lambda w: f"keep the {w.card('big_harvest')} card",
                                question=_big_harvest_question),
    }
    reasons = {"harvest": "as income"}
    terms = {TEMPLES_AT_HARVEST: "temples at harvest"}

    def setup(self) -> None:
        self.treasury = self.variant.card_id("treasury")
        self.big_harvest = self.variant.card_id("big_harvest")

    def score_items(self) -> list[ScoringItem]:
        if not self.rulings.temples_score_at_harvest:
            return []
        return [ScoringItem(TEMPLES_AT_HARVEST, self.variant.term(TEMPLES_AT_HARVEST))]

    def income(self, state, board, pid: int, bonus: int = 0) -> int:
        """Gold one province yields at this harvest (see `amunre.counting.province_income`)."""
        return province_income(state, board, pid, self.params.camel_levels, bonus)

    def run(self, game):
        state = game.state
        TREASURY, BIG_HARVEST = self.treasury, self.big_harvest  # noqa: N806 - constants of this phase
        temples_too = self.rulings.temples_score_at_harvest
        board_data = game.variant.board
        board = board_data.provinces
        camel_levels = self.params.camel_levels
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
                    gold += province_income(state, board_data, pid, camel_levels, bonus)
            if skip is not None:
                gold += self.params.treasury_gold
            receive(game, p, gold, "harvest")
            if temples_too:
                temples = sum(board[i].temples for i in owned)
                if temples:
                    add_points(game, p, TEMPLES_AT_HARVEST, temples * state.offering_level)
