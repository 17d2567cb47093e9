"""The fast best-fan search of 歡樂麻將 against a plain exhaustive search over substitutions.

The plain search scores every substitution of the 財神 that wins (``hands.assignments``, itself
checked against brute force in ``test_hands``) and, for a drawn 財神, every kind it may be won
as, each with PyMahjongGB directly (和絕張 from the real tile, as the rule says), and keeps
the best by the documented rank: the total, then the GB fans, then the lowest kinds, then the
highest winning kind. The fast search must pick the same substitution with the same fans.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import MahjongGB

from games.engine.chance import Chance
from games.engine.tiles import KINDS
from games.rules.mahjong.gb import with_situational
from games.rules.mahjong.hands import SPECIAL_SHAPES, assignments, full_caps
from games.rules.mahjong.tests.helpers import huanle, make_state, peng
from games.rules.mahjong.tiles import counts_of

WILD = "J3"
OTHERS = [
    "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1",
    "W3 W4 T7 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
    "W5 W5 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2",
]
GREEN = "T2 T3 T4 T6 T8 J2".split()
REVERSIBLE = "B1 B2 B3 B4 B5 B8 B9 T2 T4 T5 T6 T8 T9".split()


def plain_best(state, seat: int = 0) -> dict | None:
    """The best substitution by scoring every one of them with PyMahjongGB."""
    ruleset = huanle()
    ctx = ruleset.win_context(state, seat)
    concealed = ctx.concealed + ([ctx.tile] if ctx.tile_is_wild else [])
    naturals = [t for t in concealed if t != WILD] + ([] if ctx.tile_is_wild else [ctx.tile])
    wilds = len(concealed) + (0 if ctx.tile_is_wild else 1) - len(naturals)
    counts = counts_of(naturals)
    meld_counts = counts_of(t for m in state.melds[seat] for t in m["tiles"])
    caps = full_caps(counts, meld_counts)
    sets = 4 - len(state.melds[seat])
    packs = tuple(ruleset._gb_pack(state, seat, m) for m in state.melds[seat])
    flowers = len(state.flowers[seat])
    last_tile = not ctx.tile_is_wild and ruleset.visible_count(state, ctx.tile) == 3
    best = None
    for option in sorted(assignments(counts, wilds, caps, sets, frozenset(SPECIAL_SHAPES))):
        concrete = naturals + [KINDS[k] for k in option]
        wu = 2 if all(KINDS[k] == WILD for k in option) else 0
        for win in sorted({KINDS[k] for k in option}) if ctx.tile_is_wild else [ctx.tile]:
            hand = list(concrete)
            hand.remove(win)
            try:
                raw = MahjongGB.MahjongFanCalculator(
                    packs,
                    tuple(hand),
                    win,
                    0,
                    True,
                    False,
                    False,
                    False,
                    ruleset.seat_wind(state, seat),
                    state.config["prevalent_wind"],
                    verbose=True,
                )
            except TypeError:
                continue
            # situational fans from the real events (``test_huanle`` checks them by hand)
            raw = [
                (p, c, n, e)
                for n, e, p, c in with_situational(
                    tuple((n, e, p, c) for p, c, n, e in raw), last_tile=last_tile, rob_kong=False
                )
            ]
            gb = sum(p * c for p, c, _, _ in raw)
            rank = (gb + wu + flowers, gb, tuple(-k for k in option), win)
            if best is None or rank > best[0]:
                best = (
                    rank,
                    {
                        "fans": sorted((n, p * c) for p, c, n, _ in raw),
                        "gb": gb,
                        "wucaishen": wu,
                        "assignment": [KINDS[k] for k in option],
                        "win_as": win,
                    },
                )
    return None if best is None else best[1]


def winning_tiles(chance: Chance, sets: int, pool: list[str] | None = None) -> list[str]:
    """A random winning hand of ``sets`` sets and a pair (no 白板, the 財神 here)."""
    kinds = pool or [k for k in KINDS if k != WILD]
    suit = chance.choice("WTB")
    while True:
        tiles: list[str] = []
        for _ in range(sets):
            if pool or chance.below(3) == 0:
                tiles += [chance.choice(kinds)] * 3
            else:
                if chance.below(2):  # lean to one suit, where the big fans are
                    suit = chance.choice("WTB")
                n = 1 + chance.below(7)
                tiles += [f"{suit}{n}", f"{suit}{n + 1}", f"{suit}{n + 2}"]
        tiles += [chance.choice(kinds)] * 2
        if max(Counter(tiles).values()) <= 4:
            return chance.shuffled(tiles)


def special_tiles(chance: Chance) -> list[str]:
    """七對 / 十三幺 / one-suit hands, where the substitutions are many and unusual."""
    kind = chance.below(3)
    if kind == 0:
        tiles = []
        for k in chance.shuffled([k for k in KINDS if k != WILD])[:7]:
            tiles += [k, k]
        return tiles
    if kind == 1:
        orphans = list("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2".split())
        return orphans + [chance.choice(orphans), chance.choice(orphans)]
    suit = chance.choice("WTB")
    return [f"{suit}{n}" for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)] + [
        f"{suit}{1 + chance.below(9)}"
    ]


def scenario(chance: Chance, trial: int):
    """A state of seat 0 about to declare 自摸, with 1–4 財神 (some drawn, some melds)."""
    wilds = 1 + trial % 4
    melds = [[] for _ in range(4)]
    flavour = trial % 7
    if flavour == 5:
        tiles = winning_tiles(chance, 3)
        kind = chance.choice([k for k in KINDS if k != WILD and Counter(tiles)[k] <= 1])
        melds[0] = [peng(kind, 2)]
    elif flavour == 6:
        tiles = special_tiles(chance)
    elif flavour == 4:
        tiles = winning_tiles(chance, 4, GREEN if chance.below(2) else REVERSIBLE)
    else:
        tiles = winning_tiles(chance, 4)
    drawn_wild = trial % 3 == 0
    for i in range(wilds):
        tiles[i] = WILD
    naturals = [t for t in tiles if t != WILD]
    if drawn_wild:
        hand = naturals + [WILD] * wilds
    else:
        hand = [WILD] * wilds + naturals  # the last tile, a natural, is the drawn one
    flowers = [[f"H{i}" for i in range(1, 1 + chance.below(3))], [], [], []]
    return make_state(
        [" ".join(hand)] + OTHERS,
        wild=WILD,
        melds=melds,
        flowers=flowers,
        dealer=chance.below(4),
        prevalent_wind=chance.below(4),
    )


def summary(ev: dict) -> dict:
    return {
        "fans": sorted((f["name"], f["value"]) for f in ev["fans"]),
        "gb": ev["gb"],
        "wucaishen": ev["wucaishen"],
        "assignment": ev["assignment"],
        "win_as": ev["win_as"],
    }


def test_fast_search_picks_what_the_exhaustive_search_picks() -> None:
    """On random hands with 1–4 財神 the fast search returns the exhaustive search's best."""
    ruleset = huanle()
    chance = Chance("huanle-search", "test")
    compared = Counter()
    for trial in range(160):
        state = scenario(chance, trial)
        want = plain_best(state)
        ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
        if want is None:
            assert ev is None
            continue
        assert ev is not None
        assert summary(ev) == want, (state.hands[0], state.melds[0])
        assert ev["total"] == ev["gb"] + ev["wucaishen"] + len(state.flowers[0])
        compared[len([t for t in state.hands[0] if t == WILD])] += 1
    assert all(compared[w] >= 15 for w in (1, 2, 3, 4)), compared


def test_symmetric_substitutions_share_a_score_but_not_green_or_reversible_hands() -> None:
    """A free 財神 set in an untouched suit scores alike in either suit, except where 綠一色
    or 推不倒 comes into reach (then the hand is scored on its own)."""
    ruleset = huanle()
    # 發發 + 條 sets: three 財神 as T2 T3 T4 make 綠一色; as W2 W3 W4 they do not
    state = make_state(["T6 T6 T6 T8 T8 T8 J2 J2 J3 J3 J3 T4 T4 T4"] + OTHERS, wild=WILD)
    ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
    assert "绿一色" in [f["name"] for f in ev["fans"]]
    assert summary(ev) == plain_best(state)
    # 推不倒 on 餅/條 symmetric tiles with a free set
    state = make_state(["B1 B2 B3 B8 B8 B8 T5 T5 T9 T9 T9 J3 J3 J3"] + OTHERS, wild=WILD)
    ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
    assert summary(ev) == plain_best(state)
    assert "推不倒" in [f["name"] for f in ev["fans"]]


def test_a_drawn_caishen_finds_nine_gates() -> None:
    """九蓮寶燈 depends on which kind the drawn 財神 is won as; the search tries every kind."""
    ruleset = huanle()
    state = make_state(["W1 W1 W1 W2 W3 W4 W6 W7 W8 W9 W9 W9 J3 J3"] + OTHERS, wild=WILD)
    ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
    assert summary(ev) == plain_best(state)
    assert "九莲宝灯" in [f["name"] for f in ev["fans"]]


def test_one_caishen_against_brute_force_over_every_kind() -> None:
    """With one 財神 the answer equals trying all 34 kinds (no reliance on ``assignments``)."""
    ruleset = huanle()
    chance = Chance("huanle-brute", "test")
    for _trial in range(30):
        tiles = winning_tiles(chance, 4)
        tiles[0] = WILD
        state = make_state([" ".join(tiles)] + OTHERS, wild=WILD)
        naturals = [t for t in tiles if t != WILD]
        best = None
        for (kind,) in combinations_with_replacement(KINDS, 1):
            concrete = naturals + [kind]
            if Counter(concrete)[kind] > 4:
                continue
            hand = list(concrete)
            hand.remove(tiles[-1])
            try:
                raw = MahjongGB.MahjongFanCalculator(
                    (), tuple(hand), tiles[-1], 0, True, False, False, False, 0, 0
                )
            except TypeError:
                continue
            gb = sum(p for p, _ in raw)
            rank = (gb + (2 if kind == WILD else 0), gb, -KINDS.index(kind))
            best = rank if best is None or rank > best else best
        ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
        if best is None:
            assert ev is None
        else:
            assert (ev["total"], ev["gb"], -KINDS.index(ev["assignment"][0])) == best


def test_untouched_dragons_are_alike_but_fa_can_make_all_green() -> None:
    """An all-green hand is scored on its own, not as a relabelled copy of another."""
    ruleset = huanle()
    state = make_state(["T2 T2 T2 T3 T3 T3 T4 T4 T4 T8 J3 J3 J3 T8"] + OTHERS, wild=WILD)
    ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
    assert summary(ev) == plain_best(state)
    assert "绿一色" in [f["name"] for f in ev["fans"]]


def test_seat_and_prevalent_winds_are_not_interchangeable() -> None:
    """The seat and prevalent wind (西 here) is not relabelled like the other winds: with 南
    and 北 pungs held, three 財神 as 西 make 三風刻 with 圈風刻 and 門風刻; as 東 only 三風刻."""
    ruleset = huanle()
    state = make_state(
        ["F2 F2 F2 F4 F4 F4 W1 W2 W3 W5 J3 J3 J3 W5"] + OTHERS,
        wild=WILD,
        dealer=2,
        prevalent_wind=2,
    )
    ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
    assert summary(ev) == plain_best(state)
    assert ev["assignment"] == ["F3", "F3", "F3"]
    assert {"圈风刻", "门风刻"} <= {f["name"] for f in ev["fans"]}
