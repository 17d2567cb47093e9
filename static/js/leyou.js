// Shared by the table and wheel pages: DOM shorthands, client action ids and the toast.
(function () {
  "use strict";
  // a UI string in the page's language (Django's JavaScript catalog, once it is loaded)
  if (!window.t) window.t = (s) => (window.gettext ? window.gettext(s) : s);
  window.Leyou = {
    $: (sel, root) => (root || document).querySelector(sel),
    $$: (sel, root) => Array.from((root || document).querySelectorAll(sel)),
    // a client-made action id: the server refuses a second action with the same id
    newId() {
      if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
      return Date.now().toString(36) + Math.random().toString(36).slice(2);
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
        c.textContent = code === 1008 ? "訊息太頻繁，連線已中斷，請重新整理" :
          code === 4401 ? "請先登入" : code === 4404 ? unknownText :
          code === 4403 ? window.t("這桌有玩家不允許觀戰") : "重新連線中…";
      });
    },
  };
})();
