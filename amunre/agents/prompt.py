"""The human seat's prompt loop: read until the player names an option.

A number picks an option, written with the digits 0-9 only (`1_0`, `１`, `+1` or `1.0` are
not numbers here, though Python would read some of them). `?` shows the help, `v` the whole
board, and the seat's own keys (`p` the coming scoring, `c` its cards' texts); anything else
(letters, a number out of range, an empty line) is asked again with a
one-line hint. `q` or the end of input leaves the table: the game stops there with a
message, by raising `LeftTheTable` (a `click.Abort`, which `amunre run` ends cleanly, with
exit code `LeftTheTable.exit_code`, 4).
"""

from __future__ import annotations

import click

HELP = (
    "Type the number of an option and press Enter (digits 0-9 only).",
    "  ?   this help",
    "  v   the whole board again: every player, the provinces, the supplies; then this decision's facts",
    "  q   leave the table: the game stops here (the end of input, Ctrl-D, does the same)",
)


#: What leaves the table, at a decision and at a `--pause` prompt.
QUIT = ("q", "quit", "exit")


class LeftTheTable(click.Abort):
    """The human player quit (`q`) or his input ended: the game stops, without a traceback,
    and `amunre run` exits with `exit_code` after the message saying so (not 1: nothing
    failed; not 3: no bug)."""

    exit_code = 4


def parse_choice(text: str, count: int) -> tuple[int | None, str | None]:
    """(the option index, None) for a valid answer, else (None, a one-line hint)."""
    typed = text.strip()
    span = f"0 to {count - 1}" if count > 1 else "0"
    if not typed:
        return None, f"Nothing typed: enter the number of an option ({span}), ? for help."
    if not (typed.isascii() and typed.isdigit()):
        shown = typed if len(typed) <= 20 else typed[:17] + "..."
        return None, f"{shown!r} is not an option number: enter {span} (digits only), ? for help."
    digits = typed.lstrip("0") or "0"
    if len(digits) > len(str(count - 1)):  # never int() a number of thousands of digits (Python refuses)
        shown = digits if len(digits) <= 20 else digits[:17] + "..."
        return None, f"There is no option {shown}: enter {span}."
    index = int(digits)
    if index >= count:
        return None, f"There is no option {index}: enter {span}."
    return index, None


def choose(terminal, count: int, show_view, show_options, who: str, keys: dict | None = None) -> int:
    """Ask until a valid option index in [0, count) is typed; `show_view()` and
    `show_options()` redisplay (for `v`); `keys`: more one-letter commands, letter ->
    (what it shows, in a word or two; the callable that shows it)."""
    span = f"0-{count - 1}" if count > 1 else "0"
    keys = keys or {}
    listed = "".join(f", {key} {what}" for key, (what, _) in keys.items())
    while True:
        typed = terminal.read(f"choice [{span}, ? help, v board{listed}, q quit]: ")
        if typed is None:
            terminal.show(["", f"End of input: {who} leaves the table, and the game stops here."])
            raise LeftTheTable()
        command = typed.strip().lower()
        if command in QUIT:
            terminal.show([f"{who} leaves the table: the game stops here."])
            raise LeftTheTable()
        if command in ("?", "h", "help"):
            terminal.show(HELP[:3] + tuple(f"  {key}   {what}" for key, (what, _) in keys.items()) + HELP[3:])
            continue
        if command in keys:
            keys[command][1]()
            continue
        if command == "v":
            show_view()
            show_options()
            continue
        index, hint = parse_choice(typed, count)
        if hint is None:
            return index
        terminal.show([hint])
