"""The planner's valuation (`amunre.planning.worth`) asks each rule of the module that owns it:
a variant that changes the rule changes what a holding is worth, with no line of the worth
changed. Each test changes the owner's rule (the board, the supply) and derives what the
worth must say from the changed variant, not from a printed number.
"""

from __future__ import annotations

import attrs
import pytest

from amunre.agents import make_agents
from amunre.core.engine import Game
from amunre.core.facets import ValuationFacet
from amunre.core.mechanics import free_fields
from amunre.loader import load_variant
from amunre.planning.table import Table
from amunre.planning.worth import Worth

EDITIONS = ("classic2003", "supermeeple2016")


def _planners_until(variant, seed: int, found):
    """A game of planners in every seat, played until `found(game, view)` holds for the view
    of the seat to answer; (game, view) then."""
    game = Game(variant, 4, seed)
    agents = make_agents(["planner"] * 4, seed)
    while game.pending is not None:
        view = game.view(game.pending.player)
        if found(game, view):
            return game, view
        game.answer(agents[game.pending.player].choose(view, game.pending))
    raise AssertionError("the game ended before the position looked for came")


def _harvests(variant) -> dict:
    """Each phase that pays for holdings (the harvest), run once more in the kingdom."""
    return {module: 1 for module in variant.modules.phases
            if isinstance(module, ValuationFacet) and module.pays_for_holdings}


def _fields_full(game, view) -> bool:
    """The seat holds provinces, and every field of them has its farmer."""
    owned = view.me.provinces
    return bool(owned) and all(free_fields(game, pid) == 0 for pid in owned)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_farmer_is_worth_something_only_where_the_board_has_a_field_for_it(edition):
    """`best_farmer` asks the move that places farmers where one may go: with every field of
    the seat's provinces taken it is worth nothing, though a farmer there would pay; on a
    board with a field more in every province (a house rule) the same position values the
    best of them."""
    variant = load_variant(edition)
    game, view = _planners_until(variant, 1, _fields_full)
    worth = Worth(view, {}, 0.22, _harvests(variant))
    owned = view.me.provinces
    assert max(worth.farmers(pid) for pid in owned) > 0  # (a farmer there would pay: the test can fail)
    assert worth.best_farmer() == 0.0
    board = variant.board
    wider = attrs.evolve(variant, board=attrs.evolve(board, provinces=tuple(
        attrs.evolve(province, fields=province.fields + 1) for province in board.provinces)))
    table = Table(wider, game.state.copy())
    assert all(free_fields(table, pid) == 1 for pid in owned)
    wide = Worth(table.view(view.player), {}, 0.22, _harvests(wider))
    best = max(wide.farmers(pid) for pid in owned)
    assert best > 0
    assert wide.best_farmer() == pytest.approx(best)
