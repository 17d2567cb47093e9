"""The hu finder: the best way a hand completes, with its 胡息 (seed 003 胡牌, RULES-NOTES).

A hand is complete when hand + melds form 門子 only: 坎 (a concealed triple, never split),
一句話, 絞, and exactly one 將 when a 跑 or 提 is among the melds (none otherwise). The winning
card joins as the texts say: one's own draw onto a pair is a 偎, onto a 坎 / 偎 / 臭偎 a 提;
onto one's own 碰 (or another's draw onto a 坎 / 偎 / 碰) it may make the 跑 or complete the hand
elsewhere (破跑胡); another's card that makes a triple with a hand pair counts as a 碰.

王 (雙王) stand for any card in hand groups (a triple with a 王 is a 坎); the shapes 王釣,
王釣王 and 王闖 are tried besides the plain decomposition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.rules.paohuzi.cards import (
    BI,
    CHI,
    CHOUWEI,
    FOUR_TYPES,
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
    counts_of,
    group_huxi,
    ident,
    is_big,
    is_red,
    parse_card,
)
from games.rules.paohuzi.params import HUNAN, Config
from games.rules.paohuzi.scoring import Score, hunan_score, shuangwang_score

Group = tuple[str, tuple[int, ...]]
_Table = dict[tuple[int, bool], tuple[int, tuple[Group, ...]]]
_DD_TYPES = frozenset({KAN, PENG, JIANG, WEI, CHOUWEI, TI, PAO})

DEFAULT_CONFIG = Config()


@dataclass(frozen=True, slots=True)
class Hu:
    """A winning decomposition: every 門子 (melds first, then the hand's), its 胡息 and score."""

    groups: tuple[Group, ...]
    huxi: int
    join: str  # how the winning card joined: none, free, wei, ti, pao, wang
    shape: str  # 雙王: "", wangdiao, wangdiaowang, wangchuang
    red: int
    big: int
    small: int
    duidui: bool
    score: Score

    @property
    def key(self) -> tuple[int, int]:
        return (self.score.per_loser, self.huxi)


def _templates(i: int, count_i: int, need_jiang: bool) -> list[tuple[str, tuple[int, ...]]]:
    size = 10 if i >= 10 else 0
    value = i % 10 + 1
    out: list[tuple[str, tuple[int, ...]]] = []
    for start in (value - 2, value - 1, value):
        if 1 <= start and start + 2 <= 10:
            out.append((JU, (size + start - 1, size + start, size + start + 1)))
    if value in (2, 7, 10):
        out.append((JU, (size + 1, size + 6, size + 9)))
    other = (i + 10) % 20
    out.append((JIAO, (i, other, other)))
    out.append((JIAO, (i, i, other)))
    out.append((KAN, (i, i, i)))
    if need_jiang:
        out.append((JIANG, (i, i)))
    return out


def _solve(counts: list[int], wangs: int, need_jiang: bool, memo: dict[object, _Table]) -> _Table:
    """Best 胡息 per (red cards added by 王 identities, 對對 so far) over complete splits."""
    key = (tuple(counts), wangs, need_jiang)
    hit = memo.get(key)
    if hit is not None:
        return hit
    table: _Table = {}
    first = next((k for k in range(20) if counts[k]), -1)
    if first < 0:
        if wangs == 0 and not need_jiang:
            table[(0, True)] = (0, ())
        elif wangs == 2 and need_jiang:
            table[(0, True)] = (0, ((JIANG, (WSUB + 0, WSUB + 0)),))
            table[(2, True)] = (0, ((JIANG, (WSUB + 1, WSUB + 1)),))
        memo[key] = table
        return table
    for gtype, members in _templates(first, counts[first], need_jiang):
        used_real: list[int] = []
        cards: list[int] = []
        used_wang = 0
        red_extra = 0
        ok = True
        taken = [0] * 20
        for member in members:
            if member >= first and counts[member] - taken[member] > 0:
                taken[member] += 1
                used_real.append(member)
                cards.append(member)
            else:
                used_wang += 1
                cards.append(WSUB + member)
                if is_red(member):
                    red_extra += 1
        if used_wang > wangs or not taken[first]:
            ok = False
        if not ok:
            continue
        real_type = gtype
        if gtype == KAN and not used_wang:
            real_type = PENG  # a real triple in the free pool holds another's card: a 碰
        for member in used_real:
            counts[member] -= 1
        sub = _solve(counts, wangs - used_wang, need_jiang and gtype != JIANG, memo)
        for member in used_real:
            counts[member] += 1
        if not sub:
            continue
        group: Group = (real_type, tuple(sorted(cards, key=ident)))
        huxi = group_huxi(real_type, cards)
        dd = real_type in _DD_TYPES
        for (red, dd_rest), (sub_huxi, groups) in sub.items():
            k = (red + red_extra, dd and dd_rest)
            total = sub_huxi + huxi
            best = table.get(k)
            if best is None or total > best[0]:
                table[k] = (total, (group, *groups))
    memo[key] = table
    return table


def _as_counts(hand: Sequence[int] | Iterable[str]) -> list[int]:
    """A 21-long count list (ints) is taken as it is; otherwise card notations are parsed."""
    items = list(hand)
    if all(isinstance(x, int) for x in items):
        if len(items) != 21:
            raise ValueError("a hand of ints is a 21-long count list")
        return [x for x in items if isinstance(x, int)]
    return counts_of(parse_card(x) for x in items)


def _meld_list(melds: Iterable[tuple[str, Sequence[int | str]]]) -> list[Group]:
    out: list[Group] = []
    for gtype, cards in melds:
        out.append((gtype, tuple(parse_card(c) if isinstance(c, str) else int(c) for c in cards)))
    return out


def find_hu(
    hand: Sequence[int] | Iterable[str],
    melds: Iterable[tuple[str, Sequence[int | str]]] = (),
    card: int | str | None = None,
    *,
    self_drawn: bool = True,
    config: Config | None = None,
    tianhu: bool = False,
    haidi: bool = False,
    xing: int = 0,
    from_discard: bool = False,
) -> Hu | None:
    """Return the best hu of ``hand`` + ``melds`` (+ the winning ``card``), or None.

    ``hand`` is a 21-long count list (index 20 = 王) or card notations; ``card`` is the winning
    card not yet in the hand (None: the hand already holds it, as for the dealer's 亮張 or a
    bench hand; four of a kind in hand are then 提). ``self_drawn``: the card is the player's own
    draw. Best = highest (底數 × 番, 胡息) for Hunan, (囤 × 番, 胡息) for 雙王; at least
    ``config.min_huxi`` 胡息. A 王 holder wins only on his own draw. ``from_discard`` (雙王
    放炮): the card was discarded, so it never runs a 碰 on the table.
    """
    cfg = config or DEFAULT_CONFIG
    counts = _as_counts(hand)
    base_melds = _meld_list(melds)
    win = parse_card(card) if isinstance(card, str) else card
    wangs = counts[WANG]
    if wangs and not self_drawn:
        return None
    # (hand counts without the card, melds, free card or None, join name)
    ways: list[tuple[list[int], list[Group], int | None, str]] = []
    for kind in range(20):
        if counts[kind] == 4:  # only when a bench hand holds four: they are a 提
            counts[kind] = 0
            base_melds.append((TI, (kind,) * 4))
    if win is None:
        ways.append((counts, base_melds, None, "none"))
    elif win == WANG:
        ways.append((counts, base_melds, WANG, "wang"))
    else:
        own = {g[1][0]: (i, g[0]) for i, g in enumerate(base_melds) if g[0] in (PENG, WEI, CHOUWEI)}
        held = counts[win]
        if self_drawn and held == 3:
            c2 = list(counts)
            c2[win] = 0
            ways.append((c2, [*base_melds, (TI, (win,) * 4)], None, "ti"))
        elif self_drawn and win in own and own[win][1] in (WEI, CHOUWEI):
            m2 = list(base_melds)
            m2[own[win][0]] = (TI, (win,) * 4)
            ways.append((counts, m2, None, "ti"))
        elif self_drawn and held == 2:
            c2 = list(counts)
            c2[win] = 0
            ways.append((c2, [*base_melds, (WEI, (win,) * 3)], None, "wei"))
        else:
            ways.append((counts, base_melds, win, "free"))  # 破跑胡 when a 跑 was possible
            if held == 3:
                c2 = list(counts)
                c2[win] = 0
                ways.append((c2, [*base_melds, (PAO, (win,) * 4)], None, "pao"))
            elif win in own and (own[win][1] != PENG or not from_discard):
                m2 = list(base_melds)
                m2[own[win][0]] = (PAO, (win,) * 4)
                ways.append((counts, m2, None, "pao"))
    best: Hu | None = None
    for hand_counts, final_melds, free, join in ways:
        for hu in _way_hus(
            hand_counts, final_melds, free, join, self_drawn, cfg, tianhu, haidi, xing
        ):
            if best is None or hu.key > best.key:
                best = hu
    return best


def _way_hus(
    counts: list[int],
    melds: list[Group],
    free: int | None,
    join: str,
    self_drawn: bool,
    cfg: Config,
    tianhu: bool,
    haidi: bool,
    xing: int,
) -> list[Hu]:
    need_jiang = any(g[0] in FOUR_TYPES for g in melds)
    wangs = counts[WANG] + (1 if free == WANG else 0)
    kans: list[Group] = []
    pool = list(counts[:20])
    for kind in range(20):
        if pool[kind] == 3:
            kans.append((KAN, (kind,) * 3))
            pool[kind] = 0
    real = [c for g in melds for c in g[1]] + [k for k in range(20) for _ in range(counts[k])]
    if free is not None and free != WANG:
        real.append(free)
    red = sum(1 for c in real if is_red(c))
    big = sum(1 for c in real if is_big(c))
    small = len(real) - big
    fixed = [*melds, *kans]
    fixed_huxi = sum(group_huxi(t, c) for t, c in fixed)
    fixed_dd = all(t not in (CHI, BI, JU, JIAO) for t, _ in fixed)
    # candidates: (pool, wangs, need_jiang, extra groups, red added, shape)
    cands: list[tuple[list[int], int, bool, list[Group], int, str]] = []
    plain = list(pool)
    if free is not None and free != WANG:
        plain[free] += 1
    cands.append((plain, wangs, need_jiang, [], 0, ""))
    if cfg.variant != HUNAN and self_drawn and free is not None:
        if free == WANG and wangs >= 2 and need_jiang:  # 王釣王: drawn 王 + 王 as the 將
            for ident_kind in (0, 1):
                cands.append(
                    (
                        pool,
                        wangs - 2,
                        False,
                        [(JIANG, (WSUB + ident_kind, WSUB + ident_kind))],
                        2 if is_red(ident_kind) else 0,
                        "wangdiaowang",
                    )
                )
        elif free != WANG:
            red_add = 1 if is_red(free) else 0
            if wangs >= 1 and need_jiang:  # 王釣: the drawn card + a 王 as the 將
                cands.append(
                    (pool, wangs - 1, False, [(JIANG, (free, WSUB + free))], red_add, "wangdiao")
                )
            if wangs >= 2:  # 王闖: the drawn card + both 王 as a 坎
                cands.append(
                    (
                        pool,
                        wangs - 2,
                        need_jiang,
                        [(KAN, (free, WSUB + free, WSUB + free))],
                        2 * red_add,
                        "wangchuang",
                    )
                )
    out: list[Hu] = []
    memo: dict[object, _Table] = {}
    for cpool, cw, cjiang, extra, red_add, shape in cands:
        table = _solve(cpool, cw, cjiang, memo)
        extra_huxi = sum(group_huxi(t, c) for t, c in extra)
        extra_dd = all(t in (KAN, JIANG) for t, _ in extra)
        for (red_extra, dd), (huxi, groups) in table.items():
            total = fixed_huxi + extra_huxi + huxi
            if total < cfg.min_huxi:
                continue
            all_groups = (*fixed, *extra, *groups)
            duidui = fixed_dd and extra_dd and dd
            red_total = red + red_extra + red_add
            if cfg.variant == HUNAN:
                score = hunan_score(
                    total,
                    red_total,
                    big,
                    small,
                    duidui,
                    self_drawn=self_drawn,
                    tianhu=tianhu,
                    haidi=haidi,
                    cfg=cfg,
                )
            else:
                score = shuangwang_score(
                    total, red_total, self_drawn=self_drawn, shape=shape, xing=xing, cfg=cfg
                )
            out.append(Hu(all_groups, total, join, shape, red_total, big, small, duidui, score))
    return out


def best_partial_huxi(counts: Sequence[int], melds: Iterable[Group] = ()) -> int:
    """The most 胡息 hand + melds show in any grouping, leftovers allowed (003 逃跑, 天胡).

    Melds count as they are; the hand's 坎 count 3 / 6, four of a kind 9 / 12 (a 提), and the
    best set of 一二三 / 二七十 句 from the rest; 王 are left out.
    """
    total = sum(group_huxi(t, c) for t, c in melds)
    rest = list(counts[:20])
    for kind in range(20):
        if rest[kind] == 4:
            total += group_huxi(TI, (kind,))
            rest[kind] = 0
        elif rest[kind] == 3:
            total += group_huxi(KAN, (kind,))
            rest[kind] = 0
    patterns = [((0, 1, 2), 3), ((1, 6, 9), 3), ((10, 11, 12), 6), ((11, 16, 19), 6)]

    def best(index: int) -> int:
        if index == len(patterns):
            return 0
        members, value = patterns[index]
        top = best(index + 1)
        taken = 0
        while all(rest[m] > 0 for m in members):
            for m in members:
                rest[m] -= 1
            taken += 1
            top = max(top, taken * value + best(index + 1))
        for m in members:
            rest[m] += taken
        return top

    return total + best(0)


def hand_kans(counts: Sequence[int]) -> list[int]:
    """Kinds held three times (坎)."""
    return [k for k in range(20) if counts[k] == 3]


__all__ = ["Hu", "best_partial_huxi", "find_hu", "hand_kans"]
