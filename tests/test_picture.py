"""`amunre render`: a board picture (SVG) of a position file or of a logged game at a step.

The picture parses as XML, shows every province by name and every player's numbers, marks
exactly the board values the board data calls provisional, shows the bids of a position
mid-auction, speaks the variant's words, escapes every text from a file, and renders a game
of every shipped variant and every position under tests/positions/. Bad input is one clear
error line, exit code 2, and no file written.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from conftest import variant_files
from helpers import run_cli, variant_label

from amunre.agents import make_agents
from amunre.core.engine import play_game
from amunre.core.words import Words
from amunre.gamelog import Recorder, log_lines
from amunre.loader import load_variant
from amunre.picture import BoardPicture, log_steps
from amunre.planning.position import read_position, read_position_data

SVG = "{http://www.w3.org/2000/svg}"
REPO = Path(__file__).resolve().parent.parent
POSITIONS = (sorted((REPO / "tests" / "positions").glob("*.toml"))
             + sorted((REPO / "tests" / "positions").glob("*.json")))


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def all_text(root: ET.Element) -> str:
    """Every text the picture shows (tooltips included), one string."""
    return "\n".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))


def players_shown(root: ET.Element) -> list[dict]:
    return sorted(({k[5:]: v for k, v in el.attrib.items() if k.startswith("data-")}
                   for el in root.iter(f"{SVG}g") if el.get("class") == "player"), key=lambda d: int(d["player"]))


def marks(root: ET.Element) -> set[tuple[str, str]]:
    """(province, board field) of every provisional mark."""
    return {(el.get("data-province"), field) for el in root.iter(f"{SVG}rect") if el.get("class") == "provisional"
            for field in el.get("data-fields").split()}


def check_picture(root: ET.Element, variant, names, snap) -> None:
    """Every province by name, every player's numbers, in the variant's words."""
    shown = all_text(root)
    provinces = [el.get("data-name") for el in root.iter(f"{SVG}g") if el.get("class") == "province"]
    assert provinces == [p.name for p in variant.board.provinces]
    for province in variant.board.provinces:
        assert province.name in shown
    words = Words(variant, list(names))
    players = players_shown(root)
    assert [p["name"] for p in players] == list(names)
    for p, (gold, hand, theft, score) in enumerate(snap.players):
        assert players[p] == {"player": str(p), "name": names[p], "gold": str(gold), "hand": str(hand),
                              "theft": str(theft), "score": str(score)}
        assert f"{gold} {variant.term('gold')}" in shown
        assert words.count(hand, "favor") in shown
        assert words.count(score, "points") in shown
    assert variant.term("offering_level") in shown
    assert marks(root) == {(name, field) for name, field, _ in variant.board.provisional_values()}


# -- positions --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.name)
def test_every_position_file_renders(tmp_path, capsys, path):
    out = tmp_path / "board.svg"
    code, stdout, err = run_cli(capsys, "render", str(path), "-o", str(out))
    assert code == 0, err
    assert "board picture written to" in stdout
    data = read_position_data(path)
    variant = load_variant(data.get("variant", "classic2003"))
    position = read_position(path, variant)
    from amunre.picture import position_snapshot

    snap = position_snapshot(variant, position)
    root = parse(out.read_text(encoding="utf-8"))
    check_picture(root, variant, position.names, snap)
    for p, entry in enumerate(data["players"]):  # the numbers the file itself gives
        shown = players_shown(root)[p]
        assert shown["gold"] == str(entry.get("gold", 0))
        assert shown["hand"] == str(sum(entry.get("hand", {}).values()))
        assert shown["score"] == str(entry.get("score", 0))
    # each owned province carries its owner's name and its farmers on the fields
    shown = all_text(root)
    for entry in data["players"]:
        for name, counts in entry.get("provinces", {}).items():
            fields = variant.board.provinces[variant.board.index(name)].fields
            assert f"{counts.get('farmers', 0)}/{fields}" in shown


def test_provisional_values_have_a_dotted_outline_and_a_legend(tmp_path, capsys):
    out = tmp_path / "board.svg"
    assert run_cli(capsys, "render", str(POSITIONS[0]), "-o", str(out))[0] == 0
    root = parse(out.read_text(encoding="utf-8"))
    variant = load_variant("classic2003")
    expected = {(name, field) for name, field, _ in variant.board.provisional_values()}
    assert expected and marks(root) == expected
    for el in root.iter(f"{SVG}rect"):
        if el.get("class") == "provisional":
            assert el.get("stroke-dasharray"), "a provisional value has a dotted outline"
            assert "provisional" in "".join(el.itertext())  # its tooltip says so
    legend = next(el for el in root.iter(f"{SVG}g") if el.get("class") == "legend")
    assert "provisional board value" in " ".join("".join(t.itertext()) for t in legend.iter(f"{SVG}text"))
    # Thebes is confirmed everywhere: no mark at all
    assert not any(name == "Thebes" for name, _ in marks(root))


def test_text_from_files_is_escaped(tmp_path, capsys):
    """Names and words from files reach the SVG as text, never as markup."""
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic2003"\n[edition]\nid = "hostile"\nname = "<script>alert(1)</script> & co"\n'
                     '[terms]\ngold = "<b>gold</b> \\"&\\" \'x\'"\nfavor = "]]> card"\n', encoding="utf-8")
    position = tmp_path / "pos.toml"
    position.write_text('offering_level = 2\n[[players]]\nname = "<red> & \\"co\\""\ngold = 7\n'
                        '[players.provinces.Thebes]\nfarmers = 2\n[[players]]\nname = "</svg>\'"\n[[players]]\n'
                        'name = "x"\n', encoding="utf-8")
    out = tmp_path / "board.svg"
    code, _, err = run_cli(capsys, "render", str(position), "--variant", str(house), "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    assert "<script>" not in text and "<b>" not in text and "<red>" not in text and "]]> card" not in text
    root = parse(text)
    shown = all_text(root)
    for raw in ("<script>alert(1)</script> & co", '7 <b>gold</b> "&" \'x\'', '<red> & "co"', "</svg>'"):
        assert raw in shown
    assert [p["name"] for p in players_shown(root)] == ['<red> & "co"', "</svg>'", "x"]


def test_characters_xml_cannot_hold_are_written_as_escapes():
    from amunre.picture.svg import text_of

    assert text_of("a\x1bb\x00c\ufffe<") == "a\\x1bb\\x00c\\ufffe&lt;"
    parse(f"<svg xmlns='http://www.w3.org/2000/svg'><text>{text_of(chr(0xdcff) + chr(7) + '&')}</text></svg>")


# -- logged games -----------------------------------------------------------------------------


@cache
def played(path: str, players: int | None = None, seed: int = 5):
    """A game of random seats of a variant file: (lines of its log, the game)."""
    variant = load_variant(Path(path))
    n = players or variant.players[0]
    recorder = Recorder()
    game = play_game(variant, make_agents(["random"] * n, seed), seed, [recorder])
    return log_lines(game, recorder.events, ["random"] * n), game


@pytest.mark.parametrize("path", variant_files(), ids=variant_label)
def test_every_shipped_variant_renders_a_logged_game(path):
    """The start, a moment mid-auction (bids shown) and the end of a game of each variant."""
    lines, game = played(str(path))
    logged = log_steps(lines, checked=game)
    variant = logged.variant
    picture = BoardPicture(variant, logged.names)
    auction = next(i for i, step in enumerate(logged.steps) if step.snapshot.markers)
    for index in (0, auction, len(logged.steps) - 1):
        snap = logged.steps[index].snapshot
        root = parse(picture.document(snap))
        check_picture(root, variant, logged.names, snap)
        if index == auction:
            shown = all_text(root)
            for player, province, amount, _note in snap.markers:
                assert f"{logged.names[player]} {amount}" in shown
                assert variant.board.provinces[province].name in shown
    assert [p[3] for p in logged.steps[-1].snapshot.players] == lines[-1]["scores"]
    assert logged.steps[-1].snapshot.finished and list(logged.steps[-1].snapshot.winners) == lines[-1]["winners"]
    assert len(logged.steps) == lines[-1]["decisions"] + 1


def write_log(tmp_path, capsys, *extra) -> Path:
    log = tmp_path / "game.jsonl"
    code, _, err = run_cli(capsys, "run", "--players", "3", "--seed", "11", "--agents", "random", "--quiet",
                           "--log", str(log), *extra)
    assert code == 0, err
    return log


def test_render_a_log_at_a_step(tmp_path, capsys):
    log = write_log(tmp_path, capsys)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    decisions = lines[-1]["decisions"]
    logged = log_steps(lines, str(log))
    for step in (0, 1, 17, decisions, None):
        out = tmp_path / f"step{step}.svg"
        argv = ["render", str(log), "-o", str(out)] + ([] if step is None else ["--step", str(step)])
        code, stdout, err = run_cli(capsys, *argv)
        assert code == 0, err
        at = decisions if step is None else step
        assert f"step {at} of {decisions}" in stdout
        snap = logged.steps[at].snapshot
        check_picture(parse(out.read_text(encoding="utf-8")), logged.variant, logged.names, snap)
    end = players_shown(parse((tmp_path / "stepNone.svg").read_text(encoding="utf-8")))
    assert [int(p["score"]) for p in end] == lines[-1]["scores"]


# -- bad input --------------------------------------------------------------------------------


def one_error(code, out, err, *words):
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def test_bad_input_is_one_clear_error_line(tmp_path, capsys):
    log = write_log(tmp_path, capsys)
    decisions = json.loads(log.read_text().splitlines()[-1])["decisions"]
    out = tmp_path / "out.svg"
    text = tmp_path / "notes.txt"
    text.write_text("hello\n", encoding="utf-8")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text('{"type": "nonsense"}\n', encoding="utf-8")
    edited = tmp_path / "edited.jsonl"
    edited.write_text(log.read_text().replace('"seed":11', '"seed":12', 1), encoding="utf-8")
    cases = [
        (["render", str(tmp_path / "missing.toml"), "-o", str(out)], ["does not exist", "position file", "log"]),
        (["render", str(tmp_path), "-o", str(out)], ["is a folder"]),
        (["render", str(text), "-o", str(out)], ["neither a position nor a log"]),
        (["render", str(garbage), "-o", str(out)], ["neither a position nor a log"]),
        (["render", str(log), "--step", str(decisions + 1), "-o", str(out)],
         [f"--step {decisions + 1}", f"{decisions} decisions", f"to {decisions}"]),
        (["render", str(log), "--step", "x", "-o", str(out)], ["--step"]),
        (["render", str(POSITIONS[0]), "--step", "0", "-o", str(out)], ["--step", "position file"]),
        (["render", str(log), "-o", str(tmp_path / "no" / "such" / "b.svg")], ["-o", "No such file or directory"]),
        (["render", str(log), "-o", str(tmp_path)], ["-o", "it is a folder"]),
        (["render", str(log)], ["-o"]),
        (["render", str(edited), "-o", str(out)], ["edited.jsonl:", "differs on replay"]),
    ]
    for argv, words in cases:
        one_error(*run_cli(capsys, *argv), *words)
        assert not out.exists()
        assert not list(tmp_path.glob(".amunre-*"))


def test_the_output_is_never_the_input_and_never_empty(tmp_path, capsys):
    """-o onto FILE (by its name, another spelling of it or a hard link) would replace the log
    or the position with the picture: refused, the file untouched; -o '' says the path is empty."""
    log = write_log(tmp_path, capsys)
    position = tmp_path / "p.toml"
    position.write_bytes(POSITIONS[0].read_bytes())
    linked = tmp_path / "linked.jsonl"
    linked.hardlink_to(log)
    for source, target in ((log, log), (log, tmp_path / "." / log.name), (log, linked), (position, position)):
        before = source.read_bytes()
        one_error(*run_cli(capsys, "render", str(source), "-o", str(target)), "-o", "the file read")
        assert source.read_bytes() == before
    code, out, err = run_cli(capsys, "render", str(log), "-o", "")
    one_error(code, out, err, "-o", "the path is empty")
    assert "folder" not in err


def test_a_cut_off_log_says_each_word_once(tmp_path, capsys):
    log = write_log(tmp_path, capsys)
    text = log.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    inside = text.index('"event":"', len(text) // 2) + len('"event":"') + 2  # two letters into an event's name
    cut.write_text(text[:inside], encoding="utf-8")
    code, out, err = run_cli(capsys, "render", str(cut), "-o", str(tmp_path / "x.svg"))
    one_error(code, out, err, "cut.jsonl:", "not a JSON line", "Unterminated string")
    assert " at at " not in err and "starting at column" in err


def test_a_bad_position_is_reported_as_score_reports_it(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[players]]\nname = "red"\ngold = -3\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "render", str(bad), "-o", str(tmp_path / "x.svg"))
    assert code == 2 and err.startswith("error: ") and "gold" in err and "Traceback" not in err
    assert not (tmp_path / "x.svg").exists()


def test_the_auction_panel_lists_every_bid():
    """Every bid on a province is in the panel (names, amounts, notes), above the legend, as
    the markers on the card show them, with 4 or 5 players all bidding on one province."""
    from amunre.picture import position_snapshot

    path = POSITIONS[0]
    variant = load_variant(read_position_data(path).get("variant", "classic2003"))
    start = position_snapshot(variant, read_position(path, variant))
    for players in (4, 5):
        names = ["red", "black", "blue", "white", "a player with a very long name indeed"][:players]
        snap = start._replace(players=tuple((start.players * 3)[:players]), on_auction=tuple(range(players)),
                              markers=tuple((p, 1, 6 - p, "bidding blockade" if p == 1 else "")
                                            for p in range(players)))
        root = parse(BoardPicture(variant, names).document(snap))
        auction = next(el for el in root.iter(f"{SVG}g") if el.get("id") == "auction")
        shown = "\n".join("".join(el.itertext()) for el in auction.iter(f"{SVG}text"))
        for p in range(players):
            assert f"{names[p][:21]}" in shown and f" {6 - p}" in shown, shown
        assert "bidding blockade" in shown and shown.count("(outbid)") == players - 1, shown
        assert shown.count("no bid yet") == players - 1
        legend = next(el for el in root.iter(f"{SVG}g") if el.get("class") == "legend")
        lowest = max(float(el.get("y")) for el in auction.iter(f"{SVG}text"))
        assert lowest < float(legend.find(f"{SVG}text").get("y")) - 12


def test_long_terms_and_names_stay_in_the_panel_and_white_owns_visibly():
    """A variant's long words (terms.points, terms.gold) and a long name are cut to the panel
    (whole in a tooltip), never drawn over the map; a white owner's province has a dark border
    and its name in a badge, unlike an unowned one."""
    from amunre.picture import position_snapshot
    from amunre.picture.svg import PANEL_X

    path = POSITIONS[0]
    ref = read_position_data(path).get("variant", "classic2003")
    variant = load_variant(ref, ['terms.points="victory points of the great pharaoh of all Egypt"',
                                 'terms.gold="shining golden coins of the treasury of Amun-Re"'])
    snap = position_snapshot(variant, read_position(path, load_variant(ref)))
    names = ["white", "a player with a very long name indeed"] + ["red", "black", "blue"][:len(snap.players) - 2]
    root = parse(BoardPicture(variant, names).document(snap))
    for el in root.iter(f"{SVG}g"):
        if el.get("class") != "player":
            continue
        for text in el.iter(f"{SVG}text"):
            shown = text.text if text.find(f"{SVG}title") is None else text.find(f"{SVG}title").tail or ""
            x, size = float(text.get("x")), float(text.get("font-size"))
            width = len(shown) * size * (0.62 if text.get("font-weight") == "bold" else 0.6)
            left = x - width if text.get("text-anchor") == "end" else x
            assert PANEL_X <= left and left + width <= PANEL_X + 320, (shown, left)
    owned = [el for el in root.iter(f"{SVG}g") if (el.get("id") or "").startswith("o") and len(el)]
    white = [el for el in owned if "".join(el.itertext()) == "white"]
    assert white
    rects = white[0].findall(f"{SVG}rect")
    assert len(rects) == 2 and rects[0].get("stroke") == "#6b6b6b" and rects[1].get("stroke") == "#444"


def test_the_auction_follows_its_bid_markers():
    """The auction's `table_markers`: a bid places a marker, a move moves it, Protection marks
    it for the phase, acquiring the province takes it off."""
    variant = load_variant("classic2003")
    auction = variant.modules.rule("auction")
    markers: dict = {}

    def bid(player, province, amount, cards=()):
        auction.table_markers({"event": "bid", "player": player, "province": province, "amount": amount,
                               "moved_from": None, "outbid": None, "cards": list(cards)}, markers)

    bid(0, 3, 1)
    bid(1, 3, 3, ["protection"])
    assert markers == {0: (3, 1, ""), 1: (3, 3, "bidding blockade")}
    bid(0, 5, 0)
    auction.table_markers({"event": "play", "player": 0, "card": "protection", "province": None}, markers)
    bid(1, 5, 1)  # a moved marker keeps its Protection
    assert markers == {0: (5, 0, "bidding blockade"), 1: (5, 1, "bidding blockade")}
    auction.table_markers({"event": "acquire", "player": 0, "province": 5, "amount": 0}, markers)
    auction.table_markers({"event": "pyramid", "player": 1}, markers)  # another event: nothing changes
    assert markers == {1: (5, 1, "bidding blockade")}
