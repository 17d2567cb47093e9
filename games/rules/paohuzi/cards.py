"""Cards, groups (門子) and the 胡息 table of 跑胡子.

Cards are ints internally: ``0…9`` are 小 一…十 (notation ``x1``…``x10``), ``10…19`` are 大
壹…拾 (``d1``…``d10``), ``20`` is the 王霸 (``W``, 雙王 only). Inside a hand-group found by the hu
finder a 王 standing for kind ``k`` is written ``WSUB + k`` (shown ``W(x5)``).

胡息 (RULES-NOTES §7, seed 000 §四):

=================  ==  ==
group              小  大
=================  ==  ==
碰                  1   3
坎 / 偎 / 臭偎      3   6
跑                  6   9
提                  9  12
一二三 / 壹貳叁     3   6
二七十 / 貳柒拾     3   6
other 句, 絞, 將    0   0
=================  ==  ==
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

WANG = 20
NKINDS = 21  # 20 kinds + the 王
WSUB = 21  # a 王 standing for kind k inside a group is WSUB + k

SMALL_ZH = "一二三四五六七八九十"
BIG_ZH = "壹貳叁肆伍陸柒捌玖拾"
RED_RANKS = frozenset({2, 7, 10})

# group / meld types
JU = "ju"  # 一句話 (incl. 二七十)
JIAO = "jiao"  # 絞
KAN = "kan"  # 坎 in hand
JIANG = "jiang"  # 將
PENG = "peng"  # 碰 (also a hand triple completed by another's card)
WEI = "wei"  # 偎
CHOUWEI = "chouwei"  # 臭偎
TI = "ti"  # 提
PAO = "pao"  # 跑
CHI = "chi"  # 吃 (a 一句話 or 絞 taken)
BI = "bi"  # 比 (a group laid out with a 吃)

GROUP_ZH = {
    JU: "一句話",
    JIAO: "絞",
    KAN: "坎",
    JIANG: "將",
    PENG: "碰",
    WEI: "偎",
    CHOUWEI: "臭偎",
    TI: "提",
    PAO: "跑",
    CHI: "吃",
    BI: "比",
}
FOUR_TYPES = frozenset({TI, PAO})


def rank(kind: int) -> int:
    """Return the 牌點 1…10 of a kind (a 王 substitute: of the kind it stands for)."""
    return ident(kind) % 10 + 1


def is_big(kind: int) -> bool:
    return ident(kind) >= 10


def ident(card: int) -> int:
    """The identity of a card in a group: itself, or the kind a 王 stands for."""
    return card - WSUB if card >= WSUB else card


def is_red(kind: int) -> bool:
    return kind < WANG and rank(kind) in RED_RANKS


def card_name(card: int) -> str:
    """Notation: ``x1``…``x10``, ``d1``…``d10``, ``W``; a substituting 王 is ``W(x5)``."""
    if card == WANG:
        return "W"
    if card >= WSUB:
        return f"W({card_name(card - WSUB)})"
    return ("d" if card >= 10 else "x") + str(card % 10 + 1)


def card_zh(card: int) -> str:
    if card == WANG:
        return "王"
    if card >= WSUB:
        return "王(" + card_zh(card - WSUB) + ")"
    return (BIG_ZH if card >= 10 else SMALL_ZH)[card % 10]


def parse_card(text: object) -> int:
    """Parse ``x1``…``x10`` / ``d1``…``d10`` / ``W``; raise ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    if text == "W":
        return WANG
    if len(text) >= 2 and text[0] in "xd" and text[1:].isdigit():
        value = int(text[1:])
        if 1 <= value <= 10 and str(value) == text[1:]:
            return value - 1 + (10 if text[0] == "d" else 0)
    raise ValueError(f"not a card: {text!r}")


def parse_cards(texts: Iterable[object]) -> list[int]:
    return [parse_card(t) for t in texts]


def counts_of(cards: Iterable[int]) -> list[int]:
    out = [0] * NKINDS
    for card in cards:
        out[card] += 1
    return out


def cards_of(counts: Sequence[int]) -> list[int]:
    return [kind for kind in range(NKINDS) for _ in range(counts[kind])]


def deck(wangs: int) -> list[int]:
    """The 80 cards (four of each kind), plus ``wangs`` 王霸."""
    return [kind for kind in range(20) for _ in range(4)] + [WANG] * wangs


def is_ju(cards: Sequence[int]) -> bool:
    """一句話: three consecutive ranks or 二七十, all small or all big (no wrap)."""
    if len(cards) != 3:
        return False
    ids = [ident(c) for c in cards]
    if len({i >= 10 for i in ids}) != 1:
        return False
    ranks = sorted(i % 10 + 1 for i in ids)
    return ranks == [2, 7, 10] or (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1)


def is_jiao(cards: Sequence[int]) -> bool:
    """絞: three cards of one rank, mixing 小 and 大 (two of one size, one of the other)."""
    if len(cards) != 3:
        return False
    ids = [ident(c) for c in cards]
    if len({i % 10 for i in ids}) != 1:
        return False
    bigs = sum(1 for i in ids if i >= 10)
    return bigs in (1, 2)


def is_chi_group(cards: Sequence[int]) -> bool:
    return is_ju(cards) or is_jiao(cards)


def ju_huxi(cards: Sequence[int]) -> int:
    """胡息 of a 一句話 (一二三 / 二七十: 3 小, 6 大; others 0) or 絞 (0)."""
    if not is_ju(cards):
        return 0
    ids = sorted(ident(c) % 10 + 1 for c in cards)
    if ids in ([1, 2, 3], [2, 7, 10]):
        return 6 if is_big(cards[0]) else 3
    return 0


_TRIPLE_HUXI = {PENG: (1, 3), KAN: (3, 6), WEI: (3, 6), CHOUWEI: (3, 6), PAO: (6, 9), TI: (9, 12)}


def group_huxi(gtype: str, cards: Sequence[int]) -> int:
    """胡息 of one 門子 by the table above."""
    if gtype in _TRIPLE_HUXI:
        small, big = _TRIPLE_HUXI[gtype]
        return big if is_big(cards[0]) else small
    if gtype in (JU, CHI, BI):
        return ju_huxi(cards)
    return 0


def chi_groups_with(kind: int, counts: Sequence[int], extra: int = 0) -> list[tuple[int, ...]]:
    """Every 一句話 / 絞 holding ``kind`` whose other two cards come from ``counts``.

    ``extra`` more copies of ``kind`` are assumed present for the other two slots (used when the
    group's own ``kind`` comes from outside ``counts``). Returns sorted card tuples, distinct.
    """
    out: set[tuple[int, ...]] = set()
    size = 10 if kind >= 10 else 0
    value = kind % 10 + 1
    templates: list[tuple[int, int, int]] = []
    for start in (value - 2, value - 1, value):
        if 1 <= start and start + 2 <= 10:
            templates.append(tuple(size + start - 1 + j for j in range(3)))  # type: ignore[arg-type]
    if value in RED_RANKS:
        templates.append((size + 1, size + 6, size + 9))
    other = (kind + 10) % 20
    templates.append((kind, other, other))
    templates.append((kind, kind, other))
    for template in templates:
        rest = list(template)
        rest.remove(kind)
        need = counts_of(rest)
        need_ok = all(
            need[k] <= counts[k] + (extra if k == kind else 0) for k in range(20) if need[k]
        )
        if need_ok:
            out.add(tuple(sorted(template)))
    return sorted(out)
