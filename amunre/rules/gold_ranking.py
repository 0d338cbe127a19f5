"""Rule `gold_ranking` (R-SCO-06), after the last kingdom's scoring: first every player may
sell any of his cards for 1 gold each (cards are worth nothing afterwards), then most gold
scores `points[0]`, second `points[1]`, third `points[2]`; tied players all score their rank.
Below a tie (A-GOLDTIES): `competition` skips as many ranks as there were extra tied players
(rank = 1 + players with more gold: three tied first score 6, 6, 6 and the fourth nothing);
`skip_one` skips one rank whatever the size of the tie (the fourth then scores 2). The two
differ only for ties of three or more. With A-THEFTGOLD a held theft card counts as minus
its value.
"""

from __future__ import annotations

import attrs

from amunre.contract import Decision, Rule, ruling
from amunre.decisions import decide
from amunre.mechanics import add_points, sell_card
from amunre.model import bounded, bounded_items, doc
from amunre.registry import register


@attrs.frozen
class GoldParams:
    points: tuple[int, ...] = doc("Points for the most gold, the second most, ...", default=(6, 4, 2), converter=tuple,
                                  validator=bounded_items(0, 100, 5))
    theft_value: int = doc("What a held theft card counts with A-THEFTGOLD.", default=3, validator=bounded(0, 100))


@attrs.frozen
class Rulings:
    theft_counts_in_gold: bool = ruling(
        "A-THEFTGOLD", "A held theft (-3) card counts as -3 in the final gold ranking.", False)
    gold_ties: str = ruling(
        "A-GOLDTIES", "Ranks after a tie: `competition` (the next rank is 1 + the players with more gold, so a "
        "tie of three for first leaves nothing for the fourth) or `skip_one` (a tie of any size skips one "
        "rank only).", "competition",
        validator=attrs.validators.in_(("competition", "skip_one")))


def gold_ranking(golds: list[int], points, ties: str = "competition") -> list[int]:
    """Points per player. Equal gold shares a rank; the ranks after it follow A-GOLDTIES."""
    rank_of: dict[int, int] = {}
    rank = 0
    for g in sorted(set(golds), reverse=True):
        rank_of[g] = rank
        tied = golds.count(g)
        rank += tied if ties == "competition" else min(tied, 2)
    return [points[rank_of[g]] if rank_of[g] < len(points) else 0 for g in golds]


@register
class GoldRanking(Rule):
    id = "gold_ranking"
    kind = "final_scoring"
    summary = "Most gold 6, second 4, third 2; ties share and push the next ranks down."
    spec_ids = ("R-SCO-06", "A-THEFTGOLD", "A-GOLDTIES")
    Params = GoldParams
    Rulings = Rulings
    decisions = {
        "sell_cards": Decision(
            "0..n: how many of his cards to sell for 1 gold each before the ranking", "an integer",
            lambda option, w: (f"sell {w.plural(option, w.t('favor'), w.t('favor_plural'))} "
                               f"(+{option} {w.t('gold')})" if option else "sell none"),
            question=lambda a: (f"Before the {a.words.t('gold')} ranking: how many of your "
                                f"{a.words.t('favor_plural')} do you sell, for 1 {a.words.t('gold')} each?"),
            facts=lambda a: [f"You have {a.gold} {a.words.t('gold')}; the others have "
                             + ", ".join(f"{a.words.who(p)} {info.gold}" for p, info in enumerate(a.view.players)
                                         if p != a.view.player) + "."],
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
        for p, pts in enumerate(gold_ranking(golds, self.params.points, self.rulings.gold_ties)):
            add_points(game, p, self.item_key, pts)
