"""樂清麻將 – 武漢花 (game id ``mahjong_yueqing``): 16-tile hands, 財神, 白板 flowers, 杠頭, 包牌,
逼胡, 台數 and 花數 (squared), on the mahjong core.

Seed 004 with RULES-NOTES §8 and decision 6. Quoted rules and how they are implemented:

* "一共136張牌 … 每家16張牌，在開始時，莊家17張牌"; "和牌的基本牌型" a–f: five sets and a pair
  (``hand_size`` 16, the core then needs 5 − melds sets). No 七對 / 十三幺.
* "莊家贏了可以牢莊(牢莊的次數沒有限制)，輸了由莊家的下家做莊" — ``next_dealer``; the platform
passes
  the running 牢莊 count back as ``lao_zhuang``.
* 骰子 / 開牌: two throws of two dice from ``Chance(seed, "dice")``; the second thrower is the
  N1-th seat counting the dealer as 1 in the order of play; the opening 墩 is N1 + N2 墩 clockwise
  from the right end of the thrower's side (the 68 墩 of the shuffled wall, 17 per side); the wall
  is read from there (front = draws), its back is the 墩 before the opening.
* "明牌: 開牌位置逆時針方向那一墩的下面那個牌" — the bottom tile of the back 墩 is turned face up
and
  set aside (the indicator). "明牌面值+1為財神，且循環 … 若明牌為白板，則東風為財神" (9 → 1,
  東南西北中發白 as one cycle).
* "白板做花牌，若財神是白板，那么紅中當花來處理"; 花數 2 "若明牌為發財或者白板，則紅中為一花"; the
  other three copies of the indicator are 杠頭 (RULES-NOTES §8 #2). Both are exposed and replaced
  from the back at the deal and on every draw.
* "牌墻上剩余16張牌時 … 流局 …
如果有人放四張牌的杠(白皮杠不算)，那么莊家的下家做莊，否則莊家繼續做莊，
  但是牢莊數不變" — ``reserve`` 16.
* 包牌 a–e with "吃碰杠四手 > 見牌胡 > 不能亂吐 > 單吊形成 = 點炮成明翻的牌": the liable seat pays
  every share of the 胡倒 (花 is never 包).
* 逼胡: the first seat to show a 明牌 state (三杠頭, 四白板, 六臺, 三美人, 四美人, 四風齊, 單吊)
  caps every other seat's win: no 翻 but 三財神 / 四財神, a 翻 hand counts 5 台, basic 台 at most 5
  (天胡 / 地胡 and a win on that seat's first discard after it are exempt).
* 台數 a–h (yueqing_scoring), "8臺為(15+8-6)*2"; ``qi_hu_tai`` 起胡台數 per room.
* 花數 1–11; "總花=平方花 … 從其他三個玩家中各拿"; settlement "莊家胡：其他人 = 臺數+牢莊+1 …
閑家胡：
  非莊家 = 臺數+1，莊家 = 非莊家+1 … 胡倒條數+花的條數=總條數"; every point × 底 (``base``).
* 逃跑: each other seat's best 胡倒翻臺類型 (胡倒類型判斷), plus 底 × 10, 花 as on a 流局.

Glossary 中文 ↔ identifier: 財神 caishen (wild) · 明牌 indicator / mingpai (杠頭 count) and
ming (the public 明牌 states) · 杠頭 gangtou · 白板 flower flower_kind · 台 / 臺 tai · 花 hua ·
牢莊 lao_zhuang · 起胡台數 qi_hu_tai · 底 base · 包牌 bao · 逼胡 bihu · 見牌胡 jianpai ·
亂吐 luantu · 單吊 dandiao · 吃碰杠四手 sishou · 歸位 guiwei · 做牛 zuoniu · 骰子 dice.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from itertools import product
from typing import Any, ClassVar

from games.engine import registry
from games.engine.chance import Chance
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import TABLE_PARAMS
from games.engine.protocol import Action, Event, Result, ResultLine
from games.engine.tiles import KINDS
from games.rules.mahjong import params as room_spec
from games.rules.mahjong.core import WIND_NAMES, CoreConfig, MahjongRuleset, State, WinContext
from games.rules.mahjong.tiles import KIND_INDEX, counts_of, next_kind
from games.rules.mahjong.variants.yongzhou_hands import decompositions
from games.rules.mahjong.variants.yueqing_scoring import (
    BAI,
    FA,
    ZHONG,
    Facts,
    bi_hu_limit,
    escape_best,
    hua_count,
    hua_settlement,
    tai_items,
    tai_value,
)

MING_NAMES = {
    "sangangtou": "明牌三杠頭",
    "sibaiban": "明牌四白板",
    "liutai": "明牌六臺",
    "sanmeiren": "明牌三美人",
    "simeiren": "明牌四美人",
    "sifengqi": "明牌四風齊",
    "dandiao": "明牌單吊",
}
BAO_NAMES = {
    "sishou": "吃碰杠四手",
    "jianpai": "見牌胡",
    "luantu": "不能亂吐",
    "dandiao": "單吊形成",
    "mingfan": "點炮成明翻的牌",
}


@dataclass(frozen=True, slots=True)
class YueqingConfig(CoreConfig):
    """Room options of 樂清麻將 (decision 6)."""

    qi_hu_tai: int = 0  # 起胡台數 (RULES-NOTES §8 #6)
    base: int = 1  # 底: the value of one 條
    lao_zhuang: int = 0  # times this dealer has already kept the deal (牢莊)
    escape_multiple: int = 10  # "逃跑倍數為10"


def _k(tile: str) -> int:
    return KIND_INDEX[tile]


class YueqingRuleset(MahjongRuleset):
    """樂清麻將 – 武漢花."""

    game_id: ClassVar[str] = "mahjong_yueqing"
    title: ClassVar[str] = "樂清麻將"
    config_cls: ClassVar[type] = YueqingConfig
    variants = room_spec.YUEQING_VARIANTS
    room_params = room_spec.YUEQING_PARAMS + TABLE_PARAMS  # + chat, spectators

    # -- construction -------------------------------------------------------------------------
    def config_from_params(self, params: dict[str, Any]) -> YueqingConfig:
        params = dict(params)
        for alias in ("起胡台數", "起胡臺數", "qi_hu"):
            if alias in params and "qi_hu_tai" not in params:
                params["qi_hu_tai"] = params[alias]
        if "底" in params and "base" not in params:
            params["base"] = params["底"]
        if "base" not in params and params.get("base_score") is not None:
            params["base"] = params["base_score"]  # the room's 底分 is the 底
        config: YueqingConfig = super().config_from_params(params)  # 起胡台數 0–30 checked there
        if config.qi_hu_tai < 0 or config.base < 1 or config.lao_zhuang < 0:
            raise ValueError("qi_hu_tai ≥ 0, base ≥ 1, lao_zhuang ≥ 0")
        return config

    def hand_size(self, config: Any) -> int:
        return 16

    def reserve(self, state: State) -> int:
        return 16

    def pre_deal(
        self, config: Any, seed: str, wall: list[str], dealer: int
    ) -> tuple[list[str], dict[str, Any]]:
        """骰子 / 開牌: two throws of two dice from ``Chance(seed, "dice")``; the wall is read from
        the opening 墩 (front = draws), its back is the 墩 before it (where the 明牌 lies)."""
        seats = self.max_seats  # always four (new_game refuses any other count)
        dice = Chance(seed, "dice")
        d1 = [dice.below(6) + 1, dice.below(6) + 1]
        thrower = (dealer + sum(d1) - 1) % seats
        d2 = [dice.below(6) + 1, dice.below(6) + 1]
        stacks = len(wall) // 2
        side = stacks // seats
        # sides clockwise from the dealer's: the seat before in the order of play is next
        start = (((dealer - thrower) % seats) * side + sum(d1) + sum(d2)) % stacks
        opened = wall[2 * start :] + wall[: 2 * start]
        return opened, {"dice": {"first": d1, "thrower": thrower, "second": d2, "open": start}}

    def new_game(self, config: Any, seed: str, seats: int) -> State:
        """The core's deal (with the dice of ``pre_deal``), then the public 明牌 states."""
        state = super().new_game(config, seed, seats)
        self._update_ming(state)
        return state

    def setup(self, state: State, config: Any) -> list[Event]:
        indicator = state.wall.pop()  # the bottom tile of the 墩 before the opening
        caishen = next_kind(indicator)
        flower = "J1" if BAI in (_k(caishen), _k(indicator)) else "J3"
        state.vars.update(
            {
                "set_aside": [indicator],
                "indicator": indicator,
                "wild": [caishen],
                "flower_kind": flower,
                "ming": [None] * state.seats,  # 明牌 state per seat (public)
                "bihu": None,  # the first seat in a 明牌 state
                "chi_forbid": [None] * state.seats,  # 不能亂吐: the tile barred right after a 吃
                "luantu": None,  # [seat, discard_count] of a 亂吐 discard
                "dandiao_discard": [None] * state.seats,  # the last discard made while 單吊
                "jianpai": [[] for _ in range(state.seats)],  # seats B: the 明牌 seats A passed
            }
        )
        return []

    def tile_is_flower(self, state: State, tile: str) -> bool:
        return tile == state.vars.get("flower_kind") or tile == state.vars.get("indicator")

    # -- public 明牌 states and 包 bookkeeping --------------------------------------------------
    def counts_public(self, state: State, seat: int) -> tuple[int, int]:
        """(杠頭, 白板 flowers) exposed by the seat."""
        fl = state.flowers[seat]
        return fl.count(state.vars["indicator"]), fl.count(state.vars["flower_kind"])

    def ming_state(self, state: State, seat: int, hand_len: int | None = None) -> str | None:
        """The seat's 明牌 state from what is face up (暗杠 / concealed pungs not counted)."""
        gangtou, flowers = self.counts_public(state, seat)
        caishen = _k(self.caishen(state))
        exposed = [
            _k(m["tiles"][0])
            for m in state.melds[seat]
            if m["kind"] in ("peng", "minggang", "jiagang")
        ]
        wind = 27 + self.seat_wind(state, seat)
        n_len = len(state.hands[seat]) if hand_len is None else hand_len
        if gangtou >= 3:
            return "sangangtou"
        meiren = (
            state.vars["flower_kind"] == "J3"
            and caishen not in (ZHONG, FA, BAI)
            and ZHONG in exposed
            and FA in exposed
        )
        if meiren and flowers >= 4:
            return "simeiren"
        if flowers >= 4:
            return "sibaiban"
        if meiren and flowers == 3:
            return "sanmeiren"
        if all(w in exposed for w in range(27, 31)):
            return "sifengqi"
        tai = gangtou + flowers + sum(1 for k in exposed if k in (wind, ZHONG, FA) and k != caishen)
        if tai >= 6:
            return "liutai"
        if len(state.melds[seat]) == 5 and n_len == 1:
            return "dandiao"
        return None

    def _update_ming(
        self, state: State, seat: int | None = None, hand_len: int | None = None
    ) -> None:
        for s in range(state.seats):
            if state.vars["ming"][s] is not None:
                continue
            name = self.ming_state(state, s, hand_len if s == seat else None)
            if name:
                state.vars["ming"][s] = {"state": name, "discarded": False, "first": None}
                if state.vars["bihu"] is None:
                    state.vars["bihu"] = s

    def _apply_action(self, state: State, seat: int, action: Action) -> list[Event]:
        events = super()._apply_action(state, seat, action)
        self._update_ming(state)
        return events

    def _discard(self, state: State, seat: int, tile: str) -> list[Event]:
        v = state.vars
        n = state.discard_count + 1
        if v["chi_forbid"][seat] is not None and v["chi_forbid"][seat] == tile:
            v["luantu"] = [seat, n]
        v["chi_forbid"][seat] = None
        if len(state.hands[seat]) == 2:  # 單吊 after this discard
            v["dandiao_discard"][seat] = tile
        self._update_ming(state, seat, len(state.hands[seat]) - 1)
        ming = v["ming"][seat]
        if ming is not None and not ming["discarded"]:
            ming["discarded"] = True
            ming["first"] = n
        return super()._discard(state, seat, tile)

    def _make_meld(
        self, state: State, seat: int, src: int, tile: str, action: Action
    ) -> list[Event]:
        if action["type"] == "chi":
            # 不能亂吐: 234 + 吃5 → 2 barred; 吃 the middle tile bars nothing
            low = min(_k(t) for t in action["tiles"] + [tile])
            claimed = _k(tile)
            pos = low % 9
            barred = None
            if claimed == low + 2 and pos >= 1:
                barred = KINDS[low - 1]
            elif claimed == low and pos + 3 <= 8:
                barred = KINDS[low + 3]
            state.vars["chi_forbid"][seat] = barred
        return super()._make_meld(state, seat, src, tile, action)

    def _apply_claim(self, state: State, seat: int, action: Action) -> list[Event]:
        claim = state.claim or {}
        jp = state.vars["jianpai"]
        before = list(jp[seat])
        if action.get("type") == "pass" and {"type": "hu"} in claim["options"][seat]:
            for a, m in enumerate(state.vars["ming"]):
                if a != seat and m is not None and m["discarded"] and a not in jp[seat]:
                    jp[seat].append(a)
        try:
            return super()._apply_claim(state, seat, action)
        except IllegalAction:
            jp[seat] = before
            raise

    # -- the win ------------------------------------------------------------------------------
    def caishen(self, state: State) -> str:
        return str(state.vars["wild"][0])

    def evaluate_win(self, state: State, ctx: WinContext) -> dict[str, Any] | None:
        if not self.shape_wins(state, ctx):
            return None
        cfg: YueqingConfig = self.cfg(state)
        best = self._best_reading(state, ctx)
        if best is None:
            return None
        ok = best["total"] >= cfg.qi_hu_tai
        best["ok"] = ok
        best["reason"] = "" if ok else f"{best['total']} 台 < 起胡台數 {cfg.qi_hu_tai}"
        return best

    def _bihu_applies(self, state: State, ctx: WinContext, tianhu: bool, dihu: bool) -> bool:
        owner = state.vars["bihu"]
        if owner is None or owner == ctx.seat or tianhu or dihu:
            return False
        ming = state.vars["ming"][owner]
        # 形成明牌時打出的第一張被別人胡了: exempt
        return not (
            not ctx.self_drawn
            and not ctx.rob_kong
            and ctx.from_seat == owner
            and ming is not None
            and ming["first"] == state.discard_count
        )

    def _best_reading(self, state: State, ctx: WinContext) -> dict[str, Any] | None:
        seat = ctx.seat
        wild = self.wild_kinds(state)
        caishen = _k(self.caishen(state))
        concealed = list(ctx.concealed) + ([ctx.tile] if ctx.tile_is_wild else [])
        naturals = [t for t in concealed if t not in wild]
        n_wild = len(concealed) - len(naturals)
        if not ctx.tile_is_wild:
            naturals.append(ctx.tile)
        counts = counts_of(naturals)
        sets_needed = self.sets_needed(state, seat)
        meld_sets = [
            ("chow" if m["kind"] == "chi" else "pung", _k(m["tiles"][0]), 0)
            for m in state.melds[seat]
        ]
        meld_kinds = [_k(t) for m in state.melds[seat] for t in m["tiles"]]
        gangtou, flowers = self.counts_public(state, seat)
        wind = 27 + self.seat_wind(state, seat)
        single = None
        if len(ctx.concealed) == 1:
            single = "wild" if ctx.concealed[0] in wild else "natural"
        tianhu = (
            ctx.self_drawn
            and seat == state.dealer
            and state.discard_count == 0
            and not any(state.melds)
        )
        dihu = (
            not ctx.self_drawn
            and not ctx.rob_kong
            and ctx.from_seat == state.dealer
            and state.discard_count == 1
            and state.claims_made == 0
        )
        bihu = self._bihu_applies(state, ctx, tianhu, dihu)
        win_k = _k(ctx.tile)
        only_chi = all(m["kind"] == "chi" for m in state.melds[seat])
        room = self._wild_room(state, ctx, counts)
        best: dict[str, Any] | None = None
        # Sorted: a frozenset's order follows string hashing, which differs per process, and of
        # two readings worth the same the first one shows its items — the same hand must list
        # the same lines in every process (a replay, a second server).
        for dec in sorted(decompositions(counts, n_wild, sets_needed)):
            used = [0] * 34  # what the 財神 of the fixed groups stand for
            for _, _, wild_as in dec:
                for k in wild_as:
                    used[k] += 1
            if any(used[k] > room[k] for k in range(34)):
                continue  # a fifth copy, a 杠頭 or a flower: no such tile
            fixed: list[tuple[str, int, int]] = []
            pair = -1
            pair_wilds = 0
            guiwei = 0
            free_sets = 0
            free_pair = False
            kinds = [k for k, c in enumerate(counts) for _ in range(c)] + meld_kinds
            chows_with_win: list[int] = []
            for kind, ks, wild_as in dec:
                guiwei += sum(1 for k in wild_as if k == caishen)
                kinds += list(wild_as)
                if kind == "pair":
                    pair, pair_wilds = ks[0], len(wild_as)
                elif kind == "free_pair":
                    free_pair = True
                elif kind == "free_set":
                    free_sets += 1
                else:
                    fixed.append((kind, ks[0], len(wild_as)))
                    if kind == "chow" and win_k in ks and win_k not in wild_as:
                        chows_with_win.append(ks[0])
            pinghu = False
            if (
                n_wild == 0
                and only_chi
                and not any(k == "pung" for k, _, _ in fixed)
                and pair not in (wind, ZHONG, FA)
            ):
                for low in chows_with_win:
                    pos = low % 9
                    if (win_k == low and pos + 3 <= 8) or (win_k == low + 2 and pos >= 1):
                        pinghu = True
            # Groups made only of 財神 may be read as any group (RULES-NOTES §8 #10): a free
            # pair as no kind in particular (-1) or a pair of any kind there are two more
            # copies of, a free set (三財神刻) as no kind in particular (-1) or a pung of any
            # kind with three more copies. Whatever kind it stands for, the free pair is still
            # two 財神 as the pair — 財神做牛, "財神一對作將" — so it keeps its two wilds. A
            # chow of 財神 never counts more than a pung of its suit, so it is not tried.
            # (pair kind, wilds in the pair) / (set kind,):
            left = [room[k] - used[k] for k in range(34)]
            pair_choices = (
                [(-1, 2)] + [(k, 2) for k in range(34) if left[k] >= 2]
                if free_pair
                else [(pair, pair_wilds)]
            )
            set_opts = [(-1,)] + [(k,) for k in range(34) if left[k] >= 3]
            for (p_kind, p_w), set_kinds in product(
                pair_choices, product(set_opts, repeat=free_sets)
            ):
                if free_pair or free_sets > 1:
                    need = [0] * 34
                    if free_pair and p_kind >= 0:
                        need[p_kind] += 2
                    for sk in set_kinds:
                        if sk[0] >= 0:
                            need[sk[0]] += 3
                    if any(need[k] > left[k] for k in range(34)):
                        continue
                sets = fixed + meld_sets + [("pung", sk[0], 3) for sk in set_kinds]
                all_kinds = kinds + [sk[0] for sk in set_kinds if sk[0] >= 0]
                if p_kind >= 0 and free_pair:
                    all_kinds += [p_kind, p_kind]
                facts = Facts(
                    sets=sets,
                    pair=p_kind,
                    pair_wilds=p_w,
                    kinds=all_kinds,
                    caishen=caishen,
                    n_caishen=n_wild,
                    guiwei=guiwei,
                    seat_wind=wind,
                    flower_kind=_k(state.vars["flower_kind"]),
                    flowers=flowers,
                    gangtou=gangtou,
                    self_drawn=ctx.self_drawn,
                    after_kong=ctx.self_drawn and ctx.after_kong,
                    rob_kong=ctx.rob_kong,
                    single_before=single,
                    win_is_caishen=ctx.tile_is_wild,
                    win_same_as_single=(
                        single == "natural"
                        and not ctx.tile_is_wild
                        and ctx.tile == ctx.concealed[0]
                    ),
                    pinghu_wait=pinghu,
                    tianhu=tianhu,
                    dihu=dihu,
                    sancaishen_ke=free_sets > 0 and n_wild >= 3,
                )
                items, n, m = tai_items(facts)
                if bihu:
                    items, n, m = bi_hu_limit(items)
                value = tai_value(n, m)
                key = (value, -len(items))
                if best is None or key > best["_key"]:
                    best = {
                        "_key": key,
                        "total": value,
                        "n": n,
                        "m": m,
                        "bihu": bihu,
                        "items": [{"key": k, "name": nm, "value": v} for k, nm, v in items],
                    }
        if best is None:
            return None
        best.pop("_key")
        return best

    def _wild_room(self, state: State, ctx: WinContext, counts: tuple[int, ...]) -> list[int]:
        """How many 財神 may stand for each kind: "a 財神 never stands for a tile that cannot
        exist" (RULES-NOTES §8 #10) — not a fifth copy (the hand with a natural winning tile,
        every seat's melds and every river counted), not the 明牌 kind (its other copies are
        杠頭, out of play), not the flower kind. A 財神 as its own kind is itself: no limit."""
        seen = list(counts)
        for seat_melds in state.melds:
            for m in seat_melds:
                for t in m["tiles"]:
                    seen[_k(t)] += 1
        for river in state.discards:
            for t in river:
                seen[_k(t)] += 1
        if not ctx.self_drawn and not ctx.rob_kong:
            seen[_k(ctx.tile)] -= 1  # the discard won on lies in the river and in ``counts``
        room = [max(0, 4 - n) for n in seen]
        room[_k(state.vars["indicator"])] = 0
        room[_k(state.vars["flower_kind"])] = 0
        room[_k(self.caishen(state))] = 4
        return room

    # -- the end ------------------------------------------------------------------------------
    def next_dealer(self, state: State) -> int:
        out = state.outcome or {}
        if out.get("type") == "win":
            return state.dealer if state.dealer in out["winners"] else (state.dealer + 1) % 4
        kong = any(m["kind"] in ("minggang", "angang", "jiagang") for ms in state.melds for m in ms)
        return (state.dealer + 1) % state.seats if kong else state.dealer

    def next_lao_zhuang(self, state: State) -> int:
        cfg: YueqingConfig = self.cfg(state)
        out = state.outcome or {}
        nxt = out.get("next_dealer", state.dealer)
        if nxt != state.dealer:
            return 0
        if out.get("type") == "win":
            return cfg.lao_zhuang + 1
        return cfg.lao_zhuang  # 流局: "牢莊數不變"

    def liable(self, state: State, w: int, ev: dict[str, Any]) -> tuple[int | None, str]:
        """包牌 with the text's priority: 四手 > 見牌胡 > 亂吐 > 單吊形成 = 點炮成明翻."""
        cfg: YueqingConfig = self.cfg(state)
        out = state.outcome or {}
        src = None if out.get("self_drawn") else out.get("from")
        # d 吃碰杠四手 (15臺起胡房間無效)
        if cfg.qi_hu_tai < 15:
            by: dict[int, int] = {}
            for m in state.melds[w]:
                if m["from"] is not None:
                    by[m["from"]] = by.get(m["from"], 0) + 1
            for b, n in sorted(by.items()):
                if n >= 4:
                    return b, "sishou"
        # e 見牌胡: w is a 明牌 seat that has discarded since; b passed a win meanwhile
        ming = state.vars["ming"][w]
        if ming is not None and ming["discarded"]:
            for b in range(state.seats):
                if b != w and w in state.vars["jianpai"][b]:
                    return b, "jianpai"
        if src is None or out.get("rob_kong"):
            return None, ""
        # c 不能亂吐
        lt = state.vars["luantu"]
        if lt is not None and lt[0] == src and lt[1] == state.discard_count:
            return src, "luantu"
        tile = out["tile"]
        # a 單吊形成
        d = state.vars["dandiao_discard"][w]
        if d is not None and len(state.hands[w]) == 1:
            if d[0] in "FJ":
                if tile == d:
                    return src, "dandiao"
            elif tile[0] == d[0] and abs(int(tile[1]) - int(d[1])) <= 2:
                return src, "dandiao"
        # b 點炮成明翻的牌: the discard completed a 三美人 / 四美人 / 四風齊 shown on the table
        keys = {it["key"] for it in ev["items"]}
        # a 暗杠 is not shown: only 碰 / 明杠 / 加杠 are exposed (RULES-NOTES §8 #13)
        exposed = {
            m["tiles"][0] for m in state.melds[w] if m["kind"] in ("peng", "minggang", "jiagang")
        }
        if keys & {"sanmeiren", "simeiren"} and tile in ("J1", "J2"):
            other = "J2" if tile == "J1" else "J1"
            if other in exposed:
                return src, "mingfan"
        if "sifengqi" in keys and tile[0] == "F":
            if all(f"F{i}" in exposed for i in range(1, 5) if f"F{i}" != tile):
                return src, "mingfan"
        return None, ""

    def hua_of(self, state: State, seat: int, *, public: bool = False) -> list[tuple[str, int]]:
        """【花數計算】 of a seat. ``public``: only what the other seats can see (no 財神 or
        刻子 in the hand; a 暗杠 as a plain 暗杠, its kind being hidden)."""
        gangtou, flowers = self.counts_public(state, seat)
        wild = self.wild_kinds(state)
        hand = state.hands[seat]
        caishen_held = sum(1 for t in hand if t in wild)
        naturals = [t for t in hand if t not in wild]
        out = state.outcome or {}
        if (
            out.get("type") == "win"
            and seat in out["winners"]
            and not out["self_drawn"]
            and not public
        ):
            # the tile won on is part of the winner's hand (a 財神 claimed so is a natural tile)
            naturals.append(out["tile"])
        counts = counts_of(naturals)
        melds = [(m["kind"], _k(m["tiles"][0])) for m in state.melds[seat]]
        if public:
            melds = [(kind, -1 if kind == "angang" else k) for kind, k in melds]
        return hua_count(
            gangtou=gangtou,
            flowers=flowers,
            caishen_held=0 if public else caishen_held,
            melds=melds,
            concealed_pungs=[] if public else [k for k, c in enumerate(counts) if c >= 3],
            seat_wind=27 + self.seat_wind(state, seat),
            caishen=_k(self.caishen(state)),
        )

    def _hua_part(
        self,
        state: State,
        base: int,
        lines: list[ResultLine],
        payments: list[dict[str, Any]],
        scores: list[int],
    ) -> list[int]:
        hua = []
        for s in range(state.seats):
            items = self.hua_of(state, s)
            total = sum(v for _, v in items)
            hua.append(total)
            for label, v in items:
                lines.append(ResultLine(f"座{s} 花 {label}", f"{v}花", s))
            if total:
                lines.append(
                    ResultLine(f"座{s} 總花 = 平方花", f"{total}² = {total * total} × 3家", s)
                )
        net = hua_settlement(hua)
        for i in range(state.seats):
            if not hua[i]:
                continue
            for j in range(state.seats):
                if j != i:
                    pts = hua[i] * hua[i] * base
                    payments.append({"from": j, "to": i, "points": pts, "kind": "hua"})
        for s in range(state.seats):
            scores[s] += net[s] * base
            if net[s]:
                lines.append(ResultLine(f"座{s} 花 結算", f"{net[s] * base:+d}", s))
        return hua

    def settle(self, state: State) -> Result:
        cfg: YueqingConfig = self.cfg(state)
        out = state.outcome or {}
        n = state.seats
        scores = [0] * n
        lines: list[ResultLine] = []
        payments: list[dict[str, Any]] = []
        extra: dict[str, Any] = {
            "base": cfg.base,
            "qi_hu_tai": cfg.qi_hu_tai,
            "caishen": self.caishen(state),
            "indicator": state.vars["indicator"],
            "lao_zhuang": cfg.lao_zhuang,
            "next_dealer": out.get("next_dealer", state.dealer),
            "next_lao_zhuang": self.next_lao_zhuang(state),
        }
        winners: tuple[int, ...] = ()
        if out.get("type") == "win":
            winners = tuple(out["winners"])
            extra["tai"] = []
            for w, ev in zip(out["winners"], out["evals"]):
                for it in ev["items"]:
                    lines.append(ResultLine(it["name"], f"{it['value']}台", w))
                if not ev["items"]:
                    lines.append(ResultLine("屁胡", "0台", w))  # a、零臺：沒臺數的胡
                if ev["bihu"]:
                    lines.append(ResultLine("逼胡", f"座{state.vars['bihu']} 明牌", w))
                tai = ev["total"]
                lines.append(ResultLine("臺數", f"N={ev['n']} M={ev['m']} → {tai}台", w))
                liable, why = self.liable(state, w, ev)
                shares = []
                for s in range(n):
                    if s == w:
                        continue
                    if w == state.dealer:
                        pts = tai + cfg.lao_zhuang + 1  # 莊家胡：臺數+牢莊+1
                    else:
                        pts = tai + 1 + (1 if s == state.dealer else 0)
                    shares.append((s, pts * cfg.base))
                for s, pts in shares:
                    payer = liable if liable is not None else s
                    scores[payer] -= pts
                    scores[w] += pts
                    payments.append(
                        {
                            "from": payer,
                            "to": w,
                            "points": pts,
                            "kind": "hu",
                            "share_of": s,
                            "bao": why or None,
                        }
                    )
                    if liable is None:
                        lines.append(ResultLine(f"座{s} → 座{w}", str(pts), s))
                if liable is not None:
                    total = sum(p for _, p in shares)
                    lines.append(
                        ResultLine(f"包牌 ({BAO_NAMES[why]})", f"座{liable} 付 {total}", liable)
                    )
                extra["tai"].append(
                    {
                        "seat": w,
                        "items": ev["items"],
                        "n": ev["n"],
                        "m": ev["m"],
                        "total": tai,
                        "bihu": ev["bihu"],
                        "bao": liable,
                        "bao_reason": why or None,
                    }
                )
        else:
            lines.append(ResultLine("流局", "0"))
        extra["hua"] = self._hua_part(state, cfg.base, lines, payments, scores)
        extra["payments"] = payments
        return Result(scores=tuple(scores), winners=winners, lines=tuple(lines), extra=extra)

    def escape_result(self, state: State, seat: int) -> Result:
        """逃跑: each other seat gets its best 胡倒翻臺類型 × 底 and 底 × 10; 花 as on 流局."""
        cfg: YueqingConfig = self.cfg(state)
        if not 0 <= seat < state.seats:
            raise IllegalAction(ErrorCode.MALFORMED, "no such seat")
        wild = self.wild_kinds(state)
        caishen = _k(self.caishen(state))
        scores = [0] * state.seats
        lines = [ResultLine("逃跑", f"座{seat}", seat)]
        payments: list[dict[str, Any]] = []
        for s in range(state.seats):
            if s == seat:
                continue
            gangtou, flowers = self.counts_public(state, s)
            name, tai = escape_best(
                concealed=[_k(t) for t in state.hands[s] if t not in wild],
                caishen_count=sum(1 for t in state.hands[s] if t in wild),
                melds=[(m["kind"], _k(m["tiles"][0])) for m in state.melds[s]],
                flowers=flowers,
                gangtou=gangtou,
                seat_wind=27 + self.seat_wind(state, s),
                flower_kind=_k(state.vars["flower_kind"]),
                caishen=caishen,
            )
            pts = (tai + cfg.escape_multiple) * cfg.base
            scores[s] += pts
            scores[seat] -= pts
            payments.append(
                {"from": seat, "to": s, "points": pts, "kind": "escape", "tai": tai, "type": name}
            )
            lines.append(
                ResultLine(f"座{s} {name}", f"{tai}台 + 底×{cfg.escape_multiple} = {pts}", s)
            )
        self._hua_part(state, cfg.base, lines, payments, scores)
        return Result(
            scores=tuple(scores),
            winners=(),
            lines=tuple(lines),
            extra={"payments": payments, "escape": seat},
        )

    def variant_view(self, state: State, seat: int | None) -> dict[str, Any]:
        cfg: YueqingConfig = self.cfg(state)
        public = []
        for s in range(state.seats):
            gangtou, flowers = self.counts_public(state, s)
            m = state.vars["ming"][s]
            full = state.phase == "over" or s == seat
            public.append(
                {
                    "gangtou": gangtou,
                    "baiban": flowers,
                    "ming": None if m is None else MING_NAMES[m["state"]],
                    "hua": sum(v for _, v in self.hua_of(state, s, public=not full)),
                    "hua_full": full,
                }
            )
        return {
            "caishen": self.caishen(state),
            "indicator": state.vars["indicator"],
            "flower_kind": state.vars["flower_kind"],
            "gangtou_kind": state.vars["indicator"],
            "dice": copy.deepcopy(state.vars.get("dice")),
            "qi_hu_tai": cfg.qi_hu_tai,
            "base": cfg.base,
            "lao_zhuang": cfg.lao_zhuang,
            "bihu": state.vars["bihu"],
            "seats": public,
            "reserve": 16,
            "prevalent_wind_name": WIND_NAMES[cfg.prevalent_wind],
        }


registry.register(YueqingRuleset())

__all__ = ["YueqingConfig", "YueqingRuleset"]
