"""Whole games of the 2003 edition for 3, 4 and 5 players over many seeds.

Each game is played under the conformance checker (`amunre.testing`): it must end, every
player must hold exactly 3 provinces at each scoring, no gold, card or piece is created or
lost, the same seed gives the identical log, and the logged game replays to the same result.
The counts grow in the deep run (`AMUNRE_DEEP=1`, the hypothesis profile `deep`).
"""

from __future__ import annotations

import json

import pytest
from conftest import VARIANTS_DIR
from hypothesis import settings

from amunre.testing import check_variant, load

CLASSIC = VARIANTS_DIR / "classic2003.toml"
SCALE = max(1, settings.default.max_examples // 25)
# Per player count (the deep profile: 40 times as many). Every assertion below holds of each game on
# its own, so the quick profile needs only enough seeds to vary the deals, the start player and the
# agents' draws: 10 random and 3 greedy games a count (was 15 and 5), besides the 4 random and 2 greedy
# games a count that tests/test_conformance.py plays of classic2003 under the same checker.
GAMES = {"random": 10 * SCALE, "greedy": 3 * SCALE}


@pytest.fixture(scope="module")
def classic():
    return load(CLASSIC)


@pytest.mark.parametrize("agent", sorted(GAMES))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_games(classic, players, agent):
    assert classic.edition.rounds_per_kingdom == 3
    games = GAMES[agent]
    logs = []

    def collect(record):
        assert record.game.pending is None and record.game.state.finished
        lines = [json.loads(line) for line in record.log.splitlines()]
        assert lines[0]["type"] == "header" and lines[-1]["type"] == "result"
        assert lines[0]["players"] == players and lines[0]["seed"] == record.seed
        # 3 provinces each at both scorings, seen from the log's own events
        scorings = [i for i, line in enumerate(lines) if line.get("event") == "scoring"]
        assert len(scorings) == 2
        acquired = [line["player"] for line in lines if line.get("event") == "acquire"]
        assert sorted(acquired) == sorted(list(range(players)) * 6)
        logs.append(record.log)

    report = check_variant(classic, seeds=range(1000, 1000 + games), agents=(agent,), players=[players],
                           on_progress=collect)
    assert report.games == games == len(logs)
    assert report.scorings == 2 * games
    # the seeds really matter: different seeds give different games
    assert len(set(logs)) == games
