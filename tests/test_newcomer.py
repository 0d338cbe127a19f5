"""What a newcomer meets first, from the README: `amunre` alone, the paths commands print,
and a position file that says which scoring it is (issue 10, "Newcomer frictions")."""

from __future__ import annotations

from tests.helpers import run_cli


def test_amunre_alone_prints_the_help_and_exits_0(capsys):
    code, out, err = run_cli(capsys)
    assert code == 0 and err == ""
    assert out.startswith("Usage: amunre") and "Commands:" in out and "run" in out
