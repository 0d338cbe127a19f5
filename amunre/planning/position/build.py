"""Build the game state a checked position describes."""

from __future__ import annotations

from amunre.core.engine import Game
from amunre.core.gamesetup import supply_counts
from amunre.core.model import Variant
from amunre.core.state import UNLIMITED, GameState
from amunre.planning.position.fields import PROVINCE_COUNTS, SUPPLIES, UNOWNED_COUNTS, Position, player_names


def build_state(data: dict, variant: Variant) -> Position:
    board = variant.board
    players = data["players"]
    names = tuple(player_names(data))
    n = len(players)
    state = GameState(n, len(board), data.get("seed", 0), len(variant.cards))
    kingdom = data.get("kingdom", 1)
    state.kingdom = variant.edition.kingdoms.index(kingdom) if isinstance(kingdom, str) else kingdom - 1
    state.round = variant.edition.rounds_per_kingdom - 1
    start = data.get("start_player", 0)
    state.start_player = names.index(start) if isinstance(start, str) else start

    placed = dict.fromkeys(SUPPLIES, 0)
    deck_left = dict(variant.components.deck)
    for p, (entry, player) in enumerate(zip(players, state.players)):
        player.gold = entry.get("gold", 0)
        player.score = entry.get("score", 0)
        for kind, count in entry.get("hand", {}).items():
            player.hand[variant.card_id(kind)] += count
            deck_left[kind] = deck_left.get(kind, 0) - count
        for name, counts in entry.get("provinces", {}).items():
            pid = board.index(name)
            prov = state.provinces[pid]
            prov.owner = p
            player.provinces.append(pid)
            for key in PROVINCE_COUNTS:
                setattr(prov, key, counts.get(key, 0))
            placed["farmers"] += prov.farmers + prov.free_farmers
    for name, counts in data.get("unowned", {}).items():
        prov = state.provinces[board.index(name)]
        for key in UNOWNED_COUNTS:
            setattr(prov, key, counts.get(key, 0))
    for prov in state.provinces:
        placed["stones"] += prov.stones
        placed["pyramids"] += prov.pyramids
        placed["doubles"] += prov.doubles

    # what the position gives, else what the components leave (A-SUPPLY: unlimited stays so)
    supplies = data.get("supplies", {})
    start = supply_counts(variant)
    for key, (attr, _) in SUPPLIES.items():
        if key in supplies:
            value = supplies[key]
        else:
            value = start[key] if start[key] == UNLIMITED else start[key] - placed[key]
        setattr(state, attr, value)

    deck = [card for card, kind in enumerate(variant.cards) for _ in range(max(0, deck_left.get(kind, 0)))]
    state.random("cards").shuffle(deck)
    state.deck = deck
    # each rule module's own data, as a game sets it up; then the values a position gives of
    # what the modules publish: the offering level and each player's theft cards (the
    # offering's, where the variant has one; the reader refuses them where it has none)
    Game.from_state(variant, state)
    modules = variant.modules
    modules.set_published(state, "offering_level", data.get("offering_level", 1))
    theft = variant.components.theft_cards_per_player
    modules.set_published(state, "theft_cards", [entry.get("theft", theft) for entry in players])
    return Position(state=state, names=names, variant=data.get("variant"))


