"""Where the human seat talks: stderr, the terminal's side channel, so that stdout stays the
command's own output (the play-by-play, or one JSON document with `--json`); answers come
from stdin. On a terminal each seat's name has its colour (rich); piped, the text is plain.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.text import Text


class Terminal:
    """Lines out on stderr, answers in from stdin."""

    def __init__(self, err=None, stdin=None):
        self._err = err
        self._stdin = stdin
        self._console = None

    @property
    def console(self) -> Console:
        if self._console is None:
            # nothing a file holds is read as markup or emoji codes; colour only on a terminal
            self._console = Console(file=self._err or sys.stderr, highlight=False, markup=False, emoji=False,
                                    soft_wrap=True)
        return self._console

    @property
    def width(self) -> int:
        return self.console.width

    def show(self, lines) -> None:
        sys.stdout.flush()  # the play-by-play so far comes first
        for text in lines:
            self.console.print(text if isinstance(text, Text) else Text(str(text)))

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
        return typed.rstrip("\r\n")
