"""The learning environments' speed beside the bare engine's, in one run (issue 39).

    PYTHONPATH=. .venv/bin/python benchmarks/rl_speed.py [--games G] [--repeats R] [--variant V] [--envs N] [--profile]

Rows, each the median of R repeats of G seeded games (CPU time, `time.process_time`: the
machine may be shared, so compare the ratios, not the absolute figures, across machines):

- engine: `play_game` with the `random` agent; *decisions* are the decisions asked of
  agents (forced ones, with a single option, are not asked);
- pettingzoo: the AEC environment of `env()` (with PettingZoo's order-enforcing wrapper),
  each step a random legal action drawn with numpy from the mask of `last()` (`LegalChooser`;
  `rng.choice(np.flatnonzero(mask))` would cost more than the engine's decision); the steps
  counted are the live ones (a terminated agent's `step(None)` is not a decision);
- pettingzoo raw: the same without PettingZoo's wrapper (`raw_env`), so that the wrapper's
  share shows;
- gymnasium: the single-agent environment, its other seats `random` agents; its steps are
  the learning seat's decisions, its CPU time the whole game's (each step plays the
  opponents' decisions too), so its rate is below the others' by the seats' count;
- vector: the N-game vector environment (`amunre.rl.vector`) where this checkout has it,
  its steps every seat's decision of every game.

Each row's last column is its rate over the engine's. With `--parts`, rows that take one part
back out, to show what it gives and where the floor is:

- pettingzoo, PettingZoo's wrapper: `env()` with PettingZoo's own `OrderEnforcingWrapper`
  rather than `amunre.rl.order_enforcing`'s quicker subclass;
- pettingzoo raw, fresh vectors: each observation encoded afresh (`ObservationLayout.encode`)
  rather than the seat's kept vector brought up to date (`amunre.rl.observation_writer`);
- pettingzoo raw, no observation: the mask alone (a bound: what the rest costs).

With `--profile`, then the share of the PettingZoo environment's time each part takes
(cProfile), with and without PettingZoo's wrapper.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from amunre.agents import make_agents
from amunre.core.engine import play_game
from amunre.loader import load_variant


def engine_rate(variant, players: int, seeds: range) -> tuple[int, float]:
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        decisions += len(play_game(variant, make_agents(["random"] * players, seed), seed).answers)
    return decisions, time.process_time() - start


class LegalChooser:
    """A uniform random legal action from a mask, drawn with numpy: the uniforms come in
    blocks (`Generator.choice` alone costs more per call than an engine decision)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.uniforms, self.at = self.rng.random(4096), 0

    def __call__(self, mask) -> int:
        if self.at == len(self.uniforms):
            self.uniforms, self.at = self.rng.random(4096), 0
        legal = mask.nonzero()[0]
        self.at += 1
        return int(legal[int(self.uniforms[self.at - 1] * len(legal))])


def pettingzoo_rate(environment, seeds: range) -> tuple[int, float]:
    steps = 0
    start = time.process_time()
    for seed in seeds:
        choose = LegalChooser(seed)
        environment.reset(seed=seed)
        for _agent in environment.agent_iter():
            observation, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(choose(observation["action_mask"]))
            steps += 1
    return steps, time.process_time() - start


def gymnasium_rate(variant_id: str, players: int, seeds: range) -> tuple[int, float]:
    from amunre.rl.gymnasium import AmunreEnv

    environment = AmunreEnv(variant_id, opponents=",".join(["random"] * (players - 1)))
    steps = 0
    start = time.process_time()
    for seed in seeds:
        choose = LegalChooser(seed)
        _observation, info = environment.reset(seed=seed)
        terminated = False
        while not terminated:
            action = choose(info["action_mask"])
            _observation, _reward, terminated, _truncated, info = environment.step(action)
            steps += 1
    return steps, time.process_time() - start


def vector_rate(variant_id: str, players: int, seeds: range, n_envs: int) -> tuple[int, float] | None:
    try:
        from amunre.rl.vector import AmunreVectorEnv, sample_legal
    except ImportError:  # a checkout from before the vector environment
        return None
    environment = AmunreVectorEnv(n_envs, variant=variant_id, players=players)
    rng = np.random.default_rng(0)
    games = len(seeds)
    steps = 0
    start = time.process_time()
    observations, infos = environment.reset(seed=seeds.start)
    finished = 0
    while finished < games:
        actions = sample_legal(observations["action_mask"], rng)
        observations, _rewards, terminated, _truncated, _infos = environment.step(actions)
        steps += n_envs
        finished += int(terminated.sum())
    return steps, time.process_time() - start


def part_rows(variant_id: str, players: int, seeds: range) -> dict:
    """The `--parts` rows (module docstring): each a measure like the others."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from amunre.rl.pettingzoo import AmunreEnv

    class FreshVectors(AmunreEnv):
        def observe(self, agent):
            seat = self.agent_name_mapping[agent]
            return {"observation": self.layout.encode(self.game, seat, self._history),
                    "action_mask": self.action_mask(seat)}

    class NoObservation(AmunreEnv):
        def observe(self, agent):
            return {"observation": None, "action_mask": self.action_mask(self.agent_name_mapping[agent])}

    theirs = OrderEnforcingWrapper(AmunreEnv(variant_id, players))
    fresh, none = FreshVectors(variant_id, players), NoObservation(variant_id, players)
    return {"pettingzoo, PettingZoo's wrapper": lambda: pettingzoo_rate(theirs, seeds),
            "pettingzoo raw, fresh vectors": lambda: pettingzoo_rate(fresh, seeds),
            "pettingzoo raw, no observation": lambda: pettingzoo_rate(none, seeds)}


#: Where a function's own time goes in `--profile`, by the first piece of its file's path found.
PROFILE_GROUPS = (
    ("amunre/rl/observation.py", "the observation (amunre.rl.observation)"),
    ("amunre/rl/observation_writer.py", "the observation (amunre.rl.observation)"),
    ("amunre/rl/history.py", "the observation (amunre.rl.observation)"),
    ("amunre/rl/order_enforcing.py", "PettingZoo's own code (its wrapper, last(), agent_iter())"),
    ("amunre/rl/actions.py", "the action mask and step checks (amunre.rl.actions, pettingzoo.py)"),
    ("amunre/rl/pettingzoo.py", "the action mask and step checks (amunre.rl.actions, pettingzoo.py)"),
    ("site-packages/pettingzoo", "PettingZoo's own code (its wrapper, last(), agent_iter())"),
    ("site-packages/numpy", "numpy's functions written in Python (its C calls count with their callers)"),
    ("benchmarks/rl_speed.py", "the benchmark's loop and random choice"),
    ("amunre/", "the engine (amunre.core, amunre.rules)"),
)


def profile_pettingzoo(variant_id: str, players: int, seeds: range, wrapped: bool) -> None:
    """Print where the PettingZoo environment's time goes, by part (cProfile, own time, a
    built-in's counted with its caller: the profiler slows Python calls more than numpy's, so
    read the shares, not the seconds)."""
    import cProfile
    import pstats

    from amunre.rl.pettingzoo import env, raw_env

    environment = env(variant_id, players) if wrapped else raw_env(variant_id, players)
    pettingzoo_rate(environment, range(1))  # warm-up
    profiler = cProfile.Profile()
    profiler.enable()
    pettingzoo_rate(environment, seeds)
    profiler.disable()
    def group_of(path: str) -> str:
        path = path.replace("\\", "/")
        return next((label for piece, label in PROFILE_GROUPS if piece in path), "other")

    shares: dict[str, float] = {}
    for (path, _line, _name), (_calls, _primitive, own, _total, callers) in pstats.Stats(profiler).stats.items():
        if path == "~" or path.startswith("<"):  # a built-in (numpy.array, len...): its callers' time
            for (caller_path, _, _), (_, _, caller_own, _) in callers.items():
                shares[group_of(caller_path)] = shares.get(group_of(caller_path), 0.0) + caller_own
        else:
            shares[group_of(path)] = shares.get(group_of(path), 0.0) + own
    total = sum(shares.values())
    print(f"where the time goes ({'env()' if wrapped else 'raw_env()'}, cProfile, own time):")
    for group, own in sorted(shares.items(), key=lambda item: -item[1]):
        print(f"  {100 * own / total:5.1f}%  {group}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per repeat (default 20)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; the median is shown (default 5)")
    parser.add_argument("--variant", default="classic2003")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--envs", type=int, default=8, help="games stepped together by the vector row")
    parser.add_argument("--parts", action="store_true",
                        help="also rows that take one part back out (the wrapper, the kept vectors, the observation)")
    parser.add_argument("--profile", action="store_true",
                        help="then show where the PettingZoo environment's time goes (cProfile)")
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1 or args.envs < 1:
        sys.exit("rl_speed.py: --games, --repeats and --envs must be at least 1")
    from amunre.rl.pettingzoo import env, raw_env

    variant = load_variant(args.variant)
    seeds = range(args.games)
    wrapped, bare = env(args.variant, args.players), raw_env(args.variant, args.players)
    rows = {
        "engine": lambda: engine_rate(variant, args.players, seeds),
        "pettingzoo": lambda: pettingzoo_rate(wrapped, seeds),
        "pettingzoo raw": lambda: pettingzoo_rate(bare, seeds),
        "gymnasium": lambda: gymnasium_rate(args.variant, args.players, seeds),
        "vector": lambda: vector_rate(args.variant, args.players, seeds, args.envs),
    }
    if args.parts:
        rows.update(part_rows(args.variant, args.players, seeds))
    for measure in rows.values():  # a warm-up: the modules a game imports on first use
        measure()
    rates: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.repeats):  # round-robin: a slow spell of the machine hits every row alike
        for name, measure in rows.items():
            result = measure()
            if result is not None:
                steps, cpu = result
                rates[name].append(steps / cpu)
    engine = statistics.median(rates["engine"])
    print(f"{args.variant}, {args.players} players, {args.games} games x {args.repeats} repeats (median), "
          f"CPU time")
    width = max(map(len, rates)) + 2
    print(f"{'':{width}}{'steps per CPU s':>16}{'of the engine':>15}")
    for name, measured in rates.items():
        if measured:
            rate = statistics.median(measured)
            print(f"{name:{width}}{rate:16,.0f}{rate / engine:15.2f}")
    if args.profile:
        for wrapped in (True, False):
            profile_pettingzoo(args.variant, args.players, seeds, wrapped)


if __name__ == "__main__":
    main()
