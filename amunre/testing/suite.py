"""`check_variant`: seeded games of a variant under the checker, summed up in a `CheckReport`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from amunre.agents import make_agents
from amunre.core.counting import plural
from amunre.core.engine import play_game
from amunre.core.errors import AmunreError, RuleModuleError
from amunre.core.model import Variant
from amunre.gamelog import Recorder, log_lines
from amunre.testing.checker import GameChecker


def load(path_or_id) -> Variant:
    """The Variant for a shipped id, a file path, or a Variant (returned as is).

    Every problem with the input is an `AmunreError` (unknown id, unreadable file, broken
    TOML, missing keys); a loader bug is not disguised as one.
    """
    if isinstance(path_or_id, Variant):
        return path_or_id
    from amunre.loader import load_variant

    # bad input is the loader's AmunreError; anything else is a loader bug and shows as one
    return load_variant(path_or_id)


class CheckReport:
    """What `check_variant` did: games and decisions per player count, and how long it took."""

    def __init__(self, variant: Variant):
        self.variant = variant.id
        self.source = variant.source
        self.by_players: dict[int, dict[str, int]] = {}
        self.games = 0
        self.decisions = 0
        self.scorings = 0
        self.illegal_checks = 0
        self.batches = 0
        self.counterfactuals = 0
        self.seconds = 0.0

    def add(self, checker: GameChecker) -> None:
        row = self.by_players.setdefault(checker.n, {"games": 0, "decisions": 0})
        row["games"] += 1
        row["decisions"] += checker.decisions
        self.games += 1
        self.decisions += checker.decisions
        self.scorings += checker.scorings
        self.illegal_checks += checker.illegal_checks
        self.batches += checker.batches
        self.counterfactuals += checker.counterfactuals

    def summary(self) -> str:
        lines = [f"{self.variant} ({self.source}): all invariants held"]
        for n in sorted(self.by_players):
            row = self.by_players[n]
            lines.append(f"  {n} players: {plural(row['games'], 'game')}, {plural(row['decisions'], 'decision')}")
        lines.append(
            f"  {plural(self.games, 'game')}, {plural(self.decisions, 'decision')} checked, "
            f"{plural(self.scorings, 'scoring')}, {plural(self.illegal_checks, 'illegal answer')} refused, "
            f"{plural(self.batches, 'simultaneous batch', 'simultaneous batches')} "
            f"({self.counterfactuals} replayed with another answer), {self.seconds:.1f} s"
        )
        return "\n".join(lines)

    def to_json(self) -> dict:
        """The report as data (`schemas/check.schema.json`, with `amunre check --json`)."""
        return {"variant": self.variant, "held": True,
                "players": [{"players": n, **self.by_players[n]} for n in sorted(self.by_players)],
                "games": self.games, "decisions": self.decisions, "scorings": self.scorings,
                "illegal_answers_refused": self.illegal_checks, "simultaneous_batches": self.batches,
                "replayed_with_another_answer": self.counterfactuals, "seconds": self.seconds}

    def __repr__(self) -> str:
        return f"CheckReport({self.variant!r}, games={self.games}, decisions={self.decisions})"


class GameRecord:
    """One checked game, handed to `on_progress`."""

    __slots__ = ("game", "players", "agent", "seed", "decisions", "log")

    def __init__(self, checker: GameChecker, log: str):
        self.game = checker.game
        self.players = checker.n
        self.agent = checker.agent
        self.seed = checker.seed
        self.decisions = checker.decisions
        self.log = log


def play_checked(variant: Variant, n_players: int, seed: int, agent: str = "random", **options) -> GameChecker:
    """Play and check one whole game with `agent` in every seat; returns the checker."""
    # made before it is set up, which plays to the first decision: a module's broken contract
    # there too is reported by it, with its rerun
    checker = GameChecker.__new__(GameChecker)
    try:
        checker.__init__(variant, n_players, seed, agent, **options)
        agents = make_agents([agent] * n_players, seed)
        game = checker.game
        while game.pending is not None:
            checker.step(checker.ask(agents[game.pending.player]))
    except RuleModuleError as exc:  # a move called without `yield from`: a failed check, not a crash
        checker.fail("contract", str(exc))
    return checker


def check_variant(path_or_id, seeds: Iterable[int] = range(5), agents: Iterable[str] = ("random", "greedy"),
                  players: Iterable[int] | None = None, on_progress: Callable[[GameRecord], None] | None = None,
                  **options) -> CheckReport:
    """Check a variant (shipped id, file path, or Variant): one game per seed, agent and
    player count (default: every allowed count). Raises `ConformanceError` at the first
    violation and an `AmunreError` if the variant cannot be loaded; returns a `CheckReport`.
    `options` go to `GameChecker` (illegal_every, roundtrip_every, counterfactual, ...).
    """
    started = time.perf_counter()
    variant = load(path_or_id)
    seeds = seeds if isinstance(seeds, range) else list(seeds)  # a range of a billion seeds stays a range
    counts = list(variant.players) if players is None else list(players)
    for n in counts:
        if n not in variant.players:
            raise AmunreError(f"{variant.id} is played by {list(variant.players)} players, not {n}")
    report = CheckReport(variant)
    for n in counts:
        for a, agent in enumerate(agents):
            for i, seed in enumerate(seeds):
                checker = play_checked(variant, n, seed, agent, **options)
                # the first game of each player count goes through the log file replay
                text = checker.finish(full_replay=(a == 0 and i == 0))
                # the same seed and agents, played again by the plain engine, give the same log
                recorder = Recorder()
                again = play_game(variant, make_agents([agent] * n, seed), seed, [recorder])
                if (log_lines(again, recorder.events, [agent] * n)
                        != log_lines(checker.game, checker.events, [agent] * n)):
                    checker.fail("determinism", "the same seed and agents gave a different log")
                report.add(checker)
                if on_progress is not None:
                    on_progress(GameRecord(checker, text))
    report.seconds = time.perf_counter() - started
    return report
