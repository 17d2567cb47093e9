"""歡樂麻將 scoring: GB fans, best 財神 substitution, 鳥, 莊, room kinds, 001's example."""

from __future__ import annotations

from collections import Counter

import MahjongGB

from games.engine.chance import Chance
from games.engine.tiles import KINDS
from games.rules.mahjong.tests.helpers import huanle, make_state, peng
from games.rules.mahjong.tiles import bird_number, next_kind
from games.rules.mahjong.variants.huanle import beans_from_payments

OTHERS = [
    "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1",
    "W3 W4 T7 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
    "W5 W5 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2",
]


def random_winning(chance: Chance, sets: int) -> list[str]:
    while True:
        tiles: list[str] = []
        for _ in range(sets):
            if chance.below(3) == 0:
                tiles += [chance.choice(KINDS)] * 3
            else:
                suit = chance.choice("WTB")
                n = 1 + chance.below(7)
                tiles += [f"{suit}{n}", f"{suit}{n + 1}", f"{suit}{n + 2}"]
        tiles += [chance.choice(KINDS)] * 2
        if max(Counter(tiles).values()) <= 4 and "J3" not in tiles:
            return chance.shuffled(tiles)


def test_fans_match_pymahjonggb_without_caishen() -> None:
    """On random winning hands (no 財神) the fans are PyMahjongGB's + 無財神 2 + flowers."""
    ruleset = huanle()
    chance = Chance("fans", "test")
    for trial in range(60):
        with_meld = trial % 3 == 0
        tiles = random_winning(chance, 3 if with_meld else 4)
        melds = [[] for _ in range(4)]
        packs: tuple = ()
        if with_meld:
            kind = chance.choice([k for k in KINDS if Counter(tiles)[k] <= 1])
            melds[0] = [peng(kind, 2)]
            packs = (("PENG", kind, 2),)
        flowers = [[f"H{i}" for i in range(1, 1 + chance.below(4))], [], [], []]
        state = make_state(
            [" ".join(tiles)] + OTHERS,
            wild=None,
            melds=melds,
            flowers=flowers,
            prevalent_wind=chance.below(4),
        )
        ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
        hand = sorted(tiles[:-1])
        direct = MahjongGB.MahjongFanCalculator(
            packs,
            tuple(hand),
            tiles[-1],
            0,
            True,
            False,
            False,
            False,
            0,
            state.config["prevalent_wind"],
        )
        assert ev is not None, tiles
        assert ev["gb"] == sum(points for points, _ in direct)
        assert sorted(f["name"] for f in ev["fans"]) == sorted(name for _, name in direct)
        assert ev["wucaishen"] == 2
        assert ev["total"] == ev["gb"] + 2 + len(flowers[0])


def brute_best(naturals: list[str], wild: str, win: str | None, flowers: int) -> int:
    """Best total over every kind one 財神 can stand for (win None: the 財神 was drawn)."""
    best = -1
    counts = Counter(naturals)
    for kind in KINDS:
        if counts[kind] + 1 > 4:
            continue
        concrete = naturals + [kind]
        win_tile = win or kind
        hand = list(concrete)
        hand.remove(win_tile)
        try:
            fans = MahjongGB.MahjongFanCalculator(
                (), tuple(sorted(hand)), win_tile, 0, True, False, False, False, 0, 0
            )
        except TypeError:
            continue
        total = sum(p for p, _ in fans) + (2 if kind == wild else 0) + flowers
        best = max(best, total)
    return best


def test_best_substitution_with_one_caishen() -> None:
    """With one 財神 the hand scores the best of all its substitutions (brute force)."""
    ruleset = huanle()
    chance = Chance("subst", "test")
    checked = 0
    for trial in range(40):
        tiles = random_winning(chance, 4)
        drawn_is_wild = trial % 4 == 0
        pos = 13 if drawn_is_wild else chance.below(13)
        naturals = tiles[:pos] + tiles[pos + 1 :]
        # the drawn tile is last: the 財神 itself, or a natural with the 財神 in the hand
        hand = naturals + ["J3"] if drawn_is_wild else naturals[:-1] + ["J3", naturals[-1]]
        state = make_state([" ".join(hand)] + OTHERS, wild="J3")
        ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
        want = brute_best(naturals, "J3", None if drawn_is_wild else hand[-1], 0)
        if want < 0:
            assert ev is None
            continue
        checked += 1
        assert ev is not None and ev["total"] == want, hand
        assert len(ev["assignment"]) == 1
    assert checked >= 20


def test_caishen_standing_for_itself_earns_wucaishen() -> None:
    """無財神 when the 財神 stands for its own kind; not when it stands for another."""
    ruleset = huanle()
    own = make_state(["W1 W1 W1 W4 W5 T4 T5 T6 B7 B8 B9 F1 F1 W6"] + OTHERS, wild="W6")
    ev = ruleset.evaluate_win(own, ruleset.win_context(own, 0))
    assert ev["assignment"] == ["W6"] and ev["wucaishen"] == 2
    assert ev["total"] == ev["gb"] + 2
    other = make_state(["W1 W2 W3 T4 T5 T6 B7 B8 B9 J1 J1 J1 J3 W9"] + OTHERS, wild="J3")
    ev = ruleset.evaluate_win(other, ruleset.win_context(other, 0))
    assert ev["wucaishen"] == 0 and ev["assignment"] == ["W9"]


def test_caishen_flip_and_wrap() -> None:
    """財神 is the kind after the flipped tile: 9 → 1, 北 → 中, 白 → 東 (001)."""
    assert next_kind("W5") == "W6" and next_kind("W9") == "W1" and next_kind("B9") == "B1"
    assert next_kind("F4") == "J1" and next_kind("J3") == "F1" and next_kind("J1") == "J2"
    ruleset = huanle()
    state = ruleset.new_game(ruleset.config_from_params({}), "flip", 4)
    indicator = state.vars["indicator"]
    assert state.vars["wild"] == [next_kind(indicator)]
    assert state.vars["set_aside"][-1] == indicator
    assert all(t.startswith("H") for t in state.vars["set_aside"][:-1])
    assert sum(len(h) for h in state.hands) == 53
    assert len(ruleset.all_items(state)) == 144


def test_bird_counting_for_every_tile() -> None:
    """鳥: 1 = the dealer, 2 = next, 3 = across, 4 = before; 東南西北中發白 = 1…7."""
    expected = {f"{s}{n}": n for s in "WTB" for n in range(1, 10)}
    expected.update({"F1": 1, "F2": 2, "F3": 3, "F4": 4, "J1": 5, "J2": 6, "J3": 7})
    ruleset = huanle()
    for tile in KINDS:
        assert bird_number(tile) == expected[tile]
        for dealer in range(4):
            state = make_state(
                ["W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 J1"] + OTHERS,
                dealer=dealer,
                current=0,
                wall=["H1", tile, "W5"],
                wild=None,
            )
            ruleset.apply(state, 0, {"type": "hu"})
            bird = state.outcome["bird"]
            assert bird["tile"] == tile  # a flower is skipped
            assert bird["seat"] == (dealer + expected[tile] - 1) % 4


def test_haidi_bird_is_the_last_tile() -> None:
    """海底: with the wall empty the last tile taken is the bird."""
    ruleset = huanle()
    state = make_state(["W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 J1"] + OTHERS, wall=[], wild=None)
    state.last_wall_tile = "J1"
    ruleset.apply(state, 0, {"type": "hu"})
    assert state.outcome["bird"] == {"tile": "J1", "seat": 0}  # 中 = 5 → the dealer
    names = [f["name"] for f in state.outcome["evals"][0]["fans"]]
    assert "妙手回春" in names


def settle_self_drawn(dealer: int, bird_tile: str, room_kind: str):
    ruleset = huanle()
    hands = OTHERS[:1] + ["W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 J1"] + OTHERS[1:]
    state = make_state(
        hands, current=1, dealer=dealer, wall=[bird_tile], wild=None, room_kind=room_kind
    )
    ruleset.apply(state, 1, {"type": "hu"})
    return ruleset.result(state)


def test_worked_example_of_001() -> None:
    """001: N = 200, X = 10, 自摸: the winner gets 200×10×3 = 6000 (−A), losers pay 2000 (+A).

    In a 無番場 X = 10 × 中鳥 × 莊家; the example's X = 10 is the pair with neither the dealer
    nor the bird: with the dealer and the bird away from seats 1–3 every loser pays X = 10.
    """
    # dealer seat 0 is a loser: the example's pairs are the dealer-free ones
    result = settle_self_drawn(dealer=0, bird_tile="W3", room_kind="wufan")  # bird → seat 2
    by_loser = {p["from"]: p["points"] for p in result.extra["payments"]}
    assert by_loser[3] == 10  # neither dealer nor bird: X = 10
    assert by_loser[2] == 20  # bird hit seat 2: only that seat pays double (自摸)
    assert by_loser[0] == 20  # the dealer pays double
    assert sum(result.scores) == 0 and result.scores[1] == 50
    # the bean formula on three X = 10 payments, N = 200, A = 20
    payments = [{"from": s, "to": 1, "points": 10} for s in (0, 2, 3)]
    assert beans_from_payments(payments, 4, n=200, a=0) == [-2000, 6000, -2000, -2000]
    assert beans_from_payments(payments, 4, n=200, a=20) == [-2020, 5980, -2020, -2020]


def test_bird_on_the_winner_doubles_everyone_and_dealer_doubles() -> None:
    """自摸 with the bird on the winner: all pay ×2; the dealer's pair ×2 again."""
    result = settle_self_drawn(dealer=0, bird_tile="W2", room_kind="dazhong")  # → seat 1
    fans = result.extra["fans"][0]["total"]
    by_loser = {p["from"]: p["points"] for p in result.extra["payments"]}
    assert by_loser == {0: fans * 4, 2: fans * 2, 3: fans * 2}
    result = settle_self_drawn(dealer=0, bird_tile="W2", room_kind="bafan")
    fans = result.extra["fans"][0]["total"]
    assert {p["from"]: p["points"] for p in result.extra["payments"]}[3] == (fans + 8) * 2
    labels = [line.label for line in result.lines]
    assert "合計" in labels and any(lb.startswith("鳥牌") for lb in labels)


def test_discard_win_bird_and_dealer() -> None:
    """點炮: only the discarder pays, ×2 when the bird hits the winner or the discarder."""
    ruleset = huanle()
    hands = [
        "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1 W5",
        "W3 W4 T7 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
        "W6 W6 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2",
        "T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W5",
    ]
    for bird, factor in (("W4", 2), ("W3", 2), ("W1", 1)):  # dealer 1: → seat 0, 3, 1
        state = make_state(hands, wild=None, dealer=1, wall=[bird], room_kind="wufan")
        ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
        ruleset.apply(state, 3, {"type": "hu"})
        result = ruleset.result(state)
        assert result.extra["payments"] == [
            {"from": 0, "to": 3, "points": 10 * factor, "base": 10, "bird": factor, "dealer": 1}
        ]
        assert result.scores == (-10 * factor, 0, 0, 10 * factor)


def test_escape() -> None:
    """逃跑: the escaper pays each other seat the X of an ``escape_fans`` hand."""
    ruleset = huanle()
    state = ruleset.new_game(ruleset.config_from_params({"room_kind": "bafan"}), "esc", 4)
    result = ruleset.escape_result(state, 2)
    assert sum(result.scores) == 0
    assert result.scores[2] == -(16 * 2 + 16 + 16)
    assert result.scores[0] == 32 and result.scores[1] == 16 and result.scores[3] == 16


# -- issue 13 §4: situational fans follow what happened, never a substitution -----------------

REST = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1"
QUIET = [
    "W2 W4 T2 T8 B2 B4 F2 F3 F4 J1 J2 T1 T3",
    "W6 W8 T7 T9 B1 B3 B5 F2 F3 F4 J1 J2 T1",
    "W7 W9 T2 T3 B2 B3 F2 F3 F4 J1 J2 T7",
]


def _fans(result) -> dict[str, int]:
    return {f["name"]: f["value"] for f in result.extra["fans"][0]["fans"]}


def test_last_tile_counts_when_a_caishen_in_hand_stands_for_its_kind() -> None:
    """和絕張 needs the winning tile itself to be the last copy: seat 0 waits 單釣 W5 with a
    財神, three W5 lie in the rivers and seat 3 discards the fourth. The 財神 standing for W5 (a
    substitution PyMahjongGB sees as a W5 in hand) does not take 和絕張 away."""
    ruleset = huanle()
    hands = [REST + " J3", *QUIET[:2], QUIET[2] + " W5"]
    discards = [[], ["W5"], ["W5"], ["W5"]]
    state = make_state(hands, current=3, wild="J3", discards=discards)
    ruleset.apply(state, 3, {"type": "discard", "tile": "W5"})
    ruleset.apply(state, 0, {"type": "hu"})
    for s in sorted(ruleset.to_act(state)):
        ruleset.apply(state, s, {"type": "pass"})
    result = ruleset.result(state)
    fans = _fans(result)
    assert result.extra["fans"][0]["fans"] and state.outcome["evals"][0]["assignment"] == ["W5"]
    assert fans["和绝张"] == 4, fans
    # 花龍 8, 和絕張 4, 圈風刻 2, 門風刻 2 (東 pung, 東 seat, 東 round), 門前清 2, 單釣 1
    assert fans == {"花龙": 8, "和绝张": 4, "圈风刻": 2, "门风刻": 2, "门前清": 2, "独听・单钓": 1}
    assert result.extra["fans"][0]["total"] == 19


def test_robbing_the_kong_counts_when_a_caishen_stands_for_the_robbed_kind() -> None:
    """搶槓和 follows the real event: seat 0 robs seat 3's 加槓 of W5 with a 財神 as W5 in a
    單釣 pair; PyMahjongGB, shown a W5 in hand, would drop 搶槓和 (8)."""
    ruleset = huanle()
    hands = [REST + " J3", *QUIET[:2], QUIET[2] + " W5"]
    melds = [[], [], [], [peng("W5", 1)]]
    state = make_state(hands, current=3, wild="J3", melds=melds)
    state.hands[3] = state.hands[3][:-2] + ["W5"]  # 10 beside the 碰 + the drawn W5
    state.drawn[3] = "W5"
    ruleset.apply(state, 3, {"type": "jiagang", "tile": "W5"})
    assert state.phase == "robkong"
    ruleset.apply(state, 0, {"type": "hu"})
    result = ruleset.result(state)
    fans = _fans(result)
    assert state.outcome["rob_kong"] and fans["抢杠和"] == 8, fans
    assert "和绝张" not in fans  # GB: 搶槓和 excludes 和絕張


def test_no_last_tile_for_a_drawn_caishen() -> None:
    """A drawn 財神 won on is never 和絕張, even standing for the kind of the winner's own 碰
    (three W3 showing): W1 W2 + the drawn 財神 as W3. PyMahjongGB would add 和絕張 (4) on
    the substituted tiles."""
    ruleset = huanle()
    hands = ["W1 W2 T4 T5 T6 B7 B8 B9 F1 F1 J3", *QUIET]
    state = make_state(hands, wild="J3", melds=[[peng("W3", 2)], [], [], []])
    ev = ruleset.evaluate_win(state, ruleset.win_context(state, 0))
    names = {f["name"] for f in ev["fans"]}
    assert ev["assignment"] == ["W3"] and ev["win_as"] == "W3"
    assert "和绝张" not in names, names
