"""The provinces a game lays out round by round: what two variants on the same seed share when
their province draws are aligned (`amunre.core.streams`; `benchmarks/aligned_draws.py`)."""

from __future__ import annotations

from amunre.agents import make_agents
from amunre.core.engine import Game


def province_layouts(variant, seed: int, players: int = 4, agent: str = "random") -> list[tuple]:
    """(kingdom, round, the provinces on auction in the order drawn) at each round of a game
    played by `agent` in every seat (the draws do not depend on the play)."""
    game = Game(variant, players, seed)
    agents = make_agents([agent] * players, seed)
    seen: list[tuple] = []
    while (request := game.pending) is not None:
        state = game.state
        on_auction = variant.modules.published(state, "on_auction", ())  # (as a module publishes it)
        if on_auction and (not seen or seen[-1][:2] != (state.kingdom, state.round)):
            seen.append((state.kingdom, state.round, tuple(on_auction)))
        game.answer(agents[request.player].choose(game.view(request.player), request))
    return seen
