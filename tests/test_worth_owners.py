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
from amunre.core.mechanics import (
    STONES_PER_PYRAMID,
    ConstructionRulings,
    convert_full_stones,
    free_fields,
    pyramids_from_stones_in,
)
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


def _stones_short_of_a_pyramid(game, view) -> bool:
    """The seat holds a province with a stone or more toward its next pyramid."""
    return any(view.provinces[pid].stones % STONES_PER_PYRAMID for pid in view.me.provinces)


@pytest.mark.parametrize("edition", EDITIONS)
def test_stones_build_a_pyramid_only_while_the_supply_holds_one(edition):
    """`Worth.stones` asks the construction how many pyramids more stones build
    (`pyramids_from_stones_in`): with the supply's pyramids all built (A-SUPPLY: a finite
    supply), the stones that would complete one are worth what it leaves them, stones."""
    variant = load_variant(edition)
    game, view = _planners_until(variant, 2, _stones_short_of_a_pyramid)
    pid = next(pid for pid in view.me.provinces if view.provinces[pid].stones % STONES_PER_PYRAMID)
    need = STONES_PER_PYRAMID - view.provinces[pid].stones % STONES_PER_PYRAMID
    state = game.state.copy()
    assert pyramids_from_stones_in(state, pid, state.provinces[pid].stones + need)[0] == 1
    full = Worth(view, {}, 0.22, {})
    state.supply_pyramids = state.supply_doubles = 0  # every piece built
    assert pyramids_from_stones_in(state, pid, state.provinces[pid].stones + need) == (
        0, state.provinces[pid].stones + need)
    empty = Worth(Table(variant, state).view(view.player), {}, 0.22, {})
    assert full.stones(pid, need) > empty.stones(pid, need)
    assert full.stones(pid, need) == pytest.approx(full.pyramids(pid, 1) + empty.stones(pid, need))


@pytest.mark.parametrize("singles", range(3))
@pytest.mark.parametrize("doubles", range(3))
@pytest.mark.parametrize("here", range(3))
def test_the_pyramids_counted_of_stones_are_those_the_construction_builds(singles, doubles, here):
    """`pyramids_from_stones_in` counts what `convert_full_stones` builds of a province's
    stones with the pieces left, a double swapped in where one is (2016's automatic swap):
    each pyramid adds one to the province's singles plus twice its doubles."""
    variant = load_variant("supermeeple2016")
    assert variant.rulings.of(ConstructionRulings).double_swap == "automatic"
    for stones in range(3 * STONES_PER_PYRAMID):
        state = Game(variant, 4, 0).state.copy()
        state.supply_pyramids, state.supply_doubles = singles, doubles
        prov = state.provinces[0]
        prov.pyramids, prov.doubles, prov.stones = here, 0, stones
        counted = pyramids_from_stones_in(state, 0, stones)
        for _ in convert_full_stones(Table(variant, state), 0):
            raise AssertionError("the automatic swap asks nothing")
        assert counted == (prov.pyramids + 2 * prov.doubles - here, prov.stones)


def test_a_worth_lends_nothing_to_the_next_once_the_supply_moved():
    """The supplies are in a worth's key (`Seen`): a later worth of the same seat whose only
    difference is the supply (its pyramids all built since) values the stones again, as a
    worth made afresh does, rather than keeping what they built before."""
    variant = load_variant("classic2003")
    game, view = _planners_until(variant, 2, _stones_short_of_a_pyramid)
    pid = next(pid for pid in view.me.provinces if view.provinces[pid].stones % STONES_PER_PYRAMID)
    need = STONES_PER_PYRAMID - view.provinces[pid].stones % STONES_PER_PYRAMID
    first = Worth(view, {}, 0.22, {})
    before = first.stones(pid, need)
    game.state.supply_pyramids = game.state.supply_doubles = 0  # (the view is live: it shows this)
    later, fresh = Worth(view, {}, 0.22, {}, previous=first), Worth(view, {}, 0.22, {})
    assert fresh.stones(pid, need) < before  # (what a kept value would say: the test can fail)
    assert later.stones(pid, need) == fresh.stones(pid, need)
