"""The C move generator (_movegen.c) against the Python reference (_classic / _wild).

The Python generators in patterns.py are the specification: on seeded random hands, leading and
following plays of every kind, without and with 1–4 癩子 and with the ``size`` argument that
readings_of passes, the native lists must be the same strings in the same order. The reference
is reached by switching ``patterns.NATIVE`` off for the call.
"""

from __future__ import annotations

import os
import random

import pytest

from games.engine.cards import doudizhu_deck
from games.rules.doudizhu import patterns
from games.rules.doudizhu.patterns import (
    IDX,
    RANKS,
    classify,
    counts_of,
    legal_patterns,
    legal_plays,
    readings_of,
    sort_cards,
)

needs_native = pytest.mark.skipif(not patterns.NATIVE, reason="C extension not in use")


def reference(fn, *args):
    """fn(*args) with the Python generators; an exception is returned as its type."""
    saved = patterns.NATIVE
    patterns.NATIVE = False
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - the same exception must come out natively
        return type(exc)
    finally:
        patterns.NATIVE = saved


def native(fn, *args):
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001
        return type(exc)


def deal(rng: random.Random, n: int, wild: int) -> tuple[str, str | None]:
    """A sorted hand of n cards with ``wild`` 癩子 (and a random laizi rank 3…2 if wild)."""
    deck = doudizhu_deck()
    rng.shuffle(deck)
    if not wild:
        return sort_cards("".join(deck[:n])), None
    laizi = RANKS[rng.randrange(13)]
    others = [c for c in deck if c != laizi]
    wild = min(wild, n)
    return sort_cards("".join(others[: n - wild]) + laizi * wild), laizi


def plays_to_beat(rng: random.Random, laizi: str | None) -> list[str]:
    """One play of each kind (and bomb tier) another random hand can make. It is drawn from a
    fresh deck, so that it may hold 癩子 (soft and pure bombs) and both jokers."""
    deck = doudizhu_deck()
    rng.shuffle(deck)
    other = sort_cards("".join(deck[: rng.randint(8, 20)]))
    by_kind: dict[tuple[str, int], list[str]] = {}
    for play in reference(legal_plays, other, None, laizi):
        p = classify(play, laizi)
        by_kind.setdefault((p.kind, p.tier), []).append(play)
    return [rng.choice(options) for options in by_kind.values()]


def test_extension_in_use() -> None:
    """CI must run the C generator: fails when it is not built (unless LEYOU_NATIVE=0)."""
    if os.environ.get("LEYOU_NATIVE") == "0":
        pytest.skip("LEYOU_NATIVE=0: the Python generator is asked for")
    assert patterns.NATIVE and patterns._native is not None
    assert legal_plays("3334", "3") == ["4", "pass"]


@needs_native
def test_classic_matches_reference() -> None:
    """On 3000 random classic hands the C move generator returns exactly the Python reference's
    legal plays and patterns, leading or following, and every card type gets followed."""
    rng = random.Random(20261201)
    kinds_followed: set[str] = set()
    for i in range(3000):
        hand, _lz = deal(rng, rng.randint(1, 20), 0)
        lasts = [None, "pass"] + plays_to_beat(rng, None)
        for last in lasts:
            if last not in (None, "pass"):
                kinds_followed.add(classify(last).kind)
            assert native(legal_plays, hand, last) == reference(legal_plays, hand, last), (
                hand,
                last,
            )
            if i % 4 == 0:
                target = classify(last) if last not in (None, "pass") else None
                assert native(legal_patterns, hand, target) == reference(
                    legal_patterns, hand, target
                ), (hand, last)
    assert kinds_followed == set(patterns.NAMES), set(patterns.NAMES) - kinds_followed


@needs_native
def test_wild_matches_reference() -> None:
    """On 500 random 癩子 hands (1–4 wild cards) the C generator equals the Python reference,
    covering planes, 四帶兩對, the rocket and soft, hard and pure (純癩子) bombs."""
    rng = random.Random(88)
    followed: set[tuple[str, int]] = set()
    for i in range(500):
        wild = 1 + i % 4
        hand, laizi = deal(rng, rng.randint(wild, 20), wild)
        lasts = [None] + plays_to_beat(rng, laizi)
        # leading with 4 癩子 costs the reference ~10 ms: every other hand only
        if wild == 4 and i % 8 != 3:
            lasts = lasts[1:]
        for last in lasts:
            if last is not None:
                p = classify(last, laizi)
                followed.add((p.kind, p.tier))
            assert native(legal_plays, hand, last, laizi) == reference(
                legal_plays, hand, last, laizi
            ), (hand, last, laizi)
    tiers = {tier for kind, tier in followed if kind == "bomb"}
    assert {"plane_solo", "plane_pair", "four_two_pair", "rocket"} <= {k for k, _ in followed}
    assert {patterns.TIER_SOFT, patterns.TIER_HARD, patterns.TIER_PURE} <= tiers


@needs_native
def test_wild_rank_stacked_on_kickers() -> None:
    """With the 癩子 rank inside the chain, a 癩子 kicker reads as the lowest rank outside it
    whose count stays at most four: natural kickers may already hold the lowest one
    (``33334445556667778888`` with 癩子 3 reads its 20-card 飛機帶翅膀 as ...88889, once
    ``/333444555666777`` with five 8s written as nothing). C and Python agree on these hands."""
    for hand, laizi in (
        ("33334445556667778888", "3"),
        ("3333444555666777888B", "3"),
        ("4444555666777888999R", "4"),
        ("333344455566677788", "3"),
    ):
        for last in (None, "444555666777889T", "33344455566677788899"):
            assert native(legal_plays, hand, last, laizi) == reference(
                legal_plays, hand, last, laizi
            ), (hand, last, laizi)


@needs_native
def test_size_argument_matches_reference() -> None:
    """readings_of (ruleset.py) generates with size = the number of cards played."""
    rng = random.Random(7)
    for i in range(600):
        wild = i % 5
        hand, laizi = deal(rng, rng.randint(max(1, wild), 20), wild)
        lz = IDX[laizi] if laizi else None
        c = counts_of(hand)
        lasts = [None] + [classify(p, laizi) for p in plays_to_beat(rng, laizi)[:3]]
        for last in lasts:
            for size in {0, len(hand), rng.randint(1, 20), rng.randint(1, 8)}:
                if lz is not None and c[lz]:
                    want = patterns._wild(c, lz, last, size)
                else:
                    want = patterns._classic(c, last, size)
                assert patterns._native_generate(c, lz, last, size) == want, (hand, last, size)
        cards = "".join(rng.sample(hand, rng.randint(1, len(hand))))
        assert native(readings_of, cards, laizi) == reference(readings_of, cards, laizi)


@needs_native
@pytest.mark.parametrize(
    "hand, last, laizi",
    [
        ("33345", "pass", None),
        ("33345", "33/33", None),
        ("33345", "BB", None),
        ("33345", "", None),
        ("33345", "3x", None),
        ("3x", None, None),
        ("", None, None),
        ("33333", None, None),
        ("BB", "3", None),
        ("33445566778899TTJJQQKKAA", None, None),
        ("33445566778899TTJJQQKKAA2", "33445566778899TTJJQQKKAA", None),
        ("333444555666777888999TTT", "333444555666777888", None),
        ("333444555666777888999TTTJJJQQQ", None, None),
        ("3334445556667778889", "3", ""),
        ("34567", "3456/3457", None),
        ("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR", "BR", None),
        ("3333444455556666777788889999TTTTJJJJ", "3333", None),
        ("3333444455556666777788889999", "345678", "5"),
        ("33445566778899TTJJQQKKAA22BR5555", None, "5"),  # over 500 kicker sets for a main group
        # 癩子 rooms: plain plays to beat that are no natural play, pure and soft bombs, no 癩子
        ("3456789TT", "3347", "7"),
        ("33334444577", "7777", "7"),
        ("3333444457", "4447/4444", "7"),
        ("3333444457", "6666", "7"),
        ("3333444456", "7777", "7"),
        ("BR345", "BR", "5"),
        ("33344455", "3334", "B"),
        ("33344455", "3334", "x"),
        ("33344455", "3334/3333", ""),
    ],
)
def test_odd_inputs_match_reference(hand: str, last: str | None, laizi: str | None) -> None:
    """Long hands, impossible counts, unreadable plays: the same list or the same exception."""
    assert native(legal_plays, hand, last, laizi) == reference(legal_plays, hand, last, laizi)


@needs_native
def test_bad_arguments_raise() -> None:
    """The C extension rejects bad arguments with TypeError / ValueError / OverflowError (wrong
    count arrays, out-of-range pattern fields, a joker or absent rank as 癩子) and returns
    None for an unreadable hand or play, so the Python path takes over; never a crash."""
    mg = patterns._native
    ok = bytes([1] * 13 + [1, 1])
    with pytest.raises(TypeError):
        mg.classic("not bytes", 0, 0, 0, 0, 0)
    with pytest.raises(TypeError):
        mg.classic(ok, 0, 0, 0, 0)
    for counts in (bytes(14), bytes(16), bytes([5] + [0] * 14), bytes([0] * 13 + [2, 0])):
        with pytest.raises(ValueError):
            mg.classic(counts, 0, 0, 0, 0, 0)
    for want, length, rank, tier, size in (
        (-1, 0, 0, 0, 0),
        (15, 1, 0, 0, 0),
        (6, 4, 3, 0, 0),
        (6, 13, 11, 0, 0),
        (8, 7, 11, 0, 0),
        (1, 1, 15, 0, 0),
        (1, 1, -2, 0, 0),
        (1, 1, 3, 5, 0),
        (1, 1, 3, 0, 21),
        (0, 0, 0, 0, -1),
    ):
        with pytest.raises(ValueError):
            mg.classic(ok, want, length, rank, tier, size)
    with pytest.raises(ValueError):
        mg.wild(ok, 13, 0, 0, 0, 0, 0)  # a joker is never 癩子
    with pytest.raises(ValueError):
        mg.wild(bytes([0] + [1] * 14), 0, 0, 0, 0, 0, 0)  # no 癩子 in hand
    with pytest.raises(OverflowError):
        mg.wild(ok, 2**70, 0, 0, 0, 0, 0)
    assert mg.legal_plays(123, None, -1) is None
    assert mg.legal_plays("33", 5, -1) is None
    assert mg.legal_plays("3\u4e00", None, -1) is None
    assert mg.legal_plays("33", "3", -1) == ["pass"]
    assert mg.legal_plays("3337", "3338/3333", 4) is None  # a reading: Python reads it
    with pytest.raises(ValueError):
        mg.legal_plays("33", None, 13)
    with pytest.raises(TypeError):
        mg.legal_plays("33", None, "3")
    with pytest.raises(TypeError):
        mg.legal_plays("33", None)
    assert mg.classic(ok, 0, 0, 0, 0, 0) == reference(patterns._classic, list(ok), None, 0)
