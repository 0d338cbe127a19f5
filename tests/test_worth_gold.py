"""What a gold is worth to the planner (`amunre.planning.worth`, the module docstring's gold):
one number, what it still buys plus what the final items make of it at the end, counted
once; at the final scoring only what the final items make of it on the true standings.
"""

from __future__ import annotations

import pytest

from amunre.agents import make_agent, make_agents
from amunre.core.engine import Game
from amunre.core.errors import ArgumentValueError
from amunre.loader import load_variant
from amunre.planning.worth import Worth, position_of

EDITIONS = ("classic2003", "supermeeple2016")
#: A number of gold that moves any seat in a printed gold ranking (more than all the gold in play).
MANY = 500


def _view_mid_game(variant, seed: int, steps: int = 60):
    """A seat's view after `steps` decisions of random seats, a seat that does not lead the gold
    ranking (so more gold would move it up)."""
    game = Game(variant, 4, seed)
    agents = make_agents(["random"] * 4, seed)
    for _ in range(steps):
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    golds = [p.gold for p in game.state.players]
    seat = golds.index(min(golds))
    return game.view(seat)


def _ranking_points(variant, view, extra: int) -> float:
    """The gold ranking's points for the seat with `extra` gold more, by the module's own formula."""
    state = position_of(view)
    state.players[view.player].gold += extra
    ranking = variant.modules.final_scoring[-1]
    return sum(ranking.points_for(state, view.player).values())


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_gold_is_one_number_while_the_game_goes_on(edition):
    """While the game goes on, a change of gold is worth the thrift a gold, exactly: what the
    gold ranking would make of it on the present standings is not counted again, although
    here it would (the seat holds the least gold)."""
    variant = load_variant(edition)
    for seed in range(3):
        view = _view_mid_game(variant, seed)
        assert _ranking_points(variant, view, MANY) > _ranking_points(variant, view, 0)  # (the test can fail)
        worth = Worth(view, {}, 0.25, {})
        assert worth.points_of((("gold", None, MANY),)) == pytest.approx(MANY * 0.25)
        assert worth.gold_change(-7) == pytest.approx(-7 * 0.25)
        assert worth.gold_worth() == worth.thrift == 0.25


@pytest.mark.parametrize("edition", EDITIONS)
def test_at_the_final_scoring_a_gold_is_what_the_final_items_make_of_it(edition):
    """Once only the final scoring is left a gold buys nothing: a change of gold is worth what
    the gold ranking makes of it on the true standings, whatever thrift the worth was given."""
    variant = load_variant(edition)
    view = _view_mid_game(variant, 1)
    worth = Worth(view, {}, 0.25, {}, only_final_left=True)
    assert worth.thrift == 0.0
    gained = _ranking_points(variant, view, MANY) - _ranking_points(variant, view, 0)
    assert gained > 0
    assert worth.points_of((("gold", None, MANY),)) == pytest.approx(gained)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_planners_gold_is_what_it_buys_plus_what_the_ranking_makes_of_it(edition):
    """`PlannerAgent.gold_now`: what a gold buys (`buys_now`, read from the variant:
    tests/test_gold_from_variant.py) plus what the final items make of it on an even table,
    scaled by `early` over the game; a ranking that pays nothing leaves what it buys alone."""
    variant = load_variant(edition)
    flat = load_variant(edition, ("final_scoring.gold_ranking.params.points=[0, 0, 0]",))
    agent = make_agent("planner", 0, 0)
    view = Game(variant, 4, 0).view(0)
    first_round = agent.gold_now(view)
    end_part = agent.foresight * agent._final_gold(view)
    assert end_part > 0
    assert first_round == pytest.approx((agent.buys_now(view) + end_part) * (1 + agent.early / 2))
    nothing_at_the_end = make_agent("planner", 0, 0)
    flat_view = Game(flat, 4, 0).view(0)
    assert nothing_at_the_end.gold_now(flat_view) == pytest.approx(
        nothing_at_the_end.buys_now(flat_view) * (1 + agent.early / 2))


def test_buys_and_its_old_spelling_are_one_parameter():
    """`planner:gold=` still reads as `buys`; both at once is refused with a clear message."""
    assert make_agent("planner:gold=0.3", 0, 0).buys == make_agent("planner:buys=0.3", 0, 0).buys == 0.3
    with pytest.raises(ArgumentValueError, match="buys and gold are one parameter"):
        make_agent("planner:buys=0.3:gold=0.2", 0, 0)


@pytest.mark.parametrize("edition", EDITIONS)
def test_what_the_final_items_make_of_a_gold_kept_for_the_process_is_what_a_worth_works_out(edition):
    """`final_gold_of` keeps its value for the process (where every term a change of gold
    touches reads the gold alone), by the seat, the weights, the spread and the players' gold:
    for views whose seats and golds differ, at several spreads and weights, each value is the
    one a fresh `Worth` works out on that view, asked first or again; the kept values stay
    bounded."""
    from amunre.planning import worth

    variant = load_variant(edition)
    views = [_view_mid_game(variant, seed, steps) for seed in (1, 2) for steps in (0, 30, 60)]
    assert len({(view.player, tuple(gold for gold, _, _ in view.holdings())) for view in views}) > 1
    asked = [(view, weights, spread) for view in views for spread in (1, 2, 5) for weights in ({}, {"gold": 2.0})]
    fresh = [Worth(view, weights, 0.0, {}, True, spread=spread).final_gold() for view, weights, spread in asked]
    assert len(set(fresh)) > 1  # (the spread and the weights move it: a key without them would be seen)
    for _ in range(2):  # (the second time from what was kept)
        assert [worth.final_gold_of(view, weights, spread) for view, weights, spread in asked] == fresh
    assert len(worth._FINAL_GOLD[variant.modules]) <= worth._FINAL_GOLD_KEPT
