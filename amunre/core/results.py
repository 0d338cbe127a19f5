"""A finished game's result in one shape for every output: per-item points per kingdom
(and the final scoring's items under the final scoring's name), gold, pyramids, stones,
rank and winners. Used by the final table, `--json` and comparisons. Scoring items and
their labels come from the rule modules (`variant.modules.items`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.core.counting import pyramids_in, stones_in
from amunre.core.standing import ranks
from amunre.core.words import item_label

if TYPE_CHECKING:
    from amunre.core.engine import Game
    from amunre.core.model import Variant

__all__ = ["game_result", "item_label", "item_order", "ranks", "scoring_groups"]


def item_order(variant: Variant) -> list[str]:
    """Every scoring item key a variant can produce, in the order it scores them."""
    return [item.key for item in variant.modules.items]


def final_items(variant: Variant) -> set[str]:
    """The scoring item keys of the final scoring (scored once, after the last kingdom)."""
    return {item.key for module in variant.modules.final_scoring for item in module.score_items()}


def scoring_groups(variant: Variant) -> list[str]:
    """The groups of a result's `items`, in order: each kingdom, then the final scoring (by
    the edition's word for it), where the final scoring has items."""
    groups = list(variant.edition.kingdoms)
    if final_items(variant):
        groups.append(variant.term("final_scoring"))
    return groups


def game_result(game: Game, names: list[str], agents: list[str]) -> dict[str, Any]:
    """The `--json` document (schemas/result.schema.json)."""
    state, variant = game.state, game.variant
    kingdoms = list(variant.edition.kingdoms)
    final, final_name = final_items(variant), variant.term("final_scoring")
    rank = ranks(state)
    players = []
    for p, player in enumerate(state.players):
        items: dict[str, dict[str, int]] = {}
        for key, points in player.breakdown.items():
            k, item = key.split(":", 1)
            # the final scoring's items count after the last kingdom, not as part of it
            group = final_name if item in final else kingdoms[int(k)]
            items.setdefault(group, {})[item] = items.get(group, {}).get(item, 0) + points
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
