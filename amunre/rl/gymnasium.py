"""A Gymnasium single-agent environment for any variant: one learning seat, the other seats
played by named agents (`AmunreEnv`), registered as `amunre/AmunRe-v0`.

    import gymnasium
    import amunre.rl.gymnasium                       # registers amunre/AmunRe-v0
    env = gymnasium.make("amunre/AmunRe-v0", variant="classic2003", opponents="planner,greedy,random")
    observation, info = env.reset(seed=7)            # the game of `amunre run --seed 7`
    while True:
        action = int(info["action_mask"].nonzero()[0][0])     # your policy here
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

It needs the optional extra `amunre[rl]` (gymnasium, pettingzoo, numpy: `amunre.rl.extra`).
The action space and the observation are the PettingZoo environment's (`amunre.rl.actions`,
`amunre.rl.observation`): `Discrete(n)` over the variant's fixed action space, and a dict of the
seat's observation vector and its action mask. The mask is also `info["action_mask"]` and
`env.unwrapped.action_masks()` (what maskable learners read).

Each step answers the learning seat's decision, then lets the other seats' agents answer
theirs until the learning seat is asked again or the game is over. The reward is 0 until the
game is over, then the seat's reward ("win" or "score": `amunre.rl.rewards`). An action
outside the mask ends the episode at once with `illegal_reward` (-1 by default) and
`info["illegal_action"]` True, the game left unfinished; with `illegal_reward=None` it raises
`IllegalAnswerError` instead and changes nothing. `reset(seed=s)` plays the game of seed s, the
opponents' agents seeded as `amunre run` seeds them; `reset()` draws the next game's seed from
the environment's `np_random`, which the last seed started.
"""

from __future__ import annotations

import operator

from amunre.core import arguments
from amunre.core.errors import ArgumentValueError, IllegalAnswerError
from amunre.rl.actions import NOT_LEGAL, action_space
from amunre.rl.extra import MissingExtraError, require_gymnasium  # noqa: F401 - MissingExtraError: named here too
from amunre.rl.history import RoundHistory, checked_history
from amunre.rl.observation import BOUND, ObservationLayout
from amunre.rl.observation_writer import ObservationWriter
from amunre.rl.rendering import render_lines
from amunre.rl.rewards import REWARDS, final_rewards

try:  # the optional extra `amunre[rl]` (require_gymnasium() names it when it is missing)
    import gymnasium
    import numpy as np
    from gymnasium import spaces

    from amunre.rl.pettingzoo import action_mask
except ImportError:  # pragma: no cover - tested with the extra installed
    gymnasium = np = spaces = action_mask = None
    _Env: type = object
else:
    _Env = gymnasium.Env

#: The environment's id: namespace `amunre`, name `AmunRe`, version 0 (Gymnasium's conventions).
ENV_ID = "amunre/AmunRe-v0"
#: The other seats' agents when none are named: one of each of the built-in kinds that play alone.
DEFAULT_OPPONENTS = "planner,greedy,random"


def opponent_specs(opponents) -> list[str]:
    """The agent specs of `opponents`: a comma-separated text ("planner,greedy,random") or a
    list of specs; each must name an agent that plays unattended (`amunre.agents.agent_names`
    but `human`, or one's own code: `amunre.agents.own`)."""
    from amunre.agents import agent_names, check_spec, is_known, split_spec

    if isinstance(opponents, str):
        specs = [part.strip() for part in opponents.split(",")]
    elif isinstance(opponents, (list, tuple)):
        specs = list(opponents)
    else:
        raise arguments.wrong_type("opponents", opponents, "a comma-separated text of agent specs or a list of them",
                                   f"expected e.g. {DEFAULT_OPPONENTS!r}")
    if not specs or any(not isinstance(spec, str) or not spec for spec in specs):
        raise ArgumentValueError(
            f"opponents must name one agent spec per other seat, e.g. {DEFAULT_OPPONENTS!r}, not "
            f"{arguments.shown(opponents)}")
    bots = ", ".join(name for name in agent_names() if name != "human")
    for spec in specs:
        kind = split_spec(spec)[0]
        if kind == "human":  # (it would wait on the terminal, inside a learner's step)
            raise ArgumentValueError(f"opponents: 'human' cannot play in the environment: its seats play unattended "
                                     f"(choose from {bots}, or one's own as module:Class or ./file.py:Class)")
        if not is_known(kind):
            raise ArgumentValueError(f"opponents: unknown agent {arguments.shown(kind)} (choose from {bots}, or one's "
                                     f"own as module:Class, e.g. mypkg.bots:Cautious, or ./file.py:Class)")
        check_spec(spec)  # a parameter it does not take, an own agent that cannot load: its own clear error
    return specs


class AmunreEnv(_Env):
    """Amun-Re as a Gymnasium environment for one learning seat (see the module docstring).
    `game` is the `amunre.core.engine.Game` being played (for logging; a policy must not read it)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, variant="classic2003", opponents=DEFAULT_OPPONENTS, seat: int = 0, reward: str = "win",
                 illegal_reward: float | None = -1.0, render_mode: str | None = None, overrides=(),
                 history: bool = False):
        require_gymnasium()
        from amunre.agents import check_agents_for
        from amunre.loader import as_variant

        self.variant = as_variant(variant, arguments.overrides(overrides))
        self.opponents = opponent_specs(opponents)
        allowed = self.variant.players
        if len(self.opponents) + 1 not in allowed:
            raise ArgumentValueError(
                f"opponents: {self.variant.id} is played by {', '.join(map(str, allowed))} players, so name "
                f"{', '.join(str(n - 1) for n in allowed)} opponents, not {len(self.opponents)}")
        self.n_players = len(self.opponents) + 1
        self.seat = arguments.whole_number("seat", seat, low=0, high=self.n_players - 1,
                                           hint=f"expected the learning seat: 0 to {self.n_players - 1}")
        arguments.one_of("reward", reward, REWARDS)
        if illegal_reward is not None and (isinstance(illegal_reward, bool)
                                           or not isinstance(illegal_reward, (int, float))):
            raise arguments.wrong_type("illegal_reward", illegal_reward, "a number or None",
                                       "expected e.g. -1.0, or None to raise on an illegal action")
        modes = tuple(self.metadata["render_modes"])
        if render_mode is not None:
            arguments.one_of("render_mode", render_mode, modes, f"one of {', '.join(modes)} or None")
        self.lineup = list(self.opponents)
        self.lineup.insert(self.seat, "(learning)")
        check_agents_for([spec for spec in self.lineup if spec != "(learning)"], self.variant)
        self.reward_kind = reward
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.render_mode = render_mode
        self.actions = action_space(self.variant)
        self.layout = ObservationLayout(self.variant, self.n_players, self.actions, history=checked_history(history))
        self._history = None  # the game's RoundHistory, with `history`
        self._writer = ObservationWriter(self.layout)  # the seat's vector, kept and brought up to date
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
        })
        self.action_space = spaces.Discrete(len(self.actions))
        self.game = None
        self._agents: dict[int, object] = {}
        self._over = True
        self._lines: list[str] = []

    # -- Gymnasium's API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game: of seed `seed` (the game of `amunre run --seed`), or of a seed drawn from
        `np_random`. `options` are not used."""
        from amunre.agents import make_agent
        from amunre.core.engine import MAX_SEED, Game, check_seed

        if seed is not None:
            seed = check_seed(seed)  # numpy's integers too
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, MAX_SEED, endpoint=True))
        listeners = []
        self._lines = []
        if self.render_mode is not None:
            from amunre.core.words import Narrator

            names = [f"player_{p}" if p != self.seat else f"player_{p} (learning)" for p in range(self.n_players)]
            listeners.append(Narrator(self.variant, self._lines.append, names))
        if self.layout.history:
            self._history = RoundHistory(self.n_players, len(self.variant.board))
            listeners.append(self._history)
        self.game = Game(self.variant, self.n_players, game_seed, listeners)
        self._agents = {p: make_agent(spec, game_seed, p) for p, spec in enumerate(self.lineup) if p != self.seat}
        self._over = False
        self._play_others()
        if self.render_mode == "human":
            self.render()
        return self._observed()

    def step(self, action):
        if self._over:
            raise IllegalAnswerError("the episode is over (or was never begun): call reset() first")
        request = self.game.pending
        self.actions.option(action)  # an id out of range: a clear ArgumentValueError
        option = self.actions.answer_of(request, operator.index(action))  # (the mask's look-up, kept)
        if option is NOT_LEGAL:
            legal = self.actions.legal(request)
            if self.illegal_reward is None:
                shown = "; ".join(f"{i} ({self.actions.to_string(i)})" for i in legal[:6])
                more = f"; ... ({len(legal)} in all)" if len(legal) > 6 else ""
                raise IllegalAnswerError(
                    f"action {operator.index(action)} ({self.actions.to_string(action)}) is not legal for the "
                    f"learning seat {self.seat}, who is asked {request.kind!r}: legal are {shown}{more}")
            self._over = True
            observation, info = self._observed(illegal_action=True)
            return observation, self.illegal_reward, True, False, info
        self.game.answer(option)
        self._play_others()
        if self.render_mode == "human":
            self.render()
        if self.game.pending is None:
            self._over = True
            reward = final_rewards(self.game.state, self.reward_kind)[self.seat]
            observation, info = self._observed()
            return observation, reward, True, False, info
        observation, info = self._observed()
        return observation, 0.0, False, False, info

    def render(self):
        """The play-by-play since the last call, in the edition's words: printed ("human") or
        returned ("ansi")."""
        return render_lines(self._lines, self.render_mode)

    # -- amunre's own -----------------------------------------------------------------------
    def action_masks(self):
        """The int8 mask of the learning seat's legal actions (all 0 once the episode is over)."""
        if self._over:
            return np.zeros(len(self.actions), dtype=np.int8)
        return action_mask(self.actions, self.game, self.seat)

    def action_to_string(self, action: int) -> str:
        """An action id in the edition's words (`ActionSpace.to_string`)."""
        return self.actions.to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id of `action_to_string`'s text (`ActionSpace.from_string`)."""
        return self.actions.from_string(text)

    def _play_others(self) -> None:
        """Let the other seats' agents answer until the learning seat is asked or the game ends."""
        game, seat = self.game, self.seat
        request = game.pending
        while request is not None and request.player != seat:
            game.answer(self._agents[request.player].choose(game.view(request.player), request))
            request = game.pending

    def _observed(self, illegal_action: bool = False) -> tuple[dict, dict]:
        """The observation and the info: the mask in both (two arrays: a learner may change one)."""
        mask = self.action_masks()
        info = {"action_mask": mask.copy()}
        if illegal_action:
            info["illegal_action"] = True
        vector = self._writer.observe(self.game, self.seat, self._history).copy()
        return {"observation": vector, "action_mask": mask}, info


if gymnasium is not None and ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="amunre.rl.gymnasium:AmunreEnv")
