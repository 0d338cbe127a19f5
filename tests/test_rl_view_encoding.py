"""What an agent is handed is enough to encode its observation: `encode_view(layout, view,
request)` (amunre.rl.view_observation) equals `layout.encode(game, seat)` for every seat at
every decision of whole random games of every variant file the rule tests cover, in each of
their player counts; and it reads nothing but the view (a view's hidden facts redealt change
nothing).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the encoder needs the optional extra: pip install 'amunre[rl]'")
import numpy as np
from helpers import classic, covered_variant_files, variant_at, variant_label

from amunre.core.engine import Game
from amunre.rl.actions import action_space
from amunre.rl.history import RoundHistory
from amunre.rl.observation import ObservationLayout
from amunre.rl.view_observation import encode_view, layout_for


def check_whole_game(variant, players: int, seed: int, history: bool = False) -> int:
    """Play one random game, comparing the two encoders for every seat at every decision and
    at its end; returns how many decisions were compared."""
    layout = ObservationLayout(variant, players, action_space(variant), history=history)
    rounds = RoundHistory(players, len(variant.board)) if history else None
    game = Game(variant, players, seed, [rounds] if rounds is not None else [])
    rng = random.Random(seed)
    decisions = 0
    while True:
        for seat in range(players):
            expected = layout.encode(game, seat, rounds)
            got = encode_view(layout, game.view(seat), game.pending, rounds)
            if not np.array_equal(got, expected):
                wrong = [name for name, start, stop, _ in layout.sections
                         if not np.array_equal(got[start:stop], expected[start:stop])]
                raise AssertionError(f"{variant.id}, {players} players, seed {seed}, decision {decisions}, "
                                     f"seat {seat}: sections {wrong} differ")
        if game.pending is None:
            return decisions
        decisions += 1
        game.answer(rng.choice(game.pending.options))


@pytest.mark.parametrize("path", covered_variant_files(), ids=variant_label)
def test_view_encoding_equals_the_game_encoding_over_whole_games(path):
    variant = variant_at(path)
    for players in variant.players:
        assert check_whole_game(variant, players, seed=100 + players) > 0


def test_view_encoding_with_the_history_sections():
    variant = classic()
    assert check_whole_game(variant, 4, seed=7, history=True) > 0


def test_view_encoding_reads_only_the_view():
    """Another hand's cards and the draw pile's order redealt: the seat's vector is the same."""
    variant = classic()
    game = Game(variant, 4, 3)
    rng = random.Random(3)
    for _ in range(40):
        game.answer(rng.choice(game.pending.options))
    layout = layout_for(game.view(0))
    seat = game.pending.player
    before = encode_view(layout, game.view(seat), game.pending)
    redealt = game.determinize(seat, random.Random(99))
    assert not np.array_equal([p.hand for p in redealt.state.players], [p.hand for p in game.state.players]) \
        or redealt.state.deck != game.state.deck  # (something hidden did change)
    assert np.array_equal(encode_view(layout, redealt.view(seat), redealt.pending), before)


def test_layout_for_is_made_once_per_variant_and_player_count():
    game = Game(classic(), 3, 1)
    first = layout_for(game.view(0))
    assert layout_for(game.view(2)) is first
    assert (first.n, first.variant) == (3, game.variant)
    assert layout_for(game.view(0), history=True) is not first


def test_the_agent_in_docs_research_md_plays_whole_games():
    """docs/research.md's agent that reads the vector (its `encode_view` block) answers every
    decision of a game at every seat with a legal option."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text(encoding="utf-8")
    blocks = [block.split("```")[0] for block in doc.split("```python\n")[1:]]
    code = next(block for block in blocks if "encode_view" in block)
    names: dict = {}
    exec(compile(code, "docs/research.md", "exec"), names)
    policy = names["MyPolicy"]()
    game = Game(classic(), 4, 21)
    while game.pending is not None:
        request = game.pending
        game.answer(policy.choose(game.view(request.player), request))
    assert game.finished
