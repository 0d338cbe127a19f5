"""Setting up a game (R-GAME-02): supplies, the shuffled card deck, each player's gold
and starting cards, a seeded random start player, and each rule module's own data (the
theft cards each player holds are the offering's, dealt in its `initial_state`).

The core answers one open question itself, A-SUPPLY (whether farmers, stones and pyramids
run out), so `SetupRulings` joins the rulings of the modules in every variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from amunre.core.contract import ruling
from amunre.core.errors import RuleModuleError
from amunre.core.state import UNLIMITED

if TYPE_CHECKING:
    from amunre.core.engine import Game
    from amunre.core.model import Variant

SPEC_IDS = ("R-GAME-02", "A-SUPPLY")


@attrs.frozen
class SetupRulings:
    finite_supply: bool = ruling(
        "A-SUPPLY", "Farmers, stones and pyramids are limited to the component counts.", True)


def supply_counts(variant: Variant) -> dict[str, int]:
    """Farmers, stones, single and double pyramids in the supply at the start (A-SUPPLY)."""
    comp = variant.components
    finite = variant.rulings.of(SetupRulings).finite_supply
    counts = {"farmers": comp.farmers, "stones": comp.stones, "pyramids": comp.pyramids,
              "doubles": comp.double_pyramids}
    return counts if finite else dict.fromkeys(counts, UNLIMITED)


def set_up(game: Game) -> None:
    """Put a new game's state in its starting position (chance from its named streams, `amunre.core.streams`)."""
    state, variant = game.state, game.variant
    comp = variant.components
    supply = supply_counts(variant)
    state.supply_farmers = supply["farmers"]
    state.supply_stones = supply["stones"]
    state.supply_pyramids = supply["pyramids"]
    state.supply_doubles = supply["doubles"]
    deck = [kind for kind in range(len(variant.cards)) for _ in range(comp.deck.get(variant.cards[kind], 0))]
    for player in state.players:
        player.gold = comp.starting_gold
        for kind in comp.starting_cards:
            card = variant.card_id(kind)
            deck.remove(card)
            player.hand[card] += 1
    state.random("cards").shuffle(deck)
    state.deck = deck
    state.start_player = state.random("start_player").randrange(state.n_players)
    for module in variant.modules.stateful:
        state.rules[module.key] = module.initial_state(game)
    for module in variant.modules.all:
        data = state.rules.get(module.key)
        missing = [name for name in module.publishes if not isinstance(data, dict) or name not in data]
        if missing:  # its readers would fail later, in the middle of a game
            raise RuleModuleError(
                f"rule module {module.id!r} (entry {module.spec.id!r}) publishes {', '.join(map(repr, missing))} but "
                "its initial_state holds no such key: a published value lives in its own data under its name")
