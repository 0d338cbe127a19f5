"""Game logs as JSON Lines: a header, every event and decision in order, and the result.

A log replays exactly: (variant, players, seed, answers) reproduce the game, so `replay`
re-runs it with the logged answers and checks that every event and the result are the same.
The line format is `schemas/log-line.schema.json`.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from amunre import __version__
from amunre.decisions import from_json_value
from amunre.engine import Game, play_game
from amunre.errors import IllegalAnswerError, ReplayError
from amunre.resources import load_schema
from amunre.loader import load_variant

FORMAT = "amunre-log/1"


class Recorder:
    """Listener that keeps every event of a game as a JSON-able dict."""

    def __init__(self):
        self.events: list[dict] = []

    def __call__(self, event: dict) -> None:
        self.events.append(event)


def header(game: Game, agents: list[str] | None = None) -> dict:
    variant = game.variant
    return {
        "type": "header",
        "format": FORMAT,
        "amunre": __version__,
        "variant": variant.id,
        # absolute, so the log replays from any directory
        "variant_file": str(Path(variant.source).resolve()) if variant.source else "",
        "players": game.n_players,
        "seed": game.seed,
        "agents": agents or [],
    }


def result(game: Game) -> dict:
    state = game.state
    return {
        "type": "result",
        "scores": [p.score for p in state.players],
        "breakdown": [dict(p.breakdown) for p in state.players],
        "gold": [p.gold for p in state.players],
        "winners": list(state.winners),
        "decisions": len(game.answers),
    }


def log_lines(game: Game, events: list[dict], agents: list[str] | None = None) -> list[dict]:
    return [header(game, agents)] + [{"type": "event", **e} for e in events] + [result(game)]


def dumps_lines(lines: list[dict]) -> str:
    return "".join(json.dumps(line, separators=(",", ":"), sort_keys=True) + "\n" for line in lines)


def write_log(path: Path, lines: list[dict]) -> None:
    Path(path).write_text(dumps_lines(lines), encoding="utf-8")


def read_log(path: Path) -> list[dict]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ReplayError(f"cannot read log {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = Path(path).read_bytes()[:exc.start].count(b"\n") + 1
        raise ReplayError(f"{path}:{line}: not UTF-8 text (expected the JSON Lines `amunre run --log` writes)") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
        except RecursionError:
            raise ReplayError(f"{path}:{number}: nesting too deep (expected a log line)") from None
    if not lines:
        raise ReplayError(f"{path}: the log is empty (expected the JSON Lines `amunre run --log` writes)")
    # validate each line against the schema branch its `type` names, for a precise message
    branches = {b["properties"]["type"]["const"]: jsonschema.Draft202012Validator(b)
                for b in load_schema("log-line")["oneOf"]}
    for number, line in enumerate(lines, 1):
        kind = line.get("type") if isinstance(line, dict) else None
        if kind not in branches:
            raise ReplayError(f"{path}:{number}: not a log line (expected an object whose type is "
                              f"{', '.join(branches)}; see schemas/log-line.schema.json)")
        error = jsonschema.exceptions.best_match(branches[kind].iter_errors(line))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or kind
            article = "an" if kind[0] in "aeiou" else "a"
            raise ReplayError(f"{path}:{number}: {where}: {error.message} "
                              f"(expected {article} {kind} line of schemas/log-line.schema.json)")
    if lines[0]["type"] != "header" or lines[-1]["type"] != "result":
        raise ReplayError(f"{path}: expected a header first and a result last, as `amunre run --log` writes")
    return lines


class _Scripted:
    """Answers decisions from a list, in order (the logged answers)."""

    def __init__(self, answers: list):
        self.answers = answers
        self.next = 0

    def choose(self, game, request):
        if self.next >= len(self.answers):
            raise ReplayError(f"the log has no answer for decision {self.next + 1} ({request.kind})")
        answer = self.answers[self.next]
        self.next += 1
        return answer


def replay_lines(lines: list[dict], source: str = "log") -> tuple[Game, list[dict]]:
    """Re-run a logged game; raise ReplayError at the first difference."""
    head = lines[0]
    variant_ref = head.get("variant_file") or head["variant"]
    if not Path(str(variant_ref)).is_file():
        variant_ref = head["variant"]
    variant = load_variant(variant_ref)
    answers = [from_json_value(line["answer"]) for line in lines if line.get("event") == "answer"]
    script = _Scripted(answers)
    recorder = Recorder()
    try:
        game = play_game(variant, [script] * head["players"], head["seed"], [recorder])
    except IllegalAnswerError as exc:
        raise ReplayError(f"{source}: the replay diverges at decision {script.next}: {exc}") from None
    fresh = log_lines(game, recorder.events, head.get("agents"))
    for number, (old, new) in enumerate(zip(lines, fresh), 1):
        if old != new:
            raise ReplayError(f"{source}: line {number} differs on replay: logged {old}, replayed {new}")
    if len(lines) != len(fresh):
        raise ReplayError(f"{source}: the log has {len(lines)} lines, the replay {len(fresh)}")
    return game, fresh
