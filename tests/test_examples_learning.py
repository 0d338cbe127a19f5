"""The learning examples, on a small budget: examples/selfplay_train.py trains a numpy policy by
self-play that beats random seats on games it never saw, and examples/learned_agent.py plays
the saved weights in `amunre arena` as one's own agent, measured against the ladder."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli

pytest.importorskip("numpy", reason="the learning examples need the rl extra's numpy")

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PLAYERS = 4


#: The tests of the trained policy share a worker (`--dist loadgroup`): the module's fixture `trained` is
#: then made once, not once on each worker (400 self-play games each time)
ONE_TRAINING = pytest.mark.xdist_group("examples-trained")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The example trained on 400 self-play games (about 4 CPU s): its report and its weights."""
    weights = tmp_path_factory.mktemp("learned") / "policy.npz"
    run = subprocess.run([sys.executable, str(EXAMPLES / "selfplay_train.py"), "--players", str(PLAYERS),
                          "--games", "400", "--rate", "0.5", "--held-out", "60", "--out", str(weights)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout, weights


@ONE_TRAINING
def test_self_play_learns_to_beat_random_seats_on_held_out_games(trained):
    report, weights = trained
    found = re.search(r"won ([0-9.]+)% of 60 held-out games against 3 random seats \(95% interval from ([0-9.]+)%",
                      report)
    assert found, report
    assert float(found[2]) / 100 > 1 / PLAYERS  # the whole interval above the equal share
    assert weights.is_file()


@ONE_TRAINING
def test_the_learned_agent_is_measured_against_the_ladder_in_the_arena(trained, capsys):
    """Above three random seats, as the training found; and placed against greedy, the next
    step of the ladder (it may lose there: the test asks that it is measured)."""
    _, weights = trained
    agent = f"{EXAMPLES / 'learned_agent.py'}:Learned:weights={weights}"

    def arena(opponent, games):
        code, out, err = run_cli(capsys, "arena", "--agents", ",".join([agent] + [opponent] * (PLAYERS - 1)),
                                 "--games", str(games), "--workers", "1", "--json")
        assert code == 0, err
        return json.loads(out)["agents"][0]

    assert arena("random", 24)["versus_equal_share"] == "above"
    against_greedy = arena("greedy", 4)
    assert against_greedy["games"] == 4 and against_greedy["seats"] == [1, 1, 1, 1]


@ONE_TRAINING
def test_weights_of_another_variant_are_refused_as_the_agents_failure(trained, capsys):
    _, weights = trained
    code, _, err = run_cli(capsys, "arena", "--variant", "long-kingdoms", "--agents",
                           f"{EXAMPLES / 'learned_agent.py'}:Learned:weights={weights},random,random",
                           "--games", "3", "--workers", "1")
    assert code == 1 and "Traceback" not in err
    assert "holds a policy of classic2003" in err and "not of long-kingdoms" in err


def test_the_observing_agent_plays_in_the_arena_reading_the_environments_vector(capsys):
    """examples/observing_agent.py encodes what it is handed (`encode_view`): the vector the
    environments give for its seat; `amunre arena` seats it as any agent."""
    import random

    import numpy as np

    from amunre.agents.own import factory_of
    from amunre.core.engine import Game
    from amunre.loader import load_variant
    from amunre.rl.actions import action_space
    from amunre.rl.observation import ObservationLayout

    Observing = factory_of(f"{EXAMPLES / 'observing_agent.py'}:Observing")
    variant = load_variant("classic2003")
    game = Game(variant, 3, 5)
    layout = ObservationLayout(variant, 3, action_space(variant))
    agents = [Observing(random.Random(seat)) for seat in range(3)]
    for _ in range(30):
        seat = game.pending.player
        answer = agents[seat].choose(game.view(seat), game.pending)
        assert np.array_equal(agents[seat].observation, layout.encode(game, seat))
        game.answer(answer)
    code, out, err = run_cli(capsys, "arena", "--agents",
                             f"{EXAMPLES / 'observing_agent.py'}:Observing,random,random", "--games", "3",
                             "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["agents"][0]["games"] == 3
