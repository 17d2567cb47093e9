// Shared by every page: DOM shorthands, client action ids, the toast, the server clock, the
// top bar's bean balance; and on a table page (#table-root) the bookkeeping every game's board
// needs: stamping moves with the seq and a fresh id, the 離開 confirmation, the turn clocks,
// the way back to the lobby. Each game's own gestures are in its file (doudizhu.js, paohuzi.js).
// No game rules here: the server decides what is legal and says why when it is not.
(function () {
  "use strict";
  // the UI text in the page's language: Django's JavaScript catalog (/jsi18n/, in _base.html)
  // defines gettext; the source text (繁體中文) is shown when it is missing
  if (!window.t) window.t = (s) => (window.gettext ? window.gettext(s) : s);
  const t = window.t;
  let clockOffset = 0; // server time − browser time, in ms (the one place it is kept)

  const Leyou = {
    $: (sel, root) => (root || document).querySelector(sel),
    $$: (sel, root) => Array.from((root || document).querySelectorAll(sel)),
    // a client-made action id: the server refuses a second action with the same id
    newId() {
      if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
      return Date.now().toString(36) + Math.random().toString(36).slice(2);
    },
    // the server's time as an ISO string pushed with a board (data-now): learn the offset
    clockSync(iso) {
      if (iso) clockOffset = new Date(iso).getTime() - Date.now();
    },
    // now, on the server's clock (ms)
    serverNow() { return Date.now() + clockOffset; },
    // seconds left until an ISO deadline, on the server's clock (never negative)
    secondsLeft(iso) {
      return Math.max(0, Math.ceil((new Date(iso).getTime() - Leyou.serverNow()) / 1000));
    },
    // a short message in the page's toast element (red when it is an error)
    toast(selector, text, isError) {
      const el = document.querySelector(selector);
      if (!el) return;
      el.textContent = text;
      el.className = "toast show" + (isError ? " toast-error" : "");
      clearTimeout(el._t);
      el._t = setTimeout(() => { el.className = "toast"; }, 2600);
    },
    // the #conn mark: set while the socket is open, the reason once it closed
    watchConnection(unknownText, onOpen) {
      document.addEventListener("htmx:wsOpen", (e) => {
        const c = document.querySelector("#conn");
        if (c) c.className = "conn ok";
        if (onOpen) onOpen(e);
      });
      document.addEventListener("htmx:wsClose", (e) => {
        const c = document.querySelector("#conn");
        const code = e.detail && e.detail.event ? e.detail.event.code : 0;
        if (!c) return;
        c.className = "conn down";
        c.textContent = code === 1008 ? t("訊息太頻繁，連線已中斷，請重新整理") :
          code === 4401 ? t("請先登入") : code === 4404 ? unknownText :
          code === 4403 ? t("這桌有玩家不允許觀戰") : t("重新連線中…");
      });
    },
  };
  window.Leyou = Leyou;

  // the top bar's balance: a push may carry it (#nav-beans swapped out of band); a page may
  // also set it (the wheel's board carries the player's balance)
  Leyou.beansShow = (value) => {
    const el = document.getElementById("nav-beans");
    if (el && value !== undefined && value !== null && value !== "") el.textContent = String(value);
  };

  // --- the table page ----------------------------------------------------------------------
  function tablePage() {
    const { $, $$, newId } = Leyou;
    let lastSeq = -1;
    let hadSeat = false;
    let navigatingAway = false;
    const board = () => $("#board");
    const toast = (text, isError) => Leyou.toast("#toast", text, isError);
    Leyou.table = { board: board, toast: toast, seq: () => lastSeq, hooks: [] };

    function tickClocks() {
      $$(".clock[data-deadline]").forEach((el) => {
        const left = Leyou.secondsLeft(el.dataset.deadline);
        const b = el.querySelector("b");
        if (b) b.textContent = String(left);
        el.classList.toggle("urgent", left <= 5);
      });
    }
    setInterval(tickClocks, 250);

    function sync() {
      const b = board();
      if (!b) return;
      lastSeq = parseInt(b.dataset.seq || "-1", 10);
      Leyou.clockSync(b.dataset.now);
      Leyou.table.hooks.forEach((f) => f(b));
      tickClocks();
    }

    // every move is stamped with the seq it was made against and a fresh id; 離開 mid-hand
    // asks first (the board's button says what it costs)
    document.addEventListener("htmx:wsConfigSend", (e) => {
      const p = e.detail.parameters;
      const leave = e.target.closest && e.target.closest("[data-leave]");
      if (leave && leave.dataset.confirmText && !window.confirm(leave.dataset.confirmText)) {
        e.preventDefault();
        return;
      }
      if (leave) {
        // the lobby then says what leaving cost (#14 §5)
        sessionStorage.setItem("leyou-left", $("#table-root").dataset.table);
      }
      if (p.kind === "move") {
        p.seq = lastSeq;
        p.action_id = newId();
      }
    });

    document.addEventListener("htmx:wsAfterMessage", () => {
      const b = board();
      if (!b) return;
      const seq = parseInt(b.dataset.seq || "-1", 10);
      if (seq !== lastSeq) sync();
      if (navigatingAway) return;
      if (b.dataset.seat !== "") hadSeat = true;
      else if (hadSeat) {
        // once: a second frame before the lobby has loaded (a bot's move, the balance push)
        // must not send the page to "/" without the word on what leaving cost
        navigatingAway = true;
        const left = sessionStorage.getItem("leyou-left");
        sessionStorage.removeItem("leyou-left");
        window.location.href = left ? "/?left=" + encodeURIComponent(left) : "/";
        return;
      }
      const toastEl = $("#toast");
      if (toastEl && toastEl.textContent.trim() && toastEl.classList.contains("toast-error")) {
        toast(toastEl.textContent, true);
      }
    });
    // 換桌: the old table's push (no seat here any more) must not send the page to the lobby
    // before the answer names the new table
    document.addEventListener("htmx:beforeRequest", (e) => {
      if (e.target.closest && e.target.closest("[data-switch]")) navigatingAway = true;
    });
    // a note that stays until read (what 托管 did while the player was away)
    document.addEventListener("click", (e) => {
      const close = e.target.closest && e.target.closest("[data-dismiss]");
      if (close) close.parentElement.remove();
    });
    Leyou.watchConnection(t("牌桌不存在"));
    sync();
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (document.getElementById("table-root")) tablePage();
  });
})();
