"""`amunre run`: play one seeded game and show it, or print it as JSON."""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from amunre.agents import check_agents_for, make_agents
from amunre.agents.human import Handover, HumanAgent
from amunre.agents.playing import play_reporting
from amunre.agents.prompt import QUIT, LeftTheTable
from amunre.agents.seatview import line as seat_line
from amunre.agents.terminal import Terminal
from amunre.cli.common import (
    SET_HELP,
    WholeNumber,
    check_writable,
    literal,
    make_console,
    one_variant,
    parse_agents,
    parse_players,
    parse_seed,
    set_option,
    variant_arg,
    write_resolved,
)
from amunre.core.engine import MAX_SEED, Game
from amunre.core.errors import AmunreError
from amunre.core.flow_words import end_of, tie_line
from amunre.core.results import game_result, item_label, item_order, scoring_groups
from amunre.core.words import Narrator, Words, player_names
from amunre.gamelog import Recorder, incomplete_lines, log_lines, new_file_mode, shown_path, write_log
from amunre.loader import load_variant

#: The most characters of an agent spec a column of the final table shows.
AGENT_SHOWN = 14


def final_table(variant, result: dict) -> Table:
    """Points per scoring item per kingdom (the final scoring's items under its own name),
    then total points, gold, pyramids, stones and place, in the edition's words. Each
    player's column is as narrow as its name and agent on two lines (a long agent spec cut),
    so that on a narrow terminal the labels, not the numbers, take the width left."""
    table = Table(title=Text(f"Final score: {variant.edition.name}"))  # file text: never markup
    table.add_column("")
    for player in result["players"]:
        agent = player["agent"] if len(player["agent"]) <= AGENT_SHOWN else player["agent"][:AGENT_SHOWN - 3] + "..."
        table.add_column(Text(f"{player['name']}\n{agent}"), justify="right", no_wrap=True)
    order = item_order(variant)
    for group in scoring_groups(variant):
        scored = [pl["items"].get(group, {}) for pl in result["players"]]
        seen = {item for items in scored for item in items}
        # every item the group scored, in scoring order; unknown (plug-in) items after
        for item in [i for i in order if i in seen] + sorted(seen - set(order)):
            table.add_row(Text(f"{group}: {item_label(variant, item)}"), *(str(items.get(item, 0)) for items in scored))
    words = Words(variant)
    table.add_section()
    table.add_row(Text(f"total {variant.term('points')}"), *(str(pl["score"]) for pl in result["players"]),
                  style="bold")
    table.add_row(Text(variant.term("gold")), *(str(pl["gold"]) for pl in result["players"]))
    table.add_row(Text(words.noun(2, "pyramid")), *(str(pl["pyramids"]) for pl in result["players"]))
    table.add_row(Text(words.noun(2, "stone")), *(str(pl["stones"]) for pl in result["players"]))
    table.add_row("place", *(words.ordinal(pl["rank"]) for pl in result["players"]), style="bold")
    return table


#: The width the labels of the final table need to stay readable; a terminal narrower than
#: the table with them gets a block per player instead (`final_score`).
LABEL_WIDTH = 24


def _column_width(player: dict) -> int:
    """A player's column in the final table: name and agent, padding and border."""
    agent = player["agent"] if len(player["agent"]) <= AGENT_SHOWN else player["agent"][:AGENT_SHOWN - 3] + "..."
    return max(len(player["name"]), len(agent), 4) + 3


def final_score(variant, result: dict, width: int | None = None):
    """The final score as `width` columns show it readably: the table (`final_table`), or,
    when its labels would get less than `LABEL_WIDTH` (5 players below 80 columns), a block
    per player in place order: his place, points and agent, then each kingdom's points by
    item (those that scored), then gold, pyramids and stones."""
    table = final_table(variant, result)
    if width is None or width >= 1 + LABEL_WIDTH + 3 + sum(_column_width(pl) for pl in result["players"]):
        return table
    from rich.console import Group

    from amunre.agents.terminal import wrapped

    words = Words(variant)
    names = [pl["name"] for pl in result["players"]]
    order = item_order(variant)
    out = [Text(f"Final score: {variant.edition.name}", style="bold")]
    for pl in sorted(result["players"], key=lambda pl: pl["rank"]):
        out.append(Text(""))
        out.append(seat_line(f"{pl['name']} ({pl['agent']}): {words.ordinal(pl['rank'])} place, "
                             f"{words.count(pl['score'], 'points')}", "bold", names))
        for group in scoring_groups(variant):
            items = pl["items"].get(group, {})
            scored = [i for i in order if items.get(i)] + sorted(i for i in set(items) - set(order) if items[i])
            # an item and its points stay on one line (joined by no-break spaces until wrapped)
            said = ", ".join(f"{item_label(variant, i)} {items[i]}".replace(" ", NBSP) for i in scored)
            out.append(Text(f"  {group} ({sum(items.values())}): {said or 'nothing'}"))
        out.append(Text(f"  {pl['gold']} {variant.term('gold')}, {words.count(pl['pyramids'], 'pyramid')}, "
                        f"{words.count(pl['stones'], 'stone')}"))
    pieces = [piece for text in out for piece in wrapped(text, width)]
    return Group(*(Text(piece.plain.replace(NBSP, " "), style=piece.style) if NBSP in piece.plain else piece
                   for piece in pieces))


NBSP = "\u00a0"


def _log_variant(variant, overrides, log_path: str):
    """The variant with its overrides, loaded from a complete file written next to the log,
    so that `amunre replay LOG --variant LOG.variant.toml` plays the same rules. Returns the
    variant and the temporary file it was written to: `write_log` renames it to
    LOG.variant.toml with the log, so an interrupted run leaves neither behind."""
    fd, temporary = tempfile.mkstemp(prefix=".amunre-", suffix=".variant.toml", dir=Path(log_path).parent)
    os.close(fd)
    os.chmod(temporary, new_file_mode(f"{log_path}.variant.toml"))
    context = click.get_current_context(silent=True)
    if context is not None:  # whatever ends the command, the temporary file goes (renamed away once written)
        context.call_on_close(lambda: _remove(temporary))
    try:
        return load_variant(write_resolved(variant, overrides, temporary)), temporary
    except BaseException:
        _remove(temporary)
        raise


def _remove(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_log(log_path: str, lines: list[dict], variant_temp) -> str:
    """Write the log (and LOG.variant.toml from `variant_temp`) all or nothing; returns the
    header's `variant_file`."""
    renames = ()
    if variant_temp:
        final = f"{log_path}.variant.toml"
        lines[0]["variant_file"] = str(Path(final).resolve())
        renames = ((variant_temp, final),)
    write_log(log_path, lines, renames)
    return lines[0]["variant_file"]


def _interrupted(log_path, stop, variant_temp, game, recorder, agents, variant_name, overrides):
    """A game stopped before its end (Ctrl-C, a signal, a human seat that left): with --log,
    the answers so far are written, marked incomplete, and replay checks them up to there."""
    from amunre.cli import Terminated

    if log_path:
        reason = "left" if isinstance(stop, click.Abort) else "interrupted"
        lines = incomplete_lines(game, recorder.events, agents, reason)
        try:
            variant_file = _write_log(log_path, lines, variant_temp)
        except AmunreError as exc:
            click.echo(f"error: {literal(exc)}", err=True)
        else:
            decisions = lines[-1]["decisions"]
            held = {0: "no answer yet is", 1: "its first decision is"}.get(
                decisions, f"its first {decisions} decisions are")
            click.echo(literal(f"the game stopped: {held} in {log_path}, marked "
                               f"incomplete; check them with: "
                               f"{_replay_command(log_path, variant_file, variant_name, overrides)}"), err=True)
    if variant_temp:
        Path(variant_temp).unlink(missing_ok=True)
    if isinstance(stop, KeyboardInterrupt) and not isinstance(stop, Terminated):
        sys.exit(130)
    if isinstance(stop, LeftTheTable):  # its message is said: a player's choice, no error to report
        sys.exit(LeftTheTable.exit_code)
    raise stop


def _replay_command(log_path: str, variant_file: str, variant_name: str, overrides) -> str:
    """The exact command that replays the log from the current folder."""
    command = f"amunre replay {shlex.quote(log_path)}"
    if variant_file:  # not a shipped variant: replay needs the file
        command += f" --variant {shlex.quote(f'{log_path}.variant.toml' if overrides else variant_name)}"
    return command


#: Options a verbose line shows of one decision; the rest are counted.
SHOWN_OPTIONS = 12


class ShowDecisions:
    """An agent's seat with `--verbose`: once the agent has answered, a line with the
    question it was asked, its choice (a secret one marked so) and the legal options, as
    the rule module asking words them for a person (`amunre.agents.asking`)."""

    def __init__(self, agent, say):
        self.agent = agent
        self.say = say

    def choose(self, view, request):
        from amunre.agents.asking import asking_for, option_text, question_text

        choice = self.agent.choose(view, request)
        asking = asking_for(view, request)
        shown = [option_text(asking, o) for o in request.options[:SHOWN_OPTIONS]]
        more = len(request.options) - len(shown)
        listed = "; ".join(shown) + (f"; ... {more} more" if more > 0 else "")
        secret = " (in secret)" if request.simultaneous else ""
        self.say(f"    > {asking.words.who(request.player)}: {question_text(asking)} -> "
                 f"{option_text(asking, choice)}{secret}   [{len(request.options)} options: {listed}]")
        return choice


class TellForced:
    """A game with a person at the table: each forced decision of a seat whose agent has
    `forced(view, request)` (the human seat) is told to it, as it is taken. Those taken
    before the game object exists (while it advances to its first question) are told then."""

    def __init__(self, seats):
        self.seats = seats
        self.game = None
        self.waiting = []

    def __call__(self, request) -> None:
        if getattr(self.seats[request.player], "forced", None) is None:
            return
        if request.options == [None] or request.options == [False]:
            return  # a card he does not hold is not played: nothing was decided
        if self.game is None:
            self.waiting.append(request)
        else:
            self.seats[request.player].forced(self.game.view(request.player), request)

    def start(self, game) -> None:
        self.game = game
        for request in self.waiting:
            self(request)
        self.waiting = []


def play_with_people(game, seats, tell: TellForced) -> None:
    """`engine.play_on`, each seat told its forced decisions (`tell`, the game's `on_forced`:
    an agent's search plays other games, which tell nobody)."""
    game.on_forced = tell
    request = game.pending
    while request is not None:
        choice = seats[request.player].choose(game.view(request.player), request)
        game.answer(choice)
        request = game.pending


class Pauser:
    """`--pause`: before each phase and scoring, the game's first phase too, wait for Enter
    on stdin (the prompt on stderr, through `terminal`, the human seat's own where one
    plays). `q` leaves the table as it does at a human seat's decision: the game stops
    there (`LeftTheTable`, exit code 4). At the end of input it stops waiting and the game
    plays on."""

    BREAKS = frozenset({"phase", "scoring", "final_scoring"})
    PROMPT = "-- Enter: next phase, q: quit --"

    def __init__(self, listener, terminal=None):
        self.listener = listener
        self.terminal = terminal or Terminal()
        self.waiting = True

    def __call__(self, event: dict) -> None:
        if event["event"] in self.BREAKS and self.waiting:
            typed = self.terminal.read(self.PROMPT)  # what came before the break shows before the wait
            if typed is None:  # end of input: play on without waiting
                self.waiting = False
                self.terminal.show([" (end of input: playing on)"])
            elif typed.strip().lower() in QUIT:
                self.terminal.show(["You leave the table: the game stops here."])
                raise LeftTheTable()
        self.listener(event)


def infer_players(variant, players, agents) -> str | None:
    """`--players` as given, or, when it is not, the number of seats `--agents` names (one
    name means every seat)."""
    if players is not None or agents is None:
        return players
    names = [name.strip() for name in agents.split(",")]
    count = len(names)
    if count == 1 or not all(names):  # one for every seat; an empty name is parse_agents' to report
        return None
    if count not in variant.players:
        raise AmunreError(f"--agents names {count} agents, but {variant.id} is played by "
                          f"{', '.join(map(str, variant.players))} players (give one agent per player, or one for "
                          f"every seat with --players)" + variant.modules.players_note(count))
    return str(count)


@click.command("run")
@one_variant("classic2003")
@click.option("--players", metavar="N",
              help="Number of players (the variant says which counts are allowed; default: as many as "
                   "--agents names, else 4).")
@click.option("--seed", metavar="SEED", type=WholeNumber(0, MAX_SEED),
              help="Seed for the game; a random one is chosen and printed if omitted.")
@click.option("--agents", metavar="AGENT,...",
              help="Comma-separated agents per seat, e.g. human,greedy,greedy (one name: every seat; "
                   "default: planner).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (schemas/result.schema.json) instead.")
@click.option("--log", "log_path", metavar="FILE.jsonl",
              help="Write every decision and event as JSON Lines, replayable with `amunre replay` (written when "
                   "the game ends; a game stopped early, by Ctrl-C or a human seat that leaves, writes its "
                   "answers so far, marked incomplete).")
@click.option("--quiet", is_flag=True,
              help="Skip the play-by-play, show only the final table. A human seat still sees the play-by-play "
                   "(on stderr, with its questions): it plays from it.")
@click.option("--verbose", is_flag=True,
              help="Also show every bot decision with its options, and the state at the end of each round. With a "
                   "human seat it adds only the round summaries: the bots' decisions would tell him their hidden "
                   "cards (their options, even the questions they are asked); their secret answers show when the "
                   "play-by-play reveals them.")
@click.option("--pause", "--step", "pause", is_flag=True,
              help="Show the game one phase at a time: wait for Enter before each phase (q leaves the table, exit "
                   "code 4; at the end of input, play on to the end).")
@set_option(SET_HELP + " With --log, the variant as changed is written to LOG.variant.toml: replay the log "
            "with `amunre replay LOG --variant LOG.variant.toml`.")
def command(variant_name, players, seed, agents, as_json, log_path, quiet, verbose, pause, overrides):
    """Play one seeded game with bots (or people) and show every step and the final score.

    A human seat that leaves the table (`q`, or the end of its input) stops the game with a
    message and exit code 4 (with --log, the answers so far are kept). A human seat talks on
    stderr, and with one the play-by-play goes there too, in order with its questions:
    stdout keeps the final table (or the JSON document).
    """
    variant = variant_arg(variant_name, overrides)
    for flag, on in (("--verbose", verbose), ("--pause", pause)):
        for other, also in (("--quiet", quiet), ("--json", as_json)):
            if on and also:
                raise AmunreError(f"{flag} shows the play-by-play, {other} leaves it out: give one of them")
    n = parse_players(variant, infer_players(variant, players, agents))
    seed_value = parse_seed(seed)
    agent_list = parse_agents(agents, n)
    check_agents_for(agent_list, variant)  # before anything is shown or written
    names = player_names(n)
    variant_temp = None
    if log_path:
        check_writable(log_path, "the log", "--log")
        if variant.source and Path(log_path).resolve() == Path(variant.source).resolve():
            raise AmunreError(f"--log {shown_path(log_path)} is the variant file being played "
                              "(expected another file: the log would replace the variant)")
        if overrides:
            variant, variant_temp = _log_variant(variant, overrides, log_path)
    listeners = []
    recorder = Recorder() if log_path else None
    if recorder:
        listeners.append(recorder)
    console = make_console()
    seats = make_agents(agent_list, seed_value)
    people = [seat for seat in seats if isinstance(seat, HumanAgent)]
    handover = None
    if len(people) > 1:  # one terminal, several people: each seat's own facts behind a handover
        handover = Handover(names)
        for seat in people:
            seat.handover = handover
    # a person at the table sees the play-by-play with his questions, on his terminal's
    # stream (stderr), in order, whatever --quiet or --json leave out of stdout
    person = next((seat.terminal for seat in seats if isinstance(getattr(seat, "terminal", None), Terminal)), None)
    if person is not None or not (as_json or quiet):
        if person is not None:
            def say(text):
                person.show([seat_line(text, names=names)])
                if handover is not None:  # shown again to the next person, after the screen is cleared
                    handover.heard(text)
        else:
            def say(text):  # each seat's name in its colour on a terminal; plain text when piped
                console.print(seat_line(text, names=names))

        if person is None:  # (the seed tells every hidden card: a person at the table hears it at the end)
            say(f"seed {seed_value} (rerun this game with --seed {seed_value})")
        narrator = Narrator(variant, say, names, verbose=verbose, hide_seed=person is not None)
        listeners.append(Pauser(narrator, person) if pause else narrator)
        if verbose and person is None:
            # with a person at the table the bots' decisions are not shown: their options, even
            # the questions they are asked (to play a card?), tell the cards they hold
            seats = [ShowDecisions(seat, say) for seat in seats]
    tell = TellForced(seats) if any(hasattr(seat, "forced") for seat in seats) else None
    try:
        if tell is None:
            game = Game(variant, n, seed_value, listeners)
        else:
            game = Game(variant, n, seed_value, listeners, on_forced=tell)
            tell.start(game)
    except click.Abort as stop:  # `q` at --pause's first wait, before the game's first decision
        if log_path:  # nothing to replay
            click.echo(literal(f"the game stopped before its first decision: no log written to {log_path}"),
                       err=True)
        _interrupted(None, stop, variant_temp, None, recorder, agent_list, variant_name, overrides)
    try:
        if tell is None:  # (one's own agent that fails is reported as its own, not as amunre's bug)
            play_reporting(game, seats, agent_list)
        else:
            play_with_people(game, seats, tell)
    except (KeyboardInterrupt, click.Abort) as stop:
        _interrupted(log_path, stop, variant_temp, game, recorder, agent_list, variant_name, overrides)
    result = game_result(game, names, agent_list)
    if log_path:
        variant_file = _write_log(log_path, log_lines(game, recorder.events, agent_list), variant_temp)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    console.print()
    console.print(final_score(variant, result, console.width))
    winners = " and ".join(result["winners"])
    console.print(seat_line(f"Winner{'s' if len(result['winners']) > 1 else ''}: {winners}   (seed {seed_value})",
                            names=names))
    tie = tie_line(end_of(game), Words(variant, names)) if quiet else None  # else the play-by-play said it
    if tie:
        console.print(literal(tie), markup=False)
    if log_path:
        console.print(f"log written to {log_path}; check it with: "
                      f"{_replay_command(log_path, variant_file, variant_name, overrides)}", markup=False)
