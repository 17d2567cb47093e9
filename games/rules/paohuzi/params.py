"""Room parameters of 跑胡子 (Config) and the dealer rotation between hands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.params import BOOL, BOT_LEVEL, INT, Param, ParamError, Variant

HUNAN = "hunan"
SHUANGWANG = "shuangwang"
VARIANTS = (HUNAN, SHUANGWANG)
SEATS = 3

# the 玩法 and the options an operator sets in a room (games/engine/params.py); the room's
# 底分 (``base_score``) is the hand's ``base`` (房間底分 d / 雙王 底注)
ROOM_VARIANTS = (Variant(HUNAN, "湖南跑胡子（常德全名堂）"), Variant(SHUANGWANG, "雙王扯胡子"))
_FAN: dict[str, Any] = dict(kind=INT, low=0, high=100)
ROOM_PARAMS = (
    Param("min_huxi", INT, 15, "起胡胡息", "和牌所需的最少胡息。", low=3, high=60),
    Param("fan_hong", default=2, label="紅胡番數", help="湖南：10–12 張紅字。", **_FAN),
    Param("fan_dian", default=3, label="點胡番數", help="湖南：恰好一張紅字。", **_FAN),
    Param("fan_hongwu", default=4, label="紅烏番數", help="湖南：13 張以上紅字。", **_FAN),
    Param("fan_wu", default=5, label="烏胡番數", help="湖南：沒有紅字。", **_FAN),
    Param("fan_duidui", default=4, label="對對胡番數", help="湖南：全是碰、偎、提、跑。", **_FAN),
    Param(
        "fan_dazi", default=6, label="大字胡番數", help="湖南：18 張以上大字，每多一張 +1。", **_FAN
    ),
    Param(
        "fan_xiaozi",
        default=8,
        label="小字胡番數",
        help="湖南：16 張以上小字，每多一張 +1。",
        **_FAN,
    ),
    Param(
        "fan_haidi_ping",
        default=1,
        label="海底（平胡）番數",
        help="湖南：最後一張和的平胡。",
        **_FAN,
    ),
    Param(
        "fan_haidi_ming",
        default=2,
        label="海底（名堂胡）番數",
        help="湖南：最後一張和的名堂胡。",
        **_FAN,
    ),
    Param(
        "cap", INT, 300, "封頂（積分）", "雙王：每家最多付的積分；0 為不封頂。", low=0, high=100_000
    ),
    Param("jiadi", BOOL, False, "加底", "雙王：每盤加一囤。"),
    Param("fangpao", BOOL, False, "放炮", "雙王：沒有王的玩家可和別人打出的牌，放炮者一人付。"),
    BOT_LEVEL,
)


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
    * ``bot_level`` — 機器人強度: ``"novice"`` (新手場) seats the baseline player
      (games/rules/paohuzi/baseline.py) in the bot's place, for 托管 too.
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
    bot_level: str = "normal"

    @property
    def wangs(self) -> int:
        return 2 if self.variant == SHUANGWANG else 0


_INT_FIELDS = (
    "dealer",
    "huangzhuang_streak",
    "base",
    "fan_hong",
    "fan_dian",
    "fan_hongwu",
    "fan_wu",
    "fan_duidui",
    "fan_dazi",
    "fan_xiaozi",
    "fan_haidi_ping",
    "fan_haidi_ming",
    "cap",
    "min_huxi",
)


def config_from_params(params: dict[str, Any]) -> Config:
    """Build a Config from room params (unknown keys ignored; bad values raise ValueError).

    The base is ``base`` if given, else the room's 底分 ``base_score``, else the variant's own
    default (003: 3; 雙王: 1)."""
    variant = params.get("variant", HUNAN)
    if variant not in VARIANTS:
        raise ParamError("variant", f"unknown variant {variant!r}")
    base = params.get("base", params.get("base_score"))
    values: dict[str, Any] = {
        "variant": variant,
        "base": (3 if variant == HUNAN else 1) if base is None else int(base),
    }
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
    if "bot_level" in params:
        values["bot_level"] = BOT_LEVEL.parse(params["bot_level"])
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
