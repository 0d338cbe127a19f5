"""A PettingZoo AEC environment for any variant, and the fixed action space it plays with.

    from amunre.rl.pettingzoo import env
    game = env(variant="classic2003", players=4)     # a pettingzoo.AECEnv
    game.reset(seed=7)                                # the same game as `amunre run --seed 7`
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        ...                                           # pick an id where observation["action_mask"] is 1
        game.step(action)                             # None once the agent is terminated

The environment needs the optional extra: `pip install 'amunre[rl]'` (pettingzoo, numpy).
The action space (`ActionSpace`) does not: it is plain Python.

Action space. Every decision kind declares every option it can ever ask (`Decision.actions`,
see `amunre.core.contract`). A variant's action space is those lists concatenated: the kinds of
its rule modules in pipeline order (phases, scoring, final scoring), then the core's shared
moves (`sell`, `double_swap`); a kind two modules declare is listed once, its options merged.
Action id i is the i-th (kind, option). Unbounded options are capped by their module
(`offering.MOST_OFFERED`, `market.MOST_BOUGHT`, `gold_ranking.MOST_SOLD`); every request
keeps at least one option in the space. `action_to_string` words an id in the edition's
words (the module's `describe`), `string_to_action` reads it back.

Turns follow `game.pending.player`: agent `player_<seat>` is selected whenever his seat is
asked. A simultaneous (secret) decision is a turn of each of its players in turn order; an
answer stays sealed until the batch is revealed, and no observation shows it before that.

Observation: {"observation": float32 vector, "action_mask": int8 vector}. The vector encodes
only the seat's view (`amunre.core.view.PlayerView`) and, when the seat is asked, its request's
kind and context; players are numbered relative to the seat (0 = the seat itself, 1 = the
next clockwise...). `ObservationLayout` names every section; docs/agents.md lists them.

Rewards come at the end only: with `reward="win"` (the default) the k winners get 1/k each
and the others 0; with `reward="score"` each player gets his final points minus the mean of
the others' (a zero-sum difference). During the game every reward is 0.

A bad argument (of `env`, `string_to_action`, `step`, `reset`) is an `ArgumentTypeError` or
`ArgumentValueError` (`amunre.core.arguments`: AmunreErrors that are also TypeError / ValueError)
naming the argument and what was expected, its value cut short: never an error from inside,
whatever the type (`overrides=None`, brackets nested thousands deep).
"""

from __future__ import annotations

import difflib
import json
import operator
import random

from amunre.core import arguments
from amunre.core.arguments import MAX_OVERRIDES  # noqa: F401 - the most `overrides` an environment takes
from amunre.core.decisions import from_json_value, to_json_value
from amunre.core.errors import AmunreError, ArgumentValueError, IllegalAnswerError

try:  # the optional extra `amunre[rl]`
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - tested with the extra installed
    np = spaces = wrappers = None
    AECEnv = object
    _MISSING: ImportError | None = error
else:
    _MISSING = None

#: The environment's name and version (PettingZoo's `metadata["name"]`).
NAME = "amunre_v0"
#: What every number of the observation is clipped to (an unlimited supply reads as this).
BOUND = 10_000.0
REWARDS = ("win", "score")


class MissingExtraError(AmunreError, ImportError):
    """The environment's optional dependencies are not installed."""


def require_extra() -> None:
    """Raise a clear error naming the extra when pettingzoo or numpy is missing."""
    if _MISSING is not None:
        raise MissingExtraError(
            f"the PettingZoo environment needs the optional extra: pip install 'amunre[rl]' "
            f"(pettingzoo and numpy; {_MISSING})")


# -- the action space -----------------------------------------------------------------------
def _key(option):
    """A hashable key telling apart options that compare equal across types (True and 1)."""
    if isinstance(option, tuple):
        return ("tuple", tuple(_key(o) for o in option))
    return (type(option).__name__, option)


def _normal(text: str) -> str:
    return " ".join(str(text).split()).casefold()


class ActionSpace:
    """The fixed discrete action space of one variant: action id <-> (kind, option).

    `kinds`: the decision kinds in order; `ranges[kind]`: its ids (a range); `len(space)`:
    the number of actions. Built from the `actions` each decision kind declares; a kind
    without them is an AmunreError naming it (and its module) when the space is built."""

    def __init__(self, variant):
        from amunre.core.modules import core_declarations

        self.variant = variant
        modules = variant.modules
        declared: list[tuple] = []  # (kind, module or None, decision), in pipeline order then the core's
        for module in modules.all:
            declared += [(kind, module, d) for kind, d in module.decisions.items()]
        declared += [(kind, None, d) for kind, d in core_declarations()[1].items()]
        missing = [f"{kind!r} ({f'rule module {module.id!r}' if module is not None else 'the core'})"
                   for kind, module, d in declared if d.actions is None]
        if missing:
            raise AmunreError(
                f"{variant.id} cannot be played through the fixed action space: these decision kinds declare no "
                f"`actions` (Decision.actions(rule, variant): every option the kind can ever ask): "
                f"{', '.join(dict.fromkeys(missing))}")
        options: dict[str, dict] = {}  # kind -> {key: option}, first seen first
        for kind, module, decision in declared:
            listed = options.setdefault(kind, {})
            try:
                for option in decision.actions(module, variant):
                    listed.setdefault(_key(option), option)
            except TypeError as error:  # an unhashable option (a list instead of a tuple)
                raise AmunreError(f"the `actions` of decision kind {kind!r} must list plain values and tuples, "
                                  f"not lists or dicts ({error})") from None
        self.kinds: tuple[str, ...] = tuple(options)
        #: the request context keys the observation encodes, as the decisions declare them
        #: (`Decision.context`), first declared first (the loader checked the encodings and that
        #: each key has one: `amunre.core.modules.declaration_clashes`)
        self.context: dict[str, str] = {}
        for _, _, decision in declared:
            for key, how in decision.context.items():
                self.context.setdefault(key, how)
        self._entries: list[tuple[str, object]] = []
        self._ids: dict[str, dict] = {}
        self.ranges: dict[str, range] = {}
        for kind, listed in options.items():
            start = len(self._entries)
            self._ids[kind] = {key: start + i for i, key in enumerate(listed)}
            self._entries += [(kind, option) for option in listed.values()]
            self.ranges[kind] = range(start, len(self._entries))
        self._strings: list[str] | None = None
        self._by_string: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"ActionSpace({self.variant.id}: {len(self)} actions, {len(self.kinds)} kinds)"

    def option(self, action: int) -> tuple[str, object]:
        """(kind, option) of an action id."""
        index = arguments.whole_number("action", action, hint=f"expected an action id: the actions of "
                                       f"{self.variant.id} are 0 to {len(self) - 1}")  # numpy's integers too
        if not 0 <= index < len(self._entries):
            raise ArgumentValueError(f"no action {index}: the actions of {self.variant.id} are 0 to {len(self) - 1}")
        return self._entries[index]

    def id_of(self, kind: str, option) -> int | None:
        """The action id of an option of a kind; None when it is not in the space (over a cap)."""
        ids = self._ids.get(kind)
        try:
            return None if ids is None else ids.get(_key(option))
        except TypeError:  # an unhashable value (a dict) is no option
            return None

    def legal(self, request) -> list[int]:
        """The action ids of a request's legal options that the space holds, in option order."""
        ids = self._ids.get(request.kind, {})
        found = (ids.get(_key(option)) for option in request.options)
        return [i for i in found if i is not None]

    # -- in the edition's words ---------------------------------------------------------------
    def to_string(self, action: int) -> str:
        """An action in the edition's words: "<kind>: <the option as the module describes it>"."""
        self.option(action)  # the range check
        return self._words()[0][int(action)]

    def from_string(self, text: str) -> int:
        """The action id of a `to_string` text (case and spacing aside), or of "<kind>: <JSON
        of the option>" (`bid: [3, 6, []]`, `architect: null`)."""
        arguments.text("an action's text", text, "expected `kind: words` as action_to_string gives, or "
                       "`kind: JSON option`")
        strings, by_string = self._words()
        found = by_string.get(_normal(text))
        if found is not None:
            return found
        found = self._from_json(text)
        if found is not None:
            return found
        close = difflib.get_close_matches(_normal(text), list(by_string), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(strings[by_string[c]]) for c in close)}?" if close else ""
        raise ArgumentValueError(f"no action of {self.variant.id} reads {arguments.shown(text)} (expected "
                                 f"`kind: words` as action_to_string gives, or `kind: JSON option`){hint}")

    def _from_json(self, text: str) -> int | None:
        """The action id of "<kind>: <JSON of the option>", None when it names none."""
        kind, sep, rest = text.partition(":")
        kind = kind.strip()
        if not sep or kind not in self._ids:
            return None
        try:
            return self.id_of(kind, from_json_value(json.loads(rest)))
        except (ValueError, RecursionError):  # not JSON, or nested deeper than Python recurses
            return None

    def _words(self) -> tuple[list[str], dict[str, int]]:
        if self._strings is None:
            from amunre.core.words import Words, describe_option

            words = Words(self.variant)
            strings = [f"{kind}: {describe_option(words, kind, option)}" for kind, option in self._entries]
            seen: dict[str, int] = {}
            for text in strings:
                seen[_normal(text)] = seen.get(_normal(text), 0) + 1
            # two options a module words alike (a board naming two provinces the same) keep apart by their JSON
            strings = [text if seen[_normal(text)] == 1 else f"{text} ({json.dumps(to_json_value(option))})"
                       for text, (kind, option) in zip(strings, self._entries)]
            self._strings = strings
            self._by_string = {_normal(text): i for i, text in enumerate(strings)}
        return self._strings, self._by_string


def action_space(variant) -> ActionSpace:
    """The variant's fixed action space (a loaded Variant's, or one's named by id or path), built
    once per variant (shared by its environments)."""
    from amunre.loader import as_variant

    variant = as_variant(variant)
    space = variant.modules.__dict__.get("action_space")
    if space is None:
        space = ActionSpace(variant)
        variant.modules.action_space = space
    return space


# -- the observation ------------------------------------------------------------------------
#: A rule module's own data enters the observation as its `Rule.observation` declares (field
#: -> "count", "provinces" or "players"), a request's context as its decision's `context`
#: declares (key -> "count", "province", "seats" or "bids"); the sizes of each, by what the
#: field or key holds, for `n` players and `provinces` provinces.
RULE_DATA_SIZES = {"count": lambda n, provinces: 1, "provinces": lambda n, provinces: provinces,
                   "players": lambda n, provinces: n}
CONTEXT_SIZES = {"count": lambda n, provinces: 1, "province": lambda n, provinces: provinces,
                 "seats": lambda n, provinces: n, "bids": lambda n, provinces: provinces * n}


class ObservationLayout:
    """The sections of one variant's observation vector for `n_players`: `sections` is a list
    of (name, start, stop, what it holds); `size` the vector's length."""

    def __init__(self, variant, n_players: int, space: ActionSpace):
        require_extra()  # (it writes numpy arrays)
        self.variant, self.n = variant, n_players
        self.space = space
        modules = variant.modules
        n, provinces, cards = n_players, len(variant.board), len(variant.cards)
        self.phases = list(dict.fromkeys([heading for _, heading, _ in modules.round_phases]
                                         + ["scoring", "final scoring"]))
        self.levels = (modules.max_offering_level or 0) + 1
        encoded = [m for m in modules.stateful if m.observation]  # (encodings checked by the loader)
        ids = [m.id for m in encoded]
        # sections named by rule id (by entry id when two entries use one rule)
        self.rule_data = [(m, m.observation, m.id if ids.count(m.id) == 1 else m.key) for m in encoded]
        parts = [
            ("seat", n, "the seat's own number, one-hot (absolute: seat 0 is player_0)"),
            ("to_move", n + 1, "whose decision is pending, one-hot by relative seat; the last entry: nobody "
                               "(the game is over)"),
            ("kind", len(space.kinds), "the pending decision's kind, one-hot in the action space's kind order"),
            ("simultaneous", 1, "1 when the pending decision is a secret one (answers revealed together)"),
            ("kingdom", len(variant.edition.kingdoms), "the kingdom, one-hot"),
            ("round", variant.edition.rounds_per_kingdom, "the round of the kingdom, one-hot"),
            ("phase", len(self.phases) + 1, "the phase, one-hot: the round's phases in order, the scoring, the "
                                           "final scoring, then anything else (setup, game over)"),
            ("start_player", n, "the start player, one-hot by relative seat"),
            ("offering_level", self.levels, "the offering level, one-hot from 0 (before the first offering)"),
            ("hand", cards, "the seat's own cards: how many of each card id"),
            ("players", 5 * n, "per relative seat: gold, points, theft cards, hand size, provinces held"),
            ("provinces", provinces * (n + 9), "per province id: its owner one-hot by relative seat (the last "
                                               "entry: no owner), then farmers on fields, farmers off the fields, "
                                               "stones, single pyramids, double pyramids, gold lying on it, "
                                               "face-down cards lying on it, and 1 when it is on auction"),
            ("supplies", 4, "farmers, stones, single and double pyramids left in the supply"),
            ("cards", 1 + 2 * cards, "the draw pile's size, then the discard pile and the face-up cards: how many "
                                     "of each card id"),
        ]
        for module, fields, name in self.rule_data:
            for field, what in fields.items():
                parts.append((f"rules.{name}.{field}", RULE_DATA_SIZES[what](n, provinces),
                              f"rule module {module.id!r}'s {field} ({what})"))
        for key, what in space.context.items():
            parts.append((f"context.{key}", CONTEXT_SIZES[what](n, provinces),
                          f"the request's context `{key}` ({what}), when the seat is asked"))
        self.sections: list[tuple[str, int, int, str]] = []
        at = 0
        for name, size, what in parts:
            self.sections.append((name, at, at + size, what))
            at += size
        self.size = at
        self.slices = {name: slice(start, stop) for name, start, stop, _ in self.sections}

    def encode(self, game, seat: int):
        """The observation vector of `seat` (numpy float32): its view, and its request if asked."""
        n = self.n
        view = game.view(seat)
        request = game.pending
        out = np.zeros(self.size, dtype=np.float32)
        s = self.slices

        def rel(player: int) -> int:
            return (player - seat) % n

        def one_hot(name: str, index: int | None) -> None:
            part = s[name]
            if index is not None and 0 <= index < part.stop - part.start:
                out[part.start + index] = 1.0

        one_hot("seat", seat)
        one_hot("to_move", n if request is None else rel(request.player))
        if request is not None:
            one_hot("kind", self.space.kinds.index(request.kind) if request.kind in self.space.kinds else None)
            out[s["simultaneous"].start] = float(bool(request.simultaneous))
        one_hot("kingdom", view.kingdom)
        one_hot("round", view.round)
        phase = view.phase
        one_hot("phase", self.phases.index(phase) if phase in self.phases else len(self.phases))
        one_hot("start_player", rel(view.start_player))
        one_hot("offering_level", min(view.offering_level, self.levels - 1))
        out[s["hand"]] = view.hand
        players = []
        for q in range(n):
            info = view.players[(seat + q) % n]
            players += [info.gold, info.score, info.theft, info.hand_size, len(info.provinces)]
        out[s["players"]] = players
        on_auction = set(view.on_auction)
        rows = []
        for pid, prov in enumerate(view.provinces):
            owner = [0.0] * (n + 1)
            owner[n if prov.owner is None else rel(prov.owner)] = 1.0
            rows += owner + [prov.farmers, prov.free_farmers, prov.stones, prov.pyramids, prov.doubles, prov.gold,
                             prov.cards, float(pid in on_auction)]
        out[s["provinces"]] = rows
        supplies = view.supplies
        out[s["supplies"]] = [min(supplies[k], BOUND) for k in ("farmers", "stones", "pyramids", "doubles")]
        cards = len(self.variant.cards)
        pile = [float(view.deck_size)] + [0.0] * (2 * cards)
        for card in view.discard:
            pile[1 + card] += 1
        for card in view.in_play:
            pile[1 + cards + card] += 1
        out[s["cards"]] = pile
        if self.rule_data:
            data = view.rules
            for module, fields, name in self.rule_data:
                mine = data.get(module.key) or {}
                for field, what in fields.items():
                    self._put(out, s[f"rules.{name}.{field}"], what, mine.get(field), rel)
        if request is not None and request.player == seat and request.context:
            context = request.context
            for key, what in self.space.context.items():
                if key in context:
                    self._put(out, s[f"context.{key}"], what, context[key], rel)
        np.clip(out, -BOUND, BOUND, out=out)
        return out

    def _put(self, out, part: slice, what: str, value, rel) -> None:
        """Write one rule-data field or context value of the shape `what` into `out[part]`."""
        if value is None:
            return
        size = part.stop - part.start
        if what == "count":
            if isinstance(value, (int, float)):
                out[part.start] = value
            elif isinstance(value, (list, tuple)):
                out[part.start] = len(value)
        elif what in ("provinces", "province"):
            for pid in (value if isinstance(value, (list, tuple)) else [value]):
                if isinstance(pid, int) and 0 <= pid < size:
                    out[part.start + pid] = 1.0
        elif what == "players":  # one value per seat, listed by seat
            if isinstance(value, (list, tuple)) and len(value) == self.n:
                for player, v in enumerate(value):
                    out[part.start + rel(player)] = v
        elif what == "seats":  # the seats listed
            for player in value:
                if isinstance(player, int) and 0 <= player < self.n:
                    out[part.start + rel(player)] = 1.0
        elif what == "bids":
            for player, pid, amount in value:
                if 0 <= pid < len(self.variant.board):
                    out[part.start + pid * self.n + rel(player)] = amount + 1


# -- the environment ------------------------------------------------------------------------
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
    PettingZoo's order-enforcing wrapper). `game` is the `amunre.core.engine.Game` being played."""

    metadata = {"render_modes": ["human", "ansi"], "name": NAME, "is_parallelizable": False}

    def __init__(self, variant="classic2003", players: int = 4, reward: str = "win",
                 render_mode: str | None = None, overrides=()):
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
        self.layout = ObservationLayout(self.variant, players, self.actions)
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
        return {"observation": self.layout.encode(self.game, seat), "action_mask": self.action_mask(seat)}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        request = self.game.pending
        kind, option = self.actions.option(action)
        if kind != request.kind or self.actions.id_of(kind, option) not in self.actions.legal(request):
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
        if self.render_mode is None:
            return None
        text = "\n".join(self._lines)
        self._lines.clear()
        if self.render_mode == "ansi":
            return text
        if text:
            print(text)
        return None

    def close(self) -> None:
        pass

    # -- amunre's own -----------------------------------------------------------------------
    def action_mask(self, seat: int):
        """The int8 mask over the action space of `seat` (`action_mask`)."""
        return action_mask(self.actions, self.game, seat)

    def final_rewards(self) -> dict[str, float]:
        """The rewards once the game is over (see the module docstring)."""
        state = self.game.state
        if self.reward_kind == "win":
            winners = state.winners
            return {name: (1.0 / len(winners) if seat in winners else 0.0)
                    for name, seat in self.agent_name_mapping.items()}
        scores = [p.score for p in state.players]
        total, others = sum(scores), max(1, self.n_players - 1)
        return {name: float(scores[seat] - (total - scores[seat]) / others)
                for name, seat in self.agent_name_mapping.items()}

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
            overrides=()) -> AmunreEnv:
    """The environment without PettingZoo's wrapper."""
    return AmunreEnv(variant, players, reward, render_mode, overrides)


def env(variant="classic2003", players: int = 4, reward: str = "win", render_mode: str | None = None,
        overrides=()):
    """A PettingZoo AEC environment of `variant` (an id, a path or a loaded Variant; `overrides`
    are `--set` texts) for `players` players; `reward` "win" or "score" (module docstring),
    `render_mode` None, "human" or "ansi"."""
    require_extra()
    return wrappers.OrderEnforcingWrapper(raw_env(variant, players, reward, render_mode, overrides))
