"""Rule `bonus_cards` (R-SCO-05): at a kingdom's scoring each player may play bonus cards,
one of each kind, each scoring `points` when its condition holds for his provinces:
Master of Scribes (card symbols), Master of Farmers (farmers), and the three that ask all
his provinces to lie in one half, on one side, or all on the Nile or none. Each card
scores its own item, labelled with the card's name in the variant's words."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from amunre.core.contract import Decision, Event, Rule, ScoringItem, takes
from amunre.core.decisions import decide
from amunre.core.facets import ValuationFacet, WordsFacet
from amunre.core.fields import bounded, doc
from amunre.core.mechanics import add_points, play_card
from amunre.core.registry import register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from amunre.core.board import Province
    from amunre.core.contract import Asking, GameLike
    from amunre.core.decisions import Steps
    from amunre.core.facets.valuation import Valuer
    from amunre.core.state import GameState
    from amunre.core.view import PlayerView
    from amunre.core.words import Words

#: The bonus cards, in the order they are offered, and the board attribute that the three
#: "all in one place" cards compare.
BONUS_CARDS = ("master_of_scribes", "master_of_farmers", "upper_lower", "west_east", "nile_frontier")
_SAME_PLACE = {"upper_lower": "half", "west_east": "side", "nile_frontier": "nile"}


@attrs.frozen
class BonusParams:
    points: int = doc("Points per bonus card whose condition is met.", default=3, validator=bounded(0, 100))
    scribes_symbols: int = doc("Card symbols Master of Scribes needs over own provinces.", default=7,
                               validator=bounded(0, 100))
    farmers_needed: int = doc("Farmers Master of Farmers needs over own provinces.", default=9,
                              validator=bounded(0, 100))


class BoardFacts(NamedTuple):
    """What the bonus cards' conditions read of the board, by province id (`board_facts`)."""

    #: each province's card symbols (Master of Scribes)
    symbols: tuple[int, ...]
    #: for each "all in one place" card, each province's place (its half, side or Nile bank)
    places: dict[str, tuple[Any, ...]]


def board_facts(board: Sequence[Province]) -> BoardFacts:
    """The facts of `board` the bonus cards read (a rule module keeps them: the planner asks a
    condition for every holding it values)."""
    return BoardFacts(tuple(info.card_symbols for info in board),
                      {kind: tuple(getattr(info, place) for info in board) for kind, place in _SAME_PLACE.items()})


def bonus_met(kind: str, state: GameState | PlayerView, facts: BoardFacts, owned: Sequence[int],
              params: BonusParams) -> bool:
    """Whether a bonus card's condition holds for a player's provinces (R-SCO-05), the board
    read from its `facts` (`board_facts`)."""
    if not owned:
        return False
    # (lists summed rather than generators: asked for every holding the planner values)
    if kind == "master_of_scribes":
        symbols = facts.symbols
        return sum([symbols[i] for i in owned]) >= params.scribes_symbols
    if kind == "master_of_farmers":
        provinces = state.provinces
        return sum([provinces[i].all_farmers() for i in owned]) >= params.farmers_needed
    places = facts.places[kind]
    return len({places[i] for i in owned}) == 1


# -- how its decisions read at the table (see `Decision`) ----------------------------------
def _bonus_note(kind: str, asking: Asking) -> str:
    rule: BonusCards | None = asking.rule
    if rule is None:
        return ""
    if rule.met(kind, asking.view, asking.view.player):
        return f"condition met: {rule.params.points} {asking.words.t('points')}"
    return f"condition not met: 0 {asking.words.t('points')}, the card is spent"


def _bonus_facts(asking: Asking) -> list[str]:
    w = asking.words
    return [f"Each bonus card scores {asking.rule.params.points if asking.rule else 3} {w.t('points')} when "
            f"its condition holds for your provinces; one of each kind per {w.t('scoring')}."]


def bonus_facts(kind: str, state: GameState, board: Sequence[Province], owned: Sequence[int],
                params: BonusParams) -> dict[str, Any]:
    """What a bonus card's condition looked at, for the line that tells it: `count` and
    `needed` (card symbols, farmers), or `places`: the half, side or Nile bank of each own
    province ([province, "lower"/"upper", "west"/"east", or true/false for the Nile])."""
    if kind == "master_of_scribes":
        return {"count": sum(board[i].card_symbols for i in owned), "needed": params.scribes_symbols}
    if kind == "master_of_farmers":
        return {"count": sum(state.provinces[i].all_farmers() for i in owned), "needed": params.farmers_needed}
    return {"places": [[i, getattr(board[i], _SAME_PLACE[kind])] for i in owned]}


#: The term of each place a province can be in, for the "all in one place" cards.
_PLACE_TERMS = {"lower": "lower_egypt", "upper": "upper_egypt", "west": "west_side", "east": "east_side",
                True: "on_the_nile", False: "off_the_nile"}


def _bonus_line(e: dict[str, Any], w: Words) -> str:
    card = w.card_noun(e["card"])
    if "count" in e:
        what = ("card_symbols" if e["card"] == "master_of_scribes" else "farmer")
        facts = f"{w.count(e['count'], what)}, {e['needed']} needed"
    else:
        places: dict[str | bool, list[str]] = {}
        for pid, place in e["places"]:
            places.setdefault(place, []).append(w.province(pid))
        if len(places) == 1:
            (place, _), = places.items()
            facts = f"all {w.t(_PLACE_TERMS[place])}"
        else:
            facts = "; ".join(f"{w.join(names)} {w.t(_PLACE_TERMS[place])}" for place, names in places.items())
    result = (f"scores {w.count(e['points'], 'points')}, {w.total(e['total'])}" if e["met"] else
              f"not met: no {w.t('points')}")
    return f"  {w.who(e['player'])} plays the {card} ({facts}): {result}."


def _appraise_bonus(kind: str | None, asking: Asking, worth: Valuer) -> float:
    """A card whose condition holds scores its points now; one that does not is kept."""
    if kind is None:
        return 0.0
    rule: BonusCards
    rule, view = asking.rule, asking.view
    if not rule.met(kind, view, view.player):
        return -1.0
    return rule.params.points * worth.weight(rule.item(kind))


@register
class BonusCards(Rule, WordsFacet, ValuationFacet):
    id = "bonus_cards"
    kind = "scoring"
    # what `points_for` reads: of the cards, only the bonus cards held
    reads = frozenset({"provinces", "farmers"} | {f"cards:{kind}" for kind in BONUS_CARDS})
    summary = "Bonus cards score when their condition is met; one of each kind per scoring."
    spec_ids = ("R-SCO-05",)
    params = takes(BonusParams)
    cards = {
        "master_of_scribes": "Scores `points` points at a kingdom's scoring if own provinces show at least "
                             "`scribes_symbols` card symbols.",
        "master_of_farmers": "Scores `points` points at a kingdom's scoring if own provinces hold at least "
                             "`farmers_needed` farmers.",
        "upper_lower": "Scores `points` points at a kingdom's scoring if all own provinces lie in one half of Egypt.",
        "west_east": "Scores `points` points at a kingdom's scoring if all own provinces lie on one side of the Nile.",
        "nile_frontier": "Scores `points` points at a kingdom's scoring if all own provinces lie on the Nile, or "
                         "none does.",
    }
    events = {
        "bonus_played": Event("A player plays a bonus card at a scoring: whether its condition is `met`, what it "
                              "looked at (see `bonus_facts`), the `points`, and his `total`.", _bonus_line),
    }
    terms = {"card_symbols": "card symbols", "lower_egypt": "in lower Egypt", "upper_egypt": "in upper Egypt",
             "west_side": "on the west side of the Nile", "east_side": "on the east side of the Nile",
             "on_the_nile": "on the Nile", "off_the_nile": "away from the Nile"}
    decisions = {
        "play_bonus": Decision(
            "None (stop) or a bonus card kind he holds and has not played this scoring; asked until None",
            "null or a card kind name",
            lambda option, w: f"play the {w.card_noun(option)}",
            note=_bonus_note, facts=_bonus_facts, none=lambda w: "play no (more) bonus cards",
            # context `played`: the bonus cards he played so far at this scoring
            none_asked=lambda a: "play no more bonus cards" if a.context.get("played") else "play no bonus card",
            question=lambda a: (f"The {a.words.t('scoring')}: do you play "
                                f"{'another' if a.context.get('played') else 'a'} bonus card?"),
            policies={
                "met": lambda rule, game, request: next(
                    (k for k in request.options if k is not None and rule.met(k, game.state, request.player)), None),
                "all": lambda rule, game, request: next((k for k in request.options if k is not None), None),
                "none": lambda rule, game, request: None,
            },
            actions=lambda rule, variant: [None] + [k for k in BONUS_CARDS if k in variant.cards],
            appraise=_appraise_bonus,
            title="playing {favor_plural} at a {scoring}",
        ),
    }

    def score_items(self) -> list[ScoringItem]:
        return [ScoringItem(self.item(kind), self.variant.term(kind)) for kind in BONUS_CARDS]

    def item(self, kind: str) -> str:
        return f"{self.item_key}:{kind}"

    def met(self, kind: str, state: GameState | PlayerView, player: int) -> bool:
        """Whether the card's condition holds for the player's provinces now."""
        return bonus_met(kind, state, self._board_facts, state.players[player].provinces, self.params)

    @functools.cached_property
    def _board_facts(self) -> BoardFacts:
        """What the conditions read of the variant's board (`board_facts`)."""
        return board_facts(self.variant.board.provinces)

    @functools.cached_property
    def _in_deck(self) -> tuple[tuple[str, int, str], ...]:
        """(kind, card id, scoring item) of each bonus card of the variant's deck."""
        return tuple((kind, self.variant.card_id(kind), self.item(kind)) for kind in BONUS_CARDS
                     if kind in self.variant.cards)

    def points_for(self, state: GameState, player: int) -> dict[str, float]:
        """Each bonus card held whose condition holds, played (its first policy)."""
        hand = state.players[player].hand
        points: dict[str, float] = {}
        for kind, card, item in self._in_deck:  # (a loop: most hands hold none, and it is asked often)
            if hand[card] > 0 and self.met(kind, state, player):
                points[item] = self.params.points
        return points

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        card_id = game.variant.card_id
        in_deck = self._in_deck
        for p in state.turn_order():
            hand = state.players[p].hand
            played: set[str] = set()
            while True:
                # asked whether he holds such a card or not (then forced): who is asked is public
                kinds = [k for k, card, _ in in_deck if hand[card] and k not in played]
                kind = yield from decide(p, "play_bonus", [None] + kinds, {"played": len(played)} if played else None)
                if kind is None:
                    break
                played.add(kind)
                told = "bonus_played" in game.hearing
                play_card(game, p, card_id(kind), told=told)
                met = self.met(kind, state, p)
                add_points(game, p, self.item(kind), self.params.points if met else 0, told=told)
                if "bonus_played" in game.hearing:
                    facts = bonus_facts(kind, state, self.variant.board.provinces, state.players[p].provinces,
                                        self.params)
                    game.emit("bonus_played", player=p, card=kind, item=self.item(kind), met=met,
                              points=self.params.points if met else 0, total=state.players[p].score, **facts)
