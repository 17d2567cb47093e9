"""Card types, comparisons and legal_plays (classic and 癩子) against a brute force."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import doudizhu_deck
from games.rules.doudizhu import beats, classify, legal_plays, patterns
from games.rules.doudizhu.patterns import (
    ACE,
    IDX,
    RANKS,
    TIER_HARD,
    TIER_PURE,
    TIER_SOFT,
    all_readings,
    readings_of,
    sort_cards,
)
from games.rules.doudizhu.tests.bruteforce import beating, classes_of, reading_classes
from games.rules.doudizhu.tests.legacy_generator import legacy_legal_plays, legacy_readings_of

# (play, kind, top rank, length, Chinese name)
CLASSIFY = [
    ("3", "single", "3", 1, "單張"),
    ("33344455556", "", "", 0, ""),  # 11 cards: no play
    ("R", "single", "R", 1, "單張"),
    ("22", "pair", "2", 1, "對子"),
    ("TTT", "trio", "T", 1, "三張"),
    ("3336", "trio_single", "3", 1, "三帶一"),
    ("333R", "trio_single", "3", 1, "三帶一"),
    ("44499", "trio_pair", "4", 1, "三帶二"),
    ("34567", "chain", "7", 5, "順子"),
    ("3456789TJQKA", "chain", "A", 12, "順子"),
    ("334455", "pair_chain", "5", 3, "連對"),
    ("77889900JJ".replace("0", "T"), "pair_chain", "J", 5, "連對"),
    ("333444", "plane", "4", 2, "飛機"),
    ("555666777888", "plane", "8", 4, "飛機"),
    ("44455579", "plane_solo", "5", 2, "飛機帶翅膀"),
    ("3334445557799JJ", "plane_pair", "5", 3, "飛機帶翅膀"),
    ("3334445577", "plane_pair", "4", 2, "飛機帶翅膀"),
    ("355558", "four_two_solo", "5", 1, "四帶二"),
    ("445555", "four_two_solo", "5", 1, "四帶二"),  # two solo kickers may be a pair
    ("5555BR", "four_two_solo", "5", 1, "四帶二"),  # …or both jokers
    ("44555577", "four_two_pair", "5", 1, "四帶兩對"),
    ("7777", "bomb", "7", 1, "炸彈"),
    ("BR", "rocket", "R", 1, "王炸"),
    # kickers may make a trio next to the chain: read with the higher chain
    ("333444555666777R", "plane_solo", "7", 4, "飛機帶翅膀"),
    # wings may be all four of a rank
    ("3334445555", "", "", 0, ""),  # pair wings of distinct ranks: a four is not two pairs
    ("33344455556666", "", "", 0, ""),
    ("3334445555666777", "", "", 0, ""),  # the 4th 5 sits in a chain rank: no wing
    ("3334447777", "", "", 0, ""),  # 10 cards: a four is never two pairs
    ("33344477", "plane_solo", "4", 2, "飛機帶翅膀"),  # solo wings may repeat a rank
    ("333444555666", "plane", "6", 4, "飛機"),  # plain trio chain first (RULES-NOTES §2 #10)
]

NOT_PLAYS = [
    "33334444",  # one four never counts as two pairs
    "34",
    "3344",  # two pairs are no play
    "33445",
    "3456",  # chain too short
    "JQKA2",  # no 2 in a chain
    "QKA2B",
    "KKAA22",  # no 2 in a pair chain
    "AAA222",  # no 2 in a plane
    "AAA22234",
    "BB",
    "33344",  # trio pair ok? (no: this is valid) -- replaced below
    "3333444",
    "33334445",  # kicker of a chain rank
    "3334445556",  # 3 trios + 1 card
    "3334445566",  # pair wings must be outside the chain: ok; see PAIR_WING_OK
    "333444BR",  # pair wings cannot be the jokers (as solo wings they are fine)
    "5555BB",
]


@pytest.mark.parametrize("play,kind,rank,length,name", CLASSIFY)
def test_classify(play: str, kind: str, rank: str, length: int, name: str) -> None:
    """Each card type is recognised with its main rank, length and Chinese name."""
    p = classify(play)
    if not kind:
        assert p is None
        return
    assert p is not None, play
    assert (p.kind, RANKS[p.rank], p.length, p.name) == (kind, rank, length, name)


def test_not_plays() -> None:
    """Card sets that are no card type."""
    valid = {"33344", "3334445566", "333444BR"}
    for play in NOT_PLAYS:
        if play in valid:
            continue
        assert classify(play) is None, play
    assert classify("33344").kind == "trio_pair"
    assert classify("3334445566").kind == "plane_pair"
    assert classify("333444BR").kind == "plane_solo"  # solo wings may be B and R


def test_multiple_readings() -> None:
    """333444555666 is a 4-trio plane or a 3-trio airplane with a trio of wings."""
    kinds = {(p.kind, RANKS[p.rank], p.length) for p in all_readings("333444555666")}
    assert kinds == {("plane", "6", 4), ("plane_solo", "6", 3), ("plane_solo", "5", 3)}
    # it beats a 3-trio airplane with wings through its second reading
    assert beats("333444555666", "33344455567A".replace("67A", "678"))


BEATS = [
    ("4", "3", True),
    ("3", "4", False),
    ("2", "A", True),
    ("B", "2", True),
    ("R", "B", True),
    ("44", "33", True),
    ("44", "3", False),  # different kinds
    ("4445", "3336", True),
    ("4445", "33366", False),  # 三帶一 vs 三帶二
    ("444K", "333A", True),  # kickers never count
    ("45678", "34567", True),
    ("456789", "34567", False),  # different length
    ("445566", "334455", True),
    ("44455566", "33344478", True),
    ("3333", "22", True),
    ("3333", "34567", True),
    ("4444", "3333", True),
    ("3333", "4444", False),
    ("BR", "2222", True),
    ("2222", "BR", False),
    ("555566", "444478", True),
    ("5555", "444478", True),  # a bomb beats 四帶二
    ("444478", "5555", False),
    ("66667788", "55553344", True),
    ("66667788", "555534", False),
]


@pytest.mark.parametrize("play,last,expected", BEATS)
def test_beats(play: str, last: str, expected: bool) -> None:
    """A play beats the one on the table only as the rules say: same type and length and higher
    rank, a bomb (炸彈) beats any non-bomb, the rocket (王炸) beats everything."""
    assert beats(play, last) is expected


def _random_hand(rng: random.Random, n: int) -> str:
    deck = doudizhu_deck()
    rng.shuffle(deck)
    return sort_cards("".join(deck[:n]))


def test_legal_plays_shape() -> None:
    """Sorted play strings; 'pass' only when following, last; weakest first, bombs after."""
    lead = legal_plays("3334445556BR")
    assert "pass" not in lead
    assert all(p == sort_cards(p) for p in lead)
    assert lead[0] == "3" and lead[-1] == "BR"
    follow = legal_plays("3334445556BR", "6")
    assert follow == ["B", "R", "BR", "pass"]
    assert legal_plays("34", "BR") == ["pass"]
    assert legal_plays("5555", "4444") == ["5555", "pass"]
    assert legal_plays("3333", "4444") == ["pass"]


def test_legal_plays_brute_force_classic() -> None:
    """Lead and follow plays equal a brute force over every sub-multiset (seeded hands)."""
    rng = random.Random(2024)
    for _ in range(150):
        hand = _random_hand(rng, rng.randint(1, 11))
        ref = reading_classes(hand)
        plays = legal_plays(hand)
        assert len(plays) == len(set(plays))
        assert classes_of(plays) == ref, hand
        other = legal_plays(_random_hand(rng, 9))
        last = rng.choice(other)
        target = classify(last)
        follow = legal_plays(hand, last)
        assert follow[-1] == "pass"
        got = classes_of(follow)
        assert beating(got, target) == beating(ref, target), (hand, last)
        for play in follow[:-1]:  # every offered play beats through some reading
            assert beats(play, last), (hand, last, play)


def test_legal_plays_full_hands() -> None:
    """On full 17/20-card hands every offered play is a held, valid, beating play."""
    rng = random.Random(7)
    for _ in range(30):
        hand = _random_hand(rng, 20)
        plays = legal_plays(hand)
        for play in plays:
            assert classify(play) is not None
            for ch in set(play):
                assert play.count(ch) <= hand.count(ch)
        last = rng.choice(plays)
        for play in legal_plays(_random_hand(rng, 17), last)[:-1]:
            assert beats(play, last)


# -- 癩子 -------------------------------------------------------------------------------------

LAIZI_TYPES = [
    # (laizi, play with reading, kind, tier)
    ("7", "3337/3333", "bomb", TIER_SOFT),
    ("5", "5577/7777", "bomb", TIER_SOFT),  # seed: 77 + 55 = soft 7777
    ("6", "7777", "bomb", TIER_HARD),
    ("5", "5555", "bomb", TIER_PURE),
    ("7", "445567/445566", "pair_chain", 0),  # seed: 44556 + 7
    ("7", "77", "pair", 0),  # 癩子 alone are their own rank
    ("7", "4", "single", 0),
    ("7", "3457/34567", "", 0),  # not a play: 4 cards cannot be a 5-chain
    ("9", "34599/34567", "chain", 0),  # two 癩子
    ("9", "399/333", "trio", 0),
    ("9", "3999/3333", "bomb", TIER_SOFT),  # three 癩子 + one
    ("9", "34999/33344", "trio_pair", 0),
    ("9", "3456999/3334569", "", 0),  # no type
    ("9", "33459999/33344455", "plane_solo", 0),
    ("9", "33459999/33334445", "", 0),  # a four of kicker rank next to...: no
    ("9", "3459999/3334445", "", 0),
    ("9", "34569999/33344456", "plane_solo", 0),  # four 癩子 inside a bigger play
    ("2", "3456722/3456789", "chain", 0),  # two 癩子 2 extend a chain
    ("2", "JQK22/JQKA2", "", 0),  # a 癩子 2 standing for 2 cannot enter a chain
    ("2", "JQK22/TJQKA", "chain", 0),
    ("7", "37/3B", "", 0),  # never a joker
]


@pytest.mark.parametrize("laizi,play,kind,tier", LAIZI_TYPES)
def test_laizi_types(laizi: str, play: str, kind: str, tier: int) -> None:
    """A 癩子 play is read as the expected card type and bomb tier (soft, hard, pure) or is
    refused: 癩子 never stand for a joker, a 癩子 2 never enters a chain."""
    found = all_readings(play, laizi)
    if not kind:
        assert not found, (play, found)
        return
    assert found, play
    assert (found[0].kind, found[0].tier) == (kind, tier)


def test_laizi_alone_is_natural() -> None:
    """77 with 癩子 7 is a pair of 7 and nothing else; 7777 is only the pure bomb."""
    assert all_readings("77/55", "7") == []
    assert readings_of("77", "7")[0].reading == "77"
    assert [(p.kind, p.tier) for p in readings_of("7777", "7")] == [("bomb", TIER_PURE)]
    assert "7777/3333" not in legal_plays("7777", laizi="7")


def test_laizi_bomb_order() -> None:
    """火箭 > 純癩子炸彈 > 硬炸彈 > 軟炸彈, by rank within a tier."""
    lz = "5"
    soft_2 = classify("2225/2222", lz)
    hard_3 = classify("3333", lz)
    hard_4 = classify("4444", lz)
    soft_4 = classify("4445/4444", lz)
    pure = classify("5555", lz)
    rocket = classify("BR", lz)
    assert hard_3.beats(soft_2) and not soft_2.beats(hard_3)
    assert hard_4.beats(soft_4) and not soft_4.beats(hard_4)
    assert hard_4.beats(hard_3)
    assert pure.beats(classify("2222", lz))
    assert rocket.beats(pure) and not pure.beats(rocket)
    assert soft_4.beats(classify("34567", lz))
    assert classify("445567/445566", "7").name == "連對"
    assert (soft_2.name, hard_3.name, pure.name) == ("軟炸彈", "炸彈", "純癩子炸彈")


def test_laizi_reading_choice() -> None:
    """333 + 癩子 reads as 三帶一 (natural) or the soft bomb 3333; legal_plays lists both."""
    plays = legal_plays("3337", laizi="7")
    assert "3337" in plays and "3337/3333" in plays
    assert classify("3337", "7").kind == "trio_single"
    assert classify("3337/3333", "7").kind == "bomb"


def test_legal_plays_brute_force_laizi() -> None:
    """With 1–4 癩子: every reading class equals a brute force over every substitution."""
    rng = random.Random(99)
    for trial in range(70):
        lz = RANKS[rng.randrange(13)]
        wild = 1 + trial % 4
        base = _random_hand(rng, rng.randint(2, 8)).replace(lz, "")
        hand = sort_cards(base[: max(1, 7 - wild)] + lz * wild)
        ref = reading_classes(hand, lz)
        plays = legal_plays(hand, laizi=lz)
        assert len(plays) == len(set(plays))
        assert classes_of(plays, lz) == ref, (hand, lz)
        last_hand = _random_hand(rng, 8)
        last = rng.choice(legal_plays(last_hand))
        target = classify(last, lz)
        follow = legal_plays(hand, last, lz)
        got = classes_of(follow, lz)
        assert beating(got, target) == beating(ref, target), (hand, lz, last)
        for play in follow[:-1]:
            assert any(p.beats(target) for p in all_readings(play, lz)), (hand, last, play)


def test_laizi_full_hand_speed_sanity() -> None:
    """A 20-card hand with four 癩子 still yields valid plays only."""
    hand = sort_cards("3456789TJQKA2" + "777" + "BR" + "33")
    plays = legal_plays(hand, laizi="7")
    for play in plays[:: max(1, len(plays) // 200)]:
        assert all_readings(play, "7"), play
    assert IDX["7"] == 4


def test_generator_matches_legacy_exactly() -> None:
    """The count-vector generators return the very list (strings and order) of the older
    substitution-enumerating one, leading and following, with 0–4 癩子 on 5–20-card hands,
    in rooms with and without 癩子."""
    rng = random.Random(4242)
    for trial in range(150):
        lz = RANKS[rng.randrange(13)]
        wild = trial % 5
        deck = [c for c in doudizhu_deck() if c != lz]
        rng.shuffle(deck)
        n = rng.choice([5, 6, 9, 13, 17, 20])
        hand = sort_cards("".join(deck[: n - wild]) + lz * wild)
        other = sort_cards("".join(deck[n : n + 17]))
        lasts = [
            None,
            *rng.sample(legal_plays(other), 3),
            *rng.sample(legal_plays(sort_cards(other + lz), laizi=lz), 2),
        ]
        for last in lasts:
            got = legal_plays(hand, last, lz)
            assert got == legacy_legal_plays(hand, last, lz), (hand, lz, last)
            if not wild and (last is None or "/" not in last):
                assert legal_plays(hand, last) == legacy_legal_plays(hand, last), (hand, last)
        for k in (2, 4, 5, 6, 8):
            cards = sort_cards("".join(rng.sample(hand, min(k, len(hand)))))
            assert [p.play for p in readings_of(cards, lz)] == [
                p.play for p in legacy_readings_of(cards, lz)
            ], (cards, lz)


# -- 癩子 readings are sound -------------------------------------------------------------------
#
# Every play legal_plays returns in a 癩子 room must be a well-formed reading: as long as the
# cards, at most four of a rank, jokers never stood for, a card type, beating the play on the
# table, and listed once. 33334445556667778888 with 癩子 3 once gave the 20-card 飛機帶翅膀
# '33334445556667778888/333444555666777': the 癩子 kicker read as 8, the lowest rank outside the
# chain, next to four natural 8s, and the five 8s were written as nothing.

STACKED_KICKER = ("33334445556667778888", "3")  # regression: the case above


def plane_heavy_deal(rng: random.Random) -> tuple[str, str]:
    """A hand of ``wild`` (1–4) 癩子 of a random rank around a run of trios (often holding the
    癩子 rank) and a four of a kind beside it: the hands where 癩子 kickers pile up on a rank."""
    laizi = RANKS[rng.randrange(13)]
    wild = rng.choice((1, 2, 3, 4, 4))
    counts = dict.fromkeys(RANKS, 0)
    counts[laizi] = wild
    length = rng.choice((2, 3, 4, 5, 5))
    lz = IDX[laizi]
    if lz <= ACE and rng.random() < 0.6:  # the chain holds the 癩子 rank
        lo = rng.randint(max(0, lz - length + 1), min(lz, ACE + 1 - length))
    else:
        lo = rng.randint(0, ACE + 1 - length)
    chain = RANKS[lo : lo + length]
    for r in chain:
        if r != laizi:
            counts[r] = 3
    # natural cards on the rank a 癩子 kicker falls back to (the lowest outside the chain)
    # or on another one
    outside = [r for r in RANKS[:13] if r not in chain and r != laizi]
    quad = outside[0] if rng.random() < 0.6 else rng.choice(outside)
    counts[quad] = min(rng.choice((2, 3, 4, 4)), 20 - sum(counts.values()))
    rest = [ch for ch in "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR" if ch != laizi]
    rng.shuffle(rest)
    size = rng.randint(sum(counts.values()), 20)
    for ch in rest:
        if sum(counts.values()) >= size:
            break
        if counts[ch] < (1 if ch in "BR" else 4):
            counts[ch] += 1
    return sort_cards("".join(ch * n for ch, n in counts.items())), laizi


def random_deal(rng: random.Random) -> tuple[str, str]:
    deck = doudizhu_deck()
    rng.shuffle(deck)
    laizi = RANKS[rng.randrange(13)]
    wild = rng.randint(1, 4)
    n = rng.randint(max(wild, 5), 20)
    others = [ch for ch in deck if ch != laizi]
    return sort_cards("".join(others[: n - wild]) + laizi * wild), laizi


def unsound(plays: list[str], last: str | None, laizi: str) -> list[tuple[str, str]]:
    """(play, what is wrong) for each play of a legal_plays list that is no sound reading."""
    wrong = []
    if len(set(plays)) != len(plays):
        wrong.append(("", "a string listed twice"))
    for play in plays:
        if play == "pass":
            continue
        cards, _, reading = play.partition("/")
        reading = reading or cards
        if len(reading) != len(cards):
            wrong.append((play, "reading not as long as the cards"))
        elif any(reading.count(r) > 4 for r in RANKS[:13]):
            wrong.append((play, "five of a rank"))
        elif reading.count("B") != cards.count("B") or reading.count("R") != cards.count("R"):
            wrong.append((play, "a joker stood for"))
        elif classify(play, laizi) is None:
            wrong.append((play, "no card type"))
        elif last is not None and not beats(play, last, laizi):
            wrong.append((play, f"does not beat {last}"))
    return wrong


def both_generators(hand: str, last: str | None, laizi: str) -> list[list[str]]:
    """legal_plays from the generator in use and, when that is C, from the Python reference."""
    lists = [legal_plays(hand, last, laizi)]
    if patterns.NATIVE:
        patterns.NATIVE = False
        try:
            lists.append(legal_plays(hand, last, laizi))
        finally:
            patterns.NATIVE = True
    return lists


def test_stacked_kicker_regression() -> None:
    """The 20-card 飛機帶翅膀 33334445556667778888 with 癩子 3 is offered only as a sound
    reading (kickers up to 9), never the old one that made five 8s vanish."""
    hand, laizi = STACKED_KICKER
    for plays in both_generators(hand, None, laizi):
        assert unsound(plays, None, laizi) == []
        whole = [p for p in plays if p.partition("/")[0] == hand]
        assert whole == ["33334445556667778888/33344455566677788889"]
    p = classify("33334445556667778888/33344455566677788889", laizi)
    assert (p.kind, p.rank, p.length) == ("plane_solo", IDX["7"], 5)


@pytest.mark.parametrize("deal_kind", ["plane_heavy", "random"])
def test_wild_readings_are_sound(deal_kind: str) -> None:
    """Seeded hands with 1–4 癩子 of a random rank, leading and following a play of the hand's
    own list (the hardest to beat: the same shape) and of a random other hand."""
    rng = random.Random(f"sound-{deal_kind}")
    make = plane_heavy_deal if deal_kind == "plane_heavy" else random_deal
    for _i in range(60 if deal_kind == "plane_heavy" else 120):
        hand, laizi = make(rng)
        lead = both_generators(hand, None, laizi)
        for plays in lead:
            assert unsound(plays, None, laizi) == [], (hand, laizi)
        other, _ = random_deal(rng)
        lasts = [rng.choice(lead[0])] + rng.sample(legal_plays(other, None, laizi), 1)
        for last in lasts:
            for plays in both_generators(hand, last, laizi):
                assert plays[-1] == "pass"
                assert unsound(plays, last, laizi) == [], (hand, last, laizi)
