"""Playing a game out with agents whose failures are theirs: `play_reporting`, what `amunre
arena` and `amunre compare` play every game with.

`amunre.core.engine.play_on` lets whatever an agent raises go through, as any bug. An agent of
one's own (`amunre.agents.own`, an installed package's) is not amunre's code: when it raises
in `choose`, or answers something that is not one of the request's options, the game stops
with an `AgentError` that names the agent's spec, its seat, the decision (its number in the
game, kind, kingdom and round), the game's seed and lineup, and where in the agent's own code
it failed. A built-in agent's exception stays what it is: a bug of amunre, with its traceback.
"""

from __future__ import annotations

from collections.abc import Sequence

from amunre.agents import is_builtin
from amunre.core.engine import play_on
from amunre.core.errors import AgentError, IllegalAnswerError


def builtin_lineup(specs: Sequence[str]) -> bool:
    """Whether every spec is a built-in agent's (`play_reporting` then plays by `play_on`)."""
    return all(map(is_builtin, specs))


def play_reporting(game, agents: Sequence, specs: Sequence[str], builtin: bool | None = None) -> None:
    """Answer `game` with `agents` (seat by seat; `specs` their specs) until it is over, as
    `play_on` does; an own agent's failure is an AgentError (module docstring). `builtin`:
    `builtin_lineup(specs)` where the caller knows it already (a batch of games, one lineup)."""
    if builtin is None:
        builtin = builtin_lineup(specs)
    if builtin:  # a built-in agent's failure is amunre's bug, raised as it is
        play_on(game, agents)
        return
    seats = [(agent.choose, game.view(p)) for p, agent in enumerate(agents)]
    answer = game.answer
    request = game.pending
    # (nothing is counted per decision: the decision's number is worked out on a failure, from
    # the answers given since this start; a `try` costs nothing until something is raised)
    start = len(game.answers_so_far())
    while request is not None:
        choose, view = seats[request.player]
        try:
            choice = choose(view, request)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the agent's failure, or a built-in agent's bug raised again
            if is_builtin(specs[request.player]):
                raise
            raise AgentError(_where(game, request, specs, _answered(game, start)) + f" raised {_failure(exc)}") \
                from None
        try:
            answer(choice)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # an own agent's illegal answer, or raised again
            if (is_builtin(specs[request.player]) or not isinstance(exc, IllegalAnswerError)
                    or game.pending is not request):
                raise
            raise AgentError(_where(game, request, specs, _answered(game, start)) + f" answered {_shown(choice)}, "
                             f"which is not one of the {len(request.options)} options of {request.kind!r} "
                             f"(expected one of request.options, e.g. {_shown(request.options[0])})") from None
        request = game.pending


def _answered(game, start: int) -> int:
    """How many decisions the agents answered since `start` (the answers given then, sealed ones
    included): each answer adds one, and an illegal one none."""
    return len(game.answers_so_far()) - start


def _where(game, request, specs: Sequence[str], decision: int) -> str:
    seat = request.player
    state = game.state
    return (f"agent {specs[seat]!r} in seat {seat} (of {len(specs)}), at decision {decision + 1} of "
            f"the game ({request.kind!r}, kingdom {state.kingdom + 1}, round {state.round + 1}; the game of "
            f"`amunre run --seed {state.seed} --agents {','.join(specs)}` with the same --variant and --set),")


def _failure(exc: BaseException) -> str:
    from amunre.agents.own import failure

    return failure(exc)


def _shown(value) -> str:
    try:
        return repr(value)[:80]
    except Exception:  # noqa: BLE001 - an agent's object whose __repr__ raises
        return f"a {type(value).__name__} that cannot be shown"
