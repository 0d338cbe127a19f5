"""Rule `province_draft` (R-DRAFT-01/02, the 2016 expert rule): secret hands of provinces
instead of a province deck drawn each round.

At the start of the game each player is dealt, face down, one province card per round of a
kingdom (3); the cards left over leave the game unseen. Each round every player picks one
card of his hand in secret; the picks are revealed together and are the round's provinces,
each with its immediate bonus (placed in turn order from the start player). The last pick
of a kingdom is forced. At the New Kingdom the cards played in the Old Kingdom are shuffled
and dealt out again, the same number each.

The hands are this module's own state: a player's view shows his own hand, the sizes of
the others' hands, the cards revealed so far and the cards this kingdom is dealt from
(every province in the Old Kingdom, the Old Kingdom's revealed cards in the New). The
overview recommends the rule for 3 or 4 players: 5 only with A-EXPERTPLAYERS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.boardtext import province_line
from amunre.core.contract import CheckProblem, Decision, Event, Rule, answers, province_actions, province_option, ruling
from amunre.core.decisions import ask_secretly
from amunre.core.facets import EncodingFacet, HiddenFacet, WordsFacet
from amunre.core.registry import register
from amunre.core.round_provinces import lay_out, lying_lines, too_few_provinces

if TYPE_CHECKING:
    import random

    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.model import Variant
    from amunre.core.view import PlayerView
    from amunre.core.words import Words

#: The most players the overview recommends the secret hands for.
RECOMMENDED_MAX_PLAYERS = 4


@attrs.frozen
class Rulings:
    draft_five_players: bool = ruling(
        "A-EXPERTPLAYERS", "The secret province hands may also be played by 5 players (every province is then "
        "in play, and only the timing is secret); by default 3 or 4, as the 2016 overview recommends.", False)


def _picks_line(e: dict[str, Any], w: Words) -> str:
    picks = ", ".join(f"{w.who(p)} {w.province(pid)}" for p, pid in e["picks"])
    return f"The secret picks are revealed: {picks}." + lying_lines(e, w)


def _deal_line(e: dict[str, Any], w: Words) -> str:
    if e["kingdom"] == 0:
        return f"Each player is dealt {e['each']} {w.t('province_cards')} in secret; the others leave the game unseen."
    kingdoms = w.variant.edition.kingdoms
    before = kingdoms[e["kingdom"] - 1] if e["kingdom"] - 1 < len(kingdoms) else "the kingdom before"
    return (f"The {e['cards']} {w.t('province_cards')} of the {before} are shuffled and dealt again, "
            f"{e['each']} to each player in secret.")


@register
class ProvinceDraft(Rule, WordsFacet, HiddenFacet, EncodingFacet):
    id = "province_draft"
    kind = "phase"
    summary = "Each player picks a province from his secret hand; the picks are revealed together."
    spec_ids = ("R-DRAFT-01", "R-DRAFT-02", "A-EXPERTPLAYERS")
    rulings = answers(Rulings)
    # what an observation vector holds of its data as the seat sees it: its own hand, every
    # hand's size, the provinces used and those the kingdom's hands were dealt from
    observation = {"hand": "provinces", "hand_sizes": "players", "used": "provinces", "dealt_from": "provinces"}
    decisions = {
        "pick_province": Decision(
            options="a province card of his secret hand (asked in secret, revealed with the others' picks; "
                    "the last card of a kingdom is not asked)",
            json="an integer province id",
            describe=province_option,
            question=lambda a: (f"Which of your secret {a.words.t('province_cards')} do you put up for auction "
                                f"this round (revealed with the others' picks)?"),
            note=lambda pid, a: province_line(a.view, pid, a.words),
            actions=province_actions,
            # up for auction the province it would hold most gladly, while it can bid for it
            appraise=lambda pid, asking, worth: worth.province(pid),
            title="picking a province",
        ),
    }
    events = {
        "province_hands": Event("Province cards are dealt in secret, the same number to each player.", _deal_line),
        "picks": Event("The secret picks are revealed: the round's provinces, [player, province] in turn order; "
                       "`lying`: what lies on each then (see `amunre.core.round_provinces.lay_out`), in `kingdom`.",
                       _picks_line),
    }
    terms = {"province_cards": "province cards", "immediate_bonus": "free material"}
    provides = ("provinces",)
    once = True
    #: the round's province cards are its own data, published for the auction that follows
    publishes = {"round_provinces": "the province cards laid out this round, in the order laid out"}

    def player_counts(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        if self.rulings.draft_five_players:
            return counts
        return tuple(n for n in counts if n <= RECOMMENDED_MAX_PLAYERS)

    def check(self, variant: Variant) -> list[CheckProblem]:
        rounds = variant.edition.rounds_per_kingdom
        counts = self.player_counts(tuple(variant.edition.players))
        if not counts:
            return [CheckProblem(
                f"the secret province hands allow at most {RECOMMENDED_MAX_PLAYERS} players unless "
                "rulings.draft_five_players is true, and the edition allows none of "
                f"{', '.join(map(str, variant.edition.players))}", ("edition.players",))]
        return too_few_provinces(variant, max(counts), rounds)

    # -- its own state: the hands ----------------------------------------------------------
    def initial_state(self, game: GameLike) -> dict[str, Any]:
        return {"hands": [[] for _ in range(game.state.n_players)], "used": [], "dealt_from": [],
                "round_provinces": []}

    def view_state(self, data: dict[str, Any], player: int | None) -> dict[str, Any]:
        hand = sorted(data["hands"][player]) if player is not None else []  # (None: a spectator)
        return {"hand": hand, "hand_sizes": [len(h) for h in data["hands"]],
                "used": sorted(data["used"]), "dealt_from": list(data["dealt_from"]),
                "round_provinces": list(data["round_provinces"])}

    def seat_lines(self, data: dict[str, Any], view: PlayerView, words: Words) -> list[str]:
        """The seat's own secret hand: the cards it will put up in the rounds left."""
        hand = data["hand"]
        if not hand:
            return []
        return [f"Your secret {words.t('province_cards')}: {words.join([words.province(p) for p in hand])} "
                f"(one put up each round)"]

    def hidden_variants(self, data: dict[str, Any], player: int, rng: random.Random) -> dict[str, Any]:
        # the others' hands come from the cards of this kingdom nobody has shown and he does not hold
        seen = set(data["hands"][player]) | set(data["used"])
        unseen = [pid for pid in data["dealt_from"] if pid not in seen]
        rng.shuffle(unseen)
        hands = []
        for p, hand in enumerate(data["hands"]):
            if p == player:
                hands.append(sorted(hand))  # as he sees it: the order it was dealt in is the truth's
            else:
                hands.append(unseen[:len(hand)])
                unseen = unseen[len(hand):]
        return {"hands": hands, "used": list(data["used"]), "dealt_from": list(data["dealt_from"]),
                "round_provinces": list(data["round_provinces"])}

    def start_kingdom(self, game: GameLike) -> None:
        state = game.state
        mine = state.rules[self.key]
        each = game.variant.edition.rounds_per_kingdom
        if state.kingdom == 0:
            cards = list(range(len(game.variant.board)))  # the leftovers go out unseen
        else:
            cards = sorted(mine["used"])  # every card dealt was played, and shown
        mine["dealt_from"] = list(cards)
        state.random("provinces").shuffle(cards)
        order = state.turn_order()
        hands: list[list[int]] = [[] for _ in range(state.n_players)]
        for i, p in enumerate(order):
            hands[p] = cards[i * each:(i + 1) * each]
        mine["hands"] = hands
        mine["used"] = []
        if "province_hands" in game.hearing:
            game.emit("province_hands", each=each, cards=len(cards), kingdom=state.kingdom)

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        mine = state.rules[self.key]
        order = state.turn_order()
        picks = yield from ask_secretly(order, "pick_province", lambda p: sorted(mine["hands"][p]))
        game.reveal()
        board = game.variant.board.provinces
        drawn = []
        for p in order:
            pid = picks[p]
            mine["hands"][p].remove(pid)
            drawn.append(pid)
        mine["used"].extend(drawn)
        mine["round_provinces"] = drawn
        lying = lay_out(game, drawn, board, "picks" in game.hearing)
        if "picks" in game.hearing:
            game.emit("picks", picks=[[p, picks[p]] for p in order], lying=lying, kingdom=state.kingdom)
