// 斗地主's board: card selection (tap, or drag across the hand with a mouse or a finger), 提示
// cycling through the plays the server listed, and the 癩子 reading picker. The seq, the action
// ids, the clocks and 離開 are the table page's (leyou.js). No rules here: the server decides
// what is legal and says why when it is not.
(function () {
  "use strict";
  const { $, $$ } = window.Leyou;
  const t = window.t;
  let hintIndex = -1;
  let seenSeq = null;
  let dragging = false, dragMode = true, lastCard = null;

  function board() { return $("#board"); }
  function toast(text, isError) { window.Leyou.toast("#toast", text, isError); }
  function hints() { return JSON.parse((board() && board().dataset.hints) || "[]"); }

  function selectedRanks() {
    return $$("#my-hand .card.selected").map((c) => c.dataset.rank).join("");
  }

  function setSelected(card, on) { card.classList.toggle("selected", on); }

  // --- selection: tap a card, or drag across cards ------------------------------------------
  document.addEventListener("pointerdown", (e) => {
    const card = e.target.closest && e.target.closest("#my-hand .card.selectable");
    if (!card) return;
    dragging = true;
    lastCard = card;
    dragMode = !card.classList.contains("selected");
    setSelected(card, dragMode);
    e.preventDefault();
  });
  // a finger's pointer stays captured by the card it went down on, so the card under it is
  // found by position (a mouse gets the same)
  document.addEventListener("pointermove", (e) => {
    if (!dragging) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const card = under && under.closest && under.closest("#my-hand .card.selectable");
    if (card && card !== lastCard) { setSelected(card, dragMode); lastCard = card; }
  });
  const stop = () => { dragging = false; lastCard = null; };
  document.addEventListener("pointerup", stop);
  document.addEventListener("pointercancel", stop);
  document.addEventListener("keydown", (e) => {
    const card = e.target.closest && e.target.closest("#my-hand .card.selectable");
    if (card && (e.key === " " || e.key === "Enter")) {
      setSelected(card, !card.classList.contains("selected"));
      e.preventDefault();
    }
  });

  // --- 提示: cycle through the legal plays the server listed for this seat --------------------
  document.addEventListener("click", (e) => {
    if (!e.target.closest || !e.target.closest("[data-hint]")) return;
    const list = hints();
    if (!list.length) { toast(t("沒有能大過上家的牌"), false); return; }
    hintIndex = (hintIndex + 1) % list.length;
    const want = list[hintIndex].split("/")[0].split("");
    $$("#my-hand .card").forEach((c) => setSelected(c, false));
    $$("#my-hand .card").forEach((c) => {
      const i = want.indexOf(c.dataset.rank);
      if (i >= 0) { setSelected(c, true); want.splice(i, 1); }
    });
  });

  // --- 出牌: the selected cards, and with 癩子 the reading when there are several ---------------
  document.addEventListener("htmx:wsConfigSend", (e) => {
    const p = e.detail.parameters;
    if (p.kind !== "move" || !p.action || p.action.type !== "play" || p.action.cards) return;
    const cards = selectedRanks();
    if (!cards) { toast(t("請先選擇要出的牌"), true); e.preventDefault(); return; }
    // 癩子場: the same cards may be read several ways; let the player choose the reading
    const sorted = (x) => x.split("").sort().join("");
    const list = hints();
    const readings = list
      .filter((h) => h.includes("/") && sorted(h.split("/")[0]) === sorted(cards))
      .map((h) => h.split("/")[1]);
    const plain = list.some((h) => !h.includes("/") && sorted(h) === sorted(cards));
    if (readings.length + (plain ? 1 : 0) > 1) {
      e.preventDefault();
      showReadings(cards, plain ? [null].concat(readings) : readings);
      return;
    }
    p.action = Object.assign({}, p.action, { cards: cards },
      readings.length === 1 ? { as: readings[0] } : {});
  });

  function showReadings(cards, readings) {
    const picker = $("#reading-picker");
    if (!picker) return;
    picker.textContent = "";
    const label = document.createElement("span");
    label.textContent = t("癩子當作：");
    picker.appendChild(label);
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

  // a new board (another seq): the 提示 cycle starts again
  document.addEventListener("htmx:wsAfterMessage", () => {
    const b = board();
    if (b && b.dataset.seq !== seenSeq) { seenSeq = b.dataset.seq; hintIndex = -1; }
  });
})();
