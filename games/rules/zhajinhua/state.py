"""One hand of 歡樂三張 as a value: the seat statuses and :class:`State` (the ruleset and the bot
both read it; neither imports the other for it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .params import Config

IN = "in"  # still playing
FOLDED = "folded"  # 棄牌
LOST = "lost"  # lost a 比牌

BETTING = "betting"
OVER = "over"

STATUS_ZH = {IN: "在局", FOLDED: "棄牌", LOST: "比牌輸"}


@dataclass(slots=True)
class State:
    """One hand of 歡樂三張. Mutable; apply() changes it only after full validation."""

    config: Config
    seed: str
    seats: int
    hands: list[list[str]]  # three cards per seat, as dealt
    looked: list[bool]  # 看牌 done (irreversible)
    status: list[str]  # IN / FOLDED / LOST
    stakes: list[int]  # beans each seat has put into the pot (底注 included)
    bets: list[int]  # 跟注/加注 made (the 手 counted by 手數封頂)
    turns: list[int]  # turns taken (跟注/加注/比牌); 看牌 and 棄牌 are not turns
    unit: int  # the current unit u: a blind bet costs u, a seen bet 2u
    current: int  # the seat to act; -1 when the hand is over
    compares: list[list[int]] = field(default_factory=list)  # [asker, target, loser] per 比牌
    log: list[dict[str, Any]] = field(default_factory=list)  # public record of the hand
    winner: int = -1
    ended_by: str = ""  # "compare" (the last two compared) or "fold"
