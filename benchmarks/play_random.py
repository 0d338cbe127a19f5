"""Play seeded classic2003 games with random agents and print CPU-time rates.

    .venv/bin/python benchmarks/play_random.py [GAMES] [AGENT]

Used to compare two checkouts in one run (each on its own PYTHONPATH), e.g. with an outside
timer running both in turn; `amunre bench` gives the same figure for the installed copy.
"""

from __future__ import annotations

import sys
import time

from amunre.agents import make_agents

try:
    from amunre.core.engine import play_game
except ImportError:  # a checkout from before the layers
    from amunre.engine import play_game

try:
    from amunre.loader import load_variant
except ImportError:  # a checkout from before the loader package
    from amunre.variants import load_variant


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    agent = sys.argv[2] if len(sys.argv) > 2 else "random"
    variant = load_variant("classic2003")
    # one game first, not timed: the modules a game imports on first use (the agents', the
    # rules') are loaded then, as `amunre bench` warms up, so that a rate is a game's cost alone
    play_game(variant, make_agents([agent] * 4, games), games)
    decisions = 0
    start = time.process_time()
    for seed in range(games):
        decisions += len(play_game(variant, make_agents([agent] * 4, seed), seed).answers)
    cpu = time.process_time() - start
    print(f"{games / cpu:.1f} games per CPU second, {decisions / cpu:.0f} decisions per CPU second")


if __name__ == "__main__":
    main()
