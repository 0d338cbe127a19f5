"""Rule `province_draw` (R-PROV-01, R-GAME-05): each round the start player draws one
province card per player from the province deck and places each province's immediate bonus
(free cards face down, free stones, free gold) on it. Between kingdoms the cards used in the
kingdom are reshuffled as the next kingdom's deck; unused cards leave the game.

The province deck is this module's own state (`deck`, top at the end, and `used`, the cards
drawn this kingdom): a player sees how many cards are left, never their order.
"""

from __future__ import annotations

import attrs

from amunre.contract import CheckProblem, Event, Rule
from amunre.mechanics import draw_card
from amunre.model import bounded, doc
from amunre.registry import register


@attrs.frozen
class Params:
    provinces_per_player: int = doc(
        "0: every province of the board forms the deck (2003); n: the deck holds n cards per player (2016).",
        default=0, validator=bounded(0, 15),
    )


@register
class ProvinceDraw(Rule):
    id = "province_draw"
    kind = "phase"
    summary = "Draw one province card per player and place the immediate bonuses."
    spec_ids = ("R-PROV-01", "R-GAME-05")
    Params = Params
    # what an observation vector holds of its data: the deck's size and the provinces used
    observation = {"deck": "count", "used": "provinces"}
    events = {
        "provinces": Event(
            "The start player draws the round's province cards; `lying`: what lies on each then (see "
            "`lay_out`), in `kingdom`.",
            lambda e, w: f"{w.who(e['player'])} draws the {w.t('province_cards')}: "
                         f"{', '.join(w.province(i) for i in e['provinces'])}." + lying_lines(e, w),
        ),
    }
    terms = {"province_cards": "province cards", "immediate_bonus": "free material"}
    provides = ("provinces",)
    once = True

    def check(self, variant) -> list:
        rounds = variant.edition.rounds_per_kingdom
        most = max(variant.edition.players)
        per = self.params.provinces_per_player
        if per and per < rounds:
            # each player acquires one province per round: the draw must cover every round
            return [CheckProblem(
                f"provinces_per_player is {per} but each kingdom has {rounds} rounds, and each player "
                "acquires one province per round (set provinces_per_player to the rounds, or 0 to follow them)",
                ("params.provinces_per_player", "edition.rounds_per_kingdom"))]
        return too_few_provinces(variant, most, per or rounds, "params.provinces_per_player" if per else "")

    # -- its own state: the province deck ----------------------------------------------------
    def initial_state(self, game) -> dict:
        return {"deck": [], "used": []}

    def view_state(self, data: dict, player: int) -> dict:
        # the deck is face down: its size is known, its order is not
        return {"deck": len(data["deck"]), "used": sorted(data["used"])}

    def hidden_variants(self, data: dict, player: int, rng) -> dict:
        # the deck is any of the cards this kingdom is drawn from that nobody has seen drawn: in
        # the first kingdom with `provinces_per_player`, which cards were left out is hidden too.
        # From an order he may know (sorted): the draw must not follow the truth
        unseen = sorted(set(data.get("drawn_from", data["deck"])) - set(data["used"]))
        redrawn = {"deck": rng.sample(unseen, len(data["deck"])), "used": list(data["used"])}
        if "drawn_from" in data:
            redrawn["drawn_from"] = list(data["drawn_from"])
        return redrawn

    def start_kingdom(self, game) -> None:
        state = game.state
        mine = state.rules[self.key]
        if state.kingdom == 0:
            deck = list(range(len(game.variant.board)))
            mine["drawn_from"] = list(deck)  # public: every card, some maybe left out unseen
            state.random("provinces").shuffle(deck)
            if self.params.provinces_per_player:
                # the cards drawn are the top of the shuffled deck (its end): a variant that
                # draws from the whole deck lays out the same provinces on the same seed
                deck = deck[len(deck) - self.params.provinces_per_player * state.n_players:]
        else:
            deck = mine["used"]
            mine["drawn_from"] = sorted(deck)  # public: the cards drawn in the kingdom before
            state.random("provinces").shuffle(deck)
        mine["deck"] = deck
        mine["used"] = []

    def run(self, game):
        state = game.state
        board = game.variant.board.provinces
        mine = state.rules[self.key]
        drawn = [mine["deck"].pop() for _ in range(state.n_players)]
        mine["used"].extend(drawn)
        state.on_auction = drawn
        lying = lay_out(game, drawn, board, "provinces" in game.hearing)
        if "provinces" in game.hearing:
            game.emit("provinces", player=state.start_player, provinces=list(drawn), lying=lying,
                      kingdom=state.kingdom)
        return
        yield  # a generator with no decisions


def too_few_provinces(variant, players: int, per_player: int, param: str = "") -> list:
    """The problem, if any, of a board too small to give `players` players `per_player`
    province cards each in one kingdom: the edition's player counts or rounds are to blame,
    or the module's parameter `param` when it sets the cards per player."""
    need = per_player * players
    if need <= len(variant.board):
        return []
    rounds = variant.edition.rounds_per_kingdom
    each = (f"with {per_player} province cards each" if param else
            f"over {rounds} round{'s' if rounds != 1 else ''}")
    return [CheckProblem(
        f"{players} players {each} need {need} provinces but the board has {len(variant.board)} "
        f"(lower the player counts or {'the ' + param.split('.')[-1] if param else 'the rounds'})",
        ("edition.players", "edition.rounds_per_kingdom") + ((param,) if param else ()))]


def place_immediate_bonus(game, pid: int, province) -> tuple[int, int, int]:
    """Put a drawn province's free cards, stones and gold on it; returns how many cards and
    stones and how much gold were placed (the supplies may run short)."""
    state = game.state
    prov = state.provinces[pid]
    cards = 0
    for _ in range(province.free_cards):
        card = draw_card(game)
        if card is not None:
            prov.cards.append(card)
            cards += 1
    stones = min(province.free_stones, state.supply_stones)
    for _ in range(stones):
        state.supply_stones -= 1
        prov.stones += 1
    prov.gold += province.free_gold
    return cards, stones, province.free_gold


def lay_out(game, pids, board, describe: bool = True) -> list[dict]:
    """Place the immediate bonus of each of the round's provinces, in order. Returns what
    lies on each afterwards, for the line that shows the round's provinces: the bonus
    (`cards` face down, `stones`, `gold`) and what was left there from an earlier kingdom
    (`old_stones`, `pyramids`, `doubles`); only the provinces with something, and nothing
    unless `describe` (nobody hears the line)."""
    provinces = game.state.provinces
    lying = []
    for pid in pids:
        prov = provinces[pid]
        old = (prov.stones, prov.pyramids, prov.doubles)
        cards, stones, gold = place_immediate_bonus(game, pid, board[pid])
        if describe and (cards or stones or gold or any(old)):
            lying.append({"province": pid, "cards": cards, "stones": stones, "gold": gold,
                          "old_stones": old[0], "pyramids": old[1], "doubles": old[2]})
    return lying


def lying_lines(e, w) -> str:
    """One line per province of the round with something on it: its immediate bonus and
    what stands there from the kingdom before (pyramids and stones stay, R-GAME-05)."""
    lines = []
    kingdoms = w.variant.edition.kingdoms
    for item in e.get("lying", ()):
        bonus = []
        if item["cards"]:
            bonus.append(f"{w.count(item['cards'], 'favor')} (face down)")
        if item["stones"]:
            bonus.append(w.count(item["stones"], "stone"))
        if item["gold"]:
            bonus.append(f"{item['gold']} {w.t('gold')}")
        name = w.province(item["province"])
        left = []
        if item["doubles"]:
            left.append(w.count(item["doubles"], "double_pyramid"))
        if item["pyramids"]:
            left.append(w.count(item["pyramids"], "pyramid"))
        if item["old_stones"]:
            left.append(w.count(item["old_stones"], "stone"))
        k = e.get("kingdom")  # the kingdom being played: the pieces stand from the one before
        before = f"the {kingdoms[k - 1]}" if isinstance(k, int) and 0 < k <= len(kingdoms) else "an earlier kingdom"
        if bonus:
            line = f"{name} gets its {w.t('immediate_bonus')}: {w.join(bonus)}"
            if left:
                line += f"; from {before} it still holds {w.join(left)}"
        else:
            line = f"{name} still holds from {before}: {w.join(left)}"
        lines.append(f"\n  {line}.")
    return "".join(lines)
