"""Hand ranking of 歡樂三張, checked exhaustively against an independent reference classifier."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

import pytest

from games.engine.cards import suited_deck
from games.rules.zhajinhua import compare, hand_class, hand_key, is_special
from games.rules.zhajinhua.hands import describe, parse_hand, strength

ORDER = "23456789TJQKA"
# the twelve straights as rank sets, lowest (A-2-3) first, highest (Q-K-A) last
STRAIGHTS = [frozenset({12, 0, 1})] + [frozenset({k, k + 1, k + 2}) for k in range(11)]
REF_CLASS = {6: "baozi", 5: "shunjin", 4: "jinhua", 3: "shunzi", 2: "duizi", 1: "danzhang"}


def ref_key(cards: tuple[str, ...]) -> tuple:
    """A slower reference: class by counting, straights by table lookup."""
    ranks = [ORDER.index(card[0]) for card in cards]
    counts = Counter(ranks)
    flush = len({card[1] for card in cards}) == 1
    straight = next((i for i, s in enumerate(STRAIGHTS) if s == frozenset(ranks)), None)
    desc = tuple(sorted(ranks, reverse=True))
    if len(counts) == 1:
        return (6, desc[0])
    if straight is not None and flush:
        return (5, straight)
    if flush:
        return (4, desc)
    if straight is not None:
        return (3, straight)
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return (2, pair, kicker)
    return (1, desc)


def ref_special(cards: tuple[str, ...]) -> bool:
    return sorted(card[0] for card in cards) == sorted("235") and len({c[1] for c in cards}) > 1


def ref_compare(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    ka, kb = ref_key(a), ref_key(b)
    if ref_special(a) and kb[0] == 6:
        return 1
    if ref_special(b) and ka[0] == 6:
        return -1
    return (ka > kb) - (ka < kb)


ALL_HANDS = list(combinations(suited_deck(), 3))


def test_there_are_22100_hands_with_the_known_class_counts() -> None:
    """Every hand's class matches the reference, with the classic counts per class."""
    assert len(ALL_HANDS) == 22100
    counts = Counter()
    for hand in ALL_HANDS:
        expected = REF_CLASS[ref_key(hand)[0]]
        assert hand_class(hand) == expected, hand
        assert is_special(hand) == ref_special(hand), hand
        counts[expected] += 1
    assert counts == {
        "baozi": 52,
        "shunjin": 48,
        "jinhua": 1096,
        "shunzi": 720,
        "duizi": 3744,
        "danzhang": 16440,
    }


def test_exhaustive_comparison_against_the_reference() -> None:
    """Every hand equals its level's representative; every pair of levels compares as the reference.

    The levels (hands equal up to suits) cover every pair of hand classes, 特殊 included.
    """
    levels: dict[tuple, list[tuple[str, ...]]] = defaultdict(list)
    for hand in ALL_HANDS:
        levels[ref_key(hand) + (ref_special(hand),)].append(hand)
    reps = [members[0] for _key, members in sorted(levels.items())]
    for members in levels.values():
        for hand in members:
            assert compare(hand, members[0]) == 0, hand
    # 特殊 levels hold mixed-suit 2-3-5 only
    assert sum(1 for key in levels if key[-1]) == 1
    keys = [(ref_key(rep), ref_special(rep)) for rep in reps]
    classes = [hand_class(rep) for rep in reps]
    class_pairs = set()
    for i, a in enumerate(reps):
        (ka, sa) = keys[i]
        for j in range(i, len(reps)):
            (kb, sb) = keys[j]
            if sa and kb[0] == 6:
                expected = 1
            elif sb and ka[0] == 6:
                expected = -1
            else:
                expected = (ka > kb) - (ka < kb)
            got = compare(a, reps[j])
            assert got == expected, (a, reps[j])
            assert compare(reps[j], a) == -got
            class_pairs.add((classes[i], classes[j]))
    assert len(class_pairs) == 21  # every unordered pair of the six classes, and each with itself


def test_every_pair_of_classes_orders_as_the_seed() -> None:
    """豹子 > 順金 > 金花 > 順子 > 對子 > 單張, for every pair of classes (235 aside)."""
    order = ["danzhang", "duizi", "shunzi", "jinhua", "shunjin", "baozi"]
    samples = {
        "baozi": ["2s 2h 2d", "As Ah Ad"],
        "shunjin": ["As 2s 3s", "Qh Kh Ah"],
        "jinhua": ["2s 3s 5s", "Ah Kh Jh"],
        "shunzi": ["Ah 2s 3d", "Qs Kh Ad"],
        "duizi": ["2s 2h 3d", "As Ah Kd"],
        "danzhang": ["2s 4h 5d", "As Kh Jd"],
    }
    for i, low in enumerate(order):
        for high in order[i + 1 :]:
            for a in samples[high]:
                for b in samples[low]:
                    assert compare(a, b) == 1, (a, b)
                    assert compare(b, a) == -1, (a, b)


def test_the_235_rule_is_pairwise_and_intransitive() -> None:
    """Mixed-suit 235 beats every 豹子, loses to every other hand but another 235."""
    specials = [h for h in ALL_HANDS if ref_special(h)]
    baozis = [h for h in ALL_HANDS if ref_key(h)[0] == 6]
    assert len(specials) == 60 and len(baozis) == 52
    for s in specials:
        for b in baozis:
            assert compare(s, b) == 1 and compare(b, s) == -1
    assert compare("2s 3h 5d", "2h 4s 5c") == -1  # the lowest 單張
    assert compare("2s 3h 5d", "2d 2c 3s") == -1  # loses to a pair …
    assert compare("2d 2c 3s", "4h 4s 4c") == -1  # … which loses to 豹子
    assert compare("2s 3h 5d", "2h 3d 5s") == 0
    # one suit: an ordinary 金花, which loses to 豹子
    assert not is_special("2s 3s 5s")
    assert hand_class("2s 3s 5s") == "jinhua"
    assert compare("2s 3s 5s", "2h 2d 2c") == -1
    assert compare("2s 3s 5h", "Ah Ad Ac") == 1  # two of one suit still counts as mixed


def test_seed_straight_order() -> None:
    """AKQ > KQJ > … > 32A; QKA the highest and A23 the lowest straight (順金 alike)."""
    straights = ["As 2h 3d"] + [f"{ORDER[k]}s {ORDER[k + 1]}h {ORDER[k + 2]}d" for k in range(11)]
    for low, high in zip(straights, straights[1:]):
        assert compare(high, low) == 1, (high, low)
    assert hand_key("Qs Kh Ad") > hand_key("Js Qh Kd")
    assert compare("Ks As 2s", "Kh Ad 3c") == 1  # K-A-2 is no straight: a flush here
    assert hand_class("Kh As 2d") == "danzhang"
    assert compare("As 2s 3s", "Ah Kh Qd") == 1  # lowest 順金 beats the highest 順子


def test_seed_examples_and_tiebreaks() -> None:
    """The seed's examples: AAA, 222 豹子; 黑桃456 順金; 黑桃368 金花; 223 對子."""
    assert hand_class("As Ah Ad") == hand_class("2s 2h 2d") == "baozi"
    assert hand_class("4s 5s 6s") == hand_class("7h 8h 9h") == "shunjin"
    assert hand_class("3s 6s 8s") == hand_class("Ad 4d 5d") == "jinhua"  # 方塊145
    assert hand_class("5s 6h 7d") == "shunzi"
    assert hand_class("2s 2h 3d") == hand_class("3s 3h 4d") == "duizi"
    assert compare("3s 3h 2d", "2s 2h Ad") == 1  # pair rank first
    assert compare("9s 9h Kd", "9d 9c Qs") == 1  # then the kicker
    assert compare("As Qs 9s", "Ah Qh 8h") == 1  # 金花 by points in order
    assert compare("As Kh 9d", "Ad Ks 9c") == 0  # suits never count
    assert describe("2s 3h 5d") == "單張（特殊235）"
    assert 0.99 < strength("As Ah Ad") <= 1.0
    assert strength("2s 3h 5d") == 0.0


@pytest.mark.parametrize("bad", ["As As Kd", "As Kd", "1s 2s 3s", "As Kx Qd", ["As", "Kd"]])
def test_malformed_hands_raise(bad: object) -> None:
    """parse_hand raises ValueError on a repeated card, too few cards, an unknown rank or suit,
    or a list instead of a string."""
    with pytest.raises(ValueError):
        parse_hand(bad)  # type: ignore[arg-type]
