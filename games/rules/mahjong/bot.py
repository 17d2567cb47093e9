"""Shanten (向聽: tiles from a win) for bots, with wild tiles.

For 13-tile games without wilds the count is PyMahjongGB's ``MahjongShanten`` (all GB shapes);
otherwise a counts-array search for the regular shape (sets + taatsu + pair) of any size, each wild
taking one step off (a wild turns a partial set into a set, a single into a partial or a pair) —
an estimate that is exact for the common cases and good enough to steer a bot.
"""

from __future__ import annotations

from functools import lru_cache

from games.rules.mahjong.tiles import N_KINDS, counts_of, is_suited_index

try:  # the C extension; bots fall back to the counts search without it
    import MahjongGB as _GB
except ImportError:  # pragma: no cover
    _GB = None


@lru_cache(maxsize=1 << 16)
def _partials(counts: tuple[int, ...], start: int) -> dict[tuple[int, int], int]:
    """(sets, pair) → best number of partial sets, over the kinds from ``start`` on."""
    i = start
    while i < N_KINDS and counts[i] == 0:
        i += 1
    if i >= N_KINDS:
        return {(0, 0): 0}
    out: dict[tuple[int, int], int] = {}

    def merge(sub: dict[tuple[int, int], int], dm: int, dp: int, dt: int) -> None:
        for (m, p), t in sub.items():
            if p + dp > 1:
                continue
            key = (m + dm, p + dp)
            if out.get(key, -1) < t + dt:
                out[key] = t + dt

    def take(*kinds: int) -> tuple[int, ...]:
        lst = list(counts)
        for k in kinds:
            lst[k] -= 1
        return tuple(lst)

    c = counts[i]
    suited = is_suited_index(i)
    pos = i % 9
    if c >= 3:
        merge(_partials(take(i, i, i), i), 1, 0, 0)
    if suited and pos <= 6 and counts[i + 1] and counts[i + 2]:
        merge(_partials(take(i, i + 1, i + 2), i), 1, 0, 0)
    if c >= 2:
        merge(_partials(take(i, i), i), 0, 1, 0)
        merge(_partials(take(i, i), i), 0, 0, 1)
    if suited and pos <= 7 and counts[i + 1]:
        merge(_partials(take(i, i + 1), i), 0, 0, 1)
    if suited and pos <= 6 and counts[i + 2]:
        merge(_partials(take(i, i + 2), i), 0, 0, 1)
    merge(_partials(take(i), i), 0, 0, 0)  # leave it as a single
    return out


def regular_shanten(counts: tuple[int, ...], wilds: int, sets: int) -> int:
    """Shanten of the regular shape needing ``sets`` sets and a pair; -1 is a win."""
    best = 99
    for (m, p), t in _partials(counts, 0).items():
        m = min(m, sets)
        t = min(t, sets - m)
        value = 2 * (sets - m) - t - p
        best = min(best, value)
    return max(-1, best - wilds)


def shanten(
    naturals: list[str], wilds: int, packs: tuple[tuple[str, str, int], ...], sets: int, gb: bool
) -> int:
    """Tiles from a win for the concealed ``naturals`` + ``wilds`` beside ``packs``.

    ``gb`` asks for PyMahjongGB's count (13-tile games, GB shapes) where it applies.
    """
    counts = counts_of(naturals)
    if gb and _GB is not None and wilds == 0 and len(naturals) + 3 * len(packs) == 13:
        try:
            return int(_GB.MahjongShanten(packs, tuple(naturals)))
        except TypeError:
            pass
    return regular_shanten(counts, wilds, sets)


def useful_kinds(naturals: list[str]) -> set[str]:
    """Kinds held or next to a held suited kind (candidates worth keeping)."""
    out: set[str] = set()
    for t in naturals:
        out.add(t)
        if t[0] in "WTB":
            n = int(t[1:])
            for d in (-2, -1, 1, 2):
                if 1 <= n + d <= 9:
                    out.add(f"{t[0]}{n + d}")
    return out


__all__ = ["regular_shanten", "shanten", "useful_kinds"]
