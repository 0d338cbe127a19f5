"""What `amunre bench` measures: games, decisions and engine steps per second, in CPU time
and wall time, in one process and on several workers, and the cost of copying a game state.

Counts:

- *asked*: decisions asked of agents (`Game.answers`, secret ones included once revealed);
- *steps*: every decision point the rules reach: the asked ones and the forced ones (a
  decision with a single option is never asked; the game counts those, `Game.forced`).

Time:

- CPU seconds (`time.process_time`) of the process that played: what a game costs, nearly
  independent of what else the machine runs;
- wall seconds (`time.perf_counter`): what a user waits, and the only clock that shows what
  several workers gain together.

Warm-up games are played first and excluded: the variant is loaded, the code paths imported
and the caches filled before the clocks start. With several workers, the pool is started
and warmed before the measurement, and every worker starts its clocks at the same moment
(`start_at`); the wall time of the group is the span from the first start to the last end,
so a late worker lowers the figure instead of hiding.

`play_for` is the worker function: module-level, plain data in and out, so that it runs in
this process or on any `amunre.compare.executors` executor alike.
"""

from __future__ import annotations

import statistics
import time

import attrs

from amunre.agents import make_agents
from amunre.agents.playing import play_reporting
from amunre.compare.jobs import Job, job_for, load_job_variant
from amunre.core import arguments
from amunre.core.engine import Game

#: Games each process plays before its clocks start.
WARMUP_GAMES = 5
#: Seeds of the warm-up games and of worker i's games start apart (`seed_base`).
_WARMUP_SEEDS = 1 << 60
_WORKER_SEEDS = 1 << 40


@attrs.frozen
class Tally:
    """What one process played in its measured window."""

    games: int
    asked: int  # decisions asked of agents
    steps: int  # decision points, forced ones included
    cpu: float  # CPU seconds of the process
    wall: float  # wall seconds of the window
    start: float  # the window on the shared clock (`time.time()`), to combine workers
    end: float


@attrs.frozen
class Rates:
    """Per-second figures of one measurement (one process, or a group of workers)."""

    processes: int
    games: int
    asked: int
    steps: int
    cpu: float  # CPU seconds, summed over the processes
    wall: float  # wall seconds: the span from the first start to the last end

    @classmethod
    def of(cls, tallies: list[Tally]) -> Rates:
        return cls(
            processes=len(tallies),
            games=sum(t.games for t in tallies),
            asked=sum(t.asked for t in tallies),
            steps=sum(t.steps for t in tallies),
            cpu=sum(t.cpu for t in tallies),
            wall=max(t.end for t in tallies) - min(t.start for t in tallies) if len(tallies) > 1 else tallies[0].wall,
        )

    def per_cpu(self, count: str) -> float:
        """`count` ("games", "asked", "steps") per CPU second: per core, whatever the workers."""
        return getattr(self, count) / max(self.cpu, 1e-9)

    def per_wall(self, count: str) -> float:
        """`count` per wall second: what the whole group achieves together."""
        return getattr(self, count) / max(self.wall, 1e-9)

    def cpu_share(self) -> float:
        """CPU seconds per wall second per process: near 1 when each process had a core to
        itself; lower when the machine was busy (then the wall figures understate)."""
        return self.cpu / max(self.wall * self.processes, 1e-9)


@attrs.frozen
class CloneCost:
    """What one `Game.clone()` (or one `sample_game()`) costs, measured at every decision of
    a game (CPU time)."""

    median_us: float
    p95_us: float
    decisions: int  # how many decisions were measured


@attrs.frozen
class Measurement:
    """One variant and agent kind: one process, `workers` workers, and the costs of a clone and
    of a determinization (what a search agent pays per game it searches)."""

    variant_id: str
    players: int
    agent: str
    workers: int
    single: Rates
    parallel: Rates
    clone: CloneCost
    determinize: CloneCost

    def speedup(self, count: str = "games") -> float:
        """Wall-time throughput of the workers over that of one process."""
        return self.parallel.per_wall(count) / max(self.single.per_wall(count), 1e-9)


def _play(variant, players: int, agents: tuple, seed: int) -> tuple[int, int]:
    """Play one game; (the decisions asked, the engine steps: those and the forced ones)."""
    game = Game(variant, players, seed)
    # as arena and compare play: an own agent's failure is named as its own (`AgentError`)
    play_reporting(game, make_agents(list(agents), seed), agents)
    return len(game.answers), len(game.answers) + game.forced


def play_for(job: Job, seed: int, games: int | None, seconds: float | None, warmup: int = WARMUP_GAMES,
             start_at: float | None = None) -> Tally:
    """The worker function: load the job's variant, play `warmup` games (not counted), wait
    for `start_at` (a `time.time()`, if given), then play seeded games from `seed` until
    `games` are played or `seconds` have passed (whichever comes first; at least one game).
    With `start_at`, the seconds run to `start_at + seconds`, the same end for every worker."""
    variant = load_job_variant(job)
    players, agents = job.players, job.agents
    for i in range(warmup):
        _play(variant, players, agents, _WARMUP_SEEDS + seed + i)
    if start_at is not None:
        pause = start_at - time.time()
        if pause > 0:
            time.sleep(pause)
    start = time.time()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    deadline = None
    if seconds is not None:  # on the process's own clock: the window ends at (start_at or start) + seconds
        deadline = wall0 + ((start_at if start_at is not None else start) + seconds - start)
    played = asked = steps = 0
    while True:
        decided, stepped = _play(variant, players, agents, seed + played)
        asked, steps = asked + decided, steps + stepped
        played += 1
        if games is not None and played >= games:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return Tally(played, asked, steps, cpu, wall, start, time.time())


def _ready(job: Job, warmup: int, hold: float) -> int:
    """Start-up task: load the variant and warm up, then stay busy for `hold` seconds so that
    every worker of a fresh pool takes one of these; the worker's process id."""
    import os

    play_for(job, 0, 1, None, warmup)
    time.sleep(hold)
    return os.getpid()


def clone_cost(variant, players: int, agent: str, seed: int = 0, repeat: int = 5,
               determinize: bool = False) -> CloneCost:
    """The median and 95th percentile cost of `Game.clone()` (with `determinize`: of the asked
    seat's `sample_game()`) over every decision of one game, each decision timed over
    `repeat` branches in CPU time. The game is cloned once before it starts, so that it keeps
    checkpoints (the first clone of a game replays it from its start; a search branches one
    game many times)."""
    import random

    repeat = arguments.whole_number("repeat", repeat, low=1)
    arguments.flag("determinize", determinize)
    arguments.text("agent", agent, "expected an agent spec such as 'random'")
    game = Game(variant, players, seed)
    agents = make_agents([agent] * players, seed)
    game.clone()
    rng = random.Random(seed)
    costs = []
    while game.pending is not None:
        view = game.view(game.pending.player)
        start = time.process_time()
        for _ in range(repeat):
            view.sample_game(rng) if determinize else game.clone()
        costs.append((time.process_time() - start) / repeat * 1e6)
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    costs.sort()
    return CloneCost(statistics.median(costs), costs[int(0.95 * (len(costs) - 1))], len(costs))


def load_time(name, overrides=(), loads: int = 21) -> float:
    """Median CPU seconds to load, merge and validate a variant, over `loads` loads."""
    from amunre.loader import load_variant

    times = []
    for _ in range(loads):
        start = time.process_time()
        load_variant(name, overrides)
        times.append(time.process_time() - start)
    return statistics.median(times)


def measure(variant, players: int, agent: str, executor, games: int | None = None, seconds: float | None = None,
            warmup: int = WARMUP_GAMES) -> Measurement:
    """Measure one agent kind in every seat: in this process, then on every worker of
    `executor` at once (`amunre.compare.executors`), then the clone cost."""
    if games is None and seconds is None:
        raise ValueError("measure needs games or seconds")
    job = job_for(variant, (), players, (agent,))
    single = Rates.of([play_for(job, 0, games, seconds, warmup)])
    workers = executor.workers
    # a fresh pool: start and warm every worker first (their start-up is no part of the figure)
    list(executor.run(_ready, [(job, warmup, 0.3)] * workers))
    # then a common start, late enough for each worker's own warm-up games
    per_game = single.wall / max(single.games, 1)
    start_at = time.time() + 0.2 + 2 * warmup * per_game
    tasks = [(job, i * _WORKER_SEEDS, games, seconds, warmup, start_at) for i in range(workers)]
    tallies = [tally for _, tally in sorted(executor.run(play_for, tasks), key=lambda pair: pair[0])]
    return Measurement(variant.id, players, agent, workers, single, Rates.of(tallies),
                       clone_cost(variant, players, agent), clone_cost(variant, players, agent, determinize=True))
