"""N games of a variant stepped together, as numpy batches (`AmunreVectorEnv`, a Gymnasium
`VectorEnv`), and a random legal action for each row of a batch of masks (`sample_legal`).

    from amunre.rl.vector import AmunreVectorEnv, sample_legal
    envs = AmunreVectorEnv(8, variant="classic2003", players=4)
    observations, infos = envs.reset(seed=7)           # game i: the game of seed 7 + i
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = sample_legal(observations["action_mask"], rng)   # your batched policy here
        observations, rewards, terminated, truncated, infos = envs.step(actions)

Self-play: every seat of every game is the caller's, as in the PettingZoo environment. Row i
of a batch is game i's seat to move (`infos["seat"][i]`): its observation vector
(`amunre.rl.observation`, the PettingZoo environment's) and its action mask. A step answers
each game's pending decision with its action; an action outside a game's mask is an
`IllegalAnswerError` naming the game, its seat and its legal actions, and no game is changed.

Rewards: `rewards[i]` is 0 until game i ends; at its end, the reward of the seat that made its
last decision, and `infos["rewards"][i]` every seat's (by seat number; "win" or "score":
`amunre.rl.rewards`). A game that ends starts again at once (Gymnasium's same-step autoreset):
`terminated[i]` is True and row i is already the next game's first decision. Seeds:
`reset(seed=s)` plays in game i the game of seed s + i (`amunre run --seed`), and each game's
next seeds follow from its own as a PettingZoo environment's `reset()` draws them, so row i
is the very game of `env().reset(seed=s + i)` followed by `reset()` at each end (tested).

The batches are written in place into arrays kept for the purpose (one row per game: the
vector of the game's seat to move, kept and brought up to date from its state by
`amunre.rl.observation_writer`, copied into the row); with `copy=True` (the default) the
caller gets copies, with `copy=False` the arrays themselves, overwritten by the next step. It
needs the optional extra `amunre[rl]`.
"""

from __future__ import annotations

import operator
import random

from amunre.core import arguments
from amunre.core.errors import ArgumentValueError, IllegalAnswerError
from amunre.rl.actions import NOT_LEGAL, action_space
from amunre.rl.extra import require_gymnasium
from amunre.rl.history import RoundHistory, checked_history
from amunre.rl.observation import BOUND, ObservationLayout
from amunre.rl.observation_writer import ObservationWriter
from amunre.rl.rewards import REWARDS, final_rewards

try:  # the optional extra `amunre[rl]` (require_gymnasium() names it when it is missing)
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

    from amunre.rl.pettingzoo import action_mask
except ImportError:  # pragma: no cover - tested with the extra installed
    np = spaces = AutoresetMode = batch_space = action_mask = None
    VectorEnv = object

#: The most games one vector environment steps together (a typo's million would fill the memory).
MAX_GAMES = 4096


def sample_legal(masks, rng):
    """A uniform random legal action for each row of `masks` (a batch of 0/1 masks), drawn with
    numpy's generator `rng` in a few calls for the whole batch. A row without a legal action
    is an ArgumentValueError naming it."""
    masks = np.asarray(masks)
    if masks.ndim != 2:
        raise ArgumentValueError(f"masks must be a batch of action masks (2 dimensions), not of shape {masks.shape}")
    counts = masks.sum(axis=1)
    empty = np.flatnonzero(counts == 0)
    if empty.size:
        raise ArgumentValueError(f"row {int(empty[0])} of the masks has no legal action")
    picks = (rng.random(len(masks)) * counts).astype(np.int64)  # the pick-th legal action of each row
    cumulative = masks.cumsum(axis=1, dtype=np.int32)
    return (cumulative > picks[:, None]).argmax(axis=1)


class AmunreVectorEnv(VectorEnv):
    """`num_envs` games of `variant` for `players` players, stepped together (module docstring).
    `games[i]` is game i's `amunre.core.engine.Game` (for logging; a policy must not read it)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP if AutoresetMode is not None else None}

    def __init__(self, num_envs: int = 8, variant="classic2003", players: int = 4, reward: str = "win",
                 overrides=(), copy: bool = True, history: bool = False):
        require_gymnasium()
        from amunre.core.engine import check_players
        from amunre.loader import as_variant

        self.num_envs = arguments.whole_number("num_envs", num_envs, low=1, high=MAX_GAMES,
                                               hint="expected how many games to step together")
        self.variant = as_variant(variant, arguments.overrides(overrides))
        self.n_players = check_players(self.variant, players)
        arguments.one_of("reward", reward, REWARDS)
        if not isinstance(copy, bool):
            raise arguments.wrong_type("copy", copy, "True or False")
        self.reward_kind, self.copy = reward, copy
        self.actions = action_space(self.variant)
        self.layout = ObservationLayout(self.variant, self.n_players, self.actions, history=checked_history(history))
        self._histories: list = [None] * self.num_envs  # each game's RoundHistory, with `history`
        # each game's seats' vectors, kept and brought up to date (a new game in the slot too: the
        # writer compares what it wrote with the state, whichever game that is)
        self._writers = [ObservationWriter(self.layout) for _ in range(self.num_envs)]
        size, count = self.layout.size, len(self.actions)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (count,), np.int8),
        })
        self.single_action_space = spaces.Discrete(count)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self._observations = np.zeros((self.num_envs, size), dtype=np.float32)
        self._masks = np.zeros((self.num_envs, count), dtype=np.int8)
        self._seats = np.zeros(self.num_envs, dtype=np.int64)
        self.games: list = [None] * self.num_envs
        self._legal: list[list[int]] = [[] for _ in range(self.num_envs)]  # each game's legal ids, as masked
        self._seeds: list[random.Random | None] = [None] * self.num_envs

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """New games: game i of seed `seed` + i, or each of the next seed its own generator draws
        (the system's entropy, the first time). `options` are not used."""
        from amunre.core.engine import MAX_SEED, check_seed

        if seed is not None:
            seed = check_seed(seed)  # numpy's integers too
            if seed + self.num_envs - 1 > MAX_SEED:
                raise ArgumentValueError(f"seed must leave room for {self.num_envs} games: at most "
                                         f"{MAX_SEED - self.num_envs + 1}, not {seed}")
        super().reset(seed=seed)
        for i in range(self.num_envs):
            if seed is not None:
                self._seeds[i] = random.Random(seed + i)
                self._start(i, seed + i)
            else:
                self._start(i, None)
        self._observe()
        return self._batch(), {"seat": self._out(self._seats)}

    def step(self, actions):
        """Answer each game's pending decision with its action (module docstring)."""
        if any(game is None for game in self.games):
            raise IllegalAnswerError("the games were never begun: call reset() first")
        options = self._checked(actions)
        games = self.games
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        by_seat = np.zeros((self.num_envs, self.n_players), dtype=np.float64)
        for i, option in enumerate(options):
            game = games[i]
            player = game.pending.player
            game.answer(option)  # (the request's own option for the action, found legal by `_checked`)
            if game.pending is None:
                finals = final_rewards(game.state, self.reward_kind)
                rewards[i], terminated[i], by_seat[i] = finals[player], True, finals
                self._start(i, None)
        self._observe()
        infos = {"seat": self._out(self._seats), "rewards": by_seat, "_rewards": terminated.copy()}
        return self._batch(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def close_extras(self, **kwargs) -> None:
        pass

    # -- amunre's own -----------------------------------------------------------------------
    def action_masks(self):
        """The batch of action masks (as `observations["action_mask"]`)."""
        return self._out(self._masks)

    def _checked(self, actions) -> list:
        """Each game's option for its action, each action legal in its game: else a clear error,
        before any game moves."""
        try:
            batch = np.asarray(actions)
        except (TypeError, ValueError):  # a ragged list
            batch = None
        if batch is None or batch.shape != (self.num_envs,) or batch.dtype.kind not in "iu":
            raise arguments.wrong_type("actions", actions, f"{self.num_envs} whole numbers (one action id per game)",
                                       "e.g. sample_legal(observations['action_mask'], rng)")
        options = []
        for i, action in enumerate(batch.tolist()):
            request = self.games[i].pending
            option = self.actions.answer_of(request, action, self._legal[i])
            options.append(option)
            if option is NOT_LEGAL:
                legal = self._legal[i]
                if not 0 <= action < len(self.actions):
                    raise ArgumentValueError(f"actions[{i}]: no action {action}: the actions of {self.variant.id} "
                                             f"are 0 to {len(self.actions) - 1}")
                shown = "; ".join(f"{a} ({self.actions.to_string(a)})" for a in legal[:6])
                more = f"; ... ({len(legal)} in all)" if len(legal) > 6 else ""
                raise IllegalAnswerError(
                    f"actions[{i}]: action {operator.index(action)} ({self.actions.to_string(action)}) is not legal "
                    f"in game {i}, whose seat {request.player} is asked {request.kind!r}: legal are {shown}{more} "
                    "(no game was changed)")
        return options

    def _start(self, i: int, seed: int | None) -> None:
        """A new game in slot i: of `seed`, or of the next seed its generator draws."""
        from amunre.core.engine import MAX_SEED, Game

        if seed is None:
            if self._seeds[i] is None:
                self._seeds[i] = random.Random()
            seed = self._seeds[i].randrange(MAX_SEED + 1)  # (as the PettingZoo environment's reset())
        listeners = []
        if self.layout.history:
            self._histories[i] = RoundHistory(self.n_players, len(self.variant.board))
            listeners.append(self._histories[i])
        self.games[i] = Game(self.variant, self.n_players, seed, listeners)

    def _observe(self) -> None:
        """Write the observation and the mask of each game's seat to move into the batches."""
        observations, masks, seats = self._observations, self._masks, self._seats
        masks.fill(0)
        legal, writers, histories = self.actions.legal, self._writers, self._histories
        rows: list[int] = []
        columns: list[int] = []
        for i, game in enumerate(self.games):
            request = game.pending
            seats[i] = request.player
            observations[i] = writers[i].observe(game, request.player, histories[i])
            ids = self._legal[i] = legal(request)
            if not ids:  # (a kind whose `actions` miss its options: the mask's own clear error)
                action_mask(self.actions, game, request.player)
            rows += [i] * len(ids)
            columns += ids
        masks[rows, columns] = 1

    def _batch(self) -> dict:
        return {"observation": self._out(self._observations), "action_mask": self._out(self._masks)}

    def _out(self, array):
        return array.copy() if self.copy else array
