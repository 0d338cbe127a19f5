"""What recording compare's per-game statistics costs over a bare playout.

    .venv/bin/python benchmarks/compare_overhead.py [GAMES] [REPEATS]

Plays the same seeded classic2003 games with random agents three ways, in turn, REPEATS
times: bare (no listener), with compare's statistics collector (`amunre.compare.collect`;
one for the run, reset before each game, each game's numbers kept and the run's rows made
once at its end, as `amunre.compare.jobs.play_batch` keeps one per column of a batch), and
with a listener that hears every event (what a log or a narration costs at least). Then the
same seeds played in two columns, classic2003 and a house rule of it whose bonus cards score
4 (`SECOND`: a scoring module that asks decisions changes, so each kingdom's scoring is
played again on the kept position, the costliest re-scoring): bare, and through
`amunre.compare.jobs.play_batch` (the statistics of both columns and, where the checkout has
them, the first column's games re-scored by the second's scoring and the two compared game
by game for identical games).
Prints the median CPU seconds of each and the ratios to bare (the pairs' to the bare pairs).
Run it on two checkouts in turn (PYTHONPATH) to measure before and after in one run.
"""

from __future__ import annotations

import statistics
import sys
import time

from amunre.agents import make_agents
from amunre.compare.collect import StatsCollector
from amunre.compare.jobs import game_seed, job_for, play_batch
from amunre.core.engine import Game, play_on
from amunre.loader import as_variant, load_variant


def play(variant, seeds, listener_for) -> float:
    start = time.process_time()
    listener = listener_for()  # one for the run, as a batch of compare keeps one per column
    for seed in seeds:
        if isinstance(listener, StatsCollector):
            listener.reset()
        heard = listener.listener if isinstance(listener, StatsCollector) else listener  # (as `play_batch` gives it)
        game = Game(variant, 4, seed, [heard] if heard else None)
        agents = make_agents(["random"] * 4, seed)
        while (request := game.pending) is not None:
            game.answer(agents[request.player].choose(game.view(request.player), request))
        if isinstance(listener, StatsCollector):
            listener.keep(game)
    if isinstance(listener, StatsCollector):
        listener.columns()  # (the run's rows, made once, as `play_batch` makes a batch's)
    return time.process_time() - start


#: The second column's change of classic2003.
SECOND = "scoring.bonus_cards.params.points=4"


def bare_pairs(variants, games: int) -> float:
    """Each seed of a compare run (seed 0) played bare in each of the two variants."""
    start = time.process_time()
    for index in range(games):
        seed = game_seed(0, index)
        for variant in variants:
            play_on(Game(variant, 4, seed), make_agents(["random"] * 4, seed))
    return time.process_time() - start


def compared_pairs(variants, games: int) -> float:
    """The same seeds in a two-column comparison of the two variants (one batch)."""
    jobs = tuple(job_for(variant, (), 4, ["random"]) for variant in variants)
    start = time.process_time()
    play_batch(jobs, 0, 0, games)
    return time.process_time() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    variant = load_variant("classic2003")
    pair = (variant, as_variant("classic2003", [SECOND]))
    seeds = range(games)
    ways = {"bare": lambda: None, "statistics": lambda: StatsCollector(variant),
            "every event": lambda: (lambda event: None)}
    times: dict[str, list[float]] = {name: [] for name in ways}
    pairs: dict[str, list[float]] = {"bare pairs": [], "two columns": []}
    for _ in range(repeats):
        for name, listener_for in ways.items():
            times[name].append(play(variant, seeds, listener_for))
        pairs["bare pairs"].append(bare_pairs(pair, games))
        pairs["two columns"].append(compared_pairs(pair, games))
    for group in (times, pairs):
        bare = statistics.median(next(iter(group.values())))
        for name, values in group.items():
            median = statistics.median(values)
            print(f"{name:>12}: {median:.3f} s CPU for {games} games (median of {repeats}), "
                  f"x{median / bare:.2f} of {next(iter(group))}")


if __name__ == "__main__":
    main()
