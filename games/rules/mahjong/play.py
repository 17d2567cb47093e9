"""The mahjong bot's decisions (``MahjongRuleset.bot_action``; 托管 plays the same code).

One :class:`Decision` per call: it holds what does not change while the bot weighs its options
(the wild kinds, the sets still needed, the melds as PyMahjongGB packs, the tiles face up) and a
shanten cache keyed by the natural tiles, so each (hand, wilds) state is counted once per
decision. The searches are bounded so a decision stays inside the budget of issue #16 (p95 <
50 ms, p99 < 200 ms): the 進張 count looks at the kinds next to held tiles only.

Turn:

1. 胡 whenever legal.
2. 暗槓 / 加槓 when the 槓 does not raise the shanten (a 槓 that breaks a sequence is skipped).
3. Discard: the tiles whose removal leaves the lowest shanten (a 財神 only if nothing else
   does); among them the most 進張 — for each kind whose draw lowers the shanten, the copies
   really left (4 − own − face up); then the variant's *danger* of the tile (see below); then the
   keep value (isolated honours and terminals go first).

Claims: 碰 / 吃 / 明槓 when the meld lowers the shanten (its best discard counted), and — when
``claim_wider`` — also at equal shanten if the 進張 after the meld is clearly larger.

Defence (``defend``): from the point where the wall is short and the bot is still far from
ready, among the discards within one 進張-step of the best it prefers the tile least likely to
feed a win: copies face up, honours over suited tiles, the seat's own earlier discards.
Deterministic: no randomness at all, the order of ties is the hand's sorted order.
"""

from __future__ import annotations

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
    "defend": 0,  # 0 none · 1 safety breaks 進張 ties · 2 進張 − w × unsafe seats · 3 and fold
    "defend_w": 4,
    "defend_from": 8,  # discards made in the hand before the defence starts
    "fold_from": 24,
    "fold_shanten": 2,
}
TUNING: dict[str, dict[str, Any]] = {}


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
        self.gb = ruleset.hand_size(cfg) == 13 and bool(ruleset.shapes(cfg))
        self.packs = tuple(ruleset._gb_pack(state, seat, m) for m in state.melds[seat])
        self._cache: dict[tuple[tuple[str, ...], int, int], int] = {}
        self._seen: dict[str, int] = {}
        self._unsafe: dict[str, int] | None = None

    def shanten(self, tiles: list[str], extra: int = 0) -> int:
        """Shanten of concealed ``tiles`` (wilds among them) with ``extra`` hypothetical melds."""
        naturals = tuple(sorted(t for t in tiles if t not in self.wild))
        wilds = len(tiles) - len(naturals)
        key = (naturals, wilds, extra)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if extra or not self.gb:
            value = botlib.regular_shanten(counts_of(naturals), wilds, self.sets - extra)
        else:
            value = botlib.shanten(list(naturals), wilds, self.packs, self.sets, True)
        self._cache[key] = value
        return value

    def seen(self, kind: str) -> int:
        """Copies of ``kind`` the bot can see: face up on the table and in its own hand."""
        n = self._seen.get(kind)
        if n is None:
            n = self.r.visible_count(self.state, kind) + self.state.hands[self.seat].count(kind)
            self._seen[kind] = n
        return n

    def ukeire(self, rest: list[str], sh: int, extra: int = 0) -> int:
        """進張: copies really left of the kinds whose draw lowers the shanten of ``rest``."""
        kinds = []
        for k in sorted(botlib.useful_kinds([t for t in rest if t not in self.wild])):
            if k not in self.wild and self.seen(k) < 4:
                kinds.append(k)
        if not kinds:
            return 0
        naturals = [t for t in rest if t not in self.wild]
        # a drawn hand (3k+2 tiles) is always counted by the regular search, as PyMahjongGB
        # counts 13 tiles only
        after = botlib.shanten_after_draws(
            counts_of(naturals),
            len(rest) - len(naturals),
            self.sets - extra,
            [KIND_INDEX[k] for k in kinds],
        )
        return sum(4 - self.seen(k) for k, a in zip(kinds, after) if a < sh)

    def unsafe(self) -> dict[str, int]:
        """For each kind, how many other seats may still win on it: a seat's hand has not
        changed since its last discard, so a tile discarded after that without that seat
        winning on it cannot be its winning tile now (for a seat that always wins when it
        can)."""
        if self._unsafe is not None:
            return self._unsafe
        log = self.state.river_log
        passed: list[set[str]] = []
        for o in range(self.state.seats):
            if o == self.seat:
                continue
            last = max((i for i, (s, _t) in enumerate(log) if s == o), default=-1)
            passed.append({t for _s, t in log[last + 1 :]})
        out: dict[str, int] = {}
        for t in set(self.state.hands[self.seat]):
            out[t] = sum(1 for p in passed if t not in p)
        self._unsafe = out
        return out

    def best_after_meld(self, rest: list[str]) -> tuple[int, int]:
        """(shanten, 進張) after a 吃 / 碰 leaving ``rest`` and the best discard from it."""
        best: tuple[int, int] | None = None
        for t in sorted(set(rest)):
            after = list(rest)
            after.remove(t)
            sh = self.shanten(after, 1)
            key = (sh, 0)
            if best is not None and key[0] > best[0]:
                continue
            key = (sh, -self.ukeire(after, sh, 1)) if option(self.r.game_id, "claim_wider") else key
            if best is None or key < best:
                best = key
        if best is None:
            return 99, 0
        return best[0], -best[1]


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
    from games.rules.mahjong.core import _keep_value

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
    scored: list[tuple[int, bool, int, str, Action]] = []
    for a in discards:
        t = a["tile"]
        rest = list(hand)
        rest.remove(t)
        scored.append((d.shanten(rest), t in d.wild, _keep_value(t, rest), t, a))
    low = min(x[:2] for x in scored)
    defend = option(gid, "defend")
    n = d.state.discard_count
    if defend >= 3 and n >= option(gid, "fold_from") and low[0] >= option(gid, "fold_shanten"):
        # far from ready late in the hand: the safest tile, then the lowest shanten
        unsafe = d.unsafe()
        return min(scored, key=lambda x: (unsafe[x[3]], x[1], x[0], x[2], x[3]))[4]
    tied = [x for x in scored if x[:2] == low]
    if len(tied) == 1:
        return tied[0][4]
    if not option(gid, "ukeire_all"):
        tied = sorted(tied, key=lambda x: (x[2], x[3]))[:4]
    weigh = defend > 0 and n >= option(gid, "defend_from")
    unsafe = d.unsafe() if weigh else {}
    w = option(gid, "defend_w")
    best: tuple[int, int, int, str] | None = None
    choice: Action = tied[0][4]
    for sh, _w, keep, t, a in tied:
        rest = list(hand)
        rest.remove(t)
        uk = d.ukeire(rest, sh)
        danger = unsafe.get(t, 0)
        if defend == 1 or not weigh:
            key = (-uk, danger, keep, t)
        else:
            key = (-uk + w * danger, 0, keep, t)
        if best is None or key < best:
            best, choice = key, a
    return choice


def _rest_shanten(d: Decision, hand: list[str], tile: str) -> int:
    rest = list(hand)
    rest.remove(tile)
    return d.shanten(rest)


def _claim(d: Decision, legal: list[Action]) -> Action:
    state = d.state
    hand = state.hands[d.seat]
    now = d.shanten(hand[:-1] if len(hand) % 3 == 2 else hand)
    tile = (state.claim or {})["tile"]
    wider = option(d.r.game_id, "claim_wider")
    now_uk = d.ukeire(hand, now) if wider else 0
    for a in legal:
        if a["type"] not in ("peng", "gang", "chi"):
            continue
        rest = list(hand)
        if a["type"] == "chi":
            for t in a["tiles"]:
                rest.remove(t)
        else:
            for _ in range(3 if a["type"] == "gang" else 2):
                rest.remove(tile)
        if a["type"] == "gang":
            after = d.shanten(rest, 1)
            if after < now:
                return a
            continue
        after, uk = d.best_after_meld(rest)
        if after < now:
            return a
        if wider and after == now and uk >= 2 * now_uk + 4:
            return a
    return {"type": "pass"}


__all__ = ["DEFAULTS", "TUNING", "Decision", "bot_action"]
