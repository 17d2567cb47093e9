// Table page: chat bubbles at the speaker's seat (the server decided who sees them) and the
// chat panel's small conveniences. No rule or filter here.
(function () {
  "use strict";
  const SHOW_MS = 4500;

  // what a bubble must never cover: first what a player counts on reading at a glance (cards
  // left, the clocks), then the seats, the plays on the table, his own hand and buttons
  const MUST_CLEAR = ".count, .phz-count, .mj-count, .zinfo, .clock";
  const KEEP_CLEAR = [".seat-box", ".mj-head", ".played", ".dipai", ".phz-offer", ".mj-river",
    "#my-hand", "#phz-hand", "#actions", "#settlement"].join(",");

  function overlap(a, b) {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0 && h > 0 ? w * h : 0;
  }

  function place(bubble) {
    const root = document.querySelector("#table-root");
    const n = bubble.dataset.seat;
    const seat = document.querySelector(`#board .seat-box[data-seat="${n}"], ` +
      `#board .phz-opp[data-seat="${n}"] .seat-box, #board .mj-head[data-seat="${n}"], ` +
      `#board .mj-seat[data-seat="${n}"] .mj-head`);
    if (!root) return;
    const base = root.getBoundingClientRect();
    if (!seat) {
      bubble.style.top = "40%";
      bubble.style.left = "30%";
      return;
    }
    const r = seat.getBoundingClientRect();
    const block = seat.closest(".opponent, .zseat, .phz-opp, .phz-me, .mj-seat, .me") || seat;
    const b = block.getBoundingClientRect();
    const w = bubble.offsetWidth;
    const h = bubble.offsetHeight;
    const left = Math.max(0, Math.min(r.left - base.left, base.width - w - 4));
    // the places tried, in order: above the seat box, below it, under its card count (over
    // the backs, which say nothing the count does not), below / above the seat's whole block,
    // beside it; the first that covers nothing to keep clear wins,
    // else the one covering least
    const count = block.querySelector(".count, .phz-count, .mj-count");
    const under = count ? count.getBoundingClientRect().bottom - base.top + 4 : -1;
    const tries = [
      [r.top - base.top - h - 8, left, false],
      [r.bottom - base.top + 8, left, true],
      [under, left, true], // over the seat's card backs, under its count
      [b.bottom - base.top + 6, left, true],
      [b.top - base.top - h - 6, left, false],
      [r.top - base.top, Math.min(r.right - base.left + 8, base.width - w - 4), false],
      [r.top - base.top, Math.max(0, r.left - base.left - w - 8), false],
    ];
    const rects = (sel, weight) => Array.from(document.querySelectorAll(sel))
      .filter((el) => el !== seat && !el.closest(".chat-feed"))
      .map((el) => [el.getBoundingClientRect(), weight])
      .filter(([k]) => k.width > 0 && k.height > 0);
    const keep = rects(MUST_CLEAR, 100).concat(rects(KEEP_CLEAR, 1));
    const own = r;
    let best = null;
    for (const [top, x, below] of tries) {
      if (top < 0 || top + h > base.height) continue;
      const box = { left: base.left + x, top: base.top + top, right: base.left + x + w, bottom: base.top + top + h };
      const covered = keep.reduce((sum, [k, weight]) => sum + weight * overlap(box, k), 0) + overlap(box, own);
      if (best === null || covered < best[0]) best = [covered, top, x, below];
      if (covered === 0) break;
    }
    if (best === null) best = [0, Math.max(0, r.bottom - base.top + 8), left, true];
    bubble.classList.toggle("chat-below", best[3]);
    bubble.style.top = best[1] + "px";
    bubble.style.left = best[2] + "px";
  }

  // the last few lines stay readable in the chat bar after their bubbles are gone
  const LOG_LINES = 5;
  function log(bubble) {
    const list = document.querySelector("#chat-log");
    if (!list) return;
    const li = document.createElement("li");
    const name = bubble.querySelector(".chat-name");
    const b = document.createElement("b");
    b.textContent = (name ? name.textContent : "") + "：";
    li.appendChild(b);
    const text = bubble.querySelector(".chat-text");
    const emote = bubble.querySelector(".chat-emote");
    if (text) {
      li.appendChild(document.createTextNode(text.textContent));
    } else if (emote) {
      const img = emote.cloneNode();
      img.width = 20;
      img.height = 20;
      img.className = "chat-log-emote";
      li.appendChild(img);
    }
    li.dataset.seat = bubble.dataset.seat;
    list.appendChild(li);
    while (list.children.length > LOG_LINES) list.firstElementChild.remove();
    list.hidden = false;
  }

  function show(bubble) {
    if (bubble._shown) return;
    bubble._shown = true;
    // one bubble per seat at a time: a new one replaces the seat's previous one
    document.querySelectorAll(`#chat-feed .chat-bubble[data-seat="${bubble.dataset.seat}"]`)
      .forEach((old) => { if (old !== bubble) old.remove(); });
    place(bubble);
    log(bubble);
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
