"""The command line as a user meets it: `amunre run`, `replay`, `bench`, `board`, `variants`,
and the error behaviour (one clear line, exit code 2, no traceback)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from helpers import run_cli

from amunre.loader.resources import load_schema

REPO = Path(__file__).resolve().parents[1]


def test_run_without_a_seed_draws_it_from_every_seed_as_the_server_does(capsys, monkeypatch):
    """A seed drawn from 2**32 could be narrowed down by a seat from its own view (2**20 seeds
    to 11): it is drawn from 0..MAX_SEED, by the operating system's generator."""
    import secrets

    from amunre.core.engine import MAX_SEED

    bounds = []
    monkeypatch.setattr(secrets, "randbelow", lambda bound: bounds.append(bound) or MAX_SEED)
    code, out, err = run_cli(capsys, "run", "--agents", "random", "--quiet")
    assert code == 0, err
    assert bounds == [MAX_SEED + 1] and f"seed {MAX_SEED}" in out


def test_run_prints_play_by_play_in_2003_words_and_final_table(capsys):
    code, out, err = run_cli(capsys, "run", "--variant", "classic2003", "--seed", "3")
    assert code == 0, err
    assert "seed 3" in out
    assert "bidding marker" in out and "power card" in out and "sacrifice" in out
    assert "Old Kingdom" in out and "New Kingdom" in out
    assert "total points" in out and "building stones" in out and "place" in out and "final scoring: gold" in out
    assert "Winner" in out


def test_run_json_follows_schema_and_is_reproducible(capsys):
    code, out, _ = run_cli(capsys, "run", "--seed", "5", "--players", "3", "--agents", "greedy,random,greedy", "--json")
    assert code == 0
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("result"))
    assert doc["seed"] == 5 and len(doc["players"]) == 3
    assert [p["agent"] for p in doc["players"]] == ["greedy", "random", "greedy"]
    # per-item points add up to each player's score
    for player in doc["players"]:
        assert sum(sum(items.values()) for items in player["items"].values()) == player["score"]
    again = json.loads(run_cli(capsys, "run", "--seed", "5", "--players", "3", "--agents", "greedy,random,greedy",
                               "--json")[1])
    assert again == doc


def test_log_lines_follow_schema_and_replay(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, _, err = run_cli(capsys, "run", "--seed", "9", "--players", "5", "--agents", "random", "--log", str(log),
                           "--quiet")
    assert code == 0, err
    validator = jsonschema.Draft202012Validator(load_schema("log-line"))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    for line in lines:
        validator.validate(line)
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "result"
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 0, err
    assert "replay OK" in out


def test_replay_of_a_tampered_log_fails_cleanly(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    run_cli(capsys, "run", "--seed", "12", "--log", str(log), "--quiet")
    lines = log.read_text().splitlines()
    result = json.loads(lines[-1])
    result["scores"][0] += 1
    lines[-1] = json.dumps(result)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run_cli(capsys, "replay", str(log))
    assert code == 2
    assert "differs on replay" in err and "Traceback" not in err


@pytest.mark.parametrize("first, second, expected", [
    ('{"type":"header","format":"amunre-log/2","variant":"classic2003"}', None,
     "1: header: 'amunre' is a required property"),
    ("[1, 2]", None, "1: not a log line"),
    (None, '"text"', "2: not a log line"),
    (None, '{"type":"event","event":"answer"}', "2: event: 'player' is a required property"),
    (None, "{not json", "2: not a JSON line"),
    (None, "[" * 5000, "2: nesting too deep"),
    (None, b"\xff\xfe", "2: not UTF-8 text"),
])
def test_replay_of_a_malformed_log_names_the_line(capsys, tmp_path, first, second, expected):
    log = tmp_path / "game.jsonl"
    run_cli(capsys, "run", "--seed", "2", "--players", "3", "--agents", "random", "--log", str(log), "--quiet")
    lines = log.read_text().splitlines()
    if first is not None:
        lines[0] = first
    if second is not None:
        lines.insert(1, second.decode("latin-1") if isinstance(second, bytes) else second)
    log.write_bytes(("\n".join(lines) + "\n").encode("latin-1" if isinstance(second, bytes) else "utf-8"))
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 2
    assert f"{log}:{expected}" in err and "Traceback" not in err


def test_replay_works_from_another_directory_with_a_relative_variant_path(capsys, tmp_path, monkeypatch):
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic2003"\n[edition]\nid = "rich"\nname = "rich"\n'
                     '[components]\nstarting_gold = 30\n')
    monkeypatch.chdir(tmp_path)
    run_cli(capsys, "run", "--variant", "house.toml", "--seed", "4", "--log", "g.jsonl", "--quiet")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    # replay opens no file the log names: the variant file is given on the command line
    code, out, err = run_cli(capsys, "replay", str(tmp_path / "g.jsonl"))
    assert code == 2 and ":1: variant_file: " in err and "--variant" in err
    code, out, err = run_cli(capsys, "replay", str(tmp_path / "g.jsonl"), "--variant", "../house.toml")
    assert code == 0, err
    assert "replay OK: rich" in out


def test_run_refuses_an_unwritable_log_before_playing(capsys):
    code, out, err = run_cli(capsys, "run", "--seed", "1", "--log", "/nonexistent-dir/x.jsonl")
    assert code == 2
    assert "cannot write the log" in err and "Traceback" not in err
    assert out == ""  # no game was played


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["run", "--players", "6"], "--players must be one of 3, 4, 5"),
        (["run", "--players", "2"], "--players must be one of 3, 4, 5"),
        (["run", "--seed", "abc"], "Invalid value for '--seed': 'abc' is not a whole number from 0 to"),
        (["run", "--seed", "-1"], "Invalid value for '--seed': '-1' is not a whole number from 0 to"),
        (["arena", "--seed", "-1"], "Invalid value for '--seed': '-1' is not a whole number from 0 to"),
        # Python's int() reads these; nobody means them as numbers
        (["run", "--players", "\uff14"], "--players must be one of 3, 4, 5"),
        (["run", "--seed", "1_000"], "'1_000' is not a whole number from 0 to"),
        (["check", "classic2003", "--games", "\u0664"], "is not a whole number of at least 1"),
        (["check", "classic2003", "--players", "3,\uff14"], "--players must be player counts"),
        (["bench", "--games", "0"], "is not a whole number from 1 to 10000000"),
        (["run", "--agents", "wizard"], "unknown agent 'wizard'"),
        (["run", "--agents", "random,random"], "--agents names 2 agents, but classic2003 is played by 3, 4, 5 players"),
        (["run", "--agents", "random,random", "--players", "4"], "names 2 agents for 4 players"),
        (["run", "--agents", ""], "--agents has an empty name"),
        (["run", "--agents", "greedy,"], "--agents has an empty name"),
        (["run", "--variant", "nosuch"], "unknown variant 'nosuch' (available: "),
        (["run", "--bogus"], "No such option '--bogus'"),
        (["replay", "/nonexistent/log.jsonl"], "cannot read log"),
    ],
)
def test_bad_input_gives_one_clear_line_and_exit_2(capsys, argv, expected):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert expected in err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err + out


def test_console_script_has_no_traceback_on_bad_variant_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[edition\nid = 1\n")
    proc = subprocess.run([sys.executable, "-m", "amunre", "run", "--variant", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert str(bad) in proc.stderr


def test_board_lists_provisional_values(capsys):
    code, out, _ = run_cli(capsys, "board", "--provisional")
    assert code == 0
    assert "Buto.fields = 5" in out
    assert "Thebes." not in out  # Thebes is fully confirmed


def test_variants_lists_classic2003(capsys):
    code, out, _ = run_cli(capsys, "variants")
    assert code == 0 and any(line.startswith("classic2003 ") for line in out.splitlines()[1:])  # after the header


def _started(argv, tmp_path, stdout=subprocess.DEVNULL, **kwargs):
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-m", "amunre", *argv], cwd=tmp_path, env=env,
                            stdout=stdout, stderr=subprocess.PIPE, text=True, **kwargs)


def _read_until(proc, stream, text: str, seconds: float = 60.0) -> str:
    """What `proc` wrote on `stream` (one of its pipes) up to and including `text`: the sign
    that it has reached the point a test means to stop it at, however loaded the machine
    (`seconds` is a generous bound, not a measure). Read from the pipe's file descriptor, so
    that a later `communicate()` returns the rest."""
    import selectors

    seen = b""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while text.encode() not in seen:
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} within {seconds} s; it wrote: {seen.decode(errors='replace')}"
            if selector.select(left):
                chunk = os.read(stream.fileno(), 65536)
                assert chunk, f"it ended before writing {text!r}: {seen.decode(errors='replace')}"
                seen += chunk
    return seen.decode(errors="replace")


def test_sigterm_during_check_with_set_removes_its_temporary_variant(tmp_path):
    """SIGTERM unwinds like Ctrl-C: `check --set`'s temporary variant folder goes, exit 143."""
    proc = _started(["check", "classic2003", "--set", "components.starting_gold=21", "--games", "100000",
                     "--agents", "random"], tmp_path, stdout=subprocess.PIPE)
    # the "checking" line comes once the temporary variant is written, as the games begin
    _read_until(proc, proc.stdout, "checking classic2003 with --set")
    assert list(tmp_path.glob("amunre-check-*/*.toml")), "check never wrote its temporary variant"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.strip().endswith("terminated")
    assert not list(tmp_path.glob("amunre-check-*"))


def test_sigterm_while_a_human_seat_waits_leaves_no_temporary_file_behind(tmp_path):
    """A `run --log --set` stopped mid-game writes the answers so far with the variant they
    need, and no temporary file stays."""
    proc = _started(["run", "--players", "3", "--agents", "human,greedy,greedy", "--log", "game.jsonl", "--set",
                     "components.starting_gold=21"], tmp_path, stdin=subprocess.PIPE)
    asked = _read_until(proc, proc.stderr, "choice [")  # the human seat's first question (it talks on stderr)
    proc.send_signal(signal.SIGTERM)
    _, rest = proc.communicate(timeout=60)
    err = asked + rest
    assert proc.returncode != 0 and "Traceback" not in err, err
    assert "marked incomplete" in err  # the log of the answers so far, and the variant it needs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl", "game.jsonl.variant.toml"]


@pytest.mark.parametrize("argv", [["variants"], ["compare", "classic2003", "--games", "3", "--workers", "1", "--json"],
                                  ["run", "--quiet", "--seed", "1"]])
def test_output_that_cannot_be_written_is_one_clear_line(argv):
    """A full disk behind stdout (/dev/full) or a closed stdout: one error line, exit 2."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "amunre", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, env=env, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.endswith("error: cannot write the output: No space left on device (expected a writable "
                                "standard output)\n"), proc.stderr
    closed = subprocess.run([sys.executable, "-m", "amunre", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env, timeout=120, preexec_fn=lambda: os.close(1))
    assert closed.returncode == 2 and closed.stderr.startswith("error: standard output is closed"), closed.stderr
