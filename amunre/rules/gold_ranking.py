"""Rule `gold_ranking` (R-SCO-06), after the last kingdom's scoring: first every player may
sell any of his cards for 1 gold each (cards are worth nothing afterwards), then most gold
scores `points[0]`, second `points[1]`, third `points[2]`; tied players all score their rank
and push the next ranks down. With A-THEFTGOLD a held theft card counts as minus its value.
"""

from __future__ import annotations

import attrs

from amunre.contract import Decision, Rule, ruling
from amunre.decisions import decide
from amunre.mechanics import add_points, sell_card
from amunre.model import doc
from amunre.registry import register


@attrs.frozen
class GoldParams:
    points: tuple[int, ...] = doc("Points for the most gold, the second most, ...", default=(6, 4, 2), converter=tuple)
    theft_value: int = doc("What a held theft card counts with A-THEFTGOLD.", default=3)


@attrs.frozen
class Rulings:
    theft_counts_in_gold: bool = ruling(
        "A-THEFTGOLD", "A held theft (-3) card counts as -3 in the final gold ranking.", False)


def gold_ranking(golds: list[int], points) -> list[int]:
    """Points per player: rank = 1 + players with strictly more gold (ties share a rank)."""
    out = []
    for g in golds:
        rank = sum(1 for other in golds if other > g)
        out.append(points[rank] if rank < len(points) else 0)
    return out


@register
class GoldRanking(Rule):
    id = "gold_ranking"
    kind = "final_scoring"
    summary = "Most gold 6, second 4, third 2; ties share and push the next ranks down."
    spec_ids = ("R-SCO-06", "A-THEFTGOLD")
    Params = GoldParams
    Rulings = Rulings
    decisions = {
        "sell_cards": Decision(
            "0..n: how many of his cards to sell for 1 gold each before the ranking", "an integer",
            lambda option, w: str(option),
            policies={"none": lambda rule, game, request: min(request.options),
                      "all": lambda rule, game, request: max(request.options)},
        ),
    }

    def run(self, game):
        state = game.state
        for p in state.turn_order():
            hand = state.players[p].hand
            held = sum(hand)
            if held:
                count = yield from decide(p, "sell_cards", list(range(held + 1)))
                for _ in range(count):
                    sell_card(game, p, next(k for k in range(len(hand)) if hand[k]))
        golds = [pl.gold for pl in state.players]
        if self.rulings.theft_counts_in_gold:
            golds = [g - self.params.theft_value * pl.theft for g, pl in zip(golds, state.players)]
        for p, pts in enumerate(gold_ranking(golds, self.params.points)):
            add_points(game, p, self.item_key, pts)
