"""What a worker plays: a `Job` (one variant, players, agents) over a batch of seeds.

A job is plain data, so it travels to a local process or a Dask worker on another machine
alike: it carries the variant as one complete TOML text (`amunre.loader.resolved`), with
its board's text when the board is not a shipped one. The worker loads it once and keeps it
for the next batches of the same job (`_loaded`). `play_batch` plays a batch of a run's
games in every column and returns their tally (`amunre.compare.tally`): the games' numbers
(`amunre.compare.collect`) summed up, so what travels back does not grow with the batch.
"""

from __future__ import annotations

import hashlib
import numbers
import re
import tempfile
from collections import OrderedDict
from pathlib import Path

import attrs

from amunre.agents import make_agents
from amunre.agents.playing import builtin_lineup, play_reporting
from amunre.compare.collect import TEMPLATES_KEPT, StatsCollector, seat_key
from amunre.compare.rescore import (
    SCORING_EVENTS,
    GameWatcher,
    Rescorer,
    event_log,
    rescore_problem,
    same_game,
    tally_rescored,
)
from amunre.compare.tally import Tally, tally_batch
from amunre.core import arguments
from amunre.core.engine import Game
from amunre.core.errors import ArgumentValueError
from amunre.core.kept import keep_most_recent

#: The name an own board takes beside the variant a worker writes (not a shipped board's).
OWN_BOARD = "own-board.toml"


@attrs.frozen
class Job:
    """One column of a comparison: a variant as text, its player count and agents."""

    variant_text: str
    players: int
    agents: tuple[str, ...]
    board_text: str = ""  # the board file's text when the board is not shipped

    @property
    def key(self) -> str:
        return hashlib.sha256((self.variant_text + "\0" + self.board_text).encode()).hexdigest()


def job_for(variant, overrides, players: int, agents) -> Job:
    """The job playing `variant` with this lineup: `players` players, `agents` a list of agent
    specs, one a seat or one for every seat. `variant` is a loaded Variant (`overrides` are
    those it was loaded with: they are in it already) or a variant id or path, loaded here with
    `overrides`."""
    import tomli_w

    from amunre.agents import check_spec
    from amunre.core.engine import check_players
    from amunre.core.model import Variant
    from amunre.loader import as_variant
    from amunre.loader.resolved import resolved_data
    from amunre.loader.resources import variants_dir

    overrides = arguments.overrides(overrides)
    variant = variant if isinstance(variant, Variant) else as_variant(variant, overrides)
    players = check_players(variant, players)
    listed = arguments.listed("agents", agents, "a list of agent specs", "expected e.g. ['random'] or one a seat")
    agents = [check_spec(spec) for spec in listed]
    if len(agents) not in (1, players):
        raise ArgumentValueError(f"agents must be one agent spec or {players}, one a seat, not {len(agents)}: "
                                 f"{arguments.shown(agents)}")
    data = resolved_data(variant)
    board_text = ""
    shipped = variants_dir() / variant.edition.board
    source = Path(getattr(variant.board, "source", "") or shipped)
    if not (shipped.is_file() and shipped.resolve() == source.resolve()):
        board_text = source.read_text(encoding="utf-8")
        data["edition"]["board"] = OWN_BOARD
    agents = tuple(agents) * players if len(agents) == 1 else tuple(agents)
    return Job(tomli_w.dumps(data), players, agents, board_text)


#: The variants this process loaded, by job key, the most recently played last
#: (`load_job_variant`).
_loaded: OrderedDict[str, object] = OrderedDict()
#: How many it keeps (the least recently played let go first): a long-lived worker of many
#: comparisons does not grow. As many as `StatsCollector` keeps templates, so that a variant
#: kept here has its template too.
VARIANTS_KEPT = TEMPLATES_KEPT


def load_job_variant(job: Job):
    """The job's variant, loaded once per process (of the `VARIANTS_KEPT` most recently
    played), with the statistics collector its batches copy (`StatsCollector.prepare`)."""
    key = job.key
    variant = _loaded.get(key)
    if variant is None:
        from amunre.core.errors import VariantError
        from amunre.loader import load_variant

        with tempfile.TemporaryDirectory(prefix="amunre-job-") as folder:
            path = Path(folder) / "variant.toml"
            path.write_text(job.variant_text, encoding="utf-8")
            if job.board_text:
                (Path(folder) / OWN_BOARD).write_text(job.board_text, encoding="utf-8")
            try:
                variant = load_variant(path)
            except VariantError as exc:
                # it loaded where the job was made: this process differs (another amunre, a
                # plug-in missing). Its problems name the variant, not a temporary file.
                name = _variant_id(job)
                where = re.compile(re.escape(str(path)) + r"(?::([0-9]+))?")
                raise VariantError([where.sub(lambda m: f"{name} (as sent to this process"
                                              f"{', line ' + m[1] if m[1] else ''})", line)
                                    for line in exc.problems]) from None
        StatsCollector.prepare(variant)  # (its batches' collectors are copies of one made here)
        _loaded[key] = variant
    _loaded.move_to_end(key)  # (the most recently played)
    keep_most_recent(_loaded, VARIANTS_KEPT)
    return variant


def _variant_id(job: Job) -> str:
    """The id in a job's variant text (or a word for it if the text has none)."""
    import tomllib

    try:
        return str(tomllib.loads(job.variant_text)["edition"]["id"])
    except (tomllib.TOMLDecodeError, KeyError, TypeError):
        return "the variant"


def rotations(agents: tuple[str, ...]) -> int:
    """How many rotations of the lineup each seed is played in: one per seat when the seats'
    agents differ (so that no agent keeps a seat, and seat and agent are not confounded),
    else one."""
    return len(agents) if len(set(agents)) > 1 else 1


def rotated(agents: tuple[str, ...], rotation: int) -> tuple[str, ...]:
    """The lineup in `rotation`: seat s plays the agent the lineup gives seat s + rotation."""
    return tuple(agents[(seat + rotation) % len(agents)] for seat in range(len(agents)))


def agent_key(spec: str) -> str:
    return f"win.agent.{spec}"


def play_batch(jobs: tuple[Job, ...], run_seed: int, first: int, count: int, keep_records: bool = False,
               slope: tuple[float, ...] | None = None) -> Tally:
    """Play seeds `first` .. `first + count - 1` of a run seeded `run_seed` in every job (a
    column each), each in every rotation of a mixed lineup (`rotations`), and tally them
    (`amunre.compare.tally`): the numbers per row and their difference from the first column,
    game by game; every game's record, and each seat's, with `keep_records`; with `slope` (a
    numeric sweep's weights, `tally.slope_weights`), each row's slope against the swept value.
    With two columns or more, also the games each column plays identically to the first and the
    first column's games re-scored by each other column's scoring (`amunre.compare.rescore`)."""
    # (checked once a batch: a batch plays games for seconds)
    jobs = tuple(arguments.listed("jobs", jobs, "a tuple of Jobs (job_for), one a column"))
    if not jobs:
        raise ArgumentValueError("jobs must hold at least one Job (job_for), not none")
    for i, job in enumerate(jobs):
        if not isinstance(job, Job):
            raise arguments.wrong_type(f"jobs[{i}]", job, "a Job (job_for)")
    run_seed = arguments.seed(run_seed, "run_seed")
    first = arguments.whole_number("first", first, low=0)
    count = arguments.whole_number("count", count, low=0)
    arguments.flag("keep_records", keep_records)
    if slope is not None:
        for weight in arguments.listed("slope", slope, "a tuple of numbers (tally.slope_weights) or None"):
            if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
                raise arguments.wrong_type("slope", slope, "a tuple of numbers (tally.slope_weights) or None")
    seeds = [game_seed(run_seed, index) for index in range(first, first + count)]
    turns = rotations(jobs[0].agents)
    games = [(seed, rotation) for seed in seeds for rotation in range(turns)]
    variants = [load_job_variant(job) for job in jobs]
    # the first column's games re-scored by each other column's scoring, where it can read them
    rescorers = [None] + [None if rescore_problem(variants[0], variant) else Rescorer(variant, variants[0])
                          for variant in variants[1:]]
    rescored: list[list | None] = [None if rescorer is None else [] for rescorer in rescorers]
    last = max((other for other, rescorer in enumerate(rescorers) if rescorer is not None), default=0)
    guessed = [0] * len(jobs)
    same = [[True] * len(games)] + [[False] * len(games) for _ in jobs[1:]]  # per column and game: the first's?
    collectors = [StatsCollector.for_variant(variant) for variant in variants]  # (copies of one made per process)
    # with two columns or more, a game's events compare hears (and the scorings'), to tell
    # identical games; the first column's positions at each scoring, to re-score
    logged = [collector.listens_to | SCORING_EVENTS if len(jobs) > 1 else None for collector in collectors]
    positions = frozenset().union(*(rescorer.positions for rescorer in rescorers if rescorer is not None))
    watcher = GameWatcher(positions) if positions else None  # (the first column's)
    builtins = [builtin_lineup(job.agents) for job in jobs]  # (every rotation has the same agents)
    seat_records: list[list] = [[] for _ in jobs]  # per column: each game's seats, with keep_records
    # Each game in every column before the next game: only one game's answers and events are
    # kept to tell identical games, where playing a column's games together kept the first
    # column's every game in memory until the others were played (measured: more CPU per
    # instruction, and the garbage collector walking them).
    for i, (seed, rotation) in enumerate(games):
        first_game = None  # the first column's answers, heard events and points
        for c, (job, variant, collector) in enumerate(zip(jobs, variants, collectors)):
            lineup = rotated(job.agents, rotation)
            collector.reset()
            log, hears = event_log(logged[c]) if logged[c] is not None else (None, None)
            watching = watcher if c == 0 else None
            listeners = [collector.listener] + [one for one in (hears, watching) if one is not None]
            if watching is not None:
                watching.start(None)
            game = Game(variant, job.players, seed, listeners)
            if watching is not None:  # (its scorings come after the first decision: the game is known by then)
                watching.game = game
            play_reporting(game, make_agents(list(lineup), seed), lineup, builtins[c])
            values = collector.keep(game)  # (its game rows: the agents' are added to them)
            if turns > 1:  # each agent's win rate per seat it plays
                for spec in sorted(set(lineup)):
                    mine = [values[seat_key(seat)] for seat, name in enumerate(lineup) if name == spec]
                    values[agent_key(spec)] = sum(mine) / len(mine)
            if keep_records:
                seat_records[c].append(collector.seats(game, lineup))
            if log is None:
                continue
            points = [player.breakdown for player in game.state.players] if collector.points_by_breakdown else None
            if c:
                answers, events, first_points = first_game
                same[c][i] = same_game(answers, events, game.answers, log, first_points, points)
                continue
            first_game = (game.answers, log, points)
            scorings = watcher.scorings if watcher is not None else {}
            for other, rescorer in enumerate(rescorers):
                if rescorer is not None:  # (the last reads the positions, not copies)
                    rows_found, guess = rescorer.rescore(game.state.players, scorings, game.answers,
                                                         keep=other != last)
                    rescored[other].append(rows_found)
                    guessed[other] += guess
    kept_rows, rows = [], []  # per column: its games' rows (`Columns`), rows' words
    for job, collector in zip(jobs, collectors):
        kept_rows.append(collector.columns())
        meta = {key: (collector.labels[key], collector.modes[key], collector.groups[key]) for key in collector.modes}
        if turns > 1:
            for spec in sorted(set(job.agents)):
                meta[agent_key(spec)] = (f"win rate per seat, {spec}", "rate", agent_key(spec))
        rows.append(meta)
    tally = tally_batch(kept_rows, rows, games, keep_records, seat_records, slope)
    if len(jobs) > 1:
        # (the re-scoring reads each game's score rows from the columns' lists)
        tally.rescore = tally_rescored(kept_rows, rescored,
                                       [sum(flags) for flags in same], guessed, games)
        if keep_records:  # per column, each game's re-scoring and whether it is the first column's game
            for i, kept in enumerate(tally.records):
                kept["rescored"] = [None if found is None else found[i] for found in rescored]
                kept["identical"] = [flags[i] for flags in same]
    return tally


_MASK = (1 << 64) - 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed` (SplitMix64 of the pair): runs seeded
    0 and 1 share no games, and any game can be replayed alone with `amunre run --seed`."""
    seed = arguments.seed(seed)
    index = arguments.whole_number("index", index, low=0)
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) >> 1  # 63 bits: any seed `amunre run` takes
