"""The planner's horizon past the kingdom (`amunre.planning.horizon`): what a later kingdom's
items make of a change follows the model whichever way it is worked out.
"""

from __future__ import annotations

import pytest

from amunre.agents import make_agents
from amunre.core.engine import Game
from amunre.loader import load_variant
from amunre.planning.worth import Worth


def _view_holding_a_province(variant, seed: int):
    """The view of the seat to answer at the first decision of the first kingdom at which it
    holds a province (planners in every seat)."""
    game = Game(variant, 4, seed)
    agents = make_agents(["planner"] * 4, seed)
    while not game.view(game.pending.player).me.provinces:
        assert game.state.kingdom == 0, "no seat held a province in the first kingdom"
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    return game.view(game.pending.player)


@pytest.mark.parametrize("variant_id", ["classic2003", "supermeeple2016"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_later_kingdoms_worth_is_a_straight_line_in_regain(variant_id, seed):
    """A later kingdom counts what the seat gets holding what it keeps plus `regain` of what
    holding every province that went back adds: a straight line in `regain`. At 1 (the
    planner's default) it is read on a projection kept with those provinces held, at 0 and 0.5
    by holding them in turn; the three lie on one line (worth(1) = 2 worth(0.5) - worth(0)),
    for a pyramid, stones and a card of each kind, and the later kingdoms move the pyramid's
    worth (else the line would hold for nothing)."""
    variant = load_variant(variant_id)
    view = _view_holding_a_province(variant, seed)
    pid = view.me.provinces[0]

    def worths(regain: float | None, later: float = 1.0) -> list[float]:
        worth = Worth(view, {}, 0.22, {}, later=later, regain=regain)
        return ([worth.pyramids(pid), worth.stones(pid, 3), worth.stones(pid, 1)]
                + [worth.points_of_one("cards", kind, 1) for kind in range(len(variant.cards))])

    none, half, every = worths(0.0), worths(0.5), worths(1.0)
    assert every == pytest.approx([2 * h - n for h, n in zip(half, none)])
    assert every[0] != worths(1.0, later=0.0)[0], "the later kingdoms add to a pyramid's worth"
