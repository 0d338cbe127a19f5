"""`amunre replay` against hostile and broken logs, and `amunre run --log` against a full disk,
an interrupt and paths the file system refuses. The rulings tested here are documented in
`amunre.gamelog`: exact types, a short message at the first line that differs, verified
agents, no file a log names is opened, and a log written all or nothing."""

from __future__ import annotations

import builtins
import errno
import json
import os
import pathlib
import shlex
import subprocess
import sys

import pytest
from helpers import run_cli

from amunre.core.errors import ReplayError
from amunre.gamelog import read_log, replay_lines, spec_text


def make_log(capsys, folder, *extra, name="g.jsonl", agents="random,random,random", players="3"):
    """A real log of a short seeded game; returns its path and what `run` printed."""
    log = folder / name
    code, out, err = run_cli(capsys, "run", "--players", players, "--seed", "1", "--agents", agents,
                             "--log", str(log), "--quiet", *extra)
    assert code == 0, err
    return log, out


def rows(log) -> list[dict]:
    return [json.loads(row) for row in log.read_text(encoding="utf-8").splitlines()]


def save(log, lines) -> None:
    log.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines), encoding="utf-8")


def replay_error(log, **kwargs) -> str:
    with pytest.raises(ReplayError) as info:
        replay_lines(read_log(log), str(log), **kwargs)
    message = str(info.value)
    assert len(message) < 500 and "\n" not in message
    return message


def first(lines, event, test=lambda line: True) -> int:
    """The index of the first event line of a kind (that passes `test`)."""
    return next(i for i, line in enumerate(lines) if line.get("event") == event and test(line))


@pytest.fixture
def log(capsys, tmp_path):
    return make_log(capsys, tmp_path)[0]


# -- exact types -----------------------------------------------------------------------------

def _answer_with_zero(line):
    return isinstance(line["answer"], list) and 0 in line["answer"]


@pytest.mark.parametrize("where, edit, key", [
    # values equal in Python but not in the log's JSON: false for 0, 20.0 for 20
    ("answer", lambda a: a.__setitem__(1, False), "answer"),
    ("setup", lambda e: e.__setitem__("gold", 20.0), "gold"),
    ("setup", lambda e: e.__setitem__("players", True), "players"),
    ("bid", lambda e: e.__setitem__("amount", 0.0), "amount"),
    ("bid", lambda e: e.__setitem__("player", str(e["player"])), "player"),
    ("result", lambda r: r["gold"].__setitem__(0, float(r["gold"][0])), "gold/0"),
    ("result", lambda r: r.__setitem__("decisions", r["decisions"] + 0.0), "decisions"),
    ("header", lambda h: h.__setitem__("players", 3.0), "players"),
    ("header", lambda h: h.__setitem__("seed", 1.0), "seed"),
    ("header", lambda h: h.__setitem__("seed", True), "seed"),
])
def test_a_value_of_another_json_type_is_a_difference(log, where, edit, key):
    lines = rows(log)
    if where == "header":
        index = 0
        edit(lines[0])
    elif where == "result":
        index = len(lines) - 1
        edit(lines[-1])
    elif where == "answer":
        index = first(lines, "answer", _answer_with_zero)
        answer = list(lines[index]["answer"])
        answer[answer.index(0)] = False
        lines[index]["answer"] = answer
    else:
        index = first(lines, where, lambda line: where != "bid" or line["amount"] == 0)
        edit(lines[index])
    save(log, lines)
    message = replay_error(log)
    assert f"{log}:{index + 1}: " in message
    assert key in message


@pytest.mark.parametrize("value", [[[3], 0, []], {"a": 1}, [3, 0, [[[]]]], None, "3"])
def test_an_answer_of_any_shape_is_an_error_not_a_crash(log, value):
    lines = rows(log)
    index = first(lines, "answer")
    lines[index]["answer"] = value
    save(log, lines)
    assert f"{log}:{index + 1}: answer: " in replay_error(log)


def test_a_mismatch_shows_an_excerpt_never_the_whole_line(log):
    lines = rows(log)
    index = first(lines, "bid")
    lines[index]["cards"] = ["x" * 5_000_000]
    save(log, lines)
    message = replay_error(log)
    assert f"{log}:{index + 1}: cards: the log has " in message and "..." in message


@pytest.mark.parametrize("text, expected", [
    ("", "an empty line"),
    ('{"type":"event","event":"x","event":"y"}', "the key \"event\" appears twice"),
    ('{"type":"event","event":"x","n":NaN}', "NaN is not a JSON number"),
    ('{"type":"event","event":"x","n":1e400}', "too large a number"),
    ('{"type":"event","event":"x","n":' + "9" * 5000 + "}", "a number too long"),
    ("[" * 100 + "]" * 100, "nesting too deep at line"),
    ('{"type":"event","event":"answer","player":0,"kind":"bid","options":2,"answer":0,"note":1}',
     "unexpected key \"note\""),
    ("HEADER", "a second header"),
])
def test_a_line_that_is_not_a_log_line_is_named(log, text, expected):
    lines = log.read_text().splitlines()
    text = lines[0] if text == "HEADER" else text
    lines.insert(5, text)
    log.write_text("\n".join(lines) + "\n")
    message = replay_error(log)
    assert f"{log}:6: " in message and expected in message, message


def test_a_log_of_another_version_says_so(log):
    lines = rows(log)
    lines[0]["amunre"] = "0.0.1"
    save(log, lines)
    assert f"{log}:1: amunre: the log was written by amunre \"0.0.1\", this is " in replay_error(log)


def test_a_log_of_the_format_before_named_random_streams_is_refused_by_name(capsys, log):
    """Logs of format amunre-log/1 (one random generator per game) would replay another game
    on the same seed: refused with the format named, whatever else the header holds."""
    lines = rows(log)
    lines[0]["format"] = "amunre-log/1"
    lines[0]["amunre"] = "0.3.0"
    save(log, lines)
    message = replay_error(log)
    assert message.startswith(f"{log}:1: format: the log is amunre-log/1, written by amunre 0.3 and earlier")
    assert "amunre-log/2" in message
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 2 and "format: the log is amunre-log/1" in err and "Traceback" not in err


@pytest.mark.parametrize("value", [["amunre-log/2"], {"amunre-log/2": 1}, ["amunre-log/1"]])
def test_a_header_whose_format_is_no_text_is_refused_at_line_1(capsys, log, value):
    """Found by the deep fuzz profile: a list as the header's format (unhashable) was an
    internal error where the log's format is looked up among the older ones."""
    lines = rows(log)
    lines[0]["format"] = value
    save(log, lines)
    assert replay_error(log).startswith(f"{log}:1: ")
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 2 and f"{log}:1: " in err and "Traceback" not in err and "internal error" not in err


def test_the_first_line_that_differs_is_reported_even_when_it_hides_an_answer(log):
    """An answer line whose `event` is edited is no longer an answer: the next answer looks
    wrong, but the edited line comes first and is the one reported."""
    lines = rows(log)
    index = first(lines, "answer")
    lines[index]["event"] = "answer "
    save(log, lines)
    message = replay_error(log)
    assert message.startswith(f"{log}:{index + 1}: event: the log has \"answer \", the replay \"answer\"")


def test_a_log_cut_short_is_an_error(log):
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:-1]) + "\n")
    assert "expected the result last" in replay_error(log)


# -- agents ----------------------------------------------------------------------------------

@pytest.mark.parametrize("agents, expected", [
    (["random", "random"], "agents: 2 agent names for 3 players"),
    (["random"] * 4, "agents: 4 agent names for 3 players"),
    (["random", "wizard", "random"], "agents/1: unknown agent \"wizard\""),
    (["random", 7, "random"], "agents/1: an integer 7 (expected a string)"),
    ([], "agents: [] (expected minItems: 1)"),
])
def test_the_agents_list_is_one_known_name_per_player(log, agents, expected):
    lines = rows(log)
    lines[0]["agents"] = agents
    save(log, lines)
    message = replay_error(log)
    assert f"{log}:1: " in message and expected in message, message


@pytest.mark.parametrize("name", [" random\t", "random ", "\u00a0random", "random\u2003", " random:"])
def test_an_agent_name_edited_with_spaces_is_refused(capsys, log, name):
    """The agents read `" random\t"` as `random`, but the log never holds it so: an edit."""
    lines = rows(log)
    lines[0]["agents"][1] = name
    save(log, lines)
    message = replay_error(log)
    assert message.startswith(f"{log}:1: agents/1: "), message
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 2 and out == "" and err.startswith(f"error: {log}:1: agents/1: ") and err.count("\n") == 1, err


def test_an_agent_spec_is_logged_in_one_spelling_and_must_be_replayed_so(capsys, tmp_path):
    log = make_log(capsys, tmp_path, agents=" random ,random , random")[0]
    assert rows(log)[0]["agents"] == ["random"] * 3
    replay_lines(read_log(log), str(log))
    assert spec_text(" mcts : rollout = random :iterations=5 ") == "mcts:iterations=5:rollout=random"
    lines = rows(log)
    lines[0]["agents"][0] = "mcts:rollout=random:iterations=5"  # parameters out of key order
    save(log, lines)
    assert replay_error(log).startswith(f"{log}:1: agents/0: the log has \"mcts:rollout=random:iterations=5\", "
                                        f"the replay \"mcts:iterations=5:rollout=random\"")


def test_a_bot_seat_said_to_be_another_bot_is_caught_by_its_answers(log):
    lines = rows(log)
    lines[0]["agents"][1] = "greedy"
    save(log, lines)
    message = replay_error(log)
    assert "but player 1 is the bot 'greedy', which answers" in message


def test_a_bots_answer_changed_to_another_legal_one_is_caught(capsys, tmp_path):
    log = make_log(capsys, tmp_path, agents="greedy", players="3")[0]
    lines = rows(log)
    # a decision with options: the logged answer event follows the decision event
    index = first(lines, "answer", lambda line: line["kind"] == "bid")
    decision = lines[index - 1]
    assert decision["event"] == "decision" and decision["options"] > 1
    lines[0]["agents"] = ["human"] * 3  # as a human's, any legal answer replays...
    save(log, lines)
    replay_lines(read_log(log), str(log))  # (the unchanged answers are legal)
    lines[0]["agents"] = ["greedy"] * 3  # ...but a bot's answer must be the bot's
    lines[index]["answer"] = [lines[index]["answer"][0], lines[index]["answer"][1] + 1, []]
    save(log, lines)
    message = replay_error(log)
    assert f"{log}:{index + 1}: answer" in message


def test_a_human_seat_is_checked_for_legal_answers_only(log):
    """The documented limit: a bot seat renamed `human` replays (its answers are legal)."""
    lines = rows(log)
    lines[0]["agents"][2] = "human"
    save(log, lines)
    game, _ = replay_lines(read_log(log), str(log))
    assert game.state.finished


# -- the variant: only shipped ids and files given on the command line ----------------------

class Opened:
    """Records every file read through open() or Path.read_bytes/read_text."""

    def __init__(self, monkeypatch):
        self.paths = []
        real_open, real_bytes, real_text = builtins.open, pathlib.Path.read_bytes, pathlib.Path.read_text

        def record_open(file, *args, **kwargs):
            self.paths.append(str(file))
            return real_open(file, *args, **kwargs)

        def record_bytes(path):
            self.paths.append(str(path))
            return real_bytes(path)

        def record_text(path, *args, **kwargs):
            self.paths.append(str(path))
            return real_text(path, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", record_open)
        monkeypatch.setattr(pathlib.Path, "read_bytes", record_bytes)
        monkeypatch.setattr(pathlib.Path, "read_text", record_text)


HOUSE = ('extends = "classic2003"\n[edition]\nid = "rich"\nname = "rich"\n'
         '[components]\nstarting_gold = 30\n')


@pytest.mark.parametrize("named", ["/etc/passwd", "/proc/self/environ", "../../../etc/hostname", "HOUSE"])
def test_a_log_naming_a_file_opens_nothing_and_names_the_key(log, tmp_path, monkeypatch, named):
    house = tmp_path / "other.toml"
    house.write_text(HOUSE.replace('"rich"', '"classic2003"'))  # would load, and replay, fine
    named = str(house) if named == "HOUSE" else named
    lines = rows(log)
    lines[0]["variant_file"] = named
    save(log, lines)
    opened = Opened(monkeypatch)
    message = replay_error(log)
    assert f"{log}:1: variant_file: " in message and "--variant" in message
    assert not any(named in path or path == str(house) for path in opened.paths), opened.paths


def test_a_variant_id_that_is_not_shipped_needs_the_file(log):
    lines = rows(log)
    lines[0]["variant"] = "rich"
    save(log, lines)
    message = replay_error(log)
    assert f"{log}:1: variant: \"rich\" is not a shipped variant" in message and "--variant" in message


def test_a_log_played_from_a_file_replays_from_the_file_given_and_never_falls_back(capsys, tmp_path):
    house = tmp_path / "house.toml"
    house.write_text(HOUSE)
    log, out = make_log(capsys, tmp_path, "--variant", str(house))
    assert f"check it with: amunre replay {log} --variant {house}" in out
    assert rows(log)[0]["variant_file"] == str(house.resolve())
    assert "variant_file" in replay_error(log)  # not opened: named on the command line only
    game, _ = replay_lines(read_log(log), str(log), variant=str(house))
    assert game.variant.id == "rich"
    # another variant than the log's
    assert f"{log}:1: variant: the log's game is \"rich\", but --variant gives \"classic2003\"" in replay_error(
        log, variant="classic2003")
    # the file gone: an error, never the shipped id instead
    house.unlink()
    assert "variant_file" in replay_error(log)
    code, out, err = run_cli(capsys, "replay", str(log), "--variant", str(house))
    assert code == 2 and err.startswith("error: --variant: ") and "does not exist" in err


def test_run_with_set_prints_the_command_that_replays_it(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "run", "--seed", "2", "--players", "3", "--agents", "random", "--quiet",
                             "--log", "my game.jsonl", "--set", "components.starting_gold=25")
    assert code == 0, err
    command = out.split("check it with: ")[1].strip()
    assert command == "amunre replay 'my game.jsonl' --variant 'my game.jsonl.variant.toml'"
    assert sorted(os.listdir(tmp_path)) == ["my game.jsonl", "my game.jsonl.variant.toml"]
    code, out, err = run_cli(capsys, *shlex.split(command)[1:])
    assert code == 0 and "replay OK" in out, err
    code, out, err = run_cli(capsys, "replay", "my game.jsonl")
    assert code == 2 and ":1: variant_file: " in err


def test_a_shipped_variant_is_logged_by_id_and_replays_from_anywhere(capsys, tmp_path, monkeypatch):
    log, out = make_log(capsys, tmp_path)
    assert rows(log)[0]["variant_file"] == "" and out.rstrip().endswith(f"check it with: amunre replay {log}")
    monkeypatch.chdir(tmp_path.parent)
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 0 and "replay OK: classic2003" in out, err
    # --variant with the shipped id works as well
    code, out, err = run_cli(capsys, "replay", str(log), "--variant", "classic2003")
    assert code == 0, err


# -- writing the log: all or nothing ---------------------------------------------------------

def _folder_files(folder) -> list[str]:
    return sorted(os.listdir(folder))


@pytest.mark.parametrize("extra", [(), ("--set", "components.starting_gold=25")])
def test_a_full_disk_leaves_no_log_and_says_so(capsys, tmp_path, monkeypatch, extra):
    from amunre.gamelog import write as gamelog_write

    log = tmp_path / "g.jsonl"
    log.write_text("an older log\n")

    def full(file, text):
        file.write(text[:100])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(gamelog_write, "_write_all", full)
    code, out, err = run_cli(capsys, "run", "--seed", "1", "--players", "3", "--agents", "random", "--quiet",
                             "--log", str(log), *extra)
    assert code == 2 and "Traceback" not in out + err
    assert err.startswith("error: cannot write the log --log ") and "No space left on device" in err
    assert "the disk is full" in err and "nothing was written" in err
    assert _folder_files(tmp_path) == ["g.jsonl"] and log.read_text() == "an older log\n"


@pytest.mark.parametrize("extra", [(), ("--set", "components.starting_gold=25")])
def test_an_interrupted_game_leaves_a_log_of_its_answers_so_far(capsys, tmp_path, monkeypatch, extra):
    """Ctrl-C in the middle of a bot game with --log: the answers so far are written, marked
    incomplete (with the variant file a --set needs), and replay checks them to that point."""
    from amunre.agents.random_agent import RandomAgent

    calls = [0]
    choose = RandomAgent.choose

    def tired(self, view, request):
        calls[0] += 1
        if calls[0] == 50:
            raise KeyboardInterrupt
        return choose(self, view, request)

    monkeypatch.setattr(RandomAgent, "choose", tired)
    log = tmp_path / "g.jsonl"
    code, out, err = run_cli(capsys, "run", "--seed", "1", "--players", "3", "--agents", "random", "--quiet",
                             "--log", str(log), *extra)
    assert calls[0] == 50
    assert code == 130 and "Traceback" not in out + err
    assert err.startswith("the game stopped: its first ") and "marked incomplete; check them with: amunre replay" in err
    assert _folder_files(tmp_path) == (["g.jsonl", "g.jsonl.variant.toml"] if extra else ["g.jsonl"])
    monkeypatch.undo()
    replay = ["replay", str(log)] + (["--variant", f"{log}.variant.toml"] if extra else [])
    code, out, err = run_cli(capsys, *replay)
    assert code == 0 and out.startswith("replay OK, incomplete game (stopped because it was interrupted)"), err


def test_a_log_gets_the_permissions_of_a_new_file(log):
    mask = os.umask(0o022)
    os.umask(mask)
    assert log.stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize("argv, named", [
    (["run", "--quiet", "--log", "a" * 300 + ".jsonl"], "--log 'aaaa"),
    (["run", "--quiet", "--log", "/nonexistent-dir/" + "b" * 300 + "/x.jsonl"], "--log '/nonexistent-dir/bbb"),
    (["run", "--quiet", "--log", "a/" * 3000 + "x.jsonl"], "--log 'a/a/"),
    (["replay", "a" * 300 + ".jsonl"], "LOG_FILE 'aaaa"),
    (["replay", "a/" * 3000 + "x.jsonl"], "LOG_FILE 'a/a/"),
])
def test_a_path_too_long_names_the_argument(capsys, tmp_path, monkeypatch, argv, named):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and err.startswith("error: ") and named in err, err
    assert "Traceback" not in out + err and len(err) < 500 and out == ""
    assert _folder_files(tmp_path) == []


@pytest.mark.parametrize("target", ["/dev/null", "/dev/stdout", "LINK"])
def test_the_log_is_never_renamed_over_a_link_or_a_device(capsys, tmp_path, target):
    if target == "LINK":
        (tmp_path / "real.jsonl").write_text("kept\n")
        (tmp_path / "link.jsonl").symlink_to(tmp_path / "real.jsonl")
        target = str(tmp_path / "link.jsonl")
    code, out, err = run_cli(capsys, "run", "--quiet", "--players", "3", "--log", target)
    assert code == 2 and out == "" and err.startswith(f"error: cannot write the log --log '{target}': ")
    assert "a link" in err or "not a regular file" in err
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
    if "link" in target:
        assert (tmp_path / "real.jsonl").read_text() == "kept\n" and os.path.islink(target)


def test_replay_reads_only_a_regular_file(capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):  # each would never end
        code, out, err = run_cli(capsys, "replay", path)
        assert code == 2 and err == f"error: cannot read log LOG_FILE '{path}': not a regular file (expected the " \
                                    f"file `amunre run --log` writes)\n"


def test_replay_variant_path_too_long_names_the_argument(capsys, log):
    code, out, err = run_cli(capsys, "replay", str(log), "--variant", "v" * 300 + ".toml")
    assert code == 2 and err.startswith("error: --variant: ") and "Traceback" not in err


# -- read as it is replayed: memory and time do not grow with the log -----------------------

class CountingOpen:
    """`open` that counts the bytes read from one file (the log), however they are read."""

    def __init__(self, monkeypatch, path):
        self.path, self.read = str(path), 0
        real = builtins.open
        counter = self

        class Counted:
            def __init__(self, file):
                self.file = file

            def __getattr__(self, name):
                return getattr(self.file, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.file.close()

            def __iter__(self):
                return self

            def __next__(self):
                return self.readline()

            def _count(self, data):
                counter.read += len(data)
                return data

            def read(self, *args):
                return self._count(self.file.read(*args))

            def readline(self, *args):
                data = self._count(self.file.readline(*args))
                if not data and not args:
                    raise StopIteration
                return data

        def counting_open(file, *args, **kwargs):
            opened = real(file, *args, **kwargs)
            return Counted(opened) if str(file) == counter.path else opened

        monkeypatch.setattr(builtins, "open", counting_open)


def _with_tail(log, lines, tail_bytes: int, sparse: bool) -> int:
    """`lines` written to `log`, then a tail of `tail_bytes`: copies of the game's own event
    lines, or a hole (a sparse file: nothing written, read as NUL bytes). Returns the size
    of the part written before the tail."""
    body = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines).encode()
    with open(log, "wb") as file:
        file.write(body)
        if sparse:
            file.truncate(len(body) + tail_bytes)
        else:
            events = "".join(json.dumps(line) + "\n" for line in lines[1:-1]).encode()
            file.write(events * (tail_bytes // len(events) + 1))
    return len(body)


@pytest.mark.parametrize("sparse", [False, True])
def test_replay_stops_at_the_first_difference_having_read_only_up_to_it(capsys, log, monkeypatch, sparse):
    """Line 2 differs; what follows is 200 MB (a hole) or 30 MB of real event lines: replay
    says line 2 having read a few kB, in a few MB of memory (it read and parsed the whole
    log first: 2.7 GB and 19 s for a log of 200 MB)."""
    import tracemalloc

    lines = rows(log)
    lines[1]["gold"] += 1
    size = 200 * 2**20 if sparse else 30 * 2**20
    _with_tail(log, lines, size, sparse)
    counted = CountingOpen(monkeypatch, log)
    tracemalloc.start()
    try:
        code, out, err = run_cli(capsys, "replay", str(log))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and err.startswith(f"error: {log}:2: gold: the log has 21, the replay 20"), err
    assert counted.read < 64 * 1024, counted.read  # its first lines, not the log
    assert peak < 8 * 2**20, peak


def test_a_log_of_many_answers_missing_is_refused_without_reading_it_whole(log, monkeypatch):
    """The answer a seat looks ahead for is looked for a bounded number of lines ahead: a
    log whose first decision is followed by a million other lines is not read whole."""
    lines = rows(log)
    index = first(lines, "decision")
    filler = json.dumps(lines[index], separators=(",", ":")) + "\n"
    body = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    cut = body.index("\n", sum(len(json.dumps(line, separators=(",", ":"))) + 1 for line in lines[:index]))
    log.write_text(body[:cut + 1] + filler * 1_000_000 + body[cut + 1:])
    counted = CountingOpen(monkeypatch, log)
    with pytest.raises(ReplayError) as info:
        from amunre.gamelog import replay_log
        replay_log(log)
    assert str(info.value).startswith(f"{log}:{index + 2}: event: the log has \"decision\", the replay \"answer\""), \
        info.value
    assert counted.read < 1_000_000, counted.read


def test_a_line_longer_than_the_limit_is_refused_without_reading_past_it(tmp_path, log, monkeypatch):
    from amunre.gamelog import MAX_LINE_BYTES

    lines = log.read_text().splitlines()
    lines.insert(2, '{"type":"event","event":"' + "x" * MAX_LINE_BYTES + '"}')
    log.write_text("\n".join(lines) + "\n")
    message = replay_error(log)
    assert message == f"{log}:3: a line longer than 16 MB (expected the lines `amunre run --log` writes, each " \
                      f"under a few kB)"


def test_a_log_that_stops_before_the_first_decision_is_refused_not_a_crash(capsys, log):
    """A header and an `incomplete` line: the replay stopped in the game's setup (an
    internal error before)."""
    lines = rows(log)
    save(log, [lines[0], {"type": "incomplete", "decisions": 0, "reason": "left"}])
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 2 and err.startswith(f"error: {log}:2: the log stops here, before the game's first decision, "
                                        f"the replay goes on with the event \"setup\""), err
    assert err.count("\n") == 1


@pytest.mark.parametrize("edit, expected", [
    (lambda lines: lines + [lines[-1]], ":LAST: \"result\" before the last line"),
    (lambda lines: lines + [lines[1]], ":LAST: \"result\" before the last line"),
    (lambda lines: lines[:-1], ":LAST-1: expected the result last"),
    (lambda lines: lines[:-1] + [lines[0], lines[-1]], ":LAST: a second header"),
])
def test_the_end_of_a_log_is_checked_as_it_is_read(log, edit, expected):
    lines = log.read_text().splitlines()
    last = len(lines)
    log.write_text("\n".join(edit(lines)) + "\n")
    expected = expected.replace("LAST-1", str(last - 1)).replace("LAST", str(last))
    from amunre.gamelog import replay_log
    for replay in (lambda: replay_lines(read_log(log), str(log)), lambda: replay_log(log)):
        with pytest.raises(ReplayError) as info:
            replay()
        assert f"{log}{expected}" in str(info.value), info.value


# -- the command line ------------------------------------------------------------------------

def test_replay_of_a_tampered_log_in_a_real_process_names_the_line(capsys, log):
    lines = rows(log)
    index = first(lines, "answer", _answer_with_zero)
    answer = list(lines[index]["answer"])
    answer[answer.index(0)] = False
    lines[index]["answer"] = answer
    save(log, lines)
    proc = subprocess.run([sys.executable, "-m", "amunre", "replay", str(log)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"error: {log}:{index + 1}: answer: ") and "Traceback" not in proc.stderr


def test_replay_json_follows_its_schema_and_says_the_result(capsys, log):
    import jsonschema

    from amunre.loader.resources import load_schema

    code, out, err = run_cli(capsys, "replay", str(log), "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("replay"))
    result = rows(log)[-1]
    assert doc["complete"] and doc["scores"] == result["scores"] and doc["winners"] == result["winners"]
    assert doc["decisions"] == result["decisions"]
