"""The offering's words for people: how its options read (`describe`, `group`), what the
human seat is asked and shown (questions, facts, notes) and the play-by-play line of each
of its events. Everything a person reads of the offering, and nothing it decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.core.boardtext import level_words
from amunre.rules.offering.levels import THEFT_CARDS, level_for

if TYPE_CHECKING:
    from amunre.core.contract import Asking
    from amunre.core.words import Words
    from amunre.rules.offering import Offer, Offering, RewardItem


def _describe_offer(option: Offer, w: Words) -> str:
    what, amount, adjust = option
    text = w.t("theft") if what == "theft" else f"{amount} {w.t('gold')}"
    return text + (f", with the {w.card_noun('offering_adjustment')}" if adjust else "")


def _offer_group(option: Offer, w: Words) -> tuple[str, str]:
    """An offer shown among many: with or without the adjustment card, by what is given."""
    what, amount, adjust = option
    return (f"give with the {w.card_noun('offering_adjustment')}" if adjust else "give",
            w.t("theft") if what == "theft" else f"{amount} {w.t('gold')}")


def _describe_reward(option: RewardItem, w: Words) -> str:
    if option == "card":
        return f"{w.a(w.t('favor'))}, drawn from the pile"
    return f"{w.a(w.t(option[0]))} in {w.province(option[1])}"


def _levels(rule: Offering, w: Words) -> str:
    """The offering levels by total, and what a theft does."""
    floors = rule.params.level_floors
    parts = [f"1 below {floors[0]}"] if floors else []
    parts += [f"{n + 2} from {floor}" for n, floor in enumerate(floors)]
    theft = f"; a {w.t('theft')} takes {rule.params.theft_value} off the total" if rule.params.theft_value else ""
    return f"Level by the total of all offers: {', '.join(parts)}{theft}."


def _offer_facts(asking: Asking) -> list[str]:
    rule: Offering | None
    w, view, rule = asking.words, asking.view, asking.rule
    theft = view.published(THEFT_CARDS, [0] * view.n_players)[view.player]
    thefts = f" and your {w.t('theft')}" if theft == 1 else f" and {theft} x {w.t('theft')}" if theft else ""
    lines = [f"You have {asking.gold} {w.t('gold')}{thefts}; {level_words(view, w)}."]
    if rule is not None:
        first, second, other = rule.params.rewards
        lines.append(_levels(rule, w))
        # (what is taken named: "takes 3" alone left a player asking "3 of what?")
        lines.append(f"Rewards: the most offered takes {w.count(first, 'reward', 'rewards')} and becomes "
                     f"{w.t('start_player')}, the second most {w.count(second, 'reward', 'rewards')}, every other "
                     f"who offers {w.t('gold')} {w.count(other, 'reward', 'rewards')}; each "
                     f"{w.noun(1, 'reward', 'rewards')} is a {w.t('favor')}, a {w.t('farmer')} or a "
                     f"{w.noun(1, 'stone')}, as its taker chooses; ties go to the earlier in turn order.")
    return lines


def _offer_note(option: Offer, asking: Asking) -> str | None:
    what, amount, adjust = option
    over = amount - asking.gold
    if what == "gold" and over > 0:  # cards counted as gold (A-OFFERCARDS)
        w = asking.words
        return f"{w.plural(over, w.t('favor'), w.t('favor_plural'))} of it, at 1 {w.t('gold')} each"
    return None


def _sell_first_facts(asking: Asking) -> list[str]:
    w = asking.words
    return [f"Your offer is paid from your {w.t('gold')} ({asking.gold} now): each {w.t('favor')} sold "
            f"here, in the open, brings 1 {w.t('gold')}."]


def _adjust_question(asking: Asking) -> str:
    w = asking.words
    return (f"The total stands at {asking.context.get('total', 0)}: which way does your "
            f"{w.card_noun('offering_adjustment')} move it?")


def _adjust_note(option: int, asking: Asking) -> str | None:
    if asking.rule is None:
        return None
    total = asking.context.get("total", 0) + option
    return f"total {total}: level {level_for(total, asking.rule.params.level_floors)}"


def _reward_question(asking: Asking) -> str:
    n, of = asking.context.get("reward", 1), asking.context.get("of", 1)
    which = f"Reward {n} of {of}" if of > 1 else "Your reward"
    return f"{which}: what do you take?"


def _reward_note(option: RewardItem, asking: Asking) -> str | None:
    if option == "card":
        return None
    w, view = asking.words, asking.view
    kind, pid = option
    if kind == "farmer":
        return f"{view.provinces[pid].farmers}/{view.variant.board.provinces[pid].fields} fields used"
    stones = view.provinces[pid].stones
    if stones % 3 == 2:
        return f"{stones} {w.t('stones')} there: this one builds a {w.t('pyramid')}"
    return f"{w.plural(stones, w.t('stone'), w.t('stones'))} there"


def _offers_line(e: dict[str, Any], w: Words) -> str:
    parts = []
    for p, (kind, amount, adjust) in e["offers"].items():
        what = w.t("theft") if kind == "theft" else f"{amount} {w.t('gold')}"
        if adjust:
            what += f" + {w.card('offering_adjustment')}"
        parts.append(f"{w.who(int(p))} {what}")
    return f"  Revealed {w.t('offering')}: " + ", ".join(parts) + "."


def _adjust_line(e: dict[str, Any], w: Words) -> str:
    card = w.card_noun("offering_adjustment")
    if not e["delta"]:
        return f"  {w.who(e['player'])} plays the {card} and leaves the total at {e['total']}."
    return f"  {w.who(e['player'])} {w.t('adjusts')} the total by {e['delta']:+d} to {e['total']} with the {card}."


def _level_line(e: dict[str, Any], w: Words) -> str:
    # an edition that names its levels (the 2016 Offering tiles "3>12", ...) places one
    name = w.numbered("offering_level", e["level"])
    if name:
        return f"  The {name} {w.t('offering_level')} is placed (level {e['level']}; total {e['total']})."
    return f"  The {w.t('offering_level')} moves to level {e['level']} (total {e['total']})."


def _sales_line(e: dict[str, Any], w: Words) -> str:
    return (f"  Open sales before the secret {w.t('offering')}, 1 {w.t('gold')} per card "
            f"({w.who(e['player'])} first):")


def _ranks_line(e: dict[str, Any], w: Words) -> str:
    """Who offered most and second most (ties: the earlier in turn order), and how many
    rewards each player takes; thieves take none."""
    gold, reward = w.t("gold"), "reward"
    lines = []

    def rewards(count: int) -> str:
        return w.count(count, reward, "rewards")

    for place, entry in (("most", e["first"]), ("second most", e["second"])):
        if entry is None:
            continue
        p, amount, count, tied = entry
        tie = ""
        if tied:
            tie = f", as much as {w.names_of(tied)}: the earlier in turn order goes first"
        lines.append(f"  {w.who(p)} offered the {place} ({amount} {gold}{tie}) and takes {rewards(count)}.")
    if e["others"]:
        count = e["others_rewards"]
        each = " each" if len(e["others"]) > 1 else ""
        lines.append(f"  {w.names_of(e['others'])} offered less and take{'s' if len(e['others']) == 1 else ''} "
                     f"{rewards(count)}{each}.")
    if e["thieves"]:
        lines.append(f"  {w.names_of(e['thieves'])} played {'a ' if len(e['thieves']) > 1 else 'the '}"
                     f"{w.t('theft')} and take{'s' if len(e['thieves']) == 1 else ''} "
                     f"no {w.noun(2, reward, 'rewards')}.")
    if e["first"] is None:
        lines.append(f"  Nobody offered {gold}: nobody takes {w.a(w.t(reward))}.")
    return "\n".join(lines)


def _reward_line(e: dict[str, Any], w: Words) -> str:
    if e["item"] == "card":
        item = w.a(w.t("favor"))
    else:
        item = f"{w.a(w.t(e['item']))} in {w.province(e['province'])}"
    if e["of"] == 1:
        return f"  {w.who(e['player'])} takes 1 {w.t('reward')}: {item}."
    return f"  {w.who(e['player'])} takes {w.t('reward')} {e['n']} of {e['of']}: {item}."


def _start_line(e: dict[str, Any], w: Words) -> str:
    if e.get("kept"):
        return f"  {w.who(e['player'])} stays {w.t('start_player')}."
    return f"  {w.who(e['player'])} becomes {w.t('start_player')}."
