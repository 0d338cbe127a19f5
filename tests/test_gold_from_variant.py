"""What a gold buys, read from the variant (`amunre.planning.even_table`): the whole-game
planner's gold follows what one more pyramid brings on an even table of the variant's own
items, so a house rule with other points gets another number with no code; `horizon=kingdom`
and a `buys` given keep theirs.
"""

from __future__ import annotations

import pytest

from amunre.agents import make_agent
from amunre.agents.planner import BUYS_PER_PYRAMID_POINT, DEFAULT_BUYS
from amunre.core.engine import Game
from amunre.loader import as_variant, load_variant
from amunre.planning.even_table import one_more_pyramid_points as pyramid_points


def _item_params(variant, rule_id: str):
    """The params of the variant's first scoring item played by rule `rule_id`."""
    return next(module.params for module in variant.modules.scoring if module.id == rule_id)


def _lone_province_share(variant) -> float:
    """The share of the even table's holdings in which the seat holds one province alone (one of
    a kingdom's rounds: the model counts holdings of 1 to rounds-per-kingdom provinces)."""
    return 1 / variant.edition.rounds_per_kingdom


@pytest.mark.parametrize("edition", ["classic2003", "supermeeple2016"])
def test_a_pyramid_brings_its_own_points_and_what_an_item_pays_on_a_lone_province(edition):
    """On the even table a pyramid more scores its own points (the pyramids item's `single`);
    the 2016 item of the fewest pyramids adds its points where the seat holds one province
    alone, the 2003 complete sets nothing (no set before the third province)."""
    variant = load_variant(edition)
    single = _item_params(variant, "pyramids").single
    fewest = [m.params.points for m in variant.modules.scoring if m.id == "fewest_pyramids"]
    expected = single + sum(fewest) * _lone_province_share(variant)
    assert pyramid_points(variant, 4) == pytest.approx(expected)
    assert pyramid_points(variant, 3) == pytest.approx(expected)


@pytest.mark.parametrize("change, item, param", [
    ("scoring.fewest_pyramids.params.points=6", "fewest_pyramids", "points"),
    ("scoring.pyramids.params.single=2", "pyramids", "single"),
])
def test_the_number_moves_with_the_variants_points(change, item, param):
    """A house rule with other points gets another number: the change of the item's points,
    read from the changed variant, times the share of the holdings in which it pays."""
    printed, changed = load_variant("supermeeple2016"), load_variant("supermeeple2016", (change,))
    moved = getattr(_item_params(changed, item), param) - getattr(_item_params(printed, item), param)
    assert moved != 0
    share = _lone_province_share(printed) if item == "fewest_pyramids" else 1.0
    assert pyramid_points(changed, 4) - pyramid_points(printed, 4) == pytest.approx(moved * share)


def test_a_second_pyramids_item_doubles_what_a_pyramid_brings():
    """monumental-pyramids (a second pyramids item in each scoring) makes a pyramid bring twice
    what it brings in classic2003, and the whole-game planner's gold buys twice as much."""
    classic, monumental = load_variant("classic2003"), load_variant("monumental-pyramids")
    assert pyramid_points(monumental, 4) == pytest.approx(2 * pyramid_points(classic, 4))
    agent = make_agent("planner", 0, 0)
    assert agent.buys_now(Game(monumental, 4, 0).view(0)) == pytest.approx(
        2 * agent.buys_now(Game(classic, 4, 0).view(0)))


@pytest.mark.parametrize("edition", ["classic2003", "supermeeple2016"])
def test_the_whole_game_planner_reads_what_a_gold_buys_and_the_others_keep_theirs(edition):
    """`horizon=game` without `buys`: `BUYS_PER_PYRAMID_POINT` times the variant's number (and
    so a gold's worth moves with it); `horizon=kingdom` keeps `DEFAULT_BUYS` (the planner of
    version 0.4.0); a `buys` given is used as given."""
    variant = load_variant(edition)
    view = Game(variant, 4, 0).view(0)
    whole_game = make_agent("planner", 0, 0)
    assert whole_game.buys_now(view) == pytest.approx(BUYS_PER_PYRAMID_POINT * pyramid_points(variant, 4))
    assert make_agent("planner:horizon=kingdom", 0, 0).buys_now(view) == DEFAULT_BUYS
    assert make_agent("planner:buys=0.3", 0, 0).buys_now(view) == 0.3
    kingdom = make_agent("planner:horizon=kingdom", 0, 0)
    moved = whole_game.buys_now(view) - kingdom.buys_now(view)
    gold_moved = whole_game.gold_now(view) - kingdom.gold_now(view)
    assert gold_moved == pytest.approx(moved * (1 + whole_game.early / 2))


def test_the_printed_editions_get_different_numbers():
    """The 2016 item of the fewest pays for a pyramid on a lone province, the 2003 sets do not:
    a gold buys more to the whole-game planner in supermeeple2016."""
    assert pyramid_points(load_variant("supermeeple2016"), 4) > pyramid_points(load_variant("classic2003"), 4)


@pytest.mark.parametrize("kingdoms", [["Old Kingdom", "New Kingdom"], ["Old Kingdom", "Middle Kingdom", "New Kingdom"]])
def test_each_kingdom_counts_once_in_the_average(kingdoms):
    """new-kingdom-pyramids scores pyramids twice in its last kingdom only: a pyramid brings its
    point in every kingdom and the second item's in one kingdom of all, however many there are
    (kingdoms scored alike count as often as they are played)."""
    override = "edition.kingdoms=[" + ",".join(f'"{name}"' for name in kingdoms) + "]"
    variant = as_variant("new-kingdom-pyramids", [override])
    single = _item_params(variant, "pyramids").single
    scorings = [[module.id for module in variant.modules.scoring_in(k)].count("pyramids") for k in range(len(kingdoms))]
    assert scorings[-1] == 2 and sum(scorings) == len(kingdoms) + 1
    assert pyramid_points(variant, 4) == pytest.approx(single * sum(scorings) / len(kingdoms))


@pytest.mark.parametrize("edition", ["classic2003", "supermeeple2016"])
def test_a_contest_that_needs_more_pyramids_to_start_does_not_count_as_won(edition):
    """With a Nile side needing two pyramids (`nile_min_pyramids` 2), one pyramid more on a table
    of one pyramid a province would win every side outright: the least over the table's densities
    reads the contest under way, where it pays the seat nothing more, so the number stays the
    printed edition's."""
    printed = load_variant(edition)
    threshold = as_variant(edition, ["rulings.nile_min_pyramids=2"])
    for players in printed.edition.players:
        assert pyramid_points(threshold, players) == pytest.approx(pyramid_points(printed, players))


def test_classic2003_keeps_its_number_at_every_table():
    """The one constant is classic2003's old `buys`: its whole-game planner's gold buys exactly
    `DEFAULT_BUYS` at every player count it allows (so its games are those before the model)."""
    variant = load_variant("classic2003")
    for players in variant.edition.players:
        assert make_agent("planner", 0, 0).buys_now(Game(variant, players, 0).view(0)) == DEFAULT_BUYS
