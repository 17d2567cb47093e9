"""The hu finder and the 胡息 table, checked against the texts and an exhaustive search."""

from __future__ import annotations

import itertools
import random

from games.rules.paohuzi.cards import (
    CHI,
    CHOUWEI,
    JIANG,
    JIAO,
    JU,
    KAN,
    PAO,
    PENG,
    TI,
    WANG,
    WEI,
    WSUB,
    card_name,
    counts_of,
    group_huxi,
    is_big,
    is_red,
    parse_card,
    parse_cards,
)
from games.rules.paohuzi.hu import best_partial_huxi, find_hu
from games.rules.paohuzi.params import Config
from games.rules.paohuzi.scoring import hunan_score, shuangwang_score

HUNAN = Config()
SW = Config(variant="shuangwang", base=1)


def c(text: str) -> list[int]:
    return parse_cards(text.split())


def test_notation_round_trip() -> None:
    """Every one of the 20 card kinds (小 x1–x10, 大 d1–d10) round-trips through its name, and a
    bad name (x0, x11, d01, y3, empty, a number) raises ValueError."""
    for kind in range(21):
        assert parse_card(card_name(kind)) == kind
    for bad in ("x0", "x11", "d01", "y3", "", 5, "w"):
        try:
            parse_card(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_huxi_table() -> None:
    """RULES-NOTES §7 / seed 000 §四."""
    x, d = parse_card("x5"), parse_card("d5")
    assert (group_huxi(PENG, [x] * 3), group_huxi(PENG, [d] * 3)) == (1, 3)
    for kind in (KAN, WEI, CHOUWEI):
        assert (group_huxi(kind, [x] * 3), group_huxi(kind, [d] * 3)) == (3, 6)
    assert (group_huxi(PAO, [x] * 4), group_huxi(PAO, [d] * 4)) == (6, 9)
    assert (group_huxi(TI, [x] * 4), group_huxi(TI, [d] * 4)) == (9, 12)
    assert group_huxi(JU, c("x1 x2 x3")) == 3 and group_huxi(CHI, c("d1 d2 d3")) == 6
    assert group_huxi(JU, c("x2 x7 x10")) == 3 and group_huxi(JU, c("d2 d7 d10")) == 6
    assert group_huxi(JU, c("x4 x5 x6")) == 0 and group_huxi(JIAO, c("x4 d4 d4")) == 0
    assert group_huxi(JIANG, c("d1 d1")) == 0


def test_plain_hand_without_ti_has_no_jiang() -> None:
    """A complete hand without 提 or 跑 needs no 將 (pair) and counts its 胡息; a hand that has a
    pair instead of a seventh group does not win."""
    hand = c("x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d5 d6 x8 x8 x8")
    hu = find_hu(counts_of(hand), config=HUNAN)
    assert hu is not None and hu.huxi == 3 + 6 + 3 + 6 + 0 + 0 + 3
    assert not any(t == JIANG for t, _ in hu.groups)
    # a pair instead of a group: no hu without a 跑/提
    assert (
        find_hu(
            counts_of(c("x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d5 d6 x9 x9")),
            card="x8",
            self_drawn=False,
            config=HUNAN,
        )
        is None
    )


def test_jiang_needed_with_ti() -> None:
    """With a 提 laid down the hand must include a 將 (pair): the winning card pairs x9 and the
    提 counts 12 胡息."""
    melds = [(TI, c("d9 d9 d9 d9"))]
    hand = counts_of(c("x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 x9"))
    hu = find_hu(hand, melds, "x9", self_drawn=False, config=HUNAN)
    assert hu is not None and hu.huxi == 12 + 3 + 6 + 3 + 6
    assert (JIANG, (8, 8)) in hu.groups


def test_below_15_no_hu() -> None:
    """A complete hand under the room's 胡息 minimum (15) is no hu; with minimum 0 it wins with
    its 3 胡息."""
    hand = counts_of(c("x4 x5 x6 d4 d5 d6 x7 x8 x9 d7 d8 d9 x3 x4 x5 d3 d4 d5 x1 x2"))
    assert find_hu(hand, (), "x3", self_drawn=False, config=HUNAN) is None
    low = Config(min_huxi=0)
    assert find_hu(hand, (), "x3", self_drawn=False, config=low).huxi == 3  # type: ignore[union-attr]


def test_own_draw_onto_pair_is_wei_and_others_card_is_peng() -> None:
    """A self-drawn card onto a held pair makes a 偎 (6 息, 24 total), another seat's card a 碰
    (3 息, 21 total)."""
    hand = counts_of(c("x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d5 d6 d8 d8"))
    mine = find_hu(hand, (), "d8", self_drawn=True, config=HUNAN)
    theirs = find_hu(hand, (), "d8", self_drawn=False, config=HUNAN)
    assert mine is not None and theirs is not None
    assert mine.join == "wei" and (WEI, (17, 17, 17)) in mine.groups and mine.huxi == 24
    assert (PENG, (17, 17, 17)) in theirs.groups and theirs.huxi == 21


def test_po_pao_hu_and_pao_hu() -> None:
    """破跑胡: the card completes the hand elsewhere, the 坎 stays; 跑胡 needs the 將."""
    hand = counts_of(c("d5 d5 d5 x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x6 x7 x8 x4 x9"))
    hu = find_hu(hand, (), "d5", self_drawn=False, config=HUNAN)
    assert hu is None  # d5 alone cannot be placed; the 跑 leaves x4 x9 unpaired
    hand = counts_of(c("d5 d5 d5 x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x6 x7 x8 d4 d6"))
    hu = find_hu(hand, (), "d5", self_drawn=False, config=HUNAN)
    assert hu is not None and hu.join == "free" and (KAN, (14, 14, 14)) in hu.groups
    hand = counts_of(c("d5 d5 d5 x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x6 x7 x8 x9 x9"))
    hu = find_hu(hand, (), "d5", self_drawn=False, config=HUNAN)
    assert hu is not None and hu.join == "pao" and (PAO, (14,) * 4) in hu.groups


def test_best_partial_huxi() -> None:
    """best_partial_huxi scores the best groups of an incomplete hand: 一二三, 二七十, a 坎 and
    a 提 (3 + 3 + 6 + 9)."""
    counts = counts_of(c("x1 x2 x3 x2 x7 x10 d5 d5 d5 x9 x9 x9 x9 d1"))
    assert best_partial_huxi(counts) == 3 + 3 + 6 + 9


# -- exhaustive check ------------------------------------------------------------------------


def _all_groups() -> list[tuple[str, tuple[int, ...]]]:
    out = []
    for size in (0, 10):
        for start in range(8):
            out.append((JU, (size + start, size + start + 1, size + start + 2)))
        out.append((JU, (size + 1, size + 6, size + 9)))
    for r in range(10):
        out.append((JIAO, (r, r, r + 10)))
        out.append((JIAO, (r, r + 10, r + 10)))
    for k in range(20):
        out.append((KAN, (k, k, k)))
    return out


GROUPS = _all_groups()


def _brute(cards: list[int], need_jiang: bool) -> list[tuple[int, bool, list]]:
    """Every split of ``cards`` (a multiset of kinds, 王 already given identities ≥ WSUB)."""
    if not cards:
        return [] if need_jiang else [(0, True, [])]
    first = cards[0]
    out = []
    rest_kinds = cards[1:]
    candidates = list(GROUPS)
    if need_jiang:
        candidates += [(JIANG, (k, k)) for k in range(20)]
    seen = set()
    for gtype, members in candidates:
        ids = list(members)
        fid = first - WSUB if first >= WSUB else first
        if fid not in ids:
            continue
        ids.remove(fid)
        pool = list(rest_kinds)
        used = [first]
        ok = True
        for m in ids:
            if m in pool:
                pool.remove(m)
                used.append(m)
            elif m + WSUB in pool:
                pool.remove(m + WSUB)
                used.append(m + WSUB)
            else:
                ok = False
                break
        if not ok:
            continue
        key = (gtype, tuple(sorted(used)))
        if key in seen:
            continue
        seen.add(key)
        real_type = gtype
        if gtype == KAN and all(u < 20 for u in used):
            real_type = PENG
        h = group_huxi(real_type, [u - WSUB if u >= WSUB else u for u in used])
        dd = real_type in (KAN, PENG, JIANG)
        for sub_h, sub_dd, sub_g in _brute(pool, need_jiang and gtype != JIANG):
            out.append((h + sub_h, dd and sub_dd, [(real_type, used), *sub_g]))
    return out


def _brute_best(hand: list[int], melds, card, self_drawn, cfg):
    """Best (score, huxi) by brute force: hand 坎 fixed, 王 tried as every kind."""
    counts = counts_of(hand)
    wangs = counts[WANG]
    melds = list(melds) + [(TI, (k,) * 4) for k in range(20) if counts[k] == 4]
    hand = [x for x in hand if counts[x] != 4]
    counts = counts_of(hand)
    need_jiang = any(t in (PAO, TI) for t, _ in melds)
    fixed_h = sum(group_huxi(t, m) for t, m in melds)
    kans = [k for k in range(20) if counts[k] == 3]
    free = [k for k in range(20) if counts[k] < 3 for _ in range(counts[k])]
    if card is not None:
        free.append(card)
    real = (
        [x for x in hand if x != WANG]
        + ([card] if card is not None else [])
        + [x for _, m in melds for x in m]
    )
    red = sum(map(is_red, real))
    big = sum(map(is_big, real))
    best = None
    fixed_h += sum(group_huxi(KAN, [k]) for k in kans)
    for idents in itertools.product(range(20), repeat=wangs):
        cards = sorted(
            free + [WSUB + i for i in idents], key=lambda x: x % WSUB if x >= WSUB else x
        )
        cards = sorted(free) + [WSUB + i for i in idents]
        red_extra = sum(1 for i in idents if is_red(i))
        for h, dd, _ in _brute(cards, need_jiang):
            total = fixed_h + h
            if total < cfg.min_huxi:
                continue
            if cfg.variant == "hunan":
                s = hunan_score(
                    total,
                    red,
                    big,
                    len(real) - big,
                    dd and all(t not in (CHI,) for t, _ in melds),
                    self_drawn=self_drawn,
                    tianhu=False,
                    haidi=False,
                    cfg=cfg,
                )
            else:
                s = shuangwang_score(
                    total, red + red_extra, self_drawn=self_drawn, shape="", xing=0, cfg=cfg
                )
            key = (s.per_loser, total)
            if best is None or key > best:
                best = key
    return best


def _random_complete(rng: random.Random, wangs: int) -> tuple[list[int], list, int]:
    """A random hand that is likely complete: random groups from a deck."""
    while True:
        deck = [k for k in range(20) for _ in range(4)]
        rng.shuffle(deck)
        counts = counts_of(deck)
        avail = [4] * 20
        melds = []
        if rng.random() < 0.4:
            k = rng.randrange(20)
            melds.append((TI, (k,) * 4))
            avail[k] = 0
        hand: list[int] = []
        groups = 7 - len(melds) - (1 if melds else 0)
        tries = 0
        while groups and tries < 200:
            tries += 1
            gtype, members = rng.choice(GROUPS)
            if gtype == KAN and rng.random() < 0.7:
                continue
            need = counts_of(members)
            if all(need[k] <= avail[k] for k in range(20)):
                for k in members:
                    avail[k] -= 1
                hand.extend(members)
                groups -= 1
        if groups:
            continue
        if melds:
            k = rng.choice([k for k in range(20) if avail[k] >= 2])
            hand += [k, k]
            avail[k] -= 2
        cnt = counts_of(hand)
        if any(cnt[k] >= 3 for k in range(20)) and rng.random() < 0.9:
            continue
        rng.shuffle(hand)
        if rng.random() < 0.3:  # perturb: swap one card for a random one
            k = rng.choice([k for k in range(20) if avail[k]])
            hand[0] = k
        for _ in range(wangs):
            hand[rng.randrange(len(hand))] = WANG
        card = hand.pop()
        if card == WANG or counts_of(hand)[card] >= 2:
            hand.append(card)
            card = None
        del counts
        return hand, melds, card


def test_find_hu_matches_exhaustive_search_hunan() -> None:
    """On 150 random complete hands find_hu returns the same best hu as an exhaustive search,
    with and without the 15 胡息 minimum."""
    rng = random.Random(7)
    found = 0
    for i in range(150):
        hand, melds, card = _random_complete(rng, 0)
        self_drawn = card is None
        cfg = HUNAN if i % 3 == 0 else Config(min_huxi=0)
        got = find_hu(counts_of(hand), melds, card, self_drawn=self_drawn, config=cfg)
        want = _brute_best(hand, melds, card, self_drawn, cfg)
        assert (got.key if got else None) == want, (hand, melds, card)
        found += got is not None
    assert found > 30


def test_find_hu_matches_exhaustive_search_with_wang() -> None:
    """On 40 random 雙王 hands with one or two 王 (wild cards) find_hu equals the exhaustive
    search."""
    rng = random.Random(11)
    found = 0
    for i in range(40):
        hand, melds, card = _random_complete(rng, 1 + i % 2)
        cfg = Config(variant="shuangwang", base=1, min_huxi=0)
        full = hand + ([card] if card is not None else [])
        got = find_hu(counts_of(full), melds, None, self_drawn=True, config=cfg)
        want = _brute_best(full, melds, None, True, cfg)
        # the finder may also find a 王 shape (only with a winning card); none here
        assert (got.key if got else None) == want, (hand, melds, card)
        found += got is not None
    assert found > 10


def test_duidui_wu_hu_added() -> None:
    """對對胡 (only 提 / 坎 / 將) + 烏胡 (no red), added: 4 + 5 = 9 番; 底數 (30 − 12) ÷ 3 = 6."""
    hand = counts_of(c("x5 x5 x5 d5 d5 d5 x8 x8 x8 d8 d8 d8 x9 x9 x9 d9"))
    hu = find_hu(hand, [(TI, c("x1 x1 x1 x1"))], "d9", self_drawn=False, config=HUNAN)
    assert hu is not None and hu.huxi == 30 and hu.duidui and hu.red == 0
    assert hu.score.fan == 9 and hu.score.base_value == 6 and hu.score.per_loser == 54
    names = [label for label, _ in hu.score.items]
    assert "烏胡" in names and "對對胡" in names


def test_kan_never_split() -> None:
    """A 坎 is never split: x1 x2 x3 held three times each are three 坎, not three 一二三."""
    hand = counts_of(c("x1 x2 x3 x1 x2 x3 x1 x2 x3 d4 d4 d4 d5 d5 d5 d6 d6 d6 x9 x9"))
    hu = find_hu(hand, [], "x9", self_drawn=False, config=HUNAN)
    assert hu is not None
    # 坎 x1 x2 x3 (9) + 坎 d4 d5 d6 (18) + 碰 x9 (1) = 28, all triples: 對對胡
    assert hu.huxi == 28 and hu.duidui
    assert not any(t == JU for t, _ in hu.groups)


def test_found_groups_use_exactly_the_cards() -> None:
    """Every hu found lays out exactly hand + melds + card, in valid 門子 whose 胡息 add up."""
    from collections import Counter

    from games.rules.paohuzi.cards import ident, is_jiao, is_ju

    rng = random.Random(3)
    checked = 0
    for i in range(150):
        wangs = i % 3
        hand, melds, card = _random_complete(rng, wangs)
        cfg = Config(variant="shuangwang" if wangs else "hunan", min_huxi=0)
        self_drawn = bool(wangs) or card is None
        hu = find_hu(counts_of(hand), melds, card, self_drawn=self_drawn, config=cfg)
        if hu is None:
            continue
        checked += 1
        laid = Counter(WANG if x >= WSUB else x for _, g in hu.groups for x in g)
        want = Counter(hand) + Counter(x for _, m in melds for x in m)
        if card is not None:
            want[card] += 1
        assert laid == want
        assert sum(group_huxi(t, [ident(x) for x in g]) for t, g in hu.groups) == hu.huxi
        for t, g in hu.groups:
            ids = [ident(x) for x in g]
            if t == JU:
                assert is_ju(ids)
            elif t == JIAO:
                assert is_jiao(ids)
            elif t == JIANG:
                assert len(ids) == 2 and ids[0] == ids[1]
            else:
                assert len(set(ids)) == 1
        assert sum(1 for t, _ in hu.groups if t == JIANG) == (
            1 if any(t in (TI, PAO) for t, _ in hu.groups) else 0
        )
    assert checked > 30
