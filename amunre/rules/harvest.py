"""Rule `harvest` (R-HAR-01..02): from the start player, each player takes his income.

Each farmer in his provinces yields the offering level in gold, gold mines always pay, and
caravans pay only at the levels showing a camel. Before counting, a player may play a
Treasury (one chosen province yields nothing, he takes `treasury_gold` instead) and a Big
Harvest (+`big_harvest_bonus` per farmer in one chosen province). With A-TEMPLEHARVEST,
temples also score the offering level at every harvest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from amunre.core.boardtext import temples_text
from amunre.core.contract import (
    Decision,
    Event,
    Rule,
    ScoringItem,
    answers,
    none_or_province_actions,
    ruling,
    takes,
    the_province,
)
from amunre.core.counting import province_income
from amunre.core.decisions import decide
from amunre.core.facets import ValuationFacet, WordsFacet
from amunre.core.fields import bounded, bounded_items, doc
from amunre.core.mechanics import add_points, play_card, receive
from amunre.core.registry import register

if TYPE_CHECKING:
    from collections.abc import Sequence

    from amunre.core.board import Board, Province
    from amunre.core.contract import Asking, GameLike
    from amunre.core.decisions import Request, Steps
    from amunre.core.facets.valuation import Valuer
    from amunre.core.state import GameState
    from amunre.core.view import PlayerView
    from amunre.core.words import Words

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


def _income_line(e: dict[str, Any], w: Words) -> str:
    """A player's income province by province: farmers x gold each, the gold mine, the
    caravan (at a camel level; at another, that it pays nothing), or the Treasury gold
    instead of it all."""
    who, gold = w.who(e["player"]), w.t("gold")
    board = w.variant.board.provinces
    parts = []
    idle = []  # caravans that pay nothing: the level shows no camel
    for item in e["provinces"]:
        name = w.province(item["province"])
        if "treasury" in item:
            parts.append(f"{name} {item['treasury']} from the {w.card_noun('treasury')} instead of its income")
            continue
        pieces = []
        if item["farmers"]:
            each = str(item["each"])
            if item.get("bonus"):
                each = f"({item['each'] - item['bonus']} + {item['bonus']} with the {w.card_noun('big_harvest')})"
            pieces.append(f"{w.count(item['farmers'], 'farmer')} x {each} = {item['farmers'] * item['each']}")
        if item["mine"]:
            pieces.append(f"{w.t('mine')} {item['mine']}")
        if item["caravan"]:
            pieces.append(f"{w.t('caravan')} {item['caravan']}")
        elif board[item["province"]].caravan:
            level = item["each"] - item.get("bonus", 0)
            idle.append(f"the {w.t('caravan')} of {name} ({board[item['province']].caravan}) pays nothing at "
                        f"level {level}, which shows no camel")
        if pieces:
            parts.append(f"{name} " + " + ".join(pieces))
    if not e["total"]:
        owned = w.join([w.province(item["province"]) for item in e["provinces"]])
        if not owned:
            return f"  {who} takes no {gold}: he holds no province."
        return f"  {who} takes no {gold}: " + "; ".join(
            [f"no {w.t('farmers')} and nothing else pays in {owned}"] + idle) + "."
    return f"  {who} takes {e['total']} {gold}: " + "; ".join(parts + idle) + "."


def _temples_line(e: dict[str, Any], w: Words) -> str:
    return (f"  {w.who(e['player'])} scores {w.count(e['points'], 'points')} for {w.t(TEMPLES_AT_HARVEST)}: "
            f"{temples_text(e['temples'], e['level'], w)}; {w.total(e['total'])}.")


# -- how its decisions read at the table (see `Decision`) ----------------------------------
def _income_note(pid: int, asking: Asking) -> str | None:
    """What the province would yield at this harvest."""
    if asking.rule is None:
        return None
    view = asking.view
    yields = asking.rule.income(view, view.variant.board, pid, view.published(LEVEL, 0))
    return f"it yields {yields} {asking.words.t('gold')} now"


def _poorest(rule: Harvest, game: GameLike, request: Request) -> int | None:
    """The `poorest` policy of the Treasury: the province offered that yields least now (the
    first of equal ones)."""
    state = game.state
    level, board = rule.published(state, LEVEL), rule.variant.board
    provinces = [pid for pid in request.options if pid is not None]
    return min(provinces, key=lambda pid: rule.income(state, board, pid, level)) if provinces else None


def _gainful(rule: Harvest, game: GameLike, request: Request) -> int | None:
    """The `gainful` policy of the Treasury: the poorest province, where it yields less than the
    Treasury's gold; else none."""
    poorest = _poorest(rule, game, request)
    if poorest is None:
        return None
    level = rule.published(game.state, LEVEL)
    return poorest if rule.income(game.state, rule.variant.board, poorest, level) < rule.params.treasury_gold else None


def _treasury_question(asking: Asking) -> str:
    w = asking.words
    gold = asking.rule.params.treasury_gold if asking.rule is not None else 8
    return (f"Play your {w.card_noun('treasury')}? The province you choose yields nothing at this harvest; you take "
            f"{gold} {w.t('gold')} instead.")


def _big_harvest_question(asking: Asking) -> str:
    w = asking.words
    bonus = asking.rule.params.big_harvest_bonus if asking.rule is not None else 1
    return (f"Play your {w.card_noun('big_harvest')}? Each {w.t('farmer')} in the province you choose yields "
            f"{bonus} {w.t('gold')} more at this harvest.")


def _farmers_note(pid: int, asking: Asking) -> str:
    w = asking.words
    farmers = asking.view.provinces[pid].all_farmers()
    return f"{w.plural(farmers, w.t('farmer'), w.t('farmers'))} there"


# -- what its options are worth to the planner (`Decision.appraise`, `amunre.planning.worth`) ---------
def _appraise_treasury(pid: int | None, asking: Asking, worth: Valuer) -> float:
    if pid is None:
        return 0.0
    rule: Harvest = asking.rule
    view = asking.view
    given_up = rule.income(view, view.variant.board, pid, view.published(LEVEL, 0))
    return worth.gold_change(rule.params.treasury_gold - given_up) - worth.card(rule.treasury)


def _appraise_big_harvest(pid: int | None, asking: Asking, worth: Valuer) -> float:
    if pid is None:
        return 0.0
    rule: Harvest = asking.rule
    extra = rule.params.big_harvest_bonus * asking.view.provinces[pid].all_farmers()
    return worth.gold_change(extra) - worth.card(rule.big_harvest)


#: The published value it reads (`Rule.reads_published`): the offering level, by its name.
LEVEL = "offering_level"


@register
class Harvest(Rule, WordsFacet, ValuationFacet):
    id = "harvest"
    kind = "phase"
    summary = "Farmers, gold mines and caravans pay; Treasury and Big Harvest apply."
    spec_ids = ("R-HAR-01", "R-HAR-02", "A-TEMPLEHARVEST")
    params = takes(Params)
    rulings = answers(Rulings)
    cards = {
        "treasury": "One chosen province yields nothing this harvest; its player takes `treasury_gold` instead.",
        "big_harvest": "+`big_harvest_bonus` gold per farmer in one chosen province this harvest.",
    }
    decisions = {
        "treasury": Decision("None or a province of his to give up for the Treasury gold",
                             "null or an integer province id",
                             lambda pid, w: f"play it on {w.province(pid)}", note=_income_note,
                             none=lambda w: f"keep the {w.card_noun('treasury')}", question=_treasury_question,
                             actions=none_or_province_actions, appraise=_appraise_treasury, where=the_province,
                             # the first (keep the card) is what a hypothetical play answers, as before
                             policies={"keep": lambda rule, game, request: None, "poorest": _poorest,
                                       "gainful": _gainful}, title="playing the {treasury} card"),
        "big_harvest": Decision("None or a province of his for a Big Harvest", "null or an integer province id",
                                lambda pid, w: f"play it on {w.province(pid)}", note=_farmers_note,
                                none=lambda w: f"keep the {w.card_noun('big_harvest')}",
                                question=_big_harvest_question, actions=none_or_province_actions,
                                appraise=_appraise_big_harvest, where=the_province,
                                title="playing the {big_harvest} card"),
    }
    events = {
        "harvest_income": Event(
            "A player's harvest, province by province (`provinces`: [{province, farmers, each (gold per farmer), "
            "bonus (of a Big Harvest), mine, caravan}], or {province, treasury} for the province given up for "
            "the Treasury) and its `total`, also when it is 0.", _income_line),
        "harvest_temples": Event(
            "With A-TEMPLEHARVEST: a player's temples ([province, temples]) score the offering `level` at the "
            "harvest (`points`, and his `total`).", _temples_line),
    }
    #: the `harvest_income` line says the income
    reasons = {"harvest": None}
    #: it pays for the farmers and provinces held: `amunre.planning.worth` plays it to value them
    pays_for_holdings = True
    reads = frozenset({"provinces", "farmers", "offering_level"})  # what `income_for` reads
    # the offering level (the offering module's): the income per farmer; 0 in a variant without one
    reads_published = {LEVEL: 0}
    terms = {TEMPLES_AT_HARVEST: "temples at harvest", "mine": "gold mine", "caravan": "caravan"}

    def setup(self) -> None:
        self.treasury = self.variant.card_id("treasury")
        self.big_harvest = self.variant.card_id("big_harvest")

    def score_items(self) -> list[ScoringItem]:
        if not self.rulings.temples_score_at_harvest:
            return []
        return [ScoringItem(TEMPLES_AT_HARVEST, self.variant.term(TEMPLES_AT_HARVEST))]

    def income_for(self, state: GameState, player: int) -> tuple[float, dict[str, float]]:
        """No card played (its decisions' first option)."""
        board, camels = self.variant.board, self.params.camel_levels
        owned = state.players[player].provinces
        key = self.published_at.get(LEVEL)
        level = state.rules[key][LEVEL] if key is not None else 0
        gold = 0
        for pid in owned:  # (a loop: the planner asks this for every holding it values)
            gold += province_income(state, board, pid, level, camels)
        if not self.rulings.temples_score_at_harvest:
            return gold, {}
        temples = sum([board.provinces[i].temples for i in owned])
        return gold, {TEMPLES_AT_HARVEST: temples * level}

    def income(self, state: GameState | PlayerView, board: Board, pid: int, level: int, bonus: int = 0) -> int:
        """Gold one province yields at this harvest at offering level `level` (see
        `amunre.core.counting.province_income`)."""
        return province_income(state, board, pid, level, self.params.camel_levels, bonus)

    def province_facts(self, view: PlayerView, pid: int, w: Words) -> list[str]:
        """"income 5 gold" at the current offering level; before the first offering, which sets
        the level, what the income will depend on ("income after the first sacrifice: 2
        farmers x its level + 1 gold (+3 at level 1 or 2)")."""
        level = view.published(LEVEL, 0)
        if level:
            return [f"income {self.income(view, view.variant.board, pid, level)} {w.t('gold')}"]
        info = view.variant.board.provinces[pid]
        farmers = view.provinces[pid].all_farmers()
        camels = self.params.camel_levels
        terms = (([f"{w.count(farmers, 'farmer')} x its level"] if farmers else [])
                 + ([str(info.mine)] if info.mine else []))
        total = " + ".join(terms) or "0"
        total += f" {w.t('gold')}" if not farmers or info.mine else f", in {w.t('gold')}"
        if info.caravan and camels:
            total += f" (+{info.caravan} {w.t('gold')} at level {w.join([str(level) for level in camels], 'or')})"
        return [f"income after the first {w.t('offering')}: {total}"]

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        TREASURY, BIG_HARVEST = self.treasury, self.big_harvest
        temples_too = self.rulings.temples_score_at_harvest
        board_data = game.variant.board
        board = board_data.provinces
        camel_levels = self.params.camel_levels
        level = self.published(state, LEVEL)  # (no decision of this step changes it)
        for p in state.turn_order():
            player = state.players[p]
            owned = player.provinces
            skip: int | None = None
            boost: int | None = None
            # asked whether he holds the card or not (then forced): who is asked is public
            if owned:
                skip = yield from decide(p, "treasury", [None] + (list(owned) if player.hand[TREASURY] else []))
                if skip is not None:
                    play_card(game, p, TREASURY, province=skip)
            if owned:
                boost = yield from decide(p, "big_harvest", [None] + (list(owned) if player.hand[BIG_HARVEST] else []))
                if boost is not None:
                    play_card(game, p, BIG_HARVEST, province=boost)
            gold = 0
            for pid in owned:
                if pid != skip:
                    bonus = self.params.big_harvest_bonus if pid == boost else 0
                    gold += province_income(state, board_data, pid, level, camel_levels, bonus)
            if skip is not None:
                gold += self.params.treasury_gold
            receive(game, p, gold, "harvest")
            if "harvest_income" in game.hearing:
                game.emit("harvest_income", player=p, total=gold,
                          provinces=self.income_parts(state, board, owned, skip, boost, level))
            if temples_too:
                temples = sum(board[i].temples for i in owned)
                if temples:
                    told = "harvest_temples" in game.hearing
                    add_points(game, p, TEMPLES_AT_HARVEST, temples * level, told=told)
                    if "harvest_temples" in game.hearing:
                        game.emit("harvest_temples", player=p, level=level,
                                  temples=[[i, board[i].temples] for i in owned if board[i].temples],
                                  points=temples * level, total=player.score)

    def income_parts(self, state: GameState, board: Sequence[Province], owned: list[int], skip: int | None,
                     boost: int | None, level: int) -> list[dict[str, int]]:
        """What each province of a player yields at this harvest at offering level `level`, for
        the `harvest_income` line (the same sums as `amunre.core.counting.province_income`)."""
        parts = []
        for pid in owned:
            if pid == skip:
                parts.append({"province": pid, "treasury": self.params.treasury_gold})
                continue
            prov, info = state.provinces[pid], board[pid]
            bonus = self.params.big_harvest_bonus if pid == boost else 0
            parts.append({"province": pid, "farmers": prov.farmers + prov.free_farmers, "each": level + bonus,
                          "bonus": bonus, "mine": info.mine,
                          "caravan": info.caravan if level in self.params.camel_levels else 0})
        return parts
