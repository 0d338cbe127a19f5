"""The flow of a game: one plan of steps per variant (`flow_plan`), the core's own steps
(set up, start a kingdom, a round or a phase, discard the face-up cards, score, end) and,
between them, where each rule module's `run` takes over.

Order of play: setup -> for each kingdom: every rule's `start_kingdom`, then each round runs
the phase pipeline in order (cards played face up are discarded when a phase ends) -> the
kingdom's scoring items (`Modules.scoring_in`: an entry that names its `kingdoms` scores at
their ends only) -> between kingdoms the transition (R-GAME-05); after the last kingdom the
final scoring items, then the winners (R-GAME-06).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from amunre.core.gamesetup import set_up
from amunre.core.mechanics import end_phase_cards
from amunre.core.standing import standing, winners

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeAlias

    from amunre.core.contract import Rule
    from amunre.core.engine import Game
    from amunre.core.model import Variant

    #: A step of the plan: a core step and its argument, or (None, the rule module whose
    #: `run` takes over).
    PlanStep: TypeAlias = "tuple[Callable[[Game, Any], None], Any] | tuple[None, Rule]"

SPEC_IDS = ("R-GAME-01", "R-GAME-03", "R-GAME-05")


def flow_plan(variant: Variant) -> list[PlanStep]:
    """The game's steps in order, as (step, arg): `step(game, arg)` for the core's own (set
    up, start a kingdom, round or phase, discard face-up cards, score, end), or (None, rule)
    where a rule module's `run` takes over. Built once per variant."""
    modules = variant.modules
    # getattr, not `modules.__dict__`: asking for the dict would slow every later read of the
    # modules' attributes (Python 3.11 then keeps them in a dict rather than inline)
    plan: list[PlanStep] | None = getattr(modules, "flow_plan", None)
    if plan is not None:
        return plan
    kingdoms, rounds = variant.edition.kingdoms, variant.edition.rounds_per_kingdom
    plan = [(_set_up_step, None)]
    for k in range(len(kingdoms)):
        plan.append((_kingdom_step, k))
        for r in range(rounds):
            plan.append((_round_step, (k, r)))
            for phase_id, heading, steps in modules.round_phases:
                plan.append((_phase_step, (phase_id, heading)))
                plan += [(None, rule) for rule in steps]
                plan.append((_end_phase_step, None))
            plan.append((_round_end_step, (k, r)))
        plan.append((_scoring_step, k))
        for rule in modules.scoring_in(k):  # the entries that score at this kingdom's end
            plan += [(None, rule), (_end_phase_step, None)]
        plan.append((_scoring_end_step, k))
    plan.append((_final_scoring_step, None))
    plan += [(None, rule) for rule in modules.final_scoring]
    plan.append((_game_end_step, None))
    modules.flow_plan = plan
    return plan


def _set_up_step(game: Game, _: None) -> None:
    set_up(game)
    if "setup" in game.hearing:
        state = game.state
        game.emit("setup", players=state.n_players, seed=state.seed, start_player=state.start_player,
                  gold=game.variant.components.starting_gold)


def _kingdom_step(game: Game, k: int) -> None:
    start_kingdom(game, k)
    if "kingdom" in game.hearing:
        game.emit("kingdom", kingdom=k, name=game.variant.edition.kingdoms[k])


def _round_step(game: Game, at: tuple[int, int]) -> None:
    k, r = at
    game.state.round = r
    if "round" in game.hearing:
        game.emit("round", kingdom=k, round=r, start_player=game.state.start_player)


def _phase_step(game: Game, phase: tuple[str, str]) -> None:
    phase_id, heading = phase
    game.phase_name = heading
    if "phase" in game.hearing:
        game.emit("phase", rule=phase_id, name=heading)


def _end_phase_step(game: Game, _: None) -> None:
    end_phase_cards(game.state)


def _round_end_step(game: Game, at: tuple[int, int]) -> None:
    if "round_end" in game.hearing:
        k, r = at
        game.emit("round_end", kingdom=k, round=r, **round_summary(game))


def _scoring_step(game: Game, k: int) -> None:
    game.phase_name = "scoring"
    if "scoring" in game.hearing:
        game.emit("scoring", kingdom=k, name=game.variant.edition.kingdoms[k])


def _scoring_end_step(game: Game, k: int) -> None:
    if "scoring_end" in game.hearing:
        game.emit("scoring_end", kingdom=k, name=game.variant.edition.kingdoms[k],
                  scores=[p.score for p in game.state.players])


def _final_scoring_step(game: Game, _: None) -> None:
    game.phase_name = "final scoring"
    if "final_scoring" in game.hearing:
        game.emit("final_scoring")


def _game_end_step(game: Game, _: None) -> None:
    state = game.state
    state.winners = winners(state)
    state.finished = True
    game.phase_name = "game over"
    if "game_end" in game.hearing:
        standings = [standing(state, p) for p in range(state.n_players)]
        game.emit("game_end", winners=state.winners, scores=[s[0] for s in standings],
                  pyramids=[s[1] for s in standings], stones=[s[2] for s in standings])


def round_summary(game: Game) -> dict[str, Any]:
    """The public state in brief, for the end of a round: each player's gold, hand size
    and points, and every province with an owner or anything on it as
    [province, owner, farmers on fields, farmers off them, stones, single and double
    pyramids]."""
    state = game.state
    provinces = [[i, prov.owner, prov.farmers, prov.free_farmers, prov.stones, prov.pyramids, prov.doubles]
                 for i, prov in enumerate(state.provinces)
                 if prov.owner is not None or prov.stones or prov.pyramids or prov.doubles]
    return {"gold": [p.gold for p in state.players], "hands": [sum(p.hand) for p in state.players],
            "scores": [p.score for p in state.players], "provinces": provinces}

def start_kingdom(game: Game, k: int) -> None:
    """Kingdom `k` begins: after the first, the transition (`between_kingdoms`), then every
    module's `start_kingdom`. The one statement of it: the game plays it, and the planner
    plays it on a copy to see what a later kingdom starts from (`amunre.planning.horizon`)."""
    game.state.kingdom = k
    if k:
        between_kingdoms(game)
    for rule in game.variant.modules.all:  # a scoring item's too: the contract says every module's
        rule.start_kingdom(game)


def between_kingdoms(game: Game) -> None:
    """R-GAME-05: provinces lose owners and farmers; pyramids and stones stay. A house rule's
    module may keep the farmers or the owners (`Rule.keeps_between_kingdoms`)."""
    state = game.state
    kept = game.variant.modules.kept_between_kingdoms
    if "farmers" not in kept:
        for prov in state.provinces:
            state.supply_farmers += prov.farmers + prov.free_farmers
            prov.farmers = prov.free_farmers = 0
    if "owners" not in kept:
        for prov in state.provinces:
            prov.owner = None
        for player in state.players:
            player.provinces = []
    if "transition" in game.hearing:
        game.emit("transition")
