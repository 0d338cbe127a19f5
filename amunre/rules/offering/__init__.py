"""Rule `offering` (R-OFF-01..06): the sacrifice / offering to Amun-Re.

Every player secretly offers gold (at least 1) or a theft card, optionally with one offering
adjustment card; all offers are revealed together. The total is the gold offered minus
`theft_value` per theft; then each adjustment, in turn order, moves it by `adjustment`
(A-ADJUST: whether it may also stay). The total sets the offering level. The highest
offer picks `rewards[0]` items, the second `rewards[1]`, every other non-thief
`rewards[2]`; ties go to the earlier player in turn order. Items are cards (no limit),
farmers (onto empty fields) or stones (placed at once). The highest offer becomes start
player; thieves take `theft_value` gold and keep their card; offered gold goes to the bank.

An offer is `("gold", amount, adjust)` or `("theft", 0, adjust)`, adjust 1 when an
adjustment card is included. Offers are made from gold in hand: before the secret offers,
each player in turn order may sell cards for 1 gold each, openly (selling is allowed
whenever gold is needed). With A-OFFERCARDS cards instead count as 1 gold each inside the
secret offer itself, so nobody sees them coming.

The rule is a package, one concern a file: here its play (`Offering`: its parameters and
rulings, what it declares, its `run`); `words.py` everything a person reads of it (option
descriptions, questions, facts, notes, event lines); `valuing.py` what its options are worth
to the planner; `actions.py` its fixed action space; `checks.py` the check of its `level`
event; `levels.py` the level a total reaches, which all of them use.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.contract import Decision, Event, Rule, Statistic, answers, card_actions, ruling, takes
from amunre.core.decisions import ask_secretly, decide
from amunre.core.facets import WordsFacet
from amunre.core.fields import bounded, bounded_items, doc
from amunre.core.mechanics import (
    field_capacity,
    free_fields,
    gain_cards,
    means,
    pay,
    place_farmer,
    place_stone,
    play_card,
    receive,
    sell_card,
)
from amunre.core.registry import register
from amunre.rules.offering.actions import MOST_OFFERED as MOST_OFFERED  # the action space's bound, named here too
from amunre.rules.offering.actions import _adjust_actions, _offer_actions, _reward_actions
from amunre.rules.offering.checks import _level_placed
from amunre.rules.offering.levels import LEVEL, THEFT_CARDS, level_for
from amunre.rules.offering.valuing import (
    _appraise_adjust,
    _appraise_offer,
    _appraise_open_sale,
    _appraise_reward,
)
from amunre.rules.offering.words import (
    _adjust_line,
    _adjust_note,
    _adjust_question,
    _describe_offer,
    _describe_reward,
    _level_line,
    _offer_facts,
    _offer_group,
    _offer_note,
    _offers_line,
    _ranks_line,
    _reward_line,
    _reward_note,
    _reward_question,
    _sales_line,
    _sell_first_facts,
    _start_line,
)

if TYPE_CHECKING:
    from typing import Literal, TypeAlias

    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.model import Variant

    #: An offer: ("gold", amount, adjust) or ("theft", 0, adjust), adjust 1 with an adjustment card.
    Offer: TypeAlias = tuple[str, int, int]
    #: A reward item: "card", ("farmer", province) or ("stone", province).
    RewardItem: TypeAlias = Literal["card"] | tuple[str, int]


@attrs.frozen
class Params:
    level_floors: tuple[int, ...] = doc(
        "Lowest total for levels 2, 3, 4, ...: below the first is level 1 (R-OFF-03).",
        default=(3, 13, 23), converter=tuple, validator=bounded_items(-1000, 1000, 19),
    )
    rewards: tuple[int, ...] = doc(
        "Items for the highest offer, the second, and every other non-thief.", default=(3, 2, 1), converter=tuple,
        validator=bounded_items(0, 10, 10),
    )
    theft_value: int = doc("Gold a theft takes from the total and gives its player.", default=3,
                           validator=bounded(0, 100))
    adjustment: int = doc("How far an offering adjustment moves the total.", default=3, validator=bounded(0, 100))


@attrs.frozen
class Rulings:
    adjustment_must_move: bool = ruling(
        "A-ADJUST", "An offering adjustment must raise or lower the total by its amount (false: it may also "
        "leave it).", True)
    cards_in_offering: bool = ruling(
        "A-OFFERCARDS", "Cards may be offered as 1 gold each (a house rule from online play).", False)


#: The adjustments an offer may take, with and without the card that allows one (named constants:
#: Cython, compiling this module, refuses a conditional between tuple literals of two lengths)
WITH_ADJUST: tuple[int, ...] = (0, 1)
WITHOUT_ADJUST: tuple[int, ...] = (0,)


#: The gold the offers give, over the players (a theft gives none).
_OFFERED = Statistic("offered", "{gold} offered in the {offering} per player",
                     lambda e: sum([offer[1] for offer in e["offers"].values() if offer[0] == "gold"]), "per_player")
#: The thefts played; a row only where the variant deals theft cards (0 in a game without one).
_THEFTS = Statistic("thefts", "thefts in the {offering} ({theft})",
                    lambda e: sum([1 for offer in e["offers"].values() if offer[0] == "theft"]) or None,
                    always=lambda rule: [{}] if rule.variant.components.theft_cards_per_player else [])


@register
class Offering(Rule, WordsFacet):
    id = "offering"
    kind = "phase"
    summary = "Secret simultaneous offerings set the level, rewards and the new start player."
    spec_ids = ("R-OFF-01", "R-OFF-02", "R-OFF-03", "R-OFF-04", "R-OFF-05", "R-OFF-06", "A-ADJUST", "A-OFFERCARDS")
    params = takes(Params)
    rulings = answers(Rulings)
    cards = {"offering_adjustment": "Goes with an offer; after the reveal its player moves the total of all offers "
                                    "by `adjustment`: `adjustment_must_move`, as he chooses."}
    ruling_words = {"adjustment_must_move": {True: "up or down", False: "up, down or not at all"}}
    held_cards = {"theft": "Offered in secret instead of gold: it takes `theft_value` off the offering's total and "
                           "gives you `theft_value` gold from the bank; you get no reward, and keep the card."}
    decisions = {
        "sell_for_offering": Decision(
            "None (stop) or a card kind of his hand to sell openly before the offers", "null or an integer card id",
            lambda option, w: w.card_noun(w.variant.cards[option]), note=lambda card, a: a.held(card),
            facts=_sell_first_facts,
            none=lambda w: "sell nothing (more)",
            # context `sold`: the cards he sold so far in this round's open sales
            none_asked=lambda a: "sell no more" if a.context.get("sold") else "sell nothing",
            question=lambda a: (f"Before the secret {a.words.t('offering')}: do you sell "
                                f"{'another' if a.context.get('sold') else 'a'} {a.words.t('favor')} openly for 1 "
                                f"{a.words.t('gold')}?"),
            actions=lambda rule, variant: [None] + card_actions(rule, variant), appraise=_appraise_open_sale,
            title="selling a {favor} before the {offering}"),
        "offer": Decision(
            "(\"gold\", amount, adjust) or (\"theft\", 0, adjust); adjust 1 with an offering "
            "adjustment card. Simultaneous and secret", '["gold" or "theft", amount, 0 or 1]',
            _describe_offer, note=_offer_note, facts=_offer_facts, group=_offer_group,
            question=lambda a: (f"Your secret {a.words.t('offering')} (revealed with the others'): what do you "
                                f"give?"),
            actions=_offer_actions, appraise=_appraise_offer, title="the secret {offering}"),
        "adjust": Decision(
            "+adjustment, -adjustment (and 0 where A-ADJUST allows); the running total is in "
            "the request's context", "an integer",
            lambda option, w: "leave the total" if not option else f"{option:+d}",
            note=_adjust_note, question=_adjust_question, actions=_adjust_actions, appraise=_appraise_adjust,
            context={"total": "count"}, title="the {offering_adjustment}"),
        "reward": Decision(
            "\"card\", (\"farmer\", province) or (\"stone\", province): one question per item (context: "
            "`reward`, which item of `of`)",
            '"card", ["farmer", province id] or ["stone", province id]', _describe_reward,
            note=_reward_note, question=_reward_question, actions=_reward_actions, appraise=_appraise_reward,
            where=lambda option: option[1] if isinstance(option, tuple) else None,  # a piece's province
            context={"reward": "count", "of": "count"}, title="choosing the {reward}"),
    }
    events = {
        "offers": Event("The secret offers are revealed together.", _offers_line,
                        statistics=(_OFFERED, _THEFTS)),
        "offering_total": Event("The total of the offers, thefts taken off.",
                                lambda e, w: f"  Total {w.t('offering')}: {e['total']}."),
        "adjust": Event("A player's offering adjustment moves the total (or, where A-ADJUST allows, leaves it).",
                        _adjust_line),
        "level": Event("The offering level the total reaches (named by the terms `offering_level_<n>` where the "
                       "edition names its levels).", _level_line,
                       statistics=(Statistic("offering_level.{level}", "{offering}: level {level} (share of rounds)",
                                             per_game="share",
                                             always=lambda rule: [{"level": n} for n in
                                                                  range(1, rule.max_offering_level() + 1)]),
                                   Statistic("offering_reached", "{offering}: mean level reached",
                                             itemgetter("level"), "mean")),
                       check=_level_placed),
        "reward": Event("A player chooses one reward item: reward `n` of his `of`; a card, or a farmer or a stone "
                        "placed in `province`.", _reward_line),
        "start_player": Event("The highest offer takes the start player (`kept`: he already was; also when "
                              "nobody offered gold and the start player stays).", _start_line),
        "open_sales": Event("Before the secret offers, the first card is sold openly (the sales follow).",
                            _sales_line),
        "offer_ranks": Event("Who offered most and second most (`first`, `second`: [player, gold, rewards, "
                             "[players tied with him, later in turn order]] or null), every other non-thief "
                             "(`others`, `others_rewards` each), and the thieves (no reward).", _ranks_line),
    }
    #: the revealed offers say what each player pays; a card taken as a reward is said by its line
    reasons = {"offering": None, "theft": "with the {theft}", "cards:reward": None, "owed:offering": "your {offering}"}
    # offering_level_<n> (numbered forms, see amunre.core.terms) names the tile of level n
    terms = {"adjusts": "adjusts", "offering": "offering", "offering_level": "offering level",
             "reward": "reward", "rewards": "rewards"}
    once = True  # one secret batch per round: a second would mix with the first's reveal
    publishes = {LEVEL: "the offering level this round's total reached (0 before the first offering)",
                 THEFT_CARDS: "the theft cards each player holds, by seat"}

    def setup(self) -> None:
        self.adjust_card = self.variant.card_id("offering_adjustment")

    def initial_state(self, game: GameLike) -> dict[str, Any]:
        # the level and the theft cards are this rule's: it sets the one and plays the others
        # (a theft card is kept when played), dealt as the components say
        theft = game.variant.components.theft_cards_per_player
        return {LEVEL: 0, THEFT_CARDS: [theft] * game.state.n_players}

    def check(self, variant: Variant) -> list[str]:
        problems = []
        floors = self.params.level_floors
        if list(floors) != sorted(set(floors)):
            problems.append("level_floors must strictly increase")
        if len(self.params.rewards) != 3:
            problems.append("rewards must list 3 counts: highest, second, every other")
        return problems

    def max_offering_level(self) -> int:
        return len(self.params.level_floors) + 1

    def offer_options(self, game: GameLike, p: int) -> list[Offer]:
        state = game.state
        player = state.players[p]
        with_cards = self.rulings.cards_in_offering
        adjusts = WITH_ADJUST if player.hand[self.adjust_card] else WITHOUT_ADJUST
        opts: list[Offer] = []
        for adj in adjusts:
            # an adjustment card in the offer can no longer count as gold
            top = means(state, p, with_cards) - (adj if with_cards else 0)
            opts.extend(("gold", amount, adj) for amount in range(1, top + 1))
            if state.rules[self.key][THEFT_CARDS][p]:
                opts.append(("theft", 0, adj))
        if not opts:  # nothing to give and nothing to steal with
            opts.append(("gold", 0, 0))
        return opts

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        prm = self.params
        order = state.turn_order()
        if not self.rulings.cards_in_offering:
            opened = False  # the open sales have had their heading
            for p in order:
                opened = (yield from self.sell_for_offering(game, p, opened)) or opened
        # secret offers, kept aside until everyone has chosen
        offers = yield from ask_secretly(order, "offer", lambda p: self.offer_options(game, p))
        game.reveal()
        if "offers" in game.hearing:
            game.emit("offers", offers={str(p): list(offers[p]) for p in order})

        thieves = [p for p in order if offers[p][0] == "theft"]
        total = sum(o[1] for o in offers.values()) - prm.theft_value * len(thieves)
        if "offering_total" in game.hearing:
            game.emit("offering_total", total=total)
        steps: tuple[int, ...] = (prm.adjustment, 0, -prm.adjustment)
        if self.rulings.adjustment_must_move:
            steps = (prm.adjustment, -prm.adjustment)
        # the adjustment cards revealed with the offers leave the hands now: everyone has seen
        # them (a determinization must not deal them elsewhere before their turn to adjust)
        adjusting = [p for p in order if offers[p][2]]
        for p in adjusting:
            play_card(game, p, self.adjust_card, told=True)
        for p in adjusting:
            delta = yield from decide(p, "adjust", list(steps), {"total": total})
            total += delta
            if "adjust" in game.hearing:
                game.emit("adjust", player=p, delta=delta, total=total)
        level = state.rules[self.key][LEVEL] = level_for(total, prm.level_floors)
        if "level" in game.hearing:
            game.emit("level", level=level, total=total)

        for p in order:
            kind, amount, _ = offers[p]
            if kind == "gold":
                yield from pay(game, p, amount, "offering")
            else:
                receive(game, p, prm.theft_value, "theft")

        givers = [p for p in order if offers[p][0] == "gold"]
        # sort is stable: equal offers keep turn order, so the earlier player wins ties
        ranked = sorted(givers, key=lambda p: -offers[p][1])
        picks = []
        if ranked:
            picks.append((ranked[0], prm.rewards[0]))
        if len(ranked) > 1:
            picks.append((ranked[1], prm.rewards[1]))
        picks.extend((p, prm.rewards[2]) for p in givers if p not in ranked[:2])
        if "offer_ranks" in game.hearing:
            def entry(i: int) -> list[int | list[int]] | None:
                if i >= len(ranked):
                    return None
                p = ranked[i]
                tied = [q for q in ranked[i + 1:] if offers[q][1] == offers[p][1]]
                return [p, offers[p][1], prm.rewards[i], tied]
            game.emit("offer_ranks", first=entry(0), second=entry(1), others=[p for p, _ in picks[2:]],
                      others_rewards=prm.rewards[2], thieves=thieves)
        kept = not ranked or ranked[0] == state.start_player
        if ranked:
            state.start_player = ranked[0]
        if "start_player" in game.hearing:
            game.emit("start_player", player=state.start_player, kept=kept)
        for p, count in picks:
            for n in range(1, count + 1):
                yield from self.reward(game, p, n, count)

    def sell_for_offering(self, game: GameLike, p: int, opened: bool = False) -> Steps[bool]:
        """Open sales before the secret offers: one card at a time until the player stops.
        The first sale of the phase (`opened` False) comes after a heading line
        (`open_sales`); returns whether the player sold a card."""
        hand = game.state.players[p].hand
        sold = 0
        while True:
            if not sum(hand):  # by his hand's size, which everyone knows: who is asked is public
                return sold > 0
            kinds = [k for k in range(len(hand)) if hand[k]]
            kind = yield from decide(p, "sell_for_offering", [None] + kinds, {"sold": sold} if sold else None)
            if kind is None:
                return sold > 0
            if not (opened or sold) and "open_sales" in game.hearing:
                game.emit("open_sales", player=p)
            sold += 1
            sell_card(game, p, kind)

    def reward(self, game: GameLike, p: int, n: int = 1, of: int = 1) -> Steps[None]:
        """One reward item (the `n`-th of his `of`): a card, a farmer on an empty field, or a stone."""
        state = game.state
        owned = state.players[p].provinces
        opts: list[RewardItem] = []
        if state.deck or state.discard:
            opts.append("card")
        if state.supply_farmers > 0 and field_capacity(game, p) > 0:
            opts.extend(("farmer", i) for i in owned if free_fields(game, i) > 0)
        if state.supply_stones > 0:
            opts.extend(("stone", i) for i in owned)
        if not opts:
            return
        choice = yield from decide(p, "reward", opts, {"reward": n, "of": of})
        if "reward" in game.hearing:
            if choice == "card":
                game.emit("reward", player=p, item="card", n=n, of=of)
            else:
                game.emit("reward", player=p, item=choice[0], n=n, of=of, province=choice[1])
        if choice == "card":
            gain_cards(game, p, 1, "reward")
        elif choice[0] == "farmer":
            place_farmer(game, p, choice[1], told=True)
        else:
            yield from place_stone(game, p, choice[1], told=True)
