// The deal re-done in the player's own browser (自己驗證): from the seed revealed after the
// hand, this file alone re-derives every seat's hand, the 底牌 / 亮張 / 墩 / wall, or 大豐收's
// spin, and compares them with what the table dealt. Nothing is fetched: SHA-256 is computed
// here (a plain implementation of FIPS 180-4, so it also works where crypto.subtle is absent,
// e.g. on plain http). The algorithm is games/engine/chance.py's, written out again in
// scripts/verify_deal.py; a test deals 1,000 seeds of every game here and on the server.
(function () {
  "use strict";

  // -- SHA-256 --------------------------------------------------------------------------------
  const K = new Int32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const encoder = new TextEncoder();
  const W = new Int32Array(64);
  const H = new Int32Array(8);

  // one 64-byte block at byte offset `off` of `view` into the state H
  function compress(view, off) {
    for (let i = 0; i < 16; i++) W[i] = view.getInt32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15];
      const y = W[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
    }
    let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }

  // SHA-256 of bytes (FIPS 180-4); the state is left in H
  function digestInto(data) {
    const bitLength = data.length * 8;
    const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
    padded.set(data);
    padded[data.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
    view.setUint32(padded.length - 4, bitLength >>> 0);
    H.set(H0);
    for (let off = 0; off < padded.length; off += 64) compress(view, off);
  }
  const H0 = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
    0x1f83d9ab, 0x5be0cd19]);

  // SHA-256 of a text's UTF-8 bytes, as 32 bytes
  function sha256(text) {
    digestInto(encoder.encode(text));
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) outView.setInt32(4 * i, H[i]);
    return out;
  }

  function hex(bytes) {
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- the stream -----------------------------------------------------------------------------
  // A 64-bit word is kept as its two 32-bit halves (hi, lo): w = hi·2³² + lo. For n below 2²⁶
  // every product below stays under 2⁵³, so plain numbers are exact; larger n use BigInt.
  const TWO32 = 0x100000000;

  class Chance {
    constructor(seed, label) {
      this.seed = String(seed);
      this.label = label;
      this.block = 0;
      this.halves = new Uint32Array(8);
      this.next = 4;
      this.prefix = encoder.encode(`${this.seed}:${label}:`); // the block number follows
    }
    // the next word's index into this.halves (2 per word), hashing a new block when needed
    word() {
      if (this.next === 4) {
        const digits = String(this.block);
        const data = new Uint8Array(this.prefix.length + digits.length);
        data.set(this.prefix);
        for (let i = 0; i < digits.length; i++) data[this.prefix.length + i] = digits.charCodeAt(i);
        digestInto(data); // sha256("seed:label:block")
        this.block += 1;
        for (let i = 0; i < 8; i++) this.halves[i] = H[i];
        this.next = 0;
      }
      return 2 * this.next++;
    }
    below(n) {
      if (n >= 0x4000000) return this.belowBig(n);
      const m32 = TWO32 % n;
      const r = (m32 * m32) % n; // 2⁶⁴ mod n: the words at and above 2⁶⁴ − r are rejected
      for (;;) {
        const i = this.word();
        const hi = this.halves[i];
        const lo = this.halves[i + 1];
        if (r === 0 || hi < 0xffffffff || lo < TWO32 - r) return ((hi % n) * m32 + lo) % n;
      }
    }
    belowBig(n) {
      const word = 1n << 64n;
      const big = BigInt(n);
      const limit = word - (word % big);
      for (;;) {
        const i = this.word();
        const w = (BigInt(this.halves[i]) << 32n) | BigInt(this.halves[i + 1]);
        if (w < limit) return Number(w % big);
      }
    }
    shuffled(items) {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = this.below(i + 1);
        const x = out[i];
        out[i] = out[j];
        out[j] = x;
      }
      return out;
    }
  }

  const repeat = (kinds, n) => kinds.flatMap((k) => Array(n).fill(k));
  const RANKS = "3456789TJQKA2BR";

  // -- each game's deal (the same as scripts/verify_deal.py) ----------------------------------
  function doudizhu(inp) {
    const deck = new Chance(inp.seed, "deal").shuffled(repeat(RANKS.slice(0, 13).split(""), 4).concat(["B", "R"]));
    const ordered = (cards) => cards.sort((x, y) => RANKS.indexOf(x) - RANKS.indexOf(y)).join("");
    const hands = [0, 1, 2].map((s) => ordered(deck.slice(0, 51).filter((_c, i) => i % 3 === s)));
    return { hands, dipai: ordered(deck.slice(51)) };
  }

  function zhajinhua(inp) {
    const cards = RANKS.slice(0, 13).split("").flatMap((r) => "shdc".split("").map((s) => r + s));
    const deck = new Chance(inp.seed, "deal").shuffled(cards);
    const hands = [];
    for (let s = 0; s < Number(inp.seats); s++) hands.push(deck.slice(3 * s, 3 * s + 3));
    return { hands };
  }

  const zipai = (c) => (c === 20 ? "W" : (c >= 10 ? "d" : "x") + ((c % 10) + 1));

  function paohuzi(inp) {
    const kinds = Array.from({ length: 20 }, (_v, k) => k);
    const cards = new Chance(inp.seed, "deal").shuffled(repeat(kinds, 4).concat(Array(Number(inp.wangs)).fill(20)));
    const dealer = Number(inp.dealer);
    const hands = [[], [], []];
    for (let i = 0; i < 3; i++) hands[(dealer + i) % 3] = cards.slice(20 * i, 20 * i + 20);
    hands[dealer].push(cards[60]);
    return {
      hands: hands.map((h) => h.sort((x, y) => x - y).map(zipai)),
      liang: zipai(cards[60]),
      wall: cards.slice(61).map(zipai),
    };
  }

  const KINDS = ["W", "T", "B"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => s + n))
    .concat(["F1", "F2", "F3", "F4", "J1", "J2", "J3"]);
  const HONOURS = ["F1", "F2", "F3", "F4", "J1", "J2", "J3"];

  function nextKind(tile) {
    if ("WTB".includes(tile[0])) return tile[0] + ((Number(tile.slice(1)) % 9) + 1);
    return HONOURS[(HONOURS.indexOf(tile) + 1) % 7];
  }

  function mahjong(inp) {
    const game = inp.game;
    const dealer = Number(inp.dealer);
    let tiles = repeat(KINDS, 4);
    if (game === "mahjong_huanle") tiles = tiles.concat([1, 2, 3, 4, 5, 6, 7, 8].map((n) => "H" + n));
    let wall = new Chance(inp.seed, "deal").shuffled(tiles);
    const out = {};
    let size = 13;
    let reserve = 0;
    if (game === "mahjong_yueqing") {
      size = 16;
      reserve = 16;
      const dice = new Chance(inp.seed, "dice");
      const first = [dice.below(6) + 1, dice.below(6) + 1];
      const thrower = (dealer + first[0] + first[1] - 1) % 4;
      const second = [dice.below(6) + 1, dice.below(6) + 1];
      const stacks = Math.floor(wall.length / 2);
      const start = ((((dealer - thrower) % 4 + 4) % 4) * Math.floor(stacks / 4) + first[0] + first[1] + second[0] + second[1]) % stacks;
      wall = wall.slice(2 * start).concat(wall.slice(0, 2 * start));
      out.dice = { first, thrower, second, open: start };
    }
    const hands = [[], [], [], []];
    for (let i = 0; i < 4; i++) hands[(dealer + i) % 4] = wall.splice(0, size);
    hands[dealer].push(wall.shift());
    const drawn = hands[dealer][hands[dealer].length - 1];
    let flowerKinds = null;
    if (game === "mahjong_huanle") {
      let indicator;
      do { indicator = wall.shift(); } while (indicator[0] === "H");
      out.indicator = indicator;
    } else if (game === "mahjong_yueqing") {
      const indicator = wall.pop();
      out.indicator = indicator;
      flowerKinds = [indicator, [indicator, nextKind(indicator)].includes("J3") ? "J1" : "J3"];
    }
    const isFlower = (t) => (flowerKinds ? flowerKinds.includes(t) : t[0] === "H");
    const flowers = [[], [], [], []];
    let over = false;
    let changed = true;
    while (changed && !over) {
      changed = false;
      for (let i = 0; i < 4; i++) {
        const s = (dealer + i) % 4;
        while (!over) {
          const found = hands[s].filter(isFlower);
          if (!found.length) break;
          changed = true;
          for (const t of found) {
            hands[s].splice(hands[s].indexOf(t), 1);
            flowers[s].push(t);
            if (wall.length <= reserve) { over = true; break; }
            hands[s].push(wall.pop());
          }
        }
      }
    }
    if (!over && hands[dealer].includes(drawn)) {
      hands[dealer].splice(hands[dealer].indexOf(drawn), 1);
      hands[dealer].push(drawn);
    }
    return Object.assign({ hands, flowers, wall }, out);
  }

  const LUCK = [7, 19];
  const SPECIALS = ["dasanyuan", "xiaosanyuan", "dasixi", "kaihuoche", "miss"];
  const SPECIAL_CELLS = { dasanyuan: [14, 22, 18], xiaosanyuan: [0, 5, 10], dasixi: [1, 4, 8, 15], miss: [] };

  function pick(chance, weights) {
    let total = 0;
    const cumulative = weights.map((w) => (total += Number(w)));
    const r = chance.below(total);
    return cumulative.findIndex((c) => c > r);
  }

  function dafengshou(inp) {
    const chance = new Chance(inp.seed, "spin");
    const cell = pick(chance, inp.cell_weights);
    let special = null;
    let train = 0;
    let lit = [cell];
    if (LUCK.includes(cell)) {
      special = SPECIALS[pick(chance, inp.special_weights)];
      if (special === "kaihuoche") {
        const low = Number(inp.train_min);
        train = low + chance.below(Number(inp.train_max) - low + 1);
        lit = [];
        let c = cell;
        while (lit.length < train) {
          c = (c + 1) % 24;
          if (!LUCK.includes(c)) lit.push(c);
        }
      } else {
        lit = SPECIAL_CELLS[special].slice();
      }
    }
    return { cell, special, train, lit };
  }

  const DEALS = {
    doudizhu, zhajinhua, paohuzi, dafengshou,
    mahjong_huanle: mahjong, mahjong_yongzhou: mahjong, mahjong_yueqing: mahjong,
  };

  function deal(inp) {
    const fn = DEALS[inp.game];
    if (!fn) throw new Error("unknown game " + inp.game);
    return fn(inp);
  }

  // a canonical text of a record, to compare with the server's (keys sorted, as Python's json)
  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
    }
    return JSON.stringify(value === undefined ? null : value);
  }

  window.LeyouDeal = { sha256Hex: (text) => hex(sha256(text)), Chance, deal, canonical };

  // -- the page's check -----------------------------------------------------------------------
  function run() {
    const data = document.getElementById("deal-check");
    const box = document.getElementById("deal-browser");
    if (!data || !box) return;
    const t = window.t || window.gettext || ((s) => s);
    const check = JSON.parse(data.textContent);
    const mark = (el, ok, yes, no) => {
      el.classList.remove("ok", "bad");
      el.classList.add(ok ? "ok" : "bad");
      el.textContent = (ok ? "✓ " : "✗ ") + (ok ? yes : no);
    };
    let record;
    try {
      record = deal(check.input);
    } catch (error) {
      box.dataset.ok = "0";
      box.querySelector(".deal-result").textContent = t("瀏覽器無法重新發牌") + ": " + error.message;
      return;
    }
    const hashOk = hex(sha256(check.input.seed)) === check.hash;
    const dealOk = canonical(record) === canonical(check.record);
    mark(box.querySelector(".deal-hash"), hashOk, t("瀏覽器算出的 sha256(種子) 與發牌時公布的雜湊相符"), t("瀏覽器算出的 sha256(種子) 與雜湊不符"));
    mark(box.querySelector(".deal-result"), dealOk, t("瀏覽器用種子重新計算，結果與這一局相同"), t("瀏覽器重新計算的結果與這一局不同"));
    const list = box.querySelector(".deal-hands");
    const names = check.names || [];
    const rows = [];
    if (record.hands) {
      record.hands.forEach((hand, i) => {
        const cards = Array.isArray(hand) ? hand.join(" ") : hand.split("").join(" ");
        rows.push([names[i] || String(i + 1), cards]);
      });
      if (record.dipai) rows.push([t("底牌"), record.dipai.split("").join(" ")]);
      if (record.liang) rows.push([t("亮張"), record.liang]);
      if (record.indicator) rows.push([t("財神翻牌"), record.indicator]);
      if (record.flowers && record.flowers.some((f) => f.length)) {
        record.flowers.forEach((f, i) => { if (f.length) rows.push([t("花") + " · " + (names[i] || i + 1), f.join(" ")]); });
      }
      if (record.wall) rows.push([t("牌牆 / 墩（從前往後）"), record.wall.join(" ")]);
    } else {
      rows.push([t("停在格"), String(record.cell)]);
      if (record.special) rows.push([t("好運"), (check.special_names || {})[record.special] || record.special]);
      rows.push([t("亮燈"), record.lit.join(", ")]);
    }
    list.replaceChildren(...rows.map(([label, text]) => {
      const li = document.createElement("li");
      const b = document.createElement("b");
      b.textContent = label + "：";
      const code = document.createElement("code");
      code.textContent = text;
      li.append(b, code);
      return li;
    }));
    box.dataset.ok = hashOk && dealOk ? "1" : "0";
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
