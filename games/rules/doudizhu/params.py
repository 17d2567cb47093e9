"""Room parameters of 歡樂斗地主 that an operator sets (games/engine/params.py).

The common room fields (底分 = ``base_score``, 房間係數 N, 回收 A, 加倍門檻, clocks) are the
room's own; these are the game's extra options. 玩法: 經典 classic · 癩子 laizi · 悶抓 menzhua.
"""

from __future__ import annotations

from dataclasses import replace

from games.engine.params import BOT_LEVEL, INT, Param, Variant

VARIANTS = (Variant("classic", "經典場"), Variant("laizi", "癩子場"), Variant("menzhua", "悶抓場"))

ROOM_PARAMS = (
    Param(
        "score_cap",
        INT,
        10000,
        "癩子場封頂（積分）",
        "癩子場每人每盤輸贏的積分上限；0 為不封頂。只用於癩子場。",
        low=0,
        high=1_000_000,
    ),
    Param(
        "counter_price",
        INT,
        0,
        "記牌器價格（豆）",
        "每盤使用記牌器的費用；0 為不提供。",
        low=0,
        high=100_000,
    ),
    replace(
        BOT_LEVEL,
        help="新手場的機器人不作搜索，只按牌型估算出牌（較弱）；標準為完整的機器人。托管同樣適用。",
    ),
)
