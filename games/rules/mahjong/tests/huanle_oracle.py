"""A brute-force oracle for the 歡樂麻將 score of a win with 財神 (issue 13 §4).

Independent of the engine's search: it imports nothing of ``games.rules.mahjong`` and reads
the rule straight from RULES-NOTES ("歡樂麻將 details settled") and ``docs/rules/
huanle_mahjong.md``:

* every 財神 in the winner's concealed hand (one drawn and won on included) stands for any of
  the 34 kinds — every multiset of kinds is tried — so long as no kind then has more than four
  copies in the winner's hand and melds; a 財神 discarded by someone else and won on is natural;
* a drawn 財神 won on is won as any of the kinds it stands for (each one tried);
* each reading is scored by PyMahjongGB without the 和絕張 / 搶槓和 flags, its own 和絕張 / 搶槓和
  / 無番和 are dropped, and then, from what happened: 搶槓和 (8) on a robbed 加槓; else 和絕張
  (4) when the real winning tile is natural and its other three copies lie face up (discards
  and exposed melds, not 暗槓; a discard won on is not counted among them); 無番和 (8) only if
  no GB fan is left. 槓上開花 / 妙手回春 / 海底撈月 / 自摸 go to PyMahjongGB as they happened;
* the total is the GB fans + 無財神 (2, when every 財神 stands for its own kind, or there is
  none) + one per flower. The answer is the best total over every reading.

Trying every multiset is slow (66 045 of them for four 財神), so before PyMahjongGB is called a
reading must pass :func:`may_win`, a permissive shape check (every GB winning shape passes it;
PyMahjongGB still decides). ``prefilter=False`` skips it: the tests compare both ways on the
cheaper hands, and ``bench/huanle_oracle.py`` on four-財神 hands too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement, permutations

import MahjongGB

SUITS = "WTB"  # 萬 條 餅, as PyMahjongGB names them
KINDS = tuple(f"{s}{n}" for s in SUITS for n in range(1, 10)) + tuple(
    "F1 F2 F3 F4 J1 J2 J3".split()
)
ORPHANS = frozenset("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3".split())

Pack = tuple[str, str, int]


@dataclass(frozen=True)
class Win:
    """What happened, as the scenario made it (not read back from the engine)."""

    naturals: tuple[str, ...]  # the winner's natural concealed tiles, the winning one included
    wilds: int  # 財神 in the concealed hand, a drawn one included
    win_tile: str | None  # the real winning tile if natural; None for a drawn 財神
    packs: tuple[Pack, ...]  # the winner's melds for PyMahjongGB
    meld_tiles: tuple[str, ...]  # every tile of those melds
    wild_kind: str
    self_drawn: bool
    after_kong: bool  # drawn as a 槓's replacement
    wall_last: bool  # the wall was empty (妙手回春 / 海底撈月)
    rob_kong: bool
    face_up: int  # other copies of the real winning tile face up (discards, exposed melds)
    seat_wind: int
    prevalent_wind: int
    flowers: int


@dataclass
class Best:
    total: int = -1
    readings: list[tuple[tuple[str, ...], str]] = field(default_factory=list)  # all the best
    fans: dict[tuple[tuple[str, ...], str], dict[str, int]] = field(default_factory=dict)
    scored: int = 0  # PyMahjongGB calls


# -- a permissive shape check ---------------------------------------------------------------


@cache
def _suit_sets(counts: tuple[int, ...]) -> frozenset[int]:
    """The numbers of pairs (0 or 1) with which 9 counts of one suit split into sets."""
    i = next((j for j, c in enumerate(counts) if c), -1)
    if i < 0:
        return frozenset({0})
    out: set[int] = set()
    c = list(counts)
    if c[i] >= 3:  # a pung of the lowest tile
        c[i] -= 3
        out |= _suit_sets(tuple(c))
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:  # a chow from the lowest tile
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out |= _suit_sets(tuple(c))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2:  # the lowest tile in the pair
        c[i] -= 2
        out |= {p + 1 for p in _suit_sets(tuple(c)) if p == 0}
    return frozenset(out)


HONOUR_INDEX = tuple(range(27, 34))
ORPHAN_INDEX = tuple(KINDS.index(k) for k in sorted(ORPHANS))
# the six 組合龍: 147, 258 and 369 in the three suits in every order (kind indices)
KNITTED_STRAIGHTS = tuple(
    tuple(9 * SUITS.index(s) + n - 1 for s, a in zip(order, (1, 2, 3)) for n in (a, a + 3, a + 6))
    for order in permutations(SUITS)
)


def _regular(c: list[int]) -> bool:
    """Counts (34, in ``KINDS`` order) that split into sets and exactly one pair."""
    pairs = 0
    for k in HONOUR_INDEX:
        n = c[k]
        if n == 1 or n == 4:
            return False
        pairs += n == 2
    if pairs > 1:
        return False
    reachable = {pairs}
    for s in range(3):
        options = _suit_sets(tuple(c[9 * s : 9 * s + 9]))
        reachable = {a + b for a in reachable for b in options if a + b <= 1}
        if not reachable:
            return False
    return 1 in reachable


def _knitted(c: list[int]) -> bool:
    """全不靠 / 七星不靠: 14 different tiles, each suit's numbers in its own class mod 3."""
    if max(c) > 1:
        return False
    classes = []
    for s in range(3):
        numbers = {n % 3 for n in range(9) if c[9 * s + n]}
        if len(numbers) > 1:
            return False
        classes += list(numbers)
    return len(classes) == len(set(classes))


def _knitted_straight(c: list[int]) -> bool:
    """組合龍 (147 / 258 / 369 in three suits) and the rest sets and a pair."""
    if sum(1 for n in c[:27] if n) < 9:
        return False  # fewer than nine different suited kinds
    for straight in KNITTED_STRAIGHTS:
        if all(c[k] for k in straight):
            rest = list(c)
            for k in straight:
                rest[k] -= 1
            if _regular(rest):
                return True
    return False


def may_win_counts(c: list[int], melds: int) -> bool:
    """Could these counts of concealed tiles (the winning one included) beside ``melds``
    melds be a GB win? True for every GB shape (regular, 七對, 十三幺, 全不靠, 組合龍); may say
    True wrongly (PyMahjongGB decides)."""
    if _regular(c):
        return True
    if melds == 0:
        if all(n % 2 == 0 for n in c):
            return True  # 七對 (four of a kind as two pairs too)
        if all(c[k] for k in ORPHAN_INDEX) and sum(c[k] for k in ORPHAN_INDEX) == 14:
            return True  # 十三幺
        if _knitted(c):
            return True
    return melds <= 1 and _knitted_straight(c)


def may_win(tiles: list[str], melds: int) -> bool:
    """:func:`may_win_counts` of a list of tiles."""
    c = [0] * 34
    for t in tiles:
        c[KINDS.index(t)] += 1
    return may_win_counts(c, melds)


# -- the scoring ----------------------------------------------------------------------------


def situational(fans: dict[str, int], win: Win) -> dict[str, int]:
    """PyMahjongGB's fans with 和絕張 / 搶槓和 / 無番和 replaced by what happened."""
    out = {k: v for k, v in fans.items() if k not in ("和绝张", "抢杠和", "无番和")}
    if win.rob_kong:
        out["抢杠和"] = 8
    elif win.win_tile is not None and win.face_up == 3:
        out["和绝张"] = 4
    if not out:
        out["无番和"] = 8
    return out


def score_reading(win: Win, assignment: tuple[str, ...], win_as: str) -> dict[str, int] | None:
    """The fans (name → 番, GB and 歡樂) of one reading, or None when it is not a win or breaks
    the copy limit."""
    if len(assignment) != win.wilds or any(k not in KINDS for k in assignment):
        return None
    tiles = list(win.naturals) + list(assignment)
    if max(Counter(tiles + list(win.meld_tiles)).values()) > 4:
        return None
    if win.win_tile is not None:
        if win_as != win.win_tile:
            return None
    elif win_as not in assignment:
        return None
    hand = list(tiles)
    hand.remove(win_as)
    try:
        raw = MahjongGB.MahjongFanCalculator(
            win.packs,
            tuple(hand),
            win_as,
            0,
            win.self_drawn,
            False,
            win.self_drawn and win.after_kong,
            win.wall_last,
            win.seat_wind,
            win.prevalent_wind,
            verbose=True,
        )
    except TypeError as error:
        if "NOT_WIN" in str(error):
            return None
        raise
    fans: dict[str, int] = {}
    for points, count, name, _english in raw:
        fans[name] = fans.get(name, 0) + points * count
    fans = situational(fans, win)
    if all(k == win.wild_kind for k in assignment):
        fans["无财神"] = 2
    if win.flowers:
        fans["花牌"] = win.flowers
    return fans


def oracle_best(win: Win, *, prefilter: bool = True) -> Best:
    """Every reading of the 財神 scored; the best total and every reading that reaches it."""
    best = Best()
    fixed = [0] * 34  # hand and melds, for the copy limit
    concealed = [0] * 34  # the concealed naturals, for the shape check
    for t in win.naturals:
        fixed[KINDS.index(t)] += 1
        concealed[KINDS.index(t)] += 1
    for t in win.meld_tiles:
        fixed[KINDS.index(t)] += 1
    caps = [4 - n for n in fixed]
    for combo in combinations_with_replacement(range(34), win.wilds):
        if win.wilds > 1 and any(combo.count(k) > caps[k] for k in combo):
            continue
        if win.wilds == 1 and caps[combo[0]] < 1:
            continue
        if prefilter:
            c = list(concealed)
            for k in combo:
                c[k] += 1
            if not may_win_counts(c, len(win.packs)):
                continue
        assignment = tuple(KINDS[k] for k in combo)
        choices = [win.win_tile] if win.win_tile is not None else sorted(set(assignment))
        for win_as in choices:
            best.scored += 1
            fans = score_reading(win, assignment, win_as)
            if fans is None:
                continue
            total = sum(fans.values())
            if total > best.total:
                best.total, best.readings, best.fans = total, [], {}
            if total == best.total:
                best.readings.append((assignment, win_as))
                best.fans[(assignment, win_as)] = fans
    return best
