"""Amun-Re as an OpenSpiel game, `python_amunre`, registered with pyspiel when this module is
imported:

    import pyspiel
    import amunre.rl.openspiel                      # registers python_amunre
    game = pyspiel.load_game("python_amunre(variant=classic2003,players=4)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()                                 # [1, 0, 0, 0]: the winners share 1

It needs the optional extra `amunre[openspiel]` (`amunre.rl.extra`): importing this module
without it raises `MissingExtraError` (an ImportError) naming it.

Parameters: `variant` (an id or a variant file's path, default classic2003) and `players`
(default 4). A game begins with eight chance nodes that deal its seed, a byte each (the first
of 128 outcomes, the others of 256: a seed from 0 to 2^63 - 1, as `amunre run` takes);
`game.new_initial_state_of_seed(s)` stands after them, at the game of `amunre run --seed s`.

Choices, and why:

- **Explicit chance, over the seed.** The engine draws every chance event (the deal, the
  province cards, the shuffles) from streams seeded by the game's seed, often several at once
  in the middle of a rule's step; spelling each draw out as its own chance node would mean
  rewriting every rule module's draws. Drawing the seed itself, uniformly, is the same game:
  everything random follows from it. Sampled chance (`SAMPLED_STOCHASTIC`) was the other way,
  and was left: OpenSpiel serializes such a game with its generator's state
  (`Game::GetRNGState`), which a game written in Python cannot provide, so
  `pyspiel.serialize_game_and_state` would fail on every state. Algorithms that must not see
  the hidden facts draw them again through `resample_from_infostate` (`Game.determinize`), as
  ISMCTS does; the seed's bytes are in a state's history, which a bot must not read (as with
  any dealt card in OpenSpiel).
- **Actions** are the fixed action space of the PettingZoo environment (`amunre.rl.actions`);
  the legal actions of a state are its pending request's options, sorted. A secret decision
  (the offering) is a turn of each of its players in turn order, as in PettingZoo; an
  answer stays sealed from the others until the batch is revealed.
- **Returns** are the "win" rewards (`amunre.rl.rewards`): the winners share 1, the others
  get 0 (a constant-sum game), at the end only.
- **Observation** (string and tensor) is the PettingZoo observation vector of the seat
  (`amunre.rl.observation`); its string lists, section by section, the entries that are not 0.
  The tensor's pieces (`make_observation(game).dict`) are the layout's named sections.
- **Information state** is the observation and the seat's record of the game: every public
  answer and its own sealed ones, in order, by relative seat (a seat never sees another's
  sealed answer before the reveal). Its string spells the record out; its tensor adds to the
  observation, per relative seat, how many times each action was answered: a summary, not
  the order. Neither recalls the seat's past private facts (a hand it no longer holds) other
  than through its own answers.
- **Serialization** (`pyspiel.serialize_game_and_state`, pickle) keeps a state as its seed's
  bytes and its actions, and replays them. A state from `resample_from_infostate` is a determinization
  with no seed to replay from: it clones, but serializing it is an error saying so.
- **Game length**: at most `MOST_DECISIONS_PER_PLAYER_ROUND` decisions per player per round
  (`max_game_length`, the chance nodes aside): about ten times what measured games take.
"""

from __future__ import annotations

import random

from amunre.core.errors import AmunreError
from amunre.rl.extra import MissingExtraError, require_openspiel  # noqa: F401 - MissingExtraError: named here too

require_openspiel()  # importing this module without the extra is the extra's clear error

import numpy as np  # noqa: E402 - after the extra's check
import pyspiel  # noqa: E402

from amunre.rl.actions import ActionSpace, action_space  # noqa: E402
from amunre.rl.observation import ObservationLayout  # noqa: E402
from amunre.rl.observation_writer import ObservationWriter  # noqa: E402
from amunre.rl.rewards import final_rewards  # noqa: E402

SHORT_NAME = "python_amunre"
#: The seed is dealt a byte at a time, most significant first; the first byte keeps it below 2^63.
SEED_BYTES = 8
FIRST_BYTE_OUTCOMES = 128
#: The most decisions a player is asked in one round (`max_game_length`): random games ask about
#: ten (classic2003, 4 players: 202 a game on average, 220 at most in 20 random games); a bound
#: far beyond that, which OpenSpiel's checks hold every game to.
MOST_DECISIONS_PER_PLAYER_ROUND = 100
#: The player counts the game type admits (each variant checks its own: `Variant.players`).
FEWEST_PLAYERS, MOST_PLAYERS = 3, 5

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Amun-Re (amunre rules engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MOST_PLAYERS,
    min_num_players=FEWEST_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "classic2003", "players": 4},
)


class _Table:
    """What every state of one (variant, players) shares: the variant, its action space and
    observation layout. Built once per process (`_table`)."""

    def __init__(self, variant_spec: str, players: int):
        from amunre.core.engine import check_players
        from amunre.loader import as_variant

        self.key = (variant_spec, players)
        self.variant = as_variant(variant_spec)
        self.n = check_players(self.variant, players)
        self.space: ActionSpace = action_space(self.variant)
        self.layout = ObservationLayout(self.variant, self.n, self.space)


_TABLES: dict[tuple[str, int], _Table] = {}


def _table(variant_spec: str, players: int) -> _Table:
    key = (variant_spec, players)
    if key not in _TABLES:
        _TABLES[key] = _Table(variant_spec, players)
    return _TABLES[key]


class AmunreGame(pyspiel.Game):
    """The OpenSpiel game of one variant and player count (module docstring)."""

    def __init__(self, params=None):
        params = dict(params or {})
        variant_spec, players = str(params.get("variant", "classic2003")), params.get("players", 4)
        try:
            self.table = _table(variant_spec, players)
        except AmunreError as error:  # a bad variant or player count: said as OpenSpiel's callers expect
            raise ValueError(f"{SHORT_NAME}: {error}") from None
        table = self.table
        edition = table.variant.edition
        rounds = len(edition.kingdoms) * edition.rounds_per_kingdom
        info = pyspiel.GameInfo(
            num_distinct_actions=len(table.space),
            max_chance_outcomes=256,
            num_players=table.n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MOST_DECISIONS_PER_PLAYER_ROUND * rounds * table.n,
        )
        super().__init__(_GAME_TYPE, info, {"variant": variant_spec, "players": table.n})

    def new_initial_state(self):
        """A new game, before its seed is dealt."""
        return AmunreState(self)

    def new_initial_state_of_seed(self, seed: int):
        """The game of `amunre run --seed SEED` (with this variant and player count): a new
        state with the seed's bytes dealt."""
        from amunre.core.engine import check_seed

        state = AmunreState(self)
        for byte in check_seed(seed).to_bytes(SEED_BYTES, "big"):
            state.apply_action(byte)
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The seat's observation, or with `perfect_recall` its information state (module docstring)."""
        if params:
            raise ValueError(f"{SHORT_NAME} observers take no parameters, not {params!r}")
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(f"{SHORT_NAME} observes as one seat sees the game (private_info=SINGLE_PLAYER), not "
                             f"{iig_obs_type.private_info}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return (InformationStateObserver if recall else ObservationObserver)(self.table)


class _Play:
    """The amunre game a state stands in, with what replays it: its seed's bytes as dealt so
    far (the game is made once all are) and the action ids given since. Copied by cloning the
    game; pickled as its bytes and actions. A determinization (`determinized`) has no seed to
    replay from."""

    def __init__(self, table: _Table, game=None):
        self.table = table
        self.dealt: list[int] = []
        self.actions: list[int] = []
        self.determinized = game is not None
        self.game = game

    @property
    def seed(self) -> int | None:
        return int.from_bytes(bytes(self.dealt), "big") if len(self.dealt) == SEED_BYTES else None

    def deal(self, byte: int) -> None:
        self.dealt.append(byte)
        if len(self.dealt) == SEED_BYTES:
            from amunre.core.engine import Game

            self.game = Game(self.table.variant, self.table.n, self.seed)

    def answer(self, action: int) -> None:
        self.game.answer(self.table.space.option(action)[1])
        self.actions.append(action)

    def __deepcopy__(self, memo):
        twin = _Play(self.table, None if self.game is None else self.game.clone())
        twin.determinized, twin.dealt, twin.actions = self.determinized, list(self.dealt), list(self.actions)
        return twin

    def __reduce__(self):
        if self.determinized:
            raise AmunreError("a state drawn by resample_from_infostate cannot be serialized: it is a determinization "
                              "of what a seat knows, with no seed to replay from (serialize the real state)")
        return (_replayed, (self.table.key, list(self.dealt), list(self.actions)))


def _replayed(key: tuple[str, int], dealt: list[int], actions: list[int]) -> _Play:
    """A `_Play` rebuilt from its seed's bytes and its actions (unpickling)."""
    play = _Play(_table(*key))
    for byte in dealt:
        play.deal(byte)
    for action in actions:
        play.answer(action)
    return play


class AmunreState(pyspiel.State):
    """A state of `python_amunre`: an amunre game and each seat's record of it."""

    def __init__(self, game: AmunreGame):
        super().__init__(game)
        self.play = _Play(game.table)
        #: the answers every seat knows, in order: (seat, action id)
        self._public: list[tuple[int, int]] = []
        #: the answers of the secret batch under way, known to their own seats only: (seat, action id)
        self._sealed: list[tuple[int, int]] = []

    # -- OpenSpiel's API -----------------------------------------------------------------------
    def current_player(self):
        game = self.play.game
        if game is None:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if game.pending is None else game.pending.player

    def chance_outcomes(self):
        """The next byte of the seed, uniformly."""
        count = FIRST_BYTE_OUTCOMES if not self.play.dealt else 256
        return [(byte, 1.0 / count) for byte in range(count)]

    def _legal_actions(self, player):
        game = self.play.game
        request = None if game is None else game.pending
        if request is None or request.player != player:
            return []
        return sorted(self.play.table.space.legal(request))

    def _apply_action(self, action):
        play = self.play
        if play.game is None:
            count = FIRST_BYTE_OUTCOMES if not play.dealt else 256
            if not 0 <= action < count:
                raise ValueError(f"chance outcome {action} is not a byte of the seed (expected 0 to {count - 1})")
            play.deal(int(action))
            return
        request = play.game.pending
        space = play.table.space
        if request is None:
            raise ValueError(f"the game is over: action {action} cannot be applied")
        kind, option = space.option(action)
        if kind != request.kind or space.id_of(kind, option) not in space.legal(request):
            raise ValueError(f"action {action} ({space.to_string(action)}) is not legal: player {request.player} is "
                             f"asked {request.kind!r}")
        known = len(play.game.answers)
        play.answer(int(action))
        entry = (request.player, int(action))
        if request.simultaneous:
            self._sealed.append(entry)
        else:
            self._public.append(entry)
        # the batch revealed (its answers joined the game's public ones): every seat knows them now
        revealed = len(play.game.answers) - known - (0 if request.simultaneous else 1)
        if revealed > 0:
            self._public += self._sealed[:revealed]
            del self._sealed[:revealed]

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self.play.dealt) + 1} of {SEED_BYTES}: {action}"
        return self.play.table.space.to_string(action)

    def is_terminal(self):
        game = self.play.game
        return game is not None and game.pending is None

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.play.table.n
        return final_rewards(self.play.game.state, "win")

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state that `player_id` cannot tell from this one, everything he may not know drawn
        again (`Game.determinize`, with a generator seeded from `probability_sampler`). Asked of
        the seat to move, or of anyone once the game is over."""
        play = self.play
        game = play.game
        if game is None:
            raise ValueError("resample_from_infostate is asked at a decision: the seed is still being dealt")
        if game.pending is not None and game.pending.player != player_id:
            raise ValueError(f"resample_from_infostate is asked of the player to move ({game.pending.player}), not "
                             f"{player_id}: the question asked was worked out from his hidden facts")
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = game.determinize(player_id, rng)
        state = AmunreState(self.get_game())
        state.play = _Play(play.table, game=sample)
        state._public = list(self._public)
        # the others' sealed answers of the batch under way were drawn again: read the drawn ones
        drawn = sample.answers_so_far()[len(sample.answers):]
        space = play.table.space
        state._sealed = [(seat, action if seat == player_id else space.id_of(space.option(action)[0], choice))
                         for (seat, action), choice in zip(self._sealed, drawn)]
        return state

    def __str__(self):
        play = self.play
        head = f"{play.table.variant.id}, {play.table.n} players"
        if play.game is None:
            return f"{head}, dealing the seed: bytes {play.dealt}"
        request = play.game.pending
        to_move = "game over" if request is None else f"player {request.player} to answer {request.kind!r}"
        origin = "a determinization" if play.determinized else f"seed {play.seed}"
        return f"{head}, {origin}; actions {play.actions}; {to_move}"

    # -- what a seat knows -------------------------------------------------------------------------
    def record(self, seat: int) -> list[tuple[int, int]]:
        """The answers `seat` knows, in order: the public ones, then its own sealed ones."""
        return self._public + [entry for entry in self._sealed if entry[0] == seat]


class ObservationObserver:
    """The seat's observation vector (the PettingZoo environment's), its sections as `dict`."""

    def __init__(self, table: _Table, extra: int = 0):
        self.table = table
        layout = table.layout
        self.tensor = np.zeros(layout.size + extra, np.float32)
        self.dict = {name: self.tensor[start:stop] for name, start, stop, _ in layout.sections}
        # each seat's vector, kept and brought up to date from whichever state is observed (a
        # clone, another branch: the writer compares what it wrote with the state itself)
        self._writer = ObservationWriter(layout)

    def set_from(self, state: AmunreState, player: int) -> None:
        game = state.play.game
        if game is None:  # the seed is being dealt: nothing to see yet
            self.tensor.fill(0)
        else:
            self.tensor[:self.table.layout.size] = self._writer.observe(game, player)

    def string_from(self, state: AmunreState, player: int) -> str:
        if state.play.game is None:
            return "the seed is being dealt"
        vector = self.table.layout.encode(state.play.game, player)
        parts = []
        for name, start, stop, _ in self.table.layout.sections:
            found = np.flatnonzero(vector[start:stop])
            if found.size:
                parts.append(f"{name} " + " ".join(f"{i}:{vector[start + i]:g}" for i in found))
        return " | ".join(parts)


class InformationStateObserver(ObservationObserver):
    """The observation and the seat's record of the answers (module docstring): the tensor
    adds `record`, per relative seat, the times each action was answered."""

    def __init__(self, table: _Table):
        actions = len(table.space)
        super().__init__(table, table.n * actions)
        size = table.layout.size
        self.dict["record"] = self.tensor[size:].reshape(table.n, actions)

    def set_from(self, state: AmunreState, player: int) -> None:
        super().set_from(state, player)
        counts = self.dict["record"]
        counts.fill(0)
        n = self.table.n
        for seat, action in state.record(player):
            counts[(seat - player) % n, action] += 1

    def string_from(self, state: AmunreState, player: int) -> str:
        n = self.table.n
        record = " ".join(f"{(seat - player) % n}:{action}" for seat, action in state.record(player))
        return f"player {player}; answers {record}; {super().string_from(state, player)}"


pyspiel.register_game(_GAME_TYPE, AmunreGame)
