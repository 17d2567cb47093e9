"""Hand decomposition with 0–4 財神 against an exhaustive search over substitutions."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from games.engine.chance import Chance
from games.engine.tiles import KINDS
from games.rules.mahjong.hands import SPECIAL_SHAPES, assignments, full_caps, is_win, waits
from games.rules.mahjong.tiles import TERMINALS_HONOURS, counts_of

ALL_SHAPES = frozenset(SPECIAL_SHAPES)
HONOURS = frozenset(range(27, 34))
KNITS = [(a, b, c) for a in "WTB" for b in "WTB" for c in "WTB" if len({a, b, c}) == 3]


@cache
def _ref_regular(counts: tuple[int, ...], pair: bool) -> bool:
    """A plain reference: remove the lowest tile as pung, pair or chow, recursively."""
    for i, c in enumerate(counts):  # noqa: B007 (i is the first held kind, read below)
        if c:
            break
    else:
        return not pair
    options = []
    if pair and c >= 2:
        options.append(((i, i), False))
    if c >= 3:
        options.append(((i, i, i), pair))
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        options.append(((i, i + 1, i + 2), pair))
    for group, rest_pair in options:
        lst = list(counts)
        for k in group:
            lst[k] -= 1
        if _ref_regular(tuple(lst), rest_pair):
            return True
    return False


def ref_regular(counts: list[int], pair: bool) -> bool:
    return _ref_regular(tuple(counts), pair)


@cache
def knitted_kinds(perm: tuple[str, str, str]) -> frozenset[int]:
    out = set()
    for suit, ns in zip(perm, ((1, 4, 7), (2, 5, 8), (3, 6, 9))):
        for n in ns:
            out.add(KINDS.index(f"{suit}{n}"))
    return frozenset(out)


def ref_win(counts: list[int], sets: int) -> bool:
    """Reference win check on a concrete hand, all shapes of 歡樂麻將."""
    if ref_regular(counts, True):
        return True
    total = sum(counts)
    if sets == 4 and total == 14:
        if all(c % 2 == 0 for c in counts):
            return True  # 七對
        if (
            all(counts[k] >= 1 for k in TERMINALS_HONOURS)
            and sum(counts[k] for k in TERMINALS_HONOURS) == 14
        ):
            return True  # 十三幺
        if max(counts) <= 1:
            held = {k for k in range(34) if counts[k]}
            for perm in KNITS:
                if held <= knitted_kinds(perm) | HONOURS:
                    return True  # 全不靠
    if sets >= 3:
        for perm in KNITS:
            knit = knitted_kinds(perm)
            if min(counts[k] for k in knit) >= 1:
                for k in knit:
                    counts[k] -= 1
                ok = ref_regular(counts, True)
                for k in knit:
                    counts[k] += 1
                if ok:
                    return True  # 組合龍
    return False


def exhaustive(naturals: tuple[int, ...], wilds: int, caps: tuple[int, ...], sets: int):
    out = set()
    for combo in combinations_with_replacement(range(34), wilds):
        counts = list(naturals)
        ok = True
        for k in combo:
            counts[k] += 1
        for k in set(combo):
            if combo.count(k) > caps[k]:
                ok = False
        if ok and ref_win(counts, sets):
            out.add(combo)
    return out


def random_near_win(chance: Chance, wilds: int, sets: int = 4) -> list[str]:
    """A winning-ish hand (sets + pair) with some tiles swapped, then ``wilds`` removed."""
    tiles: list[str] = []
    for _ in range(sets):
        if chance.below(2):
            k = chance.choice(KINDS)
            tiles += [k] * 3
        else:
            suit = chance.choice("WTB")
            n = 1 + chance.below(7)
            tiles += [f"{suit}{n}", f"{suit}{n + 1}", f"{suit}{n + 2}"]
    tiles += [chance.choice(KINDS)] * 2
    for _ in range(chance.below(3)):
        tiles[chance.below(len(tiles))] = chance.choice(KINDS)
    tiles = chance.shuffled(tiles)[wilds:]
    counts = counts_of(tiles)
    if max(counts) > 4:
        return random_near_win(chance, wilds, sets)
    return tiles


def special_hand(chance: Chance, wilds: int) -> list[str]:
    kind = chance.below(4)
    if kind == 0:
        tiles = []
        for k in chance.shuffled(KINDS)[:7]:
            tiles += [k, k]
    elif kind == 1:
        orphans = [KINDS[k] for k in TERMINALS_HONOURS]
        tiles = orphans + [chance.choice(orphans)]
    elif kind == 2:
        perm = chance.choice(KNITS)
        pool = [KINDS[k] for k in sorted(knitted_kinds(perm))] + KINDS[27:]
        tiles = chance.shuffled(pool)[:14]
    else:
        perm = chance.choice(KNITS)
        tiles = [KINDS[k] for k in sorted(knitted_kinds(perm))]
        tiles += ["B1", "B2", "B3"] if "B" not in perm[0] else ["T1", "T2", "T3"]
        tiles += [chance.choice(KINDS)] * 2
    if chance.below(3) == 0:
        tiles[chance.below(14)] = chance.choice(KINDS)
    tiles = chance.shuffled(tiles)[wilds:]
    if max(counts_of(tiles)) > 4:
        return special_hand(chance, wilds)
    return tiles


def test_decomposition_matches_exhaustive_substitution_0_to_3_wilds() -> None:
    """The fast search finds exactly the substitutions an exhaustive search finds."""
    chance = Chance("hands-exhaustive", "test")
    for wilds in (0, 1, 2, 3):
        for trial in range(45 if wilds < 3 else 8):
            if trial % 3 == 0:
                tiles = special_hand(chance, wilds)
            else:
                tiles = random_near_win(chance, wilds)
            counts = counts_of(tiles)
            caps = full_caps(counts)
            want = exhaustive(counts, wilds, caps, 4)
            got = assignments(counts, wilds, caps, 4, ALL_SHAPES)
            assert set(got) == want, (tiles, wilds)
            assert is_win(counts, wilds, caps, 4, ALL_SHAPES) == bool(want), (tiles, wilds)


def test_decomposition_with_four_wilds_and_melds() -> None:
    """With four 財神 (and with melds taking sets) the check agrees with brute force."""
    chance = Chance("hands-four", "test")
    for _trial in range(3):
        tiles = random_near_win(chance, 4)
        counts = counts_of(tiles)
        caps = full_caps(counts)
        want = exhaustive(counts, 4, caps, 4)
        assert set(assignments(counts, 4, caps, 4, ALL_SHAPES)) == want
        assert is_win(counts, 4, caps, 4, ALL_SHAPES) == bool(want)
    # two melds: the concealed part supplies two sets and the pair
    for _trial in range(20):
        tiles = random_near_win(chance, 2, sets=2)
        counts = counts_of(tiles)
        meld = [0] * 34
        meld[chance.below(34)] += 3
        caps = full_caps(counts, tuple(meld))
        if min(caps) < 0:
            continue
        want = exhaustive(counts, 2, caps, 2)
        assert set(assignments(counts, 2, caps, 2, ALL_SHAPES)) == want


def test_five_sets_and_a_pair_for_sixteen_tile_hands() -> None:
    """樂清's 16/17-tile hands: five sets and a pair."""
    tiles = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B2 B3 B4 F1 F1".split()
    counts = counts_of(tiles)
    assert is_win(counts, 0, full_caps(counts), 5)
    short = counts_of(tiles[1:])
    assert is_win(short, 1, full_caps(short), 5)
    assert not is_win(counts, 0, full_caps(counts), 4)


def test_a_wild_never_makes_a_fifth_copy() -> None:
    """Four W1 held (or three in a meld) leave no W1 for a 財神 to become."""
    tiles = "W1 W1 W1 W1 W2 W3 T5 T6 T7 B8 B8 B8 F1".split()
    counts = counts_of(tiles)
    got = assignments(counts, 1, full_caps(counts), 4)
    assert got == {(KINDS.index("F1"),)}
    # a pung of F1 in the melds: the lone F1 cannot be paired by a 財神
    tiles = "W2 W3 W4 T5 T6 T7 B8 B8 B8 F1".split()
    counts = counts_of(tiles)
    melds = [0] * 34
    melds[KINDS.index("F1")] = 3
    assert not is_win(counts, 1, full_caps(counts, tuple(melds)), 3)


def test_waits() -> None:
    """Waits of a nine-gates hand are all nine kinds; a wild widens waits."""
    tiles = "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9".split()
    counts = counts_of(tiles)
    assert [KINDS[k] for k in waits(counts, 0, full_caps(counts), 4)] == [
        f"W{n}" for n in range(1, 10)
    ]
    tiles = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1".split()
    counts = counts_of(tiles)
    assert len(waits(counts, 1, full_caps(counts), 4)) == 33  # every kind but T1 (capped)
    assert waits(
        counts_of("W1 W4 W7 T2 T5 T8 B3 B6 B9 F1 F2 F3 J1".split()),
        0,
        full_caps(counts_of("W1 W4 W7 T2 T5 T8 B3 B6 B9 F1 F2 F3 J1".split())),
        4,
        ALL_SHAPES,
    ) == [KINDS.index(k) for k in ("F4", "J2", "J3")]
