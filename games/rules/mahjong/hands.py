"""Winning-hand decomposition with wild tiles (財神), substitutions and waits (聽牌).

Everything works on a counts array: ``counts[k]`` is the number of natural tiles of kind ``k``
(0–33, see :mod:`games.rules.mahjong.tiles`) in the concealed hand, ``wilds`` the number of wild
tiles (財神) that may stand for any kind. ``caps[k]`` is how many more copies of kind ``k`` a wild
may become — 4 minus the copies already in the hand and melds — so that a substitution never
makes a fifth copy of a kind (RULES-NOTES, 歡樂麻將 details settled).

Shapes (``shapes`` is a set of names a variant allows on top of the regular one):

* regular — ``sets`` sets (順子 or 刻子) and one pair from the concealed tiles (the melds supply
  the rest); a hand of 14 tiles is 4 sets and a pair, 17 tiles (樂清) 5 sets and a pair.
* ``qidui`` 七對 — seven pairs (four of a kind counts as two pairs, as in GB).
* ``shisanyao`` 十三幺 — the thirteen terminals and honours, one of them paired.
* ``quanbukao`` 全不靠 (and 七星不靠) — 14 distinct tiles from the honours and one knitted set
  (147/258/369 in three different suits).
* ``zuhelong`` 組合龍 — a knitted straight (the nine knitted tiles) plus a set and a pair
  (the set may be a meld).

The searches are depth-first over the counts array, always taking the lowest kind still held.
The yes/no checks (``is_win``) keep a memo (``functools.lru_cache``) keyed by the whole argument
tuple, a pure function cache, not game state; the listing of substitutions (``assignments``,
used by the best-fan search) is one pass that undoes its own steps, with the wilds left over at
the end placed from fixed tables of free pairs and sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, permutations

from games.rules.mahjong.tiles import N_KINDS, TERMINALS_HONOURS, is_suited_index

Counts = tuple[int, ...]
Assignment = tuple[int, ...]  # the kinds the wilds stand for, sorted

SPECIAL_SHAPES = ("qidui", "shisanyao", "quanbukao", "zuhelong")
_HONOUR_KINDS = tuple(range(27, 34))
# the six knitted sets: suit order for 147, 258, 369
_KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            perm[j] * 9 + n - 1
            for j, ns in enumerate(((1, 4, 7), (2, 5, 8), (3, 6, 9)))
            for n in ns
        )
    )
    for perm in permutations(range(3))
)


def full_caps(counts: Counts, meld_counts: Counts | None = None) -> Counts:
    """Return 4 − (natural copies in hand and melds) for every kind."""
    if meld_counts is None:
        return tuple(4 - c for c in counts)
    return tuple(4 - c - m for c, m in zip(counts, meld_counts))


# -- regular shape --------------------------------------------------------------------------------


def _first(counts: Counts) -> int:
    for i, c in enumerate(counts):
        if c:
            return i
    return -1


@lru_cache(maxsize=1 << 18)
def _regular_plain(counts: Counts, pair: bool) -> bool:
    """Whether naturals alone form sets (and one pair when ``pair``), no wilds."""
    i = _first(counts)
    if i < 0:
        return not pair
    c = counts[i]
    lst = list(counts)
    if pair and c >= 2:
        lst[i] -= 2
        if _regular_plain(tuple(lst), False):
            return True
        lst[i] += 2
    if c >= 3:
        lst[i] -= 3
        if _regular_plain(tuple(lst), pair):
            return True
        lst[i] += 3
    if is_suited_index(i) and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        if _regular_plain(tuple(lst), pair):
            return True
    return False


Group = tuple[tuple[int, ...], tuple[int, ...], bool]


def _groups_at(i: int, counts: Sequence[int], pair: bool) -> list[Group]:
    """The groups that use the natural at ``i`` (the lowest held kind).

    Each is (naturals used, kinds the wilds become, is_pair).
    """
    c = counts[i]
    out: list[Group] = []
    if pair:
        out.append(((i, i), (), True) if c >= 2 else ((i,), (i,), True))
    if c >= 3:
        out.append(((i, i, i), (), False))
    elif c == 2:
        out.append(((i, i), (i,), False))
    else:
        out.append(((i,), (i, i), False))
    if is_suited_index(i):
        base = i - i % 9
        for start in (i - 2, i - 1, i):
            if start < base or start + 2 >= base + 9:
                continue
            naturals = [i]
            wild_kinds = []
            for k in range(start, start + 3):
                if k == i:
                    continue
                if k > i and counts[k]:
                    naturals.append(k)
                else:
                    wild_kinds.append(k)
            out.append((tuple(naturals), tuple(wild_kinds), False))
    return out


@lru_cache(maxsize=1 << 18)
def _regular_wild(counts: Counts, wilds: int, caps: Counts, pair: bool) -> bool:
    if wilds == 0:
        return _regular_plain(counts, pair)
    i = _first(counts)
    if i < 0:
        return wilds % 3 == (2 if pair else 0)
    for naturals, wild_kinds, is_pair in _groups_at(i, counts, pair):
        if len(wild_kinds) > wilds:
            continue
        cp = list(caps)
        ok = True
        for k in wild_kinds:
            cp[k] -= 1
            if cp[k] < 0:
                ok = False
                break
        if not ok:
            continue
        lst = list(counts)
        for k in naturals:
            lst[k] -= 1
        if _regular_wild(tuple(lst), wilds - len(wild_kinds), tuple(cp), pair and not is_pair):
            return True
    return False


def _wild_only_groups(caps: Counts) -> list[tuple[tuple[int, ...], bool]]:
    out: list[tuple[tuple[int, ...], bool]] = []
    for k in range(N_KINDS):
        if caps[k] >= 2:
            out.append(((k, k), True))
        if caps[k] >= 3:
            out.append(((k, k, k), False))
        if is_suited_index(k) and k % 9 <= 6 and caps[k] and caps[k + 1] and caps[k + 2]:
            out.append(((k, k + 1, k + 2), False))
    return out


@lru_cache(maxsize=1 << 16)
def _wild_only(wilds: int, caps: Counts, pair: bool) -> frozenset[Assignment]:
    """Every way ``wilds`` wild tiles alone form sets (and the pair when ``pair``)."""
    if wilds == 0:
        return frozenset({()}) if not pair else frozenset()
    if wilds % 3 != (2 if pair else 0):
        return frozenset()
    out: set[Assignment] = set()
    for kinds, is_pair in _wild_only_groups(caps):
        if is_pair and not pair:
            continue
        if len(kinds) > wilds:
            continue
        cp = list(caps)
        for k in kinds:
            cp[k] -= 1
        for rest in _wild_only(wilds - len(kinds), tuple(cp), pair and not is_pair):
            out.add(tuple(sorted(kinds + rest)))
    return frozenset(out)


# Free groups: what wilds left over once the naturals are used up can become on their own.
_FREE_PAIRS: tuple[tuple[int, ...], ...] = tuple((k, k) for k in range(N_KINDS))
_FREE_SETS: tuple[tuple[int, ...], ...] = tuple((k, k, k) for k in range(N_KINDS)) + tuple(
    (k, k + 1, k + 2) for k in range(27) if k % 9 <= 6
)


def _free_completions(free: int, caps: list[int], pair: bool) -> list[Assignment]:
    """Every way ``free`` wilds alone finish the hand (a pair when ``pair``), under ``caps``."""
    if free == 0:
        return [] if pair else [()]
    if pair and free == 2:
        return [g for g in _FREE_PAIRS if caps[g[0]] >= 2]
    if not pair and free == 3:
        return [
            g
            for g in _FREE_SETS
            if (caps[g[0]] >= 3 if g[0] == g[1] else min(caps[g[0]], caps[g[1]], caps[g[2]]))
        ]
    return list(_wild_only(free, tuple(caps), pair))  # five wilds or more: the general search


def _regular_assignments(counts: Counts, wilds: int, caps: Counts, pair: bool) -> set[Assignment]:
    """Every multiset of kinds the wilds can stand for so that the hand is regular.

    A depth-first search over the naturals (the lowest held kind first, as in ``_groups_at``)
    with the wilds filling the gaps; once the naturals are used up, the wilds left form free
    groups (``_free_completions``). The search mutates one counts list and one caps list and
    undoes each step, so a call allocates only its answers.
    """
    lst = list(counts)
    cp = list(caps)
    used: list[int] = []
    out: set[Assignment] = set()

    def dfs(start: int, free: int, need_pair: bool) -> None:
        i = start
        while i < N_KINDS and not lst[i]:
            i += 1
        if i == N_KINDS:
            if free % 3 != (2 if need_pair else 0):
                return
            for rest in _free_completions(free, cp, need_pair):
                out.add(tuple(sorted(used + list(rest))))
            return
        for naturals, wild_kinds, is_pair in _groups_at(i, lst, need_pair):
            n_wild = len(wild_kinds)
            if n_wild > free:
                continue
            if any(cp[k] < wild_kinds.count(k) for k in wild_kinds):
                continue
            for k in wild_kinds:
                cp[k] -= 1
            for k in naturals:
                lst[k] -= 1
            used.extend(wild_kinds)
            dfs(i, free - n_wild, need_pair and not is_pair)
            del used[len(used) - n_wild :]
            for k in naturals:
                lst[k] += 1
            for k in wild_kinds:
                cp[k] += 1

    dfs(0, wilds, pair)
    return out


# -- special shapes -------------------------------------------------------------------------------


def _qidui_assignments(counts: Counts, wilds: int, caps: Counts) -> set[Assignment]:
    if sum(counts) + wilds != 14:
        return set()
    singles = [k for k in range(N_KINDS) if counts[k] % 2]
    if len(singles) > wilds or any(caps[k] < 1 for k in singles):
        return set()
    left = wilds - len(singles)
    if left % 2:
        return set()
    base = tuple(singles)
    cp = list(caps)
    for k in singles:
        cp[k] -= 1
    out: set[Assignment] = set()
    # the remaining wilds pair up on any kinds with room
    for extra in _pairs_of_kinds(left // 2, tuple(cp), 0):
        out.add(tuple(sorted(base + extra)))
    return out


def _pairs_of_kinds(n: int, caps: Counts, start: int) -> list[Assignment]:
    if n == 0:
        return [()]
    out: list[Assignment] = []
    for k in range(start, N_KINDS):
        if caps[k] >= 2:
            cp = list(caps)
            cp[k] -= 2
            for rest in _pairs_of_kinds(n - 1, tuple(cp), k):
                out.append((k, k) + rest)
    return out


def _shisanyao_assignments(counts: Counts, wilds: int, caps: Counts) -> set[Assignment]:
    if sum(counts) + wilds != 14:
        return set()
    if any(counts[k] for k in range(N_KINDS) if k not in TERMINALS_HONOURS):
        return set()
    if any(counts[k] > 2 for k in TERMINALS_HONOURS):
        return set()
    pairs = [k for k in TERMINALS_HONOURS if counts[k] == 2]
    if len(pairs) > 1:
        return set()
    missing = tuple(k for k in TERMINALS_HONOURS if counts[k] == 0)
    if any(caps[k] < 1 for k in missing):
        return set()
    if pairs:
        return {tuple(sorted(missing))} if len(missing) == wilds else set()
    if len(missing) + 1 != wilds:
        return set()
    out: set[Assignment] = set()
    for k in TERMINALS_HONOURS:
        need = 2 if k in missing else 1
        if caps[k] >= need:
            out.add(tuple(sorted(missing + (k,))))
    return out


def _quanbukao_assignments(counts: Counts, wilds: int, caps: Counts) -> set[Assignment]:
    if sum(counts) + wilds != 14 or any(c > 1 for c in counts):
        return set()
    out: set[Assignment] = set()
    held = {k for k in range(N_KINDS) if counts[k]}
    for knit in _KNITTED:
        allowed = set(knit) | set(_HONOUR_KINDS)
        if not held <= allowed:
            continue
        free = sorted(k for k in allowed - held if caps[k] >= 1)
        for combo in combinations(free, wilds):
            out.add(combo)
    return out


def _zuhelong_assignments(counts: Counts, wilds: int, caps: Counts, sets: int) -> set[Assignment]:
    """組合龍: the nine knitted tiles plus regular sets and a pair for the rest."""
    total = sum(counts) + wilds
    rest_sets = sets - 3  # the knitted straight takes the place of three sets
    if rest_sets < 0 or total != 9 + 3 * rest_sets + 2:
        return set()
    out: set[Assignment] = set()
    for knit in _KNITTED:
        lst = list(counts)
        cp = list(caps)
        used: list[int] = []
        ok = True
        for k in knit:
            if lst[k]:
                lst[k] -= 1
            else:
                if cp[k] < 1:
                    ok = False
                    break
                cp[k] -= 1
                used.append(k)
        if not ok or len(used) > wilds:
            continue
        for r in _regular_assignments(tuple(lst), wilds - len(used), tuple(cp), True):
            out.add(tuple(sorted(tuple(used) + r)))
    return out


# -- public API -----------------------------------------------------------------------------------


def assignments(
    counts: Counts, wilds: int, caps: Counts, sets: int, shapes: frozenset[str] = frozenset()
) -> frozenset[Assignment]:
    """Every multiset of kinds the wilds can stand for so that the concealed tiles win.

    ``sets`` is the number of sets the concealed tiles must supply (4 − melds for a 14-tile
    game). With no wilds the answer is ``{()}`` for a winning hand and empty otherwise.
    """
    if sum(counts) + wilds != 3 * sets + 2:
        return frozenset()
    out: set[Assignment] = _regular_assignments(counts, wilds, caps, True)
    concealed_full = sets == 4
    if concealed_full and "qidui" in shapes:
        out |= _qidui_assignments(counts, wilds, caps)
    if concealed_full and "shisanyao" in shapes:
        out |= _shisanyao_assignments(counts, wilds, caps)
    if concealed_full and "quanbukao" in shapes:
        out |= _quanbukao_assignments(counts, wilds, caps)
    if "zuhelong" in shapes and sets >= 3:
        out |= _zuhelong_assignments(counts, wilds, caps, sets)
    return frozenset(out)


def is_win(
    counts: Counts, wilds: int, caps: Counts, sets: int, shapes: frozenset[str] = frozenset()
) -> bool:
    """Whether the concealed tiles (naturals + wilds) complete the hand in some shape."""
    if sum(counts) + wilds != 3 * sets + 2:
        return False
    if _regular_wild(counts, wilds, caps if wilds else (), True):
        return True
    if not shapes:
        return False
    concealed_full = sets == 4
    if concealed_full and "qidui" in shapes and _qidui_assignments(counts, wilds, caps):
        return True
    if concealed_full and "shisanyao" in shapes and _shisanyao_assignments(counts, wilds, caps):
        return True
    if concealed_full and "quanbukao" in shapes and _quanbukao_assignments(counts, wilds, caps):
        return True
    if "zuhelong" in shapes and sets >= 3 and _zuhelong_assignments(counts, wilds, caps, sets):
        return True
    return False


def waits(
    counts: Counts, wilds: int, caps: Counts, sets: int, shapes: frozenset[str] = frozenset()
) -> list[int]:
    """The kinds that complete the hand when added as a natural tile (聽牌)."""
    if sum(counts) + wilds != 3 * sets + 1:
        return []
    # a quick filter: with one more wild, is it a win at all?
    if not is_win(counts, wilds + 1, caps, sets, shapes):
        return []
    out = []
    for k in range(N_KINDS):
        if caps[k] < 1:
            continue
        lst = list(counts)
        lst[k] += 1
        cp = list(caps)
        cp[k] -= 1
        if is_win(tuple(lst), wilds, tuple(cp), sets, shapes):
            out.append(k)
    return out
