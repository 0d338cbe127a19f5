"""Read a position file and check it against its schema and the variant, every problem at once."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema

from amunre.errors import PositionError
from amunre.loader.tomlpos import format_path, key_lines, line_for
from amunre.model import Variant
from amunre.position.build import build_state
from amunre.position.fields import PROVINCE_COUNTS, player_entries, player_names, SUPPLIES, UNOWNED_COUNTS, Position
from amunre.resources import load_schema
from amunre.state import GameState


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
    -> line, from `amunre.loader.tomlpos.key_lines`) supplies the line numbers.
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
    return build_state(data, variant)


def _schema_problems(data: dict) -> list[tuple]:
    validator = jsonschema.Draft202012Validator(load_schema("position"))
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [(tuple(e.absolute_path), format_path(e.absolute_path) or "(top level)", e.message) for e in errors]


def _count(value) -> int | None:
    """A valid count, or None (the schema check reports the rest)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _semantic_problems(data: dict, variant: Variant) -> list[tuple]:
    problems: list[tuple] = []

    def add(path: tuple, message: str, shown: str | None = None) -> None:
        problems.append((path, shown or format_path(path), message))
    board = variant.board
    players = player_entries(data)
    names = player_names(data)
    allowed = variant.players
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
    top = variant.modules.max_offering_level or 4  # 4: the printed track, when no rule sets a level
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
    held = dict.fromkeys(variant.cards, 0)
    for i, player in enumerate(players):
        hand = player.get("hand")
        if not isinstance(hand, dict):
            continue
        for kind, count in hand.items():
            if kind not in held:
                add(("players", i, "hand", kind), f"unknown card kind (known: {', '.join(variant.cards)})")
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


