"""How the human seat puts one decision to the player: the question, the board facts the
decision needs and the numbered options, all in the edition's words, as the rule module
asking declares them (`amunre.core.contract.Decision`: `question`, `facts`, `note`, `none`,
`describe`). A decision a plug-in declares without them still reads sensibly: its options
as `describe` words them, under a neutral question.
"""

from __future__ import annotations

from rich.text import Text

from amunre.agents.seatview import line, own_view, where_we_are, words_for
from amunre.core.contract import Asking

#: More options than this are laid out in columns, when they fit.
ONE_PER_LINE = 12
#: More options than this are shown in groups, where the decision groups them (`Decision.group`).
GROUPED = 6


def owner_of(variant, kind: str):
    """The rule module that asks `kind` (None for the core's shared moves)."""
    for module in variant.modules.all:
        if kind in module.decisions:
            return module
    return None


def asking_for(view, request) -> Asking:
    """The `Asking` a decision's table callables read."""
    return Asking(view=view, request=request, words=words_for(view), rule=owner_of(view.variant, request.kind))


def question_text(asking: Asking) -> str:
    decision = asking.view.variant.modules.decisions.get(asking.request.kind)
    if decision is not None and decision.question is not None:
        return decision.question(asking)
    return "Choose one of these:"


def fact_lines(asking: Asking) -> list[str]:
    decision = asking.view.variant.modules.decisions.get(asking.request.kind)
    if decision is None or decision.facts is None:
        return []
    return list(decision.facts(asking))


def option_text(asking: Asking, option) -> str:
    """One option in the edition's words, with its note ("must sell 2 power cards")."""
    decision = asking.view.variant.modules.decisions.get(asking.request.kind)
    w = asking.words
    if decision is None:
        return str(option)
    if option is None:
        if decision.none_asked is not None:
            return decision.none_asked(asking)
        return decision.none(w) if decision.none is not None else "no"
    text = decision.describe(option, w)
    note = decision.note(option, asking) if decision.note is not None else None
    return f"{text} ({note})" if note else text


def grouped_lines(asking: Asking, width: int = 100) -> list[Text]:
    """The numbered options a line per heading of the decision's `group` ("Abu:
    0) 0  1) 1  2) 3 ..."), a heading too long to share its line above its options, a line
    too long wrapped under its first option; each distinct note once, as a footnote marked
    `*`, `**`, ... after the options it concerns. An option without a group (None) keeps its
    own line, first."""
    decision = asking.view.variant.modules.decisions[asking.request.kind]
    w = asking.words
    names = w.names
    digits = len(str(len(asking.request.options) - 1))
    alone: list[str] = []
    groups: dict[str, list[str]] = {}
    notes: dict[str, str] = {}
    for i, option in enumerate(asking.request.options):
        if option is None:
            alone.append(f"{i:>{digits}}) {option_text(asking, None)}")
            continue
        heading, label = decision.group(option, w)
        note = decision.note(option, asking) if decision.note is not None else None
        if note:
            label += notes.setdefault(note, "*" * (len(notes) + 1))
        groups.setdefault(heading, []).append(f"{i:>{digits}}) {label}")
    cell = max((len(c) for cells in groups.values() for c in cells), default=0)
    # the headings' column: as wide as the longest heading that leaves the most options of a
    # group room on its line (a longer heading goes above its options)
    row = max((len(cells) for cells in groups.values()), default=0) * (cell + 2) - 2
    fitting = [len(h) + 1 for h in groups if len(h) + 1 <= max(12, width // 3)]
    roomy = [n for n in fitting if 2 + n + 1 + row <= width]
    head = max(roomy) if roomy else min(fitting, default=0)
    out = [line(f"  {entry}", names=names) for entry in alone]
    under = " " * (2 + head + 1 if head else 4)
    per_line = max(1, (width - len(under) + 2) // (cell + 2))
    for heading, cells in groups.items():
        first = f"  {(heading + ':').ljust(head)} " if len(heading) + 1 <= head else under
        if first is under:
            out.append(line(f"  {heading}:", names=names))
        for n in range(0, len(cells), per_line):
            row = "  ".join(c.ljust(cell) for c in cells[n:n + per_line]).rstrip()
            out.append(line((first if n == 0 else under) + row, names=names))
    out += [line(f"  {marker} {note}", "dim", names) for note, marker in notes.items()]
    return out


def option_lines(asking: Asking, width: int = 100) -> list[Text]:
    """The numbered options (from 0): one per line; in groups where the decision has many and
    groups them (`grouped_lines`), else in columns when there are many short ones."""
    decision = asking.view.variant.modules.decisions.get(asking.request.kind)
    if decision is not None and decision.group is not None and len(asking.request.options) > GROUPED:
        return grouped_lines(asking, width)
    names = asking.words.names
    entries = [f"{i}. {option_text(asking, option)}" for i, option in enumerate(asking.request.options)]
    digits = len(str(len(entries) - 1))
    entries = [entry.rjust(len(entry) + digits - len(entry.split(".")[0])) for entry in entries]
    widest = max(len(e) for e in entries) + 3
    columns = max(1, min(4, (width - 2) // widest))
    if len(entries) <= ONE_PER_LINE or columns == 1:
        return [line(f"  {entry}", names=names) for entry in entries]
    rows = -(-len(entries) // columns)
    out = []
    for r in range(rows):
        cells = [entries[c * rows + r] for c in range(columns) if c * rows + r < len(entries)]
        out.append(line("  " + "".join(cell.ljust(widest) for cell in cells).rstrip(), names=names))
    return out


def decision_block(view, request, width: int = 100, with_view: bool = True) -> list[Text]:
    """Everything shown before a decision: whose decision and where in the game, the seat's
    holdings, the facts the decision needs, the question and the numbered options."""
    asking = asking_for(view, request)
    w = asking.words
    names = w.names
    out = [Text(""), line(f"-- {names[request.player]}, your decision -- {where_we_are(view, w)}", "bold", names)]
    if with_view:
        out += own_view(view)
    out += [line(fact, names=names) for fact in fact_lines(asking)]
    out.append(line(question_text(asking), "bold", names))
    out += option_lines(asking, width)
    return out
