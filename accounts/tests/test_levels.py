"""The 23 levels 包身工 → 帝王 (RULES-NOTES §2 #1): every boundary, negatives included."""

from __future__ import annotations

import pytest

from accounts.levels import LEVELS, level_for_score

# (name, lowest score, highest score) exactly as RULES-NOTES §2 #1 lists them
LADDER = [
    ("包身工", None, 29),
    ("短工", 30, 59),
    ("長工", 60, 89),
    ("佃戶", 90, 179),
    ("貧農", 180, 319),
    ("漁夫", 320, 529),
    ("獵人", 530, 839),
    ("中農", 840, 1149),
    ("富農", 1150, 1599),
    ("掌櫃", 1600, 2299),
    ("商人", 2300, 3449),
    ("衙役", 3450, 4999),
    ("小財主", 5000, 6899),
    ("大財主", 6900, 9199),
    ("小地主", 9200, 12599),
    ("大地主", 12600, 17699),
    ("知縣", 17700, 22999),
    ("通判", 23000, 32199),
    ("知府", 32200, 45999),
    ("總督", 46000, 68999),
    ("巡撫", 69000, 102999),
    ("丞相", 103000, 160999),
    ("帝王", 161000, None),
]


def test_there_are_23_levels_in_order():
    """The ladder has 23 names, in the order of the notes."""
    assert [name for _, name in LEVELS] == [name for name, _, _ in LADDER]


@pytest.mark.parametrize("number,name,low,high", [(i + 1, *row) for i, row in enumerate(LADDER)])
def test_each_level_starts_and_ends_exactly_at_its_bounds(number, name, low, high):
    """Each level covers exactly [low, high]: its first and last score, and not one beyond."""
    for score in (s for s in (low, high) if s is not None):
        level = level_for_score(score)
        assert (level.number, level.name) == (number, name)
    if low is not None:
        assert level_for_score(low - 1).number == number - 1
    if high is not None:
        assert level_for_score(high + 1).number == number + 1
        assert level_for_score(low if low is not None else high).next_at == high + 1
    else:
        assert level_for_score(low).next_at is None


@pytest.mark.parametrize("score", [0, -1, -30, -161000, -(10**18), -(10**18) - 1, -(10**30)])
def test_zero_and_negative_scores_are_the_lowest_level(score):
    """No score, however negative, is above 包身工 (a negative total never wraps to 帝王)."""
    level = level_for_score(score)
    assert (level.number, level.name, level.next_at) == (1, "包身工", 30)


def test_huge_scores_stay_at_the_top():
    """Beyond 161000 everything is 帝王, with no next level."""
    level = level_for_score(10**15)
    assert (level.number, level.name, level.next_at) == (23, "帝王", None)
