// The replay page (回放): step / play / pause / jump through a finished hand. Each step's caption
// and board are drawn by the server with the game's own live board (every hand open) and fetched
// here; no rules in the browser. The deal is re-done in the browser by verify_deal.js.
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const t = window.t || ((s) => s);
  const last = parseInt(root.dataset.last, 10) || 0;
  const base = root.dataset.url.replace(/0\/$/, "");
  const stage = document.getElementById("replay-stage");
  const range = document.getElementById("replay-range");
  const stepNo = document.getElementById("step-no");
  const playBtn = root.querySelector("[data-go=play]");
  const cache = new Map();
  let current = 0;
  let timer = null;
  let pending = null;

  function fetchStep(n) {
    if (!cache.has(n)) {
      cache.set(n, fetch(base + n + "/", { credentials: "same-origin" }).then((r) => {
        if (!r.ok) throw new Error(r.status);
        return r.text();
      }).catch((e) => { cache.delete(n); throw e; }));
    }
    return cache.get(n);
  }

  function show(n) {
    n = Math.max(0, Math.min(last, n));
    pending = n;
    return fetchStep(n).then((html) => {
      if (pending !== n) return;
      stage.innerHTML = html;
      current = n;
      range.value = String(n);
      stepNo.textContent = String(n);
      root.dataset.step = String(n);
      root.classList.toggle("at-end", n === last);
      // the board scripts (paohuzi's css/js loader) run as on the live table
      stage.querySelectorAll("script").forEach((old) => {
        const s = document.createElement("script");
        s.textContent = old.textContent;
        old.replaceWith(s);
      });
      document.dispatchEvent(new CustomEvent("leyou:board", { detail: { root: stage, replay: true } }));
      if (n < last) fetchStep(n + 1).catch(() => {});
    }).catch(() => {
      if (window.Leyou) Leyou.toast("#toast", t("載入失敗，請重試"), true);
    });
  }

  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.textContent = playBtn.dataset.playText;
    root.classList.remove("playing");
  }

  function play() {
    if (current >= last) show(0);
    playBtn.textContent = playBtn.dataset.pauseText;
    root.classList.add("playing");
    const speed = parseInt(root.dataset.speed || "900", 10);
    timer = setInterval(() => {
      if (current >= last) { pause(); return; }
      show(current + 1);
    }, speed);
  }

  root.addEventListener("click", (e) => {
    const b = e.target.closest("[data-go]");
    if (!b) return;
    const go = b.dataset.go;
    if (go === "play") { if (timer) pause(); else play(); return; }
    pause();
    if (go === "start") show(0);
    else if (go === "prev") show(current - 1);
    else if (go === "next") show(current + 1);
    else if (go === "end") show(last);
  });
  range.addEventListener("input", () => { pause(); show(parseInt(range.value, 10)); });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input,textarea,select")) return;
    if (e.key === "ArrowRight") { pause(); show(current + 1); }
    else if (e.key === "ArrowLeft") { pause(); show(current - 1); }
    else if (e.key === " ") { e.preventDefault(); if (timer) pause(); else play(); }
  });
})();
