"""The `human` agent: a person at the terminal.

Before each decision it shows what the seat may know (`amunre.agents.seatview`), the facts
the decision needs, the question and the numbered options in the edition's words
(`amunre.agents.asking`), then reads the answer (`amunre.agents.prompt`). It talks on stderr
and reads stdin (`amunre.agents.terminal`): stdout stays the command's own output. `q` or
the end of input stops the game cleanly (`LeftTheTable`, a `click.Abort`). A decision with
one option is never asked: `forced` tells the player, in one line, what was decided for him.
At the prompt, `p` shows what the coming scoring would give each player if it came now, and
`c` what each card of the hand does (`amunre.planning.seatfacts`).

Where several people share one terminal (`handover`, made by `amunre run` when two or more
seats are human), the screen is cleared and the next person is asked to take the seat
before anything private to it is shown.
"""

from __future__ import annotations

from amunre.agents.asking import asking_for, decision_block, option_text, question_text
from amunre.agents.prompt import QUIT, LeftTheTable, choose
from amunre.agents.seatview import card_lines, full_view, line, projection_lines
from amunre.agents.terminal import Terminal

__all__ = ["Handover", "HumanAgent", "LeftTheTable"]


class HumanAgent:
    """Asks on stderr, reads stdin; sees only its seat's view and the request."""

    name = "human"

    def __init__(self, terminal: Terminal | None = None):
        self.terminal = terminal or Terminal()
        self.handover: Handover | None = None

    def choose(self, view, request):
        terminal = self.terminal
        if self.handover is not None:
            self.handover.to(view.player, terminal)
        terminal.show(decision_block(view, request, terminal.width))
        asking = asking_for(view, request)
        names = asking.words.names

        def show_options():  # after `v`: the decision screen's own facts (the bids on auction, ...) again
            terminal.show(decision_block(view, request, terminal.width, with_view=False))

        keys = {"p": ("scoring", lambda: terminal.show(projection_lines(view))),
                "c": ("cards", lambda: terminal.show(card_lines(view)))}
        index = choose(terminal, len(request.options), lambda: terminal.show(full_view(view)), show_options,
                       names[request.player], keys)
        return request.options[index]

    def forced(self, view, request) -> None:
        """A decision of this seat with a single option, taken without asking (see
        `Game.on_forced`, which `amunre run` sets): one line says what was decided, and why."""
        asking = asking_for(view, request)
        names = asking.words.names
        if self.handover is not None:
            self.handover.to(view.player, self.terminal)
        self.terminal.show([line(f"-- {names[request.player]}: {question_text(asking)} -> "
                                 f"{option_text(asking, request.options[0])} (your only option: taken for you)",
                                 names=names)])


class Handover:
    """Several people at one terminal: before a seat is shown anything of its own, the screen
    (and its scrollback) is cleared, the public play-by-play since the last handover shown
    again (what the others and the bots did meanwhile), and "pass to <seat>, press Enter"
    asked, unless that seat was the last one shown. One is shared by every human seat of a
    game; the play-by-play tells it each line (`heard`)."""

    #: The most lines of play-by-play shown again at a handover (the newest).
    AGAIN = 60

    def __init__(self, names: list[str]):
        self.names = names
        self.seat: int | None = None
        self.lines: list[str] = []

    def heard(self, text: str) -> None:
        self.lines.append(text)
        del self.lines[:-self.AGAIN]

    def to(self, seat: int, terminal: Terminal) -> None:
        if seat == self.seat:
            return
        from amunre.agents.seatview import line

        terminal.clear()
        if self.lines:
            terminal.show([line("Since the last turn at this terminal:", "bold")]
                          + [line(text, names=self.names) for text in self.lines])
        typed = terminal.read(f"pass to {self.names[seat]}, press Enter (q: leave the table): ")
        if typed is None or typed.strip().lower() in QUIT:
            terminal.show([f"{self.names[seat]} leaves the table: the game stops here."])
            raise LeftTheTable()
        self.lines = []
        self.seat = seat
