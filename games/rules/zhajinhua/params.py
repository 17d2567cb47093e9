"""Room parameters of 歡樂三張 (RULES-NOTES §5): the Config snapshotted for each hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.params import BOT_LEVEL, INT, INT_LIST, Param, ParamError, Variant

# the 玩法 and the options an operator sets in a room (games/engine/params.py); the room's
# 底分 (``base_score``) is the hand's 底注 ``ante``
VARIANTS = (Variant("classic", "經典"),)
ROOM_PARAMS = (
    Param(
        "chip_levels",
        INT_LIST,
        [1, 2, 5, 10],
        "加注級別（豆）",
        "單位可加到的數額，由小到大、以逗號分隔。",
        low=1,
        high=10**9,
    ),
    Param(
        "unit_cap",
        INT,
        20,
        "單注封頂（豆）",
        "一次下注（明注）最多的豆；至少為底注的兩倍。",
        low=2,
        high=10**10,
    ),
    Param("round_cap", INT, 20, "手數封頂", "每人一盤最多跟注、加注的次數。", low=1, high=200),
    Param("compare_from_round", INT, 2, "可比手數", "第幾手起可以比牌。", low=1, high=200),
    Param("min_players", INT, 2, "開局人數", "坐下多少人才發牌（2 至座位數）。", low=2, high=6),
    Param(
        "target_players",
        INT,
        4,
        "目標人數",
        "一桌湊到多少人：等候時間到了，機器人補到這個人數（不少於開局人數，不多於座位數）。",
        low=2,
        high=6,
    ),
    Param(
        "escape_penalty", INT, 0, "逃跑罰豆", "逃跑者另付的豆（不超過所有）。", low=0, high=10**9
    ),
    BOT_LEVEL,
)


@dataclass(frozen=True, slots=True)
class Config:
    """The options one hand is played with. All amounts are in beans.

    * ``ante`` — 底注, staked by every seat at the deal; also the opening unit.
    * ``chip_levels`` — the values the unit may be raised to (加注 ``to``), ascending.
    * ``unit_cap`` — 單注封頂: the most one bet may cost, on the seen (明注) scale, so a raise
      ``to`` L is allowed only if 2·L ≤ unit_cap (RULES-NOTES §5 #2).
    * ``round_cap`` — 手數封頂: the most 跟注/加注 one seat may make in a hand (底注 and 比牌
      not counted); past it only 比牌 and 棄牌.
    * ``compare_from_round`` — 可比手數: a seat may 比牌 from its n-th turn on (default 2, so
      after one bet); with only two players left always.
    * ``seat_beans`` — each seat's beans at the start of the hand (empty: no limit, for free
      play and tests). A seat never stakes more than it has: see the all-in rule in
      docs/rules/zhajinhua.md.
    * ``dealer`` — the dealer seat (莊); the seat after it acts first. The service rotates it.
    * ``bot_level`` — 機器人強度: ``"novice"`` (新手場) seats the baseline player
      (games/rules/zhajinhua/baseline.py) in the bot's place, for 托管 too.
    """

    ante: int = 1
    chip_levels: tuple[int, ...] = (1, 2, 5, 10)
    unit_cap: int = 20
    round_cap: int = 20
    compare_from_round: int = 2
    seat_beans: tuple[int, ...] = ()
    dealer: int = 0
    bot_level: str = "normal"

    def __post_init__(self) -> None:
        if self.ante < 1:
            raise ValueError("ante must be at least 1")
        if not self.chip_levels or list(self.chip_levels) != sorted(set(self.chip_levels)):
            raise ValueError("chip_levels must be distinct and ascending")
        if self.chip_levels[0] < 1:
            raise ValueError("chip levels must be positive")
        if self.unit_cap < 2 * self.ante:
            raise ValueError("unit_cap must allow a seen player's call (2 × ante)")
        if self.round_cap < 1:
            raise ValueError("round_cap must be at least 1")
        if self.compare_from_round < 1:
            raise ValueError("compare_from_round must be at least 1")
        if any(b < 0 for b in self.seat_beans):
            raise ValueError("seat_beans must not be negative")
        if self.dealer < 0:
            raise ValueError("dealer must be a seat index")


_INT_KEYS = ("ante", "unit_cap", "round_cap", "compare_from_round", "dealer")


def config_from_params(params: dict[str, Any]) -> Config:
    """Build a Config from a room's parameters; unknown keys are ignored.

    The 底注 is ``ante`` if given, else the room's 底分 ``base_score``; ``variant`` if given
    must be one of :data:`VARIANTS`; a bad combination raises ParamError on its field."""
    if params.get("variant") is not None and params["variant"] not in [v.id for v in VARIANTS]:
        raise ParamError("variant", f"unknown 三張 variant {params['variant']!r}")
    values: dict[str, Any] = {}
    if params.get("base_score") is not None:
        values["ante"] = int(params["base_score"])
    for key in _INT_KEYS:
        if key in params and params[key] is not None:
            values[key] = int(params[key])
    if params.get("chip_levels") is not None:
        values["chip_levels"] = tuple(int(v) for v in params["chip_levels"])
    if params.get("seat_beans") is not None:
        values["seat_beans"] = tuple(int(v) for v in params["seat_beans"])
    if params.get("bot_level") is not None:
        values["bot_level"] = BOT_LEVEL.parse(params["bot_level"])
    ante = values.get("ante", 1)
    if "unit_cap" in values and values["unit_cap"] < 2 * ante:
        raise ParamError(
            "unit_cap", f"單注封頂 {values['unit_cap']} 低於看牌後跟注所需的 2 × 底注 = {2 * ante}"
        )
    if "chip_levels" in values and list(values["chip_levels"]) != sorted(
        set(values["chip_levels"])
    ):
        raise ParamError("chip_levels", "加注級別須由小到大、不可重複")
    return Config(**values)
