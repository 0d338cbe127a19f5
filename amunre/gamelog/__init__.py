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

The package: `amunre.gamelog.lines` (the format, its limits, a line's canonical text),
`messages` (how a problem is said), `write`, `read` (strict reading) and `replay`; the names
below are its API.
"""

from __future__ import annotations

from amunre.gamelog.lines import (
    EXCERPT,
    FORMAT,
    MAX_AHEAD,
    MAX_AHEAD_BYTES,
    MAX_DEPTH,
    MAX_LINE_BYTES,
    MAX_LOG_BYTES,
    OLDER_FORMATS,
    canonical,
)
from amunre.gamelog.messages import excerpt, first_difference, label, shown_path
from amunre.gamelog.read import _validators, iter_log, plain_event, read_log
from amunre.gamelog.replay import replay_lines, replay_log
from amunre.gamelog.write import (
    Recorder,
    dumps_lines,
    header,
    incomplete_lines,
    log_lines,
    new_file_mode,
    result,
    spec_text,
    variant_file_of,
    write_atomically,
    write_log,
)

__all__ = [
    "FORMAT",
    "OLDER_FORMATS",
    "MAX_DEPTH",
    "MAX_LOG_BYTES",
    "MAX_LINE_BYTES",
    "MAX_AHEAD",
    "MAX_AHEAD_BYTES",
    "EXCERPT",
    "canonical",
    "excerpt",
    "label",
    "shown_path",
    "first_difference",
    "Recorder",
    "variant_file_of",
    "spec_text",
    "header",
    "result",
    "log_lines",
    "incomplete_lines",
    "dumps_lines",
    "new_file_mode",
    "write_atomically",
    "write_log",
    "plain_event",
    "iter_log",
    "read_log",
    "_validators",
    "replay_lines",
    "replay_log",
]
