// The lobby: open a table of a variant, get one private link per human seat.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const KINDS = ["human", "planner", "greedy", "mcts", "random"];
  let variants = [];

  function option(value, label) { const o = document.createElement("option"); o.value = value; o.textContent = label; return o; }

  function pickVariant() {
    const v = variants.find((x) => x.id === $("variant").value);
    const players = $("players"); const before = players.value;
    while (players.firstChild) players.removeChild(players.firstChild);
    for (const n of v ? v.players : []) players.appendChild(option(n, n));
    if ([...players.options].some((o) => o.value === before)) players.value = before;
    $("variant-note").textContent = v ? v.name + " (" + v.where + ")" : "";
    seats();
  }

  function seats() {
    const box = $("seats"); const n = Number($("players").value) || 0;
    const old = [...box.querySelectorAll("input")].map((i) => i.value);
    for (const row of [...box.querySelectorAll("label")]) row.remove();
    for (let i = 0; i < n; i++) {
      const label = document.createElement("label"); label.textContent = "Seat " + (i + 1) + " ";
      const input = document.createElement("input"); input.setAttribute("list", "kinds");
      input.value = old[i] || (i < 2 ? "human" : "planner"); input.className = "seat-kind";
      input.addEventListener("input", seedRule);
      label.appendChild(input); box.appendChild(label);
    }
    seedRule();
  }

  function people() {
    return [...document.querySelectorAll(".seat-kind")].filter((i) => i.value.trim() === "human").length;
  }

  // A seed tells every hidden card: the server refuses one chosen for a table where two
  // people sit, so the field is closed then (and says why) rather than sent to be refused.
  let seedTyped = ""; // (put back when the field opens again)
  function seedRule() {
    const many = people() > 1; const seed = $("seed");
    if (many && !seed.disabled) { seedTyped = seed.value; seed.value = ""; }
    if (!many && seed.disabled) seed.value = seedTyped;
    seed.disabled = many;
    seed.placeholder = many ? "drawn by the server, told to nobody" : "random";
    $("seed-note").classList.toggle("shut", many);
  }

  async function open(event) {
    event.preventDefault();
    if ($("open-button").disabled) return;
    $("open-button").disabled = true; // (one table per click: a double click must not open two)
    try { await opening(); } finally { $("open-button").disabled = false; }
  }

  async function opening() {
    $("open-error").textContent = "";
    const seed = people() > 1 ? "" : $("seed").value.trim();
    const body = { variant: $("variant").value, players: Number($("players").value),
      seats: [...document.querySelectorAll(".seat-kind")].map((i) => i.value.trim()) };
    // (as text: a page's numbers hold whole numbers exactly only up to 2**53)
    if (seed) { if (!/^\d+$/.test(seed)) { $("open-error").textContent = "seed: expected a whole number"; return; } body.seed = seed; }
    const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
    if (!response.ok) { $("open-error").textContent = data.error; return; }
    const list = $("link-list"); while (list.firstChild) list.removeChild(list.firstChild);
    for (const s of data.seats) {
      const li = document.createElement("li");
      li.textContent = s.name + " (" + s.kind + ")" + (s.link ? ": " : "");
      if (s.link) { const a = document.createElement("a"); a.href = s.link; a.textContent = s.link; a.target = "_blank"; li.appendChild(a); }
      list.appendChild(li);
    }
    const li = document.createElement("li"); li.textContent = "spectators: ";
    const a = document.createElement("a"); a.href = data.spectator; a.textContent = data.spectator; a.target = "_blank";
    li.appendChild(a); list.appendChild(li);
    $("close-link").href = data.close; $("close-link").textContent = data.close;
    $("close-button").disabled = false; $("close-said").textContent = "";
    $("links").hidden = false;
  }

  // The creator's link closes the table: its token is the link's fragment, sent as a bearer.
  async function closeTable() {
    const token = decodeURIComponent(new URL($("close-link").href).hash.slice(1));
    $("close-button").disabled = true;
    const response = await fetch("/api/close", { method: "POST", body: "{}", cache: "no-store",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token } });
    const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
    if (!response.ok) { $("close-said").textContent = data.error; $("close-button").disabled = false; return; }
    $("close-said").textContent = "The table is closed: its pages say so, and its links open nothing more to play.";
  }

  document.addEventListener("DOMContentLoaded", async () => {
    const list = document.createElement("datalist"); list.id = "kinds";
    for (const k of KINDS) list.appendChild(option(k, k));
    document.body.appendChild(list);
    variants = await (await fetch("/api/variants")).json();
    const select = $("variant");
    for (const v of variants) if (!v.problems) select.appendChild(option(v.id, v.id + " — " + v.name));
    const bad = variants.filter((v) => v.problems);
    $("problems").hidden = !bad.length;
    for (const v of bad) { const li = document.createElement("li"); li.textContent = v.id + " (" + v.where + "): " + v.problems; $("problem-list").appendChild(li); }
    select.addEventListener("change", pickVariant);
    $("players").addEventListener("change", seats);
    $("open").addEventListener("submit", open);
    $("close-button").addEventListener("click", closeTable);
    pickVariant();
  });
})();
