"""Named random streams (amunre.core.streams): each source of chance draws on its own, so what one
rule draws never shifts what another draws, and variants that share a component share its draws."""

from __future__ import annotations

import pytest

from amunre.core.engine import Game
from amunre.core.streams import STREAMS, draw_seed
from amunre.loader import load_variant
from amunre.testing.layouts import province_layouts


def layouts(variant, seed: int) -> list[tuple]:
    return province_layouts(variant, seed)


def test_two_editions_lay_out_the_same_provinces_on_the_same_seed():
    """classic2003 and supermeeple2016 shuffle card decks of different sizes, and 2016 draws its
    first kingdom from three cards per player: the provinces of every round are the same."""
    classic, meeple = load_variant("classic2003"), load_variant("supermeeple2016")
    for seed in range(12):
        assert layouts(classic, seed) == layouts(meeple, seed), seed


def test_one_more_card_in_the_deck_leaves_the_provinces_and_the_start_player_alone():
    base = load_variant("classic2003")
    kind = next(iter(base.components.deck))
    more = load_variant("classic2003", [f"components.deck.{kind}={base.components.deck[kind] + 1}"])
    for seed in range(12):
        assert Game(base, 4, seed).state.start_player == Game(more, 4, seed).state.start_player
        assert layouts(base, seed) == layouts(more, seed), seed
    assert any(Game(base, 4, s).state.deck != Game(more, 4, s).state.deck[:len(Game(base, 4, s).state.deck)]
               for s in range(12))  # the card deck itself is another


def test_a_draw_from_a_plug_ins_stream_shifts_no_other_stream():
    game = Game(load_variant("classic2003"), 4, 7)
    twin = game.clone()
    twin.state.random("my_plugin.tiles").random()
    for name in STREAMS:
        assert game.state.copy().random(name).random() == twin.state.copy().random(name).random()


def test_each_draw_of_each_stream_has_its_own_seed():
    seeds = {draw_seed(s, name, n) for s in range(5) for name in (*STREAMS, "x") for n in range(4)}
    assert len(seeds) == 5 * (len(STREAMS) + 1) * 4


@pytest.mark.parametrize("seed", [0, 1])
def test_a_copy_draws_what_the_original_would(seed):
    state = Game(load_variant("classic2003"), 4, seed).state
    twin = state.copy()
    assert [state.random("cards").random() for _ in range(3)] == [twin.random("cards").random() for _ in range(3)]
