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

from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.contract import Decision, Event, Rule, answers, count_actions, ruling, takes
from amunre.core.decisions import decide
from amunre.core.facets import ValuationFacet
from amunre.core.fields import bounded, bounded_items, doc
from amunre.core.mechanics import score_each, sell_card
from amunre.core.registry import register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.state import GameState
    from amunre.core.words import Words


@attrs.frozen
class GoldParams:
    points: tuple[int, ...] = doc("Points for the most gold, the second most, ...", default=(6, 4, 2), converter=tuple,
                                  validator=bounded_items(0, 100, 5))
    theft_value: int = doc("What a held theft card counts with A-THEFTGOLD.", default=3, validator=bounded(0, 100),
                           read_when={"theft_counts_in_gold": True})


@attrs.frozen
class Rulings:
    theft_counts_in_gold: bool = ruling(
        "A-THEFTGOLD", "A held theft (-3) card counts as -3 in the final gold ranking.", False)
    gold_ties: str = ruling(
        "A-GOLDTIES", "Ranks after a tie: `competition` (the next rank is 1 + the players with more gold, so a "
        "tie of three for first leaves nothing for the fourth) or `skip_one` (a tie of any size skips one "
        "rank only).", "competition",
        validator=attrs.validators.in_(("competition", "skip_one")))


def gold_ranking(golds: list[int], points: Sequence[int], ties: str = "competition") -> list[int]:
    """Points per player. Equal gold shares a rank; the ranks after it follow A-GOLDTIES."""
    rank_of: dict[int, int] = {}
    rank = 0
    for g in sorted(set(golds), reverse=True):
        rank_of[g] = rank
        tied = golds.count(g)
        rank += tied if ties == "competition" else min(tied, 2)
    return [points[rank_of[g]] if rank_of[g] < len(points) else 0 for g in golds]


def _sales_line(e: dict[str, Any], w: Words) -> str:
    names = w.join([w.card_label(kind) for kind in e["cards"]])
    return (f"  {w.who(e['player'])} sells {w.count(len(e['cards']), 'favor')} for {len(e['cards'])} "
            f"{w.t('gold')} ({names}).")


def _golds_line(e: dict[str, Any], w: Words) -> str:
    order = sorted(range(len(e["gold"])), key=lambda p: -e["gold"][p])
    note = f" (a held {w.t('theft')} counting -{e['theft_value']})" if e.get("theft_value") else ""
    return f"  {w.t('gold')[:1].upper() + w.t('gold')[1:]} before the ranking{note}: " + \
        ", ".join(f"{w.who(p)} {e['gold'][p]}" for p in order) + "."


_PLACES = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}

#: The most cards the action space (`Decision.actions`) offers to sell before the ranking: a
#: hand never holds more than the deck (39 cards in both editions); a deck of more than 100
#: (a house rule) is cut there. Every request offers 0.
MOST_SOLD = 100


def _gold_points_line(e: dict[str, Any], w: Words) -> str:
    place = "most" if e["place"] == 1 else f"{_PLACES.get(e['place']) or w.ordinal(e['place'])} most"
    tied = f", tied with {w.names_of(e['tied'])}" if e["tied"] else ""
    result = (f"scores {w.count(e['points'], 'points')}, {w.total(e['total'])}" if e["points"]
              else f"no {w.t('points')}")
    return f"  {w.who(e['player'])} has the {place} {w.t('gold')} ({e['gold']}{tied}): {result}."


#: The published value it reads (`Rule.reads_published`): the theft cards held by seat.
THEFT_CARDS = "theft_cards"


@register
class GoldRanking(Rule, ValuationFacet):
    id = "gold_ranking"
    kind = "final_scoring"
    reads = frozenset({"gold"})  # what `points_for`/`income_for` read
    # the theft cards held by seat (the offering's), which A-THEFTGOLD counts; none without them
    reads_published = {THEFT_CARDS: None}
    summary = "Most gold 6, second 4, third 2; ties share and push the next ranks down."
    spec_ids = ("R-SCO-06", "A-THEFTGOLD", "A-GOLDTIES")
    params = takes(GoldParams)
    rulings = answers(Rulings)
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
            # cards are worth nothing after the ranking: a sale that changes nothing still sells
            appraise=lambda count, asking, worth: worth.points_of((("gold", None, count),)) + 1e-6 * count,
            actions=lambda rule, variant: count_actions(min(variant.components.deck_size, MOST_SOLD)),
            title="selling {favor_plural} before the {gold} ranking",
        ),
    }
    events = {
        "ranking_sales": Event("Before the gold ranking a player sells `cards` (their kinds) for 1 gold each.",
                               _sales_line),
        "gold_counted": Event("Every player's gold as the ranking counts it (`theft_value`: what a held theft "
                              "card takes off, with A-THEFTGOLD, else 0).", _golds_line),
        "gold_points": Event("A player's place in the gold ranking (1 + the players with more gold; `tied`: "
                             "the players with as much), his `points` and `total`; most gold first.",
                             _gold_points_line),
    }

    def counted_gold(self, state: GameState) -> list[int]:
        """Every player's gold as the ranking counts it (a held theft card off with A-THEFTGOLD)."""
        golds = [pl.gold for pl in state.players]
        if self.rulings.theft_counts_in_gold:
            held = self.published(state, THEFT_CARDS)
            if held is not None:
                golds = [g - self.params.theft_value * theft for g, theft in zip(golds, held)]
        return golds

    def points_for(self, state: GameState, player: int) -> dict[str, float]:
        """With no card sold (its first policy): `gold_ranking`'s points for one player."""
        golds = self.counted_gold(state)
        mine = golds[player]
        if self.rulings.gold_ties == "competition":
            rank = len([gold for gold in golds if gold > mine])
        else:
            rank = sum(min(golds.count(gold), 2) for gold in set(golds) if gold > mine)
        points = self.params.points
        return {self.item_key: points[rank] if rank < len(points) else 0}

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        for p in state.turn_order():
            hand = state.players[p].hand
            held = sum(hand)
            if held:
                count = yield from decide(p, "sell_cards", list(range(held + 1)))
                told = "ranking_sales" in game.hearing
                sold = []
                for _ in range(count):
                    kind = next(k for k in range(len(hand)) if hand[k])
                    sell_card(game, p, kind, told=told)
                    sold.append(game.variant.cards[kind])
                if "ranking_sales" in game.hearing and sold:
                    game.emit("ranking_sales", player=p, cards=sold)
        golds = self.counted_gold(state)
        counted = self.rulings.theft_counts_in_gold
        if "gold_counted" in game.hearing:
            game.emit("gold_counted", gold=golds, theft_value=self.params.theft_value if counted else 0)
        points = gold_ranking(golds, self.params.points, self.rulings.gold_ties)

        def score(p: int, heard: bool) -> tuple[int, dict[str, Any] | None]:
            return points[p], {"gold": golds[p], "place": 1 + sum(g > golds[p] for g in golds),
                               "tied": [q for q in range(len(golds)) if q != p and golds[q] == golds[p]]} \
                if heard else None

        # most gold first (ties in turn order), so the lines read as the ranking; its line names no
        # item (logs written since 0.1 have none there)
        score_each(game, self.item_key, "gold_points", score, order=sorted(range(len(golds)), key=lambda q: -golds[q]),
                   item_field=False)
