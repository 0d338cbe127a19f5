// A seat's page (or the spectator's): the token is the link's fragment, never sent in a URL.
"use strict";
(function () {
  const token = decodeURIComponent(location.hash.slice(1));
  const $ = (id) => document.getElementById(id);
  let shown = null;       // the page data on screen
  let onlyProvince = null; // the province the options are filtered to (a click on the board)
  let socket = null;

  const { text, clear, el } = window.amunrePage;
  const api = window.amunrePage.asker(token);

  function status(message, bad) { text($("status"), message); $("status").classList.toggle("bad", !!bad); }

  // A seat's own link: shown to whoever just took the seat (an invitation), to keep; and, where
  // this browser did not take the seat, with a word of warning (someone who hands out a seat's
  // link holds it too). Once, at the first page data.
  const seatKey = (data) => "amunre.seat." + data.table + "." + data.seat;
  let yoursChecked = false;
  function yours(data) {
    if (yoursChecked || data.seat === null) return;
    yoursChecked = true;
    let claimed = false, known = false;
    try {
      claimed = sessionStorage.getItem("amunre.claimed") === data.table + "." + data.seat;
      if (claimed) sessionStorage.removeItem("amunre.claimed");
    } catch (e) { /* storage refused: nothing known */ }
    try { known = localStorage.getItem(seatKey(data)) === token; } catch (e) { /* as above */ }
    $("yours-link").value = location.href;
    $("yours-show").hidden = false;
    if (claimed) {
      text($("yours-title"), "This seat is yours now: you are " + data.you + ".");
      text($("yours-text"), "This page's link, below, is your seat's own, and only you were given it. Keep it: "
        + "bookmark this page, or copy the link somewhere private. It brings you back to this seat from this "
        + "device or another. Give it to nobody: whoever has it sees your hand and plays for you. The invitation you "
        + "opened is spent: opened again, it says when this seat was taken.");
    } else if (!known) {
      text($("yours-title"), "This browser did not take this seat.");
      text($("yours-text"), "If this link is your own (you took the seat on another device, or kept its link), all "
        + "is well: say so, and this browser remembers it.");
      $("yours-warning").hidden = false;
      $("yours-keep").hidden = false;
    } else {  // (its own, known here: shown when asked, with the button in the header)
      text($("yours-title"), "This seat's own link: you are " + data.you + ".");
      text($("yours-text"), "Keep it private: it brings you back to this seat from this device or another, and "
        + "whoever has it sees your hand and plays for you.");
      return;
    }
    $("yours").hidden = false;
    document.body.dataset.yours = claimed ? "claimed" : "unknown"; // (read by tests)
  }

  function render(data) {
    if (shown && data.version < shown.version) return;
    const fresh = !shown || data.number !== shown.number;
    shown = data;
    if (fresh) onlyProvince = null;
    document.body.dataset.number = data.number; // where the page stands (read by tests)
    document.body.dataset.version = data.version;
    yours(data);
    text($("title"), data.edition + (data.you ? " — you are " + data.you : " — spectator"));
    text($("where"), data.where);
    if (data.closed) status("This table is closed: whoever opened it closed it. Nothing more will happen here.", true);
    else if (data.failure) status("The table stopped: " + data.failure, true);
    else if (data.finished) status("Game over.");
    else if (data.decision) status("Your turn" + (data.decision.secret ? " (in secret: everyone asked answers at once, "
      + "and the answers are revealed together)" : "") + ".");
    else if (data.turn) status(waitingText(data));
    renderBoard(data);
    renderDecision(data, fresh);
    renderHand(data);
    renderPlayers(data);
    renderProjection(data);
    renderLines(data);
    renderSheets(data);
    renderUndo(data);
    $("finished").hidden = !data.finished;
    if (data.finished) {
      text($("winners"), "Won by " + data.winners.join(" and ") + ".");
      renderStandings(data.standings);
      text($("replay-command"), data.replay_command);
    }
    turnSignals(data);
  }

  // The finished game's places, best first, with what breaks a tie on points; the tie-break
  // in words under them (as the engine decided it)
  function renderStandings(standings) {
    const t = $("standings"); clear(t);
    const head = el("tr");
    for (const h of standings.heads) head.appendChild(el("th", h));
    t.appendChild(head);
    for (const row of standings.rows) {
      const tr = el("tr"); tr.dataset.place = row.place;
      for (const v of [row.place, row.name, row.points, row.pyramids, row.stones]) tr.appendChild(el("td", v));
      t.appendChild(tr);
    }
    $("tie").hidden = !standings.tie;
    text($("tie"), standings.tie || "");
  }

  // Who is still to answer: every seat of a secret batch at once (what they answered is never shown before the reveal)
  function waitingText(data) {
    const names = data.turn.waiting.map((w) => w.name + (w.bot ? " (bot)" : ""));
    const who = names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0];
    if (!data.turn.secret) return "Waiting for " + who + ".";
    return (data.sealed ? "Your sealed answer: " + data.sealed + ". " : "") + "Waiting for " + who
      + " to answer in secret; the answers are revealed together.";
  }

  // Undo: offered exactly when the server allows it; otherwise the button stays, greyed, and says why
  function renderUndo(data) {
    $("undo-box").hidden = data.seat === null || data.finished || !!data.closed;
    $("undo").disabled = data.undo !== null;
    text($("undo-why"), data.undo === null ? "" : "not offered: " + data.undo);
  }

  // -- your turn: the tab's title and icon, an optional sound, a notification where allowed --
  const TITLE = "Amun-Re table";
  let wasAsked = null; // (the decision number last signalled: once per decision)
  function favicon(mine) {
    const fill = mine ? "%23d49a00" : "%239c8758";
    $("favicon").href = "data:image/svg+xml," + "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>"
      + "<path d='M1 15h14L8 1z' fill='" + fill + "' stroke='%232b2418'/>"
      + (mine ? "<circle cx='12' cy='4' r='3.5' fill='%23c62828'/>" : "") + "</svg>";
  }
  function stored(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function store(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  function turnSignals(data) {
    const mine = !!data.decision;
    document.title = (mine ? "(Your turn) " : "") + TITLE;
    document.body.dataset.turn = mine ? "yours" : "";  // (read by tests)
    favicon(mine);
    if (!mine || wasAsked === data.number) return;
    const first = wasAsked === null && !document.body.dataset.signalled;
    wasAsked = data.number;
    document.body.dataset.signalled = "1";
    if (first && !document.hidden) return;  // (the page just opened, in front: nothing to call attention to)
    if (stored("amunre.sound") === "on") beep();
    if (stored("amunre.notify") === "on" && window.Notification && Notification.permission === "granted"
        && document.hidden) {
      try { new Notification("Your turn: " + data.edition, { body: data.decision.question, tag: "amunre-turn" }); }
      catch (e) { /* (some browsers allow notifications only from a service worker) */ }
    }
  }
  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660; gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain); gain.connect(audio.destination); tone.start(); tone.stop(audio.currentTime + 0.4);
    } catch (e) { /* no sound here */ }
  }
  function soundButton() {
    const on = stored("amunre.sound") === "on";
    text($("sound"), "sound on my turn: " + (on ? "on" : "off")); $("sound").setAttribute("aria-pressed", String(on));
  }
  function notifyButton() {
    const said = stored("amunre.notify");
    if (!window.Notification) { text($("notify"), "notifications: not in this browser"); $("notify").disabled = true; }
    else if (said === null) text($("notify"), "notify me on my turn");
    else if (Notification.permission === "denied") text($("notify"), "notifications: refused by the browser");
    else text($("notify"), "notifications: " + (said === "on" ? "on" : "off"));
  }
  async function notifyClick() {
    if (!window.Notification) return;
    if (stored("amunre.notify") === null || Notification.permission === "default") {
      // asked once, on this click; the answer is remembered (the browser remembers its own too)
      const answer = await Notification.requestPermission();
      store("amunre.notify", answer === "granted" ? "on" : "off");
    } else {
      store("amunre.notify", stored("amunre.notify") === "on" ? "off" : "on");
    }
    notifyButton();
  }

  // -- the score sheets: one per kingdom's scoring and the final one, in the variant's words --
  let sheetsSeen = null;
  function sheetTable(sheet, players) {
    const t = el("table", null, "sheet"); t.dataset.kingdom = sheet.kingdom;
    const cap = document.createElement("caption"); text(cap, sheet.title); t.appendChild(cap);
    const head = el("tr"); head.appendChild(el("th", ""));
    for (const p of players) head.appendChild(el("th", p.name));
    t.appendChild(head);
    for (const item of sheet.items) {
      const tr = el("tr"); tr.dataset.item = item.key; tr.appendChild(el("td", item.name));
      for (const v of item.points) tr.appendChild(el("td", v));
      t.appendChild(tr);
    }
    for (const [label, values, cls] of [["this scoring", sheet.totals, "total"], ["running total", sheet.running, "running"]]) {
      const tr = el("tr", null, cls); tr.appendChild(el("td", label));
      for (const v of values) tr.appendChild(el("td", v));
      t.appendChild(tr);
    }
    return t;
  }
  function renderSheets(data) {
    const sheets = data.sheets || [];
    text($("sheets-tab"), "score sheets" + (sheets.length ? " (" + sheets.length + ")" : ""));
    const box = $("sheets");
    if (sheets.length) { clear(box); for (const sheet of sheets.slice().reverse()) box.appendChild(sheetTable(sheet, data.players)); }
    const final = $("final-sheets"); clear(final);
    if (data.finished) for (const sheet of sheets) final.appendChild(sheetTable(sheet, data.players));
    // a scoring that happened while the page was open is shown over the board, until closed
    // (and at the end of a game watched here, every sheet)
    if (sheetsSeen !== null && sheets.length > sheetsSeen) {
      const shown = data.finished ? sheets : sheets.slice(-1);
      text($("sheet-pop-title"), data.finished ? "The score sheets" : "");
      $("sheet-pop-title").hidden = !data.finished;
      const body = $("sheet-pop-body"); clear(body);
      for (const sheet of shown) body.appendChild(sheetTable(sheet, data.players));
      $("sheet-pop").hidden = false;
    }
    sheetsSeen = sheets.length;
  }

  function showTab(name) {
    for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("on", b.dataset.tab === name);
    for (const t of document.querySelectorAll("#tabs-box .tab")) t.hidden = t.id !== name;
    if (name === "chat-box") { chatUnread = 0; chatTab(); const l = $("chat-lines"); l.scrollTop = l.scrollHeight; }
  }

  // -- the chat: what the seats typed, as text (never HTML); new messages counted on its tab --
  let chatSeen = null, chatUnread = 0;
  function chatTab() { text($("chat-tab"), "chat" + (chatUnread ? " (" + chatUnread + " new)" : "")); }
  function renderChat(list) {
    $("chat-tab").hidden = false;
    const box = $("chat-lines"); const follow = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
    clear(box);
    for (const m of list) {
      const li = el("li", null, "seat" + m.seat); li.dataset.number = m.number;
      li.appendChild(el("b", m.name + (shown && m.seat === shown.seat ? " (you)" : "") + ":"));
      li.appendChild(document.createTextNode(m.text));  // (text, never HTML)
      box.appendChild(li);
    }
    const newest = list.length ? list[list.length - 1].number : -1;
    if (chatSeen !== null && newest > chatSeen && $("chat-box").hidden)
      chatUnread += list.filter((m) => m.number > chatSeen && !(shown && m.seat === shown.seat)).length;
    chatSeen = newest;
    chatTab();
    if (follow) box.scrollTop = box.scrollHeight;
  }
  async function loadChat() {
    try {
      const response = await fetch("/api/chat", { headers: { "Authorization": "Bearer " + token }, cache: "no-store" });
      if (response.status === 404) { $("chat-tab").hidden = true; return; }  // (the server runs with --no-chat)
      if (response.ok) renderChat((await response.json()).messages);
    } catch (e) { /* the server is away: asked again when the page reconnects */ }
  }
  async function say(event) {
    event.preventDefault();
    const input = $("chat-text"); const message = input.value;
    if (!message.trim()) return;
    text($("chat-error"), "");
    try { const data = await api("/api/chat", { text: message }); input.value = ""; renderChat(data.messages); }
    catch (e) { text($("chat-error"), e.message); }
  }

  function renderBoard(data) {
    const holder = $("board");
    const svgText = data.board.replace(/^<\?xml[^>]*>\s*/, "");
    if (holder.dataset.svg !== svgText) {
      holder.innerHTML = svgText; // drawn by the server, every file text in it escaped
      holder.dataset.svg = svgText;
    }
    // the last move about a province, framed (its words in the frame's tooltip and under the players)
    for (const old of holder.querySelectorAll("rect.last")) old.remove();
    const last = data.last_move;
    $("last-move").hidden = !last;
    if (last) {
      text($("last-move"), "Last move: " + last.text);
      const g = holder.querySelector(`g.province[data-pid="${last.province}"]`);
      const base = g && g.querySelector("rect");
      const frame = base && document.createElementNS("http://www.w3.org/2000/svg", "rect");
      if (frame) {
        for (const [name, add] of [["x", -2], ["y", -2], ["width", 4], ["height", 4]])
          frame.setAttribute(name, Number(base.getAttribute(name)) + add);
        frame.setAttribute("rx", "7"); frame.setAttribute("class", "last");
        const tip = document.createElementNS("http://www.w3.org/2000/svg", "title");
        tip.textContent = "last move: " + last.text; frame.appendChild(tip);
        holder.querySelector("svg").appendChild(frame);
      }
    }
    const choosable = new Set();
    if (data.decision) for (const o of data.decision.options) if (o.province !== undefined) choosable.add(String(o.province));
    // a dashed frame on top of each province that can be chosen (above the owner's colour and
    // the auction's outline, and unlike either), solid on the one picked
    const svg = holder.querySelector("svg");
    for (const old of holder.querySelectorAll("rect.choice")) old.remove();
    for (const g of holder.querySelectorAll("g.province")) {
      const can = choosable.has(g.dataset.pid);
      g.classList.toggle("choosable", can);
      if (!can || !svg) continue;
      const base = g.querySelector("rect");
      const frame = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      for (const [name, add] of [["x", -5], ["y", -5], ["width", 10], ["height", 10]])
        frame.setAttribute(name, Number(base.getAttribute(name)) + add);
      frame.setAttribute("rx", "9");
      frame.setAttribute("class", "choice" + (onlyProvince !== null && g.dataset.pid === String(onlyProvince) ? " picked" : ""));
      frame.dataset.pid = g.dataset.pid;
      svg.appendChild(frame);
    }
  }

  // `fromTop`: a new decision (or a new filter of its options): its options are shown from the
  // first (the box keeps its scroll position otherwise, and would hide the first ones)
  function renderDecision(data, fromTop) {
    const box = $("decision");
    const d = data.decision;
    box.hidden = !d;
    document.body.classList.toggle("asking", !!d);  // (the options get most of the column)
    if (!d) return;
    text($("question"), d.question);
    const facts = $("facts"); clear(facts);
    for (const f of d.facts) facts.appendChild(el("li", f));
    const options = $("options"); clear(options);
    let group = null, row = null;
    const filtered = onlyProvince === null ? d.options : d.options.filter((o) => o.province === onlyProvince);
    $("filter").hidden = onlyProvince === null;
    if (onlyProvince !== null) text($("filter-text"), "Options on this province:");
    for (const o of filtered) {
      if (o.group !== undefined && o.group !== group) {
        group = o.group; options.appendChild(el("h3", group)); row = el("div", null, "row"); options.appendChild(row);
      } else if (o.group === undefined && row === null) { row = el("div", null, "column"); options.appendChild(row); }
      const b = el("button", o.text, "option");
      b.type = "button"; b.dataset.index = o.index;
      b.addEventListener("click", () => answer(o.index));
      row.appendChild(b);
    }
    if (fromTop) options.scrollTop = 0;
  }

  function renderHand(data) {
    $("hand-box").hidden = data.seat === null;
    const hand = $("hand"); clear(hand);
    if (!data.hand) return;
    if (!data.hand.length) hand.appendChild(el("li", "no cards"));
    for (const c of data.hand) {
      const li = el("li", null, "card");
      li.appendChild(el("b", (c.count > 1 ? c.count + " × " : "") + c.card));
      if (c.text) li.appendChild(el("span", " — " + c.text));
      hand.appendChild(li);
    }
  }

  function renderPlayers(data) {
    const t = $("players"); clear(t);
    const head = el("tr"); for (const h of ["", "points", "gold", "cards", "provinces"]) head.appendChild(el("th", h)); t.appendChild(head);
    data.players.forEach((p, i) => {
      const asked = data.turn && data.turn.waiting.some((w) => w.seat === i);
      const tr = el("tr"); tr.className = "seat" + i + (asked ? " asked" : "");
      tr.appendChild(el("td", p.name + (i === data.seat ? " (you)" : p.seat !== "human" ? " (" + p.seat + ")" : "")));
      tr.appendChild(el("td", p.points)); tr.appendChild(el("td", p.gold));
      tr.appendChild(el("td", p.cards_text));
      tr.appendChild(el("td", p.provinces.join(", ")));
      t.appendChild(tr);
    });
  }

  function renderProjection(data) {
    if (!data.projection) { text($("projection-title"), "nothing more to score"); clear($("projection")); return; }
    text($("projection-title"), data.projection.title);
    const t = $("projection"); clear(t);
    const head = el("tr"); head.appendChild(el("th", ""));
    for (const p of data.players) head.appendChild(el("th", p.name));
    t.appendChild(head);
    for (const item of data.projection.items) {
      const tr = el("tr"); tr.appendChild(el("td", item.name));
      for (const v of item.points) tr.appendChild(el("td", v));
      t.appendChild(tr);
    }
    const total = el("tr", null, "total"); total.appendChild(el("td", "total after it"));
    for (const v of data.projection.totals) total.appendChild(el("td", v));
    t.appendChild(total);
  }

  // the play-by-play follows the newest line unless the reader scrolled up (a resize of its
  // pane moves nothing: only the reader's scrolling decides)
  let followLines = true;
  function linesScrolled() { const l = $("lines"); followLines = l.scrollTop + l.clientHeight >= l.scrollHeight - 4; }
  function renderLines(data) {
    const list = $("lines");
    clear(list);
    for (const line of data.lines) list.appendChild(el("li", line));
    if (followLines) list.scrollTop = list.scrollHeight;
  }

  async function answer(index) {
    text($("answer-error"), "");
    for (const b of document.querySelectorAll("#options button")) b.disabled = true;
    try { await api("/api/answer", { number: shown.number, option: index }); }
    catch (e) { text($("answer-error"), e.message); for (const b of document.querySelectorAll("#options button")) b.disabled = false; }
  }

  function boardClick(event) {
    const g = event.target.closest && (event.target.closest("rect.choice") || event.target.closest("g.province"));
    if (!g || !shown || !shown.decision) return;
    const pid = Number(g.dataset.pid);
    const on = shown.decision.options.filter((o) => o.province === pid);
    if (!on.length) return;
    if (on.length === 1) { answer(on[0].index); return; }
    onlyProvince = pid; renderBoard(shown); renderDecision(shown, true);
    $("decision").scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function connect() {
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/live");
    socket.onopen = () => socket.send(JSON.stringify({ token: token }));
    socket.onmessage = (e) => { const data = JSON.parse(e.data); if (data.chat) renderChat(data.chat); else render(data); };
    socket.onclose = (e) => {
      if (e.code === 4403 || e.code === 4401 || e.code === 4404) { status("This link opens nothing: " + (e.reason || e.code), true); return; }
      if (e.code === 4409) { status("The table stopped: " + (e.reason || "reload the page to see why"), true); return; }
      if (e.code === 4429) {  // the server or the table has as many live connections as it takes: ask now and then
        status("The server is busy: this page asks for news every 10 seconds.", true);
        setTimeout(() => { api("/api/state").then(render).catch(() => {}); loadChat(); connect(); }, 10000);
        return;
      }
      if (e.code === 4503) {
        status("The server is setting the table up again after a restart…", true);
        setTimeout(() => { api("/api/state").then(render).catch(() => {}); loadChat(); connect(); }, 2000);
        return;
      }
      status("Connection lost: trying again…", true);
      setTimeout(() => { api("/api/state").then(render).catch(() => {}); loadChat(); connect(); }, 1500);
    };
  }

  // another seat's link opened in this tab changes only the part after # (no new page): reload
  window.addEventListener("hashchange", () => location.reload());

  document.addEventListener("DOMContentLoaded", () => {
    $("board").addEventListener("click", boardClick);
    $("yours-show").addEventListener("click", () => { $("yours").hidden = !$("yours").hidden; });
    $("yours-done").addEventListener("click", () => { $("yours").hidden = true; });
    $("yours-keep").addEventListener("click", () => {
      try { localStorage.setItem(seatKey(shown), token); } catch (e) { /* private mode: nothing kept */ }
      $("yours").hidden = true; $("yours-warning").hidden = true; $("yours-keep").hidden = true;
    });
    $("yours-link").addEventListener("focus", () => $("yours-link").select());
    $("yours-copy").addEventListener("click", async () => {
      $("yours-link").select();
      try { await navigator.clipboard.writeText($("yours-link").value); text($("yours-copied"), "copied"); }
      catch (e) { text($("yours-copied"), "selected: copy it with Ctrl+C"); } // (no clipboard over plain http)
    });
    $("show-all").addEventListener("click", () => { onlyProvince = null; renderBoard(shown); renderDecision(shown, true); });
    for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
    $("lines").addEventListener("scroll", linesScrolled);
    $("sheet-pop-close").addEventListener("click", () => { $("sheet-pop").hidden = true; });
    $("sound").addEventListener("click", () => {
      store("amunre.sound", stored("amunre.sound") === "on" ? "off" : "on"); soundButton();
      if (stored("amunre.sound") === "on") beep();  // (this click lets the page play sound; and says how it sounds)
    });
    $("notify").addEventListener("click", notifyClick);
    soundButton(); notifyButton(); favicon(false);
    $("undo").addEventListener("click", async () => {
      try { await api("/api/undo", { number: shown.number }); } catch (e) { status(e.message, true); }
    });
    $("replay-link").addEventListener("click", async (e) => {
      e.preventDefault();  // a one-time address: the viewer is a page of its own, with its own policy
      try { const made = await api("/api/replay", {}); window.open(made.link, "_blank", "noopener"); }
      catch (err) { status(err.message, true); }
    });
    $("log-link").addEventListener("click", (e) => { e.preventDefault(); fetchOpen("/api/log", "application/x-ndjson", "amunre-" + shown.table + ".jsonl"); });
    if (!token) { status("This page needs its link's token (the part after #).", true); return; }
    const watching = location.pathname === "/watch";
    $("chat-form").hidden = watching; $("chat-watch").hidden = !watching;
    $("chat-form").addEventListener("submit", say);
    api("/api/state").then(render).catch((e) => status(e.message, true));
    loadChat();
    connect();
  });

  // the replay and the log need the token: fetched with it, then shown from a blob
  async function fetchOpen(path, type, filename) {
    const response = await fetch(path, { headers: { "Authorization": "Bearer " + token } });
    if (!response.ok) { const data = await response.json().catch(() => ({})); status(data.error || "refused", true); return; }
    const url = URL.createObjectURL(new Blob([await response.text()], { type: type }));
    const a = document.createElement("a"); a.href = url; if (filename) a.download = filename; else a.target = "_blank";
    document.body.appendChild(a); a.click(); a.remove();
  }
})();
