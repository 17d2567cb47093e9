"""歡樂麻將 (game id ``mahjong_huanle``): GB fans + 財神 + 鳥牌 + 花牌 on the mahjong core.

Seed 001 with RULES-NOTES §6, "歡樂麻將 details settled" and decision 5. Quoted rules:

* 財神: "财神可以代替任意牌（不包含花牌）进行游戏，不可吃碰杠。财神是在闲家抓完13张牌
  庄家抓完第14张牌后翻取的第一张牌加一的牌" — the first tile at the front of the wall after the
  deal is flipped (a
  flipped flower is set aside and the next tile flipped); the indicator stays out of play; the
  kind after it (9 → 1; 东南西北中发白 wrap) is 財神. The best substitution scores (RULES-NOTES §6
  #3); a 財神 someone else discards is a natural tile.
* 鳥牌: "玩家胡牌后，下一张城墙上的牌为鸟牌 … 以庄家为起点，按牌面数字逆时针计算 …
东南西北中发白按照
  一到七的次序" — the next non-flower tile at the front of the wall; 海底 (wall empty): the last
  tile taken from the wall.
  "点炮时，鸟如果买中在胡牌方或点炮方，即为中鸟，点炮人出双倍分数；自摸时，
  鸟如果买中在胡牌方，即所有玩家给双倍分数；如果买中在别的玩家，只此一玩家给双倍分数" — so for each
  winner–loser pair the 中鳥係數 is 2 when the bird hits either of them.
* 庄家翻倍: "无论输赢庄家的结果将以两倍计算" — the 庄家係數 is 2 for each pair involving the dealer.
* 番: the 81 GB fans (PyMahjongGB), + 無財神 2 ("胡牌时没有财神或财神代替本身花色使用"), + 花牌 1
  each ("不计在起和分内，和牌后才能计分"). 8番場 needs 8 (GB + 無財神, flowers excluded).
* X: 大眾場 番 × 中鳥 × 庄家; 8番場 (番 + 8) × …; 無番場 10 × …. The discarder alone pays on a
  discard win (P = 1), all three on 自摸. Points here are X; the platform applies X·N + A.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.errors import ErrorCode, IllegalAction
from games.engine.params import TABLE_PARAMS
from games.engine.protocol import Event, Result, ResultLine
from games.engine.tiles import KINDS, standard_wall
from games.rules.mahjong import params as room_spec
from games.rules.mahjong.core import CoreConfig, MahjongRuleset, State, WinContext
from games.rules.mahjong.gb import Fan, gb_fans_unchecked, validate, with_situational
from games.rules.mahjong.hands import SPECIAL_SHAPES, Assignment, Counts, assignments
from games.rules.mahjong.tiles import bird_number, next_kind

ROOM_KINDS = {"dazhong": "大眾場", "bafan": "8番場", "wufan": "無番場"}
_ROOM_ALIASES = {
    "大眾場": "dazhong",
    "大众场": "dazhong",
    "8番場": "bafan",
    "8番场": "bafan",
    "八番場": "bafan",
    "無番場": "wufan",
    "无番场": "wufan",
}
ZH_FAN_NAMES = {"无财神": "無財神", "花牌": "花牌"}


@dataclass(frozen=True, slots=True)
class HuanleConfig(CoreConfig):
    """Room options of 歡樂麻將."""

    room_kind: str = "dazhong"  # dazhong 大眾場 | bafan 8番場 | wufan 無番場
    min_fans: int = 8  # the 8番場 minimum (flowers excluded)
    wucaishen_fans: int = 2  # 無財神
    escape_fans: int = 8  # 逃跑: the escaper pays each other seat X of a hand of this many 番


def beans_from_payments(payments: list[dict[str, Any]], seats: int, *, n: int, a: int) -> list[int]:
    """001 §3 on the points: each loser X·N + A, the winner X·P·N − A (P losers paying him).

    The platform's ledger does this (with its caps); it is here to show and test the formula.
    """
    out = [0] * seats
    losers: set[int] = set()
    winners: set[int] = set()
    for p in payments:
        out[p["from"]] -= p["points"] * n
        out[p["to"]] += p["points"] * n
        losers.add(p["from"])
        winners.add(p["to"])
    for s in losers | winners:
        out[s] -= a
    return out


# -- the best-fan search ---------------------------------------------------------------------
#
# With 財神 the hand scores its best substitution (RULES-NOTES §6 #3): every way the 財神 can
# stand in (``hands.assignments``) is a completed hand for PyMahjongGB, and the best total wins
# (ties: more GB fans, then the lowest kinds, then the highest win tile, as an exhaustive search
# over the sorted substitutions would pick). Four 財神 can give several hundred substitutions, so
# the search scores each *class* of completed hands once. Two completed hands are in one class
# when a relabelling that no GB fan can tell apart maps one onto the other, the table facts
# (melds, the winning tile, the winds) staying put:
#
# * two suits neither hand nor melds touch (a free 財神 pung in 萬 scores as the same in 條);
# * dragons the hand and melds do not hold, and winds they do not hold that are neither the
#   seat wind nor the prevalent wind.
#
# The only GB fans that name particular tiles are 綠一色 (23468 條 and 發) and 推不倒 (the
# symmetric tiles); a completed hand that could be either is scored on its own.

_GREEN = frozenset(KINDS.index(t) for t in "T2 T3 T4 T6 T8 J2".split())
_REVERSIBLE = frozenset(KINDS.index(t) for t in "B1 B2 B3 B4 B5 B8 B9 T2 T4 T5 T6 T8 T9 J3".split())
_NOT_GREEN = tuple(k for k in range(34) if k not in _GREEN)
_NOT_REVERSIBLE = tuple(k for k in range(34) if k not in _REVERSIBLE)
_SUIT_OF = tuple(k // 9 if k < 27 else -1 for k in range(34))

FansOf = Callable[[tuple[str, ...], str], "tuple[Fan, ...] | None"]


def _class_key_fn(
    held: Counts, fixed_winds: tuple[int, int]
) -> Callable[[Assignment, int], tuple[Any, ...]]:
    """A function (substitution, win kind) → a key that is equal exactly within one class.

    ``held`` counts what the table fixes (naturals, melds, a natural winning tile): a completed
    hand is ``held`` plus the substitution, so the key only needs the substitution, with the
    kinds in free blocks (suits, dragons, winds nothing fixes) replaced by their pattern.
    """
    free_suits = {s for s in range(3) if not any(held[9 * s : 9 * s + 9])}
    block: dict[int, tuple[str, int]] = {}  # kind → (block family, position in the family)
    for s in free_suits:
        for k in range(9 * s, 9 * s + 9):
            block[k] = ("suit", s)
    free_dragons = [k for k in (31, 32, 33) if not held[k]]
    free_winds = [k for k in (27, 28, 29, 30) if not held[k] and k - 27 not in fixed_winds]
    for k in free_dragons:
        block[k] = ("dragon", k)
    for k in free_winds:
        block[k] = ("wind", k)
    fixed_green = not any(held[k] for k in _NOT_GREEN)
    fixed_reversible = not any(held[k] for k in _NOT_REVERSIBLE)
    if len(free_suits) < 2 and len(free_dragons) < 2 and len(free_winds) < 2:
        return lambda option, win: (option, win)  # nothing to relabel

    def key(option: Assignment, win: int) -> tuple[Any, ...]:
        if (fixed_green and all(k in _GREEN for k in option)) or (
            fixed_reversible and all(k in _REVERSIBLE for k in option)
        ):
            return (option, win)  # 綠一色 / 推不倒 may be in reach: this hand alone
        fixed: list[int] = []
        parts: dict[tuple[str, int], list[int]] = {}
        for k in option:
            b = block.get(k)
            if b is None:
                fixed.append(k)
            else:
                parts.setdefault(b, []).append(k % 9 if b[0] == "suit" else 0)
        b = block.get(win)
        if b is None:
            win_part = win
        else:
            win_part = -1
            parts.setdefault(b, []).append(100 + (win % 9 if b[0] == "suit" else 0))
        return (
            tuple(fixed),
            win_part,
            tuple(sorted((family, tuple(ns)) for (family, _), ns in parts.items())),
        )

    return key


def best_substitution(
    counts: Counts,
    options: Iterable[Assignment],
    meld_counts: Counts,
    fans_of: FansOf,
    *,
    win_tile: str | None,
    wild: Collection[str],
    wucaishen_fans: int,
    flowers: int,
    fixed_winds: tuple[int, int],
    concealed_hand: bool,
) -> dict[str, Any] | None:
    """The best-scoring substitution of ``options`` (see the comment above), or None.

    ``counts`` are the naturals of the completed concealed hand (with a natural winning tile);
    ``win_tile`` is that tile, or None when the winning tile is a drawn 財神 (then it is, for the
    wait fans, whichever of its kinds scores most). ``fans_of(hand, win_tile)`` scores a
    concrete hand (the winning tile not in ``hand``) with PyMahjongGB.
    """
    wins = KINDS.index(win_tile) if win_tile is not None else -1
    held = list(meld_counts)
    for k, c in enumerate(counts):
        held[k] += c
    class_key = _class_key_fn(tuple(held), fixed_winds)
    natural_kinds = [k for k, c in enumerate(counts) for _ in range(c)]
    natural_suits = {_SUIT_OF[k] for k in natural_kinds}
    wild_kinds = frozenset(KINDS.index(t) for t in wild if t in KINDS)
    scored: dict[tuple[Any, ...], tuple[int, tuple[Fan, ...]] | None] = {}
    best: tuple[Any, ...] | None = None
    best_fans: tuple[Fan, ...] = ()
    best_option: Assignment = ()
    kind_name = KINDS.__getitem__
    for option in sorted(options):
        wu = wucaishen_fans if all(k in wild_kinds for k in option) else 0
        neg = tuple(-k for k in option)
        if wins >= 0:
            win_as = [wins]
            one_suit = False
        else:
            win_as = sorted(set(option), key=kind_name)
            # A drawn 財神 won on: the 14 tiles are the same whatever kind it is won as, and
            # self-drawn. With 和絕張 / 搶槓和 taken from the events (``with_situational``:
            # PyMahjongGB's own 和絕張, +4 beside a 碰 of that kind, was what broke this bound
            # before), what PyMahjongGB derives from the winning kind is the wait fan alone
            # (邊張 / 嵌張 / 單釣, one of them, 1 番: the best decomposition for any kind is
            # within 1 of every other) — except 九蓮寶燈 (one suit, nothing melded): there
            # every kind is scored. 無番和 cannot occur (自摸 / 不求人 is always a fan).
            one_suit = concealed_hand and len(natural_suits | {_SUIT_OF[k] for k in option}) == 1
        first_total = -1
        for w in win_as:
            if first_total >= 0 and best is not None and not one_suit:
                if (first_total + 1, first_total + 1 - wu - flowers, neg, "~") < best:
                    break  # no other kind can reach the best so far
            key = class_key(option, w)
            if key in scored:
                hit = scored[key]
            else:
                hand = sorted(natural_kinds + list(option))
                hand.remove(w)
                fans = fans_of(tuple(map(kind_name, hand)), KINDS[w])
                hit = scored[key] = (
                    None if fans is None else (sum(p * c for _, _, p, c in fans), fans)
                )
            if hit is None:
                continue
            gb_total, fans = hit
            total = gb_total + wu + flowers
            if first_total < 0:
                first_total = total
            if best is None or total >= best[0]:  # the full rank only when it can win
                rank = (total, gb_total, neg, KINDS[w])
                if best is None or rank > best:
                    best, best_fans, best_option = rank, fans, option
    if best is None:
        return None
    return {
        "fans": [{"name": n, "name_en": e, "value": p * c, "count": c} for n, e, p, c in best_fans],
        "gb": best[1],
        "wucaishen": best[0] - best[1] - flowers,
        "flowers": flowers,
        "assignment": [KINDS[k] for k in best_option],
        "win_as": best[3],
    }


class HuanleRuleset(MahjongRuleset):
    """歡樂麻將."""

    game_id: ClassVar[str] = "mahjong_huanle"
    title: ClassVar[str] = "歡樂麻將"
    config_cls: ClassVar[type] = HuanleConfig
    variants = room_spec.HUANLE_VARIANTS
    base_label = None  # 001 counts 番 × N; the room's 底分 multiplies nothing
    room_params = room_spec.HUANLE_PARAMS + TABLE_PARAMS  # + chat, spectators

    # -- construction -------------------------------------------------------------------------
    def config_from_params(self, params: dict[str, Any]) -> HuanleConfig:
        params = dict(params)
        # the room's 玩法 is its 場 (大眾場 / 8番場 / 無番場) unless room_kind says otherwise
        if params.get("variant") in ROOM_KINDS and "room_kind" not in params:
            params["room_kind"] = params["variant"]
        kind = params.get("room_kind")
        if isinstance(kind, str):
            params["room_kind"] = _ROOM_ALIASES.get(kind, kind)
            if params["room_kind"] not in ROOM_KINDS:
                raise ValueError(f"unknown room kind {kind!r}")
        config: HuanleConfig = super().config_from_params(params)
        return config

    def wall_tiles(self, config: Any) -> list[str]:
        return standard_wall(with_flowers=True)  # RULES-NOTES §6 #1: 144 tiles

    def shapes(self, config: Any) -> frozenset[str]:
        return frozenset(SPECIAL_SHAPES)

    def setup(self, state: State, config: Any) -> list[Event]:
        """Flip the 財神 indicator from the front of the wall (flowers set aside)."""
        aside: list[str] = []
        while True:
            tile = state.wall.pop(0)
            aside.append(tile)
            if not self.tile_is_flower(state, tile):
                break
        state.vars["set_aside"] = aside
        state.vars["indicator"] = tile
        state.vars["wild"] = [next_kind(tile)]
        return []

    # -- the win ------------------------------------------------------------------------------
    def evaluate_win(self, state: State, ctx: WinContext) -> dict[str, Any] | None:
        cfg: HuanleConfig = self.cfg(state)
        seat = ctx.seat
        wild = self.wild_kinds(state)
        if ctx.tile_is_wild:
            concealed = ctx.concealed + [ctx.tile]
            counts, wilds, caps = self.split_wilds(state, seat, concealed)
        else:
            counts, wilds, caps = self.split_wilds(state, seat, ctx.concealed, ctx.tile)
        options = assignments(counts, wilds, caps, self.sets_needed(state, seat), self.shapes(cfg))
        if not options:
            return None
        packs = tuple(self._gb_pack(state, seat, m) for m in state.melds[seat])
        visible = self.visible_count(state, ctx.tile)
        if not ctx.self_drawn and not ctx.rob_kong:
            visible -= 1  # the discard itself lies in the river
        # Situational fans follow what happened, never a substitution (RULES-NOTES, 歡樂麻將
        # details settled): 和絕張 only for the real winning tile, the last unseen copy (never a
        # 財神 standing in, never on 搶槓); 搶槓和 from the real event. PyMahjongGB gets neither
        # flag (it would re-derive both from the substituted tiles); ``with_situational`` adds
        # them. 槓上開花 / 妙手回春 / 海底撈月 go to it as they happened.
        fourth = (not ctx.tile_is_wild) and visible == 3 and not ctx.rob_kong
        seat_wind = self.seat_wind(state, seat)

        flags = (
            ctx.self_drawn,
            False,
            ctx.self_drawn and ctx.after_kong,
            ctx.wall_last,
            seat_wind,
            cfg.prevalent_wind,
        )
        checked: list[bool] = []

        def fans_of(hand: tuple[str, ...], win_tile: str) -> tuple[Fan, ...] | None:
            if not checked:  # the packs and winds once; the search keeps to four of a kind
                checked.append(True)
                validate(packs, hand, win_tile, seat_wind, cfg.prevalent_wind)
            fans = gb_fans_unchecked(packs, hand, win_tile, *flags)
            if fans is None:
                return None
            return with_situational(fans, last_tile=fourth, rob_kong=ctx.rob_kong)

        best_data = best_substitution(
            counts,
            options,
            self.meld_counts(state, seat),
            fans_of,
            win_tile=None if ctx.tile_is_wild else ctx.tile,
            wild=wild,
            wucaishen_fans=cfg.wucaishen_fans,
            flowers=len(state.flowers[seat]),
            fixed_winds=(seat_wind, cfg.prevalent_wind),
            concealed_hand=not state.melds[seat],
        )
        flowers = len(state.flowers[seat])
        if best_data is None:
            return None
        total = best_data["gb"] + best_data["wucaishen"] + flowers
        counted = best_data["gb"] + best_data["wucaishen"]
        ok = cfg.room_kind != "bafan" or counted >= cfg.min_fans
        best_data.update(
            total=total,
            ok=ok,
            reason="" if ok else f"{counted} 番 < {cfg.min_fans} 番 (8番場, flowers excluded)",
        )
        return best_data

    # -- the end ------------------------------------------------------------------------------
    def on_finish(self, state: State) -> None:
        out = state.outcome or {}
        if out.get("type") != "win":
            return
        bird = None
        for t in state.wall:
            if not self.tile_is_flower(state, t):
                bird = t
                break
        if bird is None:
            bird = state.last_wall_tile  # 海底: the last tile is the bird
        if bird is None or self.tile_is_flower(state, bird):
            out["bird"] = None
            return
        out["bird"] = {"tile": bird, "seat": (state.dealer + bird_number(bird) - 1) % state.seats}

    def base_points(self, cfg: HuanleConfig, fans: int) -> int:
        if cfg.room_kind == "bafan":
            return fans + 8
        if cfg.room_kind == "wufan":
            return 10
        return fans

    def settle(self, state: State) -> Result:
        cfg: HuanleConfig = self.cfg(state)
        out = state.outcome or {}
        n = state.seats
        scores = [0] * n
        lines: list[ResultLine] = []
        room = ROOM_KINDS[cfg.room_kind]
        if out.get("type") != "win":
            lines.append(ResultLine("流局", "0"))
            return Result(
                scores=tuple(scores),
                winners=(),
                lines=tuple(lines),
                extra={
                    "payments": [],
                    "fans": [],
                    "room_kind": cfg.room_kind,
                    "next_dealer": out.get("next_dealer", state.dealer),
                },
            )
        bird = out.get("bird")
        bird_seat = bird["seat"] if bird else None
        payments: list[dict[str, Any]] = []
        fan_table: list[dict[str, Any]] = []
        for w, ev in zip(out["winners"], out["evals"]):
            for f in ev["fans"]:
                lines.append(ResultLine(f["name"], f"{f['value']}番", w))
            if ev["wucaishen"]:
                lines.append(ResultLine("無財神", f"{ev['wucaishen']}番", w))
            if ev["flowers"]:
                lines.append(ResultLine(f"花牌 ×{ev['flowers']}", f"{ev['flowers']}番", w))
            if ev["assignment"]:
                lines.append(ResultLine("財神作 " + " ".join(ev["assignment"]), "", w))
            lines.append(ResultLine("合計", f"{ev['total']}番", w))
            base = self.base_points(cfg, ev["total"])
            lines.append(ResultLine(f"{room} 基數", str(base), w))
            fan_table.append(
                {
                    "seat": w,
                    "fans": ev["fans"],
                    "wucaishen": ev["wucaishen"],
                    "flowers": ev["flowers"],
                    "total": ev["total"],
                    "base": base,
                }
            )
            losers = [s for s in range(n) if s != w] if out["self_drawn"] else [out["from"]]
            for loser in losers:
                bird_x = 2 if bird_seat in (w, loser) else 1
                dealer_x = 2 if state.dealer in (w, loser) else 1
                points = base * bird_x * dealer_x
                payments.append(
                    {
                        "from": loser,
                        "to": w,
                        "points": points,
                        "base": base,
                        "bird": bird_x,
                        "dealer": dealer_x,
                    }
                )
                scores[loser] -= points
                scores[w] += points
                parts = [str(base)]
                if bird_x > 1:
                    parts.append("中鳥×2")
                if dealer_x > 1:
                    parts.append("莊家×2")
                lines.append(
                    ResultLine(f"座{loser} → 座{w}", " × ".join(parts) + f" = {points}", loser)
                )
        if bird:
            hit = "中鳥" if any(p["bird"] > 1 for p in payments) else "不中"
            lines.append(ResultLine(f"鳥牌 {bird['tile']} → 座{bird_seat}", hit))
        if any(p["dealer"] > 1 for p in payments):  # only when a pair involved the dealer
            lines.append(ResultLine("莊家", f"座{state.dealer} 翻倍"))
        return Result(
            scores=tuple(scores),
            winners=tuple(out["winners"]),
            lines=tuple(lines),
            extra={
                "payments": payments,
                "fans": fan_table,
                "bird": bird,
                "room_kind": cfg.room_kind,
                "self_drawn": out["self_drawn"],
                "from": out["from"],
                "next_dealer": out.get("next_dealer", state.dealer),
            },
        )

    def escape_result(self, state: State, seat: int) -> Result:
        """001 §3: the escaper is charged; here he pays each other seat the X of a hand of
        ``escape_fans`` 番 in this room (×2 for pairs involving the dealer)."""
        cfg: HuanleConfig = self.cfg(state)
        if not 0 <= seat < state.seats:
            raise IllegalAction(ErrorCode.MALFORMED, "no such seat")
        base = self.base_points(cfg, cfg.escape_fans)
        scores = [0] * state.seats
        payments = []
        lines = [ResultLine("逃跑", f"座{seat}", seat)]
        for s in range(state.seats):
            if s == seat:
                continue
            x = base * (2 if state.dealer in (s, seat) else 1)
            scores[s] += x
            scores[seat] -= x
            payments.append({"from": seat, "to": s, "points": x})
            lines.append(ResultLine(f"座{seat} → 座{s}", str(x), seat))
        return Result(
            scores=tuple(scores),
            winners=(),
            lines=tuple(lines),
            extra={"payments": payments, "escape": seat},
        )

    def variant_view(self, state: State, seat: int | None) -> dict[str, Any]:
        cfg: HuanleConfig = self.cfg(state)
        wild = sorted(self.wild_kinds(state))
        out = state.outcome or {}
        return {
            "room_kind": cfg.room_kind,
            "room_kind_name": ROOM_KINDS[cfg.room_kind],
            "min_fans": cfg.min_fans if cfg.room_kind == "bafan" else 0,
            "caishen": wild[0] if wild else None,
            "indicator": state.vars.get("indicator"),
            "dealer_factor": 2,
            "bird": out.get("bird"),
        }
