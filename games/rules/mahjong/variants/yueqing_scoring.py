"""樂清麻將 – 武漢花: 台數 (the items of 【臺數計算】), the 翻倍 formula, 花數 and the escape
estimate (胡倒類型判斷). Pure functions over plain data; the ruleset in ``yueqing.py`` feeds them.

Kinds are indices 0–33 (W, T, B, then 東南西北 27–30, 中發白 31–33).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.rules.mahjong.tiles import is_suited_index

ZHONG, FA, BAI = 31, 32, 33
WINDS = (27, 28, 29, 30)

# one-台 items (N) and the others (M), with the text's names
ONE_TAI = {
    "zifeng": "自風位",
    "baiban": "白板",
    "zhongke": "紅中刻",
    "fake": "發財刻",
    "wucaishen": "無財神",
    "guiwei1": "財神一歸位",
    "shuangcaishen": "雙財神",
    "gangkai": "杠杠胡",
    "qianggang": "搶杠胡",
    "pinghu": "平胡",
    "mingpai": "明牌",
}
BIG_TAI = {
    "duidui": ("對對胡", 15),
    "hunyise": ("混一色", 15),
    "caishen_dandiao": ("財神單吊", 15),
    "sancaishen": ("三財神", 15),
    "zuoniu": ("財神做牛", 15),
    "sifengying": ("四風影", 15),
    "guiwei2": ("財神雙歸位", 30),
    "dandiao_caishen": ("單吊財神", 30),
    "qingyise": ("清一色", 45),
    "sifengqi": ("四風齊", 45),
    "sibaiban": ("四白板", 45),
    "yingdiao": ("硬吊", 45),
    "tianhu": ("天胡", 45),
    "dihu": ("地胡", 45),
    "sancaishen_ke": ("三財神刻", 45),
    "sanmeiren": ("三美人", 45),
    "sicaishen": ("四財神", 45),
    "guiwei3": ("財神三歸位", 200),
    "quanzi": ("全字", 200),
    "simeiren": ("四美人", 200),
    "guiwei4": ("財神四歸位", 500),
}


def tai_value(n: int, m: int) -> int:
    """h、翻倍: N the one-台 items, M the others. N ≥ 6 counts 15 + N − 6; the value is N when
    N ≤ 5 and M = 0, else (N' + M) × 2 (8 台 → 34)."""
    n_eff = n if n <= 5 else 15 + n - 6
    if n <= 5 and m == 0:
        return n
    return (n_eff + m) * 2


@dataclass(slots=True)
class Facts:
    """What the 台 items look at, for one reading of a winning hand."""

    sets: list[tuple[str, int, int]]  # (pung|chow, first kind, wilds in it) incl. melds
    pair: int  # the pair's kind (−1 when made of two wilds read as a free 財神 pair)
    pair_wilds: int
    kinds: list[int]  # every tile kind in the hand (wilds as what they stand for)
    caishen: int  # the 財神 kind
    n_caishen: int  # 財神 tiles in the hand (concealed + a drawn 財神)
    guiwei: int  # 財神 standing for their own kind
    seat_wind: int  # kind index 27–30
    flower_kind: int  # 白板 (or 紅中)
    flowers: int  # 白板 (or 紅中) exposed
    gangtou: int  # 杠頭 exposed
    self_drawn: bool
    after_kong: bool
    rob_kong: bool
    single_before: str | None  # "wild" / "natural" / None: the one tile left before the win
    win_is_caishen: bool  # a self-drawn 財神 won on
    win_same_as_single: bool  # 硬吊: the natural win tile equals the single left
    pinghu_wait: bool  # the win tile made a two-sided chow (no pung, no 財神)
    tianhu: bool = False
    dihu: bool = False
    sancaishen_ke: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def tai_items(f: Facts) -> tuple[list[tuple[str, str, int]], int, int]:
    """The items ``(key, name, value)``, N and M of one reading."""
    items: list[tuple[str, str, int]] = []
    pungs = [k for kind, k, _ in f.sets if kind == "pung"]
    suits = {k // 9 for k in f.kinds if is_suited_index(k)}
    honours = [k for k in f.kinds if k >= 27]
    wild_dragons = f.caishen in (ZHONG, FA, BAI)
    wind_wild = f.caishen in WINDS
    # 美人 (白板 here means the flower kind, 紅中 when 白板 is 財神)
    meiren = (
        not wild_dragons
        and ZHONG in pungs
        and FA in pungs
        and f.flower_kind == BAI
        and f.flowers >= 3
    )
    simeiren = meiren and f.flowers >= 4
    sanmeiren = meiren and f.flowers == 3
    four_winds = not wind_wild and all(w in f.kinds for w in WINDS)
    sifengqi = four_winds and f.seat_wind in pungs
    sifengying = four_winds and f.pair == f.seat_wind and not sifengqi
    quanzi = not suits and bool(honours)
    big: list[str] = []
    if len(f.sets) and all(kind == "pung" for kind, _, _ in f.sets) and not quanzi:
        big.append("duidui")
    if len(suits) == 1 and honours and not quanzi:
        big.append("hunyise")
    if len(suits) == 1 and not honours:
        big.append("qingyise")
    if quanzi:
        big.append("quanzi")
    if f.single_before == "wild":
        big.append("caishen_dandiao")
        if f.self_drawn and f.win_is_caishen:
            big.append("zuoniu")  # 自摸財神時，加計財神做牛
    if f.single_before == "natural" and f.win_is_caishen and f.self_drawn:
        big.append("dandiao_caishen")
    if f.single_before == "natural" and f.win_same_as_single and not f.win_is_caishen:
        big.append("yingdiao")
    if f.sancaishen_ke:
        big.append("sancaishen_ke")
    elif f.n_caishen == 3:
        big.append("sancaishen")
    if f.n_caishen == 4:
        big.append("sicaishen")
    if f.pair_wilds == 2 and f.single_before is None:
        big.append("zuoniu")  # 財神一對作將，不包含單吊

    if f.guiwei == 2:
        big.append("guiwei2")
    if f.guiwei == 3 and not f.sancaishen_ke:
        big.append("guiwei3")
    if f.guiwei == 4:
        big.append("guiwei4")
    if sifengqi:
        big.append("sifengqi")
    if sifengying:
        big.append("sifengying")
    if f.flowers >= 4 and not simeiren:
        big.append("sibaiban")
    if sanmeiren:
        big.append("sanmeiren")
    if simeiren:
        big.append("simeiren")
    if f.tianhu:
        big.append("tianhu")
    if f.dihu:
        big.append("dihu")
    # one-台 items
    # "如果風位是財神，就不算" — the winner's own 風位 only (RULES-NOTES §8 #12)
    if f.seat_wind in pungs and f.caishen != f.seat_wind and not sifengqi and not quanzi:
        items.append(("zifeng", ONE_TAI["zifeng"], 1))
    for _ in range(f.flowers):
        items.append(("baiban", ONE_TAI["baiban"], 1))
    if not meiren:
        if ZHONG in pungs and f.caishen != ZHONG and f.flower_kind != ZHONG:
            items.append(("zhongke", ONE_TAI["zhongke"], 1))
        if FA in pungs and f.caishen != FA:
            items.append(("fake", ONE_TAI["fake"], 1))
    if f.n_caishen == 0 and "yingdiao" not in big:
        items.append(("wucaishen", ONE_TAI["wucaishen"], 1))
    if f.guiwei == 1:
        items.append(("guiwei1", ONE_TAI["guiwei1"], 1))
    if f.n_caishen == 2:
        items.append(("shuangcaishen", ONE_TAI["shuangcaishen"], 1))
    if f.after_kong:
        items.append(("gangkai", ONE_TAI["gangkai"], 1))
    if f.rob_kong:
        items.append(("qianggang", ONE_TAI["qianggang"], 1))
    if f.pinghu_wait:
        items.append(("pinghu", ONE_TAI["pinghu"], 1))
    for _ in range(f.gangtou):
        items.append(("mingpai", ONE_TAI["mingpai"], 1))
    for key in big:
        name, value = BIG_TAI[key]
        items.append((key, name, value))
    n = sum(v for k, _, v in items if k in ONE_TAI)
    m = sum(v for k, _, v in items if k not in ONE_TAI)
    return items, n, m


def bi_hu_limit(items: list[tuple[str, str, int]]) -> tuple[list[tuple[str, str, int]], int, int]:
    """逼胡: no 翻 hand but 三財神 / 四財神; the others count 5 台; the basic 台 at most 5.

    "有三財神、四財神，僅三財神、四財神可以翻，與三財神一起的對對胡、混一色等其他臺型，不能算臺"
    (RULES-NOTES §8 #11): one of the two counts, by how many 財神 the hand holds — 三財神 for
    three, 四財神 for four. A 三財神刻 is therefore only its 三財神 (15) when the hand holds
    exactly three; beside a 四財神 the three 財神 of the set are already among the four, and
    counting 三財神 as well would score the same 財神 twice.
    """
    one = [it for it in items if it[0] in ONE_TAI]
    if any(it[0] == "sicaishen" for it in items):
        caishen_fan = [it for it in items if it[0] == "sicaishen"]
    else:
        three = any(it[0] in ("sancaishen", "sancaishen_ke") for it in items)
        caishen_fan = [("sancaishen", *BIG_TAI["sancaishen"])] if three else []
    n = min(5, sum(v for _, _, v in one))
    if caishen_fan:
        kept = one + caishen_fan
        return kept, n, sum(v for _, _, v in caishen_fan)
    others = [it for it in items if it[0] not in ONE_TAI]
    if others:
        # 做成對對胡、混一色、清一色等都按5臺計算
        return one + [("bihu5", "逼胡 按5臺", 0)], 5, 0
    return one, n, 0


def hua_count(
    *,
    gangtou: int,
    flowers: int,
    caishen_held: int,
    melds: list[tuple[str, int]],
    concealed_pungs: list[int],
    seat_wind: int,
    caishen: int,
) -> list[tuple[str, int]]:
    """【花數計算】 of one player: (label, 花) items.

    ``melds`` are (kind, kind index) of the player's 明杠 / 暗杠 / 碰; ``concealed_pungs`` the
    kinds of which the player holds three or more in the concealed hand (刻子).
    """
    out: list[tuple[str, int]] = []
    if gangtou:
        out.append((f"明牌 ×{gangtou}", gangtou))
    if flowers:
        out.append((f"白板 ×{flowers}", flowers))
    if caishen_held:
        out.append((f"財神 ×{caishen_held}", caishen_held))
    for kind, k in melds:
        if kind in ("minggang", "jiagang") and k not in (seat_wind, ZHONG, FA):
            out.append(("明杠", 1))
        elif kind == "angang" and k not in (seat_wind, ZHONG, FA):
            out.append(("暗杠", 2))
    special = [(seat_wind, "自風位"), (ZHONG, "紅中"), (FA, "發財")]
    for k, name in special:
        if k == caishen:
            continue  # "若…為財神，則只算財神的花"
        kinds = {kind for kind, kk in melds if kk == k}
        if "angang" in kinds:
            out.append((f"{name}暗杠", 3))
        elif kinds & {"minggang", "jiagang"}:
            out.append((f"{name}明杠", 2))
        elif "peng" in kinds or k in concealed_pungs:
            out.append((f"{name}刻子", 1))
    if gangtou == 3:
        out.append(("三杠頭", 6))
    if caishen_held == 3:
        out.append(("三張財神", 6))
    if flowers == 4:
        out.append(("四張白板", 8))
    if caishen_held == 4:
        out.append(("四個財神", 10))
    return out


def hua_settlement(hua: list[int]) -> list[int]:
    """總花 = 平方花, collected from each of the other players: net per seat, summing to 0."""
    n = len(hua)
    sq = [h * h for h in hua]
    return [(n - 1) * sq[i] - (sum(sq) - sq[i]) for i in range(n)]


# -- escape: 胡倒類型判斷 -----------------------------------------------------------------------


def escape_best(
    *,
    concealed: list[int],
    caishen_count: int,
    melds: list[tuple[str, int]],
    flowers: int,
    gangtou: int,
    seat_wind: int,
    flower_kind: int,
    caishen: int,
) -> tuple[str, int]:
    """The largest 胡倒翻臺類型 a player could still make (財神 never substitute here).

    ``concealed`` are the natural kinds in hand (財神 excluded, counted in ``caishen_count``),
    ``melds`` (kind, kind index) of 吃/碰/杠. Returns (name, 台).
    """
    counts = [0] * 34
    for k in concealed:
        counts[k] += 1
    pung_like = [k for kind, k in melds if kind != "chi"] + [k for k in range(34) if counts[k] >= 3]
    n_melds = len(melds)
    all_kinds = concealed + [k for _, k in melds]
    suits = {k // 9 for k in all_kinds if k < 27}
    honours = any(k >= 27 for k in all_kinds)
    non_caishen_left = len(concealed)
    left = non_caishen_left + caishen_count
    found: list[tuple[str, int]] = []
    if len(pung_like) >= 5:
        found.append(("對對胡", 15))
    if len(suits) == 1 and honours and n_melds >= 3:
        found.append(("混一色", 15))
    if left <= 2 and caishen_count >= 1:
        found.append(("財神單吊", 15))
    if caishen_count == 3:
        found.append(("三財神雜胡", 15))
    if n_melds >= 4 and caishen_count >= 2:
        found.append(("財神做牛", 15))
    other_winds = sum(1 for w in WINDS if w != seat_wind and (counts[w] or w in pung_like))
    own = counts[seat_wind] + sum(3 for kind, k in melds if k == seat_wind and kind != "chi")
    if other_winds >= 3 and own == 1:
        found.append(("四風影", 15))
    if len(suits) == 1 and not honours and n_melds >= 3:
        found.append(("清一色", 45))
    if n_melds >= 4 and caishen_count >= 3:
        found.append(("三財神刻", 45))
    zhong = counts[ZHONG] + sum(3 for kind, k in melds if k == ZHONG and kind != "chi")
    fa = counts[FA] + sum(3 for kind, k in melds if k == FA and kind != "chi")
    if zhong >= 3 and fa >= 3 and flowers >= 3 and flower_kind == BAI:
        found.append(("四美人", 200) if flowers >= 4 else ("三美人", 45))
    if flowers >= 4:
        found.append(("四白板", 45) if len(pung_like) >= 3 else ("四白板(小)", 0))
    if other_winds >= 3 and own >= 3:
        found.append(("四風齊", 45))
    if left <= 2 and non_caishen_left >= 1 and n_melds >= 4:
        found.append(("硬吊", 45))
    honour_melds = sum(1 for kind, k in melds if k >= 27 and kind != "chi")
    if honour_melds >= 3 and sum(1 for k in concealed if k < 27) <= 1:
        found.append(("全字", 200))
    if gangtou >= 3:
        found.append(("三杠頭", 3) if len(pung_like) >= 3 else ("三杠頭(小)", 0))
    if caishen_count == 4:
        found.append(("四財神雜胡", 45))
    if not found:
        return ("沒臺", 0)
    return max(found, key=lambda x: x[1])


__all__ = [
    "BIG_TAI",
    "Facts",
    "ONE_TAI",
    "bi_hu_limit",
    "escape_best",
    "hua_count",
    "hua_settlement",
    "tai_items",
    "tai_value",
]
