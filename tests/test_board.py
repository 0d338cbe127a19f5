"""The board file: the checks listed in board.md (counts, ranges, bonus cards reachable,
confirmed values, provisional marks), board validation errors, and the shipped data being
found after a plain (non-editable) install."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from helpers import offline_build_possible, run_cli

from amunre.core.board import HALVES, PROVINCE_FIELDS, RANGES, SIDES, Province
from amunre.core.errors import VariantError
from amunre.loader import available_variants, load_board, load_variant
from amunre.loader.resources import load_schema, variants_dir

REPO = Path(__file__).resolve().parent.parent
BOARD_FILE = variants_dir() / "board.toml"
#: board.md, the provenance of every value (beside the checkout, as in CI)
BOARD_MD = REPO.parent / "shared" / "board.md"


@pytest.fixture(scope="module")
def board():
    return load_board(BOARD_FILE)


def by_name(board) -> dict[str, Province]:
    return {p.name: p for p in board.provinces}


# -- the counts and ranges board.md asks for ---------------------------------------------


def test_fifteen_provinces(board):
    assert len(board) == 15
    assert len({p.name for p in board.provinces}) == 15


def test_seven_lower_eight_upper(board):
    halves = [p.half for p in board.provinces]
    assert (halves.count("lower"), halves.count("upper")) == (7, 8)


def test_eight_west_seven_east(board):
    sides = [p.side for p in board.provinces]
    assert (sides.count("west"), sides.count("east")) == (8, 7)


def test_every_value_in_range(board):
    for p in board.provinces:
        assert p.half in HALVES and p.side in SIDES and isinstance(p.nile, bool), p.name
        for field, (low, high) in RANGES.items():
            assert low <= getattr(p, field) <= high, (p.name, field)


def test_some_province_allows_four_cards(board):
    assert max(p.card_limit for p in board.provinces) == 4


def test_master_of_scribes_is_reachable(board):
    """>= 7 card symbols (purchase limit + free cards) over 3 provinces."""
    best = max(sum(p.card_symbols for p in trio) for trio in itertools.combinations(board.provinces, 3))
    assert best >= 7


def test_master_of_farmers_is_reachable(board):
    """>= 9 farmers on fields over 3 provinces."""
    best = max(sum(p.fields for p in trio) for trio in itertools.combinations(board.provinces, 3))
    assert best >= 9


# -- confirmed values (board.md, "Confirmed") -------------------------------------------

FREE = {  # free items on acquisition; every other province has none
    "Thebes": {"free_cards": 2},
    "Buto": {"free_cards": 1},
    "Edfu": {"free_cards": 1},
    "Dakhla": {"free_cards": 1, "free_gold": 12},
    "Abydos": {"free_stones": 1},
    "Memphis": {"free_stones": 2},
}
MINES = {"Abu": 4, "Berenike": 8}
CARAVANS = {"Kharga": 5, "Sawu": 7, "Avaris": 8}
TEMPLES = {"Damanhur": 2, "Edfu": 1}  # Amarna: at least 1 (its count is provisional)
CARD_LIMITS = {"Thebes": 2, "Memphis": 3, "Buto": 0, "Mendes": 0}
FIELDS = {"Thebes": 4, "Baharya": 2, "Berenike": 0}
BID_SPACES = (0, 1, 3, 6, 10, 15, 21, 28, 36)
LEVEL_FLOORS = (3, 13, 23)  # <= 2 -> 1, 3-12 -> 2, 13-22 -> 3, >= 23 -> 4


def test_confirmed_free_items(board):
    for p in board.provinces:
        expected = FREE.get(p.name, {})
        for field in ("free_cards", "free_stones", "free_gold"):
            assert getattr(p, field) == expected.get(field, 0), (p.name, field)


def test_confirmed_mines_caravans_and_temples(board):
    for p in board.provinces:
        assert p.mine == MINES.get(p.name, 0), p.name
        assert p.caravan == CARAVANS.get(p.name, 0), p.name
        if p.name == "Amarna":
            assert p.temples >= 1
        else:
            assert p.temples == TEMPLES.get(p.name, 0), p.name


def test_confirmed_card_limits_fields_and_thebes(board):
    names = by_name(board)
    for name, value in CARD_LIMITS.items():
        assert names[name].card_limit == value, name
    for name, value in FIELDS.items():
        assert names[name].fields == value, name
    thebes = names["Thebes"]
    assert (thebes.half, thebes.side, thebes.nile) == ("upper", "east", True)
    assert thebes.provisional == ()


def test_known_bounds_on_provisional_values(board):
    """Values that are provisional but bounded by the rulebook examples stay inside the bounds."""
    p = by_name(board)
    assert p["Buto"].fields >= 5 and p["Mendes"].fields >= 4
    assert 1 <= p["Avaris"].card_limit <= 3 and p["Avaris"].fields >= 1
    assert p["Memphis"].fields >= 1 and p["Abu"].fields >= 2
    assert p["Amarna"].card_limit <= 3 and p["Edfu"].card_limit <= 2


def test_bid_spaces_and_offering_levels_in_every_edition():
    editions = [vid for vid, path in available_variants().items() if path.parent == variants_dir()]
    assert "classic2003" in editions
    for vid in editions:
        v = load_variant(vid)
        for spec in v.phases:
            if spec.rule == "auction":
                assert spec.params.bid_spaces == BID_SPACES, vid
            if spec.rule == "offering":
                assert spec.params.level_floors == LEVEL_FLOORS, vid


# -- provisional values (board.md's italics) ------------------------------------------------

GEO = ("half", "side", "nile")  # placed from the real site, never confirmed except for Thebes
ITALICS = {
    "Buto": GEO + ("fields",),
    "Damanhur": GEO + ("card_limit", "fields"),
    "Mendes": GEO + ("fields",),
    "Avaris": GEO + ("card_limit", "fields"),
    "Memphis": GEO + ("fields",),
    "Baharya": GEO + ("card_limit",),
    "Amarna": GEO + ("card_limit", "fields", "temples"),
    "Sawu": GEO + ("card_limit", "fields"),
    "Abydos": GEO + ("card_limit", "fields"),
    "Thebes": (),
    "Dakhla": GEO + ("card_limit", "fields"),
    "Kharga": GEO + ("card_limit", "fields"),
    "Edfu": GEO + ("card_limit", "fields"),
    "Abu": GEO + ("card_limit", "fields"),
    "Berenike": GEO + ("card_limit",),
}


def test_italic_values_are_marked_provisional_and_only_those(board):
    names = by_name(board)
    assert set(names) == set(ITALICS)
    for name, fields in ITALICS.items():
        assert set(names[name].provisional) == set(fields), name


def test_provisional_values_listing(board):
    rows = board.provisional_values()
    assert ("Buto", "fields", 5) in rows
    assert not any(name == "Thebes" for name, _, _ in rows)
    assert len(rows) == sum(len(f) for f in ITALICS.values())


def _parse_board_md(text: str):
    """Rows of board.md's full table: name -> {field: (value, italic)}."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 10 or cells[0] in ("province", "") or set(cells[0]) <= set("-"):
            continue
        name, half, side, bank, limit, fields, immediate, mine, caravan, temples = cells

        def value(cell):
            italic = cell.startswith("*")
            token = cell.strip("*").split("*")[0].split()[0] if cell.strip("*") else "–"
            return token, italic

        row = {}
        for field, cell in (("half", half), ("side", side), ("card_limit", limit), ("fields", fields),
                            ("mine", mine), ("caravan", caravan), ("temples", temples)):
            token, italic = value(cell)
            row[field] = ((0 if token == "–" else int(token)) if field not in ("half", "side") else token, italic)
        token, italic = value(bank)
        row["nile"] = (token == "Nile", italic)
        free = {"free_cards": 0, "free_stones": 0, "free_gold": 0}
        for count, what in re.findall(r"(\d+) (card|stone|gold)", immediate):
            free[{"card": "free_cards", "stone": "free_stones", "gold": "free_gold"}[what]] = int(count)
        for field, count in free.items():
            row[field] = (count, False)
        rows[name] = row
    return rows


@pytest.mark.skipif(not BOARD_MD.is_file(),
                    reason="needs the project's board notes (board.md), which are not part of this "
                           "repository; a fresh clone skips this test (docs/board.md says where the values come from)")
def test_board_file_equals_board_md_table(board):
    table = _parse_board_md(BOARD_MD.read_text(encoding="utf-8"))
    assert len(table) == 15
    assert table["Dakhla"]["free_gold"] == (12, False) and table["Buto"]["fields"] == (5, True)
    assert table["Thebes"]["nile"] == (True, False) and table["Berenike"]["nile"] == (False, True)
    names = by_name(board)
    for name, row in table.items():
        province = names[name]
        for field, (value, italic) in row.items():
            assert getattr(province, field) == value, (name, field)
            assert (field in province.provisional) == italic, (name, field, "provisional mark")


# -- the schema and the code agree --------------------------------------------------------


def test_board_schema_matches_the_code():
    province = load_schema("board")["$defs"]["province"]
    props = province["properties"]
    assert set(props) == {f.name for f in attrs.fields(Province)}
    assert props["half"]["enum"] == list(HALVES) and props["side"]["enum"] == list(SIDES)
    assert {k for k, v in props.items() if v.get("type") == "integer"} == set(RANGES)
    assert set(province["required"]) == {f.name for f in attrs.fields(Province) if f.default is attrs.NOTHING}
    assert set(PROVINCE_FIELDS) <= set(props)


# -- board validation --------------------------------------------------------------------

BAD_BOARD = """
id = "bad"
name = "Bad board"

[[provinces]]
name = "Thebes"
half = "upper"
side = "east"
nile = true
card_limit = 7
provisional = ["feilds"]

[[provinces]]
name = "thebes"
half = "middle"
side = "east"
nile = "yes"
fields = -1
colour = "gold"
"""


def test_bad_board_reports_every_problem(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(BAD_BOARD.lstrip("\n"), encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_board(path)
    fields = ", ".join(sorted(PROVINCE_FIELDS))
    assert info.value.problems == [
        f"{path}:9: provinces[0].card_limit: 7 is out of range for Thebes (expected 0 to 4)",
        f"{path}:10: provinces[0].provisional[0]: 'feilds' is not a province field "
        f"(did you mean 'fields'? expected one of: {fields})",
        f"{path}:13: provinces[1].name: 'thebes' is already the name of provinces[0] "
        "(expected every province name once)",
        f"{path}:14: provinces[1].half: \"middle\" is not allowed (expected one of: \"lower\", \"upper\")",
        f"{path}:16: provinces[1].nile: wrong type: got \"yes\", a string (expected true or false)",
        f"{path}:17: provinces[1].fields: -1 is too small (expected at least 0)",
        f"{path}:18: provinces[1].colour: unknown key (expected one of: caravan, card_limit, fields, "
        "free_cards, free_gold, free_stones, half, mine, name, nile, note, provisional, side, temples)",
    ]


def test_board_syntax_error(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('id = "x"\n[[provinces]\n', encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_board(path)
    (only,) = info.value.problems
    assert only.startswith(f"{path}:2: TOML syntax error: ")


def test_board_with_only_required_fields(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text('id = "mini"\n[[provinces]]\nname = "A"\nhalf = "lower"\nside = "west"\nnile = false\n')
    mini = load_board(path)
    assert mini.id == "mini" and mini.name == "mini" and mini.provinces[0].fields == 0
    assert mini.source == str(path)


# -- the shipped data after a plain install ---------------------------------------------


CHECK_INSTALLED = r"""
import sys
from pathlib import Path
import amunre
target = Path(sys.argv[1]).resolve()
assert Path(amunre.__file__).resolve().is_relative_to(target), amunre.__file__
from amunre.loader.resources import load_schema, schemas_dir, variants_dir
from amunre.loader import available_variants, load_variant
for folder, wanted in ((variants_dir(), "classic2003.toml"), (schemas_dir(), "variant.schema.json")):
    assert folder.resolve().is_relative_to(target) and (folder / wanted).is_file(), folder
v = load_variant("classic2003")
assert len(v.board) == 15 and v.phases[1].rule == "auction"
schema = load_schema("variant")
assert "edition" in schema["properties"]
# every subpackage of the source tree made it into the installed package
import importlib
for name in sys.argv[2:]:
    module = importlib.import_module(name)
    assert Path(module.__file__).resolve().is_relative_to(target), f"{name} is not installed: {module.__file__}"
print("ok", v.id, sorted(available_variants()))
"""


def test_installed_package_finds_its_data(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for name in ("amunre", "variants", "schemas", "buildsupport"):  # buildsupport: the build backend
        shutil.copytree(REPO / name, src / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "setup.cfg", "setup.py"):
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, src / name)
    target = tmp_path / "site"
    cmd = [sys.executable, "-m", "pip", "install", str(src), "--target", str(target), "--no-deps",
           "--quiet", "--disable-pip-version-check"]
    if offline_build_possible():
        cmd += ["--no-build-isolation", "--no-index"]
    build = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert build.returncode == 0, build.stdout + build.stderr
    assert (target / "amunre" / "loader" / "resources.py").is_file()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(target)
    packages = sorted(
        ".".join(init.parent.relative_to(REPO).parts) for init in (REPO / "amunre").rglob("__init__.py")
    )
    assert "amunre.testing" in packages and "amunre.rules" in packages
    run = subprocess.run([sys.executable, "-c", CHECK_INSTALLED, str(target), *packages], capture_output=True,
                         text=True, cwd=elsewhere, env=env, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("ok classic2003")


def test_board_json_is_the_board_file_again(capsys, tmp_path):
    """`amunre board --json` follows the board file's schema, and written back as TOML it loads
    as the same board, provisional marks and notes included."""
    import json

    import jsonschema
    import tomli_w

    from amunre.loader import load_board, load_variant
    from amunre.loader.resources import load_schema

    code, out, err = run_cli(capsys, "board", "supermeeple2016", "--json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, load_schema("board"))
    path = tmp_path / "again.toml"
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    again, original = load_board(path), load_variant("supermeeple2016").board
    assert again.provinces == original.provinces and again.id == original.id
    code, out, err = run_cli(capsys, "board", "--json", "--provisional")
    assert code == 0, err
    provisional = json.loads(out)
    jsonschema.validate(provisional, load_schema("board"))
    assert all(p["provisional"] for p in provisional["provinces"])
