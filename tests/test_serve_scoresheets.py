"""The score sheets a table's pages show (`amunre.serve.scoresheets`), for every variant file:
one per kingdom's scoring and one for the final scoring, whose points add up, item by item and
kingdom by kingdom, to the breakdown the game's result keeps, and whose running totals end at
the final scores; every item named in the variant's words (`Words.item_label`)."""

from __future__ import annotations

import pytest
from conftest import variant_files

from amunre.agents import make_agents
from amunre.core.engine import Game
from amunre.core.words import Words, player_names
from amunre.loader import load_variant
from amunre.serve.lastmove import LastMove
from amunre.serve.scoresheets import ScoreSheets

VARIANTS = variant_files()


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
def test_the_sheets_add_up_to_the_games_breakdown(path):
    variant = load_variant(path)
    n = min(variant.players)
    names = player_names(n)
    sheets, last = ScoreSheets(variant, names), LastMove(variant, names)
    game = Game(variant, n, 4, [sheets, last])
    agents = make_agents(["random"] * n, 4)
    provinces_answered = 0
    while game.pending is not None:
        request = game.pending
        answer = agents[request.player].choose(game.view(request.player), request)
        game.answer(answer)
        decision = variant.modules.decisions.get(request.kind)
        if not request.simultaneous and decision is not None and decision.province_of(answer) is not None:
            provinces_answered += 1
            assert (last.seat, last.province) == (request.player, decision.province_of(answer))
    assert provinces_answered and last.text.startswith(names[last.seat] + ": ")
    kept = sheets.sheets
    assert len(kept) == len(variant.edition.kingdoms) + 1  # (each kingdom's, and the final scoring's)
    words = Words(variant, names)
    added: list[dict] = [{} for _ in range(n)]
    for sheet in kept:
        for item in sheet["items"]:
            assert item["name"] == words.item_label(item["key"])
            for player, points in enumerate(item["points"]):
                key = f"{sheet['kingdom']}:{item['key']}"
                added[player][key] = added[player].get(key, 0) + points
        assert sheet["totals"] == [sum(item["points"][p] for item in sheet["items"]) for p in range(n)]
    nonzero = [{key: value for key, value in mine.items() if value} for mine in added]
    assert nonzero == [{key: value for key, value in p.breakdown.items() if value} for p in game.state.players]
    assert kept[-1]["running"] == [p.score for p in game.state.players]
