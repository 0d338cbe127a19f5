"""The board picture is legible at 1280x800, measured in headless Chromium: on a seat's page
of `amunre serve` (its own stylesheet) and in the replay viewer, for every variant file at
several steps of a seeded game, no text is drawn below 11 px and no two texts overlap.
Owners are told apart by more than colour: each held province carries its owner's name.
Skipped, saying why, where Chromium cannot be started (as the viewer's browser test)."""

from __future__ import annotations

import html
from importlib import resources

import pytest
from conftest import variant_files
from test_viewer_browser import browser, open_page  # noqa: F401 (a fixture)

from amunre.agents import make_agents
from amunre.core.engine import Game
from amunre.core.words import player_names
from amunre.loader import load_variant
from amunre.picture.steps import Follower, snapshot
from amunre.picture.svg import BoardPicture

VARIANTS = variant_files()
SMALLEST_PX = 11
#: Steps of each game measured: the first decision, two in the middle, the end.
STEPS = (0, 40, 120, 10**9)

#: Every text's size on the screen and every pair of texts whose boxes overlap (by more than
#: a pixel each way: glyphs touching at an edge are not a clash).
MEASURE = """
const svg = document.querySelector('#board svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
const boxes = [...svg.querySelectorAll('text')].map(t => {
  const r = t.getBoundingClientRect();
  return {text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * scale,
          x: r.left, y: r.top, r: r.right, b: r.bottom};
}).filter(b => b.r > b.x);
const small = boxes.filter(b => b.px < arguments[0] - 1e-6).map(b => [b.text, b.px]);
const overlaps = [];
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
  const a = boxes[i], c = boxes[j];
  if (Math.min(a.r, c.r) - Math.max(a.x, c.x) > 1 && Math.min(a.b, c.b) - Math.max(a.y, c.y) > 1)
    overlaps.push([a.text, c.text]);
}
return {scale: scale, texts: boxes.length, small: small, overlaps: overlaps};
"""


def pictures(path, seed: int = 3):
    """(step, SVG, [(province, owner's name)]) of a seeded game of random bots at each of `STEPS`."""
    variant = load_variant(path)
    n = 4 if 4 in variant.players else max(variant.players)
    names = player_names(n)
    follower = Follower(variant, names)
    game = Game(variant, n, seed, [follower])
    agents = make_agents(["random"] * n, seed)
    picture = BoardPicture(variant, names)
    step, out = 0, []
    for target in STEPS:
        while game.pending is not None and step < target:
            request = game.pending
            game.answer(agents[request.player].choose(game.view(request.player), request))
            step += 1
        owners = [(pid, names[p.owner]) for pid, p in enumerate(game.state.provinces) if p.owner is not None]
        out.append((step, picture.document(snapshot(variant, game.state, game.phase_name, follower.markers, game)),
                    owners))
        if game.pending is None:
            break
    return out


def seat_page(svg: str) -> str:
    """The picture where a seat's page puts it, with that page's stylesheet."""
    css = resources.files("amunre.serve").joinpath("static", "page.css").read_text(encoding="utf-8")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{css}</style></head><body>"
            f"<header><h1>table</h1></header><main><section id='board'>{svg.split('?>', 1)[1]}</section>"
            "<aside><section>the panels</section></aside></main></body></html>")


@pytest.mark.parametrize("path", VARIANTS, ids=[f.stem for f in VARIANTS])
def test_the_board_on_a_seats_page_is_legible_at_1280x800(browser, tmp_path, path):  # noqa: F811
    browser.set_window_size(1280, 800)
    for step, svg, owners in pictures(path):
        page = tmp_path / f"step-{step}.html"
        page.write_text(seat_page(svg), encoding="utf-8")
        open_page(browser, page)
        found = browser.execute_script(MEASURE, SMALLEST_PX)
        assert found["texts"] > 50
        assert not found["small"], f"step {step}: text below {SMALLEST_PX} px: {found['small'][:5]}"
        assert not found["overlaps"], f"step {step}: texts overlap: {found['overlaps'][:5]}"
        for pid, owner in owners:  # each owner named on the province, not only coloured
            assert f">{html.escape(owner)}</text>" in svg.split(f'id="o{pid}">', 1)[1].split("</g>", 1)[0]


def test_the_replay_viewer_shows_the_board_legibly_at_1280x800(browser, tmp_path, capsys):  # noqa: F811
    from helpers import run_cli

    browser.set_window_size(1280, 800)
    log, page = tmp_path / "game.jsonl", tmp_path / "game.html"
    code, _, err = run_cli(capsys, "run", "--players", "4", "--seed", "5", "--quiet", "--log", str(log))
    assert code == 0, err
    code, _, err = run_cli(capsys, "replay", str(log), "--html", str(page))
    assert code == 0, err
    open_page(browser, page)
    found = browser.execute_script(MEASURE, SMALLEST_PX)
    assert found["texts"] > 50 and not found["small"] and not found["overlaps"], found


@pytest.mark.parametrize("change, found", [("SMALL", "small"), ("SMALL_LINE", "overlaps")])
def test_the_measure_sees_small_and_overlapping_text(browser, tmp_path, monkeypatch, change, found):  # noqa: F811
    """A picture drawn with smaller text, or with its small lines packed closer, fails."""
    from amunre.picture import svg

    monkeypatch.setattr(svg, change, {"SMALL": 9, "SMALL_LINE": 6}[change])
    browser.set_window_size(1280, 800)
    _, picture, _ = pictures("classic2003")[0]
    page = tmp_path / "control.html"
    page.write_text(seat_page(picture), encoding="utf-8")
    open_page(browser, page)
    assert browser.execute_script(MEASURE, SMALLEST_PX)[found]
