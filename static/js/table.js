// Table page: card selection, 提示 cycling, clocks and send bookkeeping. No game rules here:
// the server decides what is legal and says why when it is not.
(function () {
  "use strict";
  let clockOffset = 0;   // server time − browser time, in ms
  let hintIndex = -1;
  let lastSeq = -1;
  let dragging = false, dragMode = true;

  const { $, $$, newId } = window.Leyou;

  function board() { return $("#board"); }

  function toast(text, isError) { window.Leyou.toast("#toast", text, isError); }

  function selectedRanks() {
    return $$("#my-hand .card.selected").map((c) => c.dataset.rank).join("");
  }

  function setSelected(card, on) { card.classList.toggle("selected", on); }

  function syncFromBoard() {
    const b = board();
    if (!b) return;
    const seq = parseInt(b.dataset.seq || "-1", 10);
    if (b.dataset.now) clockOffset = new Date(b.dataset.now).getTime() - Date.now();
    lastSeq = seq;
    hintIndex = -1;
    tickClocks();
  }

  function tickClocks() {
    const now = Date.now() + clockOffset;
    $$(".clock[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil((new Date(el.dataset.deadline).getTime() - now) / 1000));
      const b = el.querySelector("b");
      if (b) b.textContent = String(left);
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tickClocks, 250);

  // --- selection: click or drag across cards ------------------------------------------------
  document.addEventListener("pointerdown", (e) => {
    const card = e.target.closest("#my-hand .card.selectable");
    if (!card) return;
    dragging = true;
    dragMode = !card.classList.contains("selected");
    setSelected(card, dragMode);
    e.preventDefault();
  });
  document.addEventListener("pointerover", (e) => {
    if (!dragging) return;
    const card = e.target.closest("#my-hand .card.selectable");
    if (card) setSelected(card, dragMode);
  });
  document.addEventListener("pointerup", () => { dragging = false; });
  document.addEventListener("keydown", (e) => {
    const card = e.target.closest && e.target.closest("#my-hand .card.selectable");
    if (card && (e.key === " " || e.key === "Enter")) {
      setSelected(card, !card.classList.contains("selected"));
      e.preventDefault();
    }
  });

  // --- 提示: cycle through the legal plays the server listed for this seat --------------------
  document.addEventListener("click", (e) => {
    if (!e.target.closest("[data-hint]")) return;
    const hints = JSON.parse(board().dataset.hints || "[]");
    if (!hints.length) { toast(t("沒有能大過上家的牌"), false); return; }
    hintIndex = (hintIndex + 1) % hints.length;
    const want = hints[hintIndex].split("/")[0].split("");
    $$("#my-hand .card").forEach((c) => setSelected(c, false));
    $$("#my-hand .card").forEach((c) => {
      const i = want.indexOf(c.dataset.rank);
      if (i >= 0) { setSelected(c, true); want.splice(i, 1); }
    });
  });

  // --- sending: stamp every move with the seq it was made against and a fresh id -------------
  document.addEventListener("htmx:wsConfigSend", (e) => {
    const p = e.detail.parameters;
    const leave = e.target.closest && e.target.closest("[data-leave]");
    if (leave && leave.dataset.confirmText && !window.confirm(leave.dataset.confirmText)) {
      e.preventDefault();
      return;
    }
    if (p.kind === "move") {
      p.seq = lastSeq;
      p.action_id = newId();
      if (p.action && p.action.type === "play" && !p.action.cards) {
        const cards = selectedRanks();
        if (!cards) { toast(t("請先選擇要出的牌"), true); e.preventDefault(); return; }
        // 癩子場: the same cards may be read several ways; let the player choose the reading
        const sorted = (x) => x.split("").sort().join("");
        const readings = JSON.parse(board().dataset.hints || "[]")
          .filter((h) => h.includes("/") && sorted(h.split("/")[0]) === sorted(cards))
          .map((h) => h.split("/")[1]);
        const plain = JSON.parse(board().dataset.hints || "[]")
          .some((h) => !h.includes("/") && sorted(h) === sorted(cards));
        if (readings.length + (plain ? 1 : 0) > 1) {
          e.preventDefault();
          showReadings(cards, plain ? [null].concat(readings) : readings);
          return;
        }
        p.action = Object.assign({}, p.action, { cards: cards },
          readings.length === 1 ? { as: readings[0] } : {});
      }
    }
  });

  function showReadings(cards, readings) {
    const picker = $("#reading-picker");
    if (!picker) return;
    picker.innerHTML = "<span>" + t("癩子當作：") + "</span>";
    readings.forEach((reading) => {
      const btn = document.createElement("button");
      btn.className = "btn btn-small";
      btn.textContent = reading === null ? t("原牌") + " " + cards : reading;
      const action = { type: "play", cards: cards };
      if (reading !== null) action.as = reading;
      btn.setAttribute("ws-send", "");
      btn.setAttribute("hx-vals", JSON.stringify({ kind: "move", action: action }));
      picker.appendChild(btn);
    });
    picker.hidden = false;
    if (window.htmx) htmx.process(picker);
  }

  document.addEventListener("htmx:wsAfterMessage", () => {
    const b = board();
    if (!b) return;
    const seq = parseInt(b.dataset.seq || "-1", 10);
    if (seq !== lastSeq) syncFromBoard();
    if (b.dataset.seat !== "") window._hadSeat = true;
    else if (window._hadSeat) { window.location.href = "/"; return; }
    const t = $("#toast");
    if (t && t.textContent.trim() && t.classList.contains("toast-error")) toast(t.textContent, true);
  });
  window.Leyou.watchConnection(t("牌桌不存在"));
  document.addEventListener("DOMContentLoaded", syncFromBoard);
})();
