"""Game positions: holdings written by hand (TOML or JSON) so a rules author can score a case.

A position names, per player, the gold, theft cards, hand and provinces (by board name,
each with its farmers, free farmers, stones, single and double pyramids), plus the
kingdom, the offering level, the start player, optionally the supplies and the unowned
provinces still holding stones or pyramids. Example (TOML):

    kingdom = "New Kingdom"          # or 2; default 1
    offering_level = 1
    start_player = "blue"            # a name or a 0-based index; default 0

    [[players]]
    name = "blue"
    gold = 4
    hand = { upper_lower = 1 }
    [players.provinces.Edfu]
    pyramids = 1
    doubles = 1

    [unowned.Memphis]
    stones = 2

`load_position` reads and checks a file against `schemas/position.schema.json` and the
variant (province names, ownership, field spaces, card kinds, component counts) and
reports every problem at once in one `PositionError`; `position_to_dict` is its inverse;
`score_position` runs the variant's own scoring rule modules on a position through the
engine's decision protocol, answering their decisions by a fixed policy.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import attrs
import jsonschema

from amunre.engine import Game, winners
from amunre.errors import AmunreError, PositionError
from amunre.model import BONUS_CARDS, CARD_ID, CARD_KINDS, Variant
from amunre.resources import load_schema
from amunre.rules.scoring import bonus_met
from amunre.state import UNLIMITED, GameState
from amunre.tomlpos import format_path, key_lines, line_for

#: Counts a player's province may hold, and those an unowned one may.
PROVINCE_COUNTS = ("farmers", "free_farmers", "stones", "pyramids", "doubles")
UNOWNED_COUNTS = ("stones", "pyramids", "doubles")
#: Supply keys of a position -> (GameState attribute, Components attribute).
SUPPLIES = {
    "farmers": ("supply_farmers", "farmers"),
    "stones": ("supply_stones", "stones"),
    "pyramids": ("supply_pyramids", "pyramids"),
    "doubles": ("supply_doubles", "double_pyramids"),
}
#: Answers `score_position` gives to bonus-card decisions.
PLAY_BONUS = ("met", "all", "none")


@attrs.frozen
class Position:
    """A checked position: the game state and the players' names (the state has no names)."""

    state: GameState
    names: tuple[str, ...]
    variant: str | None = None  # the variant id the file names, if any


# -- reading ---------------------------------------------------------------------------
def read_position_data(path: str | Path) -> dict:
    """The raw data of a position file, TOML or JSON by its extension."""
    return read_position_raw(path)[0]


def read_position_raw(path: str | Path) -> tuple[dict, dict]:
    """(data, key path -> line) of a position file; lines are known for TOML only."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise PositionError(f"{path}: a position file must end in .toml or .json")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PositionError(f"position file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(f"{path}: cannot read the position file ({exc})") from None
    try:
        data = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"{path}: not valid TOML ({exc})") from None
    except json.JSONDecodeError as exc:
        raise PositionError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise PositionError(f"{path}: a position must be a table/object at the top level")
    return data, (key_lines(text) if suffix == ".toml" else {})


def read_position(path: str | Path, variant: Variant) -> Position:
    """Read and check a position file; `PositionError` lists every problem found."""
    data, lines = read_position_raw(path)
    return position_from_data(data, variant, source=str(path), lines=lines)


def load_position(path: str | Path, variant: Variant) -> GameState:
    """The game state a position file describes, checked against the variant."""
    return read_position(path, variant).state


def position_from_data(data: dict, variant: Variant, source: str = "position", lines: dict | None = None) -> Position:
    """Check position data (schema, then meaning) and build its state; all problems at once.

    The error lists each problem as `source[:line]: key: what is wrong`; `lines` (key path
    -> line, from `amunre.tomlpos.key_lines`) supplies the line numbers.
    """
    found = _schema_problems(data) + _semantic_problems(data, variant)
    if found:
        lines = lines or {}
        problems = []
        for path, key, message in found:
            line = line_for(lines, path)
            problems.append(f"{source}{f':{line}' if line else ''}: {key}: {message}")
        count = f"{len(problems)} problem{'s' if len(problems) > 1 else ''}"
        error = PositionError(f"{count} in the position {source}\n" + "\n".join(f"  {p}" for p in problems))
        error.problems = problems
        raise error
    return _build(data, variant)


def _schema_problems(data: dict) -> list[tuple]:
    validator = jsonschema.Draft202012Validator(load_schema("position"))
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [(tuple(e.absolute_path), format_path(e.absolute_path) or "(top level)", e.message) for e in errors]


def _count(value) -> int | None:
    """A valid count, or None (the schema check reports the rest)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _players(data) -> list[dict]:
    players = data.get("players")
    if not isinstance(players, list):
        return []
    return [p if isinstance(p, dict) else {} for p in players]


def _names(data) -> list[str]:
    return [p.get("name") if isinstance(p.get("name"), str) else f"player {i + 1}" for i, p in enumerate(_players(data))]


def max_offering_level(variant: Variant) -> int:
    """The highest offering level of the variant's offering rule (4 without one)."""
    for spec in variant.phases:
        floors = getattr(spec.params, "level_floors", None)
        if floors is not None:
            return len(floors) + 1
    return 4


def _semantic_problems(data: dict, variant: Variant) -> list[tuple]:
    problems: list[tuple] = []

    def add(path: tuple, message: str, shown: str | None = None) -> None:
        problems.append((path, shown or format_path(path), message))
    board = variant.board
    players = _players(data)
    names = _names(data)
    allowed = variant.edition.players
    if isinstance(data.get("players"), list) and len(players) not in allowed:
        add(("players",), f"{len(players)} players, but {variant.id} is played by {', '.join(map(str, allowed))}")
    seen_names: dict[str, int] = {}
    for i, player in enumerate(players):
        name = player.get("name")
        if isinstance(name, str):
            if name in seen_names:
                add(("players", i, "name"), f"{name!r} is already the name of players[{seen_names[name]}]")
            else:
                seen_names[name] = i

    kingdom = data.get("kingdom")
    kingdoms = variant.edition.kingdoms
    if isinstance(kingdom, str) and kingdom not in kingdoms:
        add(("kingdom",), f"no kingdom named {kingdom!r} (kingdoms: {', '.join(kingdoms)})")
    elif isinstance(kingdom, int) and not isinstance(kingdom, bool) and not 1 <= kingdom <= len(kingdoms):
        add(("kingdom",), f"{kingdom} is not a kingdom number (1 to {len(kingdoms)})")

    level = _count(data.get("offering_level"))
    top = max_offering_level(variant)
    if level is not None and level > top:
        add(("offering_level",), f"{level} is above the highest level, {top}")

    start = data.get("start_player")
    if isinstance(start, bool):
        pass  # the schema reports it
    elif isinstance(start, int) and players and not 0 <= start < len(players):
        add(("start_player",), f"{start} is not a player index (0 to {len(players) - 1})")
    elif isinstance(start, str) and start not in seen_names:
        add(("start_player",), f"no player named {start!r} (players: {', '.join(names)})")

    # provinces: names, ownership, fields
    province_names = ", ".join(p.name for p in board.provinces)
    where: dict[int, str] = {}
    placed = dict.fromkeys(("farmers", "stones", "pyramids", "doubles"), 0)

    def check_province(path: tuple, name, counts, allowed_keys) -> None:
        try:
            pid = board.index(name)
        except KeyError:
            add(path, f"no province named {name!r} on the board (provinces: {province_names})")
            return
        if pid in where:
            add(path, f"{board.provinces[pid].name} is already given at {where[pid]}")
        else:
            where[pid] = format_path(path)
        if not isinstance(counts, dict):
            return
        farmers = _count(counts.get("farmers"))
        fields = board.provinces[pid].fields
        if farmers is not None and farmers > fields:
            add(path + ("farmers",),
                f"{farmers} farmers, but {board.provinces[pid].name} has {fields} field "
                f"space{'s' if fields != 1 else ''} (put extra farmers from free farmer cards in free_farmers)")
        for count_key in allowed_keys:
            value = _count(counts.get(count_key))
            if value is not None:
                placed["farmers" if count_key == "free_farmers" else count_key] += value

    for i, player in enumerate(players):
        provinces = player.get("provinces")
        if isinstance(provinces, dict):
            for name, counts in provinces.items():
                check_province(("players", i, "provinces", name), name, counts, PROVINCE_COUNTS)
    unowned = data.get("unowned")
    if isinstance(unowned, dict):
        for name, counts in unowned.items():
            check_province(("unowned", name), name, counts, UNOWNED_COUNTS)

    # cards: known kinds, and no more of a kind than the deck has
    held = dict.fromkeys(CARD_KINDS, 0)
    for i, player in enumerate(players):
        hand = player.get("hand")
        if not isinstance(hand, dict):
            continue
        for kind, count in hand.items():
            if kind not in CARD_ID:
                add(("players", i, "hand", kind), f"unknown card kind (known: {', '.join(CARD_KINDS)})")
            elif _count(count) is not None:
                held[kind] += count
    deck = variant.components.deck
    for kind, count in held.items():
        if count > deck.get(kind, 0):
            add(("players",), f"the players hold {count}, but the {variant.id} deck has {deck.get(kind, 0)}",
                shown=f"players[*].hand.{kind}")

    # supplies: given counts, or room left in the components for what the board holds
    supplies = data.get("supplies") if isinstance(data.get("supplies"), dict) else {}
    if variant.rulings.finite_supply:
        comp = variant.components
        for key, (_, comp_attr) in SUPPLIES.items():
            if key in supplies:
                continue
            total = getattr(comp, comp_attr)
            if placed[key] > total:
                add(("supplies", key), f"the position places {placed[key]} {key} on the board, "
                    f"but {variant.id} has only {total} (give supplies.{key} to override)")
    return problems


def _build(data: dict, variant: Variant) -> Position:
    board = variant.board
    players = data["players"]
    names = tuple(_names(data))
    n = len(players)
    state = GameState(n, len(board), data.get("seed", 0))
    kingdom = data.get("kingdom", 1)
    state.kingdom = variant.edition.kingdoms.index(kingdom) if isinstance(kingdom, str) else kingdom - 1
    state.round = variant.edition.rounds_per_kingdom - 1
    state.offering_level = data.get("offering_level", 1)
    start = data.get("start_player", 0)
    state.start_player = names.index(start) if isinstance(start, str) else start

    placed = dict.fromkeys(SUPPLIES, 0)
    deck_left = dict(variant.components.deck)
    for p, (entry, player) in enumerate(zip(players, state.players)):
        player.gold = entry.get("gold", 0)
        player.theft = entry.get("theft", variant.components.theft_cards_per_player)
        player.score = entry.get("score", 0)
        for kind, count in entry.get("hand", {}).items():
            player.hand[CARD_ID[kind]] += count
            deck_left[kind] = deck_left.get(kind, 0) - count
        for name, counts in entry.get("provinces", {}).items():
            pid = board.index(name)
            prov = state.provinces[pid]
            prov.owner = p
            player.provinces.append(pid)
            for key in PROVINCE_COUNTS:
                setattr(prov, key, counts.get(key, 0))
            placed["farmers"] += prov.farmers + prov.free_farmers
    for name, counts in data.get("unowned", {}).items():
        prov = state.provinces[board.index(name)]
        for key in UNOWNED_COUNTS:
            setattr(prov, key, counts.get(key, 0))
    for prov in state.provinces:
        placed["stones"] += prov.stones
        placed["pyramids"] += prov.pyramids
        placed["doubles"] += prov.doubles

    supplies = data.get("supplies", {})
    comp = variant.components
    for key, (attr, comp_attr) in SUPPLIES.items():
        if key in supplies:
            value = supplies[key]
        elif variant.rulings.finite_supply:
            value = getattr(comp, comp_attr) - placed[key]
        else:
            value = UNLIMITED
        setattr(state, attr, value)

    deck = [CARD_ID[kind] for kind in CARD_KINDS for _ in range(max(0, deck_left.get(kind, 0)))]
    state.rng.shuffle(deck)
    state.deck = deck
    return Position(state=state, names=names, variant=data.get("variant"))


# -- writing ---------------------------------------------------------------------------
def default_names(n: int) -> tuple[str, ...]:
    return tuple(f"player {i + 1}" for i in range(n))


def position_to_dict(state: GameState, variant: Variant, names=None) -> dict[str, Any]:
    """The position data describing a state (the inverse of `load_position`).

    Loading the result gives a state with the same holdings, supplies, kingdom, level and
    start player (the order of the cards left in the deck is not part of a position).
    """
    board = variant.board
    names = tuple(names) if names is not None else default_names(state.n_players)
    data: dict[str, Any] = {
        "variant": variant.id,
        "seed": state.seed,
        "kingdom": variant.edition.kingdoms[state.kingdom],
        "offering_level": state.offering_level,
        "start_player": names[state.start_player],
    }
    supplies = {
        key: getattr(state, attr) for key, (attr, _) in SUPPLIES.items() if getattr(state, attr) != UNLIMITED
    }
    if supplies:
        data["supplies"] = supplies
    players = []
    for p, player in enumerate(state.players):
        entry: dict[str, Any] = {"name": names[p], "gold": player.gold, "theft": player.theft}
        if player.score:
            entry["score"] = player.score
        entry["hand"] = {CARD_KINDS[k]: c for k, c in enumerate(player.hand) if c}
        provinces = {}
        for pid in player.provinces:
            prov = state.provinces[pid]
            provinces[board.provinces[pid].name] = {k: getattr(prov, k) for k in PROVINCE_COUNTS if getattr(prov, k)}
        entry["provinces"] = provinces
        players.append(entry)
    data["players"] = players
    unowned = {}
    for pid, prov in enumerate(state.provinces):
        if prov.owner is None and (prov.stones or prov.pyramids or prov.doubles):
            unowned[board.provinces[pid].name] = {k: getattr(prov, k) for k in UNOWNED_COUNTS if getattr(prov, k)}
    if unowned:
        data["unowned"] = unowned
    return data


def write_position(data: dict, path: str | Path) -> None:
    """Write position data as TOML or JSON, by the file's extension."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    else:
        import tomli_w

        path.write_text(tomli_w.dumps(data), encoding="utf-8")


# -- scoring ---------------------------------------------------------------------------
@attrs.frozen
class ScoreItem:
    """Points one scoring rule module gave each player (`details`: its sub-items)."""

    key: str
    name: str
    points: tuple[int, ...]
    details: dict[str, tuple[int, ...]] = attrs.field(factory=dict)


@attrs.frozen
class ScoreSheet:
    """The result of `score_position`: per player, per scoring item."""

    names: tuple[str, ...]
    items: tuple[ScoreItem, ...]
    before: tuple[int, ...]  # points each player had before this scoring
    totals: tuple[int, ...]  # points after it
    final: bool
    winners: tuple[int, ...] = ()  # after a final scoring only

    def points(self, player: int) -> dict[str, int]:
        """Item key -> points for one player."""
        return {item.key: item.points[player] for item in self.items}

    def gained(self, player: int) -> int:
        return self.totals[player] - self.before[player]

    def to_dict(self) -> dict[str, Any]:
        return {
            "final": self.final,
            "items": [{"key": i.key, "name": i.name} for i in self.items],
            "players": [
                {
                    "name": name,
                    "before": self.before[p],
                    "points": self.points(p),
                    "details": {
                        i.key: {k: v[p] for k, v in i.details.items()} for i in self.items if i.details
                    },
                    "gained": self.gained(p),
                    "total": self.totals[p],
                }
                for p, name in enumerate(self.names)
            ],
            "winners": [self.names[p] for p in self.winners],
        }


def score_position(
    variant: Variant,
    state: GameState,
    play_bonus: str = "met",
    final: bool = False,
    sell_cards: bool = False,
    names=None,
) -> ScoreSheet:
    """Score a position with the variant's own scoring rule modules (`scoring`, and
    `final_scoring` too when `final` says this is the last kingdom).

    The modules run through the engine on a copy of `state` (the argument is not changed)
    and their decisions are answered by policy: `play_bonus` "met" plays every bonus card
    whose condition holds, "all" every bonus card held, "none" none; cards are sold before
    the gold ranking only with `sell_cards`.
    """
    if play_bonus not in PLAY_BONUS:
        raise AmunreError(f"play_bonus must be one of {', '.join(PLAY_BONUS)}, not {play_bonus!r}")
    names = tuple(names) if names is not None else default_names(state.n_players)
    game = Game.from_state(variant, state.clone())
    rules = list(game.scoring) + (list(game.final_scoring) if final else [])
    items: list[ScoreItem] = []
    before = tuple(p.score for p in game.state.players)
    used: dict[str, int] = {}
    for rule in rules:
        start = [dict(p.breakdown) for p in game.state.players]
        game.run_rules([rule])
        while game.pending is not None:
            game.answer(_policy(game, rule, game.pending, play_bonus, sell_cards))
        details: dict[str, list[int]] = {}
        for p, player in enumerate(game.state.players):
            for key, value in player.breakdown.items():
                gained = value - start[p].get(key, 0)
                if gained or key not in start[p]:
                    sub = key.split(":", 1)[1] if ":" in key else key
                    details.setdefault(sub, [0] * state.n_players)[p] += gained
        used[rule.id] = used.get(rule.id, 0) + 1
        key = rule.id if used[rule.id] == 1 else f"{rule.id}#{used[rule.id]}"
        totals = tuple(sum(v[p] for v in details.values()) for p in range(state.n_players))
        sub_items = {k: tuple(v) for k, v in details.items()}
        if list(sub_items) == [rule.id]:
            sub_items = {}
        items.append(ScoreItem(key=key, name=rule.name, points=totals, details=sub_items))
    return ScoreSheet(
        names=names,
        items=tuple(items),
        before=before,
        totals=tuple(p.score for p in game.state.players),
        final=final,
        winners=tuple(winners(game.state)) if final else (),
    )


def _policy(game: Game, rule, request, play_bonus: str, sell_cards: bool):
    kind, options = request.kind, request.options
    if kind == "play_bonus":
        kinds = [o for o in options if o is not None]
        if play_bonus == "none" or not kinds:
            return None
        if play_bonus == "all":
            return kinds[0]
        state = game.state
        owned = state.players[request.player].provinces
        for card in kinds:
            if card in BONUS_CARDS and bonus_met(card, state, game.variant.board.provinces, owned, rule.params):
                return card
        return None
    if kind == "sell_cards":
        return max(options) if sell_cards else min(options)
    raise AmunreError(
        f"scoring item {rule.name!r} asks a {kind!r} decision that scoring a position cannot answer"
    )
