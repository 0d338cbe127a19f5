"""Replaying a game log: the game played again from its header, every line compared with the
one the replay produces, the bot seats re-run, stopping at the first line that differs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from amunre import __version__
from amunre.core.decisions import to_json_value
from amunre.core.engine import Game
from amunre.core.errors import AmunreError, IllegalAnswerError, ReplayError, UnknownVariantError
from amunre.gamelog.lines import MAX_AHEAD, MAX_AHEAD_BYTES, canonical
from amunre.gamelog.messages import _difference_message, excerpt, label, shown_path
from amunre.gamelog.read import _sized_lines
from amunre.gamelog.write import _header, _shipped_files, result

# -- replaying -------------------------------------------------------------------------------

def _variant_for(head: dict, where: str, variant):
    """The variant to replay with: the caller's (`--variant`), else the shipped variant of
    the header's id; never a file the log names."""
    from amunre.core.model import Variant
    from amunre.loader import load_variant

    if variant is not None:
        if not isinstance(variant, Variant):
            try:
                variant = load_variant(variant)
            except UnknownVariantError as exc:
                raise ReplayError(f"--variant: {exc}") from None
        if variant.id != head["variant"]:
            raise ReplayError(f"{where}:1: variant: the log's game is {excerpt(head['variant'])}, but --variant "
                              f"gives {excerpt(variant.id)} (expected the variant the game was played with)")
        return variant
    shipped = _shipped_files()
    played_from = head["variant_file"]
    if head["variant"] not in shipped or played_from:
        if played_from:
            why = (f"variant_file: the game was played from {shown_path(played_from)}, not a shipped variant; "
                   f"replay opens no file a log names: pass that file (or its copy) with --variant")
        else:
            why = (f"variant: {excerpt(head['variant'])} is not a shipped variant; pass the variant file the game "
                   f"was played with with --variant")
        raise ReplayError(f"{where}:1: {why}, as in `amunre replay LOG --variant FILE`")
    return load_variant(Path(shipped[head["variant"]]))


def _check_header(head: dict, where: str, variant) -> None:
    from amunre.agents import agent_names, check_spec, is_known, split_spec

    if head["amunre"] != __version__:
        raise ReplayError(f"{where}:1: amunre: the log was written by amunre {excerpt(head['amunre'])}, this is "
                          f"{__version__} (a log replays with the version that wrote it)")
    players, agents = head["players"], head["agents"]
    if players not in variant.players:
        raise ReplayError(f"{where}:1: players: {excerpt(players)} (expected one of "
                          f"{', '.join(map(str, variant.players))} for {excerpt(variant.id)})")
    if len(agents) != players:
        raise ReplayError(f"{where}:1: agents: {len(agents)} agent names for {players} players "
                          f"(expected one per player)")
    known = agent_names()
    for seat, name in enumerate(agents):
        try:
            kind = split_spec(name)[0]
            if is_known(kind):
                check_spec(name)
        except AmunreError as exc:
            raise ReplayError(f"{where}:1: agents/{seat}: {exc}") from None
        if not is_known(kind):
            raise ReplayError(f"{where}:1: agents/{seat}: unknown agent {excerpt(name)} "
                              f"(expected one of {', '.join(known)})")


class _Bad:
    """A line that cannot be read (or the end of a log that ends wrong): the error to report
    once the replay reaches it, unless a line before it differs."""

    def __init__(self, message: str):
        self.message = message


class _Window:
    """The lines of a log as the replay reaches them (1 is the header): read when first
    asked for, forgotten once compared, so what is kept is the few lines between the one
    compared last and the answer a seat looks ahead for, whatever the log's length."""

    def __init__(self, sized: Iterator[tuple[dict, int]]):
        self._sized = sized
        self._kept: dict[int, dict | _Bad] = {}
        self._sizes: dict[int, int] = {}
        self._read = 0
        self._ended = False
        self.start = 1  # the first line kept

    def __getitem__(self, number: int) -> dict | _Bad | None:
        """Line `number`; a `_Bad` where reading failed (nothing after it is read); None
        past the end."""
        while self._read < number and not self._ended:
            try:
                line, size = next(self._sized)
            except StopIteration:
                self._ended = True
                break
            except ReplayError as exc:
                line, size, self._ended = _Bad(str(exc)), 0, True
            self._read += 1
            self._kept[self._read], self._sizes[self._read] = line, size
        return self._kept.get(number)

    def kept_bytes(self) -> int:
        return sum(self._sizes.values())

    def release(self, number: int) -> None:
        """Forget the lines up to `number`: they are compared."""
        while self.start <= number:
            self._kept.pop(self.start, None)
            self._sizes.pop(self.start, None)
            self.start += 1

    def close(self) -> None:
        close = getattr(self._sized, "close", None)
        if close is not None:
            close()  # the file, if the replay stops before its end


def _replay(log: _Window, where: str, variant, verify_agents: bool) -> tuple[Game, list[dict]]:
    """Replay the lines of `log` (see `replay_lines`), comparing each as it comes."""
    head = log[1]
    if head is None:
        raise ReplayError(f"{where}: the log is empty (expected the JSON Lines `amunre run --log` writes)")
    if isinstance(head, _Bad):
        raise ReplayError(head.message)
    variant = _variant_for(head, where, variant)
    _check_header(head, where, variant)
    fresh_head = _header(variant, head["players"], head["seed"], head["agents"])
    fresh_head["variant_file"] = head["variant_file"]  # checked above, or the caller's file is used
    if canonical(head) != canonical(fresh_head):
        raise ReplayError(_difference_message(where, 1, head, fresh_head))
    log.release(1)
    replayer = _Replayer(log, head["agents"] if verify_agents else ["human"] * len(head["agents"]),
                         head["seed"], where)
    comparer = _Comparer(log, where, replayer)
    game, stopped = _play(variant, head, replayer, comparer, where)
    events = [{"type": "event", **e} for e in comparer.events]
    if stopped:
        end = _check_stop(log, where, game, replayer, len(events) + 2)
    else:
        end = _check_result(log, where, game, replayer, len(events) + 2)
    after = log[len(events) + 3]
    if after is not None:  # (a list of lines given by a caller: a file's reader says so itself)
        raise replayer.first(len(events) + 3, after.message if isinstance(after, _Bad) else
                             f"{where}:{len(events) + 2}: {excerpt(end['type'], 40)} before the last line "
                             f"(expected only events between the header and the last line)")
    if replayer.complaint is not None:
        raise ReplayError(replayer.complaint[1])
    return game, [fresh_head] + events + [end]


def _play(variant, head: dict, replayer: _Replayer, comparer: _Comparer, where: str) -> tuple[Game, bool]:
    """Play the logged game, every seat answered by the replayer: (the game, whether it
    stopped where an incomplete log ends) once it is over or stopped."""
    game = None
    try:
        game = Game(variant, head["players"], head["seed"], [comparer])
        seats = replayer.seats()
        views = [game.view(p) for p in range(game.n_players)]  # (live views, as `play_on` keeps them)
        while (request := game.pending) is not None:
            game.answer(seats[request.player].choose(views[request.player], request))
    except _EndOfLog:
        if game is None:  # the log stops in the setup, before the game's first decision
            number = len(comparer.events) + 2
            raise replayer.first(number, f"{where}:{number}: the log stops here, before the game's first decision, "
                                         f"the replay goes on with the event {excerpt(comparer.cut.get('event'), 40)} "
                                         f"(expected the events up to the first decision at least, as `amunre run "
                                         f"--log` writes)") from None
        return game, True
    except IllegalAnswerError as exc:  # not expected: the replayer answers with the engine's own options
        raise ReplayError(f"{where}: the replay diverges at decision {replayer.next}: {exc}") from None
    except AmunreError as exc:
        if isinstance(exc, ReplayError):
            raise
        raise ReplayError(f"{where}: the replay stops at decision {replayer.next}: {exc}") from None
    return game, False


def _check_result(log: _Window, where: str, game: Game, replayer: _Replayer, number: int) -> dict:
    """The result line, which must come at line `number`, where the replay's game ended."""
    last = log[number]
    if isinstance(last, _Bad):
        raise replayer.first(number, last.message)
    if last is None:  # (a list of lines given by a caller)
        raise replayer.first(number, f"{where}:{number - 1}: expected the result last, as `amunre run --log` "
                                     f"writes (is the log cut short?)")
    if last["type"] == "event":
        raise replayer.first(number, f"{where}:{number}: the replay's game ends here, the log goes on with the "
                                     f"event {excerpt(last.get('event'), 40)} and what follows")
    if last["type"] == "incomplete":
        if replayer.complaint is not None:
            raise ReplayError(replayer.complaint[1])
        raise ReplayError(f"{where}:{number}: the log says the game stopped early, but its answers play it to the "
                          f"end (expected the result line)")
    fresh = result(game)
    if canonical(last) != canonical(fresh):
        raise replayer.first(number, _difference_message(where, number, last, fresh))
    return fresh


def _check_stop(log: _Window, where: str, game: Game, replayer: _Replayer, number: int) -> dict:
    """The `incomplete` line of a stopped game, which must come at line `number`, right
    after the last event the replay matched: every logged event came, every answer was used."""
    last = log[number]
    if isinstance(last, _Bad):
        raise replayer.first(number, last.message)
    if last is None or last["type"] != "incomplete":
        went_on = f"the event {excerpt(last.get('event'), 40)}" if last is not None else "more lines"
        raise replayer.first(number, f"{where}:{number}: the replay stops here (the game is over or waits for an "
                                     f"answer the log does not hold), the log goes on with {went_on} and what "
                                     f"follows")
    if replayer.complaint is not None:
        raise ReplayError(replayer.complaint[1])
    if game.state.finished:
        raise ReplayError(f"{where}:{number}: the log says the game stopped early, but its answers play it to the "
                          f"end (expected the result line)")
    end = {"type": "incomplete", "decisions": len(game.answers), "reason": last["reason"]}
    if canonical(last) != canonical(end):
        raise ReplayError(_difference_message(where, number, last, end))
    return end


class _Replayer:
    """Answers every seat from the log: a `human` seat's answer as logged (if legal), a
    bot seat's as its bot answers, which must be what the log holds.

    A seat's answer is the next answer line of the log, looked for from the line after the
    last one used: a few lines ahead of the line compared last in a secret batch (every
    seat is asked before the answers are revealed), and never more than `MAX_AHEAD` lines
    (or `MAX_AHEAD_BYTES`) ahead, so that a log without answers is not read whole.

    A wrong answer is kept as a complaint, and the game goes on with a stand-in (the bot's
    answer, or the first legal option): the lines are compared as they come, so whichever
    comes first, the complaint's line or a line that differs before it, is the one reported
    (an answer line whose `event` was edited hides it from the answers, and the next answer
    then looks wrong, but the edited line comes first)."""

    def __init__(self, log: _Window, agents: list[str], seed: int, where: str):
        from amunre.agents import make_agents

        self.where = where
        self.log = log
        self.cursor = 2  # where the next answer is looked for
        self.bots = [None if name == "human" else bot for name, bot in zip(agents, make_agents(agents, seed))]
        self.agents = agents
        self.next = 0  # answers given so far
        self.complaint: tuple[int, str] | None = None

    def seats(self) -> list:
        return [_Seat(self) for _ in self.agents]

    def complain(self, number: int, message: str) -> None:
        if self.complaint is None:
            self.complaint = (number, message)

    def first(self, number: int, message: str) -> ReplayError:
        """The error to report when line `number` differs: the complaint, if its line comes first."""
        if self.complaint is not None and self.complaint[0] <= number:
            return ReplayError(self.complaint[1])
        return ReplayError(message)

    def _answer_line(self, request) -> tuple[int, dict] | None:
        """(number, line) of the next answer in the log; None, after a complaint, when there
        is none to use; `_EndOfLog` where an incomplete log stops."""
        number = max(self.cursor, self.log.start)
        asked = f"decision {self.next + 1} ({excerpt(request.kind)} for player {request.player})"
        while True:
            line = self.log[number]
            if isinstance(line, _Bad):
                self.complain(number, line.message)
                return None
            if line is None or line["type"] == "result":
                self.complain(number, f"{self.where}:{number}: the log has no answer for {asked}, the replay asks "
                                      f"for one")
                return None
            if line["type"] == "incomplete":
                raise _EndOfLog()  # the game stopped here
            if line.get("event") == "answer":
                self.cursor = number + 1
                return number, line
            number += 1
            if number - self.log.start > MAX_AHEAD or self.log.kept_bytes() > MAX_AHEAD_BYTES:
                self.complain(number, f"{self.where}:{number}: no answer for {asked} in the {MAX_AHEAD} lines after "
                                      f"line {self.log.start - 1} (expected each answer within a few lines of its "
                                      f"decision, as `amunre run --log` writes)")
                return None

    def choose(self, view, request):
        bot = self.bots[request.player]
        mine = bot.choose(view, request) if bot is not None else None
        stand_in = mine if bot is not None else request.options[0]
        found = self._answer_line(request)
        self.next += 1
        if found is None:
            return stand_in
        number, line = found
        expected = {"type": "event", "event": "answer", "player": request.player, "kind": request.kind,
                    "options": len(request.options), "answer": line["answer"]}
        if canonical(line) != canonical(expected):
            self.complain(number, _difference_message(self.where, number, line, expected))
            return stand_in
        logged = canonical(line["answer"])
        if bot is not None:
            if canonical(to_json_value(mine)) != logged:
                self.complain(number,
                              f"{self.where}:{number}: answer: the log has {excerpt(line['answer'])}, but player "
                              f"{request.player} is the bot {self.agents[request.player]!r}, which answers "
                              f"{excerpt(to_json_value(mine))} (a bot's answers are replayed, not read from the log)")
            return mine
        for option in request.options:
            if canonical(to_json_value(option)) == logged:
                return option  # the engine's own value, never the log's
        shown = ", ".join(excerpt(to_json_value(o), 30) for o in request.options[:3])
        self.complain(number, f"{self.where}:{number}: answer: {excerpt(line['answer'])} is not a legal answer to "
                              f"{excerpt(request.kind)} for player {request.player} (expected one of its "
                              f"{len(request.options)} options, such as {shown})")
        return stand_in


class _EndOfLog(Exception):
    """The replay of an incomplete log reached the point where the game was stopped."""


class _Seat:
    def __init__(self, replayer: _Replayer):
        self.choose = replayer.choose


class _Comparer:
    """Listener that compares each event, as it happens, with the logged line it must be,
    and lets the log forget the lines compared."""

    def __init__(self, log: _Window, where: str, replayer: _Replayer):
        self.log = log
        self.where = where
        self.replayer = replayer
        self.events: list[dict] = []  # the replay's own: as many as the game has, whatever the log holds
        self.cut: dict | None = None  # the event an incomplete log stops before

    def __call__(self, event: dict) -> None:
        number = len(self.events) + 2  # the header is line 1
        fresh = {"type": "event", **event}
        logged = self.log[number]
        if isinstance(logged, _Bad):
            raise self.replayer.first(number, logged.message)
        if logged is None:  # (a list of lines given by a caller)
            raise self.replayer.first(number, f"{self.where}:{number - 1}: expected the result last, as `amunre "
                                              f"run --log` writes (is the log cut short?)")
        if logged["type"] == "incomplete":
            self.cut = event  # the game stopped before this event
            raise _EndOfLog()
        if logged["type"] != "event":
            raise self.replayer.first(number, f"{self.where}:{number}: the log ends here, the replay goes on with "
                                              f"the event {excerpt(fresh.get('event'), 40)}")
        if canonical(logged) != canonical(fresh):
            raise self.replayer.first(number, _difference_message(self.where, number, logged, fresh))
        self.events.append(event)
        self.log.release(number)


def replay_lines(lines: list[dict], source: str = "log", variant=None,
                 verify_agents: bool = True) -> tuple[Game, list[dict]]:
    """Re-run a logged game (lines as `read_log` returns them); `ReplayError` at the first
    line that differs. `variant` is what the caller gives to play with (a Variant, a shipped
    id or a path: `amunre replay --variant`); without it only a shipped variant replays.
    `verify_agents=False` takes every seat's answers from the log, as a human seat's (for a
    harness that checks the bots' determinism itself). Returns the replayed game and its
    lines, header included."""
    return _replay(_Window((line, 0) for line in lines), label(source), variant, verify_agents)


def replay_log(path, variant=None, verify_agents: bool = True) -> tuple[Game, list[dict]]:
    """`replay_lines` of a log file, read line by line as the replay goes: it stops at the
    first line that differs (or cannot be read), having read only up to it, and the memory
    it takes does not grow with the log's length. Returns the game and the replay's lines,
    which are the log's (compared equal as canonical JSON)."""
    log = _Window(_sized_lines(path))
    try:
        return _replay(log, label(path), variant, verify_agents)
    finally:
        log.close()
