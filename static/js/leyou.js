// Shared by the table and wheel pages: DOM shorthands, client action ids and the toast.
(function () {
  "use strict";
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
  };
})();
