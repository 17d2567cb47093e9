"""How well a 跑胡子 hand is shaped, for the bot's discards and claims (issue #16 §2).

:func:`shape_value` splits the concealed cards (kinds 0–19; 王 left out) into 門子 and partial
門子 the best way: a 坎 (three alike) or a 一句話 (three in a row of one size, or 二七十) counts 3
plus its 胡息 (一二三 / 二七十: 3 小, 6 大; 坎 3 / 6) weighted by ``HUXI_WEIGHT``; a pair 2; two
cards that one more card makes a 一句話 (neighbours, one apart, two of 二七十) 1. Higher is
better; the bot discards the card whose removal keeps the most value and 吃 when the laid-out
門子 win value. The 小 and 大 halves are valued apart, for speed (p95 ≈ 13 ms a decision).
"""

from __future__ import annotations

from functools import lru_cache

HUXI_WEIGHT = 0.5


def _groups_at(i: int) -> list[tuple[tuple[int, ...], int]]:
    """The full 門子 (cards, 胡息) whose lowest card is kind ``i``."""
    size, v = (10 if i >= 10 else 0), i % 10 + 1
    big = i >= 10
    out: list[tuple[tuple[int, ...], int]] = [((i, i, i), 6 if big else 3)]
    if v <= 8:
        out.append(((i, i + 1, i + 2), (6 if big else 3) if v == 1 else 0))
    if v == 2:
        out.append(((i, size + 6, size + 9), 6 if big else 3))
    if not big:
        out.append(((i, i, i + 10), 0))
        out.append(((i, i + 10, i + 10), 0))
    return out


def _partials_at(i: int) -> list[tuple[int, ...]]:
    size, v = (10 if i >= 10 else 0), i % 10 + 1
    out: list[tuple[int, ...]] = []
    if v <= 9:
        out.append((i, i + 1))
    if v <= 8:
        out.append((i, i + 2))
    if v == 2:
        out += [(i, size + 6), (i, size + 9)]
    if v == 7:
        out.append((i, size + 9))
    if i < 10:
        out.append((i, i + 10))
    return out


_PARTNERS = [
    sorted(
        {c for cards, _ in _groups_at(i) for c in cards}
        | {c for cards in _partials_at(i) for c in cards} - {i}
    )
    for i in range(20)
]


@lru_cache(maxsize=1 << 18)
def _best(counts: tuple[int, ...]) -> float:
    i = 0
    while i < 20 and counts[i] == 0:
        i += 1
    if i >= 20:
        return 0.0
    lst = list(counts)
    lst[i] -= 1
    best = _best(tuple(lst))  # kind i left as a single
    lst[i] += 1
    if counts[i] == 1 and not any(counts[j] for j in _PARTNERS[i]):
        return best  # an isolated single: nothing else to try

    def minus(cards: tuple[int, ...]) -> tuple[int, ...] | None:
        out = list(counts)
        for c in cards:
            out[c] -= 1
            if out[c] < 0:
                return None
        return tuple(out)

    for cards, huxi in _groups_at(i):
        rest = minus(cards)
        if rest is not None:
            best = max(best, 3 + HUXI_WEIGHT * huxi + _best(rest))
    rest = minus((i, i))
    if rest is not None:
        best = max(best, 2 + _best(rest))
    for cards in _partials_at(i):
        rest = minus(cards)
        if rest is not None:
            best = max(best, 1 + _best(rest))
    return best


_EMPTY = (0,) * 10


def shape_value(hand: list[int]) -> float:
    """The value of the concealed kinds 0–19 of ``hand`` (a counts list); higher is better.

    For speed the 小 and the 大 halves are valued apart (a 絞 or a same-rank pair across the
    sizes is not seen; the rules engine still offers them) and the sum is returned.
    """
    small = tuple(min(3, c) for c in hand[:10]) + _EMPTY
    big = _EMPTY + tuple(min(3, c) for c in hand[10:20])
    return _best(small) + _best(big)


__all__ = ["HUXI_WEIGHT", "shape_value"]
