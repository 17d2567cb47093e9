"""Playing-card notation shared by the poker games (DESIGN.md §2).

Ranks low to high as 斗地主 orders them: ``3456789TJQKA2``, then ``B`` (small/black joker) and
``R`` (big/red joker). Suited cards (歡樂三張) are rank + suit, suits ``s h d c``: ``As Th 2d``.
"""

from __future__ import annotations

RANKS = "3456789TJQKA2BR"
RANK_VALUE = {rank: index for index, rank in enumerate(RANKS)}
SUITS = "shdc"
RANK_NAMES_ZH = {
    "T": "10",
    "J": "J",
    "Q": "Q",
    "K": "K",
    "A": "A",
    "2": "2",
    "B": "小王",
    "R": "大王",
}


def sort_ranks(cards: str) -> str:
    """Return the rank string sorted low to high (``'2A3'`` → ``'3A2'``)."""
    return "".join(sorted(cards, key=RANK_VALUE.__getitem__))


def is_rank_string(text: str) -> bool:
    """Whether every character is a known rank."""
    return all(ch in RANK_VALUE for ch in text)


def doudizhu_deck() -> list[str]:
    """The 54 cards of 斗地主 as ranks: four of 3…2 and the two jokers."""
    return [rank for rank in RANKS[:13] for _ in range(4)] + ["B", "R"]


def suited_deck() -> list[str]:
    """The 52 suited cards, e.g. ``'As'``, ``'Td'`` (no jokers)."""
    return [rank + suit for rank in RANKS[:13] for suit in SUITS]
