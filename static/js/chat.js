// Table page: chat bubbles at the speaker's seat (the server decided who sees them) and the
// chat panel's small conveniences. No rule or filter here.
(function () {
  "use strict";
  const SHOW_MS = 4500;

  function place(bubble) {
    const root = document.querySelector("#table-root");
    const seat = document.querySelector(`#board .seat-box[data-seat="${bubble.dataset.seat}"]`);
    if (!root) return;
    const base = root.getBoundingClientRect();
    if (seat) {
      const r = seat.getBoundingClientRect();
      // above the seat box, or below it when there is no room above (a seat at the top)
      const above = r.top - base.top - bubble.offsetHeight - 8;
      const below = above < 0;
      const top = below ? r.bottom - base.top + 8 : above;
      bubble.classList.toggle("chat-below", below);
      const left = Math.min(Math.max(0, r.left - base.left), base.width - bubble.offsetWidth - 4);
      bubble.style.top = top + "px";
      bubble.style.left = Math.max(0, left) + "px";
    } else {
      bubble.style.top = "40%";
      bubble.style.left = "30%";
    }
  }

  function show(bubble) {
    if (bubble._shown) return;
    bubble._shown = true;
    // one bubble per seat at a time: a new one replaces the seat's previous one
    document.querySelectorAll(`#chat-feed .chat-bubble[data-seat="${bubble.dataset.seat}"]`)
      .forEach((old) => { if (old !== bubble) old.remove(); });
    place(bubble);
    setTimeout(() => bubble.classList.add("chat-fade"), SHOW_MS);
    setTimeout(() => bubble.remove(), SHOW_MS + 500);
  }

  function watch() {
    const feed = document.querySelector("#chat-feed");
    if (!feed) return;
    new MutationObserver(() => {
      feed.querySelectorAll(".chat-bubble").forEach(show);
    }).observe(feed, { childList: true });
  }

  // the text box empties once its line is sent; the panel closes after a phrase or emote
  document.addEventListener("htmx:wsAfterSend", (e) => {
    const form = e.target.closest && e.target.closest(".chat-text-form");
    if (form) { const input = form.querySelector("input[name=text]"); if (input) input.value = ""; }
    if (e.target.closest && e.target.closest(".chat-phrase, .chat-emote-btn")) {
      const panel = document.querySelector("#chat-panel");
      if (panel) panel.open = false;
    }
  });
  document.addEventListener("DOMContentLoaded", watch);
})();
