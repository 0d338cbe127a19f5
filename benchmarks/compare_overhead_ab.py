"""Compare's statistics cost over a bare playout, measured for two source trees in one run.

    .venv/bin/python benchmarks/compare_overhead_ab.py TREE_A TREE_B [GAMES] [ROUNDS]

A change to the statistics (or to the rules' events) is judged against the tree before it
on the same machine at the same moment: a 2-core machine shared with others drifts by more
than the change. Each round runs `benchmarks/compare_overhead.py GAMES 1` of TREE_A, then of
TREE_B (each in a fresh process with that tree first on the path, so each plays its own
rules and collector), and keeps their CPU seconds bare and with statistics. Prints, per
tree, the median CPU seconds over the rounds and the median of the rounds' ratios
(statistics over bare, within one process: the ratio drifts less than either time).
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

LINE = re.compile(r"^\s*(bare|statistics): ([0-9.]+) s CPU")


def one_round(tree: Path, games: int) -> dict[str, float]:
    script = tree / "benchmarks" / "compare_overhead.py"
    env = dict(os.environ, PYTHONPATH=str(tree))
    run = subprocess.run([sys.executable, str(script), str(games), "1"], env=env, capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"error: {script} failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
    out = run.stdout
    times = {m.group(1): float(m.group(2)) for m in map(LINE.match, out.splitlines()) if m}
    if set(times) != {"bare", "statistics"}:
        raise SystemExit(f"error: {script} printed no bare and statistics times:\n{out}")
    return times


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    trees = [Path(arg).resolve() for arg in sys.argv[1:3]]
    for tree in trees:
        if not (tree / "benchmarks" / "compare_overhead.py").is_file():
            raise SystemExit(f"error: {tree} has no benchmarks/compare_overhead.py (expected an amunre source tree)")
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    results: dict[Path, list[dict[str, float]]] = {tree: [] for tree in trees}
    for _ in range(rounds):
        for tree in trees:
            results[tree].append(one_round(tree, games))
    for tree, runs in results.items():
        bare = statistics.median(run["bare"] for run in runs)
        stats = statistics.median(run["statistics"] for run in runs)
        ratio = statistics.median(run["statistics"] / run["bare"] for run in runs)
        print(f"{str(tree):>30}: bare {bare:.3f} s, statistics {stats:.3f} s CPU for {games} games "
              f"(medians of {rounds}); statistics x{ratio:.2f} of bare (median of the rounds' ratios)")


if __name__ == "__main__":
    main()
