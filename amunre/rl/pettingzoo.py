"""A PettingZoo AEC environment for any variant (`env`, `raw_env`, `AmunreEnv`) and the action
mask it shows each seat (`action_mask`).

    from amunre.rl.pettingzoo import env
    game = env(variant="classic2003", players=4)     # a pettingzoo.AECEnv
    game.reset(seed=7)                                # the same game as `amunre run --seed 7`
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        ...                                           # pick an id where observation["action_mask"] is 1
        game.step(action)                             # None once the agent is terminated

The environment needs the optional extra: `pip install 'amunre[rl]'` (pettingzoo, numpy;
`amunre.rl.extra`). The action space it plays with (`ActionSpace`, `action_space`: see
`amunre.rl.actions`) does not: it is plain Python. Both, and the observation's layout
(`ObservationLayout`: `amunre.rl.observation`), are named here too.

Turns follow `game.pending.player`: agent `player_<seat>` is selected whenever his seat is
asked. A simultaneous (secret) decision is a turn of each of its players in turn order; an
answer stays sealed until the batch is revealed, and no observation shows it before that.

Observation: {"observation": float32 vector, "action_mask": int8 vector}. The vector encodes
only the seat's view and, when the seat is asked, its request's kind and context
(`amunre.rl.observation`), and with `history=True` the last round's public history
(`amunre.rl.history`); the mask has a 1 for each legal action of the seat's request. Many
games at once, as numpy batches: `amunre.rl.vector`.

Rewards come at the end only: with `reward="win"` (the default) the k winners get 1/k each
and the others 0; with `reward="score"` each player gets his final points minus the mean of
the others' (a zero-sum difference). During the game every reward is 0.

A bad argument (of `env`, `string_to_action`, `step`, `reset`) is an `ArgumentTypeError` or
`ArgumentValueError` (`amunre.core.arguments`: AmunreErrors that are also TypeError / ValueError)
naming the argument and what was expected, its value cut short: never an error from inside,
whatever the type (`overrides=None`, brackets nested thousands deep).
"""

from __future__ import annotations

import operator
import random

from amunre.core import arguments
from amunre.core.arguments import MAX_OVERRIDES  # noqa: F401 - the most `overrides` an environment takes
from amunre.core.decisions import to_json_value
from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.rl.actions import NOT_LEGAL, ActionSpace, action_space
from amunre.rl.extra import MissingExtraError, require_extra  # noqa: F401 - MissingExtraError: named here too
from amunre.rl.history import RoundHistory, checked_history
from amunre.rl.observation import BOUND, ObservationLayout
from amunre.rl.observation_writer import ObservationWriter
from amunre.rl.rendering import render_lines
from amunre.rl.rewards import REWARDS, final_rewards

try:  # the optional extra `amunre[rl]` (require_extra() names it when it is missing)
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError:  # pragma: no cover - tested with the extra installed
    np = spaces = None
    AECEnv = object

#: The environment's name and version (PettingZoo's `metadata["name"]`).
NAME = "amunre_v0"


def action_mask(space: ActionSpace, game, seat: int):
    """The int8 mask over `space`: 1 for the legal options of `seat`'s pending request, all 0
    when another seat is asked or the game is over. A request none of whose options is in
    the space is an AmunreError (a kind's `actions` miss them: never for the built-in ones)."""
    require_extra()
    mask = np.zeros(len(space), dtype=np.int8)
    request = game.pending if game is not None else None
    if request is not None and request.player == seat:
        legal = space.legal(request)
        if not legal:
            raise AmunreError(
                f"none of the {len(request.options)} legal options of {request.kind!r} is in the action space of "
                f"{space.variant.id}: the kind's `actions` miss them (e.g. {to_json_value(request.options[0])!r})")
        mask[legal] = 1
    return mask


def _load(variant, overrides):
    from amunre.loader import as_variant

    return as_variant(variant, arguments.overrides(overrides))


class AmunreEnv(AECEnv):
    """Amun-Re as a PettingZoo AEC environment (see the module docstring; `env()` wraps it in
    PettingZoo's order-enforcing wrapper, `amunre.rl.order_enforcing`). `game` is the
    `amunre.core.engine.Game` being played."""

    metadata = {"render_modes": ["human", "ansi"], "name": NAME, "is_parallelizable": False}

    def __init__(self, variant="classic2003", players: int = 4, reward: str = "win",
                 render_mode: str | None = None, overrides=(), history: bool = False):
        require_extra()
        super().__init__()
        from amunre.core.engine import check_players

        self.variant = _load(variant, overrides)
        players = check_players(self.variant, players)  # numpy's integers too
        arguments.one_of("reward", reward, REWARDS)
        modes = tuple(self.metadata["render_modes"])
        if render_mode is not None:
            arguments.one_of("render_mode", render_mode, modes, f"one of {', '.join(modes)} or None")
        self.n_players = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self.actions = action_space(self.variant)
        self.layout = ObservationLayout(self.variant, players, self.actions, history=checked_history(history))
        self._history = None  # the game's RoundHistory, with `history`
        self._writer = ObservationWriter(self.layout)  # each seat's vector, kept and brought up to date
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {name: i for i, name in enumerate(self.possible_agents)}
        size, count = self.layout.size, len(self.actions)
        self.observation_spaces = {
            name: spaces.Dict({
                "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }) for name in self.possible_agents}
        self.action_spaces = {name: spaces.Discrete(count) for name in self.possible_agents}
        self.game = None
        self._seeds: random.Random | None = None
        self._lines: list[str] = []

    # -- PettingZoo's API -------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. `seed` is the game's seed itself (the game of `amunre run --seed`); without
        one the next game's seed is drawn from the generator the last seed started (or from
        the system's entropy, the first time). `options` are not used."""
        from amunre.core.engine import MAX_SEED, Game, check_seed

        if seed is not None:
            seed = check_seed(seed)  # numpy's integers too
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            game_seed = self._seeds.randrange(MAX_SEED + 1)
        listeners = []
        self._lines = []
        if self.render_mode is not None:
            from amunre.core.words import Narrator

            listeners.append(Narrator(self.variant, self._lines.append, list(self.possible_agents)))
        if self.layout.history:
            self._history = RoundHistory(self.n_players, len(self.variant.board))
            listeners.append(self._history)
        self.game = Game(self.variant, self.n_players, game_seed, listeners)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {name: {} for name in self.agents}
        self._select()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        return {"observation": self._writer.observe(self.game, seat, self._history).copy(),
                "action_mask": self.action_mask(seat)}

    def step(self, action) -> None:
        if not self.agents:  # every agent stepped out of a finished game: nobody to step
            raise IllegalAnswerError("step() after the game is over and every agent is done (each was stepped "
                                     "with None): call reset() to play another game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        request = self.game.pending
        if type(action) is not int:  # (a legal int needs no more: the mask's look-up below finds it)
            self.actions.option(action)  # not an id, or out of range: a clear ArgumentValueError
        option = self.actions.answer_of(request, operator.index(action))  # (the mask's look-up, kept)
        if option is NOT_LEGAL:
            self.actions.option(action)  # out of range: a clear ArgumentValueError
            legal = self.actions.legal(request)
            shown = "; ".join(f"{i} ({self.actions.to_string(i)})" for i in legal[:6])
            more = f"; ... ({len(legal)} in all)" if len(legal) > 6 else ""
            raise IllegalAnswerError(
                f"action {operator.index(action)} ({self.actions.to_string(action)}) is not legal for {agent}, who "
                f"is asked {request.kind!r}: legal are {shown}{more}")
        self._cumulative_rewards[agent] = 0.0
        self.game.answer(option)
        self._select()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The play-by-play since the last call, in the edition's words: printed ("human") or
        returned ("ansi")."""
        return render_lines(self._lines, self.render_mode)

    def close(self) -> None:
        pass

    # -- amunre's own -----------------------------------------------------------------------
    def action_mask(self, seat: int):
        """The int8 mask over the action space of `seat` (`action_mask`)."""
        return action_mask(self.actions, self.game, seat)

    def final_rewards(self) -> dict[str, float]:
        """The rewards once the game is over (see the module docstring)."""
        by_seat = final_rewards(self.game.state, self.reward_kind)
        return {name: by_seat[seat] for name, seat in self.agent_name_mapping.items()}

    def action_to_string(self, action: int) -> str:
        """An action id in the edition's words (`ActionSpace.to_string`)."""
        return self.actions.to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id of `action_to_string`'s text (`ActionSpace.from_string`)."""
        return self.actions.from_string(text)

    def _select(self) -> None:
        """Select the seat asked now; once the game is over, give the rewards and end every
        agent (the last one to act is selected first, to be stepped with None)."""
        if self.game.pending is not None:
            self.agent_selection = self.possible_agents[self.game.pending.player]
            return
        self.rewards = self.final_rewards()
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]


def raw_env(variant="classic2003", players: int = 4, reward: str = "win", render_mode: str | None = None,
            overrides=(), history: bool = False) -> AmunreEnv:
    """The environment without PettingZoo's wrapper."""
    return AmunreEnv(variant, players, reward, render_mode, overrides, history)


def env(variant="classic2003", players: int = 4, reward: str = "win", render_mode: str | None = None,
        overrides=(), history: bool = False):
    """A PettingZoo AEC environment of `variant` (an id, a path or a loaded Variant; `overrides`
    are `--set` texts) for `players` players; `reward` "win" or "score" (module docstring),
    `render_mode` None, "human" or "ansi"; with `history` the observation ends with the last
    round's public history (`amunre.rl.history`)."""
    require_extra()
    from amunre.rl.order_enforcing import QuickOrderEnforcingWrapper

    return QuickOrderEnforcingWrapper(raw_env(variant, players, reward, render_mode, overrides, history))
