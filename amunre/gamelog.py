"""Game logs as JSON Lines: a header, every event and decision in order, and the result.

A log replays exactly: (variant, players, seed, answers) reproduce the game, so `replay`
re-runs it and checks that every line is the same. The line format is
`schemas/log-line.schema.json`.

What replay trusts, and what it checks (a log is input: it may have been edited):

- Every line is one JSON object, checked against its schema branch with JSON's own types:
  an integer is written as one (`20`, never `20.0` or `2e1`), a boolean is `true`/`false`,
  never `1`/`0`; no duplicate keys, no NaN or Infinity, nesting at most `MAX_DEPTH` deep, no
  empty line (but a missing final newline).
- Every line the replay produces is compared with the logged one exactly: as canonical JSON
  text (sorted keys, no spaces), so `true` differs from `1` and `20.0` from `20`. Only what
  does not change the parsed JSON is meaningless and accepted: whitespace between tokens,
  the order of keys, how a string's characters are escaped (`"\\u0041"` is `"A"`), a `\\r`
  before a newline. A difference is reported with its line number, the key where it starts
  and a short excerpt of both values, never whole lines.
- The variant: replay opens no file a log names. The header's `variant` is loaded as a
  shipped id when the header's `variant_file` is empty (what `amunre run --log` writes for
  a shipped variant). A game played from any other file (its absolute path is the
  `variant_file`) replays only from a variant the caller gives (`amunre replay LOG
  --variant FILE`), whose id must be the header's `variant`; `variant_file` is then the
  note of where the game was played from, and is not compared (the file may have moved).
- The agents: "verified" means the header's `agents` is a list of known agent names, one
  per player, and every bot seat (`random`, `greedy`) is re-run: seeded from the log's
  seed as `amunre run` seeds it, each of its answers must be the one the log holds. A
  `human` seat's answers are the player's: replay checks only that each is legal. A name
  is written in one spelling (`spec_text`: no spaces, parameters in key order) and must be
  so in the log: `" random\t"`, which the agents would read as `random`, is an edit. So the
  edits of `agents` replay cannot tell are a bot seat renamed `human`, and a parameter's
  value spelled another way its agent reads alike (`iterations=0400`).
- The header's `amunre` version must be this version: another version may play other rules.

Writing is atomic (`write_atomically`): the log goes to a temporary file in the same
folder, renamed to its name only once complete, so a failed or interrupted write leaves no
partial log behind (and an existing file of that name untouched). `amunre run --log`
writes when the game ends. A game stopped early (Ctrl-C, a signal, a human seat that leaves)
writes its answers so far with an `incomplete` line instead of the result
(`incomplete_lines`); replay checks such a log up to where the game stopped. (Only a
process killed outright, `kill -9`, can leave a hidden `.amunre-*.tmp` file in the log's
folder.)
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
from functools import cache
from pathlib import Path

import jsonschema

from amunre import __version__
from amunre.decisions import to_json_value
from amunre.engine import Game, play_game
from amunre.errors import AmunreError, IllegalAnswerError, ReplayError, UnknownVariantError
from amunre.loader.files import nesting_depth
from amunre.resources import load_schema

FORMAT = "amunre-log/1"

#: Deepest nesting of arrays and objects a log line may use; real lines need 4.
MAX_DEPTH = 32

#: Largest log file replay reads (a long game's log is about 200 kB).
MAX_LOG_BYTES = 256 * 2**20

#: Longest excerpt of a value a message shows.
EXCERPT = 80


class Recorder:
    """Listener that keeps every event of a game as a JSON-able dict."""

    def __init__(self):
        self.events: list[dict] = []

    def __call__(self, event: dict) -> None:
        self.events.append(event)


# -- writing ---------------------------------------------------------------------------------

@cache
def _shipped_files() -> dict[str, str]:
    """Shipped variant ids -> their files' resolved paths (the shipped files do not change
    while the program runs)."""
    from amunre.loader import available_variants

    found = {}
    for vid, path in available_variants().items():
        try:
            found[vid] = str(path.resolve())
        except (OSError, RuntimeError):
            continue
    return found


def variant_file_of(variant) -> str:
    """The header's `variant_file`: empty for a shipped variant (replayed by its id), else
    the absolute path of the file the game was played from (replay asks for it with
    `--variant`)."""
    if not variant.source:
        return ""
    try:
        source = str(Path(variant.source).resolve())
    except (OSError, RuntimeError):
        return str(variant.source)
    return "" if _shipped_files().get(variant.id) == source else source


def spec_text(name: str) -> str:
    """An agent spec in the one spelling a header holds: no spaces around the kind, the
    keys and the values, the parameters in key order (`mcts:exploration=1:iterations=5`).
    The agents read `" random\t"` as `random`; writing one spelling lets replay refuse a
    header whose names were edited so (a name it cannot read is left as it is, for
    `_check_header` to report)."""
    from amunre.agents import split_spec

    try:
        kind, params = split_spec(name)
    except (AmunreError, AttributeError):
        return name
    return kind + "".join(f":{key}={params[key]}" for key in sorted(params))


def _header(variant, players: int, seed: int, agents: list[str]) -> dict:
    return {
        "type": "header",
        "format": FORMAT,
        "amunre": __version__,
        "variant": variant.id,
        "variant_file": variant_file_of(variant),
        "players": players,
        "seed": seed,
        "agents": [spec_text(name) for name in agents],
    }


def header(game: Game, agents: list[str] | None = None) -> dict:
    """The first line. `agents` are the names `amunre.agents.make_agents` built the seats
    from with the game's seed (replay re-runs the bots); seats answered from elsewhere are
    `human`, the default."""
    return _header(game.variant, game.n_players, game.seed, agents or ["human"] * game.n_players)


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


def incomplete_lines(game: Game, events: list[dict], agents: list[str] | None, reason: str) -> list[dict]:
    """The log of a game stopped before its end: the header, the events up to the first
    decision after the last answer (a replay of the answers stops at that decision; what
    followed it, a bot's sealed offer or a line cut off mid-phase, is left out), and an
    `incomplete` line instead of the result."""
    last_answer = max((i for i, e in enumerate(events) if e.get("event") == "answer"), default=-1)
    end = next((i + 1 for i in range(last_answer + 1, len(events)) if events[i].get("event") == "decision"),
               last_answer + 1)
    kept = events[:end]
    decisions = sum(1 for e in kept if e.get("event") == "answer")
    return ([header(game, agents)] + [{"type": "event", **e} for e in kept]
            + [{"type": "incomplete", "decisions": decisions, "reason": reason}])


def canonical(line) -> str:
    """One line as canonical JSON text: sorted keys, no spaces, ASCII only. Two lines are
    the same exactly when their canonical texts are (types included: `1` is not `true`)."""
    return json.dumps(line, separators=(",", ":"), sort_keys=True, allow_nan=False)


def dumps_lines(lines: list[dict]) -> str:
    return "".join(canonical(line) + "\n" for line in lines)


def _write_all(file, text: str) -> None:
    """Write and flush to the disk (one place, so a test can make the disk full)."""
    file.write(text)
    file.flush()
    os.fsync(file.fileno())


def new_file_mode(path) -> int:
    """The permissions a file written at `path` gets: those of the file it replaces, else
    what the umask gives a new file (a temporary file starts private)."""
    try:
        return os.stat(path).st_mode & 0o777
    except (OSError, ValueError):
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def write_atomically(path, text: str, renames=(), what: str = "the log", argument: str = "--log") -> None:
    """Write `text` to `path` all or nothing: into a temporary file in the same folder,
    renamed to `path` only once it is complete. `renames` are (temporary, final) paths of
    files that belong with it, renamed into place just before it. On any failure (disk
    full, an interrupt) the temporary file is removed, `path` is left as it was, and a
    failure of the system is an `AmunreError` naming the file and `argument`."""
    path = Path(path)
    temporary = None
    try:
        # renamed into place: never over a link (/dev/stdout), a device or a pipe
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise AmunreError(f"cannot write {what} {argument} {shown_path(path)}: "
                              f"{'a link' if path.is_symlink() else 'not a regular file'} (expected the path of a "
                              f"regular file: the file is written whole, then renamed into place)")
        fd, temporary = tempfile.mkstemp(prefix=".amunre-", suffix=".tmp", dir=path.parent)
        os.chmod(temporary, new_file_mode(path))
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            _write_all(file, text)
        for source, target in renames:
            os.replace(source, target)
        os.replace(temporary, path)
        temporary = None
    except (OSError, ValueError) as exc:
        full = " (the disk is full)" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else ""
        raise AmunreError(f"cannot write {what} {argument} {shown_path(path)}: {getattr(exc, 'strerror', None) or exc}{full}; "
                          f"nothing was written") from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def write_log(path, lines: list[dict], renames=()) -> None:
    """Write a log atomically (see `write_atomically`)."""
    write_atomically(path, dumps_lines(lines), renames)


# -- messages --------------------------------------------------------------------------------

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def excerpt(value, limit: int = EXCERPT) -> str:
    """A value as short JSON text for a message: at most `limit` characters (cut in the
    middle with `...`), every control and non-ASCII character escaped."""
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(type(value).__name__)
    text = text.replace("\x7f", "\\u007f")
    if len(text) > limit:
        half = (limit - 3) // 2
        text = text[:half] + "..." + text[-half:]
    return text


def label(path, limit: int = 120) -> str:
    """A path as a message's `file:line` prefix: control characters escaped, cut to `limit`
    characters."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], str(path))
    if len(text) > limit:
        text = text[:60] + "..." + text[-(limit - 63):]
    return text


def shown_path(path, limit: int = 120) -> str:
    """A path quoted inside a message (see `label`), with its length when it is cut."""
    text = label(path, limit)
    return f"'{text}'" + (f" ({len(str(path))} characters)" if len(str(path)) > limit else "")


def _where(path) -> str:
    """A key path for a message: `scores/0`, `breakdown/1/"0:temples"`; a line's top level is
    `(the line)`."""
    parts = []
    for part in path:
        if isinstance(part, int):
            parts.append(str(part))
        else:
            text = excerpt(part, 40)
            parts.append(text[1:-1] if re.fullmatch(r'"[A-Za-z0-9_:.\-]+"', text) else text)
    return "/".join(parts) or "(the line)"


def first_difference(old, new, path=()):
    """(key path, old value, new value) where two JSON values first differ, types
    included; None when they are the same. Walks without deep recursion into equal parts."""
    if type(old) is not type(new):
        return path, old, new
    if isinstance(old, dict):
        # what a line is comes first: an answer where the replay has a decision says so
        for key in sorted(set(old) | set(new), key=lambda k: (k not in ("type", "event"), k)):
            if key not in old or key not in new:
                return path + (key,), old.get(key, _MISSING), new.get(key, _MISSING)
            if canonical(old[key]) != canonical(new[key]):
                return first_difference(old[key], new[key], path + (key,))
        return None
    if isinstance(old, list):
        for i, (a, b) in enumerate(zip(old, new)):
            if canonical(a) != canonical(b):
                return first_difference(a, b, path + (i,))
        if len(old) != len(new):
            return path, old, new
        return None
    return None if canonical(old) == canonical(new) else (path, old, new)


class _Missing:
    pass


_MISSING = _Missing()


def _shown(value) -> str:
    return "nothing" if value is _MISSING else excerpt(value)


def _difference_message(where: str, number: int, old: dict, new: dict) -> str:
    found = first_difference(old, new)
    path, was, now = found if found else ((), old, new)
    return (f"{where}:{number}: {_where(path)}: the log has {_shown(was)}, the replay {_shown(now)} "
            f"(the line differs on replay)")


# -- reading ---------------------------------------------------------------------------------

class _BadJSON(Exception):
    """A JSON text Python would read but a log must not hold."""


def _no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _BadJSON(f"the key {excerpt(key, 40)} appears twice (expected each key once)")
        seen[key] = value
    return seen


def _no_constant(name):
    raise _BadJSON(f"{name} is not a JSON number (expected a finite number)")


def _finite(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _BadJSON(f"{excerpt(text, 40)} is too large a number (expected a finite number)")
    return value


def _parse(raw: str):
    return json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant, parse_float=_finite)


def _is_integer(checker, value) -> bool:
    """A JSON integer is written as one: Python reads `20.0` as a float, and JSON Schema
    alone would call it an integer."""
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _validators() -> dict:
    """One validator per line type (the schema's branches), with strict integers."""
    base = jsonschema.Draft202012Validator
    strict = jsonschema.validators.extend(
        base, type_checker=base.TYPE_CHECKER.redefine("integer", _is_integer))
    return {b["properties"]["type"]["const"]: strict(b) for b in load_schema("log-line")["oneOf"]}


_JSON_TYPES = {bool: "a boolean", int: "an integer", float: "a number with a fraction", str: "a string",
               list: "an array", dict: "an object", type(None): "null"}


def _schema_message(error) -> str:
    """A schema error in a few words, its found value shown as a short excerpt (the
    library's own message would repeat the whole value)."""
    found = error.instance
    kind = _JSON_TYPES.get(type(found), "a value")
    check, wanted = error.validator, error.validator_value
    if check == "type":
        wanted = [wanted] if isinstance(wanted, str) else wanted
        return f"{kind} {excerpt(found)} (expected {' or '.join(_JSON_TYPES.get(_TYPE_NAMES.get(w), w) for w in wanted)})"
    if check == "required":
        return error.message if len(error.message) < 100 else "a required key is missing"
    if check == "additionalProperties":
        extra = sorted(set(found) - set(error.schema.get("properties", {}))) if isinstance(found, dict) else []
        return (f"unexpected key {excerpt(extra[0], 40)}" if extra else "unexpected keys") + \
            f" (expected only {', '.join(sorted(error.schema.get('properties', {})))})"
    if check == "const":
        return f"{excerpt(found)} (expected {excerpt(wanted)})"
    if check in ("minimum", "maximum"):
        return f"{excerpt(found)} (expected {'at least' if check == 'minimum' else 'at most'} {wanted})"
    if check in ("minItems", "maxItems", "minLength", "maxLength"):
        return f"{excerpt(found)} (expected {check}: {wanted})"
    return f"{kind} {excerpt(found)} does not fit the schema ({check}: {excerpt(wanted, 40)})"


_TYPE_NAMES = {"boolean": bool, "integer": int, "number": float, "string": str, "array": list, "object": dict,
               "null": type(None)}


_FIXED_EVENTS = {"decision": frozenset({"type", "event", "player", "kind", "options"}),
                 "answer": frozenset({"type", "event", "player", "kind", "options", "answer"})}


def plain_event(line: dict) -> bool:
    """Whether an event line fits the schema's event branch, checked in plain Python (the
    schema is checked for every other line, and for an event line this refuses, to word
    the problem; a test holds the two to the same answer)."""
    event = line.get("event")
    if line.get("type") != "event" or type(event) is not str or not event:
        return False
    keys = _FIXED_EVENTS.get(event)
    if keys is None:
        return True
    player, kind, options = line.get("player"), line.get("kind"), line.get("options")
    return (line.keys() == keys and type(player) is int and player >= 0 and type(kind) is str and kind != ""
            and type(options) is int and options >= 1)


def read_log(path) -> list[dict]:
    """The lines of a log file, each checked against its schema branch; `ReplayError` with
    the file and line number for anything else."""
    where = label(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a device or a pipe would never end
            raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: not a regular file (expected the "
                              f"file `amunre run --log` writes)")
        with open(path, "rb") as file:
            raw_bytes = file.read(MAX_LOG_BYTES + 1)
        if len(raw_bytes) > MAX_LOG_BYTES:
            raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: larger than {MAX_LOG_BYTES >> 20} MB "
                              f"(the logs `amunre run --log` writes are well under 10 MB)")
    except OSError as exc:
        raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL byte in the name
        raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc}") from None
    try:
        text = raw_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw_bytes[:exc.start].count(b"\n") + 1
        raise ReplayError(f"{where}:{line}: not UTF-8 text (byte 0x{raw_bytes[exc.start]:02x}; expected the "
                          f"JSON Lines `amunre run --log` writes)") from None
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()  # the final newline
    if not rows:
        raise ReplayError(f"{where}: the log is empty (expected the JSON Lines `amunre run --log` writes)")
    validators = _validators()
    lines = []
    for number, raw in enumerate(rows, 1):
        if not raw.strip():
            raise ReplayError(f"{where}:{number}: an empty line (expected one JSON object on every line)")
        try:
            line = _parse(raw)
        except _BadJSON as exc:
            raise ReplayError(f"{where}:{number}: {exc}") from None
        except json.JSONDecodeError as exc:
            said = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg  # "Unterminated string starting at"
            raise ReplayError(f"{where}:{number}: not a JSON line ({said} at column {exc.colno})") from None
        except RecursionError:
            raise ReplayError(f"{where}:{number}: nesting too deep at line {number} "
                              f"(expected at most {MAX_DEPTH} levels)") from None
        except ValueError:  # an integer longer than Python converts
            raise ReplayError(f"{where}:{number}: a number too long to read "
                              f"(expected a number of at most a few hundred digits)") from None
        if nesting_depth(line, MAX_DEPTH) > MAX_DEPTH:
            raise ReplayError(f"{where}:{number}: nesting too deep at line {number} "
                              f"(expected at most {MAX_DEPTH} levels)")
        kind = line.get("type") if isinstance(line, dict) else None
        if not isinstance(kind, str) or kind not in validators:
            raise ReplayError(f"{where}:{number}: not a log line (expected an object whose type is "
                              f"{', '.join(validators)}; see schemas/log-line.schema.json)")
        if kind == "event" and plain_event(line):
            lines.append(line)  # what the schema's event branch says, without its cost per line
            continue
        error = jsonschema.exceptions.best_match(validators[kind].iter_errors(line))
        if error is not None:
            at = _where(error.absolute_path) if error.absolute_path else kind
            article = "an" if kind[0] in "aeiou" else "a"
            raise ReplayError(f"{where}:{number}: {at}: {_schema_message(error)} "
                              f"(in {article} {kind} line of schemas/log-line.schema.json)")
        lines.append(line)
    if lines[0]["type"] != "header":
        raise ReplayError(f"{where}:1: expected the header first, as `amunre run --log` writes")
    for number, line in enumerate(lines[1:], 2):
        if line["type"] == "header":
            raise ReplayError(f"{where}:{number}: a second header (expected one, on line 1)")
    if lines[-1]["type"] not in ("result", "incomplete"):
        raise ReplayError(f"{where}:{len(lines)}: expected the result last, as `amunre run --log` writes "
                          f"(is the log cut short?)")
    for number, line in enumerate(lines[1:-1], 2):
        if line["type"] != "event":
            raise ReplayError(f"{where}:{number}: {excerpt(line['type'], 40)} before the last line (expected "
                              f"only events between the header and the last line)")
    return lines


# -- replaying -------------------------------------------------------------------------------

def _variant_for(head: dict, where: str, variant):
    """The variant to replay with: the caller's (`--variant`), else the shipped variant of
    the header's id; never a file the log names."""
    from amunre.loader import load_variant
    from amunre.model import Variant

    if variant is not None:
        if not isinstance(variant, Variant):
            try:
                variant = load_variant(variant)
            except UnknownVariantError as exc:
                raise ReplayError(f"--variant: {exc}") from None
        if variant.id != head["variant"]:
            raise ReplayError(f"{where}:1: variant: the log's game is {excerpt(head['variant'])}, but --variant "
                              f"gives {excerpt(variant.id)} (expected the variant the game was played with)")
        return variant
    shipped = _shipped_files()
    played_from = head["variant_file"]
    if head["variant"] not in shipped or played_from:
        if played_from:
            why = (f"variant_file: the game was played from {shown_path(played_from)}, not a shipped variant; "
                   f"replay opens no file a log names: pass that file (or its copy) with --variant")
        else:
            why = (f"variant: {excerpt(head['variant'])} is not a shipped variant; pass the variant file the game "
                   f"was played with with --variant")
        raise ReplayError(f"{where}:1: {why}, as in `amunre replay LOG --variant FILE`")
    return load_variant(Path(shipped[head["variant"]]))


def _check_header(head: dict, where: str, variant) -> None:
    from amunre.agents import agent_names, check_spec, split_spec

    if head["amunre"] != __version__:
        raise ReplayError(f"{where}:1: amunre: the log was written by amunre {excerpt(head['amunre'])}, this is "
                          f"{__version__} (a log replays with the version that wrote it)")
    players, agents = head["players"], head["agents"]
    if players not in variant.players:
        raise ReplayError(f"{where}:1: players: {excerpt(players)} (expected one of "
                          f"{', '.join(map(str, variant.players))} for {excerpt(variant.id)})")
    if len(agents) != players:
        raise ReplayError(f"{where}:1: agents: {len(agents)} agent names for {players} players "
                          f"(expected one per player)")
    known = agent_names()
    for seat, name in enumerate(agents):
        try:
            kind = split_spec(name)[0]
            if kind in known:
                check_spec(name)
        except AmunreError as exc:
            raise ReplayError(f"{where}:1: agents/{seat}: {exc}") from None
        if kind not in known:
            raise ReplayError(f"{where}:1: agents/{seat}: unknown agent {excerpt(name)} "
                              f"(expected one of {', '.join(known)})")


class _Replayer:
    """Answers every seat from the log: a `human` seat's answer as logged (if legal), a
    bot seat's as its bot answers, which must be what the log holds.

    A wrong answer is kept as a complaint, and the game goes on with a stand-in (the bot's
    answer, or the first legal option): the lines are compared as they come, so whichever
    comes first, the complaint's line or a line that differs before it, is the one reported
    (an answer line whose `event` was edited hides it from the answers, and the next answer
    then looks wrong, but the edited line comes first)."""

    def __init__(self, lines: list[dict], agents: list[str], seed: int, where: str):
        from amunre.agents import make_agents

        self.where = where
        # (line number, line) of every logged answer, in the order they were asked
        self.answers = [(n, line) for n, line in enumerate(lines, 1) if line.get("event") == "answer"]
        self.bots = [None if name == "human" else bot for name, bot in zip(agents, make_agents(agents, seed))]
        self.agents = agents
        self.next = 0
        self.last_line = len(lines)
        self.complaint: tuple[int, str] | None = None
        self.incomplete = lines[-1]["type"] == "incomplete"

    def seats(self) -> list:
        return [_Seat(self) for _ in self.agents]

    def complain(self, number: int, message: str) -> None:
        if self.complaint is None:
            self.complaint = (number, message)

    def first(self, number: int, message: str) -> ReplayError:
        """The error to report when line `number` differs: the complaint, if its line comes first."""
        if self.complaint is not None and self.complaint[0] <= number:
            return ReplayError(self.complaint[1])
        return ReplayError(message)

    def choose(self, view, request):
        bot = self.bots[request.player]
        mine = bot.choose(view, request) if bot is not None else None
        stand_in = mine if bot is not None else request.options[0]
        if self.next >= len(self.answers) and self.incomplete:
            raise _EndOfLog()  # the game stopped here
        if self.next >= len(self.answers):
            self.complain(self.last_line, f"{self.where}:{self.last_line}: the log has no answer for decision "
                                          f"{self.next + 1} ({excerpt(request.kind)} for player {request.player}), "
                                          f"the replay asks for one")
            self.next += 1
            return stand_in
        number, line = self.answers[self.next]
        self.next += 1
        expected = {"type": "event", "event": "answer", "player": request.player, "kind": request.kind,
                    "options": len(request.options), "answer": line["answer"]}
        if canonical(line) != canonical(expected):
            self.complain(number, _difference_message(self.where, number, line, expected))
            return stand_in
        logged = canonical(line["answer"])
        if bot is not None:
            if canonical(to_json_value(mine)) != logged:
                self.complain(number,
                              f"{self.where}:{number}: answer: the log has {excerpt(line['answer'])}, but player "
                              f"{request.player} is the bot {self.agents[request.player]!r}, which answers "
                              f"{excerpt(to_json_value(mine))} (a bot's answers are replayed, not read from the log)")
            return mine
        for option in request.options:
            if canonical(to_json_value(option)) == logged:
                return option  # the engine's own value, never the log's
        shown = ", ".join(excerpt(to_json_value(o), 30) for o in request.options[:3])
        self.complain(number, f"{self.where}:{number}: answer: {excerpt(line['answer'])} is not a legal answer to "
                              f"{excerpt(request.kind)} for player {request.player} (expected one of its "
                              f"{len(request.options)} options, such as {shown})")
        return stand_in


class _EndOfLog(Exception):
    """The replay of an incomplete log reached the point where the game was stopped."""


class _Seat:
    def __init__(self, replayer: _Replayer):
        self.choose = replayer.choose


class _Comparer:
    """Listener that compares each event, as it happens, with the logged line it must be."""

    def __init__(self, lines: list[dict], where: str, replayer: _Replayer):
        self.lines = lines
        self.where = where
        self.replayer = replayer
        self.events: list[dict] = []

    def __call__(self, event: dict) -> None:
        self.events.append(event)
        index = len(self.events)  # the header is line 1, index 0
        fresh = {"type": "event", **event}
        if index >= len(self.lines) - 1 and self.replayer.incomplete:
            self.events.pop()  # the game stopped before this event
            raise _EndOfLog()
        if index >= len(self.lines) - 1:
            raise self.replayer.first(len(self.lines), f"{self.where}:{len(self.lines)}: the log ends here, the "
                                                       f"replay goes on with the event {excerpt(fresh.get('event'), 40)}")
        logged = self.lines[index]
        if canonical(logged) != canonical(fresh):
            raise self.replayer.first(index + 1, _difference_message(self.where, index + 1, logged, fresh))


def replay_lines(lines: list[dict], source: str = "log", variant=None,
                 verify_agents: bool = True) -> tuple[Game, list[dict]]:
    """Re-run a logged game (lines as `read_log` returns them); `ReplayError` at the first
    line that differs. `variant` is what the caller gives to play with (a Variant, a shipped
    id or a path: `amunre replay --variant`); without it only a shipped variant replays.
    `verify_agents=False` takes every seat's answers from the log, as a human seat's (for a
    harness that checks the bots' determinism itself). Returns the replayed game and its
    lines, header included."""
    where = label(source)
    head = lines[0]
    variant = _variant_for(head, where, variant)
    _check_header(head, where, variant)
    fresh_head = _header(variant, head["players"], head["seed"], head["agents"])
    fresh_head["variant_file"] = head["variant_file"]  # checked above, or the caller's file is used
    if canonical(head) != canonical(fresh_head):
        raise ReplayError(_difference_message(where, 1, head, fresh_head))
    replayer = _Replayer(lines, head["agents"] if verify_agents else ["human"] * len(head["agents"]),
                         head["seed"], where)
    comparer = _Comparer(lines, where, replayer)
    if replayer.incomplete:
        return _replay_incomplete(lines, where, variant, head, fresh_head, replayer, comparer)
    try:
        game = play_game(variant, replayer.seats(), head["seed"], [comparer])
    except IllegalAnswerError as exc:  # not expected: the replayer answers with the engine's own options
        raise ReplayError(f"{where}: the replay diverges at decision {replayer.next}: {exc}") from None
    except AmunreError as exc:
        if isinstance(exc, ReplayError):
            raise
        raise ReplayError(f"{where}: the replay stops at decision {replayer.next}: {exc}") from None
    fresh = [fresh_head] + [{"type": "event", **e} for e in comparer.events] + [result(game)]
    if len(lines) > len(fresh):  # the replay's game ends where the log goes on
        raise replayer.first(len(fresh), f"{where}:{len(fresh)}: the replay's game ends here, the log goes on "
                                         f"with {len(lines) - len(fresh)} more lines (the event "
                                         f"{excerpt(lines[len(fresh) - 1].get('event'), 40)} and what follows)")
    if canonical(lines[-1]) != canonical(fresh[-1]):
        raise replayer.first(len(lines), _difference_message(where, len(lines), lines[-1], fresh[-1]))
    if replayer.complaint is not None:
        raise ReplayError(replayer.complaint[1])
    return game, fresh


def _replay_incomplete(lines, where, variant, head, fresh_head, replayer, comparer):
    """Replay a stopped game's log up to where it stopped: every logged event must come,
    in order, and every logged answer be used; the game then stands where it stopped."""
    game = Game(variant, head["players"], head["seed"], [comparer])
    seats = replayer.seats()
    try:
        while (request := game.pending) is not None:
            game.answer(seats[request.player].choose(game.view(request.player), request))
    except _EndOfLog:
        pass
    except IllegalAnswerError as exc:
        raise ReplayError(f"{where}: the replay diverges at decision {replayer.next}: {exc}") from None
    except AmunreError as exc:
        if isinstance(exc, ReplayError):
            raise
        raise ReplayError(f"{where}: the replay stops at decision {replayer.next}: {exc}") from None
    matched = len(comparer.events)
    if matched < len(lines) - 2:
        raise replayer.first(matched + 2, f"{where}:{matched + 2}: the replay stops here (the game is over or "
                                          f"waits for an answer the log does not hold), the log goes on with "
                                          f"{len(lines) - 2 - matched} more events")
    if replayer.complaint is not None:
        raise ReplayError(replayer.complaint[1])
    if game.state.finished:
        raise ReplayError(f"{where}:{len(lines)}: the log says the game stopped early, but its answers play it to "
                          f"the end (expected the result line)")
    end = {"type": "incomplete", "decisions": len(game.answers), "reason": lines[-1]["reason"]}
    if canonical(lines[-1]) != canonical(end):
        raise ReplayError(_difference_message(where, len(lines), lines[-1], end))
    return game, [fresh_head] + [{"type": "event", **e} for e in comparer.events] + [end]
