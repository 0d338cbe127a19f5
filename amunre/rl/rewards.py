"""The rewards of a finished game, by seat, shared by the environments (PettingZoo, Gymnasium)
and the OpenSpiel game.

- "win": each of the k winners (R-GAME-06, ties that stand share the victory) gets 1/k and
  every other player 0, so a game's rewards sum to 1;
- "score": each player gets his final points minus the mean of the other players' points (a
  zero-sum difference).
"""

from __future__ import annotations

#: The kinds of reward, the default first.
REWARDS = ("win", "score")


def final_rewards(state, kind: str) -> list[float]:
    """The reward of each seat (by seat number) of a finished game's `state` (module docstring)."""
    if kind == "win":
        winners = state.winners
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(state.players))]
    scores = [p.score for p in state.players]
    total, others = sum(scores), max(1, len(scores) - 1)
    return [float(score - (total - score) / others) for score in scores]
