// Sound and motion for the tables (issue #14 §6). Everything is made here: the sounds are
// synthesised with WebAudio, the effects are DOM + CSS (static/css/fx.css); nothing is fetched.
//
// What to play comes from the server: each board names its last move's effects
// (<div id="board" data-fx="bomb win" data-fx-key="12:57">, games/fx.py). A board is played
// once per new data-fx-key, never the board a page opens with, so a reconnect or a board pushed
// for another reason plays nothing again. The wheel (大豐收) plays its spin when its board turns
// to "spinning". The last seconds of the player's own clock tick and pulse.
//
// A mute switch in the top bar is remembered in localStorage (this browser). Under
// prefers-reduced-motion no animation runs (sounds still do, unless muted).
// window.__fx records every effect played: {name, sound, motion} (the browser tests read it).
(function () {
  "use strict";
  const t = (s) => (window.gettext ? window.gettext(s) : s);
  const STORE = "leyou.fx.muted";
  const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  window.__fx = window.__fx || [];

  let muted = false;
  try { muted = localStorage.getItem(STORE) === "1"; } catch (e) { muted = false; }
  const motionOn = () => !(reduced && reduced.matches);

  // --- audio -------------------------------------------------------------------------------
  let ac = null, master = null, noiseBuf = null;
  function audio() {
    if (!ac) {
      const C = window.AudioContext || window.webkitAudioContext;
      if (!C) return null;
      try { ac = new C(); } catch (e) { return null; }
      master = ac.createGain();
      master.gain.value = 0.55;
      master.connect(ac.destination);
    }
    if (ac.state === "suspended") ac.resume().catch(() => {});
    return ac;
  }
  // browsers start audio only after a gesture: make the context on the first one
  ["pointerdown", "keydown"].forEach((ev) =>
    document.addEventListener(ev, () => { if (!muted) audio(); }, { once: true, capture: true }));

  function env(g, at, peak, dur, attack) {
    g.gain.setValueAtTime(0.0001, at);
    g.gain.exponentialRampToValueAtTime(peak, at + (attack || 0.005));
    g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  }
  function tone(freq, dur, o) {
    o = o || {};
    const a = ac, at = a.currentTime + (o.at || 0);
    const osc = a.createOscillator(), g = a.createGain();
    osc.type = o.type || "sine";
    osc.frequency.setValueAtTime(freq, at);
    if (o.to) osc.frequency.exponentialRampToValueAtTime(o.to, at + dur);
    env(g, at, o.gain || 0.2, dur, o.attack);
    osc.connect(g).connect(master);
    osc.start(at);
    osc.stop(at + dur + 0.05);
  }
  function noise(dur, o) {
    o = o || {};
    const a = ac, at = a.currentTime + (o.at || 0);
    if (!noiseBuf) {
      noiseBuf = a.createBuffer(1, a.sampleRate, a.sampleRate);
      const d = noiseBuf.getChannelData(0);
      for (let i = 0; i < d.length; i++) d[i] = Math.random() * 2 - 1;
    }
    const src = a.createBufferSource(), f = a.createBiquadFilter(), g = a.createGain();
    src.buffer = noiseBuf;
    src.loop = true;
    f.type = o.filter || "bandpass";
    f.frequency.setValueAtTime(o.freq || 2000, at);
    if (o.to) f.frequency.exponentialRampToValueAtTime(o.to, at + dur);
    f.Q.value = o.q || 1;
    env(g, at, o.gain || 0.3, dur, o.attack);
    src.connect(f).connect(g).connect(master);
    src.start(at);
    src.stop(at + dur + 0.05);
  }
  const knock = (at) => { noise(0.08, { at, freq: 650, q: 5, gain: 0.6 }); tone(170, 0.09, { at, gain: 0.25 }); };
  const clack = (at) => { noise(0.05, { at, freq: 2600, q: 2, gain: 0.45 }); tone(1250, 0.03, { at, type: "square", gain: 0.05 }); };
  const arp = (notes, step, o) => notes.forEach((f, i) => tone(f, (o && o.len) || 0.3, { at: ((o && o.at) || 0) + i * step, type: (o && o.type) || "triangle", gain: (o && o.gain) || 0.16 }));
  const gong = (at) => [147, 296, 443, 598, 887].forEach((f, i) => tone(f, 1.8 - i * 0.2, { at, gain: 0.22 / (i + 1), attack: 0.01 }));
  const boom = (at) => { noise(1.0, { at, filter: "lowpass", freq: 500, to: 50, gain: 0.95, q: 0.7 }); tone(95, 0.9, { at, to: 30, gain: 0.8 }); };

  const SOUNDS = {
    deal: () => { for (let i = 0; i < 8; i++) noise(0.04, { at: i * 0.06, filter: "highpass", freq: 3000, gain: 0.22 }); },
    play: () => { noise(0.06, { freq: 1800, q: 0.8, gain: 0.5 }); tone(220, 0.05, { type: "triangle", gain: 0.15 }); },
    pass: () => tone(330, 0.16, { to: 220, gain: 0.12 }),
    call: () => { tone(660, 0.08, { gain: 0.12 }); tone(880, 0.12, { at: 0.08, gain: 0.12 }); },
    bomb: () => boom(0),
    rocket: () => { noise(0.6, { freq: 400, to: 5000, q: 1.5, gain: 0.35 }); tone(200, 0.6, { to: 1800, type: "sawtooth", gain: 0.06 }); boom(0.6); },
    airplane: () => { tone(110, 1.4, { to: 170, type: "sawtooth", gain: 0.07, attack: 0.3 }); noise(1.4, { filter: "lowpass", freq: 700, gain: 0.18, attack: 0.3 }); },
    spring: () => { arp([523, 659, 784, 1047, 1319, 1568], 0.09, { gain: 0.14 }); arp([2093, 2637], 0.12, { at: 0.6, type: "sine", gain: 0.06, len: 0.6 }); },
    hu: () => { gong(0); tone(1175, 0.8, { at: 0.25, gain: 0.08 }); },
    zimo: () => { gong(0); arp([784, 988, 1175, 1568], 0.08, { at: 0.3, gain: 0.12 }); },
    gang: () => { knock(0); knock(0.14); },
    claim: () => knock(0),
    discard: () => clack(0),
    chips: () => { for (let i = 0; i < 4; i++) tone(3000 + Math.random() * 1200, 0.06, { at: i * 0.05, gain: 0.1 }); noise(0.03, { filter: "highpass", freq: 5000, gain: 0.12 }); },
    compare: () => { clack(0); clack(0.12); tone(440, 0.2, { at: 0.24, gain: 0.1 }); },
    fold: () => noise(0.25, { filter: "lowpass", freq: 1200, to: 300, gain: 0.12 }),
    look: () => { noise(0.04, { freq: 3200, gain: 0.25 }); noise(0.04, { at: 0.07, freq: 3200, gain: 0.25 }); },
    win: () => { arp([523, 659, 784], 0.12, { type: "square", gain: 0.07 }); tone(1047, 0.6, { at: 0.36, type: "square", gain: 0.08 }); },
    lose: () => arp([392, 349, 311, 262], 0.18, { gain: 0.12, len: 0.4 }),
    draw: () => arp([440, 440], 0.2, { type: "triangle", gain: 0.1, len: 0.3 }),
    tick: () => tone(1000, 0.05, { type: "square", gain: 0.06 }),
    spin: (seconds) => {
      // the light's laps: ticks that slow down, stopping at 85 % of the spin (as wheel.js does)
      const total = Math.max(1, (seconds || 6) * 0.85);
      let at = 0, gap = 0.04;
      while (at < total) { tone(1800, 0.02, { at, type: "square", gain: 0.05 }); at += gap; gap *= 1.07; }
      tone(660, 0.4, { at: total, type: "triangle", gain: 0.15 });
    },
  };

  // --- motion ------------------------------------------------------------------------------
  let layer = null;
  function overlay() {
    if (!layer || !layer.isConnected) {
      layer = document.createElement("div");
      layer.className = "fx-layer";
      layer.setAttribute("aria-hidden", "true");
      document.body.appendChild(layer);
    }
    return layer;
  }
  function spawn(cls, html, ms) {
    const el = document.createElement("div");
    el.className = "fx-anim " + cls;
    el.innerHTML = html || "";
    overlay().appendChild(el);
    setTimeout(() => el.remove(), ms || 1600);
    return el;
  }
  // a hand's closing banner (胡, 自摸, 春天, 勝利) plays before the settlement shows: while it
  // is on, the settlement panel waits transparent (fx.css), so the banner never covers its lines
  let bannerTimer = null;
  function banner(cls, html, ms) {
    const root = document.documentElement;
    root.classList.add("fx-banner-on");
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(() => root.classList.remove("fx-banner-on"), Math.max(0, ms - 200));
    return spawn(cls, html, ms);
  }
  const PLANE = '<svg viewBox="0 0 64 32" width="96" height="48"><path d="M2 18 L40 14 L52 2 L58 2 L50 14 L62 16 L62 18 L50 20 L58 30 L52 30 L40 20 L2 18 Z" fill="#eceff1" stroke="#37474f" stroke-width="1.5"/></svg>';
  const ROCKET = '<svg viewBox="0 0 32 64" width="44" height="88"><path d="M16 2 C26 12 26 34 22 46 L10 46 C6 34 6 12 16 2 Z" fill="#e53935" stroke="#fff" stroke-width="1.5"/><circle cx="16" cy="22" r="4" fill="#bbdefb"/><path d="M10 46 L4 58 L12 52 Z M22 46 L28 58 L20 52 Z" fill="#ffb300"/><path d="M12 48 L16 63 L20 48 Z" fill="#ff7043"/></svg>';
  const MOTION = {
    bomb: () => { shake(); spawn("fx-burst", "<b>" + t("炸彈") + "</b>", 1300); },
    rocket: () => { spawn("fx-rocket", ROCKET, 1200); setTimeout(() => { shake(); spawn("fx-burst fx-burst-gold", "<b>" + t("王炸") + "</b>", 1300); }, 600); },
    airplane: () => spawn("fx-plane", PLANE + "<b>" + t("飛機") + "</b>", 1700),
    spring: () => {
      banner("fx-banner fx-spring", "<b>" + t("春天") + "</b>", 2200);
      for (let i = 0; i < 14; i++) {
        const p = spawn("fx-petal", "", 2400);
        p.style.left = (5 + Math.random() * 90) + "%";
        p.style.animationDelay = (Math.random() * 0.8) + "s";
      }
    },
    hu: () => banner("fx-banner fx-hu", "<b>" + t("胡") + "</b>", 2000),
    zimo: () => banner("fx-banner fx-hu", "<b>" + t("自摸") + "</b>", 2000),
    gang: () => spawn("fx-banner fx-gang", "<b>" + t("槓") + "</b>", 1100),
    win: () => banner("fx-banner fx-win", "<b>" + t("勝利") + "</b>", 1800),
  };
  function shake() {
    const b = document.getElementById("board");
    if (!b) return;
    b.classList.remove("fx-shake");
    void b.offsetWidth;
    b.classList.add("fx-shake");
    setTimeout(() => b.classList.remove("fx-shake"), 700);
  }

  // what was where on the previous board: the containers whose pieces travel in when they change
  const TRAVEL = [".played", ".mj-river", ".mj-melds", ".phz-offer", ".phz-pile", ".phz-melds",
    ".dipai", ".zseat .cards", ".mj-hand", ".phz-hand"];
  function containers(board) {
    const out = new Map();
    TRAVEL.forEach((sel) => board.querySelectorAll(sel).forEach((el, i) => {
      const seat = el.closest("[data-seat]");
      out.set(sel + "@" + (seat ? seat.dataset.seat : "") + "#" + i, el);
    }));
    return out;
  }
  function signature(el) {
    return Array.from(el.querySelectorAll("svg")).map((s) =>
      s.dataset.rank || s.dataset.tile || s.dataset.card || "b").join(",");
  }
  let before = new Map();  // key → signature, of the board before the last swap
  function remember(board) {
    before = new Map();
    containers(board).forEach((el, key) => before.set(key, signature(el)));
  }
  function travel(board) {
    let moved = 0;
    containers(board).forEach((el, key) => {
      const old = before.get(key);
      const now = signature(el);
      if (old === undefined || old === now || !now) return;
      const pieces = Array.from(el.querySelectorAll("svg")).filter((s) => !s.parentElement.closest("svg"));
      const fresh = old === "" || key.startsWith(".played") || key.startsWith(".dipai") ? pieces : pieces.slice(-1);
      const seatBox = el.closest("[data-seat]");
      fresh.forEach((svg, i) => {
        if (!svg.animate) return;
        const r = svg.getBoundingClientRect();
        let dx = 0, dy = 60;
        if (seatBox) {
          const s = seatBox.getBoundingClientRect();
          dx = s.left + s.width / 2 - (r.left + r.width / 2);
          dy = s.top + s.height / 2 - (r.top + r.height / 2);
          if (Math.abs(dx) + Math.abs(dy) < 30) { dx = 0; dy = 60; }
        }
        svg.classList.add("fx-travel");
        svg.animate([
          { transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.3 },
          { transform: "translate(0, 0) scale(1)", opacity: 1 },
        ], { duration: 320, delay: i * 25, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" })
          .finished.then(() => svg.classList.remove("fx-travel")).catch(() => {});
        moved++;
      });
    });
    return moved;
  }
  function chipsToPot(board) {
    const pot = board.querySelector("#zjh-pot, .pot");
    if (!pot) return;
    const p = pot.getBoundingClientRect();
    board.querySelectorAll(".stake[data-stake]").forEach((st) => {
      const seat = st.closest("[data-seat]");
      const key = "stake@" + (seat ? seat.dataset.seat : "");
      const old = before.get(key);
      if (old === undefined || old === st.dataset.stake) return;
      const s = st.getBoundingClientRect();
      for (let i = 0; i < 4; i++) {
        const c = spawn("fx-chip", "", 900);
        c.style.left = s.left + s.width / 2 + "px";
        c.style.top = s.top + s.height / 2 + "px";
        if (c.animate) {
          c.animate([{ transform: "translate(0,0)" },
            { transform: `translate(${p.left + p.width / 2 - s.left - s.width / 2 + (i - 2) * 6}px, ${p.top + p.height / 2 - s.top - s.height / 2}px)` }],
          { duration: 520, delay: i * 60, easing: "ease-in", fill: "both" });
        }
      }
    });
    pot.classList.add("fx-pot-pulse");
    setTimeout(() => pot.classList.remove("fx-pot-pulse"), 800);
  }
  function rememberStakes(board) {
    board.querySelectorAll(".stake[data-stake]").forEach((st) => {
      const seat = st.closest("[data-seat]");
      before.set("stake@" + (seat ? seat.dataset.seat : ""), st.dataset.stake);
    });
  }

  // --- playing -----------------------------------------------------------------------------
  function play(name, arg) {
    const sound = !muted && !!audio() && !!SOUNDS[name];
    if (sound) { try { SOUNDS[name](arg); } catch (e) { /* a sound never breaks the table */ } }
    const motion = motionOn();
    if (motion && MOTION[name]) { try { MOTION[name](); } catch (e) { /* nor a picture */ } }
    window.__fx.push({ name, sound, motion });
    document.dispatchEvent(new CustomEvent("leyou:fx", { detail: { name, sound, motion } }));
  }

  let lastKey = null;
  function onBoard(board) {
    const key = board.dataset.fxKey || "";
    const names = (board.dataset.fx || "").split(/\s+/).filter(Boolean);
    const first = lastKey === null;
    const fresh = !first && key && key !== lastKey;
    lastKey = key;
    if (fresh) {
      if (motionOn()) { travel(board); if (names.includes("chips")) chipsToPot(board); }
      names.forEach((n) => play(n));
      if (motionOn() && !names.length) travel(board);
    }
    remember(board);
    rememberStakes(board);
  }

  let wheelKey = null;
  function onWheel(board) {
    const key = board.dataset.number + ":" + board.dataset.phase;
    const first = wheelKey === null;
    if (!first && key !== wheelKey && board.dataset.phase === "spinning") {
      play("spin", parseFloat(board.dataset.spinSeconds || "6"));
    }
    wheelKey = key;
  }
  document.addEventListener("click", (e) => {
    if (e.target.closest("#wheel-board .bet-obj:not([disabled])")) play("chips");
  });

  function scan(node) {
    if (!(node instanceof Element)) return;
    const board = node.id === "board" ? node : node.querySelector("#board");
    if (board) onBoard(board);
    const wheel = node.id === "wheel-board" ? node : node.querySelector("#wheel-board");
    if (wheel) onWheel(wheel);
  }

  // the countdown: the viewer's own clock turns urgent in its last seconds, and ticks
  let lastTick = "";
  setInterval(() => {
    const board = document.getElementById("board");
    if (!board) return;
    const mine = board.dataset.seat;
    document.querySelectorAll("#board .clock[data-deadline]").forEach((el) => {
      const b = el.querySelector("b");
      const left = b ? parseInt(b.textContent, 10) : NaN;
      const urgent = !isNaN(left) && left <= 5 && left > 0;
      // only a seat's clock, and only the viewer's own (not an opponent's, not the next hand's)
      const seat = el.closest("[data-seat]:not(#board)");
      const own = urgent && mine !== "" && !!seat && seat.dataset.seat === mine;
      el.classList.toggle("fx-urgent", own && motionOn());
      el.classList.toggle("fx-own-urgent", own);
      if (own) {
        const k = el.dataset.deadline + ":" + left;
        if (k !== lastTick) { lastTick = k; play("tick"); }
      }
    });
  }, 250);

  // --- the mute switch (top bar) -----------------------------------------------------------
  function renderSwitch(btn) {
    btn.setAttribute("aria-pressed", muted ? "true" : "false");
    btn.title = muted ? t("音效已關閉，點一下開啟") : t("音效已開啟，點一下靜音");
    btn.innerHTML = '<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="M3 7h3l4-4v14l-4-4H3z" fill="currentColor"/>' +
      (muted ? '<path d="M13 7l5 6M18 7l-5 6" stroke="currentColor" stroke-width="1.8"/>'
        : '<path d="M13 6c2 2 2 6 0 8M15.5 4c3.3 3.3 3.3 8.7 0 12" stroke="currentColor" stroke-width="1.6" fill="none"/>') +
      '</svg> <span>' + (muted ? t("靜音") : t("音效")) + "</span>";
  }
  function setMuted(on) {
    muted = !!on;
    try { localStorage.setItem(STORE, muted ? "1" : "0"); } catch (e) { /* private mode */ }
    const btn = document.getElementById("fx-mute");
    if (btn) renderSwitch(btn);
    if (!muted) audio();
  }
  function mountSwitch() {
    const nav = document.querySelector(".topnav");
    if (!nav || document.getElementById("fx-mute")) return;
    const btn = document.createElement("button");
    btn.type = "button";
    btn.id = "fx-mute";
    btn.className = "linkish fx-mute";
    renderSwitch(btn);
    btn.addEventListener("click", () => setMuted(!muted));
    const spacer = nav.querySelector(".spacer");
    if (spacer && spacer.nextSibling) nav.insertBefore(btn, spacer.nextSibling);
    else nav.appendChild(btn);
  }

  window.LeyouFx = { play, setMuted, muted: () => muted };

  function start() {
    mountSwitch();
    scan(document.body);
    new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(scan)))
      .observe(document.body, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
