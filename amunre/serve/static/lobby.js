// The lobby: open a table of a variant; its creator gets his own seat's link (if he plays)
// and an invitation per other person, which gives its seat to whoever opens it first.
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
      input.addEventListener("input", () => { sitChoices(); seedRule(); });
      label.appendChild(input); box.appendChild(label);
    }
    sitChoices();
    seedRule();
  }

  // The seat the creator plays himself: one of the human seats (the first, unless he says
  // otherwise), or none, where he opens a table for others.
  function sitChoices() {
    const sit = $("sit"); const before = sit.value; const chosen = sit.dataset.chosen === "1";
    while (sit.firstChild) sit.removeChild(sit.firstChild);
    [...document.querySelectorAll(".seat-kind")].forEach((input, i) => {
      if (input.value.trim() === "human") sit.appendChild(option(String(i), "Seat " + (i + 1)));
    });
    sit.appendChild(option("", "no seat: I only hand out the invitations"));
    // what he chose stays while it is still a human seat; else the first one
    sit.value = chosen && [...sit.options].some((o) => o.value === before) ? before : sit.options[0].value;
  }

  function people() {
    return [...document.querySelectorAll(".seat-kind")].filter((i) => i.value.trim() === "human").length;
  }

  // A seed tells every hidden card: the server refuses one chosen for a table where another
  // person plays (two people, or one whose seat goes out as an invitation), so the field is
  // closed then (and says why) rather than sent to be refused.
  let seedTyped = ""; // (put back when the field opens again)
  function seedShut() { return people() > 1 || (people() === 1 && $("sit").value === ""); }
  function seedRule() {
    const many = seedShut(); const seed = $("seed");
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
    const seed = seedShut() ? "" : $("seed").value.trim();
    const body = { variant: $("variant").value, players: Number($("players").value),
      seats: [...document.querySelectorAll(".seat-kind")].map((i) => i.value.trim()) };
    // (as text: a page's numbers hold whole numbers exactly only up to 2**53)
    if (seed) { if (!/^\d+$/.test(seed)) { $("open-error").textContent = "seed: expected a whole number"; return; } body.seed = seed; }
    if ($("sit").value !== "") body.sit = Number($("sit").value);
    const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
    if (!response.ok) { $("open-error").textContent = data.error; return; }
    const own = data.seats.find((s) => s.link);
    $("own-box").hidden = !own;
    if (own) {
      $("own-name").textContent = own.name + " (seat " + (own.seat + 1) + ")"; $("own-link").href = own.link;
      // (remembered as a seat taken in this browser: its page then asks no question)
      try { localStorage.setItem("amunre.seat." + data.table + "." + own.seat, decodeURIComponent(new URL(own.link).hash.slice(1))); } catch (e) { /* private mode */ }
    }
    // Invitations are shown as text to copy, not as links to click: opened here, one would be spent.
    const list = $("invitation-list"); while (list.firstChild) list.removeChild(list.firstChild);
    const invited = data.seats.filter((s) => s.invitation);
    for (const s of invited) {
      const li = document.createElement("li");
      const label = document.createElement("label"); label.textContent = s.name + " (seat " + (s.seat + 1) + "): ";
      const box = document.createElement("input"); box.readOnly = true; box.value = s.invitation;
      box.className = "link-box invitation"; box.addEventListener("focus", () => box.select());
      const copy = document.createElement("button"); copy.type = "button"; copy.textContent = "copy";
      copy.addEventListener("click", async () => {
        box.select();
        try { await navigator.clipboard.writeText(box.value); copy.textContent = "copied"; }
        catch (e) { copy.textContent = "selected: Ctrl+C"; } // (no clipboard over plain http)
      });
      label.appendChild(box); li.appendChild(label); li.appendChild(document.createTextNode(" ")); li.appendChild(copy);
      list.appendChild(li);
    }
    $("no-invitation").hidden = invited.length > 0; $("invite-note").hidden = invited.length === 0;
    $("spectator-link").href = data.spectator; $("spectator-link").textContent = data.spectator;
    $("creator-link").href = data.creator; $("creator-link").textContent = data.creator;
    $("close-button").disabled = false; $("close-said").textContent = "";
    $("links").hidden = false;
    $("links").scrollIntoView({ block: "start" }); // (below the form: what was asked for is shown)
  }

  // The creator's link closes the table: its token is the link's fragment, sent as a bearer.
  async function closeTable() {
    const token = decodeURIComponent(new URL($("creator-link").href).hash.slice(1));
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
    // (the list takes a moment on a server's first visit: the form says so, and waits)
    $("open-button").disabled = true;
    try {
      const response = await fetch("/api/variants");
      if (!response.ok) throw new Error("the server answered " + response.status);
      variants = await response.json();
    } catch (e) {
      $("loading").textContent = "The variants could not be loaded (" + e.message + "): reload the page to try again.";
      $("loading").classList.add("bad");
      return;
    }
    $("loading").hidden = true;
    $("open-button").disabled = false;
    const select = $("variant");
    for (const v of variants) if (!v.problems) select.appendChild(option(v.id, v.id + " — " + v.name));
    const bad = variants.filter((v) => v.problems);
    $("problems").hidden = !bad.length;
    for (const v of bad) { const li = document.createElement("li"); li.textContent = v.id + " (" + v.where + "): " + v.problems; $("problem-list").appendChild(li); }
    select.addEventListener("change", pickVariant);
    $("players").addEventListener("change", seats);
    $("sit").addEventListener("change", () => { $("sit").dataset.chosen = "1"; seedRule(); });
    $("open").addEventListener("submit", open);
    $("close-button").addEventListener("click", closeTable);
    pickVariant();
  });
})();
