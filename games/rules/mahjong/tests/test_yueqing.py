"""樂清麻將 – 武漢花: deal, 財神, flowers, 流局, every 台 / 花 item, 逼胡, 包牌, settlement,
escape."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.testing import check_game
from games.rules.mahjong.core import State, WinContext
from games.rules.mahjong.tiles import next_kind
from games.rules.mahjong.variants.yueqing_scoring import (
    escape_best,
    hua_count,
    hua_settlement,
    tai_value,
)

JUNK = "W2 W4 W6 W8 T2 T4 T6 T8 B2 B4 B6 B8 F4 W2 T2 B2"  # 16 tiles, no win, no pairs useful
FILLER = ("W3 T3 W7 T7 W3 T3 W7 T7 B3 B3 B7 B7 W1 T1 W9 T9 W1 T1 W9 T9 B9 B9 W5 T5 W5 T5").split()


def yq():
    return registry.get("mahjong_yueqing")


def dump(state: State) -> str:
    return json.dumps(yq().state_to_json(state), sort_keys=True, ensure_ascii=False)


def mk(
    hands: list[str | None],
    *,
    current: int,
    dealer: int = 0,
    indicator: str = "B9",
    melds: dict[int, list[dict[str, Any]]] | None = None,
    flowers: dict[int, list[str]] | None = None,
    wall: list[str] | None = None,
    fresh: bool = False,
    **params: Any,
) -> State:
    r = yq()
    config = r.config_from_params({"dealer": dealer, **params})
    state = r.new_game(config, "scripted", 4)
    state.hands = [(h if h is not None else JUNK).split() for h in hands]
    state.wall = list(FILLER if wall is None else wall)
    state.melds = [list((melds or {}).get(s, [])) for s in range(4)]
    state.flowers = [list((flowers or {}).get(s, [])) for s in range(4)]
    caishen = next_kind(indicator)
    state.vars.update(
        indicator=indicator,
        wild=[caishen],
        set_aside=[indicator],
        flower_kind="J1" if "J3" in (caishen, indicator) else "J3",
        ming=[None] * 4,
        bihu=None,
    )
    state.drawn = [None] * 4
    state.drawn[current] = state.hands[current][-1]
    state.current = current
    if fresh:
        state.discards = [[] for _ in range(4)]
        state.discard_count = 0
        state.claims_made = 0
    else:
        state.discards = [["F4"], ["F4"], ["F4"], ["F4"]]
        state.discard_count = 8
        state.claims_made = 1
    return state


def meld(kind: str, tile: str, src: int | None) -> dict[str, Any]:
    n = 4 if "gang" in kind else 3
    return {
        "kind": kind,
        "tiles": [tile] * n,
        "from": src,
        "claimed": None if src is None else tile,
    }


def chi(tiles: str, src: int) -> dict[str, Any]:
    t = tiles.split()
    return {"kind": "chi", "tiles": t, "from": src, "claimed": t[0]}


def evaluate(hand: str, *, seat: int = 1, **kw: Any) -> dict[str, Any]:
    """Seat ``seat`` self-draws the last tile of ``hand``."""
    r = yq()
    hands: list[str | None] = [None] * 4
    hands[seat] = hand
    state = mk(hands, current=seat, **kw)
    ev = r.evaluate_win(state, r.win_context(state, seat))
    assert ev is not None, "not a win"
    return ev


def keys(ev: dict[str, Any]) -> Counter[str]:
    return Counter(it["key"] for it in ev["items"])


# -- kit, deal, flowers -----------------------------------------------------------------------


def test_registered_and_kit() -> None:
    """樂清麻將 is registered under mahjong_yueqing and the shared kit check_game passes on its
    default room with bots."""
    r = yq()
    assert r.title == "樂清麻將" and "mahjong_yueqing" in registry.available()
    check_game(r, r.config_from_params({}), 4, ["yq-1", "yq-2"], use_bots=True)


def test_kit_fifteen_tai_room_dealer_3() -> None:
    """Room parameters of 樂清麻將 are read (起胡台數 '15', dealer 3, 底 2, 老莊) and the shared
    kit check_game passes with bots in that room."""
    r = yq()
    config = r.config_from_params({"起胡台數": "15", "dealer": 3, "底": 2, "lao_zhuang": 1})
    assert (config.qi_hu_tai, config.dealer, config.base, config.lao_zhuang) == (15, 3, 2, 1)
    check_game(r, config, 4, ["yq-3"], use_bots=True)


def test_deal_dice_indicator_and_flowers() -> None:
    """16 each, the dealer 17; dice 1–6 from the recorded chance; the 明牌 set aside, 財神 next;
    every 白板 / 杠頭 exposed (none left in a hand); 136 tiles in all."""
    r = yq()
    for seed in ("d1", "d2", "d3", "d4", "d5"):
        state = r.new_game(r.config_from_params({"dealer": 1}), seed, 4)
        sizes = [len(h) for h in state.hands]
        assert sizes == [16, 17, 16, 16]
        dice = state.vars["dice"]
        assert all(1 <= d <= 6 for d in dice["first"] + dice["second"])
        assert dice["thrower"] == (1 + sum(dice["first"]) - 1) % 4
        ind = state.vars["indicator"]
        assert state.vars["set_aside"] == [ind]
        assert state.vars["wild"] == [next_kind(ind)]
        for s in range(4):
            assert not any(r.tile_is_flower(state, t) for t in state.hands[s])
            assert all(r.tile_is_flower(state, t) for t in state.flowers[s])
        assert len(r.all_items(state)) == 136
        again = r.new_game(r.config_from_params({"dealer": 1}), seed, 4)
        assert dump(again) == dump(state)
        v = r.view(state, 0)["variant"]
        assert v["caishen"] == next_kind(ind) and v["dice"] == dice


def test_caishen_wraps_and_flower_kind() -> None:
    """9 → 1, 北 → 中, 白 → 東; 白板 is the flower unless 白板 is 財神 or the 明牌 (then 紅中)."""
    assert [next_kind(t) for t in ("W1", "W9", "F2", "F4", "J3")] == ["W2", "W1", "F3", "J1", "F1"]
    r = yq()
    seen = {}
    for i in range(60):
        state = r.new_game(r.config_from_params({}), f"f{i}", 4)
        ind = state.vars["indicator"]
        seen[ind] = state.vars["flower_kind"]
    for ind, flower in seen.items():
        expect = "J1" if ind in ("J2", "J3") else "J3"
        assert flower == expect, ind


def test_drawn_flower_and_gangtou_replaced_from_the_back() -> None:
    """Drawing a 花 (槓頭 and 白板) sets it face up and replaces it from the back of the wall;
    other seats see only the face-up 花 counts of that seat."""
    r = yq()
    state = mk([None, None, None, None], current=0, wall=["J3"] + FILLER + ["T5", "B9"])
    state.hands[0] = JUNK.split() + ["F4"]
    state.drawn[0] = "F4"
    r.apply(state, 0, {"type": "discard", "tile": "F4"})
    assert state.flowers[1] == ["J3", "B9"]
    assert state.drawn[1] == "T5" and state.wall[-1] == FILLER[-1]
    v = r.view(state, 2)["variant"]["seats"][1]
    # another seat sees the 花 that are face up: 明牌 1 + 白板 1
    assert v == {"gangtou": 1, "baiban": 1, "ming": None, "hua": 2, "hua_full": False}


def test_liuju_at_sixteen_and_the_dealer_rule() -> None:
    """流局 when a draw is due with 16 left: no 槓 → the dealer stays, 牢莊 unchanged; a real
    槓 → the next seat deals. 花 is settled as usual."""
    r = yq()
    for melds, nxt, lao in (({}, 0, 2), ({2: [meld("angang", "T9", None)]}, 1, 0)):
        state = mk(
            [JUNK + " F4", None, None, None],
            current=0,
            wall=FILLER[:16],
            melds=melds,
            flowers={0: ["J3", "J3"]},
            lao_zhuang=2,
        )
        if melds:
            state.hands[2] = state.hands[2][:13]
        r.apply(state, 0, {"type": "discard", "tile": "F4"})
        assert r.is_over(state) and len(state.wall) == 16
        res = r.result(state)
        assert res.extra["next_dealer"] == nxt and res.extra["next_lao_zhuang"] == lao
        assert res.extra["hua"][0] == 2
        assert list(res.scores) == hua_settlement(res.extra["hua"])
        assert sum(res.scores) == 0


# -- 台數 -------------------------------------------------------------------------------------


def test_fanbei_formula() -> None:
    """h: N ≤ 5 and M = 0 → N; else (N' + M) × 2 with N' = 15 + N − 6 for N ≥ 6."""
    assert tai_value(0, 0) == 0 and tai_value(5, 0) == 5
    assert tai_value(8, 0) == 34  # the text's example
    assert tai_value(6, 0) == 30 and tai_value(10, 0) == 38
    assert tai_value(2, 15) == 34 and tai_value(0, 45) == 90 and tai_value(7, 30) == 92


BASE = "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7"
FIVE_MELDS = [
    meld("peng", "W1", 2),
    meld("peng", "T9", 2),
    chi("B3 B4 B5", 0),
    meld("peng", "W9", 3),
    chi("T1 T2 T3", 0),
]

ONE_TAI_CASES = [
    # (hand, extra kwargs, expected items)
    (BASE + " B3 B4 B5 W9 B1", {}, {}),  # 屁胡
    (BASE + " B3 B4 B5 W9 W9", {}, {"wucaishen": 1}),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 F2 F2 F2 B3 B4 B5 W9 B1", {}, {"zifeng": 1}),
    (BASE + " B3 B4 B5 W9 B1", {"flowers": {1: ["J3", "J3"]}}, {"baiban": 2}),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 J1 J1 J1 J2 J2 J2 W9 B1", {}, {"zhongke": 1, "fake": 1}),
    (BASE + " B1 B2 B3 W9 W9", {}, {"guiwei1": 1}),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 B1 B3 B4 B1 W9 W9", {}, {"shuangcaishen": 1}),
    (BASE + " B3 B4 B5 W9 B1", {"flowers": {1: ["B9"]}}, {"mingpai": 1}),
]


@pytest.mark.parametrize("hand,kw,expected", ONE_TAI_CASES)
def test_one_tai_items(hand: str, kw: dict[str, Any], expected: dict[str, int]) -> None:
    """Each one-台 item of the 樂清 list (無財神, 自風, 白板, 中刻, 歸位, 雙財神, 明牌) is
    found alone on its hand, and 屁胡 has none; the total is their sum."""
    ev = evaluate(hand, **kw)
    assert keys(ev) == Counter(expected)
    assert ev["total"] == sum(expected.values())


def test_pihu_is_a_zero_tai_line() -> None:
    """零臺 屁胡: a win with no 台 item settles 0 + 1 per seat and says 屁胡 0台."""
    r = yq()
    state = mk([None, BASE + " B3 B4 B5 W9 B1", None, None], current=1)
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert [(ln.label, ln.value) for ln in res.lines if ln.value.endswith("台")][0] == (
        "屁胡",
        "0台",
    )
    hu = {p["from"]: p["points"] for p in res.extra["payments"] if p["kind"] == "hu"}
    assert hu == {0: 2, 2: 1, 3: 1}


def test_gangkai_and_qianggang_and_pinghu() -> None:
    """槓開 (win after a kong) and 搶槓 (robbing a kong) are one 台 each; 平胡 needs a two-sided
    wait won on either end: not an edge or middle wait, a pung, or a 自風位 pair."""
    r = yq()
    state = mk([None, BASE + " B3 B4 B5 W9 B1", None, None], current=1)
    state.after_kong = True
    ev = r.evaluate_win(state, r.win_context(state, 1))
    assert keys(ev) == Counter({"gangkai": 1})
    hand = "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 B3 B4 W9".split()
    ctx = WinContext(
        seat=1,
        tile="B5",
        concealed=hand + ["W9"],
        tile_is_wild=False,
        self_drawn=False,
        rob_kong=True,
        from_seat=3,
    )
    state = mk([None, " ".join(hand + ["W9", "B5"]), None, None], current=1)
    ev = r.evaluate_win(state, ctx)
    assert keys(ev) == Counter({"qianggang": 1, "wucaishen": 1, "pinghu": 1})
    # 平胡: 34 waiting 2/5, won on 5; not 12 → 3, not 89 → 7, not with a pung
    ev = evaluate("W2 W3 W4 W5 W6 W7 T1 T2 T3 T5 T6 T7 B8 B8 B3 B4 B5")
    assert keys(ev) == Counter({"pinghu": 1, "wucaishen": 1})
    ev = evaluate("W4 W5 W6 W5 W6 W7 T1 T2 T3 T5 T6 T7 B8 B8 B1 B2 B3")
    assert "pinghu" not in keys(ev)
    ev = evaluate("W4 W5 W6 W5 W6 W7 T1 T2 T3 B5 B6 B7 W3 W3 T8 T9 T7")
    assert "pinghu" not in keys(ev)
    ev = evaluate("W4 W5 W6 W5 W5 W5 T1 T2 T3 T5 T6 T7 B8 B8 B3 B4 B5")
    assert "pinghu" not in keys(ev)
    ev = evaluate("W2 W3 W4 W5 W6 W7 T1 T2 T3 T5 T6 T7 F2 F2 B3 B4 B5")  # 自風位 pair
    assert "pinghu" not in keys(ev)


BIG_CASES = [
    ("W1 W1 W1 W5 W5 W5 T2 T2 T2 T8 T8 T8 B4 B4 B4 W9 W9", {}, "duidui", 32),
    ("W1 W2 W3 W4 W5 W6 W7 W8 W9 W2 W3 W4 F3 F3 F3 W5 W5", {}, "hunyise", 32),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 B3 B4 B5 B1 B1", {}, "zuoniu", 32),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 B1 B3 B4 B1 W9 B1", {}, "sancaishen", 30),
    ("F1 F1 F1 F3 F3 F3 F4 F4 F4 W1 W2 W3 T1 T2 T3 F2 F2", {}, "sifengying", 32),
    ("W1 W2 W3 W4 W5 W6 W7 W8 W9 W2 W3 W4 W6 W7 W8 W5 W5", {}, "qingyise", 92),
    ("F1 F1 F1 F2 F2 F2 F3 F3 F3 W1 W2 W3 T1 T2 T3 F4 F4", {}, "sifengqi", 92),
    (BASE + " B3 B4 B5 W9 B1", {"flowers": {1: ["J3"] * 4}}, "sibaiban", 98),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 W9 W9 B1 B1 B1", {}, "sancaishen_ke", 92),
    (
        "W1 W2 W3 W4 W5 W6 T1 T2 T3 J1 J1 J1 J2 J2 J2 W9 B1",
        {"flowers": {1: ["J3"] * 3}},
        "sanmeiren",
        96,
    ),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 W9 B1 B1 B1 B1", {}, "sicaishen", 182),
    ("W1 W2 W3 W4 W5 W6 T1 T2 T3 B6 B7 B5 B6 B7 B5 W9 W9", {"indicator": "B4"}, "guiwei2", 62),
    ("W1 W2 W3 W9 W9 B6 B7 B5 B6 B7 B5 B6 B7 B5 T1 T2 T3", {"indicator": "B4"}, "guiwei3", 430),
    ("F1 F1 F1 F2 F2 F2 F3 F3 F3 J1 J1 J1 J2 J2 J2 F4 F4", {}, "quanzi", 496),
    (
        "W1 W2 W3 W4 W5 W6 T1 T2 T3 J1 J1 J1 J2 J2 J2 W9 B1",
        {"flowers": {1: ["J3"] * 4}},
        "simeiren",
        408,
    ),
    ("W1 W2 W3 B6 B7 B5 B6 B7 B5 B6 B7 B5 B6 B7 B5 W9 W9", {"indicator": "B4"}, "guiwei4", 1090),
]


@pytest.mark.parametrize("hand,kw,key,value", BIG_CASES)
def test_big_tai_items(hand: str, kw: dict[str, Any], key: str, value: int) -> None:
    """Each 15 / 30 / 45 / 200 / 500 item with a hand that shows it, and the 翻倍 value."""
    ev = evaluate(hand, **kw)
    assert key in keys(ev), ev["items"]
    assert ev["total"] == value, ev["items"]


def test_single_wait_items() -> None:
    """財神單吊 (15, + 做牛 when the 財神 is drawn), 單吊財神 (30), 硬吊 (45, no 無財神)."""
    melds = {1: FIVE_MELDS}
    ev = evaluate("B1 T5", melds=melds)
    assert "caishen_dandiao" in keys(ev) and "zuoniu" not in keys(ev)
    ev = evaluate("B1 B1", melds=melds)
    assert {"caishen_dandiao", "zuoniu"} <= set(keys(ev))
    ev = evaluate("T5 B1", melds=melds)
    assert "dandiao_caishen" in keys(ev) and ev["total"] == 60
    ev = evaluate("T5 T5", melds=melds)
    assert keys(ev) == Counter({"yingdiao": 1}) and ev["total"] == 90


def test_tianhu_and_dihu() -> None:
    """天胡: the dealer wins on his dealt hand; 地胡: a 閑家 wins on the dealer's first discard
    (hu is offered and scored as dihu)."""
    r = yq()
    hand = BASE + " B3 B4 B5 W9 B1"
    state = mk([hand, None, None, None], current=0, fresh=True)
    assert "tianhu" in keys(r.evaluate_win(state, r.win_context(state, 0)))
    # 地胡: a 閑家 wins on the dealer's first discard
    state = mk([JUNK + " W9", hand.rsplit(" ", 1)[0], None, None], current=0, fresh=True)
    r.apply(state, 0, {"type": "discard", "tile": "W9"})
    assert {"type": "hu"} in r.legal_actions(state, 1)
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert "dihu" in {it["key"] for it in res.extra["tai"][0]["items"]}


# -- 逼胡 -------------------------------------------------------------------------------------


def test_bihu_caps_other_wins() -> None:
    """Seat 0 shows 三杠頭 (明牌) first: seat 1's 對對胡 counts 5 台; its 三財神刻 still 翻;
    a win on seat 0's first discard after its 明牌 counts in full."""
    r = yq()
    pung_hand = "W1 W1 W1 W5 W5 W5 T2 T2 T2 T8 T8 T8 B4 B4 B4 W9 W9"
    kw = {"flowers": {0: ["B9", "B9", "B9"]}}
    state = mk([None, pung_hand, None, None], current=1, **kw)
    r._update_ming(state)
    assert state.vars["bihu"] == 0 and state.vars["ming"][0]["state"] == "sangangtou"
    assert r.view(state, 2)["variant"]["seats"][0]["ming"] == "明牌三杠頭"
    ev = r.evaluate_win(state, r.win_context(state, 1))
    assert ev["bihu"] and ev["total"] == 5
    state = mk(
        [None, "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 W9 W9 B1 B1 B1", None, None], current=1, **kw
    )
    r._update_ming(state)
    ev = r.evaluate_win(state, r.win_context(state, 1))
    # "僅三財神、四財神可以翻" (RULES-NOTES §8 #11): 三財神 翻, 三財神刻 does not count; the
    # basic 自風位 (the free pung read as 南) stays: (1 + 15) × 2
    assert ev["bihu"] and ev["total"] == (1 + 15) * 2
    assert "sancaishen_ke" not in keys(ev) and keys(ev)["sancaishen"] == 1
    # the 明牌 seat's first discard after it is won on: exempt
    state = mk([JUNK + " W9", pung_hand.rsplit(" ", 1)[0], None, None], current=0, **kw)
    r._update_ming(state)
    r.apply(state, 0, {"type": "discard", "tile": "W9"})
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert res.extra["tai"][0]["total"] == 32 and not res.extra["tai"][0]["bihu"]


def test_ming_states() -> None:
    """The public 明牌 states: 四白板, 六臺, 三美人, 四風齊, 單吊."""
    r = yq()
    cases = [
        ({"flowers": {2: ["J3"] * 4}}, "sibaiban"),
        (
            {
                "flowers": {2: ["J3", "J3", "B9", "B9"]},
                "melds": {2: [meld("peng", "J1", 0), meld("peng", "J2", 0)]},
            },
            "liutai",
        ),
        (
            {
                "flowers": {2: ["J3"] * 3},
                "melds": {2: [meld("peng", "J1", 0), meld("peng", "J2", 0)]},
            },
            "sanmeiren",
        ),
        ({"melds": {2: [meld("peng", f"F{i}", 0) for i in range(1, 5)]}}, "sifengqi"),
    ]
    for kw, name in cases:
        state = mk([None] * 4, current=0, **kw)
        assert r.ming_state(state, 2) == name
    state = mk([None, None, "T5", None], current=0, melds={2: FIVE_MELDS})
    assert r.ming_state(state, 2) == "dandiao"


# -- 包牌 -------------------------------------------------------------------------------------


def test_bao_sishou_and_its_priority() -> None:
    """吃碰杠四手: four melds from seat 2 → seat 2 pays every share (not in a 15-台 room)."""
    r = yq()
    melds = {
        1: [
            meld("peng", "W1", 2),
            meld("peng", "T9", 2),
            meld("peng", "B7", 2),
            meld("peng", "W9", 2),
            chi("T1 T2 T3", 0),
        ]
    }
    for room, payer in ((0, 2), (15, None)):
        state = mk([None, "B1 T5", None, None], current=1, melds=melds, qi_hu_tai=room)
        ev = r.evaluate_win(state, r.win_context(state, 1))
        if ev["total"] < room:
            continue
        r.apply(state, 1, {"type": "hu"})
        res = r.result(state)
        tai = res.extra["tai"][0]
        assert tai["bao"] == payer
        if payer is not None:
            assert tai["bao_reason"] == "sishou"
            hu = [p for p in res.extra["payments"] if p["kind"] == "hu"]
            assert {p["from"] for p in hu} == {2} and len(hu) == 3


def _discard_win(hands: list[str | None], src: int, tile: str, winner: int, **kw: Any):
    r = yq()
    state = mk(hands, current=src, **kw)
    r.apply(state, src, {"type": "discard", "tile": tile})
    assert {"type": "hu"} in r.legal_actions(state, winner), r.legal_actions(state, winner)
    r.apply(state, winner, {"type": "hu"})
    return state, r.result(state)


def _hu_payers(res) -> set[int]:
    return {p["from"] for p in res.extra["payments"] if p["kind"] == "hu"}


def test_bao_luantu() -> None:
    """不能亂吐: 234 + 吃5 (345), then 2 out → a win on it is 包 by the discarder."""
    r = yq()
    hands: list[str | None] = [None] * 4
    hands[0] = "W2 W3 W4 J1 T1 T2 T3 T5 T6 T7 B3 B4 B5 W7 W8 W9"
    hands[1] = "W3 W4 W6 W7 W8 T1 T2 T3 T5 T6 T7 B3 B4 B5 F3 F3"
    hands[3] = JUNK + " W5"
    state = mk(hands, current=3, dealer=3)
    r.apply(state, 3, {"type": "discard", "tile": "W5"})
    r.apply(state, 0, {"type": "chi", "tiles": ["W3", "W4"]})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    assert state.vars["chi_forbid"][0] == "W2"
    r.apply(state, 0, {"type": "discard", "tile": "W2"})
    assert state.vars["luantu"] == [0, state.discard_count]
    assert {"type": "hu"} in r.legal_actions(state, 1)
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    assert res.extra["tai"][0]["bao_reason"] == "luantu" and _hu_payers(res) == {0}


def test_bao_dandiao_and_mingfan() -> None:
    """包 (the discarder pays for all): throwing within ±2 of a 單吊 player's discard, and
    feeding a shown 明翻 (三美人 from 三白板 + 紅中碰) make the discarder the only payer."""
    r = yq()
    # a 單吊形成: seat 1 (單吊) threw T5; seat 0 throws T3 (within ±2) → seat 0 包
    state = mk([JUNK + " T3", "T3", None, None], current=0, melds={1: FIVE_MELDS})
    state.vars["dandiao_discard"][1] = "T5"
    r.apply(state, 0, {"type": "discard", "tile": "T3"})
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    assert res.extra["tai"][0]["bao_reason"] == "dandiao" and _hu_payers(res) == {0}
    # b 點炮成明翻: 三白板 + 紅中碰 shown, 發財 thrown → 三美人, the discarder pays
    hand = "W1 W2 W3 W4 W5 W6 T1 T2 T3 J2 J2 W9 W9"
    state = mk(
        [JUNK + " J2", hand, None, None],
        current=0,
        melds={1: [meld("peng", "J1", 2)]},
        flowers={1: ["J3"] * 3},
    )
    r.apply(state, 0, {"type": "discard", "tile": "J2"})
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    tai = res.extra["tai"][0]
    assert "sanmeiren" in {it["key"] for it in tai["items"]}
    assert tai["bao_reason"] == "mingfan" and _hu_payers(res) == {0}


def test_bao_jianpai() -> None:
    """見牌胡: seat 0 is 明牌 (四白板) and has discarded; seat 2 passes a win; seat 0 wins →
    seat 2 pays every share."""
    r = yq()
    win0 = "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 B3 B4 B5 W9"
    hands = [win0 + " F4", JUNK, "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 B3 B4 B5 F4", JUNK]
    state = mk(hands, current=0, flowers={0: ["J3"] * 4}, wall=["W9", "T8", "T8"] + FILLER)
    r.apply(state, 0, {"type": "discard", "tile": "F4"})
    assert state.vars["ming"][0]["discarded"]
    assert {"type": "hu"} in r.legal_actions(state, 2)
    r.apply(state, 2, {"type": "pass"})
    assert state.vars["jianpai"][2] == [0]
    # seat 1 draws W9 → discards it: seat 0 wins on it
    r.apply(state, 1, {"type": "discard", "tile": "W9"})
    r.apply(state, 0, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    assert res.extra["tai"][0]["bao_reason"] == "jianpai" and _hu_payers(res) == {2}


# -- 花數 and settlement ----------------------------------------------------------------------


def test_hua_items() -> None:
    """Every 花 item of the text."""
    items = hua_count(
        gangtou=3,
        flowers=4,
        caishen_held=4,
        melds=[("minggang", 5), ("angang", 6), ("peng", 28), ("angang", 31), ("minggang", 32)],
        concealed_pungs=[],
        seat_wind=28,
        caishen=0,
    )
    got = dict(items)
    assert got["明牌 ×3"] == 3 and got["白板 ×4"] == 4 and got["財神 ×4"] == 4
    assert got["明杠"] == 1 and got["暗杠"] == 2
    assert got["自風位刻子"] == 1 and got["紅中暗杠"] == 3 and got["發財明杠"] == 2
    assert got["三杠頭"] == 6 and got["四張白板"] == 8 and got["四個財神"] == 10
    three = dict(
        hua_count(
            gangtou=0,
            flowers=0,
            caishen_held=3,
            melds=[("peng", 31)],
            concealed_pungs=[32],
            seat_wind=27,
            caishen=31,
        )
    )
    assert three == {"財神 ×3": 3, "發財刻子": 1, "三張財神": 6}  # 紅中 is 財神: no 紅中 花


def test_hua_squared_pairwise_sums_to_zero() -> None:
    """總花 = 平方花 from each other player: 20 花 → 400 from each of three."""
    assert hua_settlement([20, 0, 0, 0]) == [1200, -400, -400, -400]
    assert hua_settlement([3, 2, 0, 1]) == [27 - 5, 12 - 10, -14, 3 - 13]
    assert sum(hua_settlement([5, 4, 2, 7])) == 0


def test_settlement_dealer_and_non_dealer() -> None:
    """莊家胡: each pays 台 + 牢莊 + 1; 閑家胡: non-dealers 台 + 1, the dealer one more; × 底."""
    r = yq()
    hand = BASE + " B3 B4 B5 W9 W9"  # 無財神 1 台
    state = mk([hand, None, None, None], current=0, lao_zhuang=2, base=3)
    r.apply(state, 0, {"type": "hu"})
    res = r.result(state)
    hu = [p for p in res.extra["payments"] if p["kind"] == "hu"]
    assert [p["points"] for p in hu] == [12, 12, 12]  # (1 + 2 + 1) × 3
    assert res.extra["next_dealer"] == 0 and res.extra["next_lao_zhuang"] == 3
    state = mk([None, hand, None, None], current=1, lao_zhuang=2)
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    hu = {p["from"]: p["points"] for p in res.extra["payments"] if p["kind"] == "hu"}
    assert hu == {0: 3, 2: 2, 3: 2}
    assert res.extra["next_dealer"] == 1 and res.extra["next_lao_zhuang"] == 0
    assert sum(res.scores) == 0


def test_settlement_adds_hua() -> None:
    """Settlement adds the 花 settlement (hua_settlement of each seat's 花 count) to the 台
    payments of the hu; the total stays zero-sum."""
    r = yq()
    state = mk(
        [None, BASE + " B3 B4 B5 W9 W9", None, None],
        current=1,
        flowers={1: ["J3", "B9"], 3: ["J3"]},
    )
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    # 台: 白板 1 + 明牌 1 + 無財神 1 = 3; hu: 0 pays 5, 2 and 3 pay 4
    assert res.extra["tai"][0]["total"] == 3
    assert res.extra["hua"] == [0, 2, 0, 1]
    hua = hua_settlement([0, 2, 0, 1])
    assert res.scores == (-5 + hua[0], 13 + hua[1], -4 + hua[2], -4 + hua[3])
    assert sum(res.scores) == 0


# -- escape and bad input ---------------------------------------------------------------------


def test_escape_amounts() -> None:
    """Each other seat's best 胡倒翻臺類型 + 底 × 10; the text's example 45 + 15 + 0."""
    assert escape_best(
        concealed=[0, 1, 2, 3, 4, 5, 6, 7],
        caishen_count=0,
        melds=[("chi", 0), ("peng", 8), ("chi", 3)],
        flowers=0,
        gangtou=0,
        seat_wind=27,
        flower_kind=33,
        caishen=18,
    ) == ("清一色", 45)
    assert escape_best(
        concealed=[0, 1, 2, 3, 4, 27, 27],
        caishen_count=0,
        melds=[("chi", 0), ("peng", 8), ("chi", 3)],
        flowers=0,
        gangtou=0,
        seat_wind=28,
        flower_kind=33,
        caishen=18,
    ) == ("混一色", 15)
    r = yq()
    hands = ["W1 W2 W3 W4 W5 W6 W7", "W1 W2 W3 W4 F1 F1 F1", JUNK, None]
    melds = {
        0: [chi("W1 W2 W3", 3), meld("peng", "W9", 3), chi("W4 W5 W6", 3)],
        1: [chi("W1 W2 W3", 0), meld("peng", "W9", 0), chi("W4 W5 W6", 0)],
    }
    state = mk(hands, current=2, melds=melds, base=2)
    res = r.escape_result(state, 3)
    pay = {p["to"]: p for p in res.extra["payments"] if p["kind"] == "escape"}
    assert (pay[0]["type"], pay[0]["tai"], pay[0]["points"]) == ("清一色", 45, 110)
    assert (pay[1]["type"], pay[1]["tai"], pay[1]["points"]) == ("混一色", 15, 50)
    assert pay[2]["tai"] == 0 and pay[2]["points"] == 20
    assert sum(res.scores) == 0 and res.scores[3] == -180


def test_win_below_qi_hu_tai_is_refused() -> None:
    """A win below the room's 起胡台數 (15) is not offered and is refused with NOT_ALLOWED
    naming 起胡台數, leaving the state unchanged; a hand with enough 台 may win."""
    r = yq()
    state = mk([None, BASE + " B3 B4 B5 W9 B1", None, None], current=1, qi_hu_tai=15)
    assert {"type": "hu"} not in r.legal_actions(state, 1)
    before = dump(state)
    with pytest.raises(IllegalAction) as err:
        r.apply(state, 1, {"type": "hu"})
    assert err.value.code == ErrorCode.NOT_ALLOWED and "起胡台數" in err.value.message
    assert dump(state) == before
    state = mk(
        [None, "W1 W1 W1 W5 W5 W5 T2 T2 T2 T8 T8 T8 B4 B4 B4 W9 W9", None, None],
        current=1,
        qi_hu_tai=15,
    )
    assert {"type": "hu"} in r.legal_actions(state, 1)


def test_caishen_cannot_be_claimed_and_bad_actions() -> None:
    """Nobody may 碰 a discarded 財神 (no claim window opens), and peng, an unknown tile and hu
    out of turn are refused with IllegalAction without changing the state."""
    r = yq()
    state = mk([JUNK + " B1", "B1 B1 " + " ".join(JUNK.split()[2:]), None, None], current=0)
    r.apply(state, 0, {"type": "discard", "tile": "B1"})
    assert state.phase == "turn"  # nobody may 碰 a 財神
    before = dump(state)
    for bad in ({"type": "peng"}, {"type": "discard", "tile": "Z9"}, {"type": "hu"}):
        with pytest.raises(IllegalAction):
            r.apply(state, 1, bad)
        assert dump(state) == before


def test_bao_priority() -> None:
    """吃碰杠四手 (seat 2) outranks 單吊形成 (seat 0, the discarder); 亂吐 outranks 單吊形成."""
    r = yq()
    melds = {
        1: [
            meld("peng", "W1", 2),
            meld("peng", "T9", 2),
            meld("peng", "B7", 2),
            meld("peng", "W9", 2),
            chi("T1 T2 T3", 0),
        ]
    }
    state = mk([JUNK + " T3", "T3", None, None], current=0, melds=melds)
    state.vars["dandiao_discard"][1] = "T5"
    r.apply(state, 0, {"type": "discard", "tile": "T3"})
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    assert res.extra["tai"][0]["bao_reason"] == "sishou" and _hu_payers(res) == {2}
    state = mk([JUNK + " T3", "T3", None, None], current=0, melds={1: FIVE_MELDS})
    state.vars["dandiao_discard"][1] = "T5"
    state.vars["chi_forbid"][0] = "T3"
    r.apply(state, 0, {"type": "discard", "tile": "T3"})
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    assert res.extra["tai"][0]["bao_reason"] == "luantu" and _hu_payers(res) == {0}
    assert sum(res.scores) == 0


def test_bots_win_and_finish() -> None:
    """The core's shanten bot plays 樂清 hands to the end and takes a win when offered."""
    from games.engine.testing import playout

    r = yq()
    wins = 0
    for i in range(4):
        state, _ = playout(
            r, r.config_from_params({}), f"bot-{i}", 4, use_bots=True, deep_checks=False
        )
        res = r.result(state)
        assert sum(res.scores) == 0
        wins += bool(res.winners)
    assert wins >= 1
    state = mk([None, BASE + " B3 B4 B5 W9 W9", None, None], current=1)
    assert r.bot_action(state, 1) == {"type": "hu"}


def test_pre_deal_opens_the_wall_where_the_dice_say() -> None:
    """The core's ``pre_deal`` hook: 樂清 rotates the shuffled wall to the opening 墩 picked by
    the dice (N1 + N2 墩 into the second thrower's side); the 明牌 is the last tile of that wall
    and the dealer's first tiles are its front."""
    from games.engine.chance import Chance

    r = yq()
    for dealer in range(4):
        for i in range(6):
            seed = f"open-{dealer}-{i}"
            config = r.config_from_params({"dealer": dealer})
            shuffled = Chance(seed, "deal").shuffled(r.wall_tiles(config))
            opened, extra = r.pre_deal(config, seed, list(shuffled), dealer)
            dice = extra["dice"]
            assert dice["thrower"] == (dealer + sum(dice["first"]) - 1) % 4
            start = (
                ((dealer - dice["thrower"]) % 4) * 17 + sum(dice["first"]) + sum(dice["second"])
            ) % 68
            assert dice["open"] == start
            assert opened == shuffled[2 * start :] + shuffled[: 2 * start]
            state = r.new_game(config, seed, 4)
            assert state.vars["dice"] == dice
            assert state.vars["indicator"] == opened[-1]
            dealt = [t for t in opened[:16] if not r.tile_is_flower(state, t)]
            assert Counter(dealt) <= Counter(state.hands[dealer])


def test_more_ming_states() -> None:
    """明牌四美人 (中 and 發 shown + four 白板) and 明牌三杠頭 (all three 杠頭 shown)."""
    r = yq()
    state = mk(
        [None] * 4,
        current=0,
        flowers={3: ["J3"] * 4},
        melds={3: [meld("peng", "J1", 0), meld("peng", "J2", 0)]},
    )
    assert r.ming_state(state, 3) == "simeiren"
    state = mk([None] * 4, current=0, flowers={3: ["B9"] * 3})
    assert r.ming_state(state, 3) == "sangangtou"
    state = mk([None] * 4, current=0, flowers={3: ["B9"] * 2})
    assert r.ming_state(state, 3) is None


def test_hua_of_a_discard_winner_counts_the_tile_won_on() -> None:
    """花 are counted on the whole winning hand: a 紅中 pung completed by the discard is a
    紅中刻子 (1 花) of the winner."""
    r = yq()
    hand = "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 J1 J1 W9 W9"
    state = mk([JUNK + " J1", hand, None, None], current=0)
    r.apply(state, 0, {"type": "discard", "tile": "J1"})
    r.apply(state, 1, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    res = r.result(state)
    assert ("zhongke", 1) in [(it["key"], it["value"]) for it in res.extra["tai"][0]["items"]]
    assert res.extra["hua"][1] == 1
    assert any(ln.label == "座1 花 紅中刻子" for ln in res.lines)
    assert sum(res.scores) == 0


def test_seat_hua_in_the_view_full_for_self_public_for_others() -> None:
    """Each seat's 花 count: the viewer sees all of its own (財神 held, 刻子 in hand); the
    others see only what is face up (a 暗杠 counts 2 whatever its hidden kind)."""
    r = yq()
    hand = "J1 J1 J1 B1 " + " ".join(JUNK.split()[:9])
    state = mk(
        [None, hand, None, None],
        current=0,
        flowers={1: ["J3"]},
        melds={1: [meld("angang", "J2", None)]},
    )
    own = r.view(state, 1)["variant"]["seats"][1]
    # 白板 1 + 財神 1 + 發財暗杠 3 + 紅中刻子 1
    assert (own["hua"], own["hua_full"]) == (6, True)
    other = r.view(state, 0)["variant"]["seats"][1]
    assert (other["hua"], other["hua_full"]) == (3, False)  # 白板 1 + 暗杠 2
    assert r.spectator_view(state)["variant"]["seats"][1]["hua"] == 3


def test_bao_priority_sishou_over_jianpai_over_luantu() -> None:
    """見牌胡 outranks 不能亂吐; 吃碰杠四手 outranks 見牌胡."""
    r = yq()
    win0 = "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 B3 B4 B5 W9"
    for melds0, reason, payer in (
        ({}, "jianpai", 2),
        (
            {
                0: [
                    meld("peng", "W1", 1),
                    meld("peng", "T9", 1),
                    meld("peng", "B7", 1),
                    meld("peng", "F3", 1),
                ]
            },
            "sishou",
            1,
        ),
    ):
        hand0 = win0 if not melds0 else "W7 W8 W9 W9"
        hands = [hand0 + " F4", JUNK, "W1 W2 W3 W4 W5 W6 T1 T2 T3 T5 T6 T7 B3 B4 B5 F4", JUNK]
        if melds0:
            hands[2] = "W9 " + " ".join(JUNK.split()[:15])
        state = mk(
            hands,
            current=0,
            flowers={0: ["J3"] * 4},
            melds=melds0,
            wall=["W9", "T8", "T8"] + FILLER,
        )
        r.apply(state, 0, {"type": "discard", "tile": "F4"})
        if not melds0:
            r.apply(state, 2, {"type": "pass"})
        else:
            state.vars["jianpai"][2] = [0]
        # seat 1 draws W9 and throws it right after a 吃 that barred it (亂吐)
        state.vars["chi_forbid"][1] = "W9"
        r.apply(state, 1, {"type": "discard", "tile": "W9"})
        assert state.vars["luantu"] == [1, state.discard_count]
        r.apply(state, 0, {"type": "hu"})
        for s in sorted(r.to_act(state)):
            r.apply(state, s, {"type": "pass"})
        res = r.result(state)
        assert res.extra["tai"][0]["bao_reason"] == reason
        assert _hu_payers(res) == {payer}


def test_eight_one_tai_items_double_to_34_end_to_end() -> None:
    """A hand with eight one-台 items (自風位, 白板 ×2, 紅中刻, 發財刻, 無財神, 明牌 ×2) is worth
    (15 + 8 − 6) × 2 = 34; 閑家胡 pays 35 / 35 and the dealer 36; the winner's 7 花 (明牌 2,
    白板 2, 自風位 / 紅中 / 發財 刻子) collect 49 from each other seat."""
    r = yq()
    hand = "W1 W2 W3 T4 T5 T6 J1 J1 J1 J2 J2 J2 F2 F2 F2 W9 W9"
    state = mk([None, hand, None, None], current=1, flowers={1: ["J3", "J3", "B9", "B9"]})
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    tai = res.extra["tai"][0]
    assert Counter(it["key"] for it in tai["items"]) == Counter(
        {"zifeng": 1, "baiban": 2, "zhongke": 1, "fake": 1, "wucaishen": 1, "mingpai": 2}
    )
    assert (tai["n"], tai["m"], tai["total"]) == (8, 0, 34)
    assert res.extra["hua"] == [0, 7, 0, 0]
    assert res.scores == (-36 - 49, 36 + 35 + 35 + 3 * 49, -35 - 49, -35 - 49)


# -- issue 13 §6: 自風位, what a 財神 may stand for, 包牌 and 暗杠 --------------------------------


def test_zifeng_cancelled_only_by_the_own_seat_wind_as_caishen() -> None:
    """ "如果風位是財神，就不算" (RULES-NOTES §8 #12): another wind being the 財神 keeps the
    winner's 自風位; his own seat wind being the 財神 cancels it."""
    hand = "W1 W2 W3 W4 W5 W6 T1 T2 T3 F2 F2 F2 B3 B4 B5 W9 W9"  # seat 1 = 南
    ev = evaluate(hand, indicator="F3")  # 財神 北
    assert keys(ev) == Counter({"zifeng": 1, "wucaishen": 1}) and ev["total"] == 2
    ev = evaluate(hand.replace("F2", "F3"), seat=2, indicator="F3")  # seat 2 = 西, 財神 北
    assert keys(ev)["zifeng"] == 1
    hand = "W1 W2 W3 W4 W5 W6 T1 T2 T3 F3 F3 F3 B3 B4 B5 W9 W9"
    ev = evaluate(hand, seat=2, indicator="F2")  # 財神 西 = seat 2's own wind
    assert "zifeng" not in keys(ev)


def test_zifeng_under_bihu_reaches_qi_hu() -> None:
    """Under 逼胡 with 起胡 2 a 自風位 + 無財神 hand (財神 北) is worth 2 and may win."""
    r = yq()
    hand = "W1 W2 W3 W4 W5 W6 T1 T2 T3 F2 F2 F2 B3 B4 B5 W9 W9"
    state = mk(
        [None, hand, None, None],
        current=1,
        indicator="F3",
        qi_hu_tai=2,
        flowers={0: ["F3", "F3", "F3"]},
    )
    r._update_ming(state)
    assert state.vars["bihu"] == 0
    ev = r.evaluate_win(state, r.win_context(state, 1))
    assert ev["bihu"] and ev["total"] == 2 and ev["ok"]
    assert {"type": "hu"} in r.legal_actions(state, 1)


def test_caishen_never_a_fifth_copy() -> None:
    """A 財神 never stands for a fifth copy (hand, every seat's melds and every river
    counted): W8 W9 + 財神 only completes as W7; with three W7 in a 碰 it is the fourth and
    wins, with the fourth W7 in a river too it would be a fifth: no win, no 胡 offered."""
    r = yq()
    hand = "W8 W9 T1 T2 T3 T4 T5 T6 T7 T8 T9 B2 B3 B4 B5 B5 B1"
    state = mk([None, hand, None, None], current=1, melds={2: [meld("peng", "W7", 0)]})
    assert r.evaluate_win(state, r.win_context(state, 1)) is not None
    state.discards[3].append("W7")
    assert r.evaluate_win(state, r.win_context(state, 1)) is None
    assert {"type": "hu"} not in r.legal_actions(state, 1)
    # three free 財神 are never read as a pung of 北 when the four 北 lie in the rivers
    ev = evaluate("F1 F1 F1 F3 F3 F3 W1 W2 W3 T1 T2 T3 F2 B1 B1 B1 B1")
    assert "sifengying" not in keys(ev)


def test_caishen_never_the_mingpai_kind() -> None:
    """The 明牌 kind's other copies are 杠頭 (out of play): a 財神 never stands for it."""
    r = yq()
    rest = "T1 T2 T3 T4 T5 T6 T7 T8 T9 B1 B2 B3 B5 B5"
    # 明牌 W3 → 財神 W4: W1 W2 + 財神 only completes as W3, the 明牌 kind → no win
    state = mk([None, f"W1 W2 {rest} W4", None, None], current=1, indicator="W3")
    assert r.evaluate_win(state, r.win_context(state, 1)) is None
    # 明牌 B8 → 財神 B9: the same hand reads the 財神 as W3 and wins
    state = mk([None, f"W1 W2 {rest} B9", None, None], current=1, indicator="B8")
    assert r.evaluate_win(state, r.win_context(state, 1)) is not None


def test_free_caishen_groups_take_their_best_reading() -> None:
    """Groups made only of 財神 may be read as any group (RULES-NOTES §8 #10): three free 財神
    read as a 北 pung make 四風影 with the 南 pair — 四財神 45 + 三財神刻 45 + 四風影 15 → 210.
    With two 南 in the rivers that is the only reading worth 210; with all four 南 unseen a
    南 pung (two 財神) and a 北 pair of the two others — 四財神 + 四風齊 + 財神做牛 — is worth
    the same 210, and the engine shows that one every time (readings are tried in a fixed
    order, not in the hash order of a set)."""
    hand = "F1 F1 F1 F3 F3 F3 W1 W2 W3 T1 T2 T3 F2 B1 B1 B1 B1"
    r = yq()
    state = mk([None, hand, None, None], current=1, fresh=True)
    state.discards[0] = ["F2", "F2"]
    ev = r.evaluate_win(state, r.win_context(state, 1))
    assert keys(ev) == Counter({"sicaishen": 1, "sancaishen_ke": 1, "sifengying": 1}), ev["items"]
    assert ev["total"] == 210
    ev = evaluate(hand, fresh=True)
    assert keys(ev) == Counter({"sicaishen": 1, "sifengqi": 1, "zuoniu": 1}), ev["items"]
    assert ev["total"] == 210


def test_angang_is_not_an_exposed_meld_for_mingfan() -> None:
    """點炮成明翻 needs the 四風齊 shown on the table: a 暗杠 is not shown (§8 #13), so a 北
    discard that completes 四風齊 beside a 東 暗杠 binds nobody; beside a 東 碰 it does."""
    r = yq()
    for first, liable in ((meld("angang", "F1", None), None), (meld("peng", "F1", 3), 0)):
        ms = [first, meld("peng", "F2", 2), meld("peng", "F3", 2)]
        state = mk([JUNK + " F4", "F4 F4 W1 W2 W3 T5 T5", None, None], current=0, melds={1: ms})
        r.apply(state, 0, {"type": "discard", "tile": "F4"})
        r.apply(state, 1, {"type": "hu"})
        for s in sorted(r.to_act(state)):
            r.apply(state, s, {"type": "pass"})
        res = r.result(state)
        tai = res.extra["tai"][0]
        assert "sifengqi" in {it["key"] for it in tai["items"]}
        assert tai["bao"] == liable, tai
