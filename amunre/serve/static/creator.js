// The creator's own page: every seat's link again, an empty seat given to a bot, the table
// closed. His token is the link's fragment, never sent in a URL; the page shows no seat's cards.
"use strict";
(function () {
  const token = decodeURIComponent(location.hash.slice(1));
  const $ = (id) => document.getElementById(id);
  const BOTS = ["planner", "greedy", "mcts", "random"];
  const STATES = { played: "being played", over: "over", closed: "closed", stopped: "stopped (it cannot go on)" };

  const { el } = window.amunrePage;
  const api = window.amunrePage.asker(token);

  function linkBox(value, cls) {
    const box = el("input"); box.readOnly = true; box.value = value; box.className = "link-box " + cls;
    box.addEventListener("focus", () => box.select());
    const copy = el("button", "copy"); copy.type = "button";
    copy.addEventListener("click", async () => {
      box.select();
      try { await navigator.clipboard.writeText(box.value); copy.textContent = "copied"; }
      catch (e) { copy.textContent = "selected: Ctrl+C"; } // (no clipboard over plain http)
    });
    return [box, copy];
  }

  function botChoice(seat, played) {
    const span = el("span", null, "to-bot");
    const pick = el("select"); pick.setAttribute("aria-label", "the bot for seat " + (seat.seat + 1));
    for (const b of BOTS) { const o = el("option", b); o.value = b; pick.appendChild(o); }
    const give = el("button", "give this seat to a bot"); give.type = "button"; give.className = "give";
    give.disabled = !played; give.dataset.seat = seat.seat;
    give.addEventListener("click", async () => {
      give.disabled = true; $("seat-said").textContent = "";
      try { show(await api("/api/creator/bot", { seat: seat.seat, bot: pick.value }));
        $("seat-said").textContent = "Seat " + (seat.seat + 1) + " (" + seat.name + ") is played by " + pick.value + " now."; }
      catch (e) { $("seat-said").textContent = e.message; give.disabled = false; }
    });
    span.appendChild(pick); span.appendChild(document.createTextNode(" ")); span.appendChild(give);
    return span;
  }

  function seatItem(data, seat, played) {
    const li = el("li"); li.dataset.state = seat.state; li.dataset.seat = seat.seat;
    li.appendChild(el("b", seat.name + " (seat " + (seat.seat + 1) + "): "));
    if (seat.state === "bot") li.appendChild(el("span", "a bot: " + seat.kind));
    else if (seat.state === "yours") {
      li.appendChild(el("span", "your own seat: "));
      const a = el("a", "play your seat"); a.href = seat.link; a.target = "_blank"; a.className = "own-link";
      li.appendChild(a);
      // (remembered as a seat taken in this browser, as the lobby does: its page then asks no question)
      try { localStorage.setItem("amunre.seat." + data.table + "." + seat.seat, decodeURIComponent(new URL(seat.link).hash.slice(1))); }
      catch (e) { /* private mode */ }
    } else if (seat.state === "taken") {
      li.appendChild(el("span", "taken" + (seat.taken ? " on " + seat.taken.replace("T", " at ").replace("Z", " UTC") : "")
        + ": the link its player was given is theirs alone"));
    } else if (seat.state === "invited") {
      const label = el("label", "not taken yet; its invitation: "); label.className = "inline";
      const [box, copy] = linkBox(seat.invitation, "invitation");
      label.appendChild(box); li.appendChild(label); li.appendChild(document.createTextNode(" ")); li.appendChild(copy);
      li.appendChild(el("br")); li.appendChild(botChoice(seat, played));
    } else {
      li.appendChild(el("span", "its invitation is not known here (the table was opened by an older server) "));
      li.appendChild(botChoice(seat, played));
    }
    return li;
  }

  function show(data) {
    $("table-said").textContent = "Table " + data.table + ": " + data.variant + ", " + data.players + " players, "
      + (STATES[data.state] || data.state) + ".";
    const played = data.state === "played";
    const list = $("seat-list"); while (list.firstChild) list.removeChild(list.firstChild);
    for (const seat of data.seats) list.appendChild(seatItem(data, seat, played));
    const watch = $("spectator-link");
    if (data.spectator) { watch.href = data.spectator; watch.textContent = data.spectator; }
    else watch.textContent = "(not known here: the table was opened by an older server)";
    $("close-button").disabled = !played;
    document.body.dataset.state = data.state; // (read by tests)
  }

  async function close() {
    $("close-button").disabled = true;
    $("close-error").textContent = "";
    try {
      const data = await api("/api/close", {});
      $("close-said").textContent = data.closed_now ? "The table is closed." : "The table was closed already.";
      show(await api("/api/creator"));
    } catch (e) { $("close-error").textContent = e.message; $("close-button").disabled = false; }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("close-button").addEventListener("click", close);
    if (!token) { $("close-error").textContent = "This page needs its link's token (the part after #)."; return; }
    try { show(await api("/api/creator")); } catch (e) { $("close-error").textContent = e.message; }
  });
})();
