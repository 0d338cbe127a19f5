"""`amunre replay LOG --html game.html`: the replay viewer, checked without a browser.

One self-contained file: no reference to anything outside it (its Content-Security-Policy
allows no request, and its own script and style only by their hashes), the board at every
step rebuilt from the static layer and the per-step slots, the play-by-play lines, and final
scores equal to the log's result. tests/test_viewer_browser.py drives the page in Chromium.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from helpers import run_cli

from amunre.agents import make_agents
from amunre.core.engine import Game
from amunre.gamelog import Recorder, dumps_lines, incomplete_lines
from amunre.loader import load_variant

SVG_NS = "http://www.w3.org/2000/svg"


class Page(HTMLParser):
    """The tags of a page, with the text of its script and style elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[tuple[dict, str]] = []
        self.styles: list[str] = []
        self._in = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self._in = (tag, dict(attrs), [])

    def handle_endtag(self, tag):
        if self._in and tag == self._in[0]:
            kind, attrs, parts = self._in
            if kind == "script":
                self.scripts.append((attrs, "".join(parts)))
            else:
                self.styles.append("".join(parts))
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._in[2].append(data)


def read_page(path: Path) -> tuple[str, Page, dict]:
    text = path.read_text(encoding="utf-8")
    page = Page()
    page.feed(text)
    data = json.loads(next(body for attrs, body in page.scripts if attrs.get("id") == "game-data"))
    return text, page, data


def digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def slots_at(data: dict, k: int) -> dict[str, str]:
    """Each slot's SVG at step k, as the page's script puts it together."""
    shown: dict[str, str] = {}
    for step in data["steps"][:k + 1]:
        for slot, fragment in step["d"]:
            shown[data["slots"][slot]] = data["frags"][fragment]
    return shown


def logged_game(tmp_path, capsys, *extra, players: int = 4, seed: int = 3) -> tuple[Path, list[dict]]:
    log = tmp_path / "game.jsonl"
    code, _, err = run_cli(capsys, "run", "--players", str(players), "--seed", str(seed), "--quiet", "--log",
                           str(log), *extra)
    assert code == 0, err
    return log, [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_the_viewer_is_one_self_contained_file_ending_on_the_logs_result(tmp_path, capsys):
    log, lines = logged_game(tmp_path, capsys)
    page_path = tmp_path / "game.html"
    code, out, err = run_cli(capsys, "replay", str(log), "--html", str(page_path))
    assert code == 0, err
    assert out.startswith("replay OK") and f"viewer written to {page_path}" in out
    text, page, data = read_page(page_path)
    result = lines[-1]

    # nothing outside the file: no attribute loads anything, the only URL is the SVG namespace
    for tag, attrs in page.tags:
        for key in ("src", "href", "action", "srcset", "poster", "data"):
            assert key not in attrs or attrs[key].startswith("data:"), (tag, attrs)
    assert set(re.findall(r"[a-z]+://[^\s\"'<>)]+", text)) == {SVG_NS}
    assert "@import" not in text and "url(" not in text
    policy = next(attrs["content"] for tag, attrs in page.tags
                  if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in policy
    code_scripts = [body for attrs, body in page.scripts if attrs.get("type") != "application/json"]
    assert len(code_scripts) == 1 and len(page.styles) == 1
    assert f"script-src '{digest(code_scripts[0])}'" in policy
    assert f"style-src '{digest(page.styles[0])}'" in policy
    assert not any(key.startswith("on") for _, attrs in page.tags for key in attrs)  # no inline handlers

    # a step per decision, the last one the log's result
    assert len(data["steps"]) == result["decisions"] + 1 == data["decisions"] + 1
    assert data["steps"][-1]["s"] == result["scores"] and data["steps"][-1]["g"] == result["gold"]
    assert data["winners"] == result["winners"]
    assert data["ending"].startswith("Game over. Final scores: ")
    assert all(f"{name} {score}" in data["ending"] for name, score in zip(data["names"], result["scores"]))

    # the board at the end, put together from the static layer and the slots, as the script does
    static = re.search(r"<svg .*?</svg>", text, re.S).group()
    root = ET.fromstring(static)
    final = slots_at(data, len(data["steps"]) - 1)
    for fragment in data["frags"]:
        ET.fromstring(f'<g xmlns="{SVG_NS}">{fragment}</g>')  # every slot's content is well-formed SVG
    slot_ids = {el.get("id") for el in root.iter(f"{{{SVG_NS}}}g") if el.get("id")}
    assert set(data["slots"]) == slot_ids
    players = [ET.fromstring(f'<g xmlns="{SVG_NS}">{final[f"pl{p}"]}</g>')[0] for p in range(4)]
    assert [int(p.get("data-score")) for p in players] == result["scores"]
    assert [int(p.get("data-gold")) for p in players] == result["gold"]

    # the play-by-play: one block per step, the narration's lines in it
    assert text.count('<div class="step" data-step=') == len(data["steps"])
    assert "acquires" in text and "=== final scoring ===" in text
    size = page_path.stat().st_size
    print(f"viewer of a 4-player classic2003 game ({result['decisions']} decisions): {size // 1024} kB")
    assert size < 1_500_000


def test_the_viewer_of_an_incomplete_log_ends_where_the_game_stopped(tmp_path, capsys):
    variant = load_variant("classic2003")
    recorder = Recorder()
    game = Game(variant, 3, 8, [recorder])
    agents = make_agents(["random"] * 3, 8)
    for _ in range(40):
        request = game.pending
        game.answer(agents[request.player].choose(game.view(request.player), request))
    log = tmp_path / "stopped.jsonl"
    log.write_text(dumps_lines(incomplete_lines(game, recorder.events, ["random"] * 3, "interrupted")))
    page_path = tmp_path / "stopped.html"
    code, out, err = run_cli(capsys, "replay", str(log), "--html", str(page_path))
    assert code == 0, err
    assert "incomplete game" in out and "viewer written to" in out
    _, _, data = read_page(page_path)
    assert data["winners"] == [] and "incomplete" in data["ending"]
    assert len(data["steps"]) == data["decisions"] + 1 == len(game.answers) + 1
    assert data["steps"][-1]["g"] == [p.gold for p in game.state.players]


def test_text_from_files_cannot_become_markup(tmp_path, capsys):
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic2003"\n[edition]\nid = "hostile"\n'
                     'name = "</script><script>alert(1)</script><!-- &"\n'
                     '[terms]\ngold = "<img src=http://x/y>"\npoints = "</title><b>pts"\n', encoding="utf-8")
    log = tmp_path / "game.jsonl"
    code, _, err = run_cli(capsys, "run", "--variant", str(house), "--players", "3", "--seed", "2", "--quiet",
                           "--agents", "random", "--log", str(log))
    assert code == 0, err
    page_path = tmp_path / "game.html"
    code, _, err = run_cli(capsys, "replay", str(log), "--variant", str(house), "--html", str(page_path))
    assert code == 0, err
    text, page, data = read_page(page_path)
    assert [tag for tag, _ in page.tags].count("script") == 2
    assert not any(tag == "img" or tag == "b" and attrs.get("id") != "where" for tag, attrs in page.tags)
    assert "<img" not in text and "<b>" not in text and "<!--" not in text
    assert data["steps"]  # the data block was not cut short by the name
    shown = "".join(data["frags"])
    assert "&lt;img src=http://x/y&gt;" in shown


def test_an_unwritable_viewer_is_one_error_line(tmp_path, capsys):
    log, _ = logged_game(tmp_path, capsys, "--agents", "random", players=3)
    for target, words in ((tmp_path / "no" / "x.html", "No such file or directory"), (tmp_path, "it is a folder")):
        code, out, err = run_cli(capsys, "replay", str(log), "--html", str(target))
        assert code == 2 and out == "", (out, err)
        assert err.startswith("error: cannot write the viewer --html") and words in err and err.count("\n") == 1
    assert not list(tmp_path.glob("*.html")) and not list(tmp_path.glob(".amunre-*"))


def test_the_viewer_is_never_written_onto_its_log(tmp_path, capsys):
    log, _ = logged_game(tmp_path, capsys, "--agents", "random", players=3)
    before = log.read_bytes()
    for target in (log, tmp_path / "." / log.name):
        code, out, err = run_cli(capsys, "replay", str(log), "--html", str(target))
        assert code == 2 and out == "", (out, err)
        assert err.startswith("error: cannot write the viewer --html") and "the file read" in err, err
        assert err.count("\n") == 1
        assert log.read_bytes() == before
    code, out, err = run_cli(capsys, "replay", str(log), "--html", "")
    assert code == 2 and "the path is empty" in err and "folder" not in err and err.count("\n") == 1, err
