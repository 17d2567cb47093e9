// 跑胡子 board: the player rearranges the columns of his hand by dragging them (mouse or touch).
// The order is kept per hand in this tab (sessionStorage) and put back after every re-render.
// No game rules here: which cards may be discarded is the server's business.
(function () {
  "use strict";
  if (window.phzBoard) { window.phzBoard.apply(); return; }

  const THRESHOLD = 8;      // px of movement before a press becomes a drag
  let drag = null;          // {col, startX, startY, moved}
  let swallowClick = false; // the click that ends a drag must not discard a card

  function hand() { return document.getElementById("phz-hand"); }
  function columns(h) { return Array.from(h.querySelectorAll(":scope > .phz-col")); }

  // a column's identity across re-renders: its kind and the first card (a 坎, a 牌點, the 王)
  function colKey(col) {
    const first = col.querySelector("[data-card]");
    const card = first ? first.dataset.card : "";
    if (col.classList.contains("phz-col-kan")) return "kan:" + card;
    if (col.classList.contains("phz-col-wang")) return "wang";
    return "n:" + card.replace(/^[xd]/, "");
  }
  function storeKey(h) { return "phz-order:" + (h.dataset.handKey || ""); }

  function save(h) {
    try { sessionStorage.setItem(storeKey(h), JSON.stringify(columns(h).map(colKey))); } catch (e) { /* private mode */ }
  }

  function apply() {
    const h = hand();
    if (!h) return;
    let order = null;
    try { order = JSON.parse(sessionStorage.getItem(storeKey(h)) || "null"); } catch (e) { order = null; }
    if (!Array.isArray(order) || !order.length) return;
    const cols = columns(h);
    // known columns take their saved place; new ones keep their place relative to their neighbours
    const rank = new Map(order.map((k, i) => [k, i]));
    let last = -1;
    const keyed = cols.map((c, i) => {
      const r = rank.has(colKey(c)) ? rank.get(colKey(c)) : last + 0.5;
      last = Math.max(last, Math.floor(r));
      return { c: c, r: r, i: i };
    });
    keyed.sort((a, b) => a.r - b.r || a.i - b.i);
    keyed.forEach((k) => h.appendChild(k.c));
  }

  function targetIndex(h, x, moving) {
    const cols = columns(h).filter((c) => c !== moving);
    for (let i = 0; i < cols.length; i++) {
      const r = cols[i].getBoundingClientRect();
      if (x < r.left + r.width / 2) return { before: cols[i] };
    }
    return { before: null };
  }

  function clearMarks(h) { columns(h).forEach((c) => c.classList.remove("phz-drop", "phz-drop-end")); }

  document.addEventListener("pointerdown", (e) => {
    const col = e.target.closest && e.target.closest("#phz-hand > .phz-col");
    if (!col || e.button > 0) return;
    drag = { col: col, key: colKey(col), startX: e.clientX, startY: e.clientY, moved: false, pointer: e.pointerId };
  });

  // a push may render the hand again under a drag: carry on with the same column in the new hand
  function dragged(h, d) {
    if (h.contains(d.col)) return d.col;
    const again = columns(h).find((c) => colKey(c) === d.key);
    if (again && d.moved) again.classList.add("phz-dragging");
    return again || null;
  }

  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const h = hand();
    const col = h && dragged(h, drag);
    if (!col) { drag = null; return; }
    drag.col = col;
    if (!drag.moved) {
      if (Math.abs(e.clientX - drag.startX) + Math.abs(e.clientY - drag.startY) < THRESHOLD) return;
      drag.moved = true;
      drag.col.classList.add("phz-dragging");
    }
    e.preventDefault();
    clearMarks(h);
    const t = targetIndex(h, e.clientX, drag.col);
    if (t.before) t.before.classList.add("phz-drop");
    else { const cols = columns(h).filter((c) => c !== drag.col); if (cols.length) cols[cols.length - 1].classList.add("phz-drop-end"); }
  }, { passive: false });

  function finish(e) {
    if (!drag) return;
    const d = drag;
    drag = null;
    const h = hand();
    if (!h) return;
    clearMarks(h);
    const col = dragged(h, d);
    if (!col) return;
    d.col = col;
    d.col.classList.remove("phz-dragging");
    if (!d.moved) return;
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    const t = targetIndex(h, e.clientX, d.col);
    h.insertBefore(d.col, t.before);
    save(h);
  }
  document.addEventListener("pointerup", finish);
  document.addEventListener("pointercancel", () => {
    if (drag) { drag.col.classList.remove("phz-dragging"); const h = hand(); if (h) clearMarks(h); }
    drag = null;
  });
  // a drag that ends on a card button must not send the discard
  document.addEventListener("click", (e) => {
    if (swallowClick && e.target.closest && e.target.closest("#phz-hand")) {
      e.preventDefault();
      e.stopImmediatePropagation();
      swallowClick = false;
    }
  }, true);
  // a card in the hand: the first tap raises it, a second tap on it discards it
  document.addEventListener("click", (e) => {
    const btn = e.target.closest && e.target.closest("#phz-hand .phz-card-btn");
    if (!btn || btn.classList.contains("phz-armed")) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    document.querySelectorAll("#phz-hand .phz-armed").forEach((b) => b.classList.remove("phz-armed"));
    btn.classList.add("phz-armed");
  }, true);
  // no native image / text drag inside the hand
  document.addEventListener("dragstart", (e) => {
    if (e.target.closest && e.target.closest("#phz-hand")) e.preventDefault();
  });

  window.phzBoard = { apply: apply };
  document.addEventListener("htmx:oobAfterSwap", apply);
  document.addEventListener("htmx:wsAfterMessage", apply);
  apply();
})();
