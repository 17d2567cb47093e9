"""Every decomposition of a winning hand into sets and a pair, for scoring (番 / 台).

The core's :mod:`games.rules.mahjong.hands` answers *whether* a hand wins (and with which wild
substitutions); scoring needs *how*: 平胡 (all chows) and 碰碰胡 (all pungs) depend on the
reading of e.g. ``111222333``, and 樂清's 財神 items (歸位, 財神做牛, 三財神刻) on which group each
wild joined. Used by 永州麻將 (no wilds) and 樂清麻將 (財神).

A group is ``(kind, kinds, wild_as)``:

* ``kind`` is ``"pair"``, ``"pung"`` or ``"chow"``;
* ``kinds`` the three (two for a pair) tile kinds it stands for, sorted;
* ``wild_as`` the kinds among them that are filled by wilds (sorted; empty for a natural group).

Groups made of wilds alone stand for whatever suits the scorer: they come back with ``kind``
``"free_pair"`` / ``"free_set"`` and empty ``kinds``; the scorer picks their reading.
"""

from __future__ import annotations

from functools import lru_cache

from games.rules.mahjong.tiles import is_suited_index

Group = tuple[str, tuple[int, ...], tuple[int, ...]]
Decomposition = tuple[Group, ...]


def _first(counts: tuple[int, ...]) -> int:
    for i, c in enumerate(counts):
        if c:
            return i
    return -1


@lru_cache(maxsize=1 << 14)
def _rec(counts: tuple[int, ...], wilds: int, sets: int, pair: int) -> frozenset[Decomposition]:
    i = _first(counts)
    if i < 0:
        if wilds != 3 * sets + 2 * pair:
            return frozenset()
        return frozenset({(("free_pair", (), ()),) * pair + (("free_set", (), ()),) * sets})
    out: set[Decomposition] = set()

    def go(group: Group, used: dict[int, int], w: int, ds: int, dp: int) -> None:
        if w > wilds:
            return
        lst = list(counts)
        for k, n in used.items():
            if lst[k] < n:
                return
            lst[k] -= n
        for rest in _rec(tuple(lst), wilds - w, sets - ds, pair - dp):
            out.add(tuple(sorted((group,) + rest)))

    c = counts[i]
    if pair:
        if c >= 2:
            go(("pair", (i, i), ()), {i: 2}, 0, 0, 1)
        go(("pair", (i, i), (i,)), {i: 1}, 1, 0, 1)
    if sets:
        for nat in (3, 2, 1):
            if c >= nat:
                go(("pung", (i, i, i), (i,) * (3 - nat)), {i: nat}, 3 - nat, 1, 0)
        if is_suited_index(i):
            base = i - i % 9
            for start in (i - 2, i - 1, i):
                if start < base or start + 2 >= base + 9:
                    continue
                others = [k for k in range(start, start + 3) if k != i]
                # each other position: natural when held (k > i) or a wild
                choices: list[list[tuple[int, bool]]] = [[]]
                for k in others:
                    nxt = []
                    for ch in choices:
                        if k > i and counts[k]:
                            nxt.append(ch + [(k, False)])
                        nxt.append(ch + [(k, True)])
                    choices = nxt
                for ch in choices:
                    used = {i: 1}
                    wild_as = []
                    for k, is_wild in ch:
                        if is_wild:
                            wild_as.append(k)
                        else:
                            used[k] = used.get(k, 0) + 1
                    go(
                        ("chow", (start, start + 1, start + 2), tuple(sorted(wild_as))),
                        used,
                        len(wild_as),
                        1,
                        0,
                    )
    return frozenset(out)


def decompositions(counts: tuple[int, ...], wilds: int, sets: int) -> frozenset[Decomposition]:
    """Every reading of the concealed ``counts`` + ``wilds`` as ``sets`` sets and one pair."""
    if sum(counts) + wilds != 3 * sets + 2:
        return frozenset()
    return _rec(tuple(counts), wilds, sets, 1)


__all__ = ["Decomposition", "Group", "decompositions"]
