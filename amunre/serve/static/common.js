// What the seat's page and the creator's page share: building an element with its text, and
// asking the server with the page's token (a link's fragment, sent only in a header).
"use strict";
window.amunrePage = (function () {
  function text(node, value) { node.textContent = value == null ? "" : String(value); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function el(tag, value, cls) { const e = document.createElement(tag); text(e, value); if (cls) e.className = cls; return e; }

  // A function that asks `path` as the holder of `token`: GET, or POST of `body` as JSON; it
  // gives the answer's JSON, or throws the server's reason for a refusal.
  function asker(token) {
    return async function api(path, body) {
      const init = { headers: { "Authorization": "Bearer " + token }, cache: "no-store" };
      if (body !== undefined) { init.method = "POST"; init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
      const response = await fetch(path, init);
      const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
      if (!response.ok) throw new Error(data.error || ("refused: " + response.status));
      return data;
    };
  }

  return { text, clear, el, asker };
})();
