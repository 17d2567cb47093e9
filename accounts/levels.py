"""The 23 levels 包身工 → 帝王 from per-game cumulative score (seed 003; RULES-NOTES §2 #1).

Each threshold is the lower bound of its level; scores below 30 (negatives included) are 包身工.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

LEVELS: tuple[tuple[int, str], ...] = (
    (-(10**18), "包身工"),
    (30, "短工"),
    (60, "長工"),
    (90, "佃戶"),
    (180, "貧農"),
    (320, "漁夫"),
    (530, "獵人"),
    (840, "中農"),
    (1150, "富農"),
    (1600, "掌櫃"),
    (2300, "商人"),
    (3450, "衙役"),
    (5000, "小財主"),
    (6900, "大財主"),
    (9200, "小地主"),
    (12600, "大地主"),
    (17700, "知縣"),
    (23000, "通判"),
    (32200, "知府"),
    (46000, "總督"),
    (69000, "巡撫"),
    (103000, "丞相"),
    (161000, "帝王"),
)
_BOUNDS = [bound for bound, _ in LEVELS]


@dataclass(frozen=True, slots=True)
class Level:
    number: int  # 1 … 23
    name: str
    next_at: int | None  # score where the next level starts, None at 帝王


def level_for_score(score: int) -> Level:
    """Return the level a cumulative score reaches."""
    # below the first bound (only absurdly negative totals) is still 包身工, never index -1 (帝王)
    index = max(0, bisect_right(_BOUNDS, score) - 1)
    next_at = _BOUNDS[index + 1] if index + 1 < len(_BOUNDS) else None
    return Level(number=index + 1, name=LEVELS[index][1], next_at=next_at)
