"""Three-card hand ranking of 歡樂三張 (seed 000, 二、牌型 and 三、牌型的比較).

    豹子 > 順金 > 金花 > 順子 > 對子 > 單張
    牌點從大到小為：A、K、Q、J、10、9、8、7、6、5、4、3、2，各花色不分大小
    順金、順子按照順序比點。AKQ > KQJ > … > 32A。
    特殊牌型在普通時比較大小按單張牌型來算。當豹子存在時，特殊牌型 > 豹子。

Cards use the shared notation (:mod:`games.engine.cards`): rank + suit, ``'As'``, ``'Th'``,
``'2d'``. A hand is three distinct cards, given as a sequence of card strings or one string
(``"As Th 2d"`` or ``"AsTh2d"``).

Comparison is pairwise and intransitive because of 特殊 (a mixed-suit 2-3-5): it beats every
豹子 and is the lowest 單張 against everything else; a 2-3-5 of one suit is an ordinary 金花.
Suits never break ties: equal hands compare 0 (in a 比牌 the asker then loses, see the ruleset).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.engine.cards import SUITS

# 三張 rank values: 2 lowest … A highest (A also plays low in A-2-3, see _straight_top)
RANK_POINTS = {r: i for i, r in enumerate("23456789TJQKA", start=2)}

# hand classes, low to high (pinyin: no English equivalents for these names)
DANZHANG = "danzhang"  # 單張 high card
DUIZI = "duizi"  # 對子 pair
SHUNZI = "shunzi"  # 順子 straight of mixed suits
JINHUA = "jinhua"  # 金花 flush
SHUNJIN = "shunjin"  # 順金 straight flush
BAOZI = "baozi"  # 豹子 three of a kind
CLASSES = (DANZHANG, DUIZI, SHUNZI, JINHUA, SHUNJIN, BAOZI)
CLASS_RANK = {name: i for i, name in enumerate(CLASSES)}
CLASS_NAMES_ZH = {
    DANZHANG: "單張",
    DUIZI: "對子",
    SHUNZI: "順子",
    JINHUA: "金花",
    SHUNJIN: "順金",
    BAOZI: "豹子",
}

HandLike = Sequence[str] | str


def parse_hand(hand: HandLike) -> tuple[str, str, str]:
    """Return the hand as a sorted tuple of three distinct cards; ValueError if it is not one."""
    if isinstance(hand, str):
        text = hand.replace(" ", "").replace(",", "")
        cards = [text[i : i + 2] for i in range(0, len(text), 2)]
    else:
        cards = list(hand)
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError(f"a hand is three distinct cards, got {hand!r}")
    for card in cards:
        if (
            not isinstance(card, str)
            or len(card) != 2
            or card[0] not in RANK_POINTS
            or card[1] not in SUITS
        ):
            raise ValueError(f"not a card: {card!r}")
    a, b, c = sorted(cards)
    return (a, b, c)


def _straight_top(points: list[int]) -> int | None:
    """The top point of a straight (A-2-3 tops at 3, Q-K-A at 14), None if not a straight."""
    high, mid, low = points  # descending
    if high - mid == 1 and mid - low == 1:
        return high
    if points == [14, 3, 2]:  # 32A, the lowest straight
        return 3
    return None


@lru_cache(maxsize=32768)
def _key(cards: tuple[str, str, str]) -> tuple[int, tuple[int, ...], bool]:
    points = sorted((RANK_POINTS[c[0]] for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    top = _straight_top(points)
    if points[0] == points[2]:
        return CLASS_RANK[BAOZI], (points[0],), False
    if top is not None:
        return CLASS_RANK[SHUNJIN if flush else SHUNZI], (top,), False
    if flush:
        return CLASS_RANK[JINHUA], tuple(points), False
    if points[0] == points[1] or points[1] == points[2]:
        pair = points[1]
        kicker = points[2] if points[0] == points[1] else points[0]
        return CLASS_RANK[DUIZI], (pair, kicker), False
    return CLASS_RANK[DANZHANG], tuple(points), points == [5, 3, 2]


def hand_key(hand: HandLike) -> tuple[int, tuple[int, ...]]:
    """Return (class rank 0–5, tie-break points): the order of every hand except 特殊 vs 豹子."""
    cls, tiebreak, _special = _key(parse_hand(hand))
    return cls, tiebreak


def hand_class(hand: HandLike) -> str:
    """Return the class identifier (``'baozi'`` … ``'danzhang'``); 特殊 235 is ``'danzhang'``."""
    return CLASSES[_key(parse_hand(hand))[0]]


def is_special(hand: HandLike) -> bool:
    """Whether the hand is 特殊: 2, 3 and 5 not all of one suit."""
    return _key(parse_hand(hand))[2]


def compare(hand_a: HandLike, hand_b: HandLike) -> int:
    """Return 1 if hand_a beats hand_b, -1 if it loses, 0 if they are equal (suits never count).

    Pairwise, with the seed's 特殊 rule: a mixed-suit 2-3-5 beats any 豹子; against anything
    else it is the lowest 單張.
    """
    ka = _key(parse_hand(hand_a))
    kb = _key(parse_hand(hand_b))
    baozi = CLASS_RANK[BAOZI]
    if ka[2] and kb[0] == baozi:
        return 1
    if kb[2] and ka[0] == baozi:
        return -1
    left = (ka[0], ka[1])
    right = (kb[0], kb[1])
    return (left > right) - (left < right)


def describe(hand: HandLike) -> str:
    """Return the Chinese class name, with 特殊 marked (e.g. ``'單張（特殊235）'``)."""
    cls, _tiebreak, special = _key(parse_hand(hand))
    name = CLASS_NAMES_ZH[CLASSES[cls]]
    return f"{name}（特殊235）" if special else name


@lru_cache(maxsize=1)
def _sorted_keys() -> list[tuple[int, tuple[int, ...]]]:
    from itertools import combinations

    from games.engine.cards import suited_deck

    return sorted(hand_key(h) for h in combinations(suited_deck(), 3))


def strength(hand: HandLike) -> float:
    """Return the share of all 22,100 hands this hand beats (0.0–1.0), for bots and 托管."""
    from bisect import bisect_left

    keys = _sorted_keys()
    return bisect_left(keys, hand_key(hand)) / len(keys)
