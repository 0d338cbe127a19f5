"""Helpers shared by the rule tests: build a position, run rule modules on it, feed answers.

Positions are written as position data (the same shape as a position file, see
amunre/planning/position.py), so a test reads like the case it sets up. Seats in the rulebook
examples are red, black, blue, white in clockwise order (indices 0..3).
"""

from __future__ import annotations

import importlib.util
import re
import signal
import sys
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import attrs

from amunre.core.engine import Game
from amunre.loader import load_variant
from amunre.planning.position import position_from_data

RED, BLACK, BLUE, WHITE = range(4)
COLOURS = ("red", "black", "blue", "white", "green", "yellow", "orange", "purple", "grey", "brown")


@cache
def classic():
    """The classic2003 variant, loaded once."""
    return load_variant("classic2003")


@cache
def edition2016():
    """The supermeeple2016 variant, loaded once."""
    return load_variant("supermeeple2016")


def named_seats(names, **common) -> list[dict]:
    """Player entries named as in a rulebook example (in seat order), each with the same fields."""
    return [{"name": name, "theft": 0, "gold": 0, **_copy(common)} for name in names]


def variant_label(path) -> str:
    """A short, readable test id for a variant file: `classic2003`, `house/longer_game`."""
    from amunre.loader.resources import variants_dir

    path = Path(path)
    try:
        return path.relative_to(variants_dir()).with_suffix("").as_posix()
    except ValueError:
        return path.stem


#: The numbers both rulebooks print, per rule module. A scenario built on them (gold amounts
#: that afford exactly so much, a total that lands on a temple space, a sentence with its
#: points) says so (`variant_files_using(..., printed=...)`) and runs over the variants that
#: keep them; each rule is also checked with a variant's own numbers by a test that derives
#: what it expects from the params.
PRINTED = {
    "auction": {"bid_spaces": (0, 1, 3, 6, 10, 15, 21, 28, 36), "protection_skip": 2},
    "market": {"architect_stones": 2, "first_price": 1, "price_step": 1, "cards_first_price": 1, "cards_price_step": 1,
               "farmers_first_price": 1, "farmers_price_step": 1, "stones_first_price": 1, "stones_price_step": 1},
    "offering": {"level_floors": (3, 13, 23), "rewards": (3, 2, 1), "theft_value": 3, "adjustment": 3},
    "harvest": {"treasury_gold": 8, "big_harvest_bonus": 1, "camel_levels": (1, 2)},
    "pyramids": {"single": 1, "double": 2},
    "complete_sets": {"points": 3, "set_size": 3},
    "fewest_pyramids": {"points": 3},
    "nile_sides": {"points": 5},
    "bonus_cards": {"points": 3, "scribes_symbols": 7, "farmers_needed": 9},
    "gold_ranking": {"points": (6, 4, 2), "theft_value": 3},
}


def keeps_printed(variant, rules) -> bool:
    """Whether every entry of `rules` in the variant's pipelines has the rulebooks' numbers."""
    steps = [s for s in variant.phases + variant.scoring + variant.final_scoring if s.rule in rules]
    return all(_as_tuple(getattr(step.params, key)) == value
               for step in steps for key, value in PRINTED.get(step.rule, {}).items())


def _as_tuple(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


def variant_files_using(*rules: str, printed=(), where=None) -> list:
    """Every variant file the suite covers (`covered_variant_files`) whose pipeline (round
    phases, kingdom scoring, final scoring) uses all of `rules`, as pytest params with readable
    ids; with `printed` rule ids, only those whose entries of these rules keep the rulebooks'
    numbers (`PRINTED`); with `where`, only those the predicate accepts (a property of the
    variant a scenario needs, such as a second kingdom). A variant file that does not load is
    kept, so that the test using it fails instead of silently skipping it."""
    import pytest

    params = []
    for path in covered_variant_files():
        try:
            variant = variant_at(path)  # (once per file: the suite's parametrizations ask this some 60 times)
        except Exception:  # noqa: BLE001 - reported by the test that loads it
            params.append(pytest.param(path, id=variant_label(path)))
            continue
        used = {s.rule for s in variant.phases + variant.scoring + variant.final_scoring}
        if set(rules) <= used and keeps_printed(variant, printed) and (where is None or where(variant)):
            params.append(pytest.param(path, id=variant_label(path)))
    return params


def covered_variant_files() -> list:
    """The variant files the suite runs its rule tests over (`conftest.variant_files`)."""
    from conftest import variant_files

    return variant_files()


def problems_of(path, overrides=()) -> list[str]:
    """The problem lines of a variant file that must not load."""
    import pytest

    from amunre.core.errors import VariantError

    with pytest.raises(VariantError) as info:
        load_variant(path, overrides)
    return info.value.problems


@cache
def variant_at(path):
    """The variant of a file, loaded once per file."""
    return load_variant(path)


def with_rulings(variant=None, **changes):
    """The variant with some rulings (SPEC §6) changed."""
    variant = variant or classic()
    return attrs.evolve(variant, rulings=variant.rulings.evolve(**changes))


def has_rule(variant, rule) -> bool:
    """Whether the variant's pipeline (phases, scoring, final scoring) has an entry of `rule`."""
    return any(s.rule == rule for s in variant.phases + variant.scoring + variant.final_scoring)


def step_params(variant, rule):
    """The params of a rule module as the variant's pipeline gives them (its first entry). A
    variant without it (a designer's, whose plug-in replaces a built-in rule) is a mistake of
    the test that asks, said so: a shared test asks only for what the variant has (`has_rule`)."""
    for s in variant.phases + variant.scoring + variant.final_scoring:
        if s.rule == rule:
            return s.params
    rules = ", ".join(s.rule for s in variant.phases + variant.scoring + variant.final_scoring)
    raise LookupError(f"variant {variant.id} has no entry of the rule {rule!r} (its rules: {rules}): a test shared "
                      f"by every variant must check has_rule(variant, {rule!r}) first, or use variant_files_using")


def pid(name: str, variant=None) -> int:
    """Province id of a board name."""
    return (variant or classic()).board.index(name)


def card(kind: str, variant=None) -> int:
    """The integer id of a card kind in the variant (classic2003 by default)."""
    return (variant or classic()).card_id(kind)


def province_deck(game) -> list[int]:
    """The province draw pile of a game (the `province_draw` module's own state), top last."""
    return game.state.rules["province_draw"]["deck"]


def seats(n: int = 4, **common) -> list[dict]:
    """n player entries named by colour, each with the same fields (copied)."""
    return [{"name": COLOURS[i], "theft": 0, "gold": 0, **_copy(common)} for i in range(n)]


def _copy(value):
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def seated(variant, n: int):
    """The variant with `n` among its player counts.

    A rule's scenario is set at the seats it needs (three bidders on three provinces, say): the
    rule module plays it with the variant's params and rulings whatever counts the variant's
    edition allows, which is a setup rule of its own (R-GAME-01, tested on its own). A scenario a
    rule module rules out at `n` players (the expert draft's hands, say) is skipped, saying why."""
    if n in variant.players:
        return variant
    edition = attrs.evolve(variant.edition, players=tuple(sorted({*variant.edition.players, n})))
    widened = attrs.evolve(variant, edition=edition)
    if n not in widened.players:
        import pytest

        pytest.skip(f"{variant.id} is not played by {n} players{widened.modules.players_note(n)}")
    return widened


def state_of(players: list[dict], variant=None, **top):
    """The GameState of position data (players in seat order, top-level keys as kwargs), at
    as many seats as `players` has (`seated`)."""
    from amunre.core.errors import PositionError

    variant = seated(variant or classic(), len(players))
    try:
        return position_from_data({"players": players, **top}, variant, source="test").state
    except PositionError as exc:
        _skip_when_the_variant_lacks_pieces(variant, exc)
        raise


#: What a position check says when a variant's components are fewer than a scenario holds.
_LACKING = re.compile(r"the players hold \d+, but the .* deck has \d+|the position places \d+ \w+ on the board, but")


def _skip_when_the_variant_lacks_pieces(variant, error) -> None:
    """Skip the test, saying why, when every problem of its scenario is a piece the variant's
    components do not have (cards its deck lacks, more pieces than its supply): a house rule
    without Bribery cards has no Bribery scenario. Any other problem is the test's own."""
    problems = list(getattr(error, "problems", []))
    if problems and all(_LACKING.search(p) for p in problems):
        import pytest

        pytest.skip(f"{variant.id} has too few pieces for this scenario: {'; '.join(problems)}")


def game_of(players: list[dict], variant=None, **top) -> Game:
    """A Game standing at a position, nothing pending (start rules with `run_rules`), at as
    many seats as `players` has (`seated`)."""
    variant = seated(variant or classic(), len(players))
    return Game.from_state(variant, state_of(players, variant, **top))


def run(game: Game, rules, answers=()) -> list:
    """Start `rules` on the game and feed `answers` in order; returns the requests answered.

    Each answer may be a value, or `(player, kind, value)` to also check who is asked what.
    """
    game.run_rules(rules)
    return feed(game, answers)


def feed(game: Game, answers) -> list:
    seen = []
    for answer in answers:
        request = game.pending
        assert request is not None, f"no decision pending, but the test still has answer {answer!r}"
        if isinstance(answer, Ask):
            assert (request.player, request.kind) == (answer.player, answer.kind), (
                f"expected {answer.kind!r} from player {answer.player}, "
                f"got {request.kind!r} from player {request.player}"
            )
            answer = answer.value
        seen.append(request)
        game.answer(answer)
    return seen


@attrs.frozen
class Ask:
    """An expected request and its answer: `Ask(RED, "bid", (prov, 3, ()))`."""

    player: int
    kind: str
    value: object


def finish(game: Game, choose=lambda request: request.options[0]) -> list:
    """Answer every remaining decision with `choose`; returns the requests."""
    seen = []
    while game.pending is not None:
        seen.append(game.pending)
        game.answer(choose(game.pending))
    return seen



def offline_build_possible() -> bool:
    """A wheel can be built here without fetching anything (setuptools has bdist_wheel)."""
    if importlib.util.find_spec("wheel") is not None:
        return True
    try:
        import setuptools
    except ImportError:
        return False
    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1)


def installed_env(src, target) -> dict:
    """Install the package in folder `src` into `target` (offline where possible), as a user's
    `pip install` of a plug-in would; returns an environment with `target` on the path."""
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "pip", "install", str(src), "--target", str(target), "--no-deps", "--quiet",
           "--disable-pip-version-check"]
    if offline_build_possible():  # else pip fetches setuptools into an isolated build
        cmd += ["--no-build-isolation", "--no-index"]
    build = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    return env


def run_cli(capsys, *argv):
    """Run the console entry point; return (exit code, stdout, stderr)."""
    from amunre.cli import main

    code = 0
    try:
        main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, text: str) -> Path:
    """Write a test file (a leading newline of a triple-quoted text dropped)."""
    path.write_text(text.lstrip("\n"), encoding="utf-8")
    return path


@contextmanager
def time_limit(seconds: int):
    """Fail instead of hanging: an alarm interrupts whatever takes longer than `seconds`."""
    def stop(signum, frame):
        raise TimeoutError(f"took more than {seconds}s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def toml_paths(data, prefix=()):
    """Every key path of a parsed TOML or JSON document (tables and arrays opened)."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield prefix + (key,)
        yield from toml_paths(value, prefix + (key,))


def parent_table(data, path):
    """The table or array holding the last key of `path`."""
    for key in path[:-1]:
        data = data[key]
    return data


def mutate(draw, data, rounds: int, values: list, renames, kinds=("drop", "rename", "retype", "duplicate")):
    """`data` (a parsed TOML or JSON document) with `rounds` keys each dropped, renamed (to
    one of `renames(key)`), retyped (to a copy of one of `values`), given a key of its own
    (`add`: a table gets a key of `renames`), or doubled (`duplicate`: an array's entry
    twice), as a hypothesis `draw` chooses: the fuzz tests' mutation of variant files and
    positions. Changed in place, and returned."""
    import copy

    from hypothesis import strategies as st

    for _ in range(rounds):
        paths = list(toml_paths(data))
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = parent_table(data, path), path[-1]
        kind = draw(st.sampled_from(kinds))
        if kind == "drop":
            del parent[key]
        elif kind == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))  # an entry twice (a player, a pipeline entry)
        elif kind == "rename" and isinstance(parent, dict):
            parent[draw(st.sampled_from(renames(key)))] = parent.pop(key)
        elif kind == "add" and isinstance(parent[key], dict):
            parent[key][draw(st.sampled_from(renames(key)))] = copy.deepcopy(draw(st.sampled_from(values)))
        else:
            parent[key] = copy.deepcopy(draw(st.sampled_from(values)))  # (a copy: never a list inside itself)
    return data


# -- Ctrl-C to a running command ----------------------------------------------------------


def ctrl_c_once(argv, cwd, waits=(3, 8, 20)) -> list[tuple[int, str, str]]:
    """Run `amunre ARGV` and press Ctrl-C once its workers have started and worked for each
    of `waits` CPU seconds in turn (counted in CPU, not on the clock: a busy machine gives
    them less of each second), a fresh run each time, until a run prints something on stdout
    (a run may have finished no batch yet: then there is nothing to report but the count,
    0). Returns every run's (exit code, stdout, stderr); a run that outlives the test is
    killed."""
    import os
    import subprocess

    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(repo))
    runs = []
    for wait in waits:
        proc = subprocess.Popen([sys.executable, "-m", "amunre", *argv], cwd=cwd, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                # Ctrl-C as at a terminal, even when these tests were started with it ignored
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        wait_for_workers(proc.pid, _workers(argv), cpu_seconds=wait)
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:  # never leave a run (and its workers) behind a failing test
                proc.kill()
        runs.append((proc.returncode, out, err))
        if out:
            break
    return runs


def ctrl_c_twice(argv, cwd, wait: float = 6.0, gap: float = 0.2):
    """Run `amunre ARGV` in a session of its own and, after `wait` seconds, press Ctrl-C twice
    `gap` apart as at a terminal (to the whole process group, workers too). Returns the exit
    code and stderr; the run and its workers are killed if they outlive the test."""
    import os
    import signal
    import subprocess
    import time
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen([sys.executable, "-m", "amunre", *argv], cwd=cwd,
                            env=dict(os.environ, PYTHONPATH=str(repo)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            # Ctrl-C as at a terminal, even when these tests were started with it ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_for_workers(proc.pid, _workers(argv), cpu_seconds=wait / 3)
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(gap)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:  # hung: never leave it (and its workers) behind
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    return proc.returncode, err


def _workers(argv) -> int:
    """The --workers a command line asks for (0 when it names none)."""
    return int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 0


def wait_for_workers(pid: int, workers: int, cpu_seconds: float = 1.0, timeout: float = 120.0) -> None:
    """Wait until process `pid` has started `workers` worker processes (a busy machine may take
    seconds to start Python and the pool), and it and its workers have used `cpu_seconds` of
    CPU since they started (so that games are under way, however loaded the machine). Checked
    every 0.1 s in /proc (Linux), for at most `timeout` seconds."""
    import os
    import time

    tick = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + timeout
    base = None
    while time.monotonic() < deadline:
        tree = _process_tree(pid)
        started = sum(1 for child in tree[1:] if b"spawn_main" in _read(f"/proc/{child}/cmdline"))
        if started >= workers:
            used = sum(_cpu_ticks(process) for process in tree) / tick
            base = used if base is None else base
            if used - base >= cpu_seconds:
                return
        time.sleep(0.1)


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as found:
            return found.read()
    except OSError:
        return b""


def _process_tree(pid: int) -> list[int]:
    """`pid` and its children (those of every thread), one level down."""
    import glob

    children = {int(child) for path in glob.glob(f"/proc/{pid}/task/*/children") for child in _read(path).split()}
    return [pid, *sorted(children)]


def _cpu_ticks(pid: int) -> int:
    """User and system CPU time of a process so far, in clock ticks (0 once it is gone)."""
    stat = _read(f"/proc/{pid}/stat")
    fields = stat[stat.rfind(b")") + 2:].split()  # (after the command name, which may hold spaces)
    return int(fields[11]) + int(fields[12]) if len(fields) > 12 else 0


# -- stand-ins for an executor and a terminal ---------------------------------------------


class Inline:
    """An executor in this process, in task order; `stop_after` raises Ctrl-C mid-run."""

    workers = 1
    description = "this process"

    def __init__(self, stop_after=None):
        self.stop_after = stop_after

    def run(self, fn, tasks):
        for i, task in enumerate(tasks):
            if self.stop_after is not None and i == self.stop_after:
                raise KeyboardInterrupt
            yield i, fn(*task)


class FakeTerminal:
    """A human seat's terminal that answers with `typed` (then end of input) and keeps what it
    was shown, as plain text."""

    width = 100

    def __init__(self, typed=()):
        self.typed = list(typed)
        self.shown: list[str] = []

    def read(self, prompt):
        self.shown.append(prompt)
        return self.typed.pop(0) if self.typed else None

    def show(self, lines):
        self.shown += [getattr(t, "plain", str(t)) for t in lines]


# -- the values rule modules publish (`Rule.publishes`), in a test's words ---------------------
def published(state, name: str):
    """The value a rule module of the game publishes under `name` (the offering level, the
    theft cards by seat, the provinces on auction, the round's province cards), read from
    the module data that holds it: one module of a variant publishes each name."""
    holders = [data for data in state.rules.values() if isinstance(data, dict) and name in data]
    assert len(holders) == 1, f"{len(holders)} modules hold {name!r}"
    return holders[0][name]


def publish(state, name: str, value) -> None:
    """Set the value published under `name` on a prepared position (as a position file does):
    `round_provinces` lays out the round's province cards for the auction."""
    holders = [data for data in state.rules.values() if isinstance(data, dict) and name in data]
    assert len(holders) == 1, f"{len(holders)} modules hold {name!r}"
    holders[0][name] = value


#: The folder of the test plug-ins (modules and the variant files that use them).
PLUGINS = Path(__file__).resolve().parent / "plugins"


@contextmanager
def registered_plugin(module: str, rule: str):
    """A test plug-in of tests/plugins/ (`module`, defining the rule module `rule`) registered
    in-process, as an installed package's would be; unregistered afterwards. A variant loaded
    meanwhile keeps its modules (they are made when it loads)."""
    from amunre.core.registry import RULES, all_rules

    sys.path.insert(0, str(PLUGINS))
    try:
        all_rules()
        RULES[rule] = next(cls for cls in vars(importlib.import_module(module)).values()
                           if getattr(cls, "id", None) == rule)
        yield
    finally:
        RULES.pop(rule, None)
        sys.path.remove(str(PLUGINS))

