"""Random playouts per CPU second: amunre's classic2003 beside OpenSpiel games, stepped from
Python the same way (a random legal action per decision, chance outcomes sampled by their
probabilities), and the cost of one state copy in each.

OpenSpiel is a benchmark-only dependency, never a runtime one: install it in a venv of its
own, with amunre's dependencies, and put this checkout on PYTHONPATH:

    python3 -m venv /tmp/osvenv
    /tmp/osvenv/bin/pip install open_spiel attrs cattrs tomli-w jsonschema click rich
    PYTHONPATH=. /tmp/osvenv/bin/python benchmarks/openspiel_compare.py [--seconds S] [--rounds R]

Without OpenSpiel it measures amunre alone and says so. Each game is measured for S CPU
seconds per round after a warm-up; the rounds go round-robin over the games (a slow spell of
the machine hits every game alike) and the median round is printed. CPU time, because the
machine may be shared: compare the ratios, not the absolute figures, across machines.

Columns: games and *actions* per CPU second (every action applied, chance outcomes
included; for amunre every engine step, forced decisions included), *player decisions*
per CPU second (actions chosen by a player; for amunre the decisions asked of agents; a
forced amunre decision is not asked, an OpenSpiel state with one legal action still is),
actions per game, and the median microseconds of one state copy (OpenSpiel's
`state.clone()`, amunre's `Game.clone()`: a game that can be played on) along a game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

#: Pure-Python OpenSpiel games (open_spiel.python.games) and C++ games (pyspiel), sequential.
PYTHON_GAMES = ["python_tic_tac_toe", "python_kuhn_poker", "python_liars_poker", "python_block_dominoes"]
CPP_GAMES = ["tic_tac_toe", "connect_four", "kuhn_poker", "leduc_poker", "liars_dice", "hearts", "oh_hell",
             "backgammon", "chess"]
WARMUP_GAMES = 5


class Counts:
    def __init__(self):
        self.games = self.actions = self.decisions = 0


def openspiel_playout(game, rng: random.Random, counts: Counts) -> None:
    """One random game: a uniform legal action per player decision, chance by its odds."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            counts.decisions += 1
        counts.actions += 1
    counts.games += 1


def openspiel_clone_us(game, rng: random.Random, points: int = 40, repeat: int = 20) -> float:
    states = []
    state = game.new_initial_state()
    while not state.is_terminal():
        states.append(state.clone())
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    picked = states[:: max(1, len(states) // points)]
    return _median_us([lambda s=s: s.clone() for s in picked], repeat)


def _median_us(copiers, repeat: int) -> float:
    costs = []
    for copier in copiers:
        start = time.process_time()
        for _ in range(repeat):
            copier()
        costs.append((time.process_time() - start) / repeat)
    return statistics.median(costs) * 1e6


class OpenSpielGame:
    def __init__(self, name: str, kind: str):
        import pyspiel

        self.name, self.kind = name, kind
        self.game = pyspiel.load_game(name)
        self.rng = random.Random(0)

    def play(self, counts: Counts) -> None:
        openspiel_playout(self.game, self.rng, counts)

    def clone_us(self) -> float:
        return openspiel_clone_us(self.game, random.Random(1))


class AmunreGame:
    """classic2003, 4 players, random agents: the same loop `amunre bench` times."""

    def __init__(self, variant: str = "classic2003", players: int = 4):
        from amunre.agents import make_agents
        from amunre.core.engine import play_game
        from amunre.loader import load_variant

        self.make_agents, self.play_game = make_agents, play_game
        self.variant, self.players = load_variant(variant), players
        from amunre.cli.buildinfo import describe_build  # pure Python, or the compiled build (docs/performance.md)

        self.name, self.kind = f"amunre {variant} ({players} players)", f"amunre, {describe_build()}"
        self.seed = 0

    def play(self, counts: Counts) -> None:
        game = self.play_game(self.variant, self.make_agents(["random"] * self.players, self.seed), self.seed)
        self.seed += 1
        counts.decisions += len(game.answers)
        counts.actions += len(game.answers) + game.forced
        counts.games += 1

    def clone_us(self) -> float:
        from amunre.compare.bench import clone_cost

        return clone_cost(self.variant, self.players, "random").median_us  # one Game.clone()


def measure(subject, seconds: float) -> Counts:
    counts = Counts()
    start = time.process_time()
    while True:
        subject.play(counts)
        cpu = time.process_time() - start
        if cpu >= seconds:
            counts.cpu = cpu
            return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per game per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over all games; the median is printed")
    args = parser.parse_args()

    subjects = [AmunreGame()]
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401 - registers the python_* games
    except ImportError:
        print("OpenSpiel is not installed here: measuring amunre alone (see this script's docstring)",
              file=sys.stderr)
    else:
        known = set(pyspiel.registered_names())
        subjects += [OpenSpielGame(n, "OpenSpiel, pure Python") for n in PYTHON_GAMES if n in known]
        subjects += [OpenSpielGame(n, "OpenSpiel C++, from Python") for n in CPP_GAMES if n in known]
        missing = [n for n in PYTHON_GAMES + CPP_GAMES if n not in known]
        if missing:
            print(f"not in this OpenSpiel: {', '.join(missing)}", file=sys.stderr)
        print(f"OpenSpiel {getattr(pyspiel, '__version__', '?')}, Python {sys.version.split()[0]}")

    for subject in subjects:  # warm-up, not counted
        for _ in range(WARMUP_GAMES):
            subject.play(Counts())
    runs: dict[str, list[Counts]] = {s.name: [] for s in subjects}
    for _ in range(args.rounds):
        for subject in subjects:
            runs[subject.name].append(measure(subject, args.seconds))

    header = (f"{'game':<34} {'implementation':<27} {'games/s':>10} {'actions/s':>11} {'decisions/s':>12} "
              f"{'actions/game':>13} {'clone us':>9}")
    print(f"median of {args.rounds} rounds of {args.seconds:g} CPU s per game; per CPU second; random playouts")
    print(header)
    print("-" * len(header))
    for subject in subjects:
        counts = runs[subject.name]

        def rate(attr):
            return statistics.median(getattr(c, attr) / c.cpu for c in counts)  # noqa: B023 - used at once

        per_game = sum(c.actions for c in counts) / sum(c.games for c in counts)
        print(f"{subject.name:<34} {subject.kind:<27} {rate('games'):>10,.0f} {rate('actions'):>11,.0f} "
              f"{rate('decisions'):>12,.0f} {per_game:>13,.1f} {subject.clone_us():>9,.1f}")


if __name__ == "__main__":
    main()
