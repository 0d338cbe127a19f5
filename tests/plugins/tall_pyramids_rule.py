"""A plug-in scoring module that replaces the built-in `pyramids`: a test fixture.

`tall_pyramids` scores `per` points per pyramid in a player's own provinces, a double
counting two. A designer's variant that scores pyramids through it (tests/plugins/tall.toml)
has no `pyramids` entry: the tests shared by every variant must derive what they check from
the variant's own rules (tests/test_narration.py).
"""

from __future__ import annotations

import attrs

from amunre.core.contract import Event, Rule, takes
from amunre.core.fields import bounded, doc
from amunre.core.mechanics import score_each


@attrs.frozen
class TallParams:
    per: int = doc("Points per pyramid in own provinces, a double counting two.", default=2,
                   validator=bounded(0, 100))


class TallPyramids(Rule):
    id = "tall_pyramids"
    kind = "scoring"
    summary = "Points per pyramid in own provinces, a double counting two (a test plug-in)."
    params = takes(TallParams)
    events = {"tall_pyramid_points": Event("A player's pyramids score (`points`, and his `total`).",
                                           lambda e, w: w.scored(e, "his pyramids"))}

    def run(self, game):
        state = game.state

        def score(p, heard):
            provinces = state.provinces
            count = sum(provinces[i].pyramids + 2 * provinces[i].doubles for i in state.players[p].provinces)
            return self.params.per * count, ({} if heard else None)

        score_each(game, self.item_key, "tall_pyramid_points", score)
        return
        yield
