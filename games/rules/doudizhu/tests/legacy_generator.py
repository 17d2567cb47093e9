"""The generator legal_plays used before the count-vector rewrite, kept as a test reference.

It enumerates every substitution of the 癩子 and deduplicates; slow but long-tested. The tests
check that the current generator returns exactly the same list (same strings, same order).
"""

from __future__ import annotations

from itertools import combinations

from games.rules.doudizhu.patterns import (
    _CHAIN_UNITS,
    _PRIORITY,
    ACE,
    BIG,
    IDX,
    RANKS,
    SMALL,
    TIER_HARD,
    TIER_NONE,
    TIER_PURE,
    TIER_ROCKET,
    TIER_SOFT,
    Pattern,
    all_readings,
    cards_of,
    classify,
    counts_of,
)


def legacy_legal_plays(hand: str, last: str | None = None, laizi: str | None = None) -> list[str]:
    target = None
    if last is not None and last != "pass":
        target = classify(last, laizi)
    plays = [p for _k, p in _generate(counts_of(hand), IDX[laizi] if laizi else None, target)]
    if target is not None:
        plays.append("pass")
    return plays


def legacy_readings_of(cards: str, laizi: str | None = None) -> list[Pattern]:
    """readings_of as it was (every distinct reading of exactly these cards, best first)."""
    plays = _generate(counts_of(cards), IDX[laizi] if laizi else None, None, size=len(cards))
    out = [p for _key, play in plays for p in all_readings(play, laizi)]
    out.sort(key=lambda p: (_PRIORITY[p.kind], -p.rank))
    return out


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
                    add(
                        (
                            (0, top, n),
                            "".join(RANKS[r] * per for r in range(top - length + 1, top + 1)),
                        )
                    )
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
    if (
        (not size or size == 2)
        and c[SMALL]
        and c[BIG]
        and (last is None or last.tier < TIER_ROCKET)
    ):
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

    def emit(
        kind: str,
        ranks: list[int],
        need: int,
        used: list[int],
        w: int,
        kick_nat: list[int],
        kick_wild_reading: list[int],
        top: int,
        length: int,
    ) -> None:
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

    def mains(
        kind: str, ranks: list[int], need: int, top: int, length: int, kick: str | None, k: int
    ) -> None:
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
        for length in range(minimum, maximum + 1) if want is None else (wl,):
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
        for length in range(2, (5 if extra == 1 else 4) + 1) if want is None else (wl,):
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
    if (
        (not size or size == 2)
        and c[SMALL]
        and c[BIG]
        and (last is None or last.tier < TIER_ROCKET)
    ):
        out.append(((TIER_ROCKET, BIG, 2), "BR"))
    return out
