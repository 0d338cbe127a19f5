"""The `mcts` agent: information-set MCTS over determinized games. Its strength
is measured by benchmarks/mcts_vs_greedy.py (not here: a timed, many-game measurement);
these tests check what must hold whatever its strength: legal, deterministic for a seed,
reading only its own view, parameters checked."""

from __future__ import annotations

import random

import pytest

from amunre.agents import check_spec, make_agents
from amunre.agents.mcts import MctsAgent
from amunre.core.engine import Game
from amunre.core.errors import AmunreError
from amunre.loader import load_variant


def _at_decision(vid: str, players: int, seed: int, steps: int) -> Game:
    game = Game(load_variant(vid), players, seed)
    agents = make_agents(["random"] * players, seed)
    for _ in range(steps):
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    return game


@pytest.mark.parametrize("vid, players", [("classic2003", 4), ("supermeeple2016", 3), ("expert2016", 4)])
def test_it_answers_legally_and_alike_for_the_same_seed(vid, players):
    game = _at_decision(vid, players, 3, 25)
    request = game.pending
    first = MctsAgent(random.Random(7), iterations=12, rollout="random")
    again = MctsAgent(random.Random(7), iterations=12, rollout="random")
    choice = first.choose(game.view(request.player), request)
    assert choice in request.options
    assert again.choose(game.view(request.player), request) == choice
    assert game.pending is request  # the search played on its own games, not this one


@pytest.mark.parametrize("rollout", ["random", "planner"])
def test_a_whole_game_with_an_mcts_seat_is_legal_and_replays(rollout):
    game = Game(load_variant("classic2003"), 3, 5)
    agents = make_agents([f"mcts:iterations=3:rollout={rollout}", "greedy", "random"], 5)
    while game.pending is not None:
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    again = Game(load_variant("classic2003"), 3, 5)
    twins = make_agents([f"mcts:iterations=3:rollout={rollout}", "greedy", "random"], 5)
    while again.pending is not None:
        request = again.pending
        again.answer(twins[request.player].choose(again.view(request.player), request))
    assert again.answers == game.answers and agents[0].searched > 10


def test_it_sees_only_its_own_view():
    """Re-drawing what the asked seat may not know does not change its choice: the agent
    starts every iteration from a determinization of its view."""
    game = _at_decision("classic2003", 4, 9, 40)
    request = game.pending
    player = request.player
    choices = set()
    for k in range(3):
        hidden = game.determinize(player, random.Random(100 + k))  # another truth, the same view
        agent = MctsAgent(random.Random(1), iterations=10, rollout="random")
        choices.add(agent.choose(hidden.view(player), hidden.pending))
    assert len(choices) == 1


def test_it_finds_the_winning_answer_where_one_option_wins():
    """Late in a game, at a decision one of whose options wins and another loses however the
    hidden facts lie (checked over several determinizations, played out by greedy seats as
    the agent's own playouts are), the search picks a winning option."""
    variant = load_variant("classic2003")
    checked = 0
    for seed in range(60):
        game = Game(variant, 3, seed)
        agents = make_agents(["greedy"] * 3, seed)
        answers = []
        while game.pending is not None:
            request = game.pending
            answers.append((request, agents[request.player].choose(game.view(request.player), request)))
            game.answer(answers[-1][1])
        late = [i for i, (request, _) in enumerate(answers[-40:], len(answers) - 40) if 1 < len(request.options) <= 6]
        if not late:
            continue
        position = Game(variant, 3, seed)
        for _, choice in answers[:late[-1]]:
            position.answer(choice)
        request = position.pending
        player = request.player
        outcomes = {}
        for option in request.options:
            shares = set()
            for k in range(4):
                branch = position.determinize(player, random.Random(k))
                branch.answer(option)
                branch_agents = make_agents(["greedy"] * 3, k)
                while branch.pending is not None:
                    asked = branch.pending
                    branch.answer(branch_agents[asked.player].choose(branch.view(asked.player), asked))
                shares.add(1 / len(branch.state.winners) if player in branch.state.winners else 0.0)
            outcomes[option] = shares.pop() if len(shares) == 1 else None
        if None in outcomes.values() or len(set(outcomes.values())) < 2:
            continue  # the hidden facts matter here, or no option decides the game
        agent = MctsAgent(random.Random(2), iterations=20 * len(request.options))
        choice = agent.choose(position.view(player), request)
        assert outcomes[choice] == max(outcomes.values()), (seed, outcomes, choice)
        checked += 1
        if checked == 2:
            return
    assert checked, "no game in 60 had a late decision that settles it"


@pytest.mark.parametrize("spec, expected", [
    ("mcts:iterations=0", "iterations='0' is not a whole number from 1 to 1000000"),
    ("mcts:iterations=1e3", "iterations='1e3' is not a whole number"),
    ("mcts:exploration=nan", "exploration='nan' is not a number from 0 to 100"),
    ("mcts:exploration=-1", "exploration='-1' is not a number from 0 to 100"),
    ("mcts:rollout=smart", "rollout='smart' is not one of greedy, random, planner"),
    ("mcts:depth=3", "agent 'mcts' has no parameter 'depth' (expected some of: exploration, iterations, margin, "
                     "rollout, top)"),
    ("mcts:top=-1", "top='-1' is not a whole number from 0 to 1000 (0: every option)"),
    ("mcts:top=x", "top='x' is not a whole number from 0 to 1000"),
    ("mcts:iterations", "'iterations' is not KEY=VALUE"),
])
def test_bad_parameters_are_named(spec, expected):
    with pytest.raises(AmunreError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        check_spec(spec)


def test_the_command_line_takes_an_mcts_seat(capsys):
    from helpers import run_cli

    code, out, err = run_cli(capsys, "run", "--variant", "classic2003", "--agents",
                             "mcts:iterations=2:rollout=random,random,random", "--quiet", "--seed", "4")
    assert code == 0, err
    assert "mcts:iterations=2:rollout=random" in out or "red" in out
    code, out, err = run_cli(capsys, "run", "--agents", "mcts:iterations=x,greedy,greedy")
    assert code == 2 and "iterations='x' is not a whole number" in err


def test_its_search_does_not_count_as_the_games_forced_steps():
    """`amunre bench` counts engine steps with `Game.forced`: the searched games' own forced
    decisions are not the real game's (each game counts its own)."""
    game = _at_decision("classic2003", 4, 2, 30)
    request = game.pending
    before = game.forced
    assert before > 0  # (a game 30 decisions in has had forced ones)
    agent = MctsAgent(random.Random(3), iterations=8, rollout="random")
    agent.choose(game.view(request.player), request)
    assert game.forced == before and agent.searched == 1


def test_each_agent_says_how_many_games_it_may_play_out_per_decision():
    """What a server bounds (`amunre serve --max-bot-playouts`): mcts plays one game out per
    iteration, a planner playout counted as eight greedy ones; the others play none."""
    from amunre.agents import agent_names, playouts_per_decision

    assert playouts_per_decision("mcts") == 120
    assert playouts_per_decision("mcts:iterations=1000000") == 1_000_000
    assert playouts_per_decision("mcts:iterations=10:rollout=random") == 10
    assert playouts_per_decision("mcts:iterations=10:rollout=planner") == 80
    assert {kind: playouts_per_decision(kind) for kind in agent_names() if kind != "mcts"} == \
        {"greedy": 0, "human": 0, "planner": 0, "random": 0}
