"""The round's province cards, whichever rule lays them out (a draw from the deck, the
expert rule's secret picks): their immediate bonus placed on them, the line that says what
lies on each, and whether the board holds enough of them for the players and rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.core.contract import CheckProblem
from amunre.core.mechanics import draw_card

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from amunre.core.board import Province
    from amunre.core.contract import GameLike
    from amunre.core.model import Variant
    from amunre.core.words import Words


def too_few_provinces(variant: Variant, players: int, per_player: int, param: str = "") -> list[CheckProblem]:
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


def place_immediate_bonus(game: GameLike, pid: int, province: Province) -> tuple[int, int, int]:
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


def lay_out(game: GameLike, pids: Iterable[int], board: Sequence[Province],
            describe: bool = True) -> list[dict[str, int]]:
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


def lying_lines(e: dict[str, Any], w: Words) -> str:
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
