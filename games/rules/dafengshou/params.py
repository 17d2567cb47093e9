"""Room parameters of 大豐收 that an operator sets (games/engine/params.py).

The odds table and the cell weights decide the return-to-player (返獎率): the admin shows it
(``wheel.expected_rtp``). Crop order: 蘋果 apple, 橘子 orange, 葡萄 grape, 玉米 corn, 西瓜
watermelon, 桃子 peach, 南瓜 pumpkin, 稻米 rice. 玩法: 經典 classic.
"""

from __future__ import annotations

from games.engine.params import INT, INT_LIST, Param, Variant

VARIANTS = (Variant("classic", "經典"),)

_CROPS = "蘋果、橘子、葡萄、玉米、西瓜、桃子、南瓜、稻米"

ROOM_PARAMS = (
    Param(
        "odds",
        INT_LIST,
        [5, 10, 15, 20, 20, 30, 40, 100],
        "大格賠率",
        f"八種作物大格的賠率（含本金），依序 {_CROPS}。",
        low=2,
        high=1000,
        length=8,
    ),
    Param("small_odds", INT, 2, "小格賠率", "每個小格的賠率（含本金）。", low=1, high=100),
    Param(
        "big_weights",
        INT_LIST,
        [326, 344, 216, 129, 371, 190, 171, 80],
        "大格權重",
        f"每種作物大格被轉中的權重，依序 {_CROPS}。",
        low=0,
        high=100_000,
        length=8,
    ),
    Param(
        "small_weights",
        INT_LIST,
        [780] * 8,
        "小格權重",
        f"每種作物小格被轉中的權重，依序 {_CROPS}。",
        low=0,
        high=100_000,
        length=8,
    ),
    Param("luck_weight", INT, 150, "好運格權重", "兩個好運格各自的權重。", low=0, high=100_000),
    Param(
        "special_weights",
        INT_LIST,
        [1, 2, 2, 3, 2],
        "好運獎項權重",
        "好運格上 大三元、小三元、大四喜、開火車、落空 的權重。",
        low=0,
        high=100_000,
        length=5,
    ),
    Param("train_min", INT, 3, "開火車最短", "開火車最少連中的格數。", low=1, high=20),
    Param("train_max", INT, 6, "開火車最長", "開火車最多連中的格數。", low=1, high=20),
    Param(
        "chips",
        INT_LIST,
        [10, 100, 1000, 10000],
        "籌碼",
        "可下注的籌碼面額（豆），以逗號分隔。",
        low=1,
        high=10_000_000,
    ),
    Param(
        "player_limit",
        INT,
        100000,
        "每人每局上限（豆）",
        "一名玩家一局最多押注。",
        low=1,
        high=10**12,
    ),
    Param(
        "round_limit", INT, 10000000, "每局總上限（豆）", "全場一局最多押注。", low=1, high=10**13
    ),
    Param("bet_seconds", INT, 15, "押注秒數", "每局押注的時間。", low=3, high=600),
    Param("spin_seconds", INT, 6, "開獎秒數", "轉盤轉動到派彩的時間。", low=1, high=120),
)
