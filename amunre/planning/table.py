"""A table for hypothetical positions: what a rule module's `run` or `start_kingdom` needs of a
game, for a position nobody watches (no events, no seat to ask, nothing revealed); and
`play_module`, a module played on one to its end."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from amunre.core.decisions import BATCH_START

if TYPE_CHECKING:
    from amunre.core.contract import Rule
    from amunre.core.model import Variant
    from amunre.core.state import GameState
    from amunre.core.view import PlayerView


class Table:
    """The game a module plays on a hypothetical `state` of `variant`: nobody hears it."""

    hearing: frozenset[str] = frozenset()

    def __init__(self, variant: Variant, state: GameState) -> None:
        self.variant, self.state = variant, state
        self.n_players = state.n_players

    def emit(self, _event: str, **data: object) -> None:
        pass

    def reveal(self) -> None:
        pass

    def view(self, player: int) -> PlayerView:
        from amunre.core.view import PlayerView

        # (a view of this table has no phase, nor a game to sample: it is not a `Game`)
        return PlayerView(self, player)  # type: ignore[arg-type]


#: No answer left (`play_module`).
_NONE = object()


def play_module(module: Rule, table: Table, declarations: Mapping[str, Any],
                answers: Iterator[object] | None = None) -> bool:
    """Run `module` on `table` to its end, nobody asked: a decision with one option takes it
    (as the engine answers it); any other takes the next of `answers` where that is one of its
    options, else its kind's first declared policy's answer (`declarations`: the variant's
    decisions), else its first option. Whether some decision was not answered from `answers`
    (always, without them). The planner plays a scoring on a position it imagines so; compare
    plays a game's scorings again on its kept positions with the game's own answers."""
    step = module.run(table)
    answer: object = None
    guessed = False
    try:
        while True:
            request = step.send(answer)
            if request is BATCH_START:
                answer = None
                continue
            # (a Request, past BATCH_START: the type checker cannot tell the two apart by `is`)
            if len(request.options) == 1:  # type: ignore[union-attr]  # (forced: no answer recorded)
                answer = request.options[0]  # type: ignore[union-attr]
                continue
            answer = _NONE if answers is None else next(answers, _NONE)
            if answer is _NONE or answer not in request.options:  # type: ignore[union-attr]
                guessed = True
                declared = declarations.get(request.kind)  # type: ignore[union-attr]
                policy = next(iter(declared.policies.values()), None) if declared is not None else None
                answer = policy(module, table, request) if policy is not None else request.options[0]  # type: ignore[union-attr]
    except StopIteration:
        pass
    return guessed
