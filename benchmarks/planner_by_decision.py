"""Where a planner game's work goes, by the decision asked (docs/agents.md, "What it costs").

    .venv/bin/python benchmarks/planner_by_decision.py [GAMES] [VARIANT] [SPEC]

Plays GAMES four-player games (seeds 1 to GAMES; default 10, classic2003, `planner` in every
seat) and prints, for each kind of decision the planner is asked, per game: how often it is
asked, the options it values, the worths started (`Worth._start`: each builds or writes
over a position, or takes the last decision's where the seat sees the same), the terms
worked out (a scoring item, an income phase or a later kingdom's term on one
position), and the CPU milliseconds the planner spends on it. It reads the planner's
internals by wrapping them (a measurement, not an interface): the counts are exact, the
milliseconds are of a shared machine.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from amunre.agents import make_agents
from amunre.agents.planner import PlannerAgent
from amunre.core.engine import play_game
from amunre.loader import load_variant
from amunre.planning.worth import Worth


def measure(games: int, variant_id: str, spec: str) -> dict[str, Counter]:
    """The counts, by decision kind, over `games` games."""
    counts: dict[str, Counter] = {name: Counter() for name in ("asked", "options", "worths", "terms", "ms")}
    asking: list[str] = []  # the kind being answered (a stack: one deep)
    values, start, gained = PlannerAgent.values, Worth._start, Worth._points_gained

    def timed_values(agent, view, request):
        asking.append(request.kind)
        began = time.process_time()
        try:
            return values(agent, view, request)
        finally:
            counts["ms"][request.kind] += (time.process_time() - began) * 1000
            counts["asked"][request.kind] += 1
            counts["options"][request.kind] += len(request.options)
            asking.pop()

    def counted_start(worth):
        counts["worths"][asking[-1] if asking else "(outside a decision)"] += 1
        return start(worth)

    def counted_gained(worth, terms, state, gold_before):
        counts["terms"][asking[-1] if asking else "(outside a decision)"] += len(terms)
        return gained(worth, terms, state, gold_before)

    PlannerAgent.values, Worth._start, Worth._points_gained = timed_values, counted_start, counted_gained
    try:
        variant = load_variant(variant_id)
        for seed in range(1, games + 1):
            play_game(variant, make_agents([spec] * 4, seed), seed)
    finally:
        PlannerAgent.values, Worth._start, Worth._points_gained = values, start, gained
    return counts


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 10
    variant_id = argv[1] if len(argv) > 1 else "classic2003"
    spec = argv[2] if len(argv) > 2 else "planner"
    counts = measure(games, variant_id, spec)
    print(f"{variant_id}, four {spec} seats, {games} games (seeds 1-{games}); per game:")
    print(f"{'decision':24} {'asked':>7} {'options':>8} {'worths':>7} {'terms':>7} {'CPU ms':>7}")
    for kind, ms in counts["ms"].most_common():
        print(f"{kind:24} {counts['asked'][kind] / games:7.1f} {counts['options'][kind] / games:8.1f} "
              f"{counts['worths'][kind] / games:7.1f} {counts['terms'][kind] / games:7.1f} {ms / games:7.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
