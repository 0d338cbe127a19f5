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
- A log is read line by line as it is replayed (`replay_log`, what `amunre replay` runs),
  and replay stops at the first line that differs or cannot be read, having read only up
  to it (and the few lines a seat's answer is looked for ahead, `MAX_AHEAD`): what it holds
  is the game and a few lines, whatever the log's length. A log is at most 256 MB, a line
  at most 16 MB. (`read_log` reads every line first, for the tools that want them all.)

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
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import jsonschema

from amunre import __version__
from amunre.decisions import to_json_value
from amunre.engine import Game
from amunre.errors import AmunreError, IllegalAnswerError, ReplayError, UnknownVariantError
from amunre.loader.files import nesting_depth
from amunre.resources import load_schema

FORMAT = "amunre-log/2"
#: Formats this version no longer replays, and why: the same seed plays another game now.
OLDER_FORMATS = {
    "amunre-log/1": "written by amunre 0.3 and earlier, whose games drew every chance from one random "
                    "generator; since 0.4 each source of chance has its own named stream (amunre.streams)",
}

#: Deepest nesting of arrays and objects a log line may use; real lines need 4.
MAX_DEPTH = 32

#: Largest log file replay reads (a long game's log is about 200 kB).
MAX_LOG_BYTES = 256 * 2**20

#: Longest line of a log, in bytes. The lines `amunre run --log` writes are under a few kB
#: (the longest, the header, holds the path of a variant file); the limit bounds what one
#: line costs to read and parse, as replay reads a log line by line.
MAX_LINE_BYTES = 16 * 2**20

#: How far past the line compared last replay looks for the answer a seat gives, in lines
#: and in bytes. In a secret batch every seat is asked before the answers are revealed, so
#: an answer comes a few lines after its seat's decision (4 at most in the shipped variants,
#: with 5 players); a log whose next answer is further is wrong, and replay need not read it
#: whole to say so.
MAX_AHEAD = 200
MAX_AHEAD_BYTES = 2**20

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


def _open_log(path):
    """`path` opened for reading, once it is known to be a regular file of a sane size (a
    device or a pipe would never end; opening a pipe waits for a writer)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: not a regular file (expected the "
                              f"file `amunre run --log` writes)")
        file = open(path, "rb")
    except OSError as exc:
        raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL byte in the name
        raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc}") from None
    if os.fstat(file.fileno()).st_size > MAX_LOG_BYTES:
        file.close()
        raise _too_large(path)
    return file


def _too_large(path) -> ReplayError:
    return ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: larger than {MAX_LOG_BYTES >> 20} MB "
                       f"(the logs `amunre run --log` writes are well under 10 MB)")


def _rows(path) -> Iterator[tuple[int, bytes]]:
    """(number, bytes without the newline) of every line of a log file, read one at a time:
    at most `MAX_LINE_BYTES` for a line, `MAX_LOG_BYTES` for the file."""
    where = label(path)
    with _open_log(path) as file:
        number = total = 0
        while True:
            try:
                raw = file.readline(MAX_LINE_BYTES + 1)
            except OSError as exc:
                raise ReplayError(f"cannot read log LOG_FILE {shown_path(path)}: {exc.strerror or exc}") from None
            if not raw:
                return
            number, total = number + 1, total + len(raw)
            if total > MAX_LOG_BYTES:  # it grew since it was opened
                raise _too_large(path)
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            elif len(raw) > MAX_LINE_BYTES:
                raise ReplayError(f"{where}:{number}: a line longer than {MAX_LINE_BYTES >> 20} MB (expected the "
                                  f"lines `amunre run --log` writes, each under a few kB)")
            yield number, raw


def _checked(raw: bytes, number: int, where: str, validators: dict) -> dict:
    """One line of a log, parsed and checked against its schema branch."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{where}:{number}: not UTF-8 text (byte 0x{raw[exc.start]:02x}; expected the "
                          f"JSON Lines `amunre run --log` writes)") from None
    if not text.strip():
        raise ReplayError(f"{where}:{number}: an empty line (expected one JSON object on every line)")
    try:
        line = _parse(text)
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
        return line  # what the schema's event branch says, without its cost per line
    if kind == "header" and isinstance(line.get("format"), str) and line["format"] in OLDER_FORMATS:
        raise ReplayError(f"{where}:{number}: format: the log is {line['format']}, {OLDER_FORMATS[line['format']]}; "
                          f"this amunre replays {FORMAT} (replay the log with the amunre version that wrote it, "
                          f"its header's `amunre`)")
    error = jsonschema.exceptions.best_match(validators[kind].iter_errors(line))
    if error is not None:
        at = _where(error.absolute_path) if error.absolute_path else kind
        article = "an" if kind[0] in "aeiou" else "a"
        raise ReplayError(f"{where}:{number}: {at}: {_schema_message(error)} "
                          f"(in {article} {kind} line of schemas/log-line.schema.json)")
    return line


_LAST = ("result", "incomplete")


def _sized_lines(path) -> Iterator[tuple[dict, int]]:
    """(line, its size in bytes) of every line of a log file, in order, each checked (`_checked`)
    and in its place: the header first and only there, events, the result or `incomplete`
    last. `ReplayError` at the first line that is wrong, when it is reached; a log that ends
    without its last line is an error once its end is reached."""
    where = label(path)
    validators = _validators()
    number, previous = 0, None
    for number, raw in _rows(path):
        line = _checked(raw, number, where, validators)
        kind = line["type"]
        if previous in _LAST:
            raise ReplayError(f"{where}:{number - 1}: {excerpt(previous, 40)} before the last line (expected "
                              f"only events between the header and the last line)")
        if number == 1 and kind != "header":
            raise ReplayError(f"{where}:1: expected the header first, as `amunre run --log` writes")
        if number > 1 and kind == "header":
            raise ReplayError(f"{where}:{number}: a second header (expected one, on line 1)")
        previous = kind
        yield line, len(raw) + 1
    if number == 0:
        raise ReplayError(f"{where}: the log is empty (expected the JSON Lines `amunre run --log` writes)")
    if previous not in _LAST:
        raise ReplayError(f"{where}:{number}: expected the result last, as `amunre run --log` writes "
                          f"(is the log cut short?)")


def iter_log(path) -> Iterator[dict]:
    """The lines of a log file one at a time, each checked as `read_log` checks it: the
    memory it takes does not grow with the log's length."""
    return (line for line, _ in _sized_lines(path))


def read_log(path) -> list[dict]:
    """The lines of a log file, each checked against its schema branch; `ReplayError` with
    the file and line number for anything else. (`replay_log` replays a log as it reads it.)"""
    return list(iter_log(path))


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


class _Bad:
    """A line that cannot be read (or the end of a log that ends wrong): the error to report
    once the replay reaches it, unless a line before it differs."""

    def __init__(self, message: str):
        self.message = message


class _Window:
    """The lines of a log as the replay reaches them (1 is the header): read when first
    asked for, forgotten once compared, so what is kept is the few lines between the one
    compared last and the answer a seat looks ahead for, whatever the log's length."""

    def __init__(self, sized: Iterator[tuple[dict, int]]):
        self._sized = sized
        self._kept: dict[int, dict | _Bad] = {}
        self._sizes: dict[int, int] = {}
        self._read = 0
        self._ended = False
        self.start = 1  # the first line kept

    def __getitem__(self, number: int) -> dict | _Bad | None:
        """Line `number`; a `_Bad` where reading failed (nothing after it is read); None
        past the end."""
        while self._read < number and not self._ended:
            try:
                line, size = next(self._sized)
            except StopIteration:
                self._ended = True
                break
            except ReplayError as exc:
                line, size, self._ended = _Bad(str(exc)), 0, True
            self._read += 1
            self._kept[self._read], self._sizes[self._read] = line, size
        return self._kept.get(number)

    def kept_bytes(self) -> int:
        return sum(self._sizes.values())

    def release(self, number: int) -> None:
        """Forget the lines up to `number`: they are compared."""
        while self.start <= number:
            self._kept.pop(self.start, None)
            self._sizes.pop(self.start, None)
            self.start += 1

    def close(self) -> None:
        close = getattr(self._sized, "close", None)
        if close is not None:
            close()  # the file, if the replay stops before its end


def _replay(log: _Window, where: str, variant, verify_agents: bool) -> tuple[Game, list[dict]]:
    """Replay the lines of `log` (see `replay_lines`), comparing each as it comes."""
    head = log[1]
    if head is None:
        raise ReplayError(f"{where}: the log is empty (expected the JSON Lines `amunre run --log` writes)")
    if isinstance(head, _Bad):
        raise ReplayError(head.message)
    variant = _variant_for(head, where, variant)
    _check_header(head, where, variant)
    fresh_head = _header(variant, head["players"], head["seed"], head["agents"])
    fresh_head["variant_file"] = head["variant_file"]  # checked above, or the caller's file is used
    if canonical(head) != canonical(fresh_head):
        raise ReplayError(_difference_message(where, 1, head, fresh_head))
    log.release(1)
    replayer = _Replayer(log, head["agents"] if verify_agents else ["human"] * len(head["agents"]),
                         head["seed"], where)
    comparer = _Comparer(log, where, replayer)
    game, stopped = _play(variant, head, replayer, comparer, where)
    events = [{"type": "event", **e} for e in comparer.events]
    if stopped:
        end = _check_stop(log, where, game, replayer, len(events) + 2)
    else:
        end = _check_result(log, where, game, replayer, len(events) + 2)
    after = log[len(events) + 3]
    if after is not None:  # (a list of lines given by a caller: a file's reader says so itself)
        raise replayer.first(len(events) + 3, after.message if isinstance(after, _Bad) else
                             f"{where}:{len(events) + 2}: {excerpt(end['type'], 40)} before the last line "
                             f"(expected only events between the header and the last line)")
    if replayer.complaint is not None:
        raise ReplayError(replayer.complaint[1])
    return game, [fresh_head] + events + [end]


def _play(variant, head: dict, replayer: "_Replayer", comparer: "_Comparer", where: str) -> tuple[Game, bool]:
    """Play the logged game, every seat answered by the replayer: (the game, whether it
    stopped where an incomplete log ends) once it is over or stopped."""
    game = None
    try:
        game = Game(variant, head["players"], head["seed"], [comparer])
        seats = replayer.seats()
        views = [game.view(p) for p in range(game.n_players)]  # (live views, as `play_on` keeps them)
        while (request := game.pending) is not None:
            game.answer(seats[request.player].choose(views[request.player], request))
    except _EndOfLog:
        if game is None:  # the log stops in the setup, before the game's first decision
            number = len(comparer.events) + 2
            raise replayer.first(number, f"{where}:{number}: the log stops here, before the game's first decision, "
                                         f"the replay goes on with the event {excerpt(comparer.cut.get('event'), 40)} "
                                         f"(expected the events up to the first decision at least, as `amunre run "
                                         f"--log` writes)") from None
        return game, True
    except IllegalAnswerError as exc:  # not expected: the replayer answers with the engine's own options
        raise ReplayError(f"{where}: the replay diverges at decision {replayer.next}: {exc}") from None
    except AmunreError as exc:
        if isinstance(exc, ReplayError):
            raise
        raise ReplayError(f"{where}: the replay stops at decision {replayer.next}: {exc}") from None
    return game, False


def _check_result(log: _Window, where: str, game: Game, replayer: "_Replayer", number: int) -> dict:
    """The result line, which must come at line `number`, where the replay's game ended."""
    last = log[number]
    if isinstance(last, _Bad):
        raise replayer.first(number, last.message)
    if last is None:  # (a list of lines given by a caller)
        raise replayer.first(number, f"{where}:{number - 1}: expected the result last, as `amunre run --log` "
                                     f"writes (is the log cut short?)")
    if last["type"] == "event":
        raise replayer.first(number, f"{where}:{number}: the replay's game ends here, the log goes on with the "
                                     f"event {excerpt(last.get('event'), 40)} and what follows")
    if last["type"] == "incomplete":
        if replayer.complaint is not None:
            raise ReplayError(replayer.complaint[1])
        raise ReplayError(f"{where}:{number}: the log says the game stopped early, but its answers play it to the "
                          f"end (expected the result line)")
    fresh = result(game)
    if canonical(last) != canonical(fresh):
        raise replayer.first(number, _difference_message(where, number, last, fresh))
    return fresh


def _check_stop(log: _Window, where: str, game: Game, replayer: "_Replayer", number: int) -> dict:
    """The `incomplete` line of a stopped game, which must come at line `number`, right
    after the last event the replay matched: every logged event came, every answer was used."""
    last = log[number]
    if isinstance(last, _Bad):
        raise replayer.first(number, last.message)
    if last is None or last["type"] != "incomplete":
        went_on = f"the event {excerpt(last.get('event'), 40)}" if last is not None else "more lines"
        raise replayer.first(number, f"{where}:{number}: the replay stops here (the game is over or waits for an "
                                     f"answer the log does not hold), the log goes on with {went_on} and what "
                                     f"follows")
    if replayer.complaint is not None:
        raise ReplayError(replayer.complaint[1])
    if game.state.finished:
        raise ReplayError(f"{where}:{number}: the log says the game stopped early, but its answers play it to the "
                          f"end (expected the result line)")
    end = {"type": "incomplete", "decisions": len(game.answers), "reason": last["reason"]}
    if canonical(last) != canonical(end):
        raise ReplayError(_difference_message(where, number, last, end))
    return end


class _Replayer:
    """Answers every seat from the log: a `human` seat's answer as logged (if legal), a
    bot seat's as its bot answers, which must be what the log holds.

    A seat's answer is the next answer line of the log, looked for from the line after the
    last one used: a few lines ahead of the line compared last in a secret batch (every
    seat is asked before the answers are revealed), and never more than `MAX_AHEAD` lines
    (or `MAX_AHEAD_BYTES`) ahead, so that a log without answers is not read whole.

    A wrong answer is kept as a complaint, and the game goes on with a stand-in (the bot's
    answer, or the first legal option): the lines are compared as they come, so whichever
    comes first, the complaint's line or a line that differs before it, is the one reported
    (an answer line whose `event` was edited hides it from the answers, and the next answer
    then looks wrong, but the edited line comes first)."""

    def __init__(self, log: _Window, agents: list[str], seed: int, where: str):
        from amunre.agents import make_agents

        self.where = where
        self.log = log
        self.cursor = 2  # where the next answer is looked for
        self.bots = [None if name == "human" else bot for name, bot in zip(agents, make_agents(agents, seed))]
        self.agents = agents
        self.next = 0  # answers given so far
        self.complaint: tuple[int, str] | None = None

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

    def _answer_line(self, request) -> tuple[int, dict] | None:
        """(number, line) of the next answer in the log; None, after a complaint, when there
        is none to use; `_EndOfLog` where an incomplete log stops."""
        number = max(self.cursor, self.log.start)
        asked = f"decision {self.next + 1} ({excerpt(request.kind)} for player {request.player})"
        while True:
            line = self.log[number]
            if isinstance(line, _Bad):
                self.complain(number, line.message)
                return None
            if line is None or line["type"] == "result":
                self.complain(number, f"{self.where}:{number}: the log has no answer for {asked}, the replay asks "
                                      f"for one")
                return None
            if line["type"] == "incomplete":
                raise _EndOfLog()  # the game stopped here
            if line.get("event") == "answer":
                self.cursor = number + 1
                return number, line
            number += 1
            if number - self.log.start > MAX_AHEAD or self.log.kept_bytes() > MAX_AHEAD_BYTES:
                self.complain(number, f"{self.where}:{number}: no answer for {asked} in the {MAX_AHEAD} lines after "
                                      f"line {self.log.start - 1} (expected each answer within a few lines of its "
                                      f"decision, as `amunre run --log` writes)")
                return None

    def choose(self, view, request):
        bot = self.bots[request.player]
        mine = bot.choose(view, request) if bot is not None else None
        stand_in = mine if bot is not None else request.options[0]
        found = self._answer_line(request)
        self.next += 1
        if found is None:
            return stand_in
        number, line = found
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
    """Listener that compares each event, as it happens, with the logged line it must be,
    and lets the log forget the lines compared."""

    def __init__(self, log: _Window, where: str, replayer: _Replayer):
        self.log = log
        self.where = where
        self.replayer = replayer
        self.events: list[dict] = []  # the replay's own: as many as the game has, whatever the log holds
        self.cut: dict | None = None  # the event an incomplete log stops before

    def __call__(self, event: dict) -> None:
        number = len(self.events) + 2  # the header is line 1
        fresh = {"type": "event", **event}
        logged = self.log[number]
        if isinstance(logged, _Bad):
            raise self.replayer.first(number, logged.message)
        if logged is None:  # (a list of lines given by a caller)
            raise self.replayer.first(number, f"{self.where}:{number - 1}: expected the result last, as `amunre "
                                              f"run --log` writes (is the log cut short?)")
        if logged["type"] == "incomplete":
            self.cut = event  # the game stopped before this event
            raise _EndOfLog()
        if logged["type"] != "event":
            raise self.replayer.first(number, f"{self.where}:{number}: the log ends here, the replay goes on with "
                                              f"the event {excerpt(fresh.get('event'), 40)}")
        if canonical(logged) != canonical(fresh):
            raise self.replayer.first(number, _difference_message(self.where, number, logged, fresh))
        self.events.append(event)
        self.log.release(number)


def replay_lines(lines: list[dict], source: str = "log", variant=None,
                 verify_agents: bool = True) -> tuple[Game, list[dict]]:
    """Re-run a logged game (lines as `read_log` returns them); `ReplayError` at the first
    line that differs. `variant` is what the caller gives to play with (a Variant, a shipped
    id or a path: `amunre replay --variant`); without it only a shipped variant replays.
    `verify_agents=False` takes every seat's answers from the log, as a human seat's (for a
    harness that checks the bots' determinism itself). Returns the replayed game and its
    lines, header included."""
    return _replay(_Window((line, 0) for line in lines), label(source), variant, verify_agents)


def replay_log(path, variant=None, verify_agents: bool = True) -> tuple[Game, list[dict]]:
    """`replay_lines` of a log file, read line by line as the replay goes: it stops at the
    first line that differs (or cannot be read), having read only up to it, and the memory
    it takes does not grow with the log's length. Returns the game and the replay's lines,
    which are the log's (compared equal as canonical JSON)."""
    log = _Window(_sized_lines(path))
    try:
        return _replay(log, label(path), variant, verify_agents)
    finally:
        log.close()
