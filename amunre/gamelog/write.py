"""Writing game logs: the lines of a game (header, events, result, or where it stopped),
written atomically so that a failed write leaves no partial log."""

from __future__ import annotations

import errno
import os
import tempfile
from functools import cache
from pathlib import Path

from amunre import __version__
from amunre.core.engine import Game
from amunre.core.errors import AmunreError
from amunre.gamelog.lines import FORMAT, canonical
from amunre.gamelog.messages import shown_path


class Recorder:
    """Listener that keeps every event of a game as a JSON-able dict."""

    def __init__(self):
        self.events: list[dict] = []

    def __call__(self, event: dict) -> None:
        self.events.append(event)


# -- writing ---------------------------------------------------------------------------------

@cache
def _shipped_files() -> dict[str, str]:
    """Shipped variant ids -> their files' resolved paths (the shipped files do not change
    while the program runs)."""
    from amunre.loader import available_variants

    found = {}
    for vid, path in available_variants().items():
        try:
            found[vid] = str(path.resolve())
        except (OSError, RuntimeError):
            continue
    return found


def variant_file_of(variant) -> str:
    """The header's `variant_file`: empty for a shipped variant (replayed by its id), else
    the absolute path of the file the game was played from (replay asks for it with
    `--variant`)."""
    if not variant.source:
        return ""
    try:
        source = str(Path(variant.source).resolve())
    except (OSError, RuntimeError):
        return str(variant.source)
    return "" if _shipped_files().get(variant.id) == source else source


def spec_text(name: str) -> str:
    """An agent spec in the one spelling a header holds: no spaces around the kind, the
    keys and the values, the parameters in key order (`mcts:exploration=1:iterations=5`).
    The agents read `" random\t"` as `random`; writing one spelling lets replay refuse a
    header whose names were edited so (a name it cannot read is left as it is, for
    `_check_header` to report)."""
    from amunre.agents import split_spec

    try:
        kind, params = split_spec(name)
    except (AmunreError, AttributeError):
        return name
    return kind + "".join(f":{key}={params[key]}" for key in sorted(params))


def _header(variant, players: int, seed: int, agents: list[str]) -> dict:
    return {
        "type": "header",
        "format": FORMAT,
        "amunre": __version__,
        "variant": variant.id,
        "variant_file": variant_file_of(variant),
        "players": players,
        "seed": seed,
        "agents": [spec_text(name) for name in agents],
    }


def header(game: Game, agents: list[str] | None = None) -> dict:
    """The first line. `agents` are the names `amunre.agents.make_agents` built the seats
    from with the game's seed (replay re-runs the bots); seats answered from elsewhere are
    `human`, the default."""
    return _header(game.variant, game.n_players, game.seed, agents or ["human"] * game.n_players)


def result(game: Game) -> dict:
    state = game.state
    return {
        "type": "result",
        "scores": [p.score for p in state.players],
        "breakdown": [dict(p.breakdown) for p in state.players],
        "gold": [p.gold for p in state.players],
        "winners": list(state.winners),
        "decisions": len(game.answers),
    }


def log_lines(game: Game, events: list[dict], agents: list[str] | None = None) -> list[dict]:
    return [header(game, agents)] + [{"type": "event", **e} for e in events] + [result(game)]


def incomplete_lines(game: Game, events: list[dict], agents: list[str] | None, reason: str) -> list[dict]:
    """The log of a game stopped before its end: the header, the events up to the first
    decision after the last answer (a replay of the answers stops at that decision; what
    followed it, a bot's sealed offer or a line cut off mid-phase, is left out), and an
    `incomplete` line instead of the result."""
    last_answer = max((i for i, e in enumerate(events) if e.get("event") == "answer"), default=-1)
    end = next((i + 1 for i in range(last_answer + 1, len(events)) if events[i].get("event") == "decision"),
               last_answer + 1)
    kept = events[:end]
    decisions = sum(1 for e in kept if e.get("event") == "answer")
    return ([header(game, agents)] + [{"type": "event", **e} for e in kept]
            + [{"type": "incomplete", "decisions": decisions, "reason": reason}])


def dumps_lines(lines: list[dict]) -> str:
    return "".join(canonical(line) + "\n" for line in lines)


def _write_all(file, text: str) -> None:
    """Write and flush to the disk (one place, so a test can make the disk full)."""
    file.write(text)
    file.flush()
    os.fsync(file.fileno())


def new_file_mode(path) -> int:
    """The permissions a file written at `path` gets: those of the file it replaces, else
    what the umask gives a new file (a temporary file starts private)."""
    try:
        return os.stat(path).st_mode & 0o777
    except (OSError, ValueError):
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def write_atomically(path, text: str, renames=(), what: str = "the log", argument: str = "--log") -> None:
    """Write `text` to `path` all or nothing: into a temporary file in the same folder,
    renamed to `path` only once it is complete. `renames` are (temporary, final) paths of
    files that belong with it, renamed into place just before it. On any failure (disk
    full, an interrupt) the temporary file is removed, `path` is left as it was, and a
    failure of the system is an `AmunreError` naming the file and `argument`."""
    path = Path(path)
    temporary = None
    try:
        # renamed into place: never over a link (/dev/stdout), a device or a pipe
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise AmunreError(f"cannot write {what} {argument} {shown_path(path)}: "
                              f"{'a link' if path.is_symlink() else 'not a regular file'} (expected the path of a "
                              f"regular file: the file is written whole, then renamed into place)")
        fd, temporary = tempfile.mkstemp(prefix=".amunre-", suffix=".tmp", dir=path.parent)
        os.chmod(temporary, new_file_mode(path))
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            _write_all(file, text)
        for source, target in renames:
            os.replace(source, target)
        os.replace(temporary, path)
        temporary = None
    except (OSError, ValueError) as exc:
        full = " (the disk is full)" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else ""
        raise AmunreError(f"cannot write {what} {argument} {shown_path(path)}: "
                          f"{getattr(exc, 'strerror', None) or exc}{full}; "
                          f"nothing was written") from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def write_log(path, lines: list[dict], renames=()) -> None:
    """Write a log atomically (see `write_atomically`)."""
    write_atomically(path, dumps_lines(lines), renames)
