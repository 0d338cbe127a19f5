"""Rule `temples` (R-SCO-01): at a kingdom's scoring each temple in an own province scores
the offering level."""

from __future__ import annotations

from amunre.contract import NoParams, Rule
from amunre.mechanics import add_points
from amunre.registry import register


@register
class Temples(Rule):
    id = "temples"
    kind = "scoring"
    summary = "Each temple in an own province scores the offering level."
    spec_ids = ("R-SCO-01",)
    Params = NoParams

    def run(self, game):
        state = game.state
        board = game.variant.board.provinces
        for p in state.turn_order():
            temples = sum(board[i].temples for i in state.players[p].provinces)
            add_points(game, p, self.item_key, temples * state.offering_level)
        return
        yield
