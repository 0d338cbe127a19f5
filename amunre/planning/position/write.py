"""Write a game state as position data (the inverse of reading one), as TOML or JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from amunre.core.model import Variant
from amunre.core.state import UNLIMITED, GameState
from amunre.planning.position.fields import PROVINCE_COUNTS, SUPPLIES, UNOWNED_COUNTS


def default_names(n: int) -> tuple[str, ...]:
    return tuple(f"player {i + 1}" for i in range(n))


def position_to_dict(state: GameState, variant: Variant, names=None) -> dict[str, Any]:
    """The position data describing a state (the inverse of `load_position`).

    Loading the result gives a state with the same holdings, supplies, kingdom, level and
    start player (the order of the cards left in the deck is not part of a position).
    """
    board = variant.board
    names = tuple(names) if names is not None else default_names(state.n_players)
    data: dict[str, Any] = {
        "variant": variant.id,
        "seed": state.seed,
        "kingdom": variant.edition.kingdoms[state.kingdom],
        "start_player": names[state.start_player],
    }
    # what the rule modules publish that a position holds, where the variant has them
    published = variant.modules.published
    if variant.modules.published_at.get("offering_level") is not None:
        data["offering_level"] = published(state, "offering_level")
    theft = published(state, "theft_cards")
    supplies = {
        key: getattr(state, attr) for key, (attr, _) in SUPPLIES.items() if getattr(state, attr) != UNLIMITED
    }
    if supplies:
        data["supplies"] = supplies
    players = []
    for p, player in enumerate(state.players):
        entry: dict[str, Any] = {"name": names[p], "gold": player.gold}
        if theft is not None:
            entry["theft"] = theft[p]
        if player.score:
            entry["score"] = player.score
        entry["hand"] = {variant.cards[k]: c for k, c in enumerate(player.hand) if c}
        provinces = {}
        for pid in player.provinces:
            prov = state.provinces[pid]
            provinces[board.provinces[pid].name] = {k: getattr(prov, k) for k in PROVINCE_COUNTS if getattr(prov, k)}
        entry["provinces"] = provinces
        players.append(entry)
    data["players"] = players
    unowned = {}
    for pid, prov in enumerate(state.provinces):
        if prov.owner is None and (prov.stones or prov.pyramids or prov.doubles):
            unowned[board.provinces[pid].name] = {k: getattr(prov, k) for k in UNOWNED_COUNTS if getattr(prov, k)}
    if unowned:
        data["unowned"] = unowned
    return data


def write_position(data: dict, path: str | Path) -> None:
    """Write position data as TOML or JSON, by the file's extension."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    else:
        import tomli_w

        path.write_text(tomli_w.dumps(data), encoding="utf-8")


