"""A finished game's result in one shape for every output: per-item points per kingdom,
gold, pyramids, rank and winners. Used by the final table, `--json` and comparisons.
"""

from __future__ import annotations

from amunre.engine import standing
from amunre.rules.scoring import pyramids_in, stones_in


def item_label(variant, item: str) -> str:
    if item.startswith("bonus_cards:"):
        return variant.term(item.split(":", 1)[1])
    names = {spec.rule: spec.name for spec in variant.scoring + variant.final_scoring}
    if item.startswith("nile_sides_"):
        return f"{names.get('nile_sides', 'Nile')} ({item.rsplit('_', 1)[1]})"
    if item == "temples_harvest":
        return "temples at harvest"
    return names.get(item, item.replace("_", " "))


def item_order(variant) -> list[str]:
    """Every scoring item key a variant can produce, in the order it scores them."""
    from amunre.model import BONUS_CARDS

    keys = ["temples_harvest"] if variant.rulings.temples_score_at_harvest else []
    for spec in variant.scoring + variant.final_scoring:
        if spec.rule == "nile_sides":
            keys += ["nile_sides_west", "nile_sides_east"]
        elif spec.rule == "bonus_cards":
            keys += [f"bonus_cards:{kind}" for kind in BONUS_CARDS]
        else:
            keys.append(spec.rule)
    return keys


def ranks(state) -> list[int]:
    """Rank per player (1 = winner) by standing: points, then pyramids, then stones (R-GAME-06)."""
    keys = [standing(state, p) for p in range(state.n_players)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


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
