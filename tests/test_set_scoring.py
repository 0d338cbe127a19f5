"""R-SCO-03: the two set-scoring rule modules side by side.

classic2003 scores `complete_sets` (3 points per complete set: one pyramid in each of the
player's provinces, and no set at all below 3 provinces); the 2016 edition scores
`fewest_pyramids` (3 points per pyramid in his province with the fewest). A double counts
as two pyramids in both. With exactly 3 provinces per player, as in every shipped game, the
two agree (EDITIONS.md D39); a player holding fewer provinces (a house rule with shorter
kingdoms, or a position set up by hand) is where they part.

Each position is scored by each variant's own scoring pipeline (`score_position`), so the
modules run with the parameters their variant files give them.
"""

import pytest
from helpers import classic, edition2016, seated, seats, state_of, step_params, variant_at, variant_files_using
from hypothesis import given
from hypothesis import strategies as st

from amunre.planning.position import score_position

#: Position supplies large enough for any generated board (the check of a position against
#: the finite supply would otherwise refuse positions with more than 15 singles or stones).
SUPPLIES = {"pyramids": 0, "doubles": 0, "stones": 0}


def _item(variant, players, key):
    """The points of one scoring item, per player, when `variant` scores the position (in the
    first kingdom whose end scores the item: an entry may score only in some, `kingdoms`)."""
    variant = seated(variant, len(players))
    state = state_of(players, variant, supplies=SUPPLIES)
    scoring_in = variant.modules.scoring_in
    state.kingdom = next((k for k in range(len(variant.edition.kingdoms))
                          if any(m.item_key == key for m in scoring_in(k))), state.kingdom)
    sheet = score_position(variant, state)
    return list(next(item for item in sheet.items if item.key == key).points)


def _sets_and_fewest(players):
    return _item(classic(), players, "complete_sets"), _item(edition2016(), players, "fewest_pyramids")


def _count(province: dict) -> int:
    return province.get("pyramids", 0) + 2 * province.get("doubles", 0)


@st.composite
def positions(draw, held, players=(3, 4, 5)):
    """A position of 3-5 players (or the counts given); `held(n)` draws how many provinces each
    player holds. Each province gets 0-2 singles and 0-2 doubles (and some stones, which never
    count)."""
    n = draw(st.sampled_from(players))
    counts = draw(held(n))
    names = draw(st.permutations([p.name for p in classic().board.provinces]))
    players = seats(n)
    taken = 0
    for p, k in enumerate(counts):
        players[p]["provinces"] = {
            names[taken + i]: {"pyramids": draw(st.integers(0, 2)), "doubles": draw(st.integers(0, 2)),
                               "stones": draw(st.integers(0, 2))}
            for i in range(k)}
        taken += k
    return players


def _three_each(n):
    return st.just([3] * n)


@given(players=positions(_three_each))
def test_r_sco_03_complete_sets_and_fewest_pyramids_agree_with_three_provinces_each(players):
    """Whenever every player holds exactly 3 provinces, any mix of singles and doubles, the
    2003 and 2016 items give every player the same points: 3 x his weakest province."""
    sets, fewest = _sets_and_fewest(players)
    assert sets == fewest
    assert fewest == [3 * min(_count(v) for v in p["provinces"].values()) for p in players]


def _someone_short(n):
    """At least one player with 1 or 2 provinces, the others with 1-3 (15 provinces suffice)."""
    return st.lists(st.integers(1, 3), min_size=n, max_size=n).filter(lambda held: min(held) < 3)


@given(players=positions(_someone_short), data=st.data())
def test_r_sco_03_complete_sets_and_fewest_pyramids_differ_below_three_provinces(players, data):
    """A generated position where they differ: a player with fewer than 3 provinces has no
    complete set (0 in 2003), yet in 2016 his weakest province still scores when every
    province he holds has a pyramid."""
    short = data.draw(st.sampled_from([p for p, entry in enumerate(players) if len(entry["provinces"]) < 3]))
    for province in players[short]["provinces"].values():
        province["pyramids"] = max(province["pyramids"], 1)  # each of his provinces has one
    sets, fewest = _sets_and_fewest(players)
    assert sets[short] == 0
    assert fewest[short] == 3 * min(_count(v) for v in players[short]["provinces"].values()) >= 3
    assert sets != fewest
    # players with 3 provinces still agree
    for p, entry in enumerate(players):
        if len(entry["provinces"]) == 3:
            assert sets[p] == fewest[p]


def test_r_sco_03_differ_example():
    """Red holds MEMPHIS (1 single) and THEBES (1 double) only: no complete set in 2003,
    3 x 1 for his weakest province in 2016."""
    players = seats(3)
    players[0]["provinces"] = {"Memphis": {"pyramids": 1}, "Thebes": {"doubles": 1}}
    assert _sets_and_fewest(players) == ([0, 0, 0], [3, 0, 0])


@pytest.mark.parametrize("variant_file", variant_files_using("complete_sets", printed=("complete_sets",)))
@given(players=positions(lambda n: st.just([4] * n), players=(3,)))
def test_r_sco_03_with_four_provinces_a_set_needs_a_pyramid_in_all_four(variant_file, players):
    """Players holding 4 provinces (the house rule of four rounds per kingdom; 3 players
    then, since the board has 15): every variant file using `complete_sets` reads a set as
    one pyramid in each province the player holds, so it is the weakest of the four, as for
    `fewest_pyramids`: the two still agree (each at its own points: 3 in both editions)."""
    variant = variant_at(variant_file)
    per_set = step_params(variant, "complete_sets").points
    sets = _item(variant, players, "complete_sets")
    assert [points // 3 * per_set for points in _item(edition2016(), players, "fewest_pyramids")] == sets
    assert sets == [per_set * min(_count(v) for v in p["provinces"].values()) for p in players]


@pytest.mark.parametrize("counts,weakest", [((2, 2, 3), 2), ((1, 0, 5), 0), ((4, 4, 4), 4), ((1, 1, 1), 1)],
                         ids=["2-2-3", "1-0-5", "4-4-4", "1-1-1"])
@pytest.mark.parametrize("variant_file", variant_files_using("fewest_pyramids"))
def test_r_sco_03_points_per_pyramid_in_the_weakest_province(variant_file, counts, weakest):
    """The 2016 wording, in every variant file that uses it: the variant's points (3 in the
    2016 edition) per pyramid of the weakest province; a province without a pyramid scores
    nothing, however many the others hold."""
    variant = variant_at(variant_file)
    points = weakest * step_params(variant, "fewest_pyramids").points
    players = seats(3)
    players[0]["provinces"] = {
        name: {"doubles": c // 2, "pyramids": c % 2} for name, c in zip(("Memphis", "Thebes", "Abu"), counts)}
    assert _item(variant, players, "fewest_pyramids") == [points, 0, 0]
