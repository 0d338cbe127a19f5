"""AMUNRE_PATH: a designer's folders of variant files, searched by id before the shipped
variants (`amunre.loader.files.search_folders`), wherever the tool is installed."""

from __future__ import annotations

import os

import pytest
from helpers import run_cli

HOUSE = '''extends = "classic2003"

[edition]
id = "my-house"
name = "My house rule"

[components]
starting_gold = 25
'''
SECOND = '''extends = "my-house"

[edition]
id = "my-second"
name = "My second house rule"

[components]
starting_gold = 30
'''


@pytest.fixture
def folder(tmp_path, monkeypatch):
    mine = tmp_path / "mine"
    (mine / "sub").mkdir(parents=True)
    (mine / "my-house.toml").write_text(HOUSE, encoding="utf-8")
    (mine / "sub" / "my-second.toml").write_text(SECOND, encoding="utf-8")
    monkeypatch.setenv("AMUNRE_PATH", os.pathsep.join([str(mine), str(tmp_path / "missing")]))
    monkeypatch.chdir(tmp_path)  # not the folder: the ids are found through the path alone
    return mine


def test_an_id_on_the_path_is_found_by_every_command_and_by_extends(capsys, folder):
    from amunre.loader import load_variant

    second = load_variant("my-second")
    assert second.components.starting_gold == 30 and second.id == "my-second"  # extends my-house by id
    code, out, err = run_cli(capsys, "show", "my-second")
    assert code == 0, err
    code, out, err = run_cli(capsys, "run", "--variant", "my-house", "--seed", "1", "--agents", "random", "--quiet")
    assert code == 0 and "Winner:" in out, err


def test_variants_lists_where_each_comes_from_and_the_entries_it_skipped(capsys, folder):
    code, out, err = run_cli(capsys, "variants")
    assert code == 0, err
    line = next(line for line in out.splitlines() if line.startswith("my-second "))
    assert str(folder) in line and "My second house rule" in line
    assert next(line for line in out.splitlines() if line.startswith("classic2003 ")).split()[-1] != str(folder)
    assert f"AMUNRE_PATH entry {str(folder.parent / 'missing')!r} is not a folder: skipped" in err


def test_an_id_found_twice_is_reported_naming_both_and_the_first_is_used(capsys, folder):
    (folder / "clash.toml").write_text('extends = "classic2003"\n\n[edition]\nid = "supermeeple2016"\n'
                                       'name = "my own 2016"\n', encoding="utf-8")
    from amunre.loader import load_variant

    assert load_variant("supermeeple2016").edition.name == "my own 2016"
    code, out, err = run_cli(capsys, "variants")
    assert code == 0
    said = next(line for line in err.splitlines() if "'supermeeple2016' is in" in line)
    assert str(folder / "clash.toml") in said and "supermeeple2016.toml (shipped)" in said and "first is used" in said


def test_without_the_path_an_id_of_the_folder_is_unknown(capsys, folder, monkeypatch):
    monkeypatch.delenv("AMUNRE_PATH")
    code, out, err = run_cli(capsys, "show", "my-house")
    assert code == 2 and "unknown variant 'my-house'" in err


def test_variants_json_follows_its_schema_and_says_where_from(capsys, folder):
    import json

    import jsonschema

    from amunre.loader.resources import load_schema

    code, out, err = run_cli(capsys, "variants", "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("variants"))
    found = {v["id"]: v for v in doc["variants"]}
    assert found["my-second"]["from"] == str(folder) and found["classic2003"]["from"] == "shipped"
    assert any("is not a folder: skipped" in note for note in doc["notes"])


def test_what_a_load_looked_at_adds_up_in_nested_blocks_and_stays_in_its_own_task(folder):
    """`looked_at`, what `amunre serve`'s lobby keeps a load's result by: an outer block gets
    what its inner blocks looked at too; two asyncio tasks loading at once on the one thread
    of an event loop each get their own files, not each other's."""
    import asyncio

    from amunre.loader import load_variant
    from amunre.loader.files import looked_at

    def named(paths, name):
        return any(path.name == name for path in paths)

    with looked_at() as outer:
        with looked_at() as inner:
            load_variant("my-house")
        assert folder / "my-house.toml" in inner and not named(inner, "supermeeple2016.toml")
        load_variant("supermeeple2016")
    assert inner <= outer and named(outer, "supermeeple2016.toml")

    async def load(vid, opened, other_opened):
        with looked_at() as looked:
            opened.set()
            await other_opened.wait()  # both blocks open at once
            load_variant(vid)
        return looked

    async def both():
        mine, theirs = asyncio.Event(), asyncio.Event()
        return await asyncio.gather(load("my-second", mine, theirs), load("supermeeple2016", theirs, mine))

    second, meeple = asyncio.run(both())
    assert folder / "sub" / "my-second.toml" in second and not named(second, "supermeeple2016.toml")
    assert named(meeple, "supermeeple2016.toml") and not any(path.name.startswith("my-") for path in meeple)
