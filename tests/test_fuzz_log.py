"""Whatever a log file holds, `replay` reports OK only for the game it logged, or raises
`ReplayError` with a short message: never another exception, never a hang.

A real `amunre run --log` file (a short seeded game) is mutated: lines dropped, duplicated
or swapped, a value changed to another JSON type (`false` for `0`, `20.0` for `20`), huge and
negative numbers, keys added, dropped or renamed, the file cut short, random or invalid UTF-8
bytes, arrays nested thousands deep, control characters, long strings. The oracle: replay
says OK only when the mutated file parses to the same JSON, types included, as the logged
one (the edits `amunre.gamelog` documents as meaningless: whitespace, key order, string
escapes); the one documented exception is a bot seat renamed `human` in the header. Each log
is replayed both ways, read whole (`read_log`, `replay_lines`) and read as it is replayed
(`replay_log`, what `amunre replay` runs), which must agree. Header values respelled to
read alike are refused at line 1; a mutated log followed by 64 MB (a sparse hole) is
refused having read no further than the line it names and a bounded look-ahead; a log path
that is a pipe, a device, a folder or a file over 256 MB is refused without a read.

The `ci` profile runs a few dozen examples in seconds; the deep run (`AMUNRE_DEEP=1`) runs 10,000
of the main fuzz.
"""

from __future__ import annotations

import atexit
import builtins
import json
import math
import os
import random
import re
import shutil
import tempfile
import unicodedata
from pathlib import Path

import conftest
import jsonschema
from click.testing import CliRunner
from helpers import time_limit, toml_paths
from hypothesis import assume, event, example, given, settings
from hypothesis import strategies as st

from amunre.cli import cli
from amunre.core.errors import ReplayError
from amunre.gamelog import (
    MAX_AHEAD_BYTES,
    MAX_LINE_BYTES,
    MAX_LOG_BYTES,
    _validators,
    canonical,
    plain_event,
    read_log,
    replay_lines,
    replay_log,
)

DEEP = conftest.DEEP  # AMUNRE_DEEP=1 (or the deep hypothesis profile named outright)
FUZZ = settings(max_examples=10_000 if DEEP else 25)
SMALL = settings(max_examples=1_000 if DEEP else 15)

#: Longest message replay may give (a log line may be megabytes long).
MAX_MESSAGE = 500

FOLDER = Path(tempfile.mkdtemp(prefix="amunre-fuzz-log-"))
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)


def _real_log() -> bytes:
    """The log of a short seeded game, written by `amunre run --log`."""
    path = FOLDER / "real.jsonl"
    result = CliRunner().invoke(cli, ["run", "--variant", "classic2003", "--players", "3", "--seed", "1",
                                      "--agents", "random,random,random", "--log", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    return path.read_bytes()


ORIGINAL = _real_log()
LINES = ORIGINAL.decode("utf-8").splitlines()


def _outcome(replay) -> str:
    """"ok", or the ReplayError's message (checked short and on one line)."""
    try:
        replay()
    except ReplayError as exc:
        message = str(exc)
        assert message and len(message) < MAX_MESSAGE, message[:2000]
        assert "\n" not in message and "\x1b" not in message
        return message
    return "ok"


def _replay_read_whole(path) -> None:
    lines = read_log(path)
    for line in lines:  # what read_log accepts fits the schema (its fast path included)
        assert _validators()[line["type"]].is_valid(line), line
    replay_lines(lines, str(path))


def replay_bytes(data: bytes, name: str = "fuzz.jsonl"):
    """Replay `data` as a log file: "ok", or the ReplayError's message (checked short).
    Replayed both ways, read whole first (`read_log`, `replay_lines`) and read as it is
    replayed (`replay_log`, what `amunre replay` does): both say OK or both refuse (not
    always at the same line: read whole, a line that cannot be read is found first)."""
    path = FOLDER / name
    path.write_bytes(data)
    with time_limit(30):
        whole = _outcome(lambda: _replay_read_whole(path))
        streamed = _outcome(lambda: replay_log(path))
    assert (whole == "ok") == (streamed == "ok"), (whole, streamed)
    return streamed


def parsed(data: bytes):
    """The JSON values of a log's lines, each as canonical text; None if it does not parse
    (what "the same log" means: equal here, types included)."""
    try:
        rows = data.decode("utf-8").split("\n")
        rows = rows[:-1] if rows and rows[-1] == "" else rows
        values = [json.loads(row) for row in rows]
        return [canonical(v) for v in values]
    except (UnicodeDecodeError, ValueError, RecursionError, TypeError):
        return None


def same_game(data: bytes) -> bool:
    """Whether a replay that says OK is right to: the same parsed lines, but for a bot seat
    renamed `human` in the header (a human's answers cannot be checked: documented)."""
    mine, theirs = parsed(data), parsed(ORIGINAL)
    if mine is None or len(mine) != len(theirs):
        return False
    if mine[1:] != theirs[1:]:
        return False
    head, logged = json.loads(mine[0]), json.loads(theirs[0])
    if isinstance(head, dict) and isinstance(head.get("agents"), list):
        head["agents"] = [a if a != "human" else b
                          for a, b in zip(head["agents"], logged["agents"])] + head["agents"][len(logged["agents"]):]
    return canonical(head) == canonical(logged)


# -- mutations ---------------------------------------------------------------------------

def twins(value):
    """Values that read like `value` but are not it: other JSON types of the same number or
    text, one more, one less."""
    out = []
    if isinstance(value, bool):
        out += [int(value), float(value), str(value).lower(), not value]
    elif isinstance(value, int):
        out += [float(value), value + 1, value - 1, -value - 1, str(value), [value]]
        if value in (0, 1):
            out.append(bool(value))
    elif isinstance(value, float):
        out += [int(value) if math.isfinite(value) else 0, value + 0.5]
    elif isinstance(value, str):
        out += [value + " ", value.upper(), "", [value], {value: 1}]
        out += [name for name in ("random", "greedy") if value in ("random", "greedy", "human") and name != value]
    elif isinstance(value, list):
        out += [value + value[:1], value[:-1], list(reversed(value)), {"0": value}, None]
    elif isinstance(value, dict):
        out += [dict(list(value.items())[:-1]), list(value.values()), {**value, "x": 1}]
    else:
        out += [0, False, "", [], {}]
    return out


ODD = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70),
    st.sampled_from([2**63, 2**63 - 1, -2**63, 10**30, -1, 0, 1, 10**400]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
    st.sampled_from(["x" * 100_000, "\x1b[2J", "human", "greedy", "random", "classic2003", "/etc/passwd",
                     "[bold red]x[/]", "\u202e", "\ud800"]),
    st.lists(st.integers(), max_size=4), st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def at(value, path):
    for key in path:
        value = value[key]
    return value


@st.composite
def edited_value(draw, lines):
    """One line with a value changed (to another type, a twin, something odd), or a key
    added, dropped or renamed."""
    # the header, the result and the answers are where an edit matters most: drawn more often
    answers = [i for i, row in enumerate(lines) if '"event":"answer"' in row] or [0]
    index = draw(st.one_of(st.integers(0, len(lines) - 1), st.sampled_from([0, len(lines) - 1]),
                           st.sampled_from(answers)))
    try:
        line = json.loads(lines[index])
    except (ValueError, RecursionError):
        line = None  # an earlier mutation broke it
    paths = list(toml_paths(line)) if isinstance(line, (dict, list)) else []
    if not paths:
        return index, lines[index]
    path = draw(st.sampled_from(paths))
    parent, key = at(line, path[:-1]), path[-1]
    kind = draw(st.sampled_from(["twin", "twin", "odd", "drop", "rename", "add"]))
    if kind == "twin":
        parent[key] = draw(st.sampled_from(twins(parent[key])))
    elif kind == "odd":
        parent[key] = draw(ODD)
    elif kind == "drop":
        del parent[key]
    elif kind == "rename" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["x", key + "s", key.upper(), "type", "event", "answer"]))] = parent.pop(key)
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=8))] = draw(ODD)
    else:
        parent.insert(key, draw(ODD))
    text = json.dumps(line, separators=(",", ":"), sort_keys=draw(st.booleans()),
                      ensure_ascii=draw(st.booleans()))
    return index, text


def encoded(text: str) -> bytes:
    """Text as file bytes: junk bytes (surrogate escapes) back as they were, a lone
    surrogate as the invalid UTF-8 an editor may write."""
    try:
        return text.encode("utf-8", errors="surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", errors="surrogatepass")


@st.composite
def mutated_log(draw):
    """The real log with one to three mutations, as bytes."""
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "value", "value", "drop", "duplicate", "swap", "deep", "control",
                                     "long", "cut_line", "bytes"]))
        if kind == "value":
            index, text = draw(edited_value(lines))
            lines[index] = text
        elif kind == "drop":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(draw(st.integers(0, len(lines))), lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "deep":
            depth = draw(st.sampled_from([33, 100, 999, 3000, 100_000]))
            cut = draw(st.integers(0, len(lines[i])))
            closed = draw(st.booleans())
            lines[i] = lines[i][:cut] + "[" * depth + ("]" * depth if closed else "") + lines[i][cut:]
        elif kind == "control":
            cut = draw(st.integers(0, len(lines[i])))
            char = draw(st.sampled_from(["\x1b", "\x00", "\x07", "\x9b", "\r", "\x7f", "\u2028", "\t", "\x0b"]))
            lines[i] = lines[i][:cut] + char + lines[i][cut:]
        elif kind == "long":
            lines.insert(i, json.dumps({"type": "event", "event": "x" * draw(st.sampled_from([10, 5_000_000]))}))
        elif kind == "cut_line":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        else:
            cut = draw(st.integers(0, len(lines[i])))
            junk = draw(st.binary(min_size=1, max_size=12)).decode("utf-8", errors="surrogateescape")
            lines[i] = lines[i][:cut] + junk + lines[i][cut:]
    data = encoded("\n".join(lines)) + b"\n" * draw(st.integers(0, 2))
    if draw(st.integers(0, 7)) == 3:  # (not an end of the range: hypothesis draws those often)
        data = data[:draw(st.integers(0, len(data)))]  # the file cut short anywhere
    return data


def _edited(index: int, edit) -> bytes:
    """The real log with one line's parsed value edited in place."""
    lines = [json.loads(row) for row in LINES]
    edit(lines[index if index >= 0 else len(lines) + index])
    return encoded("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))


_FIRST_ANSWER = next(i for i, row in enumerate(LINES) if '"event":"answer"' in row)


def _has_zero(row: str) -> bool:
    answer = json.loads(row).get("answer")
    values = answer if isinstance(answer, list) else [answer]
    return any(v == 0 and v is not False for v in values)


#: The first answer holding a 0 (whichever it is in the game the seed gives)
_ANSWER_WITH_ZERO = next(i for i, row in enumerate(LINES) if '"event":"answer"' in row and _has_zero(row))


def _false_for_zero(line):
    line["answer"] = [False if v == 0 and v is not False else v for v in line["answer"]] \
        if isinstance(line["answer"], list) else False


#: Tampered logs that replay once accepted (each found by hand), always among the examples (the
#: `ci` profile draws few).
FOUND = [
    _edited(_ANSWER_WITH_ZERO, _false_for_zero),  # false for 0
    _edited(1, lambda e: e.update(gold=float(e["gold"]))),  # 20.0 for 20
    _edited(0, lambda h: h["agents"].__setitem__(0, "greedy")),  # agents copied, never verified
    _edited(0, lambda h: h.update(players=3.0)),  # a float player count
    _edited(0, lambda h: h.update(variant_file="/proc/self/environ")),  # a file outside the variant
    _edited(-1, lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1)),  # a score changed
    _edited(_FIRST_ANSWER, lambda a: a.update(answer=[[1], 0, []])),  # unhashable where a number belongs
    _edited(2, lambda e: e.update(name="x" * 5_000_000)),  # a mismatch echoing whole lines
    ORIGINAL.replace(b"\n", b"\n" + b"[" * 100_000 + b"\n", 1),  # deep nesting
    ORIGINAL.replace(b'"Old Kingdom"', b'"Old \xff Kingdom"'),  # bad UTF-8
]


@FUZZ
@given(mutated_log())
@example(FOUND[0]).via("a tampered log once accepted")
@example(FOUND[1]).via("a tampered log once accepted")
@example(FOUND[2]).via("a tampered log once accepted")
@example(FOUND[3]).via("a tampered log once accepted")
@example(FOUND[4]).via("a tampered log once accepted")
@example(FOUND[5]).via("a tampered log once accepted")
@example(FOUND[6]).via("a tampered log once accepted")
@example(FOUND[7]).via("a tampered log once accepted")
@example(FOUND[8]).via("a tampered log once accepted")
@example(FOUND[9]).via("a tampered log once accepted")
def test_a_mutated_log_replays_only_when_unchanged(data):
    outcome = replay_bytes(data)
    event(kind_of(outcome))  # shown by --hypothesis-show-statistics
    if outcome == "ok":
        assert same_game(data), "replay OK for a log whose content changed"


KINDS = [("the line differs on replay", "a line differs on replay"), ("a bot's answers", "a bot's answer differs"),
         ("not a legal answer", "an illegal answer"), ("not UTF-8", "not UTF-8"), ("not a JSON line", "not JSON"),
         ("nesting too deep", "nesting too deep"), ("schemas/log-line", "the schema refuses a line"),
         ("not a log line", "not a log line"), ("an empty line", "an empty line"), ("appears twice", "a key twice"),
         ("variant", "the variant"), ("agent", "the agents"), ("the log ends", "the log ends early"),
         ("game ends here", "the log goes on"), ("result last", "no result last"), ("header", "the header"),
         ("the log is empty", "an empty file"), ("written by amunre", "another version")]
#: (first: their messages name the header or the variant too)
KINDS[:0] = [("a line longer than", "a line too long"), ("before the last line", "a line after the last"),
             ("the log stops here", "the log stops before a decision"), ("no answer for", "an answer missing")]


def kind_of(outcome: str) -> str:
    """What a replay said, in a few words (for the statistics)."""
    if outcome == "ok":
        return "replay OK (the same log)"
    return "refused: " + next((kind for text, kind in KINDS if text in outcome), "other")


@SMALL
@given(st.data())
def test_a_changed_value_of_any_line_is_reported_at_that_line(data):
    index, text = data.draw(edited_value(LINES))
    lines = list(LINES)
    lines[index] = text
    mutated = encoded("\n".join(lines) + "\n")
    outcome = replay_bytes(mutated)
    if outcome == "ok":
        assert same_game(mutated)
    elif index > 0:  # (a header change may show later: a bot's answer, the setup event)
        assert f"fuzz.jsonl:{index + 1}: " in outcome, outcome


@SMALL
@given(st.integers(0, 2**32))
def test_meaningless_edits_replay_ok(seed):
    """Whitespace between tokens, key order, string escapes, CRLF, no final newline: the same
    parsed log, so replay says OK."""
    rng = random.Random(seed)
    out = []
    for row in LINES:
        value = json.loads(row)
        if rng.random() < 0.5:
            value = dict(reversed(list(value.items())))
        sep = rng.choice([(",", ":"), (", ", ": "), (" ,", " : ")])
        text = json.dumps(value, separators=sep, ensure_ascii=rng.random() < 0.5)
        if rng.random() < 0.1:
            text = text.replace('"type"', '"\\u0074ype"')  # the same key, escaped
        out.append(" " * rng.randint(0, 2) + text + rng.choice(["", "\r", " \t"]))
    mutated = ("\n".join(out) + rng.choice(["", "\n"])).encode("utf-8")
    assert replay_bytes(mutated) == "ok"


@SMALL
@given(st.dictionaries(st.sampled_from(["type", "event", "player", "kind", "options", "answer", "x"]),
                       st.one_of(st.sampled_from(["event", "answer", "decision", "", "bid", True, 0, 1, -1, 1.0]),
                                 ODD), max_size=7))
def test_the_fast_event_check_agrees_with_the_schema(line):
    line["type"] = "event"
    assert plain_event(line) == _validators()["event"].is_valid(line)


#: Characters an edit may add to a header's text: spaces of every kind (the agents' own
#: reading strips them), invisible ones, a combining accent.
BLANKS = [" ", "\t", "\r", "\x0b", "\x0c", "\x85", "\u00a0", "\u2003", "\u3000", "\u200b", "\ufeff", "\u0301",
          "\x00", "\x1b"]


def respelled(draw, text: str) -> str:
    """`text` spelled another way that reads alike: padded or cut by blanks, another case,
    full-width or look-alike letters, normalized otherwise."""
    kind = draw(st.sampled_from(["pad", "pad", "inside", "case", "wide", "cyrillic", "nfkd", "doubled"]))
    if kind == "pad":
        left = draw(st.text(st.sampled_from(BLANKS), max_size=3))
        return left + text + draw(st.text(st.sampled_from(BLANKS), min_size=0 if left else 1, max_size=3))
    if kind == "inside":
        cut = draw(st.integers(0, len(text)))
        return text[:cut] + draw(st.sampled_from(BLANKS)) + text[cut:]
    if kind == "case":
        return draw(st.sampled_from([text.upper(), text.title(), text.swapcase(), text.capitalize()]))
    if kind == "wide":  # full-width forms, which NFKC folds back
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)
    if kind == "cyrillic":
        return text.translate(str.maketrans("aeopcx", "\u0430\u0435\u043e\u0440\u0441\u0445"))
    if kind == "nfkd":
        return unicodedata.normalize("NFKD", text.replace("a", "\u00e1"))
    return text + text[-1:]


@FUZZ
@given(st.data())
def test_any_edit_of_the_header_is_refused_at_line_1(data):
    """A header's text edited to read alike (blanks around or inside, case, full-width or
    Cyrillic letters), in any value or key, is refused at line 1: no edit of the header
    replays, and none is taken for what it resembles."""
    head = json.loads(LINES[0])
    key = data.draw(st.sampled_from(["agents", "agents", "agents", "variant", "amunre", "format", "variant_file",
                                     "type", "(a key)"]))
    if key == "agents":
        seat = data.draw(st.integers(0, len(head["agents"]) - 1))
        head["agents"][seat] = respelled(data.draw, head["agents"][seat])
    elif key == "(a key)":
        old = data.draw(st.sampled_from(sorted(head)))
        head[respelled(data.draw, old)] = head.pop(old)
    else:
        head[key] = respelled(data.draw, head[key])
    text = json.dumps(head, ensure_ascii=data.draw(st.booleans()), separators=(",", ":"))
    assume(parsed(text.encode("utf-8", "surrogatepass")) != parsed(LINES[0].encode()))  # (a case change of digits)
    outcome = replay_bytes(encoded("\n".join([text] + LINES[1:]) + "\n"))
    event(key)
    assert outcome != "ok", text
    assert outcome.startswith(f"{FOLDER / 'fuzz.jsonl'}:1: "), outcome


class counting_reads:
    """Within it, the bytes read from `path` (however they are read) are counted."""

    def __init__(self, path: Path):
        self.path, self.read = str(path), 0

    def __enter__(self):
        real, counter = builtins.open, self
        self._real = real

        def counting_open(file, *args, **kwargs):
            opened = real(file, *args, **kwargs)
            if str(file) != counter.path:
                return opened
            readline, read = opened.readline, opened.read

            def counted_readline(*a):
                data = readline(*a)
                counter.read += len(data)
                return data

            def counted_read(*a):
                data = read(*a)
                counter.read += len(data)
                return data

            opened.readline, opened.read = counted_readline, counted_read
            return opened

        builtins.open = counting_open
        return self

    def __exit__(self, *exc):
        builtins.open = self._real


#: A tail after a log, never written (a hole): longer than replay may read past the line it
#: reports (a line at most, and its look-ahead), shorter than the largest log.
TAIL = 64 * 2**20


@FUZZ
@given(mutated_log())
def test_replay_reads_a_log_only_up_to_the_line_it_reports(data):
    """A mutated log with 64 MB after it (a sparse hole): replay refuses it, having read
    no further than a line and its look-ahead past the line it names, and never the
    tail whole (it read and parsed a whole log first, whatever its first difference)."""
    path = FOLDER / "tailed.jsonl"
    with open(path, "wb") as file:
        file.write(data)
        file.truncate(len(data) + TAIL)
    with time_limit(30), counting_reads(path) as counted:
        outcome = _outcome(lambda: replay_log(path))
    assert outcome != "ok"
    event(kind_of(outcome))
    found = re.match(re.escape(str(path)) + r":(\d+): ", outcome)
    if found is None:  # a decision that cannot be replayed: no line to name
        event("refused without a line number")
        assert counted.read <= len(data) + MAX_LINE_BYTES + MAX_AHEAD_BYTES, counted.read
        return
    number = int(found.group(1))
    ends = [i + 1 for i, byte in enumerate(data) if byte == 10]  # where each line ends
    end = ends[number - 1] if number <= len(ends) else len(data)
    assert counted.read <= end + MAX_LINE_BYTES + MAX_AHEAD_BYTES + 2**17, (outcome, counted.read, end)


@FUZZ
@given(kind=st.one_of(st.integers(MAX_LOG_BYTES + 1, 2**36), st.sampled_from(["fifo", "directory", "device"])))
def test_a_log_path_that_is_no_file_of_a_sane_size_is_refused_without_reading_it(kind):
    """A pipe (opening it would wait for a writer), a device, a folder or a (sparse) file
    over 256 MB: one line naming the file, at once, nothing read."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        if isinstance(kind, int):
            with open(path, "wb") as file:
                file.truncate(kind)
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "directory":
            path.mkdir()
        else:
            path.symlink_to("/dev/zero")
        with time_limit(20), counting_reads(path) as counted:
            outcome = _outcome(lambda: replay_log(path))
    expected = "larger than 256 MB" if isinstance(kind, int) else "not a regular file"
    assert outcome.startswith(f"cannot read log LOG_FILE '{path}': {expected}"), outcome
    assert counted.read == 0


def test_the_unchanged_log_replays_ok():
    assert replay_bytes(ORIGINAL) == "ok"


def test_each_tampered_log_once_accepted_is_refused():
    for data in FOUND:
        assert replay_bytes(data) != "ok"


@SMALL
@given(mutated_log())
def test_replay_of_a_mutated_log_on_the_command_line(data):
    """`amunre replay`: exit 0 and "replay OK" only for the same game; else exit 2, one
    `error: FILE:LINE: ...` line, no traceback."""
    path = FOLDER / "cli.jsonl"
    path.write_bytes(data)
    with time_limit(30):
        result = CliRunner().invoke(cli, ["replay", str(path)])
    if result.exit_code == 0:
        assert result.output.startswith("replay OK") and same_game(data)
    else:
        assert result.exit_code == 2, result.output
        assert result.output.startswith(f"error: {path}:") and result.output.count("\n") == 1, result.output[:600]
        assert "Traceback" not in result.output and len(result.output) < MAX_MESSAGE + 10


def test_the_log_follows_the_schema_strictly():
    validators = _validators()
    for row in LINES:
        line = json.loads(row)
        validators[line["type"]].validate(line)
    with_float = json.loads(LINES[0]) | {"players": 3.0}
    assert not validators["header"].is_valid(with_float)  # JSON Schema alone would take 3.0
    assert jsonschema.Draft202012Validator({"type": "integer"}).is_valid(3.0)
