"""斗地主 card types (牌型): classification, comparison and a fast legal-play generator.

Notation (DESIGN.md §2): ranks ``3456789TJQKA2``, ``B`` small joker, ``R`` big joker; a play is a
string sorted low → high (``'33344'``). In a 癩子 room a play whose 癩子 cards stand for other
ranks is written ``cards/reading``: the cards actually played, a slash, and the cards they are read
as (``'3337/3333'`` with 癩子 7 is the soft bomb 3333; plain ``'3337'`` is 三帶一, the 癩子
standing for itself). A reading is only written when it differs from the cards.

Rules as implemented (seed 002 §八/§九, RULES-NOTES §2 #8, #8b, #9, #10):

* single, pair, trio; 三帶一 with one card or a pair (``trio_single`` / ``trio_pair``);
  順子 ≥ 5 singles, 連對 ≥ 3 pairs, 飛機 ≥ 2 trios, all consecutive and never containing 2 or a
  joker; 飛機帶翅膀 = k trios + k single cards (``plane_solo``) or + k pairs (``plane_pair``);
  四帶二 = four + two single cards (``four_two_solo``) or + two pairs (``four_two_pair``);
  炸彈 = four of a rank; 王炸 (火箭) = ``BR``.
* Kickers are cards outside the ranks of the main group. Solo kickers may repeat a rank, may be
  ``B`` and ``R`` together, may be all four of a rank, may make a trio next to the chain
  (``333444555666777R`` is an airplane). Pair kickers have distinct ranks and a four never counts
  as two pairs (``33334444`` is no play).
* A card set with several readings (``333444555666``: 4-trio 飛機, or 3-trio 飛機帶翅膀) beats the
  play on the table if any reading does. Read on its own (leading, :func:`classify`), the plain
  kind wins over a kicker kind, then the higher main rank.
* Comparison: same kind, same number of cards, higher main rank (the top rank of the main group);
  bombs beat every non-bomb; 火箭 beats everything. With 癩子 the bomb tiers are
  火箭 > 純癩子炸彈 > 硬炸彈 > 軟炸彈, by rank within a tier; every other type compares as if
  natural.
* 癩子 (rank ``laizi``): all four cards of that rank are wild. A 癩子 may stand for any rank 3…2
  (never a joker; chains still stop at A). Played on their own, 1–3 癩子 are their own rank and
  four are the 純癩子炸彈 and nothing else; inside a bigger play they are wild.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from typing import Any, NamedTuple

# The C port of _classic/_wild (games/rules/doudizhu/_movegen.c, built by ./leyou); the Python
# generators below stay the reference and are used when it is not built or LEYOU_NATIVE=0.
# NATIVE may be set to False at run time (tests, benchmarks) to use the Python code.
try:
    if os.environ.get("LEYOU_NATIVE", "1") == "0":
        raise ImportError("LEYOU_NATIVE=0")
    from games.rules.doudizhu import _movegen as _native  # type: ignore[attr-defined]
except ImportError:
    _native = None
NATIVE = _native is not None

RANKS = "3456789TJQKA2BR"
IDX = {ch: i for i, ch in enumerate(RANKS)}
ACE, TWO, SMALL, BIG = 11, 12, 13, 14

TIER_NONE, TIER_SOFT, TIER_HARD, TIER_PURE, TIER_ROCKET = 0, 1, 2, 3, 4

NAMES = {
    "single": "單張",
    "pair": "對子",
    "trio": "三張",
    "trio_single": "三帶一",
    "trio_pair": "三帶二",
    "chain": "順子",
    "pair_chain": "連對",
    "plane": "飛機",
    "plane_solo": "飛機帶翅膀",
    "plane_pair": "飛機帶翅膀",
    "four_two_solo": "四帶二",
    "four_two_pair": "四帶兩對",
    "bomb": "炸彈",
    "rocket": "王炸",
}
BOMB_NAMES = {TIER_SOFT: "軟炸彈", TIER_HARD: "炸彈", TIER_PURE: "純癩子炸彈"}

# preference when one card set reads several ways and nothing is to be beaten
_PRIORITY = {
    k: i
    for i, k in enumerate(
        [
            "rocket",
            "bomb",
            "single",
            "pair",
            "trio",
            "trio_single",
            "trio_pair",
            "chain",
            "pair_chain",
            "plane",
            "four_two_solo",
            "four_two_pair",
            "plane_solo",
            "plane_pair",
        ]
    )
}
# kinds whose main group is a chain: minimum and maximum length (in units)
_CHAIN_UNITS = {"chain": (1, 5, 12), "pair_chain": (2, 3, 10), "plane": (3, 2, 6)}


@dataclass(frozen=True, slots=True)
class Pattern:
    """One reading of a play.

    ``rank`` is the index (0 = 3 … 12 = 2, 13 = B, 14 = R) of the top rank of the main group;
    ``length`` the number of units in it (1 unless a chain/plane); ``size`` the number of cards;
    ``tier`` 0 for non-bombs, 1 soft, 2 hard (every bomb in a classic room), 3 pure 癩子, 4 rocket;
    ``cards`` the cards played, ``reading`` what they stand for (equal without 癩子).
    """

    kind: str
    rank: int
    length: int
    size: int
    tier: int
    cards: str
    reading: str

    @property
    def name(self) -> str:
        if self.kind == "bomb":
            return BOMB_NAMES[self.tier]
        return NAMES[self.kind]

    @property
    def is_bomb(self) -> bool:
        return self.tier > 0

    @property
    def play(self) -> str:
        """The play string: ``cards`` or ``cards/reading``."""
        return self.cards if self.cards == self.reading else f"{self.cards}/{self.reading}"

    def beats(self, other: Pattern) -> bool:
        if self.tier or other.tier:
            return (self.tier, self.rank) > (other.tier, other.rank)
        return (
            self.kind == other.kind
            and self.size == other.size
            and self.length == other.length
            and self.rank > other.rank
        )


# ---------------------------------------------------------------------------------------------
# helpers


def counts_of(cards: str) -> list[int]:
    """Rank counts (15 entries) of a card string; ValueError on an unknown character."""
    c = [0] * 15
    for ch in cards:
        c[IDX[ch]] += 1
    return c


def cards_of(c: list[int]) -> str:
    return "".join([RANKS[r] * n for r, n in enumerate(c) if n])


def sort_cards(cards: str) -> str:
    return "".join(sorted(cards, key=IDX.__getitem__))


def parse_play(play: str) -> tuple[str, str]:
    """Split ``cards[/reading]`` into sorted (cards, reading); ValueError if malformed."""
    if not isinstance(play, str) or not play:
        raise ValueError("empty play")
    cards, _, reading = play.partition("/")
    if not cards or any(ch not in IDX for ch in cards):
        raise ValueError(f"bad cards {play!r}")
    if not reading:
        reading = cards
    elif any(ch not in IDX for ch in reading):
        raise ValueError(f"bad reading {play!r}")
    return sort_cards(cards), sort_cards(reading)


def _readings(c: list[int], n: int) -> list[tuple[str, int, int]]:
    """Every classic reading (kind, rank, length) of the rank counts ``c`` with ``n`` cards."""
    out: list[tuple[str, int, int]] = []
    present = [r for r in range(15) if c[r]]
    if n == 1:
        return [("single", present[0], 1)]
    if n == 2:
        if len(present) == 1:
            return [("pair", present[0], 1)]
        if present == [SMALL, BIG]:
            return [("rocket", BIG, 1)]
        return out
    if n == 3:
        return [("trio", present[0], 1)] if len(present) == 1 else out
    fours = [r for r in present if c[r] == 4]
    threes = [r for r in present if c[r] >= 3]
    if n == 4:
        if fours:
            return [("bomb", fours[0], 1)]
        if threes:
            return [("trio_single", threes[0], 1)]
        return out
    if n == 5 and len(present) == 2 and threes and c[threes[0]] == 3:
        other = present[0] if present[1] == threes[0] else present[1]
        if c[other] == 2:
            out.append(("trio_pair", threes[0], 1))
    lo, hi = present[0], present[-1]
    span = hi - lo + 1
    if hi <= ACE and span == len(present):
        per = c[lo]
        if all(c[r] == per for r in present):
            unit = _CHAIN_KIND_BY_PER.get(per)
            if unit is not None:
                kind, minimum = unit
                if span >= minimum:
                    out.append((kind, hi, span))
    if n == 6 and fours:
        out.append(("four_two_solo", fours[0], 1))
    if n == 8 and fours:
        f = fours[0]
        rest = [r for r in present if r != f]
        if len(rest) == 2 and c[rest[0]] == 2 and c[rest[1]] == 2:
            out.append(("four_two_pair", f, 1))
    if n % 4 == 0 and n >= 8:
        k = n // 4
        for top in range(ACE, k - 2, -1):
            if all(c[r] == 3 for r in range(top - k + 1, top + 1)):
                out.append(("plane_solo", top, k))
    if n % 5 == 0 and n >= 10:
        k = n // 5
        for top in range(ACE, k - 2, -1):
            chain = range(top - k + 1, top + 1)
            if all(c[r] == 3 for r in chain):
                rest = [r for r in present if r not in chain]
                if len(rest) == k and all(c[r] == 2 for r in rest):
                    out.append(("plane_pair", top, k))
    return out


_CHAIN_KIND_BY_PER = {1: ("chain", 5), 2: ("pair_chain", 3), 3: ("plane", 2)}


def _tier(kind: str, cards_c: list[int], laizi: int | None) -> int:
    if kind == "rocket":
        return TIER_ROCKET
    if kind != "bomb":
        return TIER_NONE
    if laizi is None:
        return TIER_HARD
    wild = cards_c[laizi]
    if wild == 0:
        return TIER_HARD
    if wild == 4:
        return TIER_PURE
    return TIER_SOFT


def _possible(c: list[int]) -> bool:
    """At most four of a rank and one of each joker (a reading may repeat a 癩子's rank
    beyond what others hold, but never past four cards of a rank)."""
    return max(c[:13]) <= 4 and c[SMALL] <= 1 and c[BIG] <= 1


def _check_substitution(cards: str, reading: str, laizi: int | None) -> bool:
    """Whether ``reading`` is a legal reading of ``cards`` with the 癩子 rank ``laizi``."""
    if cards == reading:
        return True
    if laizi is None or len(cards) != len(reading):
        return False
    cc, rc = counts_of(cards), counts_of(reading)
    wild = cc[laizi]
    if wild == len(cards):  # only 癩子: their natural rank, nothing else
        return False
    extra = 0
    for r in range(15):
        natural = 0 if r == laizi else cc[r]
        if rc[r] < natural:
            return False
        if r >= SMALL and rc[r] != natural:
            return False  # a 癩子 never stands for a joker
        extra += rc[r] - natural
    return extra == wild


def all_readings(play: str, laizi: str | None = None) -> list[Pattern]:
    """Every reading of ``play`` (``cards`` or ``cards/reading``), best first; [] if none."""
    try:
        cards, reading = parse_play(play)
    except (ValueError, KeyError):
        return []
    lz = IDX[laizi] if laizi else None
    if not _check_substitution(cards, reading, lz):
        return []
    rc = counts_of(reading)
    cc = counts_of(cards) if cards != reading else rc
    if not _possible(cc) or not _possible(rc):
        return []
    if lz is not None and cc[lz] == len(cards) == 4:
        return [Pattern("bomb", lz, 1, 4, TIER_PURE, cards, reading)]
    out = [
        Pattern(kind, rank, length, len(cards), _tier(kind, cc, lz), cards, reading)
        for kind, rank, length in _readings(rc, len(reading))
    ]
    out.sort(key=lambda p: (_PRIORITY[p.kind], -p.rank))
    return out


def classify(play: str, laizi: str | None = None) -> Pattern | None:
    """The pattern of a play, or None if the cards form no play.

    ``play`` is ``cards`` or ``cards/reading``. In a 癩子 room a plain ``cards`` string is read
    naturally when that is a play, otherwise as its best reading (see :func:`readings_of`).
    """
    found = all_readings(play, laizi)
    if found:
        return found[0]
    if laizi and "/" not in play:
        options = readings_of(play, laizi)
        if options:
            return options[0]
    return None


def readings_of(cards: str, laizi: str | None = None, last: Pattern | None = None) -> list[Pattern]:
    """Every distinct reading of exactly these cards (that beats ``last`` if given), best first."""
    try:
        c = counts_of(cards)
    except KeyError:
        return []
    n = len(cards)
    plays = _generate(c, IDX[laizi] if laizi else None, last, size=n)
    out = []
    for play in plays:
        for p in all_readings(play, laizi):
            if last is None or p.beats(last):
                out.append(p)
    out.sort(
        key=lambda p: (
            (-p.tier, _PRIORITY[p.kind], -p.rank) if last else (_PRIORITY[p.kind], -p.rank)
        )
    )
    return out


def beats(play: str, last: str, laizi: str | None = None) -> bool:
    """Whether ``play`` may follow ``last`` (any reading of ``play`` beats ``last``'s reading)."""
    target = classify(last, laizi)
    if target is None:
        raise ValueError(f"{last!r} is not a play")
    if "/" in play or not laizi:
        return any(p.beats(target) for p in all_readings(play, laizi))
    return bool(readings_of(play, laizi, target))


# ---------------------------------------------------------------------------------------------
# generation


def legal_plays(hand: str, last: str | None = None, laizi: str | None = None) -> list[str]:
    """Every legal play from ``hand``: leading if ``last`` is None, else following ``last``.

    Plays are strings sorted low → high (``cards/reading`` where 癩子 stand for other ranks, one
    per distinct reading: kind, main rank, length, bomb tier). The list is ordered weakest first
    (non-bombs by main rank, then size; then bombs by tier and rank; the rocket last) and ends
    with ``'pass'`` when following; it never holds ``'pass'`` when leading.
    """
    if NATIVE:
        # the whole call in C (reading a plain `last` too); None when the Python code must decide
        lz = -1 if laizi is None else _LAIZI_RANK.get(laizi)
        if lz is not None:
            plays: list[str] | None = _native.legal_plays(hand, last, lz)
            if plays is not None:
                return plays
    c = counts_of(hand)
    target: Pattern | _Last | None = None
    if last is not None and last != "pass":
        target = _read_plain(last) if laizi is None else None
        if target is None:
            target = classify(last, laizi)
        if target is None:
            raise ValueError(f"{last!r} is not a play")
    plays = _generate(c, IDX[laizi] if laizi else None, target)
    if target is not None:
        plays.append("pass")
    return plays


_SIMPLE_KINDS = {1: "single", 2: "pair", 3: "trio"}
_SIMPLE_NEED = {"single": 1, "pair": 2, "trio": 3}


class _Last(NamedTuple):
    """What the generators read of the play to beat (a Pattern has the same fields)."""

    kind: str
    rank: int
    length: int
    tier: int


def _read_plain(play: str) -> _Last | None:
    """classify(play) for a plain play in a room without 癩子, or None (then ask classify)."""
    if "/" in play:
        return None
    n = len(play)
    if n <= 3 and play == play[0] * n and play[0] in IDX and (n == 1 or IDX[play[0]] < SMALL):
        return _Last(_SIMPLE_KINDS[n], IDX[play[0]], 1, TIER_NONE)
    try:
        c = counts_of(play)
    except KeyError:
        return None
    if not _possible(c):
        return None
    found = _readings(c, len(play))
    if not found:
        return None
    kind, rank, length = (
        found[0] if len(found) == 1 else min(found, key=lambda t: (_PRIORITY[t[0]], -t[1]))
    )
    tier = TIER_ROCKET if kind == "rocket" else TIER_HARD if kind == "bomb" else TIER_NONE
    return _Last(kind, rank, length, tier)


def legal_patterns(hand: str, last: Pattern | None = None, laizi: str | None = None) -> list[str]:
    """As :func:`legal_plays` but against an already-read Pattern (the engine keeps readings)."""
    return _generate(counts_of(hand), IDX[laizi] if laizi else None, last)


def _generate(
    c: list[int], laizi: int | None, last: Pattern | _Last | None, size: int = 0
) -> list[str]:
    """The legal plays, weakest first: by (bomb tier, main rank, size), then by string."""
    if NATIVE:
        plays = _native_generate(c, laizi, last, size)
        if plays is not None:
            return plays
    if laizi is not None and c[laizi]:
        return _wild(c, laizi, last, size)
    return _classic(c, last, size)


_LAIZI_RANK = {RANKS[r]: r for r in range(13)}  # what _movegen.legal_plays takes as 癩子
# kind codes of _movegen.c (0 = leading)
_KIND_CODE = {
    k: i + 1
    for i, k in enumerate(
        [
            "single",
            "pair",
            "trio",
            "trio_single",
            "trio_pair",
            "chain",
            "pair_chain",
            "plane",
            "plane_solo",
            "plane_pair",
            "four_two_solo",
            "four_two_pair",
            "bomb",
            "rocket",
        ]
    )
}


def _native_generate(
    c: list[int], laizi: int | None, last: Pattern | _Last | None, size: int
) -> list[str] | None:
    """_classic / _wild through the C extension, or None when the arguments are outside what it
    takes (counts over 4, a joker twice, a size over 20, an odd play to beat): then Python."""
    if last is None:
        want = length = rank = tier = 0
    else:
        code = _KIND_CODE.get(last.kind)
        if code is None:
            return None
        want = code
        length, rank, tier = last.length, last.rank, last.tier
    try:
        counts = bytes(c)
        if laizi is not None and c[laizi]:
            wild: list[str] = _native.wild(counts, laizi, want, length, rank, tier, size)
            return wild
        plain: list[str] = _native.classic(counts, want, length, rank, tier, size)
        return plain
    except (ValueError, TypeError, OverflowError, IndexError):
        return None


_RUN = [[RANKS[r] * n for n in range(5)] for r in range(15)]
_RUN_KINDS = {"chain", "pair_chain", "plane", "plane_solo", "plane_pair"}
# _CHAIN_STR[per][i * per:(j + 1) * per] is the chain of ranks i…j, per cards each
_CHAIN_STR = {per: "".join(RANKS[r] * per for r in range(ACE + 1)) for per in (1, 2, 3)}


def _classic(c: list[int], last: Pattern | _Last | None, size: int) -> list[str]:
    """Sorted legal plays without 癩子: weakest first by (tier, main rank, size), then string."""
    total = sum(c)
    if last is None:
        want, wl, wr = None, 0, -1
    else:
        want, wl, wr = last.kind, last.length, last.rank
        if last.tier:
            want = "bomb_only"
    run = _RUN
    present = [r for r in range(15) if c[r]]
    if want in _SIMPLE_NEED and not size:  # following a single, pair or trio: already in order
        need = _SIMPLE_NEED[want]
        out = [run[r][need] for r in present if r > wr and c[r] >= need and (need == 1 or r < 13)]
        out += [run[r][4] for r in present if r < 13 and c[r] == 4]
        if c[SMALL] and c[BIG]:
            out.append("BR")
        return out
    bit = _BIT
    s0, s1, s2, low = _S0, _S1, _S2, _LOW15
    buckets: dict[int, list[str]] = {}  # key tier * 10000 + top * 100 + size
    twice: set[int] = set()  # keys of airplanes of 12, 16 or 20 cards (one play, two readings)

    def bucket(key: int) -> list[str]:
        found = buckets.get(key)
        if found is None:
            found = buckets[key] = []
        return found

    def solo_sets(out_mask: int, k: int) -> list[int]:
        """Packed multisets of exactly k cards from ranks outside ``out_mask``."""
        ranks = [r for r in range(15) if c[r] and not out_mask >> r & 1]
        if k <= 2:
            if k == 1:
                return [bit[r] for r in ranks]
            return [
                bit[a] + bit[b]
                for i, a in enumerate(ranks)
                for b in ranks[i:]
                if a != b or c[a] >= 2
            ]
        room = sum(c[r] for r in ranks)
        states = [(0, 0)]
        for r in ranks:
            n, b = c[r], bit[r]
            room -= n
            states = [
                (v + u * b, s + u)
                for v, s in states
                for u in range(max(0, k - room - s), min(n, k - s) + 1)
            ]
        return [v for v, s in states if s == k]

    def free(n: int) -> bool:
        return (not size or size == n) and n <= total

    # sizes 1–4 hold one kind each, so those buckets are set directly
    if (want is None or want == "single") and free(1):
        for r in present:
            if r > wr:
                buckets[r * 100 + 1] = [RANKS[r]]
    if (want is None or want == "pair") and free(2):
        for r in present:
            if r > wr and r < 13 and c[r] >= 2:
                buckets[r * 100 + 2] = [run[r][2]]
    if (want is None or want == "trio") and free(3):
        for r in present:
            if r > wr and r < 13 and c[r] >= 3:
                buckets[r * 100 + 3] = [run[r][3]]
    singles = (want is None or want == "trio_single") and free(4)
    pairs = (want is None or want == "trio_pair") and free(5)
    if singles or pairs:
        for r in present:
            if r <= wr or r >= 13 or c[r] < 3:
                continue
            t = run[r][3]
            if singles:
                buckets[r * 100 + 4] = [
                    RANKS[k] + t if k < r else t + RANKS[k] for k in present if k != r
                ]
            if pairs:
                bucket(r * 100 + 5).extend(
                    [
                        run[k][2] + t if k < r else t + run[k][2]
                        for k in present
                        if k != r and k < 13 and c[k] >= 2
                    ]
                )
    # maximal runs (first, last) of ranks 3…A holding at least `per` cards
    runs: dict[int, list[tuple[int, int]]] = {1: [], 2: [], 3: []}
    for per in (1, 2, 3) if want is None or want in _RUN_KINDS else ():
        ranks = [r for r in present if r <= ACE and c[r] >= per]
        if not ranks:
            break
        spans = runs[per]
        start = prev = ranks[0]
        for r in ranks[1:]:
            if r != prev + 1:
                spans.append((start, prev))
                start = r
            prev = r
        spans.append((start, prev))
    for kind, (per, minimum, maximum) in _CHAIN_UNITS.items():
        if want is not None and want != kind:
            continue
        chain = _CHAIN_STR[per]
        for first, end in runs[per]:
            for length in (
                range(minimum, min(maximum, end - first + 1) + 1) if want is None else (wl,)
            ):
                n = length * per
                if not free(n):
                    continue
                for top in range(max(first + length - 1, wr + 1), end + 1):
                    key = top * 100 + n
                    play = chain[(top - length + 1) * per : (top + 1) * per]
                    if key in buckets:
                        buckets[key].append(play)
                    else:
                        buckets[key] = [play]
                    if per == 3 and n == 12:
                        twice.add(key)
    for kind, per_kick in (("plane_solo", 1), ("plane_pair", 2)):
        if want is not None and want != kind:
            continue
        for length, first, end in [
            (length, first, end)
            for first, end in runs[3]
            for length in (range(2, (5 if per_kick == 1 else 4) + 1) if want is None else (wl,))
        ]:
            n = length * (3 + per_kick)
            if not free(n):
                continue
            for top in range(max(first + length - 1, wr + 1), end + 1):
                lo = top - length + 1
                base = sum(bit[lo : top + 1]) * 3
                mask = ((1 << length) - 1) << lo
                if per_kick == 1:
                    kicks = solo_sets(mask, length)
                else:
                    kicks = [
                        sum(bit[r] for r in combo) * 2
                        for combo in combinations(
                            [r for r in present if r < 13 and c[r] >= 2 and not mask >> r & 1],
                            length,
                        )
                    ]
                bucket(top * 100 + n).extend(
                    [s0[(x := base + v) & low] + s1[x >> 15 & low] + s2[x >> 30] for v in kicks]
                )
                if per_kick == 1 and n in (12, 16, 20):
                    twice.add(top * 100 + n)
    solo42 = (want is None or want == "four_two_solo") and free(6)
    pair42 = (want is None or want == "four_two_pair") and free(8)
    if solo42 or pair42:
        for r in present:
            if r <= wr or r >= 13 or c[r] != 4:
                continue
            base = 4 * bit[r]
            if solo42:
                bucket(r * 100 + 6).extend(
                    [
                        s0[(x := base + v) & low] + s1[x >> 15 & low] + s2[x >> 30]
                        for v in solo_sets(1 << r, 2)
                    ]
                )
            if pair42:
                bucket(r * 100 + 8).extend(
                    [
                        s0[(x := base + 2 * (bit[a] + bit[b])) & low]
                        + s1[x >> 15 & low]
                        + s2[x >> 30]
                        for a, b in combinations(
                            [k for k in present if k != r and k < 13 and c[k] >= 2], 2
                        )
                    ]
                )
    if not size or size == 4:
        for r in present:
            if r < 13 and c[r] == 4 and (last is None or (TIER_HARD, r) > (last.tier, last.rank)):
                bucket(TIER_HARD * 10000 + r * 100 + 4).append(run[r][4])
    if (
        (not size or size == 2)
        and c[SMALL]
        and c[BIG]
        and (last is None or last.tier < TIER_ROCKET)
    ):
        bucket(TIER_ROCKET * 10000 + BIG * 100 + 2).append("BR")
    out = []
    keys = sorted(buckets)
    if not twice:
        for key in keys:
            found = buckets[key]
            if len(found) > 1:
                found.sort()
            out += found
        return out
    seen: set[str] = set()
    for key in keys:
        found = buckets[key]
        if len(found) > 1:
            found.sort()
        if key in twice:  # airplanes that read two ways: each play once, at its first place
            fresh = [p for p in dict.fromkeys(found) if p not in seen]
            seen.update(fresh)
            out += fresh
        else:
            out += found
    return out


# ---------------------------------------------------------------------------------------------
# 癩子 generation on packed count vectors
#
# A multiset of cards is an int with 3 bits per rank (``count << 3 * rank``; a count never passes
# 4), so adding two multisets is adding two ints. Each (kind, main ranks) is visited once: the
# main group is filled from the natural cards of those ranks with 癩子 making up what is missing
# (every split between natural and wild cards, since they are different plays), and crossed with
# the kicker sets, which are built once per excluded rank set. Every (cards, reading) comes out
# once, so there is nothing to deduplicate but the few airplanes that read two ways.

_BIT = [1 << (3 * r) for r in range(15)]
_LOW15 = (1 << 15) - 1


def _string_table(lo: int) -> list[str]:
    table = [""] * (1 << 15)
    for combo in product(*[range(5) if lo + i < SMALL else range(2) for i in range(5)]):
        table[sum(n << (3 * i) for i, n in enumerate(combo))] = "".join(
            RANKS[lo + i] * n for i, n in enumerate(combo)
        )
    return table


# the sorted card string of a packed multiset v:
# _S0[v & _LOW15] + _S1[v >> 15 & _LOW15] + _S2[v >> 30]
_S0, _S1, _S2 = _string_table(0), _string_table(5), _string_table(10)


def _third(item: tuple[Any, ...]) -> int:
    return int(item[2])


def _packed_str(v: int) -> str:
    return _S0[v & _LOW15] + _S1[v >> 15 & _LOW15] + _S2[v >> 30]


def _wild(c: list[int], lz: int, last: Pattern | _Last | None, size: int) -> list[str]:
    """Sorted legal plays with ``c[lz]`` ≥ 1 癩子 in hand (same order as the classic path)."""
    nat = c[:]
    wild = nat[lz]
    nat[lz] = 0
    total = sum(c)
    bit = _BIT
    lzb = bit[lz]
    s0, s1, s2, low = _S0, _S1, _S2, _LOW15
    buckets: dict[tuple[int, int, int], list[str]] = {}
    if last is None:
        want, wl, wr = None, 0, -1
    else:
        want, wl, wr = last.kind, last.length, last.rank
        if last.tier:
            want = "bomb_only"

    def on(kind: str, n: int) -> bool:
        return (want is None or want == kind) and (not size or size == n) and n <= total

    def fills(lo: int, hi: int, per: int, natural: int, short: int) -> list[tuple[int, int]]:
        """(cards, 癩子 used) of every way to make ``per`` of each rank lo…hi: the natural cards
        (``natural`` packed, ``short`` 癩子 for what is missing), then each way to let up to the
        spare 癩子 replace natural cards as well."""
        found = [(natural + short * lzb, short)]
        spare = wild - short
        if spare <= 0:
            return found
        ranks = [r for r in range(lo, hi + 1) if nat[r]]
        for extra in range(1, spare + 1):
            w = short + extra
            for combo in combinations_with_replacement(ranks, extra):
                if extra > 1 and any(combo.count(r) > min(nat[r], per) for r in set(combo)):
                    continue
                found.append((natural - sum(bit[r] for r in combo) + w * lzb, w))
        return found

    def solo_states(ranks: list[int], k: int) -> list[tuple[int, int, int]]:
        """(cards, size, rank mask) of natural kicker multisets of ``ranks``, at most k cards
        and at least as many as the 癩子 cannot make up."""
        smallest = k - min(wild, k)
        room = sum(nat[r] for r in ranks)
        states = [(0, 0, 0)]
        for r in ranks:
            n, b, m = nat[r], bit[r], 1 << r
            room -= n
            need = smallest - room  # a state must still reach `smallest`
            states = [
                (v + u * b, s + u, t | m if u else t)
                for v, s, t in states
                for u in range(max(0, need - s), min(n, k - s) + 1)
            ]
        return states

    def pair_states(ranks: list[int], k: int) -> list[tuple[int, int, int, int, int]]:
        """(cards, reading, 癩子 used, pairs, rank mask) of up to k natural or half-癩子 pairs
        of distinct ``ranks``, at least as many as pure 癩子 pairs cannot make up."""
        fewest = k - min(k, wild // 2)
        left = len(ranks)
        states = [(0, 0, 0, 0, 0)]
        for r in ranks:
            n, b, m = nat[r], bit[r], 1 << r
            left -= 1
            grown = [st for st in states if st[3] + left >= fewest]
            for v, rv, w, p, t in states:
                if p < k:
                    if n >= 2:
                        grown.append((v + 2 * b, rv + 2 * b, w, p + 1, t | m))
                    if w < wild:
                        grown.append((v + b + lzb, rv + 2 * b, w + 1, p + 1, t | m))
            states = grown
        return states

    def solo_small(k: int) -> list[tuple[int, int, int]]:
        """solo_states of the whole hand for k ≤ 2, written out."""
        ones = [(bit[r], 1, 1 << r) for r in everything]
        states = [(0, 0, 0)] + ones
        if k == 2:
            states += [
                (v + w, 2, t | u) for i, (v, _s, t) in enumerate(ones) for w, _z, u in ones[i + 1 :]
            ]
            states += [(2 * bit[r], 2, 1 << r) for r in everything if nat[r] >= 2]
        return states if k - min(wild, k) == 0 else [st for st in states if st[1] >= 1]

    solo_all: dict[int, list[tuple[int, int, int]]] = {}
    pair_all: dict[int, list[tuple[int, int, int, int, int]]] = {}
    everything = [r for r in range(15) if nat[r]]
    everything13 = [r for r in everything if r < 13]

    def solo_kickers(
        main: range | tuple[int, ...], k: int, reading: int
    ) -> list[list[tuple[Any, ...]]]:
        """[j] → (cards, reading string of main + kickers, cards == reading) of k solo kickers
        outside ``main``, j of them 癩子."""
        if len(main) == 1:  # one rank out: filter the sets built once from the whole hand
            states = solo_all.get(k)
            if states is None:
                states = solo_all[k] = solo_small(k) if k <= 2 else solo_states(everything, k)
            out = 1 << main[0]
        else:
            states = solo_states([r for r in everything if r not in main], k)
            out = 0
        # A 癩子 kicker reads as itself when it may (the natural kickers hold none of that rank,
        # so j of them make j ≤ 4), else as the lowest rank outside the main group whose count
        # in this row's reading stays ≤ 4: the natural kickers may already hold that rank (five
        # 8s in 33334445556667778888 with 癩子 3, a reading the string tables cannot write).
        free = lz if lz not in main else next(r for r in range(13) if r not in main)
        rows = []
        for j in range(min(wild, k) + 1):
            cw, size_ = j * lzb, k - j
            row = []
            for v, sz, t in states:
                if sz != size_ or t & out:
                    continue
                f = free
                if j and free != lz and k > 4:  # only then may the natural kickers hold `free`
                    while f in main or (v >> 3 * f & 7) + j > 4:
                        f += 1
                y = reading + j * bit[f] + v
                row.append(
                    (cw + v, s0[y & low] + s1[y >> 15 & low] + s2[y >> 30], j == 0 or f == lz)
                )
            rows.append(row)
        return rows

    def pair_kickers(
        main: range | tuple[int, ...], k: int, reading: int
    ) -> list[list[tuple[Any, ...]]]:
        """[w] → (cards, reading string of main + kickers, cards == reading) of k pair kickers
        of distinct ranks outside ``main``, w 癩子."""
        main_mask = sum(1 << r for r in main)
        if len(main) == 1:
            states = pair_all.get(k)
            if states is None:
                states = pair_all[k] = pair_states(everything13, k)
        else:
            states = pair_states([r for r in everything13 if r not in main], k)
        groups: list[list[tuple[Any, ...]]] = [[] for _ in range(wild + 1)]
        for v, rv, w, p, t in states:
            if t & main_mask:
                continue
            j = k - p  # pairs made of two 癩子
            if j:
                if w + 2 * j > wild:
                    continue
                taken = t | main_mask
                for _ in range(j):
                    # as its own rank when it may, else the lowest free rank
                    free = lz if not taken >> lz & 1 else (~taken & (taken + 1)).bit_length() - 1
                    taken |= 1 << free
                    v += 2 * lzb
                    rv += 2 * bit[free]
                w += 2 * j
            y = reading + rv
            groups[w].append((v, s0[y & low] + s1[y >> 15 & low] + s2[y >> 30], v == rv))
        return groups

    def emit(
        key: tuple[int, int, int],
        n: int,
        reading: int,
        mains: list[tuple[int, int]],
        kicks: list[list[tuple[Any, ...]]] | None,
    ) -> None:
        """Cross the main-group fills with the kickers; add each play string to its bucket."""
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = []
        allwild = n * lzb  # only 癩子: they are their own rank, so no other reading
        if kicks is None:
            ys = s0[reading & low] + s1[reading >> 15 & low] + s2[reading >> 30]
            for x, _w in mains:
                if x == reading:
                    bucket.append(ys)
                elif x != allwild:
                    bucket.append(s0[x & low] + s1[x >> 15 & low] + s2[x >> 30] + "/" + ys)
            return
        for cm, wm in mains:
            natural = cm == reading  # no 癩子 standing in inside the main group
            bare = cm == wm * lzb  # the main group is 癩子 only
            for j in range(min(len(kicks) - 1, wild - wm) + 1):
                rows = kicks[j]
                if not natural and not bare:
                    bucket += [
                        s0[(x := cm + ck) & low] + s1[x >> 15 & low] + s2[x >> 30] + "/" + ys
                        for ck, ys, _same in rows
                    ]
                    continue
                for ck, ys, same in rows:
                    x = cm + ck
                    if natural and same:
                        bucket.append(ys)
                    elif x != allwild:
                        bucket.append(s0[x & low] + s1[x >> 15 & low] + s2[x >> 30] + "/" + ys)

    # one-rank kinds
    simple = [
        ("single", 1, None, 0, 1),
        ("pair", 2, None, 0, 2),
        ("trio", 3, None, 0, 3),
        ("trio_single", 3, "solo", 1, 4),
        ("trio_pair", 3, "pair", 1, 5),
        ("four_two_solo", 4, "solo", 2, 6),
        ("four_two_pair", 4, "pair", 2, 8),
    ]
    for kind, need, kick, k, n in simple:
        if not on(kind, n):
            continue
        for r in range(max(wr + 1, 0), 13):
            have = nat[r]
            if have + wild < need:
                continue
            b = bit[r]
            mains = [
                (u * b + (need - u) * lzb, need - u)
                for u in range(min(have, need), max(0, need - wild) - 1, -1)
            ]
            main = (r,)
            if kick is None:
                kicks = None
            elif kick == "solo":
                kicks = solo_kickers(main, k, need * b)
            else:
                kicks = pair_kickers(main, k, need * b)
            emit((0, r, n), n, need * b, mains, kicks)
    if want is None or want == "single":
        for r in (SMALL, BIG):
            if c[r] and r > wr and (not size or size == 1):
                buckets.setdefault((0, r, 1), []).append(RANKS[r])
    # chains and airplanes
    groups: list[tuple[str, int, str | None, range]] = [
        (kind, per, None, range(lo, hi + 1)) for kind, (per, lo, hi) in _CHAIN_UNITS.items()
    ]
    groups += [("plane_solo", 3, "solo", range(2, 6)), ("plane_pair", 3, "pair", range(2, 5))]
    for kind, per, kick, lengths in groups:
        if want is not None and want != kind:
            continue
        unit = per + (0 if kick is None else 1 if kick == "solo" else 2)
        # below rank i: short[i] cards that must be 癩子, packed[i] the reading, natp[i] the
        # natural cards the main group can use
        short, packed, natp = [0], [0], [0]
        for r in range(ACE + 1):
            short.append(short[-1] + max(0, per - nat[r]))
            packed.append(packed[-1] + per * bit[r])
            natp.append(natp[-1] + min(per, nat[r]) * bit[r])
        for length in lengths if want is None else (wl,):
            n = unit * length
            if (size and size != n) or n > total:
                continue
            for top in range(max(length - 1, wr + 1), ACE + 1):
                lo = top - length + 1
                need = short[top + 1] - short[lo]
                if need > wild:
                    continue
                reading = packed[top + 1] - packed[lo]
                if kick is None:
                    kicks = None
                elif kick == "solo":
                    kicks = solo_kickers(range(lo, top + 1), length, reading)
                else:
                    kicks = pair_kickers(range(lo, top + 1), length, reading)
                emit(
                    (0, top, n),
                    n,
                    reading,
                    fills(lo, top, per, natp[top + 1] - natp[lo], need),
                    kicks,
                )
    # bombs and the rocket
    if (not size or size == 4) and (last is None or last.tier < TIER_ROCKET):
        for r in range(13):
            have = nat[r]
            if have + wild < 4:
                continue
            b = bit[r]
            for u in range(min(have, 4), max(0, 4 - wild) - 1, -1):
                tier = TIER_HARD if u == 4 else (TIER_PURE if u == 0 and r == lz else TIER_SOFT)
                if last is not None and (tier, r) <= (last.tier, last.rank):
                    continue
                emit((tier, r, 4), 4, 4 * b, [(u * b + (4 - u) * lzb, 4 - u)], None)
    if (
        (not size or size == 2)
        and c[SMALL]
        and c[BIG]
        and (last is None or last.tier < TIER_ROCKET)
    ):
        buckets[(TIER_ROCKET, BIG, 2)] = ["BR"]
    out: list[str] = []
    seen: set[str] | None = None
    for key in sorted(buckets):
        bucket = buckets[key]
        bucket.sort()
        if key[0] == 0 and key[2] in (12, 16, 20):  # airplanes that also read as another airplane
            if seen is None:
                seen = set()
            fresh = [p for p in dict.fromkeys(bucket) if p not in seen]
            seen.update(fresh)
            out += fresh
        else:
            out += bucket
    return out
