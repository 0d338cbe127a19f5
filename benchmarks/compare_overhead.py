"""What recording compare's per-game statistics costs over a bare playout.

    .venv/bin/python benchmarks/compare_overhead.py [GAMES] [REPEATS]

Plays the same seeded classic2003 games with random agents three ways, in turn, REPEATS
times: bare (no listener), with compare's statistics collector (`amunre.compare.collect`;
one for the run, reset before each game, as `amunre.compare.jobs.play_batch` keeps one per
column of a batch), and with a listener that hears every event (what a log or a narration
costs at least).
Prints the median CPU seconds of each and the ratios to bare.
"""

from __future__ import annotations

import statistics
import sys
import time

from amunre.agents import make_agents
from amunre.compare.collect import StatsCollector
from amunre.core.engine import Game
from amunre.loader import load_variant


def play(variant, seeds, listener_for) -> float:
    start = time.process_time()
    listener = listener_for()  # one for the run, as a batch of compare keeps one per column
    for seed in seeds:
        if isinstance(listener, StatsCollector):
            listener.reset()
        game = Game(variant, 4, seed, [listener] if listener else None)
        agents = make_agents(["random"] * 4, seed)
        while (request := game.pending) is not None:
            game.answer(agents[request.player].choose(game.view(request.player), request))
        if isinstance(listener, StatsCollector):
            listener.record(game)
    return time.process_time() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    variant = load_variant("classic2003")
    seeds = range(games)
    ways = {"bare": lambda: None, "statistics": lambda: StatsCollector(variant),
            "every event": lambda: (lambda event: None)}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats):
        for name, listener_for in ways.items():
            times[name].append(play(variant, seeds, listener_for))
    bare = statistics.median(times["bare"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:>12}: {median:.3f} s CPU for {games} games (median of {repeats}), x{median / bare:.2f} of bare")


if __name__ == "__main__":
    main()
