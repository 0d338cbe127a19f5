// The page that closes a table: the token (its creator's) is the link's fragment, never sent in a URL.
"use strict";
(function () {
  const token = decodeURIComponent(location.hash.slice(1));
  const $ = (id) => document.getElementById(id);
  const STATES = { played: "being played", over: "over (there is nothing to close)", closed: "closed",
    stopped: "stopped (it cannot go on)" };

  async function api(method) {
    const init = { method: method, headers: { "Authorization": "Bearer " + token }, cache: "no-store" };
    if (method === "POST") { init.headers["Content-Type"] = "application/json"; init.body = "{}"; }
    const response = await fetch("/api/close", init);
    const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
    if (!response.ok) throw new Error(data.error || ("refused: " + response.status));
    return data;
  }

  function show(data) {
    $("table-said").textContent = "Table " + data.table + ": " + data.variant + ", " + data.players + " players ("
      + data.seats.join(", ") + "), " + (STATES[data.state] || data.state) + ".";
    $("close-button").disabled = data.state !== "played";
    document.body.dataset.state = data.state; // (read by tests)
  }

  async function close() {
    $("close-button").disabled = true;
    $("close-error").textContent = "";
    try {
      const data = await api("POST");
      show(data);
      $("close-said").textContent = data.closed_now ? "The table is closed." : "The table was closed already.";
    } catch (e) { $("close-error").textContent = e.message; $("close-button").disabled = false; }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("close-button").addEventListener("click", close);
    try { show(await api("GET")); } catch (e) { $("close-error").textContent = e.message; }
  });
})();
