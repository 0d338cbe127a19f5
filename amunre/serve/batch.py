"""A secret batch asked of all its seats at once: who is asked, each seat's own request.

The engine asks the seats of a secret batch (the offering's sealed offers, the expert
province draft: `ask_secretly`) one after another, and no request of the batch depends on
another seat's answer in it (the engine's privacy guarantee). So the table can ask them all
at once: `batch_asks` walks a copy of the game through the batch, each seat given a stand-in
answer, and keeps every seat's request with a game standing exactly where the engine will
ask it (a bot thinks on that game's view; the true game does not move until every answer is
in). The answers are then given to the true game in the engine's order
(`amunre.serve.table.Table`), and each request is checked again there.
"""

from __future__ import annotations

from amunre.core.decisions import Request, to_json_value


class Ask:
    """One seat's decision in a batch: the request, and a game standing where it is asked
    (its view is the one the seat would get; it never moves on)."""

    __slots__ = ("seat", "game", "request", "position")

    def __init__(self, seat: int, game, request: Request, position: int):
        self.seat, self.game, self.request, self.position = seat, game, request, position

    def view(self):
        return self.game.view(self.seat)


def sealed_count(game) -> int:
    """How many answers of the batch under way the game keeps sealed."""
    return len(game.answers_so_far()) - len(game.answers)


def batch_asks(game) -> list[Ask]:
    """Every decision still to be asked of the secret batch the game stands in, in the
    engine's order (the seats answering it; a seat with one option is answered by the engine
    and not asked); [] where the pending decision is not secret."""
    request = game.pending
    if request is None or not request.simultaneous:
        return []
    asks: list[Ask] = []
    walker = game.clone()
    while True:
        request = walker.pending
        asks.append(Ask(request.player, walker, request, len(asks)))
        going_on = walker.clone()
        sealed = sealed_count(going_on)
        going_on.answer(request.options[0])  # a stand-in: no later request of the batch depends on it
        after = going_on.pending
        # the batch ends where its answers are revealed (nothing sealed any more)
        if after is None or not after.simultaneous or sealed_count(going_on) <= sealed:
            return asks
        walker = going_on


def same_request(asked: Request, pending: Request | None) -> bool:
    """Whether the engine's request, once the earlier answers of the batch are given, is the
    one the seat was asked."""
    return (pending is not None and pending.player == asked.player and pending.kind == asked.kind
            and [to_json_value(o) for o in pending.options] == [to_json_value(o) for o in asked.options])
