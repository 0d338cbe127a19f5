"""Rule `temples` (R-SCO-01): at a kingdom's scoring each temple in an own province scores
the offering level."""

from __future__ import annotations

from amunre.boardtext import temples_text
from amunre.contract import Event, NoParams, Rule
from amunre.mechanics import add_points
from amunre.registry import register


def _temples_line(e, w) -> str:
    return (f"  {w.who(e['player'])} scores {w.count(e['points'], 'points')} for {w.item_label(e['item'])}: "
            f"{temples_text(e['temples'], e['level'], w)}; {w.total(e['total'])}.")


@register
class Temples(Rule):
    id = "temples"
    kind = "scoring"
    reads = frozenset({"provinces", "offering_level"})  # what `points_for`/`income_for` read
    summary = "Each temple in an own province scores the offering level."
    spec_ids = ("R-SCO-01",)
    Params = NoParams
    events = {
        "temple_points": Event("A player's temples ([province, temples], his own provinces that have some) "
                               "score the offering `level` each (`points`, and his `total`); a player without "
                               "a temple has no line.", _temples_line),
    }
    terms = {"temple": "temple", "temples": "temples"}

    def points_for(self, state, player: int) -> dict[str, float]:
        board = self.variant.board.provinces
        return {self.item_key: sum(board[i].temples for i in state.players[player].provinces) * state.offering_level}

    def run(self, game):
        state = game.state
        board = game.variant.board.provinces
        for p in state.turn_order():
            owned = state.players[p].provinces
            temples = sum(board[i].temples for i in owned)
            told = "temple_points" in game.hearing
            add_points(game, p, self.item_key, self.points_for(state, p)[self.item_key], told=told)
            if "temple_points" in game.hearing and temples:
                game.emit("temple_points", player=p, item=self.item_key, level=state.offering_level,
                          temples=[[i, board[i].temples] for i in owned if board[i].temples],
                          points=temples * state.offering_level, total=state.players[p].score)
        return
        yield
