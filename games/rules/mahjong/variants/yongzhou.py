"""永州麻將 (game id ``mahjong_yongzhou``): 番 as doublings with the 爆胡 cap, on the mahjong core.

Seed 000 (the 永州麻將 sections) with RULES-NOTES §4 and decision 4: a 雞平胡-style game.
Quoted rules and how they are implemented:

* "番是2倍的意思 … 無番設置為一個基數點，1番即在此基數點上*2" — a hand of F 番 is worth
  底 × 2^F points.
* "爆胡（封頂），意思即為多少番為頂，不再疊加番數進行計算，特殊牌除外，比如十三幺，
  可突破爆胡限制，這些特殊牌型不再疊加其他番種" — ``bao_hu`` 3 or 5 picks the table of 記分規則
  (爆胡為3番) or of
  胡牌和記分 (爆和為5番); hands inside the cap add up and stop at the cap; the special (limit)
  hands past the cap count alone at their own value (the highest one when several apply).
* "開設3種規則服務器：3番起和、1番起和、無番起和" — ``qi_hu`` 3 / 1 / 0: a 胡 below it is not
  offered and is refused (``not_allowed``). The add-ons count toward it (RULES-NOTES §4 #3).
* Add-ons "自摸 / 風位 / 風圈 / 三元牌 … +1番，爆胡以外不加番 …
爆胡內牌型加附加牌型不能沖破爆胡的上限".
* "一炮三響 / 杠上開花 / 海底撈月 / 搶杠 … 不滿3番牌型，按照3番滿計算" — floored at the cap
  (RULES-NOTES §4 #5).
* "漏胡 … 玩家A是不能胡那一張的。除非玩家A有進行動牌的情況，動牌的意思在于碰、上、杠、模牌的" — a
  seat that passes a 胡 may not win on *that tile* (discard or 搶槓) until it draws or claims.
* "一炮多響 … 包括莊家在內胡牌，下一輪莊家繼續當莊" — ``multi_win`` on; the core's 連莊.
* 包: "十二張落地包自摸，包先不包後"; 大四喜 / 大三元
"若有人打出余下一款者，那人則需承擔包自模的責任";
  "搶杠胡等同杠開，當自摸，被搶杠者…包三家牌"; "杠上開花包杠 … 點杠者包三家牌"; a discard win is
  paid
  by the discarder alone (decision 4). A liable seat pays all three shares.
* "天和 … 人和：莊家打出的第一張牌，閑家吃和 … 地和：第一圈里閑家自摸的第一張牌" — 6番 each, the
  seed's own (swapped) definitions (RULES-NOTES §4 #6), specials outside the cap.

Glossary 中文 ↔ identifier: 爆胡 bao_hu · 起和 qi_hu · 底 base · 番 fans · 雞胡 jihu · 平胡 pinghu ·
碰碰胡 pengpeng · 混一色 hunyise · 清一色 qingyise · 混碰 hunpeng · 清碰 qingpeng · 混幺九
hunyaojiu · 清幺九 qingyaojiu · 小三元 xiaosanyuan · 大三元 dasanyuan · 小四喜 xiaosixi · 大四喜
dasixi · 字一色 ziyise · 九蓮寶燈 jiulian · 十三幺 shisanyao · 天和 tianhu · 人和 renhu · 地和 dihu
·
門風刻 menfeng · 圈風刻 quanfeng · 三元刻 sanyuan · 包 bao (liable seat) · 十二張落地 luodi12 ·
漏胡 lou_hu · 一炮三響 three winners on one discard · 風圈 prevalent_wind · 起莊 first_dealer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import TABLE_PARAMS, ParamError
from games.engine.protocol import Action, Event, Result, ResultLine
from games.rules.mahjong import bot as botlib
from games.rules.mahjong import params as room_spec
from games.rules.mahjong.core import WIND_NAMES, CoreConfig, MahjongRuleset, State, WinContext
from games.rules.mahjong.tiles import KIND_INDEX, TERMINALS_HONOURS, counts_of
from games.rules.mahjong.variants.yongzhou_hands import decompositions

FAN_NAMES = {
    "jihu": "雞胡",
    "pinghu": "平胡",
    "pengpeng": "碰碰胡",
    "hunyise": "混一色",
    "hunpeng": "混碰",
    "qingyise": "清一色",
    "qingpeng": "清碰",
    "hunyaojiu": "混幺九",
    "xiaosanyuan": "小三元",
    "xiaosixi": "小四喜",
    "ziyise": "字一色",
    "qingyaojiu": "清幺九",
    "dasanyuan": "大三元",
    "dasixi": "大四喜",
    "jiulian": "九蓮寶燈",
    "shisanyao": "十三幺",
    "tianhu": "天和",
    "renhu": "人和",
    "dihu": "地和",
    "zimo": "自摸",
    "menfeng": "門風刻",
    "quanfeng": "圈風刻",
    "sanyuan": "三元刻",
}

# 記分規則 (爆胡為3番) and 胡牌和記分 (爆和為5番): the hands inside the cap, and the specials.
WITHIN: dict[int, dict[str, int]] = {
    3: {"pinghu": 1, "pengpeng": 2, "hunyise": 2},
    5: {"pinghu": 1, "pengpeng": 3, "hunyise": 3, "hunpeng": 5, "qingyise": 5},
}
SPECIAL: dict[int, dict[str, int]] = {
    3: {
        "qingyise": 4,
        "hunpeng": 4,
        "qingpeng": 5,
        "hunyaojiu": 5,
        "xiaosanyuan": 5,
        "xiaosixi": 5,
        "ziyise": 6,
        "qingyaojiu": 6,
        "dasanyuan": 6,
        "dasixi": 6,
        "jiulian": 6,
        "shisanyao": 6,
        "tianhu": 6,
        "renhu": 6,
        "dihu": 6,
    },
    # 九蓮寶燈 is not in the 5番 table: the limit tier of 十三幺 (RULES-NOTES §4 #1)
    5: {
        "qingpeng": 6,
        "hunyaojiu": 6,
        "xiaosanyuan": 7,
        "xiaosixi": 7,
        "ziyise": 8,
        "qingyaojiu": 8,
        "dasanyuan": 9,
        "dasixi": 9,
        "shisanyao": 9,
        "jiulian": 9,
        "tianhu": 6,
        "renhu": 6,
        "dihu": 6,
    },
}
QI_HU_ALIASES = {
    "3番起和": 3,
    "1番起和": 1,
    "無番起和": 0,
    "无番起和": 0,
    "一番起和": 1,
    "三番起和": 3,
}
_WINDS = range(27, 31)
_DRAGONS = range(31, 34)
_YAOJIU = frozenset(TERMINALS_HONOURS)


@dataclass(frozen=True, slots=True)
class YongzhouConfig(CoreConfig):
    """Room options of 永州麻將 (decision 4)."""

    multi_win: bool = True  # 一炮多響 "允許一炮多響"
    lou_hu: bool = True  # 漏胡 on the same tile until 動牌
    bao_hu: int = 5  # 爆胡 cap: 3 or 5, each with its own table
    qi_hu: int = 0  # 起和: 3 / 1 / 0 番 (the three servers)
    base: int = 1  # 底: the points of a 0-番 hand
    # 起莊: the seat that dealt the first hand (the 圈 turns when the deal comes back to it);
    # -1 = this hand's dealer (the first hand); the result hands it on as next_first_dealer
    first_dealer: int = -1


def _fan(name: str, value: int, kind: str) -> dict[str, Any]:
    return {"key": name, "name": FAN_NAMES[name], "value": value, "kind": kind}


class YongzhouRuleset(MahjongRuleset):
    """永州麻將."""

    game_id: ClassVar[str] = "mahjong_yongzhou"
    title: ClassVar[str] = "永州麻將"
    config_cls: ClassVar[type] = YongzhouConfig
    variants = room_spec.YONGZHOU_VARIANTS
    room_params = room_spec.YONGZHOU_PARAMS + TABLE_PARAMS  # + chat, spectators

    # -- construction -------------------------------------------------------------------------
    def config_from_params(self, params: dict[str, Any]) -> YongzhouConfig:
        params = dict(params)
        # the room's 玩法 is its 爆胡 cap (bao5 / bao3) unless bao_hu says otherwise
        if params.get("variant") in ("bao5", "bao3") and "bao_hu" not in params:
            params["bao_hu"] = int(params["variant"][-1])
        for key in ("qi_hu", "qi_he", "起和"):
            if isinstance(params.get(key), str) and params[key] in QI_HU_ALIASES:
                params[key] = QI_HU_ALIASES[params[key]]
        if "qi_he" in params and "qi_hu" not in params:
            params["qi_hu"] = params["qi_he"]
        if "bao_he" in params and "bao_hu" not in params:
            params["bao_hu"] = params["bao_he"]
        if "底" in params and "base" not in params:
            params["base"] = params["底"]
        if "base" not in params and params.get("base_score") is not None:
            params["base"] = params["base_score"]  # the room's 底分 is the 底
        config: YongzhouConfig = super().config_from_params(params)
        if config.bao_hu not in (3, 5):
            raise ValueError("bao_hu (爆胡) is 3 or 5")
        if config.qi_hu not in (0, 1, 3):
            raise ValueError("qi_hu (起和) is 0, 1 or 3")
        if config.qi_hu > config.bao_hu:
            raise ParamError("qi_hu", f"起和 {config.qi_hu} 番高於爆胡封頂 {config.bao_hu} 番")
        if config.base < 1:
            raise ValueError("base (底) is at least 1")
        if not -1 <= config.first_dealer < 4:
            raise ValueError("first_dealer (起莊) is a seat, or -1 for this hand's dealer")
        return config

    def shapes(self, config: Any) -> frozenset[str]:
        return frozenset({"shisanyao"})

    def _shanten_of(self, state: State, seat: int, tiles: list[str], melds_extra: int = 0) -> int:
        # the regular shape only: PyMahjongGB's count would steer the bot toward 七對 / 全不靠,
        # which do not win here (十三幺 is rare enough to leave to chance)
        sets = self.sets_needed(state, seat) - melds_extra
        return botlib.shanten(list(tiles), 0, (), sets, False)

    def setup(self, state: State, config: Any) -> list[Event]:
        state.vars["lou_hu"] = [[] for _ in range(state.seats)]  # tiles passed since 動牌
        state.vars["bao"] = [None] * state.seats  # 包自摸: the liable seat and why
        return []

    # -- 漏胡 and 包 bookkeeping ---------------------------------------------------------------
    def _may_win_here(self, state: State, seat: int) -> bool:
        # the core's 漏胡 bars every tile until a draw; ours is per tile (in evaluate_win)
        return self.may_win_on_discard(state, seat)

    def _apply_claim(self, state: State, seat: int, action: Action) -> list[Event]:
        claim = state.claim or {}
        lou = state.vars["lou_hu"]
        before = list(lou[seat])
        if (
            action.get("type") == "pass"
            and {"type": "hu"} in claim["options"][seat]
            and claim["tile"] not in lou[seat]
        ):
            lou[seat].append(claim["tile"])
        try:
            return super()._apply_claim(state, seat, action)
        except IllegalAction:
            lou[seat] = before
            raise

    def _explain_bad_claim(
        self, state: State, seat: int, action: Action, options: list[Action]
    ) -> None:
        claim = state.claim or {}
        if action["type"] == "hu" and claim["tile"] in state.vars["lou_hu"][seat]:
            raise IllegalAction(
                ErrorCode.NOT_ALLOWED,
                f"漏胡: {claim['tile']} was passed; no 胡 on it until this seat 動牌 (碰/上/杠/摸)",
                {"reason": "passed_win"},
            )
        super()._explain_bad_claim(state, seat, action, options)

    def _draw(self, state: State, seat: int, *, back: bool) -> list[Event]:
        state.vars["lou_hu"][seat] = []  # 摸牌 is 動牌
        return super()._draw(state, seat, back=back)

    def _make_meld(
        self, state: State, seat: int, src: int, tile: str, action: Action
    ) -> list[Event]:
        state.vars["lou_hu"][seat] = []  # 碰 / 上 / 杠 are 動牌
        events = super()._make_meld(state, seat, src, tile, action)
        self._record_bao(state, seat, src, tile)
        return events

    def _record_bao(self, state: State, seat: int, src: int, tile: str) -> None:
        bao = state.vars["bao"]
        if bao[seat] is not None:
            return
        melds = state.melds[seat]
        claimed = [m for m in melds if m["from"] is not None]
        pungs = [m["tiles"][0] for m in melds if m["kind"] != "chi"]
        if tile[0] == "F" and sum(1 for t in pungs if t[0] == "F") == 4:
            bao[seat] = {"from": src, "reason": "dasixi"}
        elif tile[0] == "J" and sum(1 for t in pungs if t[0] == "J") == 3:
            bao[seat] = {"from": src, "reason": "dasanyuan"}
        elif len(claimed) == 4:
            # 包先不包後: a seat already liable for a 十二張落地 is not liable for another
            if any(b is not None and b["from"] == src and b["reason"] == "luodi12" for b in bao):
                return
            bao[seat] = {"from": src, "reason": "luodi12"}

    # -- the win ------------------------------------------------------------------------------
    def evaluate_win(self, state: State, ctx: WinContext) -> dict[str, Any] | None:
        if not self.shape_wins(state, ctx):
            return None
        cfg: YongzhouConfig = self.cfg(state)
        seat = ctx.seat
        if not ctx.self_drawn and ctx.tile in state.vars["lou_hu"][seat] and cfg.lou_hu:
            return {
                "ok": False,
                "total": 0,
                "reason": f"漏胡 on {ctx.tile}",
                "fans": [],
                "special": False,
                "capped": False,
                "floored": False,
            }
        counts = counts_of(ctx.concealed + [ctx.tile])
        sets = self.sets_needed(state, seat)
        melds = state.melds[seat]
        meld_groups = [("chow" if m["kind"] == "chi" else "pung", m["tiles"][0]) for m in melds]
        readings: list[list[tuple[str, int]]] = []
        pair_of: list[int | None] = []
        for dec in decompositions(counts, 0, sets):
            groups: list[tuple[str, int]] = []
            pair = None
            for kind, kinds, _ in dec:
                if kind == "pair":
                    pair = kinds[0]
                else:
                    groups.append((kind, kinds[0]))
            groups += [(k, _kind_index(t)) for k, t in meld_groups]
            readings.append(groups)
            pair_of.append(pair)
        thirteen = sets == 4 and not readings  # only 十三幺 wins otherwise
        all_kinds = [k for k, c in enumerate(counts) for _ in range(c)]
        for m in melds:
            all_kinds += [_kind_index(t) for t in m["tiles"]]
        situational = self._situational(state, ctx)
        best: dict[str, Any] | None = None
        if thirteen:
            best = self._score(cfg, state, ctx, ["shisanyao"], [], situational)
        for groups, pair in zip(readings, pair_of):
            names, addons = self._hand_fans(
                cfg, state, seat, groups, pair, all_kinds, counts, not melds, ctx
            )
            cand = self._score(cfg, state, ctx, names, addons, situational)
            if best is None or cand["total"] > best["total"]:
                best = cand
        assert best is not None
        ok = best["total"] >= cfg.qi_hu
        best["ok"] = ok
        best["reason"] = "" if ok else f"{best['total']} 番 < {cfg.qi_hu}番起和"
        return best

    def _situational(self, state: State, ctx: WinContext) -> dict[str, bool]:
        dealer = state.dealer
        no_melds = not any(state.melds)
        return {
            "tianhu": ctx.self_drawn
            and ctx.seat == dealer
            and state.discard_count == 0
            and no_melds,
            "renhu": not ctx.self_drawn
            and not ctx.rob_kong
            and ctx.from_seat == dealer
            and state.discard_count == 1
            and state.claims_made == 0,
            "dihu": ctx.self_drawn
            and ctx.seat != dealer
            and state.claims_made == 0
            and not state.discards[ctx.seat]
            and no_melds,
            "after_kong": ctx.self_drawn and ctx.after_kong,
            "haidi": ctx.self_drawn and ctx.wall_last,
            "rob_kong": ctx.rob_kong,
        }

    def _hand_fans(
        self,
        cfg: YongzhouConfig,
        state: State,
        seat: int,
        groups: list[tuple[str, int]],
        pair: int | None,
        all_kinds: list[int],
        counts: tuple[int, ...],
        concealed_only: bool,
        ctx: WinContext,
    ) -> tuple[list[str], list[tuple[str, int]]]:
        """The hand names (within and special) and the add-ons of one reading."""
        suits = {k // 9 for k in all_kinds if k < 27}
        honours = any(k >= 27 for k in all_kinds)
        pungs = [k for kind, k in groups if kind == "pung"]
        all_chow = not pungs
        all_pung = len(pungs) == len(groups)
        names: list[str] = []
        if all_chow:
            names.append("pinghu")
        if all_pung:
            names.append("pengpeng")
        if len(suits) == 1 and honours:
            names.append("hunyise")
        if len(suits) == 1 and not honours:
            names.append("qingyise")
        if not suits:
            names.append("ziyise")
        if "pengpeng" in names and "hunyise" in names:
            names.append("hunpeng")
        if "pengpeng" in names and "qingyise" in names:
            names.append("qingpeng")
        if all(k in _YAOJIU for k in all_kinds):
            if honours and suits:
                names.append("hunyaojiu")
            elif not honours:
                names.append("qingyaojiu")
        dragons = sum(1 for k in pungs if k in _DRAGONS)
        winds = sum(1 for k in pungs if k in _WINDS)
        if dragons == 3:
            names.append("dasanyuan")
        elif dragons == 2 and pair in _DRAGONS:
            names.append("xiaosanyuan")
        if winds == 4:
            names.append("dasixi")
        elif winds == 3 and pair in _WINDS:
            names.append("xiaosixi")
        if concealed_only and len(suits) == 1 and not honours:
            base = min(k for k in all_kinds) // 9 * 9
            c = counts[base : base + 9]
            if c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8]):
                names.append("jiulian")
        addons: list[tuple[str, int]] = []
        if ctx.self_drawn or ctx.rob_kong:  # 搶杠胡 "當自摸"
            addons.append(("zimo", 1))
        if 27 + self.seat_wind(state, seat) in pungs:
            addons.append(("menfeng", 1))
        if 27 + cfg.prevalent_wind in pungs:
            addons.append(("quanfeng", 1))
        for _ in range(dragons):
            addons.append(("sanyuan", 1))
        return names, addons

    def _score(
        self,
        cfg: YongzhouConfig,
        state: State,
        ctx: WinContext,
        names: list[str],
        addons: list[tuple[str, int]],
        situational: dict[str, bool],
    ) -> dict[str, Any]:
        cap = cfg.bao_hu
        special_table = SPECIAL[cap]
        specials = [n for n in names if n in special_table]
        specials += [n for n in ("tianhu", "renhu", "dihu") if situational[n]]
        hand_names = [n for n in names if n in FAN_NAMES]
        if specials:
            top = max(specials, key=lambda n: special_table[n])
            value = special_table[top]
            # RULES-NOTES §4 #12: the hand keeps the 包 rules of every special it is
            # (``specials``), whichever one names it (``limit``)
            return {
                "total": value,
                "special": True,
                "capped": False,
                "floored": False,
                "fans": [_fan(top, value, "special")],
                "hands": hand_names,
                "limit": top,
                "specials": specials,
            }
        within = WITHIN[cap]
        fans = []
        if "hunpeng" in names and "hunpeng" in within:
            fans.append(_fan("hunpeng", within["hunpeng"], "hand"))
            skip = {"hunyise", "pengpeng"}
        else:
            skip = set()
        for n in ("pinghu", "pengpeng", "hunyise", "qingyise"):
            if n in names and n in within and n not in skip:
                fans.append(_fan(n, within[n], "hand"))
        if not fans:
            fans.append(_fan("jihu", 0, "hand"))
        base = sum(f["value"] for f in fans)
        for n, v in addons:
            fans.append(_fan(n, v, "addon"))
        raw = base + sum(v for _, v in addons)
        total = min(cap, raw)
        capped = raw > cap
        floored = False
        if total < cap and (
            situational["after_kong"] or situational["haidi"] or situational["rob_kong"]
        ):
            total = cap
            floored = True
        return {
            "total": total,
            "special": False,
            "capped": capped,
            "floored": floored,
            "raw": raw,
            "fans": fans,
            "hands": hand_names,
            "limit": None,
            "floor_reason": [k for k in ("after_kong", "haidi", "rob_kong") if situational[k]]
            if floored
            else [],
        }

    # -- the end ------------------------------------------------------------------------------
    def settle(self, state: State) -> Result:
        cfg: YongzhouConfig = self.cfg(state)
        out = state.outcome or {}
        n = state.seats
        scores = [0] * n
        lines: list[ResultLine] = []
        table = f"爆胡{cfg.bao_hu}番"
        extra: dict[str, Any] = {
            "bao_hu": cfg.bao_hu,
            "qi_hu": cfg.qi_hu,
            "base": cfg.base,
            "next_dealer": out.get("next_dealer", state.dealer),
            "next_prevalent_wind": self.next_prevalent_wind(state),
            "next_first_dealer": self.first_dealer(state),
        }
        if out.get("type") != "win":
            lines.append(ResultLine("流局", "0"))
            extra.update(payments=[], fans=[])
            return Result(scores=tuple(scores), winners=(), lines=tuple(lines), extra=extra)
        winners = out["winners"]
        three = len(winners) == 3 and not out["self_drawn"]
        payments: list[dict[str, Any]] = []
        fan_table = []
        for w, ev in zip(winners, out["evals"]):
            total = ev["total"]
            floor_note = ""
            if three and not ev["special"] and total < cfg.bao_hu:
                total = cfg.bao_hu
                floor_note = "一炮三響"
            for f in ev["fans"]:
                sign = "+" if f["kind"] == "addon" else ""
                lines.append(ResultLine(f["name"], f"{sign}{f['value']}番", w))
            if ev.get("special"):
                lines.append(
                    ResultLine(f"爆胡以外 ({cfg.bao_hu}番以上，不加番)", f"{ev['total']}番", w)
                )
            if ev.get("capped"):
                lines.append(
                    ResultLine(f"爆胡 (封頂 {cfg.bao_hu}番)", f"{ev['raw']}番 → {cfg.bao_hu}番", w)
                )
            if ev.get("floored"):
                why = "、".join(
                    {"after_kong": "杠上開花", "haidi": "海底撈月", "rob_kong": "搶杠"}[k]
                    for k in ev["floor_reason"]
                )
                lines.append(
                    ResultLine(f"{why} 不滿{cfg.bao_hu}番按{cfg.bao_hu}番", f"{cfg.bao_hu}番", w)
                )
            if floor_note:
                lines.append(
                    ResultLine(
                        f"{floor_note} 不滿{cfg.bao_hu}番按{cfg.bao_hu}番", f"{cfg.bao_hu}番", w
                    )
                )
            points = cfg.base * 2**total
            # the board highlights the 合計 row
            lines.append(
                ResultLine("合計", f"{total}番 ({table}) = {cfg.base}×2^{total} = {points}", w)
            )
            liable, why = self._liable(state, w, ev)
            if three:
                # RULES-NOTES §4 #11: "同一張牌點三個炮，點炮者包三家" — each winner is paid as
                # on a self-draw (three shares) and the discarder pays every share alone
                liable, why = out["from"], "一炮三響 點炮者包三家"
            if out["self_drawn"] or out["rob_kong"] or three:
                losers = [s for s in range(n) if s != w]
            else:
                losers = [out["from"]]
            for loser in losers:
                payer = liable if liable is not None else loser
                payments.append(
                    {
                        "from": payer,
                        "to": w,
                        "points": points,
                        "share_of": loser,
                        "bao": why if liable is not None else None,
                    }
                )
                scores[payer] -= points
                scores[w] += points
            if liable is not None:
                lines.append(
                    ResultLine(f"包 ({why})", f"座{liable} 付三家 {points * len(losers)}", liable)
                )
            else:
                for loser in losers:
                    lines.append(ResultLine(f"座{loser} → 座{w}", str(points), loser))
            fan_table.append(
                {
                    "seat": w,
                    "fans": ev["fans"],
                    "total": total,
                    "special": ev["special"],
                    "capped": ev.get("capped", False),
                    "points": points,
                    "bao": liable,
                }
            )
        extra.update(
            payments=payments,
            fans=fan_table,
            self_drawn=out["self_drawn"],
            from_seat=out["from"],
            rob_kong=out["rob_kong"],
            capped=any(f["capped"] for f in fan_table),
        )
        return Result(scores=tuple(scores), winners=tuple(winners), lines=tuple(lines), extra=extra)

    def _liable(self, state: State, w: int, ev: dict[str, Any]) -> tuple[int | None, str]:
        """The seat paying all three shares of a self-drawn (or robbed) win, if any."""
        out = state.outcome or {}
        if out["rob_kong"]:
            return out["from"], "搶杠 被搶者包三家"
        if not out["self_drawn"]:
            return None, ""
        melds = state.melds[w]
        if (
            state.after_kong
            and melds
            and melds[-1]["kind"] == "minggang"
            and melds[-1]["from"] is not None
        ):
            return melds[-1]["from"], "杠上開花包杠 點杠者包三家"
        bao = state.vars["bao"][w]
        if bao is not None:
            if bao["reason"] == "luodi12":
                return bao["from"], "十二張落地包自摸"
            if bao["reason"] in (ev.get("specials") or [ev.get("limit")]):
                return bao["from"], f"{FAN_NAMES[bao['reason']]}包自摸"
        return None, ""

    def first_dealer(self, state: State) -> int:
        """起莊: the seat that dealt the first hand of the game (this hand's dealer if unset)."""
        cfg: YongzhouConfig = self.cfg(state)
        return state.dealer if cfg.first_dealer < 0 else cfg.first_dealer % state.seats

    def next_prevalent_wind(self, state: State) -> int:
        """風圈 turns when the deal passes back to the 起莊 seat without 連莊 ("當最后一位玩家做莊之
        牌局完結而沒有連莊情況出現，則牌局的一個循環完結")."""
        cfg: YongzhouConfig = self.cfg(state)
        out = state.outcome or {}
        nxt = out.get("next_dealer", state.dealer)
        if nxt != state.dealer and nxt == self.first_dealer(state):
            return (cfg.prevalent_wind + 1) % 4
        return cfg.prevalent_wind

    def escape_result(self, state: State, seat: int) -> Result:
        """000 is silent on escape; our rule: the escaper pays each other seat a 爆胡 hand,
        底 × 2^爆胡 (RULES-NOTES decision 4 keeps every payment in 2^番 units)."""
        cfg: YongzhouConfig = self.cfg(state)
        if not 0 <= seat < state.seats:
            raise IllegalAction(ErrorCode.MALFORMED, "no such seat")
        points = cfg.base * 2**cfg.bao_hu
        scores = [0] * state.seats
        payments = []
        lines = [ResultLine("逃跑", f"座{seat} 付每家 爆胡{cfg.bao_hu}番 = {points}", seat)]
        for s in range(state.seats):
            if s != seat:
                scores[s] += points
                scores[seat] -= points
                payments.append({"from": seat, "to": s, "points": points})
        return Result(
            scores=tuple(scores),
            winners=(),
            lines=tuple(lines),
            extra={"payments": payments, "escape": seat},
        )

    def variant_view(self, state: State, seat: int | None) -> dict[str, Any]:
        cfg: YongzhouConfig = self.cfg(state)
        bao = [
            None
            if b is None
            else {"from": b["from"], "reason": FAN_NAMES.get(b["reason"], "十二張落地")}
            for b in state.vars.get("bao", [])
        ]
        out: dict[str, Any] = {
            "bao_hu": cfg.bao_hu,
            "qi_hu": cfg.qi_hu,
            "base": cfg.base,
            "qi_hu_name": {0: "無番起和", 1: "1番起和", 3: "3番起和"}[cfg.qi_hu],
            "prevalent_wind_name": WIND_NAMES[cfg.prevalent_wind],
            "bao": bao,
            # 漏胡 is private: a seat sees only its own passed tiles
            "lou_hu": list(state.vars["lou_hu"][seat]) if seat is not None else [],
        }
        if state.phase == "over":
            # 爆胡 reached: a winner stopped at the cap, or a special hand past it
            res_out = state.outcome or {}
            reached = []
            for w, ev in zip(res_out.get("winners", []), res_out.get("evals", [])):
                if ev and ev.get("special"):
                    reached.append(
                        {"seat": w, "name": FAN_NAMES[ev["limit"]], "total": ev["total"]}
                    )
                elif ev and ev.get("capped"):
                    reached.append({"seat": w, "name": f"封頂{cfg.bao_hu}番", "total": ev["total"]})
            out["bao_hu_reached"] = reached
        return out


def _kind_index(tile: str) -> int:
    return KIND_INDEX[tile]


registry.register(YongzhouRuleset())

__all__ = ["FAN_NAMES", "SPECIAL", "WITHIN", "YongzhouConfig", "YongzhouRuleset"]
