"""The mahjong bot's decisions (``MahjongRuleset.bot_action``; 托管 plays the same code).

One :class:`Decision` per call holds what does not change while the bot weighs its options (the
wild kinds, the sets still needed, the melds as PyMahjongGB packs, the copies it can account
for) and a shanten cache keyed by the natural tiles, so each (hand, wilds) state is counted
once per decision; the 進張 count combines the untouched suits once and re-searches only the
drawn tile's suit (:func:`botlib.shanten_after_draws`). That keeps a decision inside issue #16's
budget (p95 < 50 ms, p99 < 200 ms).

Turn:

1. 胡 whenever legal.
2. 暗槓 / 加槓 — with ``kong_check`` only when the 槓 does not raise the shanten.
3. Discard: the tiles whose removal leaves the lowest shanten (a 財神 only if nothing else
   does); among them the most 進張 — for each kind whose draw lowers the shanten, the copies
   really left (4 − the copies the bot can see) — over every tied discard (``ukeire_all``) or
   the four of lowest keep value; then the keep value (isolated honours and terminals first).
   With ``dead`` the kinds no draw can bring (every copy seen; 樂清's 杠頭 and flower kinds)
   make no partial set and count no 進張. With ``two_step`` N (and not yet ready) the N best
   by 進張 are re-ranked by the *two-step* 進張 (:meth:`Decision.two_step`): for each kind
   whose draw lowers the shanten, its copies left × the copies left of the kinds whose second
   draw lowers it again — the ways to get two steps closer, so a discard keeping good second
   draws beats one with a few more first draws into a poor shape (off in every variant: it
   did not move the share of wins on fresh seeds, docs/performance.md, 4 Dec 2026).

   The shanten of 13-tile hands without wilds is PyMahjongGB's (every GB shape: 七對, 全不靠,
   組合龍, 十三幺) where the variant wins with them (歡樂); with ``gb`` off (永州, whose only
   shapes are sets + a pair and 十三幺) the regular count, as the variant's ``_shanten_of``.
   With ``peng_w`` / ``chi_w`` (not yet ready) a 進張 kind the bot could also claim counts
   more: a pair of it in hand (碰 off any seat) or a run it completes (吃 off the left seat) —
   on in 樂清 (3 and 1: a copy it could 碰 counts 4, one it could 吃 2);
   with ``river_w`` (ready) a winning kind another seat has discarded counts more.

Claims: 碰 / 吃 / 明槓 when the meld lowers the shanten (its best discard counted); with
``claim_wider`` also a 碰 / 吃 at equal shanten whose 進張 is at least ``wider_mult`` × the
present 進張 + ``wider_add`` (off in every variant — 樂清 took them at
進張 + 1 until 5 Dec 2026, when randomised claims showed them slightly harmful),
and with ``gang_equal`` a 明槓 at equal shanten (a free draw).
With ``best_claim`` the best of several qualifying 碰 / 吃 (lowest shanten, then most 進張),
else the first.

Simulated search (needs the C extension ``_mjsim``, built by ``./leyou``; without it the bot
plays the rules above). The tiles the bot cannot see (the other hands, the wall) are dealt at
random into hands of the right sizes and a wall order — each sampled hand warmed up by as many
draws and discards as its seat has made, so it is shaped like a played hand — and the rest of
the hand is played out in C for all four seats (the others as shanten minimisers that 胡
whenever they can, on the bot's discards too; the bot by its own 進張 rule; to the first win or
流局): :func:`simulate`. Every candidate plays the same deals (common random numbers), in
batches of 100, and replaces the present choice only when it wins more and its paired z
against it is above a threshold (:func:`_searched`). The seed is a hash of what the bot sees,
so the same state gives the same action (replays reproduce it), and no hidden tile is read.

* ``mc_claim`` N (with ``mc_claim_sh``, ``mc_claim_z``, ``mc_stop``): on another seat's
  discard, pass and every legal 碰 / 吃 (a 明槓 keeps the rule above) are played out on N
  deals when the hand is at most ``mc_claim_sh`` from ready; another seat's 胡, and for a 吃
  another seat's 碰, come first in the simulation as at the table.
* ``mc`` N (with ``mc_k``, ``mc_up``, ``mc_max_sh``, ``mc_z``): on the bot's turn the best
  ``mc_k`` discards at the lowest shanten by the order above (and the best ``mc_up`` one
  shanten higher) are played out on N deals when the hand is at most ``mc_max_sh`` from ready
  (樂清: 200 deals, only when a discard leaves the hand ready — which wait to keep; further
  from ready it did not gain, docs/performance.md, 5 Dec 2026, branch mc2).
* ``mc_passed`` N: a deal in which an opponent's sampled hand would 胡 on a tile it let pass
  since it last drew or claimed (``state.vars["passed"]``: at the table it would have won, so
  that hand is not its hand) is redealt, up to N times — the one hard fact about the other
  seats' waits the table shows. ``mc_passed_peng``: also a deal in which such a tile would
  have let that seat 碰 and lower its shanten (the baseline's claim rule: it would have
  claimed). ``warm_claimed``: a seat's warm-up also counts its discards another seat claimed
  (they left its river, but it made those turns).

The options are set per variant in :data:`TUNING` from A/B runs on the same seeds
(docs/performance.md). No randomness: ties go to the hand's sorted order, and the simulated
search draws only from a seed made of the state the bot sees.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from games.rules.mahjong import bot as botlib
from games.rules.mahjong.tiles import KIND_INDEX, counts_of

if TYPE_CHECKING:
    from games.rules.mahjong.core import MahjongRuleset, State

Action = dict[str, Any]

# per-variant tuning (game_id → options); the defaults are the measured best (docs/performance.md)
DEFAULTS: dict[str, Any] = {
    "ukeire_all": True,  # 進張 over every tied discard (else the four of lowest keep value)
    "kong_check": True,  # 暗槓 / 加槓 only when the shanten does not rise
    "claim_wider": False,  # claim at equal shanten when the 進張 grows
    "gang_equal": False,
    "wider_mult": 2,
    "wider_add": 4,
    "dead": True,  # kinds no draw can bring (all seen, 杠頭 / flower kinds) make no partial set
    "two_step": 0,  # rank the best N tied discards (by 進張) by the two-step 進張 (0: off)
    "gb": True,  # 13-tile hands without wilds: PyMahjongGB's count (every GB shape)
    "peng_w": 0.0,  # extra weight of a 進張 kind the bot could 碰 (it holds a pair of it)
    "chi_w": 0.0,  # extra weight of a 進張 kind the bot could 吃 (it completes a run)
    "best_claim": False,  # of several qualifying claims, the best (shanten, 進張), not the first
    "river_w": 0.0,  # ready: extra weight of a winning kind another seat has discarded
    "mc": 0,  # determinisations of the simulated discard search (0: off; needs _mjsim)
    "mc_k": 4,  # its candidates at the lowest shanten: the best k by the present order
    "mc_up": 0,  # and the best n one shanten higher (by 進張)
    "mc_max_sh": 2,  # search only when the lowest shanten is at most this
    "mc_z": 1.0,  # leave the present choice only for a candidate winning more, paired z > this
    "mc_warm": 1.0,  # a sampled hand first draws and discards this × its seat's discards
    "warm_claimed": False,  # ... counting the discards other seats claimed off its river too
    "mc_claim": 0,  # determinisations of the simulated 碰 / 吃 / pass choice (0: off)
    "mc_claim_z": 1.0,  # leave the present claim choice only for paired z > this
    "mc_claim_sh": 2,  # search claims only when the hand is at most this far from ready
    "mc_stop": 0.0,  # end a search early when every other candidate trails by z < −this
    "mc_passed": 0,  # redeal a deal (up to this many times) where a seat wins on a tile it let pass
    "mc_passed_peng": False,  # ... or would have 碰'd one, lowering its shanten
}
# measured per variant (docs/performance.md, 2026-12-03 evening and 2026-12-04 early): 歡樂 /
# 永州 keep the bot of the 11:28 measurement (進張 over the four tied discards of lowest keep
# value, every 槓, no dead kinds); 樂清 takes a 明槓 at equal shanten (and claimed wider until
# 2026-12-05). The two-step 進張 (``two_step``) and 樂清's options in 永州 did not move the share
# on fresh seeds.
# 永州 counts the regular shape only (``gb`` false, 2026-12-05): it has no 七對 / 全不靠 / 組合龍.
# 樂清 takes the best of several qualifying claims (``best_claim``: +31 hands net of 81
# discordant over four seed ranges, 2026-12-04 / 05); not yet ready, it counts each copy of a
# 進張 kind it could 碰 (a pair in hand: off any of three seats) 4 times and of one it could 吃
# (off the left seat) twice (``peng_w`` 3, ``chi_w`` 1: +21 hands net of 3,000 where chosen,
# +10 and +44 — z +3.18 — on fresh ranges of 3,000 and 4,000; −4 on b16k; 2026-12-05, lq21).
# 樂清 no longer claims at equal shanten (``claim_wider`` off, on since 2026-12-03 with
# 進張 + 1): randomised claims put such a claim at −4.1 ± 2.2 points of win chance; off, +13
# hands net of 4,000 where measured, +27 and +32 on two fresh ranges of 4,000 (pooled z
# +2.32), +5 on b16k (2026-12-05, branch dp)
# 樂清 chooses pass / 碰 / 吃 by the simulated search when at most 3 from ready (``mc_claim``
# 300 deals, early stop at z −2; 2026-12-05, mc2): 600 deals gained +43 net of 209 discordant
# on the 4,000 tuning hands, +26 (z +1.88) and +45 (z +3.16) on the fresh ab-150000…153999 and
# ab-154000…157999, but costs a CPU p95 of 41–54 ms a decision; 300 deals (+15 on the first
# tuning range) gained +50 (z +3.67) on ab-154000…157999 at a CPU p95 of ≈ 27 ms.
# 樂清, 2026-12-06: the simulated discard search when ready (``mc`` 200, ``mc_max_sh`` 0), a
# deal redealt when an opponent's hand would have 胡'd on a tile it let pass (``mc_passed``
# 10) and the warm-up counting claimed discards (``warm_claimed``), together: +35 hands net of
# 229 discordant (z +2.31) on the fresh ab-700100…708099 and +17 of 241 (z +1.10) on
# ab-710000…717999 (8,000 hands each; pooled z +2.4, about +0.3 point).
# 樂清, 2026-12-06 (later): the redeal also when a sampled hand would have 碰'd a tile it let
# pass (``mc_passed_peng``): +13, +3 and −2 hands net on three fresh 8,000-hand ranges
# (ab-730000…757999; 97 gained / 83 lost, z +1.04) — not a proven gain, kept because it is
# the baseline's own claim rule read backwards (a deal it contradicts is not the table's), at
# ≈ 5 % more CPU per hand.
TUNING: dict[str, dict[str, Any]] = {
    "mahjong_huanle": {"ukeire_all": False, "kong_check": False, "dead": False},
    "mahjong_yongzhou": {"ukeire_all": False, "kong_check": False, "dead": False, "gb": False},
    "mahjong_yueqing": {
        "gang_equal": True,
        "best_claim": True,
        "peng_w": 3.0,
        "chi_w": 1.0,
        "mc_claim": 300,
        "mc_claim_sh": 3,
        "mc_stop": 2.0,
        "mc": 200,
        "mc_max_sh": 0,
        "mc_passed": 10,
        "mc_passed_peng": True,
        "warm_claimed": True,
    },
}


def option(game_id: str, name: str) -> Any:
    return TUNING.get(game_id, {}).get(name, DEFAULTS[name])


class Decision:
    """What one bot decision needs, computed once."""

    def __init__(self, ruleset: MahjongRuleset, state: State, seat: int) -> None:
        self.r = ruleset
        self.state = state
        self.seat = seat
        cfg = ruleset.cfg(state)
        self.wild = ruleset.wild_kinds(state)
        self.sets = ruleset.hand_size(cfg) // 3 - len(state.melds[seat])
        self.gb = (
            ruleset.hand_size(cfg) == 13
            and bool(ruleset.shapes(cfg))
            and option(ruleset.game_id, "gb")
        )
        self.peng_w = float(option(ruleset.game_id, "peng_w"))
        self.chi_w = float(option(ruleset.game_id, "chi_w"))
        self.river_w = float(option(ruleset.game_id, "river_w"))
        self.river = frozenset(
            t for s, river in enumerate(state.discards) if s != seat for t in river
        )
        self.packs = tuple(ruleset._gb_pack(state, seat, m) for m in state.melds[seat])
        self._cache: dict[tuple[tuple[str, ...], int, int], int] = {}
        self._uk_cache: dict[tuple[tuple[str, ...], int, int, int], float] = {}
        self._seen: dict[str, int] = {}
        self.dead = 0
        if option(ruleset.game_id, "dead"):
            self._count_all()

    def shanten(self, tiles: list[str], extra: int = 0) -> int:
        """Shanten of concealed ``tiles`` (wilds among them) with ``extra`` hypothetical melds."""
        naturals = tuple(sorted(t for t in tiles if t not in self.wild))
        wilds = len(tiles) - len(naturals)
        key = (naturals, wilds, extra)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if extra or not self.gb:
            value = botlib.regular_shanten(counts_of(naturals), wilds, self.sets - extra, self.dead)
        else:
            value = botlib.shanten(list(naturals), wilds, self.packs, self.sets, True)
        self._cache[key] = value
        return value

    def _count_all(self) -> None:
        """Every copy the bot can account for: its hand and melds, every river and exposed
        meld, every exposed flower (樂清: 白板 / 杠頭 are kinds) and the tiles set aside; and
        the dead mask of the kinds no draw can bring (a kind the variant treats as a flower
        never stays in a hand)."""
        state, seat = self.state, self.seat
        n: dict[str, int] = {}

        def add(tiles: list[str]) -> None:
            for t in tiles:
                n[t] = n.get(t, 0) + 1

        add(state.hands[seat])
        for s, melds in enumerate(state.melds):
            for m in melds:
                if m["kind"] != "angang" or s == seat:
                    add(m["tiles"])
        for river in state.discards:
            add(river)
        for fl in state.flowers:
            add(fl)
        add(list(state.vars.get("set_aside", [])))
        from games.engine.tiles import KINDS

        for k, kind in enumerate(KINDS):
            if kind in self.wild:
                continue
            if self.r.tile_is_flower(state, kind):
                n[kind] = 4
            if n.get(kind, 0) >= 4:
                self.dead |= 1 << k
        self._seen = {kind: min(4, n.get(kind, 0)) for kind in KINDS}

    def seen(self, kind: str) -> int:
        """Copies of ``kind`` the bot can see: face up on the table and in its own hand."""
        n = self._seen.get(kind)
        if n is None:
            n = self.r.visible_count(self.state, kind) + self.state.hands[self.seat].count(kind)
            self._seen[kind] = n
        return n

    def ukeire(self, rest: list[str], sh: int, extra: int = 0) -> float:
        """進張: copies really left of the kinds whose draw lowers the shanten of ``rest``;
        with ``peng_w`` / ``chi_w`` (and not yet ready) a kind the bot could also claim counts
        more (:meth:`route_weight`)."""
        naturals = tuple(sorted(t for t in rest if t not in self.wild))
        key = (naturals, len(rest) - len(naturals), sh, extra)
        cached = self._uk_cache.get(key)
        if cached is not None:
            return cached
        improving = self._improving(rest, sh, extra)
        hit: float
        if sh > 0 and (self.peng_w or self.chi_w):
            counts = counts_of(list(naturals))
            hit = sum(left * self.route_weight(counts, k) for k, left, _a in improving)
        elif sh == 0 and self.river_w:
            # a kind another seat has thrown is one the others do not keep: its copies left
            # are likelier to come out
            hit = sum(left * (1.0 + self.river_w * (k in self.river)) for k, left, _a in improving)
        else:
            hit = sum(left for _k, left, _a in improving)
        self._uk_cache[key] = hit
        return hit

    def route_weight(self, counts: tuple[int, ...], kind: str) -> float:
        """How many ways a 進張 kind can come: a draw (1); + ``peng_w`` when the hand holds a
        pair of it (a 碰 off any seat's discard); else + ``chi_w`` when it completes a run with
        the hand's tiles (a 吃 off the left seat's discard)."""
        k = KIND_INDEX[kind]
        if counts[k] >= 2:
            return 1.0 + self.peng_w
        if self.chi_w and k < 27:
            n = k % 9
            lo, hi = k - n, k - n + 8

            def held(i: int) -> bool:
                return lo <= i <= hi and counts[i] > 0

            if (
                (held(k - 2) and held(k - 1))
                or (held(k - 1) and held(k + 1))
                or (held(k + 1) and held(k + 2))
            ):
                return 1.0 + self.chi_w
        return 1.0

    def two_step(self, rest: list[str], sh: int) -> float:
        """Two-step 進張 of ``rest`` (3k+1 tiles at shanten ``sh``): over each kind whose draw
        lowers the shanten, its copies left × the copies left of the kinds whose second draw
        lowers it again (the 3k+3 tiles counted by the regular search, which chooses the
        discard) — the ways to go two steps down. Ready hands (``sh`` 0) count their plain
        進張 (the win)."""
        if sh <= 0:
            return self.ukeire(rest, sh)
        total = 0.0
        for kind, left, after in self._improving(rest, sh, 0):
            # the drawn hand (3k+2 tiles) is counted as it stands: a second draw that lowers
            # its shanten (the regular search picks the discard) — one search per kind, not
            # one 進張 count per discard
            again = self._improving([*rest, kind], after, 0)
            total += left * sum(n - (k == kind) for k, n, _a in again)
        return total

    def _improving(self, rest: list[str], sh: int, extra: int) -> list[tuple[str, int, int]]:
        """(kind, copies left, shanten after drawing it) of each kind that lowers ``sh``."""
        kinds = []
        for k in sorted(botlib.useful_kinds([t for t in rest if t not in self.wild])):
            if k not in self.wild and self.seen(k) < 4:
                kinds.append(k)
        if not kinds:
            return []
        naturals = [t for t in rest if t not in self.wild]
        # a drawn hand (3k+2 tiles) is always counted by the regular search, as PyMahjongGB
        # counts 13 tiles only
        after = botlib.shanten_after_draws(
            counts_of(naturals),
            len(rest) - len(naturals),
            self.sets - extra,
            [KIND_INDEX[k] for k in kinds],
            self.dead,
        )
        return [(k, 4 - self.seen(k), a) for k, a in zip(kinds, after) if a < sh]

    def best_after_meld(self, rest: list[str], with_ukeire: bool = False) -> tuple[int, float]:
        """(shanten, 進張) after a 吃 / 碰 leaving ``rest`` and the best discard from it (the
        進張 only ``with_ukeire``, else 0)."""
        sh, uk, _after = self.meld_discard(rest, with_ukeire)
        return sh, uk

    def meld_discard(
        self, rest: list[str], with_ukeire: bool = True
    ) -> tuple[int, float, list[str]]:
        """(shanten, 進張, tiles left) after a 吃 / 碰 leaving ``rest`` and its best discard
        (lowest shanten, then most 進張 when ``with_ukeire``)."""
        best: tuple[int, float] | None = None
        kept: list[str] = []
        for t in sorted(set(rest)):
            after = list(rest)
            after.remove(t)
            sh = self.shanten(after, 1)
            key: tuple[int, float] = (sh, 0)
            if best is not None and key[0] > best[0]:
                continue
            key = (sh, -self.ukeire(after, sh, 1)) if with_ukeire else key
            if best is None or key < best:
                best, kept = key, after
        if best is None:
            return 99, 0, kept
        return best[0], -best[1], kept


def bot_action(ruleset: MahjongRuleset, state: State, seat: int) -> Action:
    """The bot's action for ``seat`` (which must be to act); see the module docstring."""
    from games.engine.errors import ErrorCode, IllegalAction

    legal = ruleset.legal_actions(state, seat)
    if not legal:
        raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "not this seat's decision now")
    if {"type": "hu"} in legal:
        return {"type": "hu"}
    d = Decision(ruleset, state, seat)
    if state.phase == "turn":
        return _turn(d, legal)
    if state.phase == "robkong":
        return {"type": "pass"}
    return _claim(d, legal)


def _turn(d: Decision, legal: list[Action]) -> Action:
    hand = d.state.hands[d.seat]
    gid = d.r.game_id
    discards = [a for a in legal if a["type"] == "discard"]
    kongs = [a for a in legal if a["type"] in ("angang", "jiagang")]
    if kongs:
        if not option(gid, "kong_check") or not discards:
            return kongs[0]
        now = min(_rest_shanten(d, hand, a["tile"]) for a in discards)
        for a in kongs:
            rest = [t for t in hand if t != a["tile"]] if a["type"] == "angang" else list(hand)
            if a["type"] == "jiagang":
                rest.remove(a["tile"])
            # after a 槓 the seat draws again: its hand is 3k+1 with one set fewer to make
            if d.shanten(rest, 1 if a["type"] == "angang" else 0) <= now:
                return a
    if not discards:
        return legal[0]
    scored = scored_discards(d, discards)
    low = min(x[:2] for x in scored)
    tied = [x for x in scored if x[:2] == low]
    mc = int(option(gid, "mc"))
    if mc and botlib.native is not None and not low[1] and low[0] <= option(gid, "mc_max_sh"):
        searched = _mc_turn(d, scored, low[0], mc)
        if searched is not None:
            return searched
    if len(tied) == 1:
        return tied[0][4]
    if not option(gid, "ukeire_all"):
        tied = sorted(tied, key=lambda x: (x[2], x[3]))[:4]
    ranked: list[tuple[float, int, str, int, list[str], Action]] = []
    for sh, _w, keep, t, a in tied:
        rest = list(hand)
        rest.remove(t)
        ranked.append((-d.ukeire(rest, sh), keep, t, sh, rest, a))
    ranked.sort(key=lambda x: x[:3])
    top = option(gid, "two_step")
    if top and ranked[0][3] > 0 and len(ranked) > 1:
        # the few best by 進張, re-ranked by the two-step count (then 進張, keep value)
        ranked = sorted(ranked[:top], key=lambda x: (-d.two_step(x[4], x[3]), *x[:3]))
    return ranked[0][5]


def scored_discards(
    d: Decision, discards: list[Action]
) -> list[tuple[int, bool, int, str, Action]]:
    """(shanten left, a 財神?, keep value, tile, action) of each discard: the keys of the
    bot's order before its 進張 count."""
    from games.rules.mahjong.core import _keep_value

    hand = d.state.hands[d.seat]
    scored = []
    for a in discards:
        t = a["tile"]
        rest = list(hand)
        rest.remove(t)
        scored.append((d.shanten(rest), t in d.wild, _keep_value(t, rest), t, a))
    return scored


def _present_order(d: Decision, hand: list[str], tied: list[Any]) -> list[Any]:
    """``tied`` (shanten, wild, keep, tile, action) by the present order: most 進張, keep, tile."""
    ranked = []
    for sh, _w, keep, t, a in tied:
        rest = list(hand)
        rest.remove(t)
        ranked.append((-d.ukeire(rest, sh), keep, t, a))
    ranked.sort(key=lambda x: x[:3])
    return ranked


def _mc_turn(d: Decision, scored: list[Any], low: int, n_det: int) -> Action | None:
    """The simulated discard search (``mc``): the present choice and the next ``mc_k`` − 1 at
    the lowest shanten (and the best ``mc_up`` one shanten higher) each play out the same
    ``n_det`` determinisations in C (:func:`simulate`); the candidate the bot wins most with
    replaces the present choice only when its paired z against it is above ``mc_z``. None:
    no search (a single candidate, or a table the simulator does not model)."""
    gid = d.r.game_id
    hand = d.state.hands[d.seat]
    tied = [x for x in scored if x[0] == low and not x[1]]
    order = _present_order(d, hand, tied)[: int(option(gid, "mc_k"))]
    up = int(option(gid, "mc_up"))
    if up:
        higher = [x for x in scored if x[0] == low + 1 and not x[1]]
        order += _present_order(d, hand, higher)[:up]
    if len(order) < 2:
        return None
    best = _searched(d, [x[2] for x in order], n_det, 0, float(option(gid, "mc_z")))
    return None if best is None else dict(order[best][3])


def simulate(
    d: Decision,
    candidates: list[str] | list[tuple[str, str] | None],
    n_det: int,
    claim_from: int = -1,
    tile: str = "",
    salt: int = 0,
) -> bytes | None:
    """Play the hand out ``n_det`` times per candidate of the bot (``_mjsim.search``): on its
    turn each candidate is a discard; with ``claim_from`` (the seat whose discard ``tile`` is
    in the claim window) each is the two tiles of its hand a 碰 / 吃 takes, or None to pass.
    The tiles the bot cannot see are dealt at random into the other hands and the wall (the
    same deals for every candidate), from a seed made of what the bot sees (the same state,
    the same answer; ``salt`` gives another batch of deals). Per determinisation and
    candidate: 1 the bot won, 2 another seat, 0 流局.
    None when the simulator does not model the table (not one wild kind, tiles that do not
    add up)."""
    from games.engine.tiles import KINDS

    state, seat, r = d.state, d.seat, d.r
    if len(d.wild) != 1 or state.seats != 4 or botlib.native is None:
        return None
    (wild,) = tuple(d.wild)
    wk = KIND_INDEX[wild]
    seen = [0] * 34
    extra = 0

    def add(tiles: list[str]) -> None:
        for t in tiles:
            k = KIND_INDEX.get(t)
            if k is not None:
                seen[k] += 1

    hand = state.hands[seat]
    add(hand)
    for s, melds in enumerate(state.melds):
        for m in melds:
            if m["kind"] != "angang" or s == seat:
                add(m["tiles"])
            else:
                extra += len(m["tiles"])
    for river in state.discards:
        add(river)
    for fl in state.flowers:
        add(fl)
    add(list(state.vars.get("set_aside", [])))
    if max(seen) > 4:
        return None
    unseen = bytes(4 - n for n in seen)
    others = [(seat + i) % 4 for i in (1, 2, 3)]
    sizes = bytes(len(state.hands[s]) for s in others)
    opp_sets = bytes(max(0, d.sets + len(state.melds[seat]) - len(state.melds[s])) for s in others)
    if sum(unseen) - extra - sum(sizes) != len(state.wall):
        return None
    scale = float(option(r.game_id, "mc_warm"))
    turns = [len(state.discards[s]) for s in range(4)]
    if option(r.game_id, "warm_claimed"):
        # a discard another seat claimed left the river, but its seat still made that turn
        for ms in state.melds:
            for m in ms:
                if m.get("from") is not None:
                    turns[m["from"]] += 1
    warm = bytes(min(60, round(scale * turns[s])) for s in others)
    flowers = 0
    for k, kind in enumerate(KINDS):
        if r.tile_is_flower(state, kind):
            flowers |= 1 << k
    naturals = counts_of([t for t in hand if t not in d.wild])
    wilds = len(hand) - sum(naturals)
    view = repr(
        (
            sorted(hand),
            state.discards,
            [
                [m["tiles"] if m["kind"] != "angang" or s == seat else 4 for m in ms]
                for s, ms in enumerate(state.melds)
            ],
            state.flowers,
            len(state.wall),
            seat,
            tile,
            salt,
        )
    )
    rng_seed = int.from_bytes(hashlib.sha256(view.encode()).digest()[:8], "big")
    rel = (claim_from - seat) % 4 if claim_from >= 0 else 0
    codes: list[int] = []
    for c in candidates:
        if isinstance(c, str):
            codes.append(KIND_INDEX[c])
        elif c is None:
            codes += [255, 255]
        else:
            codes += [KIND_INDEX[c[0]], KIND_INDEX[c[1]]]
    encoded = bytes(codes)
    try:
        out: bytes = botlib.native.search(
            bytes(naturals),
            wilds,
            d.sets,
            sizes,
            opp_sets,
            warm,
            unseen,
            extra,
            len(state.wall),
            r.reserve(state),
            wk,
            flowers,
            d.dead,
            rel,
            KIND_INDEX[tile] if rel else 0,
            encoded,
            n_det,
            rng_seed,
            d.peng_w,
            d.chi_w,
            _passed(d, others),
            int(option(r.game_id, "mc_passed")),
            bool(option(r.game_id, "mc_passed_peng")),
        )
    except ValueError:
        return None
    return out


def _passed(d: Decision, others: list[int]) -> tuple[int, int, int]:
    """Per other seat, the bit mask of the kinds it let pass since it last drew or claimed:
    discards it could have 胡'd on and did not (the tile now in the claim window, which it has
    not answered yet, left out)."""
    passed = d.state.vars.get("passed") or [[] for _ in range(4)]
    claim = d.state.claim or {}
    masks = []
    for s in others:
        tiles = list(passed[s])
        if claim.get("kind") == "discard" and tiles and tiles[-1] == claim["tile"]:
            tiles.pop()
        mask = 0
        for t in tiles:
            mask |= 1 << KIND_INDEX[t]
        masks.append(mask)
    return masks[0], masks[1], masks[2]


def _rest_shanten(d: Decision, hand: list[str], tile: str) -> int:
    rest = list(hand)
    rest.remove(tile)
    return d.shanten(rest)


def _claim(d: Decision, legal: list[Action]) -> Action:
    present = _claim_present(d, legal)
    n_det = int(option(d.r.game_id, "mc_claim"))
    if not n_det or botlib.native is None or present["type"] == "gang":
        return present
    searched = _mc_claim(d, legal, present, n_det)
    return searched if searched is not None else present


def _mc_claim(d: Decision, legal: list[Action], present: Action, n_det: int) -> Action | None:
    """The simulated claim search (``mc_claim``): pass and every legal 碰 / 吃 play out the
    same ``n_det`` determinisations (:func:`simulate`); the one the bot wins most with replaces
    the present choice only when its paired z against it is above ``mc_claim_z``."""
    claim = d.state.claim or {}
    tile = claim.get("tile", "")
    options: list[Action] = [{"type": "pass"}]
    options += [a for a in legal if a["type"] in ("peng", "chi")]
    if len(options) < 2 or present not in options:
        return None
    hand = d.state.hands[d.seat]
    if d.shanten(hand) > option(d.r.game_id, "mc_claim_sh"):
        return None
    cands: list[tuple[str, str] | None] = []
    for a in options:
        if a["type"] == "pass":
            cands.append(None)
        elif a["type"] == "peng":
            cands.append((tile, tile))
        else:
            cands.append((a["tiles"][0], a["tiles"][1]))
    z = float(option(d.r.game_id, "mc_claim_z"))
    best = _searched(d, cands, n_det, options.index(present), z, int(claim["from"]), tile)
    return None if best is None else options[best]


_BATCH = 100


def _searched(
    d: Decision,
    cands: list[str] | list[tuple[str, str] | None],
    n_det: int,
    base: int,
    z: float,
    claim_from: int = -1,
    tile: str = "",
) -> int | None:
    """The index of the candidate to play: the one winning most among those whose paired z
    against ``base`` (the present choice) is above ``z``, else ``base``; None when the
    simulator does not model the table. The determinisations run in batches of 100 (each
    batch the same deals for every candidate); with ``mc_stop`` the search ends early once
    every other candidate trails ``base`` by a paired z below −``mc_stop`` (it only ever
    stops to keep the present choice, so switching always rests on all ``n_det``)."""
    nc = len(cands)
    stop = float(option(d.r.game_id, "mc_stop"))
    won: list[list[bool]] = [[] for _ in range(nc)]
    done = 0
    while done < n_det:
        n = min(_BATCH, n_det - done)
        out = simulate(d, cands, n, claim_from, tile, salt=done)
        if out is None:
            return None
        for j in range(nc):
            won[j] += [out[i * nc + j] == 1 for i in range(n)]
        done += n
        if (
            stop
            and done < n_det
            and all(_z(won[j], won[base]) < -stop for j in range(nc) if j != base)
        ):
            return base
    best, best_wins = base, sum(won[base])
    for j in range(nc):
        if j != base and _z(won[j], won[base]) > z and sum(won[j]) > best_wins:
            best, best_wins = j, sum(won[j])
    return best


def _z(a: list[bool], b: list[bool]) -> float:
    """Paired sign-test z of ``a`` over ``b`` (0 when they never differ)."""
    gained = sum(x and not y for x, y in zip(a, b))
    lost = sum(y and not x for x, y in zip(a, b))
    return (gained - lost) / (gained + lost) ** 0.5 if gained + lost else 0.0


def _rest_after_claim(hand: list[str], a: Action, tile: str) -> list[str]:
    """The concealed tiles left after the 吃 / 碰 / 明槓 ``a`` of the discarded ``tile``."""
    rest = list(hand)
    if a["type"] == "chi":
        for t in a["tiles"]:
            rest.remove(t)
    else:
        for _ in range(3 if a["type"] == "gang" else 2):
            rest.remove(tile)
    return rest


def _gang_taken(d: Decision, rest: list[str], now: int) -> bool:
    """A 明槓 leaving ``rest`` is taken when it lowers the shanten ``now``, or keeps it with
    ``gang_equal`` (a free draw)."""
    after = d.shanten(rest, 1)
    return after < now or (after == now and bool(option(d.r.game_id, "gang_equal")))


def _claim_present(d: Decision, legal: list[Action]) -> Action:
    state = d.state
    gid = d.r.game_id
    hand = state.hands[d.seat]
    now = d.shanten(hand[:-1] if len(hand) % 3 == 2 else hand)
    tile = (state.claim or {})["tile"]
    wider = option(gid, "claim_wider")
    best_claim = option(gid, "best_claim")
    now_uk = d.ukeire(hand, now) if wider else 0
    chosen: tuple[tuple[int, float], Action] | None = None
    for a in legal:
        if a["type"] not in ("peng", "gang", "chi"):
            continue
        rest = _rest_after_claim(hand, a, tile)
        if a["type"] == "gang":
            if _gang_taken(d, rest, now):
                return a
            continue
        after, uk = d.best_after_meld(rest, with_ukeire=wider or best_claim)
        if not (
            after < now
            or (
                wider
                and after == now
                and uk >= option(gid, "wider_mult") * now_uk + option(gid, "wider_add")
            )
        ):
            continue
        if not best_claim:
            return a
        # of several qualifying 碰 / 吃 the one leaving the lowest shanten and most 進張
        key = (after, -uk)
        if chosen is None or key < chosen[0]:
            chosen = (key, a)
    return chosen[1] if chosen is not None else {"type": "pass"}


__all__ = ["DEFAULTS", "TUNING", "Decision", "bot_action"]
