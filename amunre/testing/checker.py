"""`GameChecker`: drives one game and checks every invariant of the package docstring at every step."""

from __future__ import annotations

import json

from amunre.core.decisions import from_json_value, to_json_value
from amunre.core.engine import Game, _is_option
from amunre.core.errors import AmunreError, IllegalAnswerError
from amunre.core.model import Variant
from amunre.core.state import GameState
from amunre.gamelog import Recorder, dumps_lines, log_lines, replay_lines

#: Built-in agents whose answer reads the view: [views] checks that it is the same in two games
#: the seat cannot tell apart.
VIEW_READING_AGENTS = ("greedy", "planner")

#: Events emitted between two rules run: the state is whole when they arrive.
BOUNDARY_EVENTS = frozenset({"phase", "round", "kingdom", "scoring", "final_scoring", "game_end"})


class ConformanceError(AssertionError):
    """An invariant failed. The message says where, and how to rerun that game."""

    def __init__(self, message: str, invariant: str = ""):
        super().__init__(message)
        self.invariant = invariant



def _public(events: list[dict]) -> list[dict]:
    """Events as the table sees them: phase headings and decision bookkeeping left out."""
    return [{k: v for k, v in e.items() if k != "options"} for e in events if e["event"] not in ("phase", "decision")]


def _key(value) -> str:
    """Type-exact identity of an answer as the log records it (True != 1 != 1.0)."""
    return json.dumps(to_json_value(value), sort_keys=True)


def _replays(game: Game, answers: list, rng=None, redraw: list = (), keep: int | None = None) -> bool:
    """Whether `game` takes these (answer, (player, kind)) in order, each asked of the same
    player and kind and each legal; then `redraw`'s decisions (the others' sealed answers of
    a batch under way) are answered with options drawn by `rng`, each asked of the same
    player and kind, but player `keep`'s own (he knows them), given again."""
    for answer, asked in answers:
        request = game.pending
        if request is None or (request.player, request.kind) != asked:
            return False
        try:
            game.answer(answer)
        except IllegalAnswerError:
            return False
    for answer, asked in redraw:
        request = game.pending
        if request is None or (request.player, request.kind) != asked:
            return False
        if request.player == keep:
            try:
                game.answer(answer)
            except IllegalAnswerError:
                return False
            continue
        game.answer(request.options[rng.randrange(len(request.options))])
    return True


def _differing(before, after, path: str = "", most: int = 6) -> list[str]:
    """Where two plain values differ, as paths (`state.rules.scoring:tally.runs`), at most `most`."""
    if isinstance(before, dict) and isinstance(after, dict):
        found: list[str] = []
        for key in list(before) + [k for k in after if k not in before]:
            if before.get(key, _MISSING) != after.get(key, _MISSING):
                found += _differing(before.get(key), after.get(key), f"{path}.{key}" if path else str(key), most)
            if len(found) >= most:
                break
        return found[:most]
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        found = []
        for index, (mine, theirs) in enumerate(zip(before, after)):
            if mine != theirs:
                found += _differing(mine, theirs, f"{path}[{index}]", most)
            if len(found) >= most:
                break
        return found[:most]
    return [path or "the whole"]


#: A key one of two dicts lacks (`_differing`).
_MISSING = object()


def _rng(seed: int):
    import random

    return random.Random(seed)


def _options_key(request) -> list[str]:
    """A request's options, type-exact, for comparing two requests."""
    return [_key(o) for o in request.options]


def _context_key(request) -> str:
    """A request's context, for comparing two requests."""
    return json.dumps(dict(request.context), sort_keys=True, default=repr)


class _CheckedGame(Game):
    """A plain Game that its checker can see while the constructor already plays the setup."""

    def __init__(self, checker, *args):
        checker.game = self
        super().__init__(*args)


class GameChecker:
    """Drives one Game and checks every invariant at every step.

    Use `step(choice)` instead of `game.answer(choice)`; call `check()` whenever a decision
    is pending (step does it for the next one), and `finish()` once the game is over.
    `illegal_every` / `roundtrip_every`: check illegal answers / the JSON round trip at every
    n-th decision (0: never). `counterfactual`: replay simultaneous batches with another
    first answer.
    """

    def __init__(self, variant: Variant, n_players: int, seed: int, agent: str = "?",
                 illegal_every: int = 7, roundtrip_every: int = 50, counterfactual: bool = True,
                 max_decisions: int = 20000, views_every: int = 13, every_seat: bool = False, pages=None):
        self.variant = variant
        self.n = n_players
        self.seed = seed
        self.agent = agent
        self.illegal_every = illegal_every
        self.roundtrip_every = roundtrip_every
        self.counterfactual = counterfactual
        self.max_decisions = max_decisions
        self.views_every = views_every
        #: [views] for every seat, not only the one asked (a harness showing pages to all)
        self.every_seat = every_seat
        #: `pages(same, same_events, alt, alt_events, seat)`: a harness's own check of what a
        #: seat is shown beyond its view (the pages of `amunre serve`), in two games rebuilt
        #: from the phase's start that the seat cannot tell apart (the true one, and one with
        #: what it may not know re-drawn) with their events: what differs, or None
        self.pages = pages
        self.view_checks = 0  # decisions whose view and request were compared with a hidden re-draw
        self.view_skips = 0  # re-draws the player could have told apart (another player's public act)
        # (state, rules, one phase?, answers before, events before) at the start of the running phase
        self._checkpoint = None
        self.asked: list[tuple[int, str]] = []  # (player, kind) of every decision, in order
        comp = variant.components
        self.start_gold = comp.starting_gold
        self.deck = [comp.deck.get(kind, 0) for kind in variant.cards]
        self.events: list[dict] = []
        self._event: str | None = None  # the boundary event being checked, if any
        # ledgers kept from the events
        self.paid = [0] * n_players
        self.received = [0] * n_players
        self.rounds_started = 0
        self.kingdoms_seen = 0
        self.rounds_seen = 0
        self.scorings = 0
        self.level_seen = False
        self.in_scoring = False
        self.last_scores = [0] * n_players
        # counts
        self.decisions = 0
        self.illegal_checks = 0
        self.batches = 0
        self.counterfactuals = 0
        self._batch: list[tuple[int, int]] | None = None  # (decision index, player) of the open batch
        self._batch_kind = None
        self.max_level = variant.modules.max_offering_level or 0  # 0: no phase sets a level
        # the invariants the rule modules declare on their own events (`Event.check`)
        self.event_checks = {name: event.check for module in variant.modules.all
                             for name, event in module.events.items() if event.check is not None}
        self.game: Game = _CheckedGame(self, variant, n_players, seed, [self._on_event])
        if self.game.pending is not None:
            self.check()

    # -- reporting ----------------------------------------------------------------------
    def fail(self, invariant: str, detail: str):
        game = self.game
        request = game.pending
        if self._event is not None:  # raised by a listener, while the engine runs
            where = f"after {len(game.answers_so_far())} decisions, at the {self._event!r} event ({game.phase_name})"
        elif request is not None:
            where = (f"decision {len(game.answers_so_far()) + 1} ({game.phase_name}: {request.kind!r} "
                     f"for player {request.player})")
        else:
            where = f"after {len(game.answers_so_far())} decisions ({game.phase_name})"
        source = self.variant.source or self.variant.id
        if self.agent in ("random", "greedy"):
            rerun = f"amunre run --variant {source} --players {self.n} --seed {self.seed} --agents {self.agent}"
        else:
            shown = json.dumps([to_json_value(a) for a in game.answers_so_far()])
            rerun = f"Game(load({source!r}), {self.n}, {self.seed}) answered with {shown}"
        raise ConformanceError(
            f"{self.variant.id} [{source}], {self.n} players, agents {self.agent}, seed {self.seed}, {where}: "
            f"invariant [{invariant}] failed: {detail}\n  rerun: {rerun}",
            invariant,
        )

    # -- events -------------------------------------------------------------------------
    def _on_event(self, event: dict) -> None:
        self.events.append(event)
        kind = event["event"]
        check = self.event_checks.get(kind)
        if check is not None:
            try:
                problem = check(event, self.game.state)
            except Exception as error:  # noqa: BLE001 - a module's check is the module's code
                self.fail(kind, f"its check raised {type(error).__name__}: {error}")
            if problem is not None and not isinstance(problem, str):
                self.fail(kind, f"its check returned {problem!r} (expected a message of what is wrong, or None)")
            if problem:
                self.fail(kind, problem)
        if kind == "pay":
            self.paid[event["player"]] += event["amount"]
        elif kind == "gold":
            self.received[event["player"]] += event["amount"]
        elif kind in BOUNDARY_EVENTS:
            self._event = kind
            try:
                self._on_boundary(kind, event)
            finally:
                self._event = None
            if self.views_every and kind in ("phase", "scoring", "final_scoring"):
                self._mark_checkpoint(kind, event)

    def _check_what_modules_show(self) -> None:
        """What each module tells of each province (`Rule.province_facts`), as a seat sees it,
        is a list of phrases: asked once a round, as the human seat and the picture ask it; and
        the fields its observation declares are in its data as a seat sees it."""
        from amunre.core.boardtext import province_facts
        from amunre.core.errors import RuleModuleError
        from amunre.core.words import Words, player_names

        game = self.game
        words = Words(self.variant, player_names(game.n_players))
        try:
            for pid in range(len(self.variant.board)):
                province_facts(game.view(0), pid, words)
        except RuleModuleError as error:
            self.fail("contract", str(error))
        # and each field its observation declares is in its data as a seat sees it
        shown = game.view(0).rules
        for module in self.variant.modules.stateful:
            missing = sorted(set(module.observation) - set(shown.get(module.key) or {}))
            if missing:
                self.fail("contract", f"rule module {module.id!r} declares the observation fields {missing}, which "
                                      f"its data as a seat sees it (view_state) does not hold")

    def _on_boundary(self, kind: str, event: dict) -> None:
        state = self.game.state
        owned = [len(p.provinces) for p in state.players]
        if kind == "kingdom":
            self.kingdoms_seen += 1
            self.rounds_started = 0
            self.in_scoring = False
            if any(owned) or any(p.owner is not None for p in state.provinces):
                self.fail("transition", f"a new kingdom starts with provinces owned (counts {owned})")
            if any(p.farmers or p.free_farmers for p in state.provinces):
                self.fail("transition", "a new kingdom starts with farmers on the board")
        elif kind == "round":
            self.rounds_seen += 1
            self._check_what_modules_show()
            if any(c != self.rounds_started for c in owned):
                self.fail("province-count", f"round {self.rounds_started + 1} starts with province counts "
                                            f"{owned}, expected {self.rounds_started} each")
            self.rounds_started += 1
        elif kind == "scoring":
            self.scorings += 1
            self.in_scoring = True
            need = self.variant.edition.rounds_per_kingdom
            if self.rounds_started != need:
                self.fail("scoring-count", f"scoring after {self.rounds_started} rounds, expected {need}")
            if any(c != need for c in owned):
                self.fail("scoring-count", f"at the scoring the players hold {owned} provinces, expected {need} each")
        elif kind == "final_scoring":
            self.in_scoring = True
        if len(set(owned)) > 1:
            self.fail("province-count", f"at a phase boundary ({kind}) the players hold {owned} provinces")
        self.check_state()

    def _mark_checkpoint(self, kind: str, event: dict) -> None:
        """Keep the state where the running phase (or scoring) starts, to replay it re-drawn."""
        game = self.game
        modules = game.variant.modules
        if kind == "phase":
            steps = next((s for pid, _, s in modules.round_phases if pid == event["rule"]), None)
            if steps is None:
                self._checkpoint = None
                return
            rules, one_phase = steps, True
        else:
            rules, one_phase = (modules.scoring if kind == "scoring" else modules.final_scoring), False
        self._checkpoint = (game.state.clone(), rules, one_phase, len(game.answers_so_far()), len(self.events))

    # -- the checks ---------------------------------------------------------------------
    def check_views(self) -> None:
        """[views]: re-draw what the asked player may not know at the start of this phase (the
        game's seed too), replay the phase with the same answers (the other players' sealed
        answers of a batch under way drawn again), and compare what he is handed: his view,
        his request, what his agent answers, and `sample_game()` of both games for the same
        generator, in full (`holdings`), and clones of those samples. With `every_seat`, the
        same for each other seat: his view, and what `pages` compares."""
        request = self.game.pending
        seats = [request.player]
        if self.every_seat:
            seats += [seat for seat in range(self.n) if seat != request.player]
        for seat in seats:
            self._check_views_of(seat)

    def _check_views_of(self, player: int) -> None:
        """[views] for one seat (see `check_views`): the one asked, or another."""
        import random

        from amunre.core.view import hide_from

        game, request = self.game, self.game.pending
        start, rules, one_phase, answered, seen = self._checkpoint
        asked_now = player == request.player
        mine = game.view(player).to_dict()
        mine.pop("phase")  # flow data: the replay names its phase differently
        asked = (_options_key(request), _context_key(request))
        answers = list(zip(game.answers_so_far()[answered:], self.asked[answered:]))
        sealed = len(game._sealed)  # the others' secret answers of the batch under way
        public = _public(self.events[seen:])
        rng = random.Random(self.seed * 7919 + len(game.answers_so_far()) + 104729 * player)
        for everything in (True, False):  # other hands too; else only the deck, face-down cards, rng, rules
            state = start.clone()
            hide_from(self.variant, state, player, rng, cards=everything)
            state.seed = rng.getrandbits(63)  # the seed too: the others' bots follow from it
            events: list = []
            alt = Game.from_state(self.variant, state, [events.append])
            alt.run_rules(rules, one_phase=one_phase)
            if not _replays(alt, answers[:len(answers) - sealed], rng, redraw=answers[len(answers) - sealed:],
                            keep=player):
                continue  # the others could not have acted so, or were asked otherwise: not the same game
            theirs = alt.pending
            if (_public(events) != public or alt.view(player).hand != game.view(player).hand
                    or theirs is None or (theirs.player, theirs.kind) != (request.player, request.kind)):
                continue  # he saw another public act, drew other cards himself, or another is asked now
            if asked_now and (_options_key(theirs), _context_key(theirs)) != asked:
                self.fail("views", f"player {player}'s request changes when only what he may not know is "
                                   f"re-drawn: {request!r} vs {theirs!r}")
            other = alt.view(player).to_dict()
            other.pop("phase")
            if other != mine:
                diff = sorted(k for k in mine if mine[k] != other.get(k))
                self.fail("views", f"player {player}'s view changes when only what he may not know is "
                                   f"re-drawn (differs in: {', '.join(diff)})")
            same, same_events = self._rebuilt(start, rules, one_phase, answers)
            if asked_now:
                self._check_handed(player, same, alt)
            if self.pages is not None:
                problem = self.pages(same, same_events, alt, events, player)
                if problem:
                    self.fail("views", f"what player {player} is shown differs when only what he may not know is "
                                       f"re-drawn: {problem}")
            self.view_checks += 1
            return
        self.view_skips += 1

    def _rebuilt(self, start, rules, one_phase: bool, answers: list) -> tuple[Game, list]:
        """This game rebuilt as a re-drawn one is, from the phase's start, so that both are
        made alike; and its events since."""
        events: list = []
        same = Game.from_state(self.variant, start.clone(), [events.append])
        same.run_rules(rules, one_phase=one_phase)
        if not _replays(same, answers):
            self.fail("views", "the phase does not replay from its start with the same answers")
        return same, events

    def _check_handed(self, player: int, same: Game, alt: Game) -> None:
        """What a search agent is handed is the same in two games he cannot tell apart: this
        one (`same`, rebuilt as `alt` was) and `alt`. His agent's answer, `sample_game()` for
        the same generator in full, and a clone of each sample."""
        from amunre.agents import make_agent
        from amunre.testing.holdings import holdings

        # random's answer follows from its generator and the options alone, compared above
        if self.agent in VIEW_READING_AGENTS:
            a, b = (make_agent(self.agent, self.seed, player) for _ in range(2))
            if _key(a.choose(same.view(player), same.pending)) != _key(b.choose(alt.view(player), alt.pending)):
                self.fail("views", f"player {player}'s agent ({self.agent}) answers otherwise when only what he "
                                   "may not know is re-drawn")
        k = self.seed * 31 + len(same.answers_so_far())
        ours, theirs = same.view(player).sample_game(_rng(k)), alt.view(player).sample_game(_rng(k))
        for what, x, y in (("sample_game()", ours, theirs), ("a clone of sample_game()", ours.clone(), theirs.clone())):
            mine, other = holdings(x), holdings(y)
            if mine != other:
                diff = sorted(name for name in mine if mine[name] != other.get(name))
                self.fail("views", f"{what} for player {player} differs when only what he may not know is "
                                   f"re-drawn (in: {', '.join(diff)}): it carries a hidden fact")

    def check_state(self) -> None:
        """Conservation and structure: cheap enough for every step."""
        state, comp, n = self.game.state, self.variant.components, self.n
        players = state.players
        # gold
        golds = [p.gold for p in players]
        if any(g < 0 for g in golds):
            self.fail("gold-negative", f"player gold {golds}")
        expected = self.start_gold * n + state.bank_given - state.bank_paid
        if sum(golds) != expected:
            self.fail("gold-bank", f"players hold {sum(golds)} gold but starting gold {self.start_gold}x{n} "
                                   f"+ given {state.bank_given} - paid {state.bank_paid} = {expected}")
        if sum(self.paid) != state.bank_paid or sum(self.received) != state.bank_given:
            self.fail("gold-events", f"events report {sum(self.paid)} paid and {sum(self.received)} given, the "
                                     f"bank counted {state.bank_paid} paid and {state.bank_given} given")
        for i, p in enumerate(players):
            if p.gold != self.start_gold + self.received[i] - self.paid[i]:
                self.fail("gold-player", f"player {i} holds {p.gold} gold, the events say "
                                         f"{self.start_gold} + {self.received[i]} - {self.paid[i]}")
        provs = state.provinces
        if any(pr.gold < 0 for pr in provs):
            self.fail("gold-negative", "negative gold lying on a province")
        # cards, kind by kind
        variant_cards = self.variant.cards
        counts = [0] * len(variant_cards)
        for pile in (state.deck, state.discard, state.in_play):
            for card in pile:
                counts[card] += 1
        for pr in provs:
            for card in pr.cards:
                counts[card] += 1
        for i, p in enumerate(players):
            if any(c < 0 for c in p.hand):
                self.fail("cards", f"player {i} holds a negative number of cards: {p.hand}")
            for k, c in enumerate(p.hand):
                counts[k] += c
            if not 0 <= p.theft <= comp.theft_cards_per_player:
                self.fail("theft", f"player {i} holds {p.theft} theft cards (0..{comp.theft_cards_per_player})")
        if counts != self.deck:
            diff = {variant_cards[k]: counts[k] - self.deck[k] for k in range(len(counts)) if counts[k] != self.deck[k]}
            self.fail("cards", f"cards found minus cards in the deck, by kind: {diff} "
                               f"({sum(counts)} found, deck size {comp.deck_size})")
        # pieces
        board = self.variant.board.provinces
        farmers = sum(pr.farmers + pr.free_farmers for pr in provs)
        stones = sum(pr.stones for pr in provs)
        singles = sum(pr.pyramids for pr in provs)
        doubles = sum(pr.doubles for pr in provs)
        pieces = (("farmers", farmers, state.supply_farmers, comp.farmers),
                  ("stones", stones, state.supply_stones, comp.stones),
                  ("pyramids", singles, state.supply_pyramids, comp.pyramids),
                  ("double pyramids", doubles, state.supply_doubles, comp.double_pyramids))
        finite = self.variant.rulings.finite_supply
        for name, on_board, supply, total in pieces:
            if supply < 0 or on_board < 0:
                self.fail("supply", f"{name}: {on_board} on the board, {supply} in the supply")
            if finite and on_board + supply != total:
                self.fail("supply", f"{name}: {on_board} on the board + {supply} in the supply != {total}")
        for i, pr in enumerate(provs):
            if min(pr.farmers, pr.free_farmers, pr.stones, pr.pyramids, pr.doubles) < 0:
                self.fail("supply", f"negative pieces in province {i} ({board[i].name})")
            if pr.farmers > board[i].fields:
                self.fail("fields", f"{pr.farmers} farmers on the {board[i].fields} fields of {board[i].name}")
            if pr.owner is None and (pr.farmers or pr.free_farmers):
                self.fail("fields", f"farmers stand in {board[i].name}, which nobody owns")
        # provinces
        seen = {}
        for i, p in enumerate(players):
            for pid in p.provinces:
                if pid in seen:
                    self.fail("provinces", f"province {pid} held by players {seen[pid]} and {i}")
                seen[pid] = i
                if provs[pid].owner != i:
                    self.fail("provinces", f"player {i} lists {board[pid].name} but its owner is {provs[pid].owner}")
        for pid, pr in enumerate(provs):
            if pr.owner is not None and seen.get(pid) != pr.owner:
                self.fail("provinces", f"{board[pid].name} is owned by {pr.owner} but not in their list")
        owned = [len(p.provinces) for p in players]
        if self.in_scoring:
            need = self.variant.edition.rounds_per_kingdom
            if any(c != need for c in owned):
                self.fail("scoring-count", f"during the scoring the players hold {owned} provinces, expected {need}")
        elif self.rounds_started and any(c not in (self.rounds_started - 1, self.rounds_started) for c in owned):
            self.fail("province-count", f"in round {self.rounds_started} the players hold {owned} provinces")
        # level, start player, indexes
        level = state.offering_level
        self.level_seen = self.level_seen or level >= 1  # once set, a level never returns to none
        low = 1 if self.level_seen else 0
        high = self.max_level
        if not low <= level <= high:
            self.fail("level", f"offering level {level}, expected {low}..{high}")
        if not 0 <= state.start_player < n:
            self.fail("start-player", f"start player {state.start_player} with {n} players")
        edition = self.variant.edition
        if not 0 <= state.kingdom < len(edition.kingdoms) or not 0 <= state.round < edition.rounds_per_kingdom:
            self.fail("start-player", f"kingdom {state.kingdom}, round {state.round} out of range")
        # scores
        for i, p in enumerate(players):
            if p.score < self.last_scores[i]:
                self.fail("score", f"player {i}'s score fell from {self.last_scores[i]} to {p.score}")
            if p.score != sum(p.breakdown.values()):
                self.fail("score", f"player {i} scores {p.score} but the breakdown adds up to "
                                   f"{sum(p.breakdown.values())}")
            self.last_scores[i] = p.score

    def check(self) -> None:
        """Everything checked while a decision is pending."""
        game = self.game
        request = game.pending
        step = len(game.answers_so_far())
        if step > self.max_decisions:
            self.fail("game-shape", f"no end after {self.max_decisions} decisions")
        if not 0 <= request.player < self.n:
            self.fail("options", f"decision for player {request.player}")
        options = request.options
        if not options:
            self.fail("options", "a decision is asked with no legal option")
        self.check_state()
        if self.illegal_every and step % self.illegal_every == 0:
            self.check_illegal(self.check_options())
        if self.roundtrip_every and step % self.roundtrip_every == 0:
            self.check_roundtrip()
        if self.views_every and step % self.views_every == 0 and self._checkpoint is not None:
            self.check_views()

    def check_options(self) -> list[str]:
        """Options are distinct and survive the log's JSON round trip; returns their keys."""
        keys = _options_key(self.game.pending)
        if len(set(keys)) != len(keys):
            self.fail("options", f"duplicate options: {sorted({k for k in keys if keys.count(k) > 1})[:5]}")
        for option, key in zip(self.game.pending.options, keys):
            back = from_json_value(json.loads(key))
            if _key(back) != key or back != option:
                self.fail("options", f"option {option!r} does not survive the log's JSON round trip")
        return keys

    def illegal_candidates(self, keys: list[str]) -> list:
        """Answers that are not options: foreign values, wrong types, out-of-range numbers."""
        options = self.game.pending.options
        candidates: list = [("not-an-option",), "not-an-option", -1, 10**6]
        sample = next((o for o in options if o is not None), None)
        if sample is None or isinstance(sample, bool):
            candidates += [0, "None"]
        elif isinstance(sample, int):
            top = max(o for o in options if isinstance(o, int) and not isinstance(o, bool))
            candidates += [float(sample), str(sample), True, top + 1000]
        elif isinstance(sample, str):
            candidates += [(sample,), sample.upper() + "?"]
        elif isinstance(sample, tuple):
            candidates += [tuple(str(x) for x in sample), sample + (0,), sample[:-1]]
            if sample and isinstance(sample[0], int):
                candidates.append((sample[0] + 1000,) + sample[1:])
                candidates.append((float(sample[0]),) + sample[1:])
        known = set(keys)
        return [c for c in candidates if _key(c) not in known]

    def check_illegal(self, keys: list[str]) -> None:
        game = self.game
        request = game.pending
        before = game.state.to_dict()
        answers = len(game.answers_so_far())
        tried = []
        for bad in self.illegal_candidates(keys):
            self.illegal_checks += 1
            tried.append(bad)
            try:
                game.answer(bad)
            except IllegalAnswerError:
                pass
            except ConformanceError:
                raise
            except Exception as exc:  # noqa: BLE001 - any other error is the violation
                self.fail("illegal-answer", f"answer {bad!r} raised {type(exc).__name__}: {exc} "
                                            f"instead of IllegalAnswerError")
            else:
                self.fail("illegal-answer", f"answer {bad!r} was accepted")
            if game.pending is not request or len(game.answers_so_far()) != answers:
                self.fail("illegal-answer", f"answer {bad!r} was refused but moved the game on")
        if game.state.to_dict() != before:
            self.fail("illegal-answer", f"the refused answers {tried!r} changed the state")

    def check_roundtrip(self) -> None:
        state = self.game.state
        data = state.to_dict()
        text = json.dumps(data, sort_keys=True)
        again = GameState.from_dict(json.loads(text))
        if json.dumps(again.to_dict(), sort_keys=True) != text:
            self.fail("round-trip", "GameState.from_dict(json(to_dict())) differs from the state")
        if state.clone() != state:
            self.fail("round-trip", "state.clone() differs from the state")

    # -- asking an agent ----------------------------------------------------------------
    def ask(self, agent) -> object:
        """[untouched]: `agent`'s answer to the pending decision, from its seat's view; the
        game must be as it was before `agent.choose` ran: its state in full (players,
        provinces, supplies, piles, every rule module's data, the random streams' counters:
        `GameState.to_dict()`), the pending request (player, kind, options, context) and every
        answer given, sealed ones too. An agent may think on anything it is handed, never on
        the game itself."""
        game = self.game
        request = game.pending
        before = self._whole()
        try:
            choice = agent.choose(game.view(request.player), request)
        except KeyboardInterrupt:
            raise  # (Ctrl-C stops the check)
        except BaseException as error:  # noqa: BLE001 - the agent's bug (sys.exit too), its failure, not amunre's
            self.fail("agent", f"the agent ({self.agent}) of player {request.player} raised "
                               f"{type(error).__name__}: {_shown(error, str)}")
        after = self._whole()
        if after != before:
            self.fail("untouched", f"the agent ({self.agent}) of player {request.player} changed the game while "
                                   f"choosing: {', '.join(_differing(before, after))} differ before and after its "
                                   "choose()")
        try:
            legal = _is_option(choice, request.options)
        except Exception:  # noqa: BLE001 - an answer that cannot even be compared (its __eq__ raises): no option
            legal = False
        if not legal:
            self.fail("agent", f"the agent ({self.agent}) of player {request.player} answered "
                               f"{_shown(choice)}, which is not one of the options of {request.kind!r}")
        return choice

    def _whole(self) -> dict:
        """Everything of the game an agent's thinking must leave as it was (see `ask`)."""
        game = self.game
        request = game.pending
        asked = None if request is None else (request.player, request.kind, _options_key(request),
                                              _context_key(request), request.simultaneous)
        return {"state": game.state.to_dict(), "request": asked,
                "answers": [_key(answer) for answer in game.answers_so_far()]}

    # -- answering ----------------------------------------------------------------------
    def step(self, choice) -> None:
        """Answer the pending decision with `choice` (which must be legal) and check."""
        game = self.game
        request = game.pending
        index = len(game.answers_so_far())
        self.asked.append((request.player, request.kind))
        public = len(game.answers)
        before = game.state.to_dict() if request.simultaneous else None
        mark = len(self.events)
        try:
            game.answer(choice)
        except IllegalAnswerError as exc:
            self.fail("options", f"answer {choice!r}, taken from the options, was refused: {exc}")
        self.decisions += 1
        nxt = game.pending
        if request.simultaneous:
            if self._batch is None or self._batch_kind != request.kind:
                self._batch = [(index, request.player)]
                self._batch_kind = request.kind
                self.batches += 1
            else:
                self._batch.append((index, request.player))
            continuing = (nxt is not None and nxt.simultaneous and nxt.kind == request.kind
                          and all(nxt.player != p for _, p in self._batch))
            if continuing:
                shown = [e["event"] for e in self.events[mark:] if e["event"] not in ("answer", "decision")]
                if shown:
                    self.fail("simultaneous", f"events {shown} emitted while a simultaneous "
                                              f"{request.kind!r} batch is collected")
                if game.state.to_dict() != before:
                    self.fail("simultaneous", f"player {request.player}'s secret {request.kind!r} answer "
                                              f"changed the state before the reveal")
                if len(game.answers) != public or any(e["event"] == "answer" for e in self.events[mark:]):
                    self.fail("simultaneous", f"player {request.player}'s secret {request.kind!r} answer "
                                              f"is public (in game.answers or an event) before the reveal")
                # one answer per batch is replayed differently, a different position each batch
                target = 1 + (self.batches - 1) % max(1, self.n - 1)
                if self.counterfactual and len(self._batch) == target:
                    self.check_counterfactual(index, request.options)
            else:
                self._batch = None
        else:
            self._batch = None
        if nxt is not None:
            self.check()

    def check_counterfactual(self, index: int, options: list) -> None:
        """Replay with another answer at `index` (the latest, secret, answer of a batch):
        the next request and the state may not differ."""
        game = self.game
        answers = game.answers_so_far()
        actual = answers[index]
        other = options[-1] if _key(options[-1]) != _key(actual) else options[0]
        alt = Game(self.variant, self.n, self.seed)
        for i, answer in enumerate(answers):
            try:
                alt.answer(other if i == index else answer)
            except IllegalAnswerError:
                self.fail("simultaneous", f"with another secret answer at decision {index + 1}, the answer "
                                          f"at decision {i + 1} is no longer legal: the options depend on it")
        self.counterfactuals += 1
        mine, theirs = game.pending, alt.pending
        if theirs is None or (theirs.player, theirs.kind) != (mine.player, mine.kind):
            self.fail("simultaneous", f"another secret answer at decision {index + 1} changes who is asked next")
        if _options_key(theirs) != _options_key(mine):
            self.fail("simultaneous", f"the options depend on the secret answer at decision {index + 1}")
        if _context_key(theirs) != _context_key(mine):
            self.fail("simultaneous", f"the request's context reveals the secret answer at decision {index + 1}: "
                                      f"{mine.context!r} vs {theirs.context!r}")
        if alt.state.to_dict() != game.state.to_dict():
            self.fail("simultaneous", f"the state depends on the secret answer at decision {index + 1} "
                                      f"before the reveal")

    # -- the end ------------------------------------------------------------------------
    def finish(self, agent_names: list[str] | None = None, full_replay: bool = True) -> str:
        """End-of-game checks, determinism and replay; returns the JSONL log text.

        `full_replay`: replay through `gamelog.replay_lines` (what `amunre replay` runs, which
        loads the variant again); otherwise the logged answers are replayed in memory on the
        same Variant object, which is faster and checks the same log and state.
        """
        from amunre.core.standing import winners

        game, state, edition = self.game, self.game.state, self.variant.edition
        if game.pending is not None:
            self.fail("game-shape", "finish() called while a decision is pending")
        self.check_state()
        if not state.finished:
            self.fail("game-shape", "the game stopped asking but state.finished is not set")
        kingdoms = len(edition.kingdoms)
        if self.kingdoms_seen != kingdoms or self.scorings != kingdoms:
            self.fail("game-shape", f"{self.kingdoms_seen} kingdoms and {self.scorings} scorings seen, "
                                    f"expected {kingdoms} of each")
        if self.rounds_seen != kingdoms * edition.rounds_per_kingdom:
            self.fail("game-shape", f"{self.rounds_seen} rounds played, expected "
                                    f"{kingdoms * edition.rounds_per_kingdom}")
        if sorted(state.winners) != winners(state) or not state.winners:
            self.fail("game-shape", f"winners {state.winners}, expected {winners(state)}")
        self.check_roundtrip()
        agents = agent_names or [self.agent] * self.n
        text = dumps_lines(log_lines(game, self.events, agents))
        final = state.to_dict()
        # the log as written to disk replays to the identical log and the same state
        lines = [json.loads(line) for line in text.splitlines()]
        if full_replay:
            try:
                # the variant as `amunre replay LOG --variant FILE` gets it (a log names no file to open);
                # the bots' answers are the [determinism] invariant's to check
                replayed, fresh = replay_lines(lines, "log", variant=self.variant.source or self.variant,
                                               verify_agents=False)
            except AmunreError as exc:
                self.fail("replay", str(exc))
        else:
            recorder = Recorder()
            replayed = Game(self.variant, lines[0]["players"], lines[0]["seed"], [recorder])
            for line in lines:
                if line.get("event") == "answer":
                    if replayed.pending is None:
                        self.fail("replay", "the replayed game ended before the log's last answer")
                    try:
                        replayed.answer(from_json_value(line["answer"]))
                    except IllegalAnswerError as exc:
                        self.fail("replay", f"a logged answer is refused on replay: {exc}")
            fresh = log_lines(replayed, recorder.events, lines[0]["agents"])
        if dumps_lines(fresh) != text:
            self.fail("replay", "the replayed log differs from the original")
        if replayed.state.to_dict() != final:
            self.fail("replay", "replaying the log gives a different final state")
        # the same answers with nobody listening
        quiet = Game(self.variant, self.n, self.seed)
        for answer in game.answers:
            quiet.answer(answer)
        if quiet.pending is not None or quiet.state.to_dict() != final:
            self.fail("replay", "the same answers without a listener give a different game")
        return text


def _shown(value, show=repr) -> str:
    """`show(value)` (its repr), at most 80 characters, or what it is when that raises (an
    agent's own object)."""
    try:
        return show(value)[:80]
    except Exception:  # noqa: BLE001 - an agent's object whose __repr__ or __str__ raises
        return f"a {type(value).__name__} that cannot be shown"
