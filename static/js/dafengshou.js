// 大豐收 page: chip choice, the countdown, the light running to the result, hash checks.
// No rules here: the server accepts or refuses every bet and says why.
(function () {
  "use strict";
  const { $, $$, newId } = window.Leyou;
  const RING = 24;
  let chip = parseInt(localStorage.getItem("wheelChip") || "0", 10);
  let socket = null;

  function board() { return $("#wheel-board"); }
  const now = () => window.Leyou.serverNow();
  function toast(text, isError) { window.Leyou.toast("#wheel-toast", text, isError); }

  function applyChip() {
    const picks = $$(".chip-pick");
    if (!picks.length) return;
    const values = picks.map((b) => parseInt(b.dataset.chip, 10));
    if (!values.includes(chip)) chip = values[0];
    picks.forEach((b) => {
      const on = parseInt(b.dataset.chip, 10) === chip;
      b.classList.toggle("active", on);
      b.setAttribute("aria-checked", on ? "true" : "false");
    });
  }

  function sync() {
    const b = board();
    if (!b) return;
    window.Leyou.clockSync(b.dataset.now);
    const beans = $("#nav-beans");
    if (beans) beans.textContent = b.dataset.balance;
    applyChip();
    frame();
  }

  // the light: several laps, slowing down, stopping on the result cell at 85 % of the spin
  function frame() {
    const b = board();
    if (!b) return;
    const cells = $$(".wr-cell", b);
    cells.forEach((c) => c.classList.remove("on"));
    const count = $("#wheel-count");
    if (b.dataset.phase === "betting") {
      // the round just settled stays lit (from the server's HTML) until its hold ends
      const hold = b.dataset.resultHold ? new Date(b.dataset.resultHold).getTime() : 0;
      if (now() >= hold) $$(".wr-cell.lit", b).forEach((c) => c.classList.remove("lit"));
    }
    if (b.dataset.phase === "betting" && count && count.dataset.deadline) {
      const left = Math.max(0, Math.ceil((new Date(count.dataset.deadline).getTime() - now()) / 1000));
      count.textContent = String(left);
      count.classList.toggle("urgent", left <= 5);
      return;
    }
    if (b.dataset.phase === "settled") { showResult(b, cells); return; }
    if (b.dataset.phase !== "spinning" || b.dataset.resultCell === "") return;
    const seconds = parseFloat(b.dataset.spinSeconds || "6");
    const ends = new Date(b.dataset.settle).getTime();
    const starts = ends - seconds * 1000;
    const t = Math.min(1, Math.max(0, (now() - starts) / (seconds * 850)));
    const target = parseInt(b.dataset.resultCell, 10);
    const steps = 3 * RING + target;
    const at = Math.round(steps * (1 - Math.pow(1 - t, 3))) % RING;
    const cell = cells.find((c) => parseInt(c.dataset.cell, 10) === at);
    if (cell) cell.classList.add("on");
    if (t >= 1) showResult(b, cells);
  }

  // once the light has stopped: the lit cells, the result, the crops that won, my payout
  function showResult(b, cells) {
    const lit = (b.dataset.lit || "").split(",").filter(Boolean);
    cells.forEach((c) => c.classList.toggle("lit", lit.includes(c.dataset.cell)));
    const text = $("#wheel-result-text");
    if (text && !text.textContent && b.dataset.resultName) text.textContent = t("開獎：") + b.dataset.resultName;
    const won = (b.dataset.winObjects || "").split(",").filter(Boolean);
    $$(".bet-obj", b).forEach((o) => o.classList.toggle("won", won.includes(o.dataset.object)));
    const mine = $("#wheel-my-round");
    if (mine) mine.hidden = false;
  }
  setInterval(frame, 50);

  document.addEventListener("click", (e) => {
    const pick = e.target.closest(".chip-pick");
    if (pick) {
      chip = parseInt(pick.dataset.chip, 10);
      localStorage.setItem("wheelChip", String(chip));
      applyChip();
      return;
    }
    const verify = e.target.closest(".verify-hash");
    if (verify) {
      if (!(window.crypto && crypto.subtle)) { toast(t("此瀏覽器無法計算 sha256，請用「重算」"), true); return; }
      crypto.subtle.digest("SHA-256", new TextEncoder().encode(verify.dataset.seed)).then((buf) => {
        const hex = Array.from(new Uint8Array(buf)).map((x) => x.toString(16).padStart(2, "0")).join("");
        const ok = hex === verify.dataset.hash;
        verify.textContent = ok ? t("雜湊相符 ✓") : t("雜湊不符 ✗");
        verify.classList.toggle("ok", ok);
      });
    }
  });

  document.addEventListener("htmx:wsConfigSend", (e) => {
    const p = e.detail.parameters;
    if (p.kind !== "bet") return;
    const b = board();
    if (!b || b.dataset.phase !== "betting") { toast(t("本局已停止押注"), true); e.preventDefault(); return; }
    p.amount = chip;
    p.round = parseInt(b.dataset.number, 10);
    p.action_id = newId();
  });
  document.addEventListener("htmx:wsAfterMessage", () => {
    sync();
    const t = $("#wheel-toast");
    if (t && t.textContent.trim() && t.classList.contains("toast-error")) toast(t.textContent, true);
  });
  window.Leyou.watchConnection(t("場次不存在或暫停開放"), (e) => {
    socket = e.detail && e.detail.socketWrapper;
  });
  // keep the room's rounds coming while this page is open
  setInterval(() => { if (socket) socket.send(JSON.stringify({ kind: "ping" })); }, 60000);
  document.addEventListener("DOMContentLoaded", sync);
})();
