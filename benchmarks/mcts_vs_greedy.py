"""One `mcts` seat against `greedy` seats: win rate with its 95% interval, and the CPU time
per searched decision (the issue 11 target: an interval above the equal share, at most
0.5 s a decision on one core).

    .venv/bin/python benchmarks/mcts_vs_greedy.py [--games 200] [--spec mcts:iterations=60]
        [--variant classic2003] [--players 4] [--workers 2] [--seed 0]

Game i puts the mcts seat at seat i mod players (seats rotated) and is seeded from the
run's seed like `amunre compare`'s games; each game's CPU time per mcts decision is
measured in the worker that plays it (`time.process_time`, so other processes on a busy
machine do not count). Prints one line per finished game, then the summary.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


def play(variant_id: str, players: int, spec: str, run_seed: int, index: int) -> dict:
    from amunre.agents import make_agents
    from amunre.compare.jobs import game_seed
    from amunre.core.engine import Game
    from amunre.loader import load_variant

    seed = game_seed(run_seed, index)
    seat = index % players
    lineup = ["greedy"] * players
    lineup[seat] = spec
    agents = make_agents(lineup, seed)
    game = Game(load_variant(variant_id), players, seed)
    times = []
    while game.pending is not None:
        request = game.pending
        start = time.process_time()
        choice = agents[request.player].choose(game.view(request.player), request)
        if request.player == seat:
            times.append(time.process_time() - start)
        game.answer(choice)
    winners = game.state.winners
    return {"index": index, "seat": seat, "share": 1 / len(winners) if seat in winners else 0.0,
            "scores": [p.score for p in game.state.players], "times": times}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spec", default="mcts:iterations=60")
    parser.add_argument("--variant", default="classic2003")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from amunre.compare.stats import Moments, rate_of

    results = []
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(play, args.variant, args.players, args.spec, args.seed, i) for i in range(args.games)]
        for future in as_completed(futures):
            try:
                r = future.result()
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)  # say it now, not after every other game
                raise
            results.append(r)
            print(f"game {r['index']}: seat {r['seat'] + 1}, scores {r['scores']}, share {r['share']:.2f}, "
                  f"{statistics.median(r['times']):.3f} s median per decision", flush=True)
    shares = [r["share"] for r in sorted(results, key=lambda r: r["index"])]
    times = sorted(t for r in results for t in r["times"])
    estimate = rate_of(Moments.of(shares))
    print(f"\n{args.spec} against {args.players - 1} greedy seats in {args.variant}, {len(shares)} games, seats "
          f"rotated, run seed {args.seed}:")
    print(f"  win rate {estimate.mean:.1%} (95% Wilson interval {estimate.low:.1%}-{estimate.high:.1%}); "
          f"equal share {1 / args.players:.1%}")
    print(f"  CPU time per searched decision: median {statistics.median(times):.3f} s, "
          f"p95 {times[int(0.95 * (len(times) - 1))]:.3f} s, max {times[-1]:.3f} s over {len(times)} decisions")
    print(f"  wall time {time.perf_counter() - started:.0f} s with {args.workers} workers")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
