"""Golden playthroughs: one readable transcript per shipped variant in tests/playthroughs/.

Each transcript is a seeded greedy game (`amunre.testing.playthrough`): the resolved
variant, then every decision (player, number of options, answer) and every event. The test
fails when a fresh game differs from its transcript, when a shipped variant has none, and
when a transcript belongs to no variant; a designer's own file without one (dropped into
variants/ or found on AMUNRE_PATH) is skipped with the command that records it. After an intended
rule change, regenerate them
from the repository root and review the diff:

    python -m amunre.testing --regenerate-playthroughs tests/playthroughs
    (or: python tests/test_playthroughs.py)
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

from amunre.testing import REGENERATE, load, playthrough, regenerate_playthroughs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import project_files, variant_files

FOLDER = Path(__file__).resolve().parent / "playthroughs"
VARIANTS = variant_files()


def transcript_path(path: Path) -> Path:
    return FOLDER / f"{load(path).id}.txt"


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
def test_playthrough_matches(path):
    golden = transcript_path(path)
    if not golden.is_file():
        missing = f"{path.name} has no golden playthrough {golden}; record it with: {REGENERATE} {path}"
        if not project_files([path]):  # a designer's own file: the one thing the suite cannot know
            pytest.skip(missing)
        pytest.fail(missing)  # a file of the project must have one
    expected = golden.read_text(encoding="utf-8")
    actual = playthrough(path)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                                 str(golden), "fresh game", n=2))[:60])
        pytest.fail(f"the game of {path.name} no longer matches {golden.name}; if the change is intended, "
                    f"regenerate with: {REGENERATE}\n{diff}")


def test_every_transcript_belongs_to_a_variant():
    ids = {load(path).id for path in VARIANTS}
    stale = sorted(p.name for p in FOLDER.glob("*.txt") if p.stem not in ids)
    assert not stale, f"transcripts without a variant file: {stale} (delete them or restore the variant)"


def test_a_transcript_is_readable_and_complete():
    text = (FOLDER / "classic2003.txt").read_text(encoding="utf-8")
    assert REGENERATE in text
    assert "#   [edition]" in text and 'id = "classic2003"' in text
    decisions = [line for line in text.splitlines() if line.startswith("> player ")]
    assert decisions and all(" options): " in line for line in decisions)
    assert "  scoring " in text and "  game_end " in text
    assert text.rstrip().splitlines()[-1].startswith("# result: ")


def test_a_changed_game_is_noticed(tmp_path):
    """The comparison really fails: a one-rule change gives a different transcript."""
    source = (VARIANTS[0].parent / "classic2003.toml").read_text(encoding="utf-8")
    changed = source.replace("starting_gold = 20", "starting_gold = 21")
    path = tmp_path / "classic2003.toml"
    path.write_text(changed, encoding="utf-8")
    assert playthrough(path) != (FOLDER / "classic2003.txt").read_text(encoding="utf-8")


if __name__ == "__main__":
    for written in regenerate_playthroughs(FOLDER, VARIANTS):
        print(f"wrote {written}")


def test_a_new_house_rule_records_its_own_playthrough_alone(tmp_path, capsys):
    """What the missing-playthrough message says to run, with a variant file named, writes
    that variant's transcript only (a designer records theirs without touching the others)."""
    from amunre.testing.command import main

    house = tmp_path / "mine.toml"
    house.write_text('extends = "classic2003"\n[edition]\nid = "mine"\nname = "mine"\n[components]\n'
                     'starting_gold = 25\n', encoding="utf-8")
    folder = tmp_path / "playthroughs"
    assert main(["--regenerate-playthroughs", str(folder), str(house)]) == 0
    assert [p.name for p in folder.iterdir()] == ["mine.txt"]
    assert (folder / "mine.txt").read_text(encoding="utf-8") == playthrough(house)
    with pytest.raises(SystemExit) as stopped:
        main(["--regenerate-playthroughs", str(folder), "no-such-variant"])
    assert stopped.value.code == 2 and "unknown variant 'no-such-variant'" in capsys.readouterr().err


def test_only_the_projects_own_files_must_have_a_playthrough(tmp_path):
    """The shipped files are the project's (a missing transcript fails); a file outside
    variants/ (an AMUNRE_PATH folder) never is (a missing one is skipped, saying how to record it)."""
    from conftest import VARIANTS_DIR, project_files

    shipped = [VARIANTS_DIR / "classic2003.toml", VARIANTS_DIR / "house" / "long-kingdoms.toml"]
    assert project_files(shipped) == shipped
    elsewhere = tmp_path / "mine.toml"
    elsewhere.write_text("", encoding="utf-8")
    assert project_files([elsewhere]) == []
