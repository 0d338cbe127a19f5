"""What a board picture shows, and a logged game replayed decision by decision.

A `Snapshot` is the public face of one position, as plain tuples (cheap to compare and to
use as a cache key): where the game stands, the offering level, each province's owner and
pieces, each player's gold, hand size, theft cards and points, the provinces on auction
with the bid markers on them. It never holds a hand's cards or the draw pile.

`log_steps` replays a log (checked first, line by line, by `amunre.gamelog.replay_lines`)
and takes a snapshot after each decision: step 0 is the position when the first decision
is asked, step k the position after k decisions, the last step the end of the game (or,
for an incomplete log, where it stopped). Each step keeps the play-by-play lines of what
happened on the way to it, in the variant's words.
"""

from __future__ import annotations

from typing import NamedTuple

from amunre.core.engine import Game
from amunre.core.facets import PictureFacet
from amunre.core.words import Narrator, Words, describe_option, player_names
from amunre.gamelog import replay_lines


class Snapshot(NamedTuple):
    """The public face of a position (see the module docstring)."""

    where: str  # kingdom, round and phase, in words
    level: int  # offering level, 0 before the first offering (or where no module publishes one)
    start_player: int
    #: per province: (owner or None, farmers, free farmers, stones, pyramids, doubles,
    #: face-down cards lying on it, gold lying on it)
    provinces: tuple[tuple, ...]
    #: per player: (gold, hand size, theft cards, points)
    players: tuple[tuple[int, int, int, int], ...]
    on_auction: tuple[int, ...]
    #: bid markers on the provinces on auction: (player, province, amount, note)
    markers: tuple[tuple[int, int, int, str], ...]
    finished: bool
    winners: tuple[int, ...]
    #: per province: what the rule modules tell of it as a spectator sees it
    #: (`WordsFacet.province_facts`: the harvest's income), in the variant's words
    facts: tuple[tuple[str, ...], ...] = ()


class Step(NamedTuple):
    """The position after one more decision of a logged game."""

    snapshot: Snapshot
    #: the play-by-play lines of what happened on the way here
    lines: tuple[str, ...]
    #: the decision answered to get here, in words ("red: bid 3 on Abu"); None for step 0
    decision: str | None
    #: counters of the phases and rounds begun so far (a kingdom's scoring is a phase and
    #: a round of its own), for the viewer's "next phase" and "next round"
    phase: int
    round: int


class LoggedGame(NamedTuple):
    variant: object
    names: list[str]
    steps: list[Step]
    seed: int
    #: decisions in the log (the last step's number)
    decisions: int
    #: the log's last line: the result (scores, winners) or `incomplete`
    end: dict


def where_text(variant, state, phase_name: str) -> str:
    """Where the game stands: "Old Kingdom, round 2 of 3: phase 2: acquire the available
    provinces", "New Kingdom: scoring", "game over"."""
    edition = variant.edition
    k = state.kingdom
    kingdom = edition.kingdoms[k] if 0 <= k < len(edition.kingdoms) else f"kingdom {k + 1}"
    if phase_name == "position":
        return f"{kingdom}, a position"
    if phase_name == "game over":
        return "game over"
    if phase_name == "final scoring":
        return variant.term("final_scoring")
    if phase_name == "scoring":
        return f"{kingdom}: {variant.term('scoring')}"
    return f"{kingdom}, round {state.round + 1} of {edition.rounds_per_kingdom}: {phase_name}"


def snapshot(variant, state, phase_name: str, markers: dict | None = None, game=None) -> Snapshot:
    """The public face of `state` (`markers`: the rule modules' `table_markers`; `game`: the
    game standing there, for what the modules tell of each province, else one is made)."""
    # what the rule modules publish, by name: where none does, none is shown
    published = variant.modules.published
    on_auction = tuple(published(state, "on_auction", ()))
    theft = published(state, "theft_cards") or [0] * state.n_players
    shown = tuple(sorted((player, *mark) for player, mark in (markers or {}).items() if mark[0] in on_auction))
    return Snapshot(
        where=where_text(variant, state, phase_name),
        level=published(state, "offering_level", 0),
        start_player=state.start_player,
        provinces=tuple((p.owner, p.farmers, p.free_farmers, p.stones, p.pyramids, p.doubles, len(p.cards), p.gold)
                        for p in state.provinces),
        players=tuple((p.gold, sum(p.hand), held, p.score) for p, held in zip(state.players, theft)),
        on_auction=on_auction,
        markers=shown,
        finished=bool(state.finished),
        winners=tuple(state.winners),
        facts=_facts(variant, Game.from_state(variant, state) if game is None else game),
    )


def _facts(variant, game) -> tuple[tuple[str, ...], ...]:
    """What the rule modules tell of each province, as a spectator sees it: a view of no seat
    (`PlayerView(game, None)`: the public board, no hand, no module data of a seat)."""
    from amunre.core.boardtext import province_facts
    from amunre.core.view import PlayerView

    view = PlayerView(game, None)
    words = Words(variant, player_names(game.state.n_players))
    return tuple(tuple(province_facts(view, pid, words)) for pid in range(len(variant.board)))


def position_snapshot(variant, position) -> Snapshot:
    """The snapshot of a position file (`amunre.planning.position.Position`)."""
    return snapshot(variant, position.state, "position")


class Follower:
    """Listener of a game followed for its picture (the stepping replay, a table of `amunre
    serve`): the play-by-play lines, the table markers and the phase and round counters."""

    def __init__(self, variant, names: list[str], hide_seed: bool = False):
        self.lines: list[str] = []
        self.narrator = Narrator(variant, self._write, names, hide_seed=hide_seed)
        self.markers: dict = {}
        self.marking = [m for m in variant.modules.all if isinstance(m, PictureFacet)]
        self.phase = self.round = 0

    def _write(self, text: str) -> None:
        self.lines.extend(part for part in text.split("\n") if part.strip())

    def __call__(self, event: dict) -> None:
        name = event["event"]
        if name in ("phase", "scoring", "final_scoring"):
            self.phase += 1
        if name in ("round", "scoring", "final_scoring"):
            self.round += 1
        for module in self.marking:
            module.table_markers(event, self.markers)
        self.narrator(event)

    def take_lines(self) -> tuple[str, ...]:
        lines, self.lines = tuple(self.lines), []
        return lines


def log_steps(lines: list[dict], source: str = "log", variant=None, upto: int | None = None,
              checked: Game | None = None) -> LoggedGame:
    """Check a log (`replay_lines`: `ReplayError` at its first wrong line), then replay it
    decision by decision: a `Step` per decision, up to step `upto` (default: all).
    `checked`: the game `replay_lines` already made of these lines (not checked again)."""
    if checked is None:
        checked, _ = replay_lines(lines, source, variant=variant)
    variant = checked.variant
    names = player_names(checked.n_players)
    answers = list(checked.answers_so_far())
    follower = Follower(variant, names)
    words = Words(variant, names)
    game = Game(variant, checked.n_players, checked.seed, [follower])
    steps = [Step(snapshot(variant, game.state, game.phase_name, follower.markers, game), follower.take_lines(), None,
                  follower.phase, follower.round)]
    last = len(answers) if upto is None else min(upto, len(answers))
    for answer in answers[:last]:
        request = game.pending
        if request.simultaneous:
            said = f"{names[request.player]} answers in secret (revealed when all have answered)"
        else:
            said = f"{names[request.player]}: {describe_option(words, request.kind, answer)}"
        game.answer(answer)
        steps.append(Step(snapshot(variant, game.state, game.phase_name, follower.markers, game),
                          follower.take_lines(), said, follower.phase, follower.round))
    return LoggedGame(variant, names, steps, checked.seed, len(answers), lines[-1])
