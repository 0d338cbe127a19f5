"""Agents answer the engine's decisions. An agent is any object with
`choose(view, request) -> option`: `view` is what its seat may know (`amunre.core.view.PlayerView`:
its own hand, the public board, other hands only by size), never the game state.
`make_agents` builds the built-in ones from their specs, each with its own generator derived
from the game seed, so agent randomness never touches the game's generator.

A spec is a kind, optionally with parameters after colons: `greedy`, `mcts:iterations=400`,
`mcts:iterations=200:exploration=1.0` (a comma separates seats in `--agents`, so parameters
use colons). A kind is a built-in agent's, an installed package's (`PLUGIN_GROUP`), or one's
own code named by where it is, `mypkg.bots:Cautious` or `./my_bot.py:Cautious`
(`amunre.agents.own`).
"""

from __future__ import annotations

import hashlib
import math
import random
import threading
from typing import Any

from amunre.agents.numbers import plain_number  # noqa: F401 - the parameters' numbers, named here too
from amunre.core import arguments
from amunre.core.decisions import Agent  # noqa: F401 - what an agent is (the core's word), named here too
from amunre.core.errors import ArgumentValueError

#: The agent of a seat nobody names (`run`, `compare`, `arena`): it plays the variant it is
#: given (see docs/agents.md for what that means for a comparison).
DEFAULT_AGENT = "planner"




def agent_names() -> list[str]:
    """The kinds an agent spec may name: the built-in ones and those installed packages add
    (`PLUGIN_GROUP`)."""
    return sorted(_factories())


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """(kind, {parameter: value text}) of an agent spec such as `mcts:iterations=400`."""
    arguments.text("spec", spec, f"expected an agent spec such as 'random' or 'mcts:iterations=400'; agents: "
                   f"{', '.join(agent_names())}")
    from amunre.agents.own import join_drive

    kind, *parts = join_drive(spec.split(":"))
    kind = kind.strip()
    if parts and "=" not in parts[0] and kind not in _factories():  # LOCATION:NAME, one's own code
        name = parts.pop(0).strip()
        if not kind or not name.isidentifier():
            raise ArgumentValueError(f"agent {arguments.shown(spec)}: {arguments.shown(name)} is not a Python name "
                                     f"(expected one's own agent as LOCATION:NAME, e.g. mypkg.bots:Cautious or "
                                     f"./my_bot.py:Cautious)")
        kind = f"{kind}:{name}"
    params: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise ArgumentValueError(f"agent {arguments.shown(spec)}: {arguments.shown(part)} is not KEY=VALUE "
                                     f"(expected e.g. mcts:iterations=400)")
        if key in params:
            raise ArgumentValueError(f"agent {arguments.shown(spec)} sets {arguments.shown(key)} twice (expected each "
                                     f"parameter once)")
        params[key] = value.strip()
    return kind, params


def is_own(kind: str) -> bool:
    """Whether a spec's kind (`split_spec`) names one's own code, `LOCATION:NAME`."""
    return ":" in kind


def is_known(kind: str) -> bool:
    """Whether a spec's kind names an agent: a built-in or installed kind, or one's own code
    (which `make_agent` then loads, saying what is wrong if it cannot)."""
    return is_own(kind) or kind in _factories()


def make_agent(spec: str, seed: int, player: int):
    """The agent of a spec for seat `player` (0, 1, ...) of a game seeded `seed`; a bad spec is
    an ArgumentValueError naming what is wrong with it (`amunre.core.arguments`)."""
    kind, params = split_spec(spec)
    seed = arguments.seed(seed)
    player = arguments.whole_number("player", player, low=0, hint="expected a seat number: 0, 1, ...")
    if is_own(kind):
        from amunre.agents.own import make_own

        agent = make_own(kind, params, agent_rng(seed, player))
        if not callable(getattr(agent, "choose", None)):
            raise ArgumentValueError(f"agent {kind!r} made {type(agent).__name__}, which has no choose(view, "
                                     "request) (expected an agent)")
        return agent
    try:
        factory = _factories()[kind]
    except KeyError:
        broken = BROKEN_AGENTS.get(kind)
        if broken is not None:
            raise ArgumentValueError(f"agent {kind!r} of an installed package could not be used: {broken}") from None
        raise ArgumentValueError(f"unknown agent {arguments.shown(kind)} (available: {', '.join(agent_names())})") \
            from None
    if kind in _FACTORIES:
        agent = factory(agent_rng(seed, player), **params)
    else:  # an installed package's: whatever it raises is said as its refusal, never a traceback
        try:
            agent = factory(agent_rng(seed, player), **params)
        except Exception as exc:  # noqa: BLE001 - third-party code
            raise ArgumentValueError(f"agent {spec!r} could not be made by its package: "
                                     f"{type(exc).__name__}: {exc}") from None
    if not callable(getattr(agent, "choose", None)):  # a plug-in's factory that made something else
        raise ArgumentValueError(f"agent {kind!r} made {type(agent).__name__}, which has no choose(view, request) "
                          "(expected an agent)")
    return agent


def agent_rng(seed: int, player: int) -> random.Random:
    """The generator of seat `player`'s agent in a game seeded `seed`: derived through a hash,
    so that an agent that reads its own generator's state (Python's seeding can be undone)
    learns no more of the game's seed than a hash of it."""
    digest = hashlib.blake2b(f"amunre agent {seed} {player}".encode(), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))


def check_agents_for(specs: list[str], variant) -> None:
    """Each spec's parameters make sense for `variant` (a planner's item weights name its
    scoring items): an agent with `check_variant(variant)` is asked, else nothing to check."""
    for seat, spec in enumerate(specs):
        check = getattr(make_agent(spec, 0, seat), "check_variant", None)
        if check is not None:
            check(variant)


def playouts_per_decision(spec: str) -> float:
    """The most work a bot of `spec` does to answer one decision, counted in games played
    out to their end by `greedy` (its cost a unit): what its agent declares as its
    `playouts_per_decision`, else 0 (an agent that plays no game out, as `greedy`, `random`
    and `planner`: its work per decision is set by the game, and no parameter raises it). A
    server bounds what a table may cost with it (`amunre serve --max-bot-playouts`)."""
    declared = getattr(make_agent(spec, 0, 0), "playouts_per_decision", 0)
    if isinstance(declared, bool) or not isinstance(declared, (int, float)) or not 0 <= declared < math.inf:
        # an installed agent's declaration that is no count: as costly as can be, never a crash
        return math.inf
    return math.ceil(declared)


def check_spec(spec: str) -> str:
    """`spec` if it names a known agent with parameters it takes, else a clear AmunreError."""
    make_agent(spec, 0, 0)
    return spec


def make_agents(names: list[str], seed: int) -> list:
    return [make_agent(name, seed, i) for i, name in enumerate(names)]


def _no_params(kind: str, params: dict) -> None:
    if params:
        raise ArgumentValueError(f"agent {kind!r} takes no parameters (got {', '.join(sorted(params))})")


def _random(rng, **params):
    from amunre.agents.random_agent import RandomAgent
    _no_params("random", params)
    return RandomAgent(rng)


def _greedy(rng, **params):
    from amunre.agents.greedy import GreedyAgent
    _no_params("greedy", params)
    return GreedyAgent(rng)


def _human(rng, **params):
    from amunre.agents.human import HumanAgent
    _no_params("human", params)
    return HumanAgent()


def _mcts(rng, **params):
    from amunre.agents.mcts import make
    return make(rng, **params)


def _planner(rng, **params):
    from amunre.agents.planner import make
    return make(rng, **params)


_FACTORIES = {"random": _random, "greedy": _greedy, "human": _human, "mcts": _mcts, "planner": _planner}


def is_builtin(spec: str) -> bool:
    """Whether `spec` names one of amunre's own agents, not an installed package's."""
    return split_spec(spec)[0] in _FACTORIES

#: The entry-point group through which an installed package adds agents: the entry's name is
#: the agent's kind, its value a factory `(rng, **params) -> agent` (a class will do), `rng`
#: the seat's own `random.Random` and `params` the spec's parameters as texts
#: (`mybot:depth=3` gives `depth="3"`). Its agents are named like the built-in ones (`amunre
#: run --agents mybot`, `amunre check --agents mybot`, the arena).
PLUGIN_GROUP = "amunre.agents"
#: Installed agents that could not be used, by name: why (a failed import, a built-in's name).
BROKEN_AGENTS: dict[str, str] = {}
_plugged: dict[str, Any] | None = None
_PLUGGING = threading.Lock()


def _factories() -> dict[str, Any]:
    """Every agent factory by kind: the built-in ones, then the installed packages' (loaded once)."""
    global _plugged
    if _plugged is None:
        with _PLUGGING:
            if _plugged is None:
                _plugged = _load_plugins()
    return {**_plugged, **_FACTORIES}


def _load_plugins() -> dict[str, Any]:
    from importlib.metadata import entry_points

    found: dict[str, Any] = {}
    for entry in entry_points(group=PLUGIN_GROUP):
        if entry.name in _FACTORIES:
            BROKEN_AGENTS[entry.name] = f"{entry.value}: its name is a built-in agent's, so it was not loaded"
            continue
        try:  # one broken package must not stop the others, nor the built-in agents
            factory = entry.load()
        except Exception as exc:  # noqa: BLE001 - any import error of third-party code
            BROKEN_AGENTS[entry.name] = f"{entry.value}: {type(exc).__name__}: {exc}"
            continue
        if not callable(factory):
            BROKEN_AGENTS[entry.name] = f"{entry.value}: {factory!r} is not callable (expected a factory " \
                                        "(rng, **params) -> agent)"
            continue
        found[entry.name] = factory
    return found
