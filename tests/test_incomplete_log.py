"""A game stopped before its end with `--log` (a human seat that leaves, Ctrl-C) writes its
answers so far, marked incomplete, and `amunre replay` checks them up to where it stopped;
an edited incomplete log is refused like any other."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from amunre.cli import cli
from amunre.core.errors import ReplayError
from amunre.gamelog import read_log, replay_lines


def _leave_after(tmp_path, answers: int, seed: int = 4):
    """A 3-player game whose human seat answers `answers` times (always the first option),
    then its input ends; (exit code, the log's path)."""
    log = tmp_path / f"game-{answers}.jsonl"
    result = CliRunner().invoke(cli, ["run", "--agents", "human,greedy,greedy", "--seed", str(seed), "--quiet",
                                      "--log", str(log)], input="0\n" * answers)
    return result, log


@pytest.mark.parametrize("answers", [0, 1, 5, 12, 19, 26, 33, 47])
def test_a_human_who_leaves_leaves_a_log_that_replays_to_where_he_left(tmp_path, answers):
    result, log = _leave_after(tmp_path, answers)
    assert result.exit_code == 4, result.output  # he left the table: no failure
    assert "marked incomplete" in result.output and "Traceback" not in result.output
    lines = read_log(log)
    assert lines[-1]["type"] == "incomplete" and lines[-1]["reason"] == "left"
    game, fresh = replay_lines(lines, str(log))
    # it stands at the human's question, or at the first of a batch of secret offers he was
    # part of (the bots' sealed offers before his are not in the log)
    assert not game.state.finished and game.pending is not None
    assert game.pending.player == 0 or game.pending.simultaneous
    assert len(game.answers) == lines[-1]["decisions"]
    replay = CliRunner().invoke(cli, ["replay", str(log)])
    assert replay.exit_code == 0 and replay.output.startswith("replay OK, incomplete game "
                                                              "(stopped because a player left)")


def test_an_edited_incomplete_log_is_refused(tmp_path):
    _, log = _leave_after(tmp_path, 19)
    lines = log.read_text(encoding="utf-8").splitlines()
    answers = [i for i, line in enumerate(lines) if '"event":"answer"' in line]
    cases = {
        "a line dropped": lines[:answers[-1] - 1] + lines[answers[-1]:],
        "the count edited": lines[:-1] + [lines[-1].replace('"decisions":', '"decisions":1')],
        "an event after the end": lines[:-1] + [lines[-2], lines[-1]],
        "cut before the incomplete line": lines[:-1],
    }
    for name, edited in cases.items():
        path = tmp_path / "edited.jsonl"
        path.write_text("\n".join(edited) + "\n", encoding="utf-8")
        result = CliRunner().invoke(cli, ["replay", str(path)])
        assert result.exit_code == 2 and "error: " in result.output and "Traceback" not in result.output, name


def test_a_finished_game_cannot_pass_for_a_stopped_one(tmp_path):
    log = tmp_path / "full.jsonl"
    assert CliRunner().invoke(cli, ["run", "--players", "3", "--seed", "2", "--quiet",
                                    "--log", str(log)]).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    decisions = json.loads(lines[-1])["decisions"]
    lines[-1] = json.dumps({"type": "incomplete", "decisions": decisions, "reason": "interrupted"})
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayError, match="its answers play it to the end"):
        replay_lines(read_log(log), str(log))
