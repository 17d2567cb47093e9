"""Room parameters of 跑胡子 (Config) and the dealer rotation between hands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HUNAN = "hunan"
SHUANGWANG = "shuangwang"
VARIANTS = (HUNAN, SHUANGWANG)
SEATS = 3


@dataclass(frozen=True, slots=True)
class Config:
    """The variant and room options.

    * ``variant`` — ``"hunan"`` (seed 003, 80 cards) or ``"shuangwang"`` (seed 000, 82 cards).
    * ``dealer`` — the dealer seat of this hand (the table service rotates it, see
      :func:`next_dealer`).
    * ``base`` — 房間底分 d (003: 3) / 底注 (雙王, default 1).
    * ``fan_*`` — the Hunan 名堂 番 (RULES-NOTES §7 常德 全名堂 defaults, decision 2).
    * ``cap`` — 雙王 封頂 per paying player in 積分 (0 = none).
    * ``jiadi`` — 雙王 加底: +1 囤.
    * ``fangpao`` — 雙王 放炮: a player without 王 may win on a discard; the discarder pays alone.
    * ``min_huxi`` — the 胡息 a hu needs (15 in both texts).
    """

    variant: str = HUNAN
    dealer: int = 0
    huangzhuang_streak: int = 0  # 荒莊 in a row before this hand (003 定莊; carried by the table)
    base: int = 3
    fan_hong: int = 2  # 紅胡, 10–12 red
    fan_dian: int = 3  # 點胡, exactly one red
    fan_hongwu: int = 4  # 紅烏, 13 or more red
    fan_wu: int = 5  # 烏胡, no red
    fan_duidui: int = 4  # 對對胡
    fan_dazi: int = 6  # 大字胡 (≥18 大), +1 per 大 beyond 18
    fan_xiaozi: int = 8  # 小字胡 (≥16 小), +1 per 小 beyond 16
    fan_haidi_ping: int = 1  # 海底 on a 平胡
    fan_haidi_ming: int = 2  # 海底 on a 名堂胡
    cap: int = 300
    jiadi: bool = False
    fangpao: bool = False
    min_huxi: int = 15

    @property
    def wangs(self) -> int:
        return 2 if self.variant == SHUANGWANG else 0


_INT_FIELDS = (
    "dealer", "huangzhuang_streak", "base", "fan_hong", "fan_dian", "fan_hongwu", "fan_wu", "fan_duidui", "fan_dazi",
    "fan_xiaozi", "fan_haidi_ping", "fan_haidi_ming", "cap", "min_huxi",
)


def config_from_params(params: dict[str, Any]) -> Config:
    """Build a Config from room params (unknown keys ignored; bad values raise ValueError)."""
    variant = params.get("variant", HUNAN)
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    values: dict[str, Any] = {"variant": variant, "base": 3 if variant == HUNAN else 1}
    for name in _INT_FIELDS:
        if name in params:
            value = int(params[name])
            if value < 0:
                raise ValueError(f"{name} must not be negative")
            values[name] = value
    if "dealer" in values and values["dealer"] >= SEATS:
        raise ValueError("dealer must be a seat 0…2")
    for name in ("jiadi", "fangpao"):
        if name in params:
            values[name] = bool(params[name])
    return Config(**values)


def next_dealer(
    variant: str, dealer: int, winner: int | None, consecutive_huangzhuang: int
) -> tuple[int, int]:
    """Return (next dealer, 荒莊 streak) after a hand.

    003 定莊: the winner deals next; after a 荒莊 the dealer stays, and after three 荒莊 in a
    row the dealer's 下家 deals. 雙王 takes this from 003 (RULES-NOTES §1 #4). The first dealer
    of a 局 is drawn at random by the table service (a player leaving starts a new 局).
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if winner is not None:
        return winner, 0
    streak = consecutive_huangzhuang + 1
    if streak >= 3:
        return (dealer + 1) % SEATS, 0
    return dealer, streak
