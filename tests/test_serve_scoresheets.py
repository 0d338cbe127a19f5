"""The score sheets a table's pages show (`amunre.serve.scoresheets`), for every variant file:
one per kingdom's scoring and one for the final scoring, whose points add up, item by item and
kingdom by kingdom, to the breakdown the game's result keeps, and whose running totals end at
the final scores; every item named in the variant's words (`Words.item_label`). And the last
move the pages show: the latest move chosen, whatever it is about, in words."""

from __future__ import annotations

import pytest
from conftest import variant_files

from amunre.agents import make_agents
from amunre.core.engine import Game
from amunre.core.words import Words, player_names
from amunre.loader import load_variant
from amunre.serve.lastmove import LastMove, move_words
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
        before = last.text
        game.answer(answer)
        decision = variant.modules.decisions.get(request.kind)
        if request.simultaneous:
            continue
        if len(request.options) == 1:  # (forced: not a move anyone chose)
            assert last.text == before
            continue
        # every move chosen is the latest, whatever it is about, said with what the decision was
        where = None if decision is None else decision.province_of(answer)
        provinces_answered += where is not None
        assert (last.seat, last.province) == (request.player, where)
        said = move_words(Words(variant, names), request.player, request.kind, answer)
        assert last.text == said and said.startswith(names[request.player]) and "play it" not in said
        if decision is not None and decision.title and answer is not None:
            assert decision.title.split(" ")[0] in said, said
    assert provinces_answered
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


def test_a_last_move_reads_as_words():
    """The moves the new player met: a farmer placed is named as such, not as a bare province
    ("white: Abu"), a card played is said without the button's "play it", and a card kept is
    not said to be played."""
    variant = load_variant(VARIANTS[0])
    words = Words(variant, player_names(3))
    farmer = next(kind for kind, d in variant.modules.decisions.items() if d.title == "placing a {farmer}")
    placed = move_words(words, 0, farmer, 0)
    assert placed == f"{words.who(0)}, placing a {variant.term('farmer')}: {words.province(0)}"
    architect = next(kind for kind, d in variant.modules.decisions.items() if d.title == "playing the {architect} card")
    played = move_words(words, 1, architect, 1)
    assert "play it" not in played and played.endswith(f" in {words.province(1)}"), played
    kept = move_words(words, 2, architect, None)
    assert kept.startswith(f"{words.who(2)} chose: ") and "playing" not in kept, kept
