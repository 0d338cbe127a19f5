"""The `planner` agent and what it values positions by (`amunre.worth`), over every variant
file in variants/: what a module declares a holding is worth is what playing its rule gives;
the planner plays every variant to the end, from its view alone, the same for a seed; it
reacts to a rule change that greedy does not see.
"""

from __future__ import annotations

import statistics

import pytest
from conftest import variant_files
from hypothesis import given
from hypothesis import strategies as st

from amunre.agents import make_agent, make_agents
from amunre.engine import Game, play_game
from amunre.errors import AmunreError
from amunre.loader import load_variant
from amunre.testing import play_checked
from amunre.worth import Worth, position_of

VARIANTS = variant_files()


def _position(variant, seed: int, steps: int):
    """A game of random seats after `steps` decisions (or at its end)."""
    players = variant.players[seed % len(variant.players)]
    game = Game(variant, players, seed)
    agents = make_agents(["random"] * players, seed)
    for _ in range(steps):
        request = game.pending
        if request is None:
            break
        game.answer(agents[request.player].choose(game.view(request.player), request))
    return game


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), seat=st.integers(0, 4))
def test_what_a_module_declares_a_holding_worth_is_what_its_rule_gives(path, seed, steps, seat):
    """`points_for` and `income_for` (what the planner reads) agree with playing the module's
    own `run` on the same position, for every player and every module that declares them."""
    variant = load_variant(path)
    game = _position(variant, seed, steps)
    player = seat % game.n_players
    view = game.view(player)
    worth = Worth(view, {}, 0.5, {}, False)
    state = position_of(view)
    checked = 0
    for module in variant.modules.scoring + variant.modules.final_scoring:
        declared = module.points_for(state, player)
        if declared is not None:
            played = worth._played(module, state)[1]
            assert {k: v for k, v in declared.items() if v} == {k: v for k, v in played.items() if v}, module.key
            checked += 1
    for module in variant.modules.phases:
        if module.pays_for_holdings:
            declared = module.income_for(state, player)
            if declared is not None:
                gold, points = worth._played(module, state)
                assert declared[0] == gold and {k: v for k, v in declared[1].items() if v} == {
                    k: v for k, v in points.items() if v}, module.key
                checked += 1
    assert checked  # every shipped variant has modules that declare what a holding is worth


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
def test_the_planner_plays_every_variant_from_its_view_alone(path):
    """A whole game with planners in every seat, checked (the [views] invariant compares the
    planner's answers in two games its seat cannot tell apart); the same seed plays alike."""
    variant = load_variant(path)
    players = variant.players[-1]
    checker = play_checked(variant, players, 3, "planner", illegal_every=0, roundtrip_every=0,
                           counterfactual=False, views_every=9)
    assert checker.game.finished and checker.view_checks > 0
    again = play_game(variant, make_agents(["planner"] * players, 3), 3)
    assert again.answers == checker.game.answers


def test_a_scoring_change_greedy_does_not_see_changes_how_the_planner_builds():
    """Pyramids worth 2 points (monumental-pyramids: the item entered twice) against the 2003
    game on the same seeds: the planner builds more pyramids, significantly (paired t > 2);
    greedy plays the very same games. Expected direction: a pyramid is worth twice as much."""
    base, changed = load_variant("classic2003"), load_variant("monumental-pyramids")

    def pyramids(variant, agent, seed):
        built = []

        class Count:
            listens_to = {"pyramid"}

            def __call__(self, event):
                built.append(event)

        play_game(variant, make_agents([agent] * 4, seed), seed, [Count()])
        return len(built)

    seeds = range(30)
    diffs = [pyramids(changed, "planner", s) - pyramids(base, "planner", s) for s in seeds]
    t = statistics.mean(diffs) / (statistics.stdev(diffs) / len(diffs) ** 0.5)
    assert t > 2, (diffs, t)
    assert all(pyramids(changed, "greedy", s) == pyramids(base, "greedy", s) for s in seeds[:5])


def test_planner_parameters_are_checked():
    with pytest.raises(AmunreError, match=r"planner: gold='x' is not a number"):
        make_agent("planner:gold=x", 1, 0)
    with pytest.raises(AmunreError, match=r"planner: pyramids='nan' is not a number"):
        make_agent("planner:pyramids=nan", 1, 0)
    agent = make_agent("planner:pyramid=2", 1, 0)  # a key the variant does not score
    game = Game(load_variant("classic2003"), 4, 1)
    with pytest.raises(AmunreError, match=r"'pyramid' is no scoring item of classic2003 .*pyramids"):
        agent.choose(game.view(game.pending.player), game.pending)


def test_a_weight_changes_what_the_planner_prefers():
    """Weighting the pyramids item up makes the same seat score more for its pyramids, against
    the same greedy seats on the same seeds."""
    variant = load_variant("classic2003")
    scored = {}
    for spec in ("planner", "planner:pyramids=4"):
        total = 0
        for seed in range(12):
            game = play_game(variant, [make_agent(spec, seed, 0)] + make_agents(["greedy"] * 4, seed)[1:], seed)
            total += sum(points for key, points in game.state.players[0].breakdown.items()
                         if key.endswith(":pyramids"))
        scored[spec] = total
    assert scored["planner:pyramids=4"] > scored["planner"], scored


def test_a_decision_without_an_appraisal_is_answered_by_looking_ahead(monkeypatch):
    """A decision whose module declares no appraisal (as a plug-in's may not) is answered from
    a game drawn from the seat's view, the same for the same seed, never at random."""
    import attrs

    variant = load_variant("classic2003")
    decisions = variant.modules.decisions
    monkeypatch.setitem(decisions, "buy_farmers", attrs.evolve(decisions["buy_farmers"], appraise=None))
    answers = []
    for _ in range(2):
        game = play_game(variant, make_agents(["planner"] * 3, 4), 4)
        answers.append(game.answers)
    assert answers[0] == answers[1]


def test_a_weight_the_variant_does_not_score_stops_run_before_anything_is_shown(capsys, tmp_path):
    from helpers import run_cli

    log = tmp_path / "game.jsonl"
    code, out, err = run_cli(capsys, "run", "--variant", "classic2003", "--agents", "planner:pyramid=2",
                             "--log", str(log))
    assert code == 2 and out == "" and not log.exists()
    assert err.startswith("error: planner: 'pyramid' is no scoring item of classic2003") and "Traceback" not in err
