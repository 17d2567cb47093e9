"""Room parameters of the three mahjong games that an operator sets (games/engine/params.py).

底分 (the room's ``base_score``) is the 底 of 永州 and 樂清 (the points of a 0-番 hand / the
value of one 條); 歡樂麻將 counts 番 only, so its 底分 multiplies nothing but is shown.
玩法: 歡樂 大眾場 dazhong · 8番場 bafan · 無番場 wufan; 永州 爆胡5番 bao5 · 爆胡3番 bao3;
樂清 武漢花 wuhanhua. 機器人強度 (``bot_level``): 新手場 seats the baseline player
(games/rules/mahjong/baseline.py) in the bot's place, for 托管 too.
"""

from __future__ import annotations

from games.engine.params import BOOL, BOT_LEVEL, INT, Param, Variant

HUANLE_VARIANTS = (
    Variant("dazhong", "大眾場"),
    Variant("bafan", "8番場"),
    Variant("wufan", "無番場"),
)
HUANLE_PARAMS = (
    Param(
        "min_fans", INT, 8, "8番場起和番數", "8番場和牌所需的最少番數（花牌不計）。", low=1, high=88
    ),
    Param("wucaishen_fans", INT, 2, "無財神番數", "和牌時手中沒有財神所加的番。", low=0, high=88),
    Param("escape_fans", INT, 8, "逃跑番數", "逃跑者按此番數的一盤付給其他每家。", low=0, high=88),
    BOT_LEVEL,
)

YONGZHOU_VARIANTS = (Variant("bao5", "爆胡 5 番"), Variant("bao3", "爆胡 3 番"))
YONGZHOU_PARAMS = (
    Param(
        "qi_hu",
        INT,
        0,
        "起和番數",
        "和牌所需的最少番數（0、1 或 3），不可高於爆胡封頂。",
        choices=((0, "無番起和"), (1, "1番起和"), (3, "3番起和")),
    ),
    Param("multi_win", BOOL, True, "一炮多響", "一張放炮牌可讓多家同時和牌。"),
    Param("lou_hu", BOOL, True, "漏胡", "放過和牌後，動牌之前不可再和同一張。"),
    BOT_LEVEL,
)

YUEQING_VARIANTS = (Variant("wuhanhua", "武漢花"),)
YUEQING_PARAMS = (
    Param("qi_hu_tai", INT, 0, "起胡台數", "和牌所需的最少台數（0 為不限）。", low=0, high=30),
    Param("escape_multiple", INT, 10, "逃跑倍數", "逃跑者按此倍數付給其他每家。", low=1, high=100),
    BOT_LEVEL,
)
