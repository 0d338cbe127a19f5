"""Compare two checkouts of amunre: run benchmarks/play_random.py on each in turn, N times,
and print the median games per CPU second of each and their ratio.

    .venv/bin/python benchmarks/alternate.py BEFORE AFTER [--runs N] [--games G] [--agent KIND]

BEFORE and AFTER are folders holding an `amunre` package (and its `variants/` and
`schemas/` beside it), e.g. made with `git archive <commit> amunre variants schemas | tar -x -C DIR`.
Each run is a fresh interpreter with that folder first on PYTHONPATH. Alternating the two,
rather than running one N times and then the other, spreads a busy spell of a shared
machine over both; the median ignores the odd slow run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

PLAY = Path(__file__).with_name("play_random.py")


def rate(folder: str, games: int, agent: str) -> float:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    out = subprocess.run([sys.executable, str(PLAY), str(games), agent], env=env, check=True, capture_output=True,
                         text=True, cwd=folder).stdout
    return float(out.split()[0])  # "<games> games per CPU second, ..."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--agent", default="random")
    args = parser.parse_args()
    rates: dict[str, list[float]] = {args.before: [], args.after: []}
    for _ in range(args.runs):
        for folder in (args.before, args.after):
            rates[folder].append(rate(folder, args.games, args.agent))
    before, after = (statistics.median(rates[f]) for f in (args.before, args.after))
    for label, folder, median in (("before", args.before, before), ("after", args.after, after)):
        print(f"{label}: median {median:.1f} games per CPU second over {args.runs} runs "
              f"(min {min(rates[folder]):.1f}, max {max(rates[folder]):.1f}) [{folder}]")
    print(f"after / before: {after / before:.3f}")


if __name__ == "__main__":
    main()
