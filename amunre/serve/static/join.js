// An invitation's page: opening it takes its seat (once) and goes on to the seat's own link,
// which only this browser was given. The invitation is the link's fragment, never sent in a URL.
"use strict";
(function () {
  const invitation = decodeURIComponent(location.hash.slice(1));
  const $ = (id) => document.getElementById(id);
  // (the seat's link is kept in this browser too, so that the invitation opened again here
  // can say the seat was taken here, and lead back to it)
  const key = (table, seat) => "amunre.seat." + table + "." + seat;
  function kept(table, seat) { try { return localStorage.getItem(key(table, seat)); } catch (e) { return null; } }
  function keep(table, seat, token) { try { localStorage.setItem(key(table, seat), token); } catch (e) { /* private mode */ } }

  function show(title, said, state) {
    $("join-title").textContent = title;
    $("join-said").textContent = said;
    document.body.dataset.state = state; // (read by tests)
  }

  async function claim() {
    if (!invitation) { show("This page needs its invitation", "Open it from the link you were given (the part after # is the invitation).", "refused"); return; }
    let response;
    try {
      response = await fetch("/api/claim", { method: "POST", body: "{}", cache: "no-store",
        headers: { "Content-Type": "application/json", "Authorization": "Bearer " + invitation } });
    } catch (e) { show("The server cannot be reached", "Reload this page to try again (" + e.message + ").", "refused"); return; }
    const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
    if (response.ok) {
      const token = decodeURIComponent(new URL(data.link).hash.slice(1));
      keep(data.table, data.seat, token);
      try { sessionStorage.setItem("amunre.claimed", data.table + "." + data.seat); } catch (e) { /* shown anyway */ }
      location.replace(data.link); // (the spent invitation left out of this tab's history)
      return;
    }
    if (data.taken) {
      const when = new Date(data.taken);
      show("This invitation was used already", "Seat " + (data.seat + 1) + " (" + data.name + ") at this table was taken on " + when.toLocaleDateString()
        + " at " + when.toLocaleTimeString() + " (" + data.taken.replace("T", " ").replace("Z", " UTC") + ").", "taken");
      // this browser holds the one token the taking gave: it was taken here; else, beware
      const mine = kept(data.table, data.seat);
      if (mine) { $("join-seat").href = "/seat#" + encodeURIComponent(mine); $("join-mine").hidden = false; }
      else $("join-warning").hidden = false;
      return;
    }
    show("This link takes no seat", data.error || ("refused: " + response.status), "refused");
  }

  document.addEventListener("DOMContentLoaded", claim);
  window.addEventListener("hashchange", () => location.reload()); // (another invitation pasted in this tab)
})();
