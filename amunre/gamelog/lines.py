"""What a game log is as data: its format's id, the formats no longer replayed, the limits
a log and its lines are read within, and a line's canonical text (what replay compares)."""

from __future__ import annotations

import json

FORMAT = "amunre-log/2"
#: Formats this version no longer replays, and why: the same seed plays another game now.
OLDER_FORMATS = {
    "amunre-log/1": "written by amunre 0.3 and earlier, whose games drew every chance from one random "
                    "generator; since 0.4 each source of chance has its own named stream (amunre.core.streams)",
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


def canonical(line) -> str:
    """One line as canonical JSON text: sorted keys, no spaces, ASCII only. Two lines are
    the same exactly when their canonical texts are (types included: `1` is not `true`)."""
    return json.dumps(line, separators=(",", ":"), sort_keys=True, allow_nan=False)
