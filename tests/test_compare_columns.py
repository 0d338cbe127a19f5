"""A batch's numbers kept column-wise (`amunre.compare.columns`): one collector keeps a batch's
games (`StatsCollector.keep`) and makes their rows at once (`columns`), each row a list over
the games. The property: each game's record read back from the columns is the record a fresh
collector makes of that game alone (`record`), though the batch's collector had learnt rows
in the games before it; and the rows a game has no value for are the ones the columns say
(`Columns.gaps`), which the tally trusts instead of looking for None.
"""

from __future__ import annotations

import pytest
from conftest import REPO

from amunre.agents import make_agents
from amunre.compare.collect import RANKS, StatsCollector
from amunre.compare.columns import Columns
from amunre.core.engine import Game, play_on
from amunre.loader import load_variant

#: A few games a variant: enough that rows come and go between games (a mean of no events).
SEEDS = range(5)
#: Variants with different rows: the two editions, and a house rule with an item of its own.
VARIANTS = ["classic2003", "supermeeple2016", str(REPO / "variants/house/new-kingdom-pyramids.toml")]


def _play(variant, seed: int, collector: StatsCollector) -> Game:
    collector.reset()
    game = Game(variant, 4, seed, [collector])
    play_on(game, make_agents(["random"] * 4, seed))
    return game


@pytest.mark.parametrize("name", VARIANTS)
def test_columns_give_back_each_games_record(name):
    variant = load_variant(name)
    batch = StatsCollector(variant)
    kept = [batch.keep(_play(variant, seed, batch)) for seed in SEEDS]
    assert all(RANKS in values for values in kept)
    columns = batch.columns()
    alone = []
    for seed in SEEDS:
        collector = StatsCollector(variant)
        alone.append(collector.record(_play(variant, seed, collector)))
    assert [columns.record(i) for i in range(len(SEEDS))] == alone
    # the rows the games do not all have, as the lists hold them; and some there are
    assert columns.gaps == {key for key, found in columns.rows.items() if None in found}
    assert columns.gaps
    assert all(len(found) == len(SEEDS) for found in columns.rows.values())
    # a row read with a number for the games that lack it: the same numbers (the re-scoring
    # reads its score rows so)
    missing = object()
    for key in ["winning_score", *sorted(columns.gaps)[:3], "no such row"]:
        assert columns.numbers(key, missing) == [record.get(key, missing) for record in alone]
    assert batch.columns().games == 0  # (the kept games are given once)


def test_columns_of_records_mark_the_rows_some_game_lacks():
    columns = Columns.of_records([{"a": 1, "b": 2.5}, {"a": 3}])
    assert columns.rows == {"a": [1, 3], "b": [2.5, None]}
    assert columns.gaps == {"b"}
    assert columns.record(1) == {"a": 3}
    assert columns.numbers("b", 0.0) == [2.5, 0.0]
    assert columns.numbers("a", 0.0) == [1, 3]
    assert columns.numbers("c", 0.0) == [0.0, 0.0]


def test_a_column_with_the_first_columns_numbers_has_its_moments():
    # (the tally reuses the first column's moments where a row's numbers are equal: a rule that
    # changes no play, often; a row that differs, or 1 for 1.0, is worked out as it is)
    from amunre.compare.stats import Moments
    from amunre.compare.tally import tally_batch

    first = {"winning_score": [50, 61, 47], "margin": [2.5, 0.0, 7.0], "rounds": [12, 12, 12]}
    second = {"winning_score": [50, 64, 47], "margin": [2.5, 0.0, 7.0], "rounds": [12.0, 12.0, 12.0]}
    rows = [{key: (key, "core", key) for key in first}] * 2
    games = [(seed, 0) for seed in range(3)]
    tally = tally_batch([Columns(3, dict(first)), Columns(3, dict(second))], rows, games, False)
    for c, column in enumerate((first, second)):
        assert tally.values[c] == {key: Moments.of(found) for key, found in column.items()}
    assert tally.values[1]["winning_score"] != tally.values[0]["winning_score"]
    assert tally.values[1]["margin"] is tally.values[0]["margin"]


def test_a_batch_of_no_game_tallies_to_nothing_and_merges_as_nothing():
    """A batch may hold no game (a run cut into batches, or a caller's count of 0): its columns
    have no row at all, and its tally adds nothing to a run's."""
    from amunre.compare.jobs import job_for, play_batch
    from amunre.compare.tally import merge

    variant = load_variant("classic2003")
    jobs = tuple(job_for(variant, (), 4, ["random"]) for _ in range(2))
    empty = play_batch(jobs, 0, 0, 0, keep_records=True)
    assert empty.games == 0
    some = play_batch(jobs, 0, 0, 2)
    merged = merge(play_batch(jobs, 0, 0, 2), empty)
    assert merged.games == some.games == 2
    assert merged == some
