"""`amunre arena`: a lineup of agents over many seeded games, the seats rotated, and each
agent's win rate and mean score with 95% intervals.

The lineup names one agent per seat (by spec: `greedy`, `mcts:iterations=400`; the same
spec may come twice, each its own entry). The games come in rotations of `players` games:
game r of a rotation puts lineup entry i in seat (i + r) mod players, so every entry plays
every seat equally often and the start player's advantage (or any seat's) is shared out
evenly. Game g of the run seeded S (counting from 0, rotation g // players, r = g %
players) plays seed `game_seed(S, g)` (`amunre.compare.jobs`): every game has its own deal,
so the games are independent, as the intervals assume.

Batches of whole rotations go to an executor (`amunre.compare.executors`: this process,
local processes or a Dask cluster); what a batch sends back is a few moments per entry
(`amunre.compare.stats.Moments`), merged in batch order, so memory does not grow with the
games and the result is the same for any worker count or finishing order. The statistics
are compare's: Wilson's interval for a win rate (a k-way shared win counts 1/k), Student's
t for a mean score.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import attrs

from amunre.agents import make_agents
from amunre.agents.playing import play_reporting
from amunre.compare import stats
from amunre.compare.jobs import Job, game_seed, load_job_variant
from amunre.compare.ordered import merge_in_order
from amunre.core.engine import Game

SCHEMA_VERSION = 1

#: Batches a run is cut into at least (when it has that many rotations), and the most games
#: a batch holds: as for compare (`amunre.compare.run.batch_size`).
BATCHES = 64
MOST_GAMES_PER_BATCH = 250


def seating(lineup: tuple, turn: int) -> list:
    """The agents by seat in game `turn` of a rotation: entry i sits in seat (i + turn) mod n."""
    n = len(lineup)
    return [lineup[(seat - turn) % n] for seat in range(n)]


def seat_of(entry: int, turn: int, players: int) -> int:
    """The seat of lineup entry `entry` in game `turn` of a rotation."""
    return (entry + turn) % players


@attrs.define
class ArenaTally:
    """What the finished games of an arena run come to, per lineup entry: the moments of its
    share of the win and of its score, and how many games it played in each seat."""

    games: int = 0
    wins: list = attrs.Factory(list)  # per entry: Moments of its share of the win (0, 1 or 1/k)
    scores: list = attrs.Factory(list)  # per entry: Moments of its final score
    seats: list = attrs.Factory(list)  # per entry: games played in each seat

    def merge(self, part: ArenaTally) -> ArenaTally:
        """This tally with `part`'s games after its own (in place, returned)."""
        if not self.wins:
            self.wins = [stats.Moments.zeros(0) for _ in part.wins]
            self.scores = [stats.Moments.zeros(0) for _ in part.scores]
            self.seats = [[0] * len(row) for row in part.seats]
        self.wins = [a.merge(b) for a, b in zip(self.wins, part.wins)]
        self.scores = [a.merge(b) for a, b in zip(self.scores, part.scores)]
        self.seats = [[a + b for a, b in zip(mine, theirs)] for mine, theirs in zip(self.seats, part.seats)]
        self.games += part.games
        return self


def play_rotations(job: Job, run_seed: int, first: int, count: int) -> ArenaTally:
    """Play rotations `first` .. `first + count - 1` of a run seeded `run_seed` (each
    `job.players` games, the lineup `job.agents` rotated) and tally them by lineup entry."""
    variant = load_job_variant(job)
    n = job.players
    wins: list[list[float]] = [[] for _ in range(n)]
    scores: list[list[float]] = [[] for _ in range(n)]
    seats = [[0] * n for _ in range(n)]
    for rotation in range(first, first + count):
        for turn in range(n):
            seed = game_seed(run_seed, rotation * n + turn)
            game = Game(variant, n, seed)
            lineup = seating(job.agents, turn)
            play_reporting(game, make_agents(lineup, seed), lineup)
            state = game.state
            winners = state.winners
            for entry in range(n):
                seat = seat_of(entry, turn, n)
                wins[entry].append(1 / len(winners) if seat in winners else 0.0)
                scores[entry].append(state.players[seat].score)
                seats[entry][seat] += 1
    return ArenaTally(count * n, [stats.Moments.of(w) for w in wins], [stats.Moments.of(s) for s in scores], seats)


def rotations_per_batch(rotations: int, players: int) -> int:
    """Rotations per batch: it depends on the run alone, never on the workers, so the same
    batches merge in the same order whatever plays them."""
    return max(1, min(max(1, MOST_GAMES_PER_BATCH // players), math.ceil(rotations / BATCHES)))


@attrs.define
class Entry:
    """One lineup entry's results."""

    position: int  # 1-based place in the lineup
    spec: str
    games: int
    seats: list[int]  # games played in each seat
    win: stats.Estimate  # share of the games won, Wilson's interval
    score: stats.Estimate  # mean final score, Student's t interval
    versus_equal_share: str | None  # "above", "below" or "overlaps" (None: no interval)


@attrs.define
class Arena:
    variant: object
    job: Job
    seed: int
    games_asked: int
    tally: ArenaTally
    interrupted: str = ""  # what stopped it early: "KeyboardInterrupt" (Ctrl-C) or "Terminated" (SIGTERM)
    elapsed: float = 0.0

    @property
    def players(self) -> int:
        return self.job.players

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def equal_share(self) -> float:
        return 1 / self.players

    def entries(self) -> list[Entry]:
        out = []
        for i, spec in enumerate(self.job.agents):
            if not self.tally.games:
                out.append(Entry(i + 1, spec, 0, [0] * self.players, stats.rate_of(stats.Moments.zeros(0)),
                                 stats.estimate_of(stats.Moments.zeros(0)), None))
                continue
            win = stats.rate_of(self.tally.wins[i])
            versus = None
            if not math.isnan(win.low):
                versus = ("above" if win.low > self.equal_share else "below" if win.high < self.equal_share
                          else "overlaps")
            out.append(Entry(i + 1, spec, self.tally.wins[i].n, list(self.tally.seats[i]), win,
                             stats.estimate_of(self.tally.scores[i]), versus))
        return out


def run_arena(variant, job: Job, games: int, seed: int, executor,
              on_progress: Callable[[int], None] | None = None) -> Arena:
    """Play `games` games (a multiple of the players: whole rotations) on `executor`; a
    KeyboardInterrupt stops it, and the batches finished so far are kept (`interrupted` says
    so). A batch is whole rotations, so what is kept has every entry in every seat equally often."""
    n = job.players
    if games % n:
        raise ValueError(f"{games} games are not whole rotations of {n} players")
    rotations = games // n
    size = rotations_per_batch(rotations, n)
    tasks = [(job, seed, first, min(size, rotations - first)) for first in range(0, rotations, size)]
    total = ArenaTally()
    start = time.perf_counter()
    interrupted = merge_in_order(executor.run(play_rotations, tasks), total.merge,
                                 (lambda part: on_progress(part.games)) if on_progress else None)
    return Arena(variant, job, seed, games, total, interrupted, time.perf_counter() - start)


def task_count(games: int, players: int) -> int:
    """How many batches a run of `games` games is cut into."""
    rotations = games // players
    return math.ceil(rotations / rotations_per_batch(rotations, players)) if rotations else 0


# -- output ---------------------------------------------------------------------------------


def _finite(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


def _estimate(e: stats.Estimate) -> dict:
    return {"mean": _finite(e.mean), "sd": _finite(e.sd), "low": _finite(e.low), "high": _finite(e.high), "n": e.n}


def to_json(arena: Arena, settings=()) -> dict:
    """The run as data (`schemas/arena.schema.json`)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "variant": arena.variant.id,
        "source": arena.variant.source,
        "set": list(settings),
        "players": arena.players,
        "lineup": list(arena.job.agents),
        "seed": arena.seed,
        "games": arena.games,
        "games_asked": arena.games_asked,
        "rotations": arena.games // arena.players,
        "interrupted": bool(arena.interrupted),
        "level": stats.LEVEL,
        "equal_share": arena.equal_share,
        "agents": [{"position": e.position, "spec": e.spec, "games": e.games, "seats": e.seats,
                    "win_rate": _estimate(e.win), "score": _estimate(e.score),
                    "versus_equal_share": e.versus_equal_share} for e in arena.entries()],
    }


def _percent(x: float) -> str:
    return "-" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def _number(x: float) -> str:
    return "-" if x is None or math.isnan(x) else f"{0.0 if x == 0 else x:.2f}"


def table(arena: Arena, title: str):
    """The rich table: a row per lineup entry. A narrow terminal wraps the title and the
    specs; a number is never split from its interval."""
    from rich.table import Table
    from rich.text import Text

    entries = arena.entries()
    points = arena.variant.term("points")
    out = Table(title=Text(title))
    out.add_column(Text("#"), justify="right", no_wrap=True)
    out.add_column(Text("agent"), min_width=min(24, max(len(e.spec) for e in entries)), overflow="fold")
    out.add_column(Text("win rate (95%)"), justify="right", no_wrap=True)
    out.add_column(Text("vs 1/n"), no_wrap=True)
    out.add_column(Text(f"mean {points} (95%)"), justify="right", no_wrap=True)
    out.add_column(Text("games"), justify="right", no_wrap=True)
    for e in entries:
        win = _percent(e.win.mean)
        if not math.isnan(e.win.low):
            win += f" ({_percent(e.win.low)[:-1]}–{_percent(e.win.high)})"
        score = _number(e.score.mean)
        if not math.isnan(e.score.low):
            score += f" ± {_number((e.score.high - e.score.low) / 2)}"
        out.add_row(Text(str(e.position)), Text(e.spec), Text(win), Text(e.versus_equal_share or ""), Text(score),
                    Text(str(e.games)))
    return out


def legend(arena: Arena) -> str:
    games = f"{arena.games} game{'' if arena.games == 1 else 's'}"
    return (f"equal share 1/n: {_percent(arena.equal_share)} ({arena.players} players). (low–high) and ±: "
            f"{stats.LEVEL:.0%} confidence interval over {games} (win rate: Wilson's, a shared win counts its share; "
            f"mean: Student's t). vs 1/n: the win rate's interval lies above or below the equal share, or overlaps it.")
