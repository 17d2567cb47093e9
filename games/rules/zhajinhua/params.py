"""Room parameters of 歡樂三張 (RULES-NOTES §5): the Config snapshotted for each hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
    """

    ante: int = 1
    chip_levels: tuple[int, ...] = (1, 2, 5, 10)
    unit_cap: int = 20
    round_cap: int = 20
    compare_from_round: int = 2
    seat_beans: tuple[int, ...] = ()
    dealer: int = 0

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
    """Build a Config from a room's parameters; unknown keys are ignored."""
    values: dict[str, Any] = {}
    for key in _INT_KEYS:
        if key in params and params[key] is not None:
            values[key] = int(params[key])
    if params.get("chip_levels") is not None:
        values["chip_levels"] = tuple(int(v) for v in params["chip_levels"])
    if params.get("seat_beans") is not None:
        values["seat_beans"] = tuple(int(v) for v in params["seat_beans"])
    return Config(**values)
