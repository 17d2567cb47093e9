"""Shanten (向聽: tiles from a win) for bots, with wild tiles.

For 13-tile games without wilds the count is PyMahjongGB's ``MahjongShanten`` (all GB shapes);
otherwise a counts-array search for the regular shape (sets + taatsu + pair) of any size, each wild
taking one step off (a wild turns a partial set into a set, a single into a partial or a pair) —
an estimate that is exact for the common cases and good enough to steer a bot.

The regular count runs in C when ``games/rules/mahjong/_mjsim.c`` is built (``./leyou`` builds
it; the same per-suit search, ~10× faster); the Python search below stays the reference
(``regular_shanten_py``, checked against the C one on random hands by
``tests/test_mjsim.py``) and is used without the extension or with ``LEYOU_NATIVE=0``.
"""

from __future__ import annotations

import os
from functools import lru_cache

from games.rules.mahjong.tiles import N_KINDS, counts_of

try:  # the C extension; bots fall back to the counts search without it
    import MahjongGB as _GB
except ImportError:  # pragma: no cover
    _GB = None

try:  # the C shanten and simulator (games/rules/mahjong/_mjsim.c, built by ./leyou)
    if os.environ.get("LEYOU_NATIVE", "1") == "0":
        raise ImportError("LEYOU_NATIVE=0")
    from games.rules.mahjong import _mjsim as native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    native = None


@lru_cache(maxsize=1 << 16)
def _partials(
    counts: tuple[int, ...], start: int, suited: bool, dead: int = 0
) -> dict[tuple[int, int], int]:
    """(sets, pair) → best number of partial sets of one suit (or the honours), from ``start``.

    ``counts`` is the suit's own counts (9 kinds, or the 7 honours with ``suited`` false): a
    suit's decompositions do not depend on the other suits, so the cache is small and shared
    by every hand holding the same tiles of that suit. ``dead`` is a bit mask of the suit's
    kinds no draw can bring (every copy seen, or out of play): a partial set waiting only on
    dead kinds is no partial set (a pair still is the pair)."""
    n = len(counts)
    i = start
    while i < n and counts[i] == 0:
        i += 1
    if i >= n:
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

    def live(k: int) -> bool:
        return 0 <= k < n and not dead >> k & 1

    c = counts[i]
    if c >= 3:
        merge(_partials(take(i, i, i), i, suited, dead), 1, 0, 0)
    if suited and i <= 6 and counts[i + 1] and counts[i + 2]:
        merge(_partials(take(i, i + 1, i + 2), i, suited, dead), 1, 0, 0)
    if c >= 2:
        sub = _partials(take(i, i), i, suited, dead)
        merge(sub, 0, 1, 0)
        if live(i):
            merge(sub, 0, 0, 1)
    if suited and i <= 7 and counts[i + 1] and (live(i - 1) or live(i + 2)):
        merge(_partials(take(i, i + 1), i, suited, dead), 0, 0, 1)
    if suited and i <= 6 and counts[i + 2] and live(i + 1):
        merge(_partials(take(i, i + 2), i, suited, dead), 0, 0, 1)
    merge(_partials(take(i), i, suited, dead), 0, 0, 0)  # leave it as a single
    return out


_GROUPS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, N_KINDS, False))


def _combine(
    a: dict[tuple[int, int], int], b: dict[tuple[int, int], int], sets: int
) -> dict[tuple[int, int], int]:
    """The (sets capped at ``sets``, pair) → most partials table of two disjoint groups."""
    out: dict[tuple[int, int], int] = {}
    for (m, p), t in a.items():
        for (m2, p2), t2 in b.items():
            if p + p2 > 1:
                continue
            key = (min(sets, m + m2), p + p2)
            if out.get(key, -1) < t + t2:
                out[key] = t + t2
    return out


def _value(states: dict[tuple[int, int], int], wilds: int, sets: int) -> int:
    best = 99
    for (m, p), t in states.items():
        best = min(best, 2 * (sets - m) - min(t, sets - m) - p)
    return max(-1, best - wilds)


def _tables(counts: tuple[int, ...], dead: int) -> list[dict[tuple[int, int], int]]:
    return [
        _partials(counts[lo:hi], 0, suited, dead >> lo & ((1 << (hi - lo)) - 1))
        for lo, hi, suited in _GROUPS
    ]


def regular_shanten(counts: tuple[int, ...], wilds: int, sets: int, dead: int = 0) -> int:
    """Shanten of the regular shape needing ``sets`` sets and a pair; -1 is a win.

    The suits are searched apart (:func:`_partials`) and combined keeping, for each (sets
    capped at ``sets``, pair), the most partial sets — exact, since more partials never
    raise the count. ``dead``: a bit per kind (bit k for kind k) no draw can bring. In C when
    the extension is built (the same count)."""
    if native is not None and sets <= 12:
        try:
            return int(native.shanten(bytes(counts), wilds, sets, dead))
        except ValueError:  # a count over 4 (no real hand): the Python search counts it
            pass
    return regular_shanten_py(counts, wilds, sets, dead)


def regular_shanten_py(counts: tuple[int, ...], wilds: int, sets: int, dead: int = 0) -> int:
    """:func:`regular_shanten` in Python (the reference the C count is tested against)."""
    states: dict[tuple[int, int], int] = {(0, 0): 0}
    for table in _tables(counts, dead):
        states = _combine(states, table, sets)
    return _value(states, wilds, sets)


def shanten_after_draws(
    counts: tuple[int, ...], wilds: int, sets: int, kinds: list[int], dead: int = 0
) -> list[int]:
    """``regular_shanten`` of ``counts`` plus one tile of each of ``kinds`` (for 進張): the
    groups a draw does not touch are combined once, so each kind costs one combination (in C,
    one count per kind)."""
    if native is not None:
        out_c = []
        base = list(counts)
        for k in kinds:
            base[k] += 1
            out_c.append(regular_shanten(tuple(base), wilds, sets, dead))
            base[k] -= 1
        return out_c
    tables = _tables(counts, dead)
    start: dict[tuple[int, int], int] = {(0, 0): 0}
    others: list[dict[tuple[int, int], int]] = []
    for g in range(len(_GROUPS)):
        states = start
        for h, table in enumerate(tables):
            if h != g:
                states = _combine(states, table, sets)
        others.append(states)
    out = []
    for k in kinds:
        g = next(i for i, (lo, hi, _s) in enumerate(_GROUPS) if lo <= k < hi)
        lo, hi, suited = _GROUPS[g]
        group = list(counts[lo:hi])
        group[k - lo] += 1
        table = _partials(tuple(group), 0, suited, dead >> lo & ((1 << (hi - lo)) - 1))
        out.append(_value(_combine(others[g], table, sets), wilds, sets))
    return out


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


__all__ = [
    "native",
    "regular_shanten",
    "regular_shanten_py",
    "shanten",
    "shanten_after_draws",
    "useful_kinds",
]
