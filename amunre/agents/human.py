"""The `human` agent: a person at the terminal.

Before each decision it shows what the seat may know (`amunre.agents.seatview`), the facts
the decision needs, the question and the numbered options in the edition's words
(`amunre.agents.asking`), then reads the answer (`amunre.agents.prompt`). It talks on stderr
and reads stdin (`amunre.agents.terminal`): stdout stays the command's own output. `q` or
the end of input stops the game cleanly (`LeftTheTable`, a `click.Abort`). A decision with
one option is never asked: `forced` tells the player, in one line, what was decided for him.
"""

from __future__ import annotations

from amunre.agents.asking import asking_for, decision_block, option_text, question_text
from amunre.agents.prompt import LeftTheTable, choose
from amunre.agents.seatview import full_view, line
from amunre.agents.terminal import Terminal

__all__ = ["HumanAgent", "LeftTheTable"]


class HumanAgent:
    """Asks on stderr, reads stdin; sees only its seat's view and the request."""

    name = "human"

    def __init__(self, terminal: Terminal | None = None):
        self.terminal = terminal or Terminal()

    def choose(self, view, request):
        terminal = self.terminal
        terminal.show(decision_block(view, request, terminal.width))
        asking = asking_for(view, request)
        names = asking.words.names

        def show_options():  # after `v`: the decision screen's own facts (the bids on auction, ...) again
            terminal.show(decision_block(view, request, terminal.width, with_view=False))

        index = choose(terminal, len(request.options), lambda: terminal.show(full_view(view)), show_options,
                       names[request.player])
        return request.options[index]

    def forced(self, view, request) -> None:
        """A decision of this seat with a single option, taken without asking (see
        `amunre.decisions.telling_forced`): one line says what was decided, and why."""
        asking = asking_for(view, request)
        names = asking.words.names
        self.terminal.show([line(f"-- {names[request.player]}: {question_text(asking)} -> "
                                 f"{option_text(asking, request.options[0])} (your only option: taken for you)",
                                 names=names)])
