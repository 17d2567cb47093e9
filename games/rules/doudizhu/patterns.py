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

from dataclasses import dataclass
from itertools import combinations

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
            "rocket", "bomb", "single", "pair", "trio", "trio_single", "trio_pair", "chain",
            "pair_chain", "plane", "four_two_solo", "four_two_pair", "plane_solo", "plane_pair",
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
    for _key, play in plays:
        for p in all_readings(play, laizi):
            if last is None or p.beats(last):
                out.append(p)
    out.sort(key=lambda p: (-p.tier, _PRIORITY[p.kind], -p.rank) if last else
             (_PRIORITY[p.kind], -p.rank))
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
    c = counts_of(hand)
    target = None
    if last is not None and last != "pass":
        target = classify(last, laizi)
        if target is None:
            raise ValueError(f"{last!r} is not a play")
    plays = [p for _k, p in _generate(c, IDX[laizi] if laizi else None, target)]
    if target is not None:
        plays.append("pass")
    return plays


def legal_patterns(hand: str, last: Pattern | None = None, laizi: str | None = None) -> list[str]:
    """As :func:`legal_plays` but against an already-read Pattern (the engine keeps readings)."""
    return [p for _k, p in _generate(counts_of(hand), IDX[laizi] if laizi else None, last)]


def _generate(
    c: list[int], laizi: int | None, last: Pattern | None, size: int = 0
) -> list[tuple[tuple, str]]:
    if laizi is not None and c[laizi]:
        found = _wild(c, laizi, last, size)
    else:
        found = _classic(c, last, size)
    found.sort()
    out: list[tuple[tuple, str]] = []
    seen: set[str] = set()
    for item in found:
        if item[1] not in seen:
            seen.add(item[1])
            out.append(item)
    return out


def _multisets(avail: list[tuple[int, int]], k: int, start: int = 0):
    """Yield lists of ranks (non-decreasing) of size k drawn from [(rank, count)]."""
    if k == 0:
        yield []
        return
    for i in range(start, len(avail)):
        r, n = avail[i]
        for m in range(min(n, k), 0, -1):
            head = [r] * m
            for tail in _multisets(avail, k - m, i + 1):
                yield head + tail


def _classic(c: list[int], last: Pattern | None, size: int) -> list[tuple[tuple, str]]:
    out: list[tuple[tuple, str]] = []
    add = out.append
    total = sum(c)
    if last is None:
        want, wl, wr = None, 0, -1
    else:
        want, wl, wr = last.kind, last.length, last.rank
        if last.tier:
            want = "bomb_only"

    def on(kind: str, n: int) -> bool:
        return (want is None or want == kind) and (not size or size == n) and n <= total

    for r in range(15):
        if c[r] and r > wr and on("single", 1):
            add(((0, r, 1), RANKS[r]))
    if on("pair", 2):
        for r in range(wr + 1, 13):
            if c[r] >= 2:
                add(((0, r, 2), RANKS[r] * 2))
    if on("trio", 3):
        for r in range(wr + 1, 13):
            if c[r] >= 3:
                add(((0, r, 3), RANKS[r] * 3))
    if on("trio_single", 4) or on("trio_pair", 5):
        singles = on("trio_single", 4)
        pairs = on("trio_pair", 5)
        for r in range(max(wr + 1, 0), 13):
            if c[r] < 3:
                continue
            t = RANKS[r] * 3
            for k in range(15):
                if k == r or not c[k]:
                    continue
                ch = RANKS[k]
                if singles:
                    add(((0, r, 4), ch + t if k < r else t + ch))
                if pairs and c[k] >= 2 and k < 13:
                    add(((0, r, 5), ch * 2 + t if k < r else t + ch * 2))
    for kind, (per, minimum, maximum) in _CHAIN_UNITS.items():
        if want is not None and want != kind:
            continue
        lengths = range(minimum, maximum + 1) if want is None else (wl,)
        for length in lengths:
            n = length * per
            if (size and size != n) or n > total:
                continue
            run = 0
            for top in range(ACE + 1):
                run = run + 1 if c[top] >= per else 0
                if run >= length and top > wr:
                    add(((0, top, n), "".join(RANKS[r] * per for r in range(top - length + 1, top + 1))))
    # airplanes with wings
    for kind, per_kick in (("plane_solo", 1), ("plane_pair", 2)):
        if want is not None and want != kind:
            continue
        lengths = range(2, (5 if per_kick == 1 else 4) + 1) if want is None else (wl,)
        for length in lengths:
            n = length * (3 + per_kick)
            if (size and size != n) or n > total:
                continue
            run = 0
            for top in range(ACE + 1):
                run = run + 1 if c[top] >= 3 else 0
                if run < length or top <= wr:
                    continue
                chain = range(top - length + 1, top + 1)
                base = [0] * 15
                for r in chain:
                    base[r] = 3
                if per_kick == 1:
                    avail = [(r, c[r]) for r in range(15) if c[r] and base[r] == 0]
                    for kick in _multisets(avail, length):
                        cc = base[:]
                        for r in kick:
                            cc[r] += 1
                        add(((0, top, n), cards_of(cc)))
                else:
                    avail2 = [r for r in range(13) if c[r] >= 2 and base[r] == 0]
                    for kick in combinations(avail2, length):
                        cc = base[:]
                        for r in kick:
                            cc[r] = 2
                        add(((0, top, n), cards_of(cc)))
    # four with two
    if on("four_two_solo", 6) or on("four_two_pair", 8):
        for r in range(max(wr + 1, 0), 13):
            if c[r] != 4:
                continue
            if on("four_two_solo", 6):
                avail = [(k, c[k]) for k in range(15) if c[k] and k != r]
                for kick in _multisets(avail, 2):
                    cc = [0] * 15
                    cc[r] = 4
                    for k in kick:
                        cc[k] += 1
                    add(((0, r, 6), cards_of(cc)))
            if on("four_two_pair", 8):
                avail2 = [k for k in range(13) if c[k] >= 2 and k != r]
                for a, b in combinations(avail2, 2):
                    cc = [0] * 15
                    cc[r] = 4
                    cc[a] = cc[b] = 2
                    add(((0, r, 8), cards_of(cc)))
    # bombs and the rocket
    if not size or size == 4:
        for r in range(13):
            if c[r] == 4 and (last is None or (TIER_HARD, r) > (last.tier, last.rank)):
                add(((TIER_HARD, r, 4), RANKS[r] * 4))
    if (not size or size == 2) and c[SMALL] and c[BIG] and (last is None or last.tier < TIER_ROCKET):
        add(((TIER_ROCKET, BIG, 2), "BR"))
    return out


def _fills(ranks: list[int], need: int, nat: list[int], wild: int):
    """Yield (natural counts used per rank, wild used) filling ``need`` of each rank."""
    if not ranks:
        yield [], 0
        return
    r = ranks[0]
    have = nat[r]
    for use in range(min(have, need), max(0, need - wild) - 1, -1):
        w = need - use
        for rest, rw in _fills(ranks[1:], need, nat, wild - w):
            yield [use] + rest, w + rw


def _wild(c: list[int], lz: int, last: Pattern | None, size: int) -> list[tuple[tuple, str]]:
    """Generation with ``c[lz]`` ≥ 1 癩子 in hand."""
    nat = c[:]
    wild = nat[lz]
    nat[lz] = 0
    total = sum(c)
    out: list[tuple[tuple, str]] = []
    seen: set[tuple] = set()
    if last is None:
        want, wl, wr = None, 0, -1
    else:
        want, wl, wr = last.kind, last.length, last.rank
        if last.tier:
            want = "bomb_only"

    def emit(kind: str, ranks: list[int], need: int, used: list[int], w: int,
             kick_nat: list[int], kick_wild_reading: list[int], top: int, length: int) -> None:
        cc = [0] * 15
        rc = [0] * 15
        for r, u in zip(ranks, used):
            cc[r] += u
            rc[r] += need
        for r, u in enumerate(kick_nat):
            if u:
                cc[r] += u
                rc[r] += u
        for r in kick_wild_reading:
            rc[r] += 1
        w_total = w + len(kick_wild_reading)
        cc[lz] += w_total
        n = sum(cc)
        cards = cards_of(cc)
        reading = cards_of(rc)
        if w_total == n and reading != cards:  # only 癩子: their own rank (4 = pure bomb)
            return
        tier = TIER_NONE
        if kind == "bomb":
            tier = TIER_HARD if w_total == 0 else (TIER_PURE if w_total == 4 else TIER_SOFT)
            if last is not None and (tier, top) <= (last.tier, last.rank):
                return
        key = (cards, kind, top, length, tier)
        if key in seen:
            return
        seen.add(key)
        play = cards if cards == reading else f"{cards}/{reading}"
        out.append(((tier, top, n), play))

    def on(kind: str, n: int) -> bool:
        return (want is None or want == kind) and (not size or size == n) and n <= total

    def solo_kickers(main: list[int], used_nat: list[int], k: int, wild_left: int):
        avail_c = nat[:]
        for r in main:
            avail_c[r] = 0
        avail = [(r, avail_c[r]) for r in range(15) if avail_c[r]]
        # a 癩子 kicker reads as itself when it may, else as the lowest free rank
        free = lz if lz not in main else next(r for r in range(13) if r not in main)
        for w in range(min(wild_left, k) + 1):
            for kick in _multisets(avail, k - w):
                kn = [0] * 15
                for r in kick:
                    kn[r] += 1
                yield kn, [free] * w

    def pair_kickers(main: list[int], k: int, wild_left: int):
        options = []  # (rank, wild cost)
        for r in range(13):
            if r in main or r == lz:
                continue
            if nat[r] >= 2:
                options.append((r, 0))
            if nat[r] >= 1 and wild_left >= 1:
                options.append((r, 1))
        for j in range(min(k, wild_left // 2) + 1):  # j pairs made of two 癩子
            for chosen in combinations(options, k - j):
                ranks = [r for r, _ in chosen]
                if len(set(ranks)) != len(ranks):
                    continue
                cost = sum(w for _, w in chosen) + 2 * j
                if cost > wild_left:
                    continue
                kn = [0] * 15
                wild_reading: list[int] = []
                for r, w in chosen:
                    kn[r] += 2 - w
                    wild_reading += [r] * w
                taken = set(ranks) | set(main)
                for _ in range(j):
                    free = lz if lz not in taken else next(r for r in range(13) if r not in taken)
                    taken.add(free)
                    wild_reading += [free, free]
                yield kn, wild_reading

    def mains(kind: str, ranks: list[int], need: int, top: int, length: int, kick: str | None,
              k: int) -> None:
        for used, w in _fills(ranks, need, nat, wild):
            if kick is None:
                emit(kind, ranks, need, used, w, [0] * 15, [], top, length)
            elif kick == "solo":
                for kn, kw in solo_kickers(ranks, used, k, wild - w):
                    emit(kind, ranks, need, used, w, kn, kw, top, length)
            else:
                for kn, kw in pair_kickers(ranks, k, wild - w):
                    emit(kind, ranks, need, used, w, kn, kw, top, length)

    # one-rank kinds
    simple = [("single", 1, None, 0, 1), ("pair", 2, None, 0, 2), ("trio", 3, None, 0, 3),
              ("trio_single", 3, "solo", 1, 4), ("trio_pair", 3, "pair", 1, 5),
              ("four_two_solo", 4, "solo", 2, 6), ("four_two_pair", 4, "pair", 2, 8)]
    for kind, need, kick, k, n in simple:
        if not on(kind, n):
            continue
        for r in range(max(wr + 1, 0), 13):
            if nat[r] + wild >= need:
                mains(kind, [r], need, r, 1, kick, k)
    if want is None or want == "single":
        for r in (SMALL, BIG):
            if c[r] and r > wr and (not size or size == 1):
                out.append(((0, r, 1), RANKS[r]))
    # chains
    for kind, (per, minimum, maximum) in _CHAIN_UNITS.items():
        if want is not None and want != kind:
            continue
        for length in (range(minimum, maximum + 1) if want is None else (wl,)):
            n = per * length
            if (size and size != n) or n > total:
                continue
            for top in range(max(length - 1, wr + 1), ACE + 1):
                ranks = list(range(top - length + 1, top + 1))
                if sum(max(0, per - nat[r]) for r in ranks) <= wild:
                    mains(kind, ranks, per, top, length, None, 0)
    for kind, kick, extra in (("plane_solo", "solo", 1), ("plane_pair", "pair", 2)):
        if want is not None and want != kind:
            continue
        for length in (range(2, (5 if extra == 1 else 4) + 1) if want is None else (wl,)):
            n = (3 + extra) * length
            if (size and size != n) or n > total:
                continue
            for top in range(max(length - 1, wr + 1), ACE + 1):
                ranks = list(range(top - length + 1, top + 1))
                if sum(max(0, 3 - nat[r]) for r in ranks) <= wild:
                    mains(kind, ranks, 3, top, length, kick, length)
    # bombs and the rocket
    if not size or size == 4:
        if last is None or last.tier < TIER_ROCKET:
            for r in range(13):
                if nat[r] + wild >= 4:
                    mains("bomb", [r], 4, r, 1, None, 0)
    if (not size or size == 2) and c[SMALL] and c[BIG] and (last is None or last.tier < TIER_ROCKET):
        out.append(((TIER_ROCKET, BIG, 2), "BR"))
    return out
