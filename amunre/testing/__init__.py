"""Conformance checking for variant files: `check_variant(path_or_id)`.

Shipped inside the package so that a house-rule author can run the same checks on a file of
their own (`amunre check my_rules.toml`), and the project's test suite runs them over every
file in `variants/`. The checker plays seeded games with the built-in `random` and `greedy`
agents for every player count the variant allows, and checks the game step by step: before
every decision, at the phase, round and scoring events, and once the game is over. The first
violation stops everything with a `ConformanceError` naming the variant, the player count,
the agents, the seed, the decision number and the invariant, so the game can be rerun with
`amunre run --variant ... --players ... --seed ... --agents ...`. The checker
(`amunre.testing.checker.GameChecker`) drives each game; the invariants are checked in
`amunre.testing.invariants`, one module a family (events, state, views, answers).

Invariants (the id in brackets appears in the error message):

Conservation
  [gold-bank]      total gold held by the players == starting gold x players
                   + gold the bank gave (`bank_given`) - gold paid to the bank (`bank_paid`).
  [gold-events]    the `pay` events add up to `bank_paid` and the `gold` events to
                   `bank_given`: every payment (bids, purchases, offerings) and every receipt
                   (income, sales, free gold, thefts) is reported.
  [gold-player]    each player's gold == starting gold + what the events say they received
                   - what they paid: gold never moves between players outside the bank.
  [gold-negative]  no player's gold is ever negative; no gold lying on a province is negative.
  [cards]          every card of the deck (`components.deck`, kind by kind, `deck_size` in
                   all) is in exactly one place: draw pile, discard pile, face up in play,
                   a hand, or face down on a province. No hand count is negative.
  [theft]          theft cards per player stay between 0 and `theft_cards_per_player`.
  [supply]         farmers, stones, single and double pyramids: pieces on the board + supply
                   == the component count (with `rulings.finite_supply`), and no count is
                   ever negative (always).
  [fields]         farmers on a province's field spaces never exceed its fields; farmers only
                   stand in owned provinces.

Structure
  [provinces]      `owner` and the players' province lists agree; no province is held twice.
  [province-count] within a kingdom, at the start of round r (0-based) every player holds r
                   provinces; during the round r or r+1; at every phase boundary all players
                   hold the same number.
  [scoring-count]  at each kingdom's scoring every player holds `rounds_per_kingdom`
                   provinces (checked at the `scoring` event, before any item scores).
  [transition]     when a new kingdom starts nobody owns a province and no farmer is on the
                   board (R-GAME-05).
  [level]          the offering level is within 0..max level the rule modules can set, and
                   never returns to 0 once set.
  [start-player]   the start player is one of the players; `kingdom` and `round` are in range.
  [score]          scores never decrease, and each score equals the sum of its breakdown.
  [game-shape]     the game ends within `max_decisions`; it went through every kingdom, every
                   round and every scoring; `state.finished` is set and the winners are the
                   players with the best (points, pyramids, stones).

Declared by the rule modules
  [<event>]        each check a module declares on one of its events (`Event.check(event,
                   state)`), at every such event, reported under the event's name (the
                   offering's `level`: the level it announces is the game's, 1 at least).

Protocol
  [contract]       every shared move a rule module calls that may ask a decision (`pay`,
                   `place_stone`, ...: `amunre.core.mechanics.MOVES`) is carried out with
                   `yield from` within the module's step (`RuleModuleError` otherwise: called
                   without it, the move silently never happened); and what each module
                   tells of a province (`WordsFacet.province_facts`, asked once a round) is a
                   list of phrases, and the fields its `observation` declares are in its
                   data as a seat sees it.
  [options]        a pending decision names a player of the game, has a non-empty list of
                   distinct options, and every option survives the JSON round trip of the
                   log (what a log records can be answered back).
  [illegal-answer] at sampled decisions, answers that are not options (a foreign tuple, an
                   option of the wrong type, an out-of-range number) raise
                   `IllegalAnswerError`, and the state, the pending request and the answer
                   list are unchanged (state compared as `to_dict()` before and after).
  [simultaneous]   while a batch of simultaneous requests is collected (the offering), the
                   state does not change and no event other than the answer is emitted
                   between two requests of the batch; and the later requests do not depend
                   on the earlier answers: in each batch one answer (a different position
                   each time) is replaced by another option in a replay, which must give the
                   same state and the same next request (player, kind, options, context).

Views
  [views]          at sampled decisions the asked player's view and request do not depend on
                   what he may not know: at the start of the running phase (or scoring) the
                   draw pile's order, the face-down cards, the other hands (keeping their
                   sizes), the random generator and each module's hidden data are re-drawn
                   (`amunre.core.view.hide_from`), the phase is replayed with the same answers, and
                   where nothing he could see came out otherwise (the same public events, the
                   same players asked, his own hand the same) his view (`game.view`) and his
                   request must be identical. The game's seed is drawn again too, and so are
                   the other players' sealed answers of a batch under way. Then what he is
                   handed must be identical in full: the greedy agent's answer, and
                   `sample_game()` for the same generator and a clone of it, compared by
                   everything they hold (`amunre.testing.holdings`: state, seed, checkpoint,
                   inputs, the running step's variables). Sealed answers are also covered by
                   [simultaneous].

Agents
  [untouched]      an agent's `choose(view, request)` leaves the game as it was: its state in
                   full (players, provinces, supplies, piles, every rule module's data, the
                   random streams' counters: `GameState.to_dict()`), the pending request
                   (player, kind, options, context) and every answer given, sealed ones too,
                   compared before and after each call. It holds for whichever agents the
                   check is run with (`amunre check --agents`, an installed package's too):
                   an agent thinks on what it is handed, never on the game.
  [agent]          an agent's `choose()` returns one of the request's options and raises
                   nothing: an agent's bug is reported as the agent's, with its rerun.

Determinism and replay
  [determinism]    the same seed with the same agents gives the identical JSONL log.
  [replay]         the JSONL log, written out and read back, replays (`gamelog.replay_lines`)
                   to the identical log and the same final state; answering the logged answers
                   with no listener attached gives the same final state too.
  [round-trip]     at sampled decisions and at the end, `GameState.to_dict()` survives
                   `json.dumps`/`json.loads` and `from_dict` unchanged, and `clone()` equals
                   the state.

Golden playthroughs: `playthrough(variant)` writes a readable transcript of one seeded greedy
game; `python -m amunre.testing --regenerate-playthroughs DIR` rewrites one per shipped
variant (the project keeps them in tests/playthroughs/).
"""

from __future__ import annotations

from amunre.testing.checker import BOUNDARY_EVENTS, ConformanceError, GameChecker
from amunre.testing.command import main
from amunre.testing.playthroughs import (
    PLAYTHROUGH_SEED,
    REGENERATE,
    playthrough,
    regenerate_playthroughs,
    shipped_variant_files,
)
from amunre.testing.suite import CheckReport, GameRecord, check_variant, load, play_checked

__all__ = [
    "CheckReport", "ConformanceError", "GameChecker", "check_variant", "load", "playthrough",
    "regenerate_playthroughs",
    # for the project's own tests and `python -m amunre.testing`
    "BOUNDARY_EVENTS", "PLAYTHROUGH_SEED", "REGENERATE", "GameRecord", "main", "play_checked",
    "shipped_variant_files",
]
