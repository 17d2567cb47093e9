"""永州麻將: both 番 tables, cap and floor rules, add-ons, 漏胡, 一炮多響, 包, 搶杠, bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.engine.testing import check_game
from games.rules.mahjong.core import State

JUNK = [
    "W2 W4 W6 W8 T2 T4 T6 T8 B2 B4 B6 B8 F4",
    "W2 W4 W6 W8 T2 T4 T6 T8 B2 B4 B6 B8 F4",
    "W2 W4 W6 W8 T2 T4 T6 T8 B2 B4 B6 B8 F4",
    "W2 W4 W6 W8 T2 T4 T6 T8 B2 B4 B6 B8 F4",
]
WALL = "B3 T3 W3 B5 T5 W5 B7 T7 W7 F4 B3 T3 W3 B5 T5 W5".split()


def yz():
    return registry.get("mahjong_yongzhou")


def dump(state: State) -> str:
    return json.dumps(yz().state_to_json(state), sort_keys=True, ensure_ascii=False)


def mk(
    hands: list[str | None],
    *,
    current: int,
    dealer: int = 0,
    fresh: bool = False,
    melds: dict[int, list[dict[str, Any]]] | None = None,
    wall: list[str] | None = None,
    **params: Any,
) -> State:
    """A turn of ``current`` (its last tile is the drawn one) with the given hands."""
    r = yz()
    config = r.config_from_params({"dealer": dealer, **params})
    state = r.new_game(config, "scripted", 4)
    state.hands = [(h if h is not None else JUNK[i]).split() for i, h in enumerate(hands)]
    state.wall = list(WALL if wall is None else wall)
    state.melds = [list((melds or {}).get(s, [])) for s in range(4)]
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


def win_on_discard(hand13: str, tile: str, *, seat: int = 1, melds=None, **params):
    """Seat ``seat - 1`` discards ``tile``; ``seat`` wins on it. Returns (state, result)."""
    r = yz()
    hands: list[str | None] = [None] * 4
    src = (seat - 1) % 4
    hands[src] = JUNK[src] + " " + tile
    hands[seat] = hand13
    state = mk(hands, current=src, melds={seat: melds or []}, **params)
    r.apply(state, src, {"type": "discard", "tile": tile})
    assert {"type": "hu"} in r.legal_actions(state, seat), r.legal_actions(state, seat)
    r.apply(state, seat, {"type": "hu"})
    for s in sorted(r.to_act(state)):
        r.apply(state, s, {"type": "pass"})
    assert r.is_over(state)
    return state, r.result(state)


def self_draw(hand14: str, *, seat: int = 1, melds=None, **params):
    r = yz()
    hands: list[str | None] = [None] * 4
    hands[seat] = hand14
    state = mk(hands, current=seat, melds={seat: melds or []}, **params)
    r.apply(state, seat, {"type": "hu"})
    return state, r.result(state)


def fan_keys(result) -> list[tuple[str, int]]:
    return [(f["key"], f["value"]) for f in result.extra["fans"][0]["fans"]]


def total(result) -> int:
    return result.extra["fans"][0]["total"]


# -- the kit ----------------------------------------------------------------------------------


def test_registered_and_kit_cap5() -> None:
    """The shared kit passes in a 爆胡5番 / 無番起和 room, with bots."""
    r = yz()
    assert r.title == "永州麻將" and "mahjong_yongzhou" in registry.available()
    check_game(r, r.config_from_params({}), 4, ["yz-1", "yz-2"], use_bots=True)


def test_kit_cap3_one_fan_dealer2() -> None:
    """Room parameters of 永州麻將 are read (封頂 bao_hu '3', 起和 '1番起和', dealer 2, unknown
    keys ignored) and the shared kit check_game passes with bots in that room."""
    r = yz()
    config = r.config_from_params(
        {"bao_hu": "3", "qi_hu": "1番起和", "dealer": 2, "prevalent_wind": 1, "unknown": 1}
    )
    assert (config.bao_hu, config.qi_hu, config.dealer) == (3, 1, 2)
    check_game(r, config, 4, ["yz-3"], use_bots=True)


def test_kit_three_fan_server() -> None:
    """The shared kit check_game passes for 永州麻將 with a 5番 cap and 3番起和."""
    r = yz()
    check_game(r, r.config_from_params({"bao_hu": 5, "qi_hu": 3}), 4, ["yz-4"])


def test_config_validation() -> None:
    """bao_hu is 3 or 5; qi_hu 0/1/3 and never above the cap; 底 ≥ 1."""
    r = yz()
    assert r.config_from_params({"qi_hu": "無番起和", "base": "10"}).base == 10
    for bad in ({"bao_hu": 4}, {"qi_hu": 2}, {"base": 0}):
        with pytest.raises(ValueError):
            r.config_from_params(bad)


# -- the 番 tables ----------------------------------------------------------------------------

HANDS = {
    # name: (13 tiles, winning discard)
    "jihu": ("W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1", "B1"),
    "pinghu": ("W1 W2 W3 W4 W5 W6 T2 T3 T4 B7 B8 B9 B1", "B1"),
    "pengpeng": ("W1 W1 W1 T5 T5 T5 B7 B7 B7 B9 B9 B9 F3", "F3"),
    "hunyise": ("W1 W2 W3 W4 W5 W6 W7 W8 W9 F3 F3 F3 W5", "W5"),
    "hunpeng": ("W1 W1 W1 W5 W5 W5 W9 W9 W9 F3 F3 F3 W7", "W7"),
    "qingyise": ("W1 W2 W3 W4 W5 W6 W7 W7 W7 W2 W3 W4 W9", "W9"),
    "qingpeng": ("W1 W1 W1 W3 W3 W3 W5 W5 W5 W7 W7 W7 W9", "W9"),
    "hunyaojiu": ("W1 W1 W1 T9 T9 T9 B1 B1 B1 F3 F3 F3 J1", "J1"),
    "xiaosanyuan": ("J1 J1 J1 J2 J2 J2 J3 W1 W2 W3 T4 T5 T6", "J3"),
    "xiaosixi": ("F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 W1 W2 W3", "F4"),
    "ziyise": ("F1 F1 F1 F2 F2 F2 F3 F3 F3 J1 J1 J1 J2", "J2"),
    "qingyaojiu": ("W1 W1 W1 W9 W9 W9 T1 T1 T1 B9 B9 B9 T9", "T9"),
    "dasanyuan": ("J1 J1 J1 J2 J2 J2 J3 J3 W1 W2 W3 T5 T5", "J3"),
    "dasixi": ("F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 W5 W5", "F4"),
    "jiulian": ("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "W5"),
    "shisanyao": ("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3", "J3"),
}

# expected (key, value) of the counted line, 爆胡5番 and 爆胡3番 tables
CAP5 = {
    "jihu": 0,
    "pinghu": 1,
    "pengpeng": 3,
    "hunyise": 3,
    "hunpeng": 5,
    "qingyise": 5,
    "qingpeng": 6,
    "hunyaojiu": 6,
    "xiaosanyuan": 7,
    "xiaosixi": 7,
    "ziyise": 8,
    "qingyaojiu": 8,
    "dasanyuan": 9,
    "dasixi": 9,
    "jiulian": 9,
    "shisanyao": 9,
}
CAP3 = {
    "jihu": 0,
    "pinghu": 1,
    "pengpeng": 2,
    "hunyise": 2,
    "hunpeng": 4,
    "qingyise": 4,
    "qingpeng": 5,
    "hunyaojiu": 5,
    "xiaosanyuan": 5,
    "xiaosixi": 5,
    "ziyise": 6,
    "qingyaojiu": 6,
    "dasanyuan": 6,
    "dasixi": 6,
    "jiulian": 6,
    "shisanyao": 6,
}


@pytest.mark.parametrize("cap,table", [(5, CAP5), (3, CAP3)])
@pytest.mark.parametrize("name", list(HANDS))
def test_every_fan_of_both_tables(cap: int, table: dict[str, int], name: str) -> None:
    """Each hand of the text scores its value (discard win by seat 1, no add-on, 無番起和);
    the discarder alone pays 底 × 2^番."""
    hand, tile = HANDS[name]
    state, result = win_on_discard(hand, tile, bao_hu=cap, base=2)
    value = table[name]
    assert fan_keys(result) == [(name, value)]
    assert total(result) == value
    assert result.scores == (-2 * 2**value, 2 * 2**value, 0, 0)
    assert result.extra["payments"] == [
        {"from": 0, "to": 1, "points": 2 * 2**value, "share_of": 0, "bao": None}
    ]
    special = result.extra["fans"][0]["special"]
    assert special == (value > cap)


def test_pinghu_and_hunyise_add_up_inside_the_cap() -> None:
    """平胡 (1番) and 混一色 (3番) add up to 4番 under the 5番 cap, and are cut to 3番 under a
    3番 cap without being marked as capped by a special."""
    hand = "W1 W2 W3 W4 W5 W6 W7 W8 W9 W2 W3 W4 F3"
    _, res5 = win_on_discard(hand, "F3")
    assert fan_keys(res5) == [("pinghu", 1), ("hunyise", 3)] and total(res5) == 4
    _, res3 = win_on_discard(hand, "F3", bao_hu=3)
    assert total(res3) == 3 and not res3.extra["capped"]


def test_reading_with_most_fans_is_taken() -> None:
    """W1W1W1 W2W2W2 W3W3W3 reads as three chows (平胡) or three pungs: the best counts."""
    _, res = win_on_discard("W1 W1 W1 W2 W2 W2 W3 W3 W3 T4 T5 T6 B9", "B9")
    assert fan_keys(res) == [("pinghu", 1)]
    _, res = win_on_discard("W1 W1 W1 W2 W2 W2 W3 W3 W3 T4 T4 T4 B9", "B9")
    assert fan_keys(res) == [("pengpeng", 3)]


def test_cap_stops_a_within_hand() -> None:
    """清一色 5 + 平胡 1 = 6 stops at 爆胡5番; the line says 爆胡."""
    _, res = win_on_discard("W1 W2 W3 W4 W5 W6 W7 W8 W9 W2 W3 W4 W5", "W5")
    assert total(res) == 5 and res.extra["capped"]
    assert any(ln.label.startswith("爆胡") for ln in res.lines)


# -- add-ons ----------------------------------------------------------------------------------


def test_all_addons_inside_the_cap() -> None:
    """雞胡 自摸 with 圈風 (東), 門風 (南, seat 1) and 中 pungs: 0 + 1 + 1 + 1 + 1 = 4 in a
    5番 room, stopped at 3 in a 3番 room; all three pay."""
    hand = "F1 F1 F1 F2 F2 F2 J1 J1 J1 W1 W2 T5 T5 W3"
    _, res = self_draw(hand)
    assert fan_keys(res) == [
        ("jihu", 0),
        ("zimo", 1),
        ("menfeng", 1),
        ("quanfeng", 1),
        ("sanyuan", 1),
    ]
    assert total(res) == 4 and res.scores == (-16, 48, -16, -16)
    _, res = self_draw(hand, bao_hu=3)
    assert total(res) == 3 and res.extra["capped"] and res.scores == (-8, 24, -8, -8)


def test_two_dragon_pungs_are_two_fans_and_seat_wind_follows_the_dealer() -> None:
    """Two 三元刻 = 2番; seat 2 (dealer 0) sits 西: an 西 pung is its 門風."""
    _, res = win_on_discard("J1 J1 J1 J2 J2 J2 F3 F3 F3 W1 W2 W3 T5", "T5", seat=2)
    assert fan_keys(res) == [("jihu", 0), ("menfeng", 1), ("sanyuan", 1), ("sanyuan", 1)]
    assert total(res) == 3


def test_addons_never_on_a_special_nor_past_the_cap() -> None:
    """A special hand (大三元 9番) takes no add-on (no 自摸 番) and pays 2^9 per seat; a normal
    hand with add-ons (清一色 + 自摸) stops at the 5番 cap and is marked capped."""
    _, res = self_draw("J1 J1 J1 J2 J2 J2 J3 J3 J3 W1 W2 W3 T5 T5")
    assert fan_keys(res) == [("dasanyuan", 9)] and res.scores == (-512, 1536, -512, -512)
    _, res = self_draw("W1 W2 W3 W4 W5 W6 W7 W7 W7 W2 W3 W4 W9 W9")  # 清一色 + 自摸
    assert total(res) == 5 and res.extra["capped"]


# -- 天和 / 人和 / 地和 ------------------------------------------------------------------------


def test_tianhu_renhu_dihu_are_six() -> None:
    """天和 (dealer wins on his dealt 14), 地和 (a 閑家 wins on his first draw) and 人和 (a 閑家
    wins on the dealer's first discard) are 6番 each; a later discard win is only 雞和."""
    r = yz()
    hand = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1 B1"
    # 天和: the dealer wins on his dealt 14
    state = mk([hand, None, None, None], current=0, fresh=True)
    r.apply(state, 0, {"type": "hu"})
    assert fan_keys(r.result(state)) == [("tianhu", 6)]
    # 地和 (the seed's): a 閑家 wins on his first draw, nobody has claimed
    state = mk([None, hand, None, None], current=1, fresh=True)
    state.discards[0] = ["F4"]
    state.discard_count = 1
    r.apply(state, 1, {"type": "hu"})
    assert fan_keys(r.result(state)) == [("dihu", 6)]
    # 人和 (the seed's): a 閑家 wins on the dealer's first discard
    state = mk([JUNK[0] + " B1", hand[:-3], None, None], current=0, fresh=True)
    r.apply(state, 0, {"type": "discard", "tile": "B1"})
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert fan_keys(res) == [("renhu", 6)] and res.scores[0] == -64
    # not on a later discard
    state, res = win_on_discard(hand[:-3], "B1")
    assert fan_keys(res) == [("jihu", 0)]


# -- floors -----------------------------------------------------------------------------------


def test_after_kong_and_haidi_floor_at_the_cap() -> None:
    """杠上開花 (win on the kong replacement tile) and 海底撈月 (win on the wall's last tile)
    score the room's cap (5番, or 3番 under a 3番 cap) whatever the hand is."""
    r = yz()
    hand = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B1 F2 F2 F2 F2"
    state = mk([None, hand, None, None], current=1, wall=WALL + ["B1"])
    r.apply(state, 1, {"type": "angang", "tile": "F2"})
    assert state.after_kong and state.drawn[1] == "B1"
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert total(res) == 5 and res.scores[1] == 96  # each of three pays 32
    assert any("杠上開花" in ln.label for ln in res.lines)
    # 海底撈月: the last tile of the wall, under the 3番 cap
    state = mk(
        [None, "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1 B1", None, None],
        current=1,
        wall=[],
        bao_hu=3,
    )
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert total(res) == 3 and any("海底撈月" in ln.label for ln in res.lines)


def test_floor_keeps_a_bigger_hand() -> None:
    """The 海底撈月 floor never lowers a bigger hand: 大三元 won on the last tile stays 9番."""
    r = yz()
    state = mk([None, "J1 J1 J1 J2 J2 J2 J3 J3 J3 W1 W2 W3 T5 T5", None, None], current=1, wall=[])
    r.apply(state, 1, {"type": "hu"})
    assert total(r.result(state)) == 9


def test_one_discard_three_winners() -> None:
    """一炮三響: the discarder pays each of three, each floored at the cap; dealer among them
    keeps the deal."""
    r = yz()
    hands = [
        None,
        "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1",
        "W4 W5 W6 T5 T5 T5 T6 T7 T8 B2 B3 B4 B1",
        "J1 J1 J1 J2 J2 J2 J3 J3 J3 W1 W2 W3 B1",
    ]
    hands[0] = JUNK[0] + " B1"
    state = mk(hands, current=0, dealer=3)
    r.apply(state, 0, {"type": "discard", "tile": "B1"})
    assert r.to_act(state) == {1, 2, 3}
    for s in (1, 2, 3):
        r.apply(state, s, {"type": "hu"})
    res = r.result(state)
    assert res.winners == (1, 2, 3)
    assert [f["total"] for f in res.extra["fans"]] == [5, 5, 9]
    # RULES-NOTES §4 #11 "點炮者包三家": each winner paid three shares, all by the discarder
    assert res.scores == (-3 * (32 + 32 + 512), 96, 96, 1536)
    assert {p["from"] for p in res.extra["payments"]} == {0}
    assert len(res.extra["payments"]) == 9
    assert sum(res.scores) == 0
    assert res.extra["next_dealer"] == 3


def test_two_winners_dealer_keeps_or_loses_the_deal() -> None:
    """一炮多響 with the dealer among the winners → 連莊; without → the next seat deals."""
    r = yz()
    for dealer, expected in ((2, 2), (0, 1)):
        hands = [
            JUNK[0] + " B1",
            "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1",
            "W4 W5 W6 T5 T5 T5 T6 T7 T8 B2 B3 B4 B1",
            None,
        ]
        state = mk(hands, current=0, dealer=dealer)
        r.apply(state, 0, {"type": "discard", "tile": "B1"})
        r.apply(state, 2, {"type": "hu"})
        assert not r.is_over(state)  # waits for seat 1, which may also 胡
        r.apply(state, 1, {"type": "hu"})
        res = r.result(state)
        assert res.winners == (1, 2) and res.scores == (-2, 1, 1, 0)
        assert res.extra["next_dealer"] == expected


def test_liuju_keeps_the_dealer_and_the_round_turns() -> None:
    """A drawn hand (流局) scores 0 and keeps the dealer; when the deal passes back to the 起莊
    seat the prevalent wind (風圈) turns 東 → 南, otherwise it stays."""
    r = yz()
    state = mk([None, JUNK[1] + " F4", None, None], current=1, dealer=3, wall=[])
    r.apply(state, 1, {"type": "discard", "tile": "F4"})
    assert r.is_over(state)
    res = r.result(state)
    assert res.scores == (0, 0, 0, 0) and res.extra["next_dealer"] == 3
    # the deal passes from seat 3 back to the 起莊 seat 0: 風圈 東 → 南
    hand = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1"
    state, res = win_on_discard(hand, "B1", dealer=3, first_dealer=0)
    assert res.extra["next_dealer"] == 0 and res.extra["next_prevalent_wind"] == 1
    assert res.extra["next_first_dealer"] == 0
    state, res = win_on_discard(hand, "B1", dealer=2, first_dealer=0)
    assert res.extra["next_dealer"] == 3 and res.extra["next_prevalent_wind"] == 0


def test_feng_quan_turns_over_a_whole_game() -> None:
    """Carrying the results' ``next_*`` into the next hand (as the platform does): the first
    hand's dealer is the 起莊; each 閑家 win passes the deal on; after four passes the 風圈
    turns 東 → 南, a 連莊 (dealer win or 流局) never turns it."""
    carry: dict[str, Any] = {}
    dealer = 2  # the table's first dealer
    winds = []
    hand = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1"
    for n in range(9):
        # hand 3: the last dealer of the 圈 wins (連莊): the 圈 turns only after he loses it
        winner = dealer if n == 3 else (dealer + 1) % 4
        state, res = win_on_discard(hand, "B1", seat=winner, dealer=dealer, **carry)
        winds.append(state.config["prevalent_wind"])
        carry = {
            k[5:]: v for k, v in res.extra.items() if k.startswith("next_") and k != "next_dealer"
        }
        dealer = res.extra["next_dealer"]
        assert carry["first_dealer"] == 2
    assert winds == [0, 0, 0, 0, 0, 1, 1, 1, 1]


# -- 包 ---------------------------------------------------------------------------------------


def play_until(state: State, seat: int) -> None:
    """Everyone else discards the drawn tile and passes every claim until ``seat``'s turn."""
    r = yz()
    while not (state.phase == "turn" and state.current == seat):
        if state.phase in ("claim", "robkong"):
            for s in sorted(r.to_act(state)):
                r.apply(state, s, {"type": "pass"})
        else:
            cur = state.current
            r.apply(state, cur, {"type": "discard", "tile": state.drawn[cur]})


def test_twelve_down_bao_zimo_first_only() -> None:
    """十二張落地包自摸, 包先不包後: seat 0's discard makes seat 1's fourth meld, so seat 0
    pays all three shares of seat 1's 自摸; a later fourth meld of seat 2 from seat 0 binds
    nobody."""
    r = yz()
    melds1 = [meld("peng", "W1", 0), chi("T2 T3 T4", 0), meld("peng", "B7", 2)]
    melds2 = [meld("peng", "W9", 1), meld("peng", "T9", 1), meld("peng", "B9", 1)]
    hands = [JUNK[0] + " F3", "F3 F3 W5 W5", "F1 F1 J1 J1", None]
    state = mk(
        hands,
        current=0,
        melds={1: melds1, 2: melds2},
        wall=["B3", "B3", "F1", "B5", "B5", "W5"] + WALL,
    )
    r.apply(state, 0, {"type": "discard", "tile": "F3"})
    r.apply(state, 1, {"type": "peng"})
    assert state.vars["bao"][1] == {"from": 0, "reason": "luodi12"}
    assert r.view(state, 2)["variant"]["bao"][1] == {"from": 0, "reason": "十二張落地"}
    r.apply(state, 1, {"type": "discard", "tile": "W5"})
    play_until(state, 0)
    assert state.drawn[0] == "F1"
    r.apply(state, 0, {"type": "discard", "tile": "F1"})
    r.apply(state, 2, {"type": "peng"})
    assert len(state.melds[2]) == 4 and state.vars["bao"][2] is None
    r.apply(state, 2, {"type": "discard", "tile": "J1"})
    play_until(state, 1)
    assert state.drawn[1] == "W5"
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert res.extra["fans"][0]["bao"] == 0
    pts = res.extra["fans"][0]["points"]
    assert res.scores == (-3 * pts, 3 * pts, 0, 0)
    assert any(ln.label.startswith("包 (十二張落地") for ln in res.lines)


def test_dasixi_and_dasanyuan_bao() -> None:
    """A discard that completes an exposed 大四喜 / 大三元 binds its discarder to the 自摸."""
    r = yz()
    cases = (
        ("F1 F2 F3", "F4", "dasixi", "W5 W6", "W6", "W5"),
        ("J1 J2", "J3", "dasanyuan", "W5 W5 W6 W7 T1", "T1", "W8"),
    )
    for tiles, last, key, rest, out, draw in cases:
        ms = [meld("peng", t, 2) for t in tiles.split()]
        hands = [JUNK[0] + f" {last}", f"{last} {last} {rest}", None, None]
        state = mk(hands, current=0, melds={1: ms}, wall=["B3", "B3", "B3", draw] + WALL)
        r.apply(state, 0, {"type": "discard", "tile": last})
        r.apply(state, 1, {"type": "peng"})
        assert state.vars["bao"][1] == {"from": 0, "reason": key}
        r.apply(state, 1, {"type": "discard", "tile": out})
        play_until(state, 1)
        assert state.drawn[1] == draw
        r.apply(state, 1, {"type": "hu"})
        res = r.result(state)
        assert fan_keys(res) == [(key, 9)]
        assert res.scores == (-1536, 1536, 0, 0)


def test_two_specials_keep_both_bao_rules() -> None:
    """Under cap 3 a 大四喜 that is also 字一色 is named 字一色 and still binds the feeder of the
    fourth wind to the 自摸 (RULES-NOTES §4 #12)."""
    r = yz()
    ms = [meld("peng", t, 2) for t in "F1 F2 F3".split()]
    hands = [JUNK[0] + " F4", "F4 F4 J1 J2", None, None]
    state = mk(
        hands, current=0, melds={1: ms}, wall=["B3", "B3", "B3", "J1"] + WALL, bao_hu=3, qi_hu=0
    )
    r.apply(state, 0, {"type": "discard", "tile": "F4"})
    r.apply(state, 1, {"type": "peng"})
    assert state.vars["bao"][1] == {"from": 0, "reason": "dasixi"}
    r.apply(state, 1, {"type": "discard", "tile": "J2"})
    play_until(state, 1)
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert fan_keys(res) == [("ziyise", 6)]
    assert res.scores == (-3 * 64, 3 * 64, 0, 0)
    assert any(ln.label == "包 (大四喜包自摸)" for ln in res.lines), res.lines


def test_rob_kong_pays_for_three_and_floors() -> None:
    """搶杠: the robbed seat pays all three shares; 雞胡 + 自摸 floored at the cap."""
    r = yz()
    hands = [
        None,
        "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1",
        None,
        "T6 T7 T8 " + "W2 W4 W6 W8 T2 T4 T6 B1 B3 B5 F4",
    ]
    state = mk(hands, current=3, melds={3: [meld("peng", "B1", 0)]})
    state.hands[3] = "T6 T7 T8 W2 W4 W6 W8 T2 T4 T6 B3 B5 B1".split()
    state.drawn[3] = "B1"
    r.apply(state, 3, {"type": "jiagang", "tile": "B1"})
    assert state.phase == "robkong" and r.legal_actions(state, 1) == [
        {"type": "hu"},
        {"type": "pass"},
    ]
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert ("zimo", 1) in fan_keys(res) and total(res) == 5
    assert res.scores == (0, 96, 0, -96)


def test_kong_bloom_after_a_claimed_kong_binds_the_discarder() -> None:
    """杠上開花包杠: a 明杠 on seat 0's discard, the replacement wins → seat 0 pays three."""
    r = yz()
    hands = [JUNK[0] + " F2", "W1 W2 W3 W5 W5 W5 T2 T3 T4 B1 F2 F2 F2", None, None]
    state = mk(hands, current=0, wall=WALL + ["B1"])
    r.apply(state, 0, {"type": "discard", "tile": "F2"})
    r.apply(state, 1, {"type": "gang"})
    assert state.drawn[1] == "B1"
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert total(res) == 5
    assert res.scores == (-96, 96, 0, 0)
    assert res.extra["payments"][0]["bao"].startswith("杠上開花包杠")


# -- 漏胡 and bad input -----------------------------------------------------------------------


def test_lou_hu_same_tile_until_the_seat_moves() -> None:
    """A seat that passes a win on B1 is not offered 胡 on the next B1 (another seat's);
    its own draw (動牌) lifts the bar."""
    r = yz()
    hand1 = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1"
    hand2 = "B1 B1 " + " ".join(JUNK[2].split()[2:])
    hands = [JUNK[0], hand1, hand2, JUNK[3] + " B1"]
    state = mk(hands, current=3, wall=["B1"] + WALL)
    r.apply(state, 3, {"type": "discard", "tile": "B1"})
    assert r.legal_actions(state, 1) == [{"type": "hu"}, {"type": "pass"}]
    r.apply(state, 2, {"type": "pass"})
    r.apply(state, 1, {"type": "pass"})
    assert state.vars["lou_hu"][1] == ["B1"]
    assert r.view(state, 1)["variant"]["lou_hu"] == ["B1"]
    assert r.view(state, 2)["variant"]["lou_hu"] == []
    # seat 0 draws B1 and discards it: seat 1 is not offered 胡, seat 2 may 碰
    assert state.current == 0 and state.drawn[0] == "B1"
    r.apply(state, 0, {"type": "discard", "tile": "B1"})
    assert r.to_act(state) == {2}
    before = dump(state)
    with pytest.raises(IllegalAction) as err:
        r.apply(state, 1, {"type": "hu"})
    assert err.value.code == ErrorCode.NOT_YOUR_TURN and dump(state) == before
    r.apply(state, 2, {"type": "pass"})
    # seat 1 draws (動牌): the bar is lifted
    assert state.current == 1 and state.vars["lou_hu"][1] == []


def test_lou_hu_refused_in_a_claim_window() -> None:
    """漏胡 inside an open window (another seat can 碰): the 胡 is refused, nothing changes."""
    r = yz()
    hand1 = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1"
    hands = [JUNK[0] + " B1", hand1, "B1 B1 " + " ".join(JUNK[2].split()[2:]), JUNK[3]]
    state = mk(hands, current=0)
    state.vars["lou_hu"][1] = ["B1"]
    r.apply(state, 0, {"type": "discard", "tile": "B1"})
    assert r.legal_actions(state, 2) == [{"type": "peng"}, {"type": "pass"}]
    assert 1 not in r.to_act(state)
    before = dump(state)
    with pytest.raises(IllegalAction) as err:
        r.apply(state, 1, {"type": "hu"})
    assert err.value.code == ErrorCode.NOT_YOUR_TURN
    assert dump(state) == before
    # a seat with another claim sees 漏胡 named
    hands[1] = "B1 B1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9"  # wins on B1 (pung) and may 碰
    hands[1] = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B1 B1"
    state = mk(hands, current=0)
    state.hands[1] = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B1 B1".split()
    state.vars["lou_hu"][1] = ["B9"]
    state.hands[0][-1] = "B9"
    state.drawn[0] = "B9"
    r.apply(state, 0, {"type": "discard", "tile": "B9"})
    # B9 completes B7 B8 B9 for seat 1: barred by 漏胡, but 吃 is offered
    assert {"type": "hu"} not in r.legal_actions(state, 1)
    before = dump(state)
    with pytest.raises(IllegalAction) as err:
        r.apply(state, 1, {"type": "hu"})
    assert err.value.code == ErrorCode.NOT_ALLOWED and "漏胡" in err.value.message
    assert dump(state) == before


def test_win_below_qi_hu_is_refused() -> None:
    """3番起和: a 雞胡 is neither offered nor accepted; 1番起和 takes a 雞胡 with a 三元刻."""
    r = yz()
    hand = "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1 B1"
    state = mk([None, hand, None, None], current=1, qi_hu=3)
    assert {"type": "hu"} not in r.legal_actions(state, 1)
    before = dump(state)
    with pytest.raises(IllegalAction) as err:
        r.apply(state, 1, {"type": "hu"})
    assert err.value.code == ErrorCode.NOT_ALLOWED and "起和" in err.value.message
    assert dump(state) == before
    _, res = self_draw("J1 J1 J1 W2 W3 W4 T2 T3 T4 B7 B8 B9 B1 B1", qi_hu=1)
    assert total(res) == 2  # 自摸 + 三元刻
    state = mk([None, "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1 B2", None, None], current=1)
    before = dump(state)
    with pytest.raises(IllegalAction) as err:
        r.apply(state, 1, {"type": "hu"})
    assert err.value.code == ErrorCode.ILLEGAL and dump(state) == before


def test_escape_and_views() -> None:
    """The escaper pays each other seat 底 × 2^爆胡; views mark the table."""
    r = yz()
    state = mk([None] * 4, current=0, bao_hu=3, base=5)
    res = r.escape_result(state, 2)
    assert res.scores == (40, 40, -120, 40) and len(res.extra["payments"]) == 3
    v = r.view(state, 0)["variant"]
    assert v["bao_hu"] == 3 and v["qi_hu_name"] == "無番起和" and v["bao"] == [None] * 4
    _, res = win_on_discard("J1 J1 J1 J2 J2 J2 J3 J3 J3 W1 W2 W3 T5", "T5")
    assert sum(res.scores) == 0


def test_bots_win_and_finish() -> None:
    """The core's shanten bot plays 永州 hands to the end and takes a win when offered."""
    from games.engine.testing import playout

    r = yz()
    wins = 0
    for i in range(4):
        state, _ = playout(
            r, r.config_from_params({"qi_hu": 1}), f"bot-{i}", 4, use_bots=True, deep_checks=False
        )
        res = r.result(state)
        assert sum(res.scores) == 0
        wins += bool(res.winners)
    assert wins >= 1
    state = mk([None, "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1 B1", None, None], current=1)
    assert r.bot_action(state, 1) == {"type": "hu"}


def test_bao_hu_reached_is_marked_in_the_view_and_the_lines() -> None:
    """At the end the view names each winner that reached 爆胡: a special hand by its name (and
    a 爆胡以外 line), a capped hand as 封頂; a hand below the cap is not marked."""
    r = yz()
    state, res = win_on_discard("J1 J1 J1 J2 J2 J2 J3 J3 W1 W2 W3 T5 T5", "J3")
    assert r.view(state, 2)["variant"]["bao_hu_reached"] == [
        {"seat": 1, "name": "大三元", "total": 9}
    ]
    assert [ln.value for ln in res.lines if ln.label.startswith("爆胡以外")] == ["9番"]
    state, res = win_on_discard("W1 W2 W3 W4 W5 W6 W7 W8 W9 W2 W3 W4 W5", "W5")
    assert r.spectator_view(state)["variant"]["bao_hu_reached"] == [
        {"seat": 1, "name": "封頂5番", "total": 5}
    ]
    state, res = win_on_discard("W1 W2 W3 W4 W5 W6 T2 T3 T4 B7 B8 B9 B1", "B1")
    assert r.view(state, 1)["variant"]["bao_hu_reached"] == []
    assert not any(ln.label.startswith("爆胡") for ln in res.lines)


def test_bao_priority_rob_kong_over_twelve_down() -> None:
    """A seat bound by 十二張落地 to seat 2 robs seat 3's 加槓: the robbed seat pays the three
    shares (搶杠 包三家 first), not the 十二張落地 discarder."""
    r = yz()
    hands = [None, "W1 W2 W3 W5 W5 W5 T2 T3 T4 B7 B8 B9 B1", None, None]
    state = mk(hands, current=3, melds={3: [meld("peng", "B1", 0)]})
    state.hands[3] = "T6 T7 T8 W2 W4 W6 W8 T2 T4 T6 B3 B5 B1".split()
    state.drawn[3] = "B1"
    state.vars["bao"][1] = {"from": 2, "reason": "luodi12"}
    r.apply(state, 3, {"type": "jiagang", "tile": "B1"})
    r.apply(state, 1, {"type": "hu"})
    res = r.result(state)
    assert res.scores == (0, 96, 0, -96)
    assert {p["from"] for p in res.extra["payments"]} == {3}
