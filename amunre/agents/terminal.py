"""Where the human seat talks: stderr, the terminal's side channel, so that stdout stays the
command's own output (the final table, or one JSON document with `--json`); answers come
from stdin. On a terminal each seat's name has its colour (rich), and a line longer than the
terminal is wrapped between words, its continuation indented under it; piped, the text is
plain and each line whole.

When stdin is not a terminal (answers piped in), nothing echoes the answer read: the seat
writes it after the prompt itself, which ends the prompt line, so the next line never runs
on after "choice [...]: ".

`amunre run` writes the play-by-play of a game with a person at the table through the same
`Terminal` (`amunre.cli.run`), so that it reaches the screen in order with the questions
however stdout and stderr are redirected.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.text import Text

from amunre.core.words import literal

#: An answer echoed after the prompt (stdin not a terminal) is cut to this many characters.
ECHOED = 40


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):  # no isatty, or a closed stream
        return False


def wrapped(text: Text, width: int) -> list[Text]:
    """`text` (one line) cut between words into lines of at most `width` characters, with
    their styles; each continuation indented 4 more than the line's own indent (a word
    longer than a line is cut where the line ends)."""
    plain = text.plain
    if width < 20 or len(plain) <= width:
        return [text]
    lead = len(plain) - len(plain.lstrip(" "))
    hang = lead + 4 if lead + 4 <= width // 2 else min(lead, width // 2)
    cuts: list[tuple[int, int]] = []
    start, room = 0, width
    while len(plain) - start > room:
        end = plain.rfind(" ", start + 1, start + room + 1)
        if end <= start or not plain[start:end].strip():
            end = start + room  # one word fills the line: cut it
        cuts.append((start, end))
        start = end
        while start < len(plain) and plain[start] == " ":
            start += 1
        room = width - hang
    if start < len(plain):
        cuts.append((start, len(plain)))
    lines = []
    for n, (a, b) in enumerate(cuts):
        piece = text[a:b]
        piece.rstrip()
        lines.append(piece if n == 0 else Text(" " * hang) + piece)
    return lines


class Terminal:
    """Lines out on stderr, answers in from stdin. `wrap`: wrap long lines to the width
    (default: when the output is a terminal); `echo`: write each answer read after its
    prompt (default: when stdin is not a terminal); `width`: the terminal's, by default as
    rich finds it."""

    def __init__(self, err=None, stdin=None, wrap: bool | None = None, echo: bool | None = None,
                 width: int | None = None):
        self._err = err
        self._stdin = stdin
        self._wrap = wrap
        self._echo = echo
        self._width = width
        self._console = None

    @property
    def console(self) -> Console:
        if self._console is None:
            # nothing a file holds is read as markup or emoji codes; colour only on a terminal
            self._console = Console(file=self._err or sys.stderr, highlight=False, markup=False, emoji=False,
                                    soft_wrap=True, width=self._width)
        return self._console

    @property
    def width(self) -> int:
        return self.console.width

    @property
    def wraps(self) -> bool:
        return self.console.is_terminal if self._wrap is None else self._wrap

    def show(self, lines) -> None:
        sys.stdout.flush()  # whatever the command wrote on stdout so far comes first
        width = self.width if self.wraps else 0
        for text in lines:
            text = text if isinstance(text, Text) else Text(str(text))
            for one in (text.split("\n", allow_blank=True) if "\n" in text.plain else (text,)):
                for piece in wrapped(one, width) if width else (one,):
                    self.console.print(piece)

    def clear(self) -> None:
        """Clear the screen and its scrollback, where the output is a terminal (when it is not,
        a line of dashes marks the place, as nothing can be taken back from a file)."""
        sys.stdout.flush()
        if self.console.is_terminal:
            # the screen first, then the scrollback: cleared the other way round, a terminal
            # that keeps what a clear removes (tmux) would keep it in the scrollback
            self.console.file.write("\x1b[H\x1b[2J\x1b[3J")
            self.console.file.flush()
        else:
            self.console.print(Text("-" * 40))

    def read(self, prompt: str) -> str | None:
        """One line typed after `prompt`, without its line end; None at the end of input (or
        with no input at all: stdin closed)."""
        self.console.print(Text(prompt), end="")
        self.console.file.flush()
        stdin = self._stdin if self._stdin is not None else sys.stdin
        if stdin is None:  # started with stdin closed (`<&-`)
            return None
        try:
            typed = stdin.readline()
        except (OSError, ValueError):  # a closed or unreadable stdin
            return None
        if not typed:
            return None
        typed = typed.rstrip("\r\n")
        if self._echo if self._echo is not None else not _is_terminal(stdin):
            # nobody's Enter ended the prompt line: end it, with the answer as it was read
            shown = typed if len(typed) <= ECHOED else typed[:ECHOED - 3] + "..."
            self.console.print(Text(literal(shown)))
        return typed
