"""docs/tutorial.md works as written: its shell blocks are run in order, in a fresh folder,
with the `amunre` of this environment; the block a person types answers into is given
answers (option 0 at every question)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TUTORIAL = REPO / "docs" / "tutorial.md"
BLOCK = re.compile(r"```(sh|sh-human)\n(.*?)```", re.S)


def blocks() -> list[tuple[str, str]]:
    return BLOCK.findall(TUTORIAL.read_text(encoding="utf-8"))


def test_the_tutorial_has_every_step():
    kinds = [kind for kind, _ in blocks()]
    text = "".join(code for _, code in blocks())
    assert kinds.count("sh-human") == 1
    for command in ("amunre validate", "amunre variants", "amunre diff", "amunre check", "amunre compare",
                    "amunre run"):
        assert command in text, command


def test_every_command_of_the_tutorial_runs(tmp_path):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               HOME=str(tmp_path), COLUMNS="120", PYTHONPATH=str(REPO))
    env.pop("AMUNRE_PATH", None)
    script = "set -euo pipefail\n" + "".join(code for kind, code in blocks() if kind == "sh")
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "validate found the typo" in out and "did you mean 'double'?" in out
    assert "rules/big-pyramids.toml: ok" in out and "big-pyramids" in out and "all invariants held" in out
    assert "scoring.pyramids.double" in out and "report written to report.html" in out and "Winner:" in out
    assert (tmp_path / "report.html").stat().st_size > 10_000
    human = "".join(code for kind, code in blocks() if kind == "sh-human")
    played = subprocess.run(["bash", "-c", f'export AMUNRE_PATH="$PWD/rules"\n{human}'], cwd=tmp_path, env=env,
                            input="0\n" * 3000, capture_output=True, text=True, timeout=300)
    assert played.returncode == 0 and "Winner:" in played.stdout, played.stderr[-2000:]
