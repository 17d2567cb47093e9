"""歡樂麻將 against a brute-force oracle over every reading of the 財神 (issue 13 §4).

``huanle_oracle`` tries every kind each 財神 may stand for (every multiset, at most four of a
kind), every kind a drawn 財神 may be won as, and takes the situational fans from what happened
(``huanle_scenarios`` plays each win through the engine and records the facts itself). The
engine's search must reach the oracle's best total every time, with a reading the oracle also
finds best and the same fans. ``bench/huanle_oracle.py`` runs many more hands.
"""

from __future__ import annotations

from collections import Counter

from games.rules.mahjong.tests.helpers import make_state, peng
from games.rules.mahjong.tests.huanle_oracle import KINDS, Win, oracle_best, score_reading
from games.rules.mahjong.tests.huanle_scenarios import Played, play, scenarios

WILD = "J3"
QUIET = [
    "W6 W8 T7 T9 B1 B3 B5 F2 F3 F4 J1 J2 T1",
    "W7 W9 T2 T3 B2 B3 F2 F3 F4 J1 J2 T7 T8",
    "W7 W9 T2 T3 B2 B4 F2 F3 F4 J1 J2 T7",
]


def engine_fans(ev: dict) -> dict[str, int]:
    """The engine's fans as the oracle names them (GB names, 无财神, 花牌)."""
    fans: dict[str, int] = {}
    for f in ev["fans"]:
        fans[f["name"]] = fans.get(f["name"], 0) + f["value"]
    if ev["wucaishen"]:
        fans["无财神"] = ev["wucaishen"]
    if ev["flowers"]:
        fans["花牌"] = ev["flowers"]
    return fans


def check(played: Played, *, prefilter: bool = True) -> int:
    """Assert the engine found the oracle's best; return that total (−1: no win)."""
    best = oracle_best(played.win, prefilter=prefilter)
    ev = played.engine
    where = (played.event, played.labels, played.state.hands[0], played.state.melds[0])
    if best.total < 0:
        assert ev is None, ("the engine let a non-win through", where, ev)
        return -1
    assert ev is not None, ("the engine refused a win", where, best.readings[:3], best.total)
    order = {k: i for i, k in enumerate(KINDS)}
    reading = (tuple(sorted(ev["assignment"], key=order.__getitem__)), ev["win_as"])
    assert ev["total"] == best.total, (where, ev["total"], best.total, best.readings[:3])
    assert reading in best.readings, (where, reading, best.readings[:5])
    assert engine_fans(ev) == best.fans[reading], (where, engine_fans(ev), best.fans[reading])
    # the engine's reading, scored on its own, is what it says (legal, no fifth copy)
    assert score_reading(played.win, *reading) == engine_fans(ev)
    return best.total


def test_engine_finds_the_true_best_on_generated_wins() -> None:
    """On 150 seeded wins with 0–4 財神 (自摸, a drawn 財神, discards, a discarded 財神, 搶槓,
    槓上開花, the last tile, 和絕張 set-ups, melds, 七對 / 十三幺 / 全不靠 / 組合龍 / 九蓮) the
    engine's total is the brute force's best over every reading, with the same fans."""
    covered: Counter[str] = Counter()
    wins = 0
    for played in scenarios("huanle-oracle", 150, {0: 3, 1: 5, 2: 5, 3: 4, 4: 2}):
        total = check(played)
        wins += total >= 0
        if total >= 0:
            covered.update(played.labels)
    assert wins >= 120, wins
    for label in ("tsumo", "tsumo_wild", "ron", "ron_caishen", "robkong", "kong_bloom"):
        assert covered[label] >= 8, covered
    for label in ("0 財神", "1 財神", "2 財神", "3 財神", "4 財神", "和絕張", "melds"):
        assert covered[label] >= 5, covered
    for label in (
        "和絕張 with a 財神 as the winning kind",
        "搶槓 with a 財神 as the robbed kind",
        "drawn 財神's kind face up",
        "last tile of the wall",
        "special shape",
    ):
        assert covered[label] >= 2, covered


def test_the_prefilter_drops_no_win() -> None:
    """The oracle's shape check only saves PyMahjongGB calls: with it and without it (every
    reading scored) the best is the same, on wins with up to three 財神."""
    for played in scenarios("huanle-oracle-prefilter", 24, {0: 1, 1: 2, 2: 2, 3: 1}):
        fast = oracle_best(played.win)
        slow = oracle_best(played.win, prefilter=False)
        assert (fast.total, fast.readings) == (slow.total, slow.readings), played.labels
        assert slow.scored > fast.scored or played.win.wilds == 0


def _robbed_state() -> tuple:
    """Seat 0 waits 單釣 W5 with a 財神 and robs seat 3's 加槓 of W5."""
    rest = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1"
    hands = [rest + " J3", *QUIET[:2], " ".join(QUIET[2].split()[:10]) + " W5"]
    melds = [[], [], [], [peng("W5", 1)]]
    return make_state(hands, current=3, wild=WILD, melds=melds), rest.split()


def test_named_case_robbing_the_kong_with_a_caishen_as_the_robbed_kind() -> None:
    """搶槓和 (8) stays when the 財神 in hand stands for the robbed kind (W5 W5 pair)."""
    state, rest = _robbed_state()
    rest = list(rest)
    ev = play(state, "robkong", 3, "W5", None)
    win = Win(
        naturals=tuple(rest + ["W5"]),
        wilds=1,
        win_tile="W5",
        packs=(),
        meld_tiles=(),
        wild_kind=WILD,
        self_drawn=False,
        after_kong=False,
        wall_last=False,
        rob_kong=True,
        face_up=3,
        seat_wind=0,
        prevalent_wind=0,
        flowers=0,
    )
    best = oracle_best(win)
    assert ev is not None and ev["total"] == best.total
    assert ev["assignment"] == ["W5"] and engine_fans(ev)["抢杠和"] == 8
    assert "和绝张" not in engine_fans(ev)


def test_named_case_last_tile_with_a_caishen_as_the_winning_kind() -> None:
    """和絕張 (4) stays when a 財神 in hand stands for the winning kind: three W5 in the
    rivers, the fourth discarded, the 財神 as W5 beside it."""
    rest = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F1"
    hands = [rest + " J3", *QUIET[:2], QUIET[2] + " W5"]
    state = make_state(hands, current=3, wild=WILD, discards=[[], ["W5"], ["W5"], ["W5"]])
    ev = play(state, "ron", 3, "W5", None)
    win = Win(
        naturals=tuple(rest.split() + ["W5"]),
        wilds=1,
        win_tile="W5",
        packs=(),
        meld_tiles=(),
        wild_kind=WILD,
        self_drawn=False,
        after_kong=False,
        wall_last=False,
        rob_kong=False,
        face_up=3,
        seat_wind=0,
        prevalent_wind=0,
        flowers=0,
    )
    best = oracle_best(win)
    assert ev is not None and ev["total"] == best.total
    assert ev["assignment"] == ["W5"] and engine_fans(ev)["和绝张"] == 4


def test_named_case_a_drawn_caishen_for_a_kind_with_three_showing() -> None:
    """No 和絕張 for a drawn 財神, even standing for a kind whose other three lie face up
    (the winner's own 碰 of W3 here; W1 W2 + the 財神 as W3)."""
    hands = ["W1 W2 T4 T5 T6 B7 B8 B9 F1 F1 J3", *QUIET]
    state = make_state(hands, wild=WILD, melds=[[peng("W3", 2)], [], [], []])
    ev = play(state, "tsumo_wild", 0, "J3", None)
    win = Win(
        naturals=tuple("W1 W2 T4 T5 T6 B7 B8 B9 F1 F1".split()),
        wilds=1,
        win_tile=None,
        packs=(("PENG", "W3", 2),),
        meld_tiles=("W3",) * 3,
        wild_kind=WILD,
        self_drawn=True,
        after_kong=False,
        wall_last=False,
        rob_kong=False,
        face_up=3,
        seat_wind=0,
        prevalent_wind=0,
        flowers=0,
    )
    best = oracle_best(win)
    assert ev is not None and ev["total"] == best.total
    assert "和绝张" not in engine_fans(ev)
    assert all("和绝张" not in fans for fans in best.fans.values())


def test_named_case_four_caishen_scores_twelve_not_ten() -> None:
    """Four 財神 (W6; the drawn tile one of them) beside B7 B7 B7 B8 W2 W2 W4 W5 W7 W8 and a
    flower: read as W2 W6 W9 B8 (the obvious fill: 雙暗刻) the hand is worth 10; as W3 W6 B6 B7
    (四歸一, 斷幺, 喜相逢) 12. The engine must find 12, the oracle's best."""
    hand = "B7 B7 B7 B8 W2 W2 W4 W5 W7 W8 W6 W6 W6 W6"
    state = make_state([hand, *QUIET], wild="W6", flowers=[["H1"], [], [], []])
    ev = play(state, "tsumo_wild", 0, "W6", None)
    win = Win(
        naturals=tuple("B7 B7 B7 B8 W2 W2 W4 W5 W7 W8".split()),
        wilds=4,
        win_tile=None,
        packs=(),
        meld_tiles=(),
        wild_kind="W6",
        self_drawn=True,
        after_kong=False,
        wall_last=False,
        rob_kong=False,
        face_up=0,
        seat_wind=0,
        prevalent_wind=0,
        flowers=1,
    )
    obvious = score_reading(win, ("W2", "W6", "W9", "B8"), "W6")
    assert obvious is not None and sum(obvious.values()) == 10
    best = oracle_best(win)
    assert best.total == 12
    assert ev is not None and ev["total"] == 12
    assert (tuple(ev["assignment"]), ev["win_as"]) in best.readings
    assert {"四归一", "断幺", "喜相逢"} <= set(engine_fans(ev))
