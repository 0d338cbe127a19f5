"""Agents answer the engine's decisions. An agent is any object with
`choose(view, request) -> option`: `view` is what its seat may know (`amunre.view.PlayerView`:
its own hand, the public board, other hands only by size), never the game state.
`make_agents` builds the built-in ones by name, each with its own generator derived from the
game seed, so agent randomness never touches the game's generator.
"""

from __future__ import annotations

import random
from typing import Protocol

from amunre.errors import AmunreError


class Agent(Protocol):
    def choose(self, view, request): ...


def agent_names() -> list[str]:
    return sorted(_FACTORIES)


def make_agent(name: str, seed: int, player: int):
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise AmunreError(f"unknown agent {name!r} (available: {', '.join(agent_names())})") from None
    return factory(random.Random(seed * 1009 + player * 7 + 1))


def make_agents(names: list[str], seed: int) -> list:
    return [make_agent(name, seed, i) for i, name in enumerate(names)]


def _random(rng):
    from amunre.agents.random_agent import RandomAgent
    return RandomAgent(rng)


def _greedy(rng):
    from amunre.agents.greedy import GreedyAgent
    return GreedyAgent(rng)


def _human(rng):
    from amunre.agents.human import HumanAgent
    return HumanAgent()


_FACTORIES = {"random": _random, "greedy": _greedy, "human": _human}
