"""The replay viewer: one self-contained HTML file stepping through a logged game.

The file holds everything it shows (CSS, JavaScript, SVG, the game's data inline) and asks
for nothing: its Content-Security-Policy allows no request at all (`default-src 'none'`),
only its own script and style, by their hashes. It shows the board picture at every step
(`amunre.picture.svg`: the static layer once, then per step only the slots that changed,
each distinct slot content once), the play-by-play beside it with the current step's lines
highlighted, the scores so far, and controls: previous and next decision, phase and round,
the start and the end, a slider, and the keyboard (arrows left and right: decision; up and
down: phase; Page Up and Page Down: round; Home and End).

Every text from a file (names, words, the play-by-play) is escaped for HTML, and the data
block for a script element (no `</script>` can end it early).
"""

from __future__ import annotations

import base64
import hashlib
import json

from amunre import __version__
from amunre.picture.svg import BoardPicture, text_of


def _script_json(data) -> str:
    """JSON safe inside a <script> element: no `<`, `>` or `&` that HTML would read."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


STYLE = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.35 "DejaVu Sans", Verdana, Arial, sans-serif; background: #e9dfc4; color: #2b2418; }
header { padding: 8px 14px 4px; }
header h1 { font-size: 17px; margin: 0 0 2px; }
#status { font-size: 13px; color: #4a3f2c; min-height: 1.4em; }
#status b { color: #2b2418; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 4px 14px 8px; }
#controls button { font: inherit; font-size: 13px; padding: 3px 9px; border: 1px solid #9c8758; border-radius: 5px;
  background: #fbf5e4; color: #2b2418; cursor: pointer; }
#controls button:disabled { color: #b3a88e; cursor: default; }
#controls button:focus-visible { outline: 2px solid #d49a00; }
#slider { flex: 1 1 200px; min-width: 160px; }
#stepno { font-size: 13px; min-width: 9em; text-align: right; }
#keys { font-size: 11px; color: #6d604a; width: 100%; }
main { display: flex; gap: 10px; padding: 0 14px 14px; align-items: flex-start; }
#board { flex: 1 1 auto; min-width: 0; }
#board svg { width: 100%; height: auto; display: block; border-radius: 8px; }
aside { flex: 0 0 410px; display: flex; flex-direction: column; gap: 8px; max-height: calc(100vh - 110px);
  position: sticky; top: 6px; }
#scores { border-collapse: collapse; width: 100%; background: #f8f1de; border-radius: 6px; font-size: 13px; }
#scores th, #scores td { padding: 3px 8px; text-align: right; border-bottom: 1px solid #e2d5b3; }
#scores th:first-child, #scores td:first-child { text-align: left; }
#scores tr.winner td { font-weight: bold; }
.swatch { display: inline-block; width: 11px; height: 11px; border: 1px solid #444; border-radius: 2px;
  margin-right: 5px; vertical-align: -1px; }
#scores, #final { flex: 0 0 auto; }
#final { font-size: 13px; font-weight: bold; padding: 2px 4px; min-height: 1.3em; }
#log { overflow-y: auto; background: #fbf7ea; border: 1px solid #d8c99f; border-radius: 6px; padding: 4px 0;
  font-size: 12.5px; flex: 1 1 auto; min-height: 200px; }
#log .step { padding: 1px 10px; border-left: 4px solid transparent; cursor: pointer; }
#log .step.cur { background: #fde9a6; border-left-color: #d49a00; }
#log .step .dec { color: #7b6d52; font-size: 11.5px; }
#log .step p { margin: 0; white-space: pre-wrap; }
#log .step p.head { font-weight: bold; margin-top: 4px; }
/* the board at its own width or wider (its smallest text 11 px): beside the panel only where
   the window has room for both, else above it */
@media (max-width: 1719px) { main { flex-direction: column; align-items: stretch; } aside { flex-basis: auto;
  width: 100%; max-height: none; position: static; } #log { max-height: 50vh; } }
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var frags = data.frags, slots = data.slots, steps = data.steps, last = steps.length - 1;
  var els = slots.map(function (name) { return document.getElementById(name); });
  // the fragment each slot shows at each step
  var at = slots.map(function () { return new Int32Array(steps.length); });
  var now = slots.map(function () { return -1; });
  steps.forEach(function (st, k) {
    st.d.forEach(function (pair) { now[pair[0]] = pair[1]; });
    for (var s = 0; s < slots.length; s++) { at[s][k] = now[s]; }
  });
  var shown = slots.map(function () { return -2; });
  var blocks = document.querySelectorAll("#log .step");
  var scoreCells = document.querySelectorAll("#scores td.score");
  var goldCells = document.querySelectorAll("#scores td.gold");
  var rows = document.querySelectorAll("#scores tbody tr");
  var slider = document.getElementById("slider");
  var current = -1;

  function firstOf(key, k) { while (k > 0 && steps[k - 1][key] === steps[k][key]) { k--; } return k; }
  function nextOf(key, k) {
    for (var j = k + 1; j <= last; j++) { if (steps[j][key] !== steps[k][key]) { return j; } }
    return last;
  }
  function prevOf(key, k) {
    var start = firstOf(key, k);
    return start < k ? start : (k > 0 ? firstOf(key, k - 1) : 0);
  }
  function setText(id, text) { document.getElementById(id).textContent = text; }

  function show(k) {
    k = Math.max(0, Math.min(last, k));
    for (var s = 0; s < slots.length; s++) {
      var f = at[s][k];
      if (shown[s] !== f) { els[s].innerHTML = f < 0 ? "" : frags[f]; shown[s] = f; }
    }
    var st = steps[k];
    setText("where", data.wheres[st.w]);
    setText("decision", k === 0 ? "the first decision is asked" : "decision " + k + " of " + data.decisions +
      ": " + st.t);
    setText("stepno", "step " + k + " / " + last);
    for (var p = 0; p < scoreCells.length; p++) {
      scoreCells[p].textContent = String(st.s[p]);
      goldCells[p].textContent = String(st.g[p]);
      rows[p].classList.toggle("winner", k === last && data.winners.indexOf(p) >= 0);
    }
    setText("final", k === last ? data.ending : "");
    if (current >= 0 && blocks[current]) { blocks[current].classList.remove("cur"); }
    if (blocks[k]) {
      blocks[k].classList.add("cur");
      blocks[k].scrollIntoView({block: "nearest"});
    }
    slider.value = String(k);
    current = k;
    document.getElementById("b-prev").disabled = document.getElementById("b-start").disabled =
      document.getElementById("b-pphase").disabled = document.getElementById("b-pround").disabled = k === 0;
    document.getElementById("b-next").disabled = document.getElementById("b-end").disabled =
      document.getElementById("b-nphase").disabled = document.getElementById("b-nround").disabled = k === last;
    document.body.setAttribute("data-step", String(k));
  }

  var moves = {
    "b-start": function (k) { return 0; },
    "b-pround": function (k) { return prevOf("r", k); },
    "b-pphase": function (k) { return prevOf("p", k); },
    "b-prev": function (k) { return k - 1; },
    "b-next": function (k) { return k + 1; },
    "b-nphase": function (k) { return nextOf("p", k); },
    "b-nround": function (k) { return nextOf("r", k); },
    "b-end": function (k) { return last; }
  };
  Object.keys(moves).forEach(function (id) {
    document.getElementById(id).addEventListener("click", function () { show(moves[id](current)); });
  });
  var keys = {ArrowLeft: "b-prev", ArrowRight: "b-next", ArrowUp: "b-pphase", ArrowDown: "b-nphase",
              PageUp: "b-pround", PageDown: "b-nround", Home: "b-start", End: "b-end"};
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !(event.key in keys)) { return; }
    if (event.target === slider && (event.key === "ArrowLeft" || event.key === "ArrowRight")) { return; }
    event.preventDefault();
    show(moves[keys[event.key]](current));
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  for (var b = 0; b < blocks.length; b++) {
    blocks[b].addEventListener("click", (function (k) { return function () { show(k); }; })(b));
  }
  show(0);
  document.body.setAttribute("data-ready", "true");
})();
"""


#: A play-by-play line that heads a kingdom, a round or a phase.
HEAD = '<p class="head">'


def viewer_html(logged, source: str = "log") -> str:
    """The viewer of a logged game (`amunre.picture.steps.log_steps`) as one HTML page."""
    variant, names, steps = logged.variant, logged.names, logged.steps
    picture = BoardPicture(variant, names)
    slot_names: list[str] = []
    slot_index: dict[str, int] = {}
    frag_index: dict[str, int] = {}
    frags: list[str] = []
    wheres: list[str] = []
    where_index: dict[str, int] = {}
    previous: dict[str, str] = {}
    data_steps = []
    for step in steps:
        snap = step.snapshot
        filled = picture.slots(snap)
        changed = []
        for name, fragment in filled.items():
            if previous.get(name) == fragment:
                continue
            previous[name] = fragment
            if name not in slot_index:
                slot_index[name] = len(slot_names)
                slot_names.append(name)
            if fragment not in frag_index:
                frag_index[fragment] = len(frags)
                frags.append(fragment)
            changed.append([slot_index[name], frag_index[fragment]])
        if snap.where not in where_index:
            where_index[snap.where] = len(wheres)
            wheres.append(snap.where)
        data_steps.append({"d": changed, "s": [p[3] for p in snap.players], "g": [p[0] for p in snap.players],
                           "p": step.phase, "r": step.round, "w": where_index[snap.where], "t": step.decision or ""})
    end = logged.end
    final = steps[-1].snapshot
    if end.get("type") == "result":
        scores = [p[3] for p in final.players]
        if scores != list(end["scores"]):  # replay_lines checked the log: this would be a bug
            raise AssertionError(f"the viewer's final scores {scores} differ from the log's result {end['scores']}")
        winners = list(end["winners"])
        won = " and ".join(names[w] for w in winners)
        ending = (f"Game over. Final scores: {', '.join(f'{names[p]} {s}' for p, s in enumerate(scores))}; "
                  f"{won} win{'s' if len(winners) == 1 else ''}.")
    else:
        winners = []
        ending = "The log ends here: the game was stopped before its end (an incomplete log)."
    data = {"slots": slot_names, "frags": frags, "steps": data_steps, "wheres": wheres, "decisions": logged.decisions,
            "winners": winners, "ending": ending, "names": names}
    title = f"{variant.edition.name}: {len(names)} players, seed {logged.seed}"
    swatches = "".join(f".seat{p} {{ background: {colour}; }}\n" for p, colour in enumerate(picture.colours))
    style = STYLE + swatches
    policy = (f"default-src 'none'; script-src '{_digest(SCRIPT)}'; style-src '{_digest(style)}'; img-src data:; "
              f"base-uri 'none'; form-action 'none'")
    svg = picture.svg_open() + picture.static() + "</svg>"
    rows = "".join(f'<tr data-player="{p}"><td><span class="swatch seat{p}"></span>{text_of(name)}</td>'
                   f'<td class="score" data-player="{p}"></td><td class="gold" data-player="{p}"></td></tr>'
                   for p, name in enumerate(names))
    log = []
    for k, step in enumerate(steps):
        head = "the start" if k == 0 else f"decision {k}: {step.decision}"
        lines = "".join((HEAD if line.startswith(("===", "---", "[")) else "<p>") + f"{text_of(line)}</p>"
                        for line in step.lines)
        log.append(f'<div class="step" data-step="{k}"><div class="dec">{text_of(head)}</div>{lines}</div>')
    points = text_of(variant.term("points"))
    gold = text_of(variant.term("gold"))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="amunre {text_of(__version__)}">
<link rel="icon" href="data:,">
<title>{text_of(title)}</title>
<style>{style}</style>
</head>
<body>
<header>
<h1>{text_of(title)}</h1>
<div id="status"><b id="where"></b> &#8212; <span id="decision"></span></div>
</header>
<div id="controls">
<button id="b-start" title="the start (Home)">|&#9664; start</button>
<button id="b-pround" title="previous round (Page Up)">&#9664;&#9664; round</button>
<button id="b-pphase" title="previous phase (arrow up)">&#9664; phase</button>
<button id="b-prev" title="previous decision (arrow left)">&#9664; decision</button>
<button id="b-next" title="next decision (arrow right)">decision &#9654;</button>
<button id="b-nphase" title="next phase (arrow down)">phase &#9654;</button>
<button id="b-nround" title="next round (Page Down)">round &#9654;&#9654;</button>
<button id="b-end" title="the end (End)">end &#9654;|</button>
<input id="slider" type="range" min="0" max="{len(steps) - 1}" value="0" aria-label="step">
<span id="stepno"></span>
<div id="keys">Keys: &#8592; &#8594; decision, &#8593; &#8595; phase, Page Up / Page Down round, Home / End.
Source: {text_of(source)}</div>
</div>
<main>
<div id="board">{svg}</div>
<aside>
<table id="scores"><thead><tr><th>player</th><th>{points}</th><th>{gold}</th></tr></thead><tbody>{rows}</tbody></table>
<div id="final"></div>
<div id="log">{"".join(log)}</div>
</aside>
</main>
<script type="application/json" id="game-data">{_script_json(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
