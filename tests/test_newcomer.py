"""What a newcomer meets first, from the README: `amunre` alone, the paths commands print,
and a position file that says which scoring it is."""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import run_cli

POSITIONS = Path(__file__).resolve().parent / "positions"


def test_amunre_alone_prints_the_help_and_exits_0(capsys):
    code, out, err = run_cli(capsys)
    assert code == 0 and err == ""
    assert out.startswith("Usage: amunre") and "Commands:" in out and "run" in out


def test_board_names_the_shipped_board_not_where_pip_put_it(capsys):
    from amunre.loader.resources import variants_dir

    for argv in (["board"], ["board", "--provisional"], ["board", "--variant", "expert2016"]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 0, err
        assert str(variants_dir()) not in out and "shipped board.toml" in out.replace("\n", " "), out[:300]


def test_board_of_a_variant_given_by_path_names_the_board_beside_it(capsys, tmp_path, monkeypatch):
    from amunre.loader.resources import variants_dir

    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "board.toml").write_text((variants_dir() / "board.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "my.toml").write_text((variants_dir() / "classic2003.toml").read_text(encoding="utf-8"),
                                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "board", "--variant", "mine/my.toml", "--provisional")
    assert code == 0, err
    assert out.startswith(f"66 provisional values in {os.path.join('mine', 'board.toml')} ")


def test_check_names_the_variant_by_its_id_or_the_path_given(capsys, tmp_path):
    from amunre.loader.resources import variants_dir

    code, out, err = run_cli(capsys, "check", "classic2003", "--games", "1", "--players", "3", "--agents", "random")
    assert code == 0, err
    assert (out.startswith("checking classic2003: 1 game per player count")
            and "\nclassic2003: all invariants held" in out)
    assert str(variants_dir()) not in out
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "classic2003"\n[edition]\nid = "mine"\nname = "mine"\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(mine), "--games", "1", "--players", "3", "--agents", "random")
    assert code == 0, err
    assert f"mine ({mine}): all invariants held" in out


def test_variants_names_a_broken_shipped_file_within_the_shipped_folder(capsys, tmp_path, monkeypatch):
    """A shipped variant that does not load is listed with its first problem, the file named
    as it lies in the variants folder (`house/broken.toml`), not by its install path."""
    import amunre.cli.file_names as file_names
    import amunre.cli.variants_cmd as variants_cmd

    (tmp_path / "house").mkdir()
    broken = tmp_path / "house" / "broken.toml"
    broken.write_text('[edition]\nid = "broken"\nplayers = "many"\n', encoding="utf-8")
    monkeypatch.setattr(file_names, "variants_dir", lambda: tmp_path)
    monkeypatch.setattr(variants_cmd, "variant_locations", lambda: [("broken", broken, "shipped")])
    code, out, err = run_cli(capsys, "variants")
    assert code == 0, err
    assert "INVALID" in out and "house/broken.toml" in out and str(tmp_path) not in out, out


def test_a_position_says_which_scoring_it_is(capsys, tmp_path):
    """e06 says `scoring = "final"`: scored without --final it is the final scoring (the
    gold ranking, a winner); --no-final, or a copy without the key, scores the kingdom only."""
    e06 = POSITIONS / "e06_final_scoring.toml"
    code, out, err = run_cli(capsys, "score", str(e06))
    assert code == 0, err
    assert "points this final scoring" in out and "Winner: blue" in out
    code, out, err = run_cli(capsys, "score", str(e06), "--no-final")
    assert code == 0 and "points this scoring" in out and "Winner" not in out
    plain = tmp_path / "plain.toml"
    plain.write_text(e06.read_text(encoding="utf-8").replace('scoring = "final"', ""), encoding="utf-8")
    code, out, err = run_cli(capsys, "score", str(plain))
    assert code == 0 and "points this scoring" in out and "Winner" not in out
    code, out, err = run_cli(capsys, "score", str(plain), "--final")
    assert code == 0 and "Winner: blue" in out
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(e06.read_text(encoding="utf-8").replace('scoring = "final"', 'scoring = "last"'),
                     encoding="utf-8")
    code, out, err = run_cli(capsys, "score", str(wrong))
    assert code == 2 and "scoring" in err and "Traceback" not in err, err


def test_the_bonus_card_group_is_not_titled_with_one_cards_name(capsys):
    """In 2003 the bonus cards' scoring entry is named "power card bonus", which is also the
    name of the Master of Scribes card: the group of rows gets the module's words instead."""
    from tests.helpers import classic


    code, out, err = run_cli(capsys, "score", str(POSITIONS / "e06_final_scoring.toml"))
    rows = [line.split("│")[1].rstrip() for line in out.splitlines() if line.startswith("│")]
    scribes = classic().term("master_of_scribes")
    assert "│ bonus cards " in out and f" {scribes}" not in [r for r in rows if not r.startswith("   ")]
    code, out, err = run_cli(capsys, "score", "--variant", "supermeeple2016", str(POSITIONS / "e06_final_scoring.toml"))
    assert "│ Favor cards " in out  # a name that is no card's stays


def test_a_position_path_that_cannot_be_read_lists_its_one_problem(tmp_path):
    """Every PositionError lists its problems, the path's own too (found by the deep fuzz
    profile: a file over the size limit had none)."""
    import pytest

    from amunre.core.errors import PositionError
    from amunre.planning.position import read_position_raw
    from amunre.planning.position.read import MAX_BYTES

    big = tmp_path / "big.toml"
    big.write_text("#" * (MAX_BYTES + 1), encoding="utf-8")
    for path in (big, tmp_path / "none.toml", tmp_path / "x.txt", tmp_path):
        with pytest.raises(PositionError) as caught:
            read_position_raw(path)
        assert caught.value.problems == [str(caught.value)], path


def test_board_prints_a_long_province_name_whole(capsys, tmp_path, monkeypatch):
    """A long name (with markup-like brackets) is one cell line, never wrapped at a space
    (found by the deep fuzz profile: the other columns give way instead)."""
    from amunre.loader.resources import variants_dir

    name = "0000000000000000[bold red]0000000000000000[/]"
    board = (variants_dir() / "board.toml").read_text(encoding="utf-8").replace('name = "Buto"', f'name = "{name}"', 1)
    (tmp_path / "board.toml").write_text(board, encoding="utf-8")
    (tmp_path / "my.toml").write_text((variants_dir() / "classic2003.toml").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "board", "--variant", "my.toml")
    assert code == 0, err
    assert any(name in line for line in out.splitlines())
