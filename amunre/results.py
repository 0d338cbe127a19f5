"""A finished game's result in one shape for every output: per-item points per kingdom,
gold, pyramids, rank and winners. Used by the final table, `--json` and comparisons.
Scoring items and their labels come from the rule modules (`variant.modules.items`).
"""

from __future__ import annotations

from amunre.counting import pyramids_in, stones_in
from amunre.narrate import item_label
from amunre.standing import ranks

__all__ = ["game_result", "item_label", "item_order", "ranks"]


def item_order(variant) -> list[str]:
    """Every scoring item key a variant can produce, in the order it scores them."""
    return [item.key for item in variant.modules.items]


def game_result(game, names: list[str], agents: list[str]) -> dict:
    """The `--json` document (schemas/result.schema.json)."""
    state, variant = game.state, game.variant
    kingdoms = list(variant.edition.kingdoms)
    rank = ranks(state)
    players = []
    for p, player in enumerate(state.players):
        items: dict[str, dict[str, int]] = {}
        for key, points in player.breakdown.items():
            k, item = key.split(":", 1)
            items.setdefault(kingdoms[int(k)], {})[item] = items.get(kingdoms[int(k)], {}).get(item, 0) + points
        players.append({
            "player": p,
            "name": names[p],
            "agent": agents[p],
            "score": player.score,
            "items": items,
            "gold": player.gold,
            "pyramids": pyramids_in(state, player.provinces),
            "stones": stones_in(state, player.provinces),
            "rank": rank[p],
        })
    return {
        "variant": variant.id,
        "seed": game.seed,
        "players": players,
        "winners": [names[p] for p in state.winners],
        "decisions": len(game.answers),
    }
