"""Rule `temples` (R-SCO-01): at a kingdom's scoring each temple in an own province scores
the offering level."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.core.boardtext import temples_text
from amunre.core.contract import Event, NoParams, Rule
from amunre.core.facets import ValuationFacet, WordsFacet
from amunre.core.mechanics import score_each
from amunre.core.registry import register

if TYPE_CHECKING:
    from amunre.core.contract import GameLike
    from amunre.core.decisions import Steps
    from amunre.core.state import GameState
    from amunre.core.words import Words


def _temples_line(e: dict[str, Any], w: Words) -> str:
    return w.scored(e, temples_text(e['temples'], e['level'], w))


#: The published value it reads (`Rule.reads_published`): the offering level, by its name.
LEVEL = "offering_level"


@register
class Temples(Rule, WordsFacet, ValuationFacet):
    id = "temples"
    kind = "scoring"
    reads = frozenset({"provinces", "offering_level"})  # what `points_for`/`income_for` read
    # the offering level (the offering module's): the points per temple; 0 in a variant without one
    reads_published = {LEVEL: 0}
    summary = "Each temple in an own province scores the offering level."
    spec_ids = ("R-SCO-01",)
    Params = NoParams
    events = {
        "temple_points": Event("A player's temples ([province, temples], his own provinces that have some) "
                               "score the offering `level` each (`points`, and his `total`); a player without "
                               "a temple has no line.", _temples_line),
    }
    terms = {"temple": "temple", "temples": "temples"}

    def points_for(self, state: GameState, player: int) -> dict[str, int]:
        board = self.variant.board.provinces
        key = self.published_at.get(LEVEL)
        level = state.rules[key][LEVEL] if key is not None else 0
        # (a list summed, not a generator: the planner asks this for every holding it values)
        return {self.item_key: sum([board[i].temples for i in state.players[player].provinces]) * level}

    def run(self, game: GameLike) -> Steps[None]:
        state = game.state
        board = game.variant.board.provinces

        def score(p: int, heard: bool) -> tuple[int, dict[str, Any] | None]:
            temples = [[i, board[i].temples] for i in state.players[p].provinces if board[i].temples]
            # a player without a temple has no line of his own
            level = self.published(state, LEVEL)
            return self.points_for(state, p)[self.item_key], {"level": level, "temples": temples} \
                if heard and temples else None

        score_each(game, self.item_key, "temple_points", score)
        return
        yield
