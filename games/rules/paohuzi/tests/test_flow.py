"""Seed 003's worked examples and rules, played through the engine on scripted deals."""

from __future__ import annotations

import json

import pytest

from games.engine.errors import ErrorCode, IllegalAction
from games.rules.paohuzi import RULESET, Config
from games.rules.paohuzi.cards import counts_of, parse_card, parse_cards
from games.rules.paohuzi.ruleset import chi_options
from games.rules.paohuzi.tests.helpers import act, deal, hand, melds, pass_others

H0 = "x1 x1 x3 x3 x4 x4 x6 x6 x8 x8 d1 d3 d4 d4 d6 d6 d8 d8 d10 d10"
H1 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d5 d6 x9 d9"  # waits x9 / d9, 18 息
H2 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x5 x6 x7 d5 d6 d7 x8 x10"  # waits x9, 18 息


def dump(state: object) -> str:
    return json.dumps(RULESET.state_to_json(state), sort_keys=True)  # type: ignore[arg-type]


def refused(state: object, seat: int, action: dict, code: ErrorCode) -> IllegalAction:
    before = dump(state)
    with pytest.raises(IllegalAction) as info:
        RULESET.apply(state, seat, action)  # type: ignore[arg-type]
    assert info.value.code == code, info.value
    assert dump(state) == before
    return info.value


def ways(hand_text: str, card: str) -> set[tuple[tuple[str, ...], ...]]:
    out = set()
    for way in chi_options(counts_of(parse_cards(hand_text.split())), parse_card(card)):
        names = [tuple(_name(c) for c in g) for g in way]
        out.add((names[0], *sorted(names[1:])))
    return out


def _name(card: int) -> str:
    from games.rules.paohuzi.cards import card_name

    return card_name(card)


# -- 比牌 -------------------------------------------------------------------------------------


def test_bi_example_2() -> None:
    """003 比牌 例 2: 一張小1，兩張小2，兩張小3，一張小4，兩張大2, taking a 小2."""
    got = ways("x1 x2 x2 x3 x3 x4 d2 d2 x9 d9", "x2")
    with_d2d2 = {w for w in got if w[0] == ("x2", "d2", "d2")}
    assert with_d2d2 == {(("x2", "d2", "d2"), *sorted([("x1", "x2", "x3"), ("x2", "x3", "x4")]))}
    with_x1x3 = {w for w in got if w[0] == ("x1", "x2", "x3")}
    assert with_x1x3 == {
        (("x1", "x2", "x3"), ("x2", "x2", "d2")),
        (("x1", "x2", "x3"), *sorted([("x2", "x3", "x4"), ("x2", "d2", "d2")])),
    }
    # every way lays out all three 小2 (the taken one and both held)
    assert all(sum(g.count("x2") for g in w) == 3 for w in got)


def test_bi_example_1_and_chi_refused_without_bi() -> None:
    """003 比牌 例 1: 用二、三吃一 with a 一 in hand: the 一 must go out too, or no 吃."""
    got = ways("x1 x2 x3 d1 d1 x9", "x1")
    assert (("x1", "x2", "x3"), ("x1", "d1", "d1")) in got
    assert all(sum(g.count("x1") for g in w) == 2 for w in got)
    assert ways("x1 x2 x3 x9 d6", "x1") == set()  # the held 一 cannot be 比'd: no 吃 at all
    assert ways("x2 x3 x9 d6", "x1") == {(("x1", "x2", "x3"),)}


def test_chi_with_bi_through_the_engine_and_bad_chi() -> None:
    """A 吃 through the engine must lay out the forced 比牌 (every held card of that kind): a 吃
    without the 比 is ILLEGAL, with cards not held NOT_HELD, a short group MALFORMED, none
    changing the state; the full 吃 + two 比 in any order is laid down."""
    hands = {0: "x2 x9 d9", 1: "x1 x2 x2 x3 x3 x4 d2 d2 x6 x6 x8 x8 d5 d5 d6 d8 d8 d9 x10 x10"}
    state = deal(Config(), hands, "d10", "x2")
    act(state, 0, {"type": "discard", "card": "x2"})
    legal = RULESET.legal_actions(state, 1)
    assert {"type": "peng"} in legal
    view = RULESET.view(state, 1)
    chis = view["claim_options"]["chi"]
    assert {"chi": ["x2", "d2", "d2"], "bi": [["x1", "x2", "x3"], ["x2", "x3", "x4"]]} in [
        {"chi": c["chi"], "bi": c["bi"]} for c in chis
    ]
    # a 吃 without the forced 比, or with cards not held, changes nothing
    err = refused(state, 1, {"type": "chi", "groups": [["x1", "x2", "x3"]]}, ErrorCode.ILLEGAL)
    assert "比" in err.message
    refused(
        state,
        1,
        {"type": "chi", "groups": [["x2", "x7", "x10"], ["x2", "x2", "d2"]]},
        ErrorCode.NOT_HELD,
    )
    refused(state, 1, {"type": "chi", "groups": [["x1", "x2"]]}, ErrorCode.MALFORMED)
    # the two 比 in either order
    act(
        state,
        1,
        {"type": "chi", "groups": [["d2", "x2", "d2"], ["x2", "x3", "x4"], ["x1", "x2", "x3"]]},
    )
    assert melds(state, 1) == [("chi", "x2 d2 d2"), ("bi", "x1 x2 x3"), ("bi", "x2 x3 x4")]
    assert "x2" not in hand(state, 1)
    assert state.phase == "discard" and state.turn == 1


# -- 臭牌 -------------------------------------------------------------------------------------


def test_chou_example() -> None:
    """003 臭牌 例: 一、二、二、三、貳; 上家打出二, not taken: never 吃/碰 二 again; a drawn 二
    must be 臭偎 (one card shown)."""
    hands = {0: "x2 x9 d9", 1: "x1 x2 x2 x3 d2 x6 x6 x8 x8 d5 d5 d6 d8 d8 d9 x10 x10 d4 d4 x5"}
    state = deal(Config(), hands, "d10", "x2")
    act(state, 0, {"type": "discard", "card": "x2"})
    assert {"type": "peng"} in RULESET.legal_actions(state, 1)
    act(state, 1, {"type": "pass"})
    pass_others(state)
    assert state.chou[1] == [parse_card("x2")]
    # seat 1 now draws the last 二 itself: 臭偎, shown
    assert ("chouwei", "x2 x2 x2") in melds(state, 1)
    assert state.melds[1][-1]["open"] is True
    other_view = RULESET.view(state, 2)["seats"][1]["melds"]
    assert other_view[-1]["cards"] == ["x2", "x2", "x2"]


def test_chi_lost_to_peng_is_not_chou_and_lower_priority() -> None:
    """A 吃 that loses to another seat's 碰 waits for the 碰 (higher priority), the 碰 is laid
    down, and the lost 吃 does not make the card 臭 for that seat (seed 003 特殊 1)."""
    hands = {
        0: "x2 x9 d9",
        1: "x1 x3 x6 x6 x8 x8 d5 d5 d6 d8 d8 d9 x10 x10 d4 d4 x5 d1 d1 x4",
        2: "x2 x2 x5 x7 x9 d2 d3 d5 d6 d7 d9 x10 d10 d10 x4 x6 d1 d3 d7 x7",
    }
    state = deal(Config(), hands, "d4", "x2")
    act(state, 0, {"type": "discard", "card": "x2"})
    assert RULESET.to_act(state) == {1, 2}
    act(state, 1, {"type": "chi", "groups": [["x1", "x2", "x3"]]})
    assert state.phase == "claim"  # the 碰 outranks: wait for seat 2
    act(state, 2, {"type": "peng"})
    assert ("peng", "x2 x2 x2") in melds(state, 2)
    assert state.chou[1] == []  # 003 特殊 1: a 吃 lost to a 碰 is not 臭
    assert state.turn == 2 and state.phase == "discard"


def test_claim_after_window_or_with_lower_priority() -> None:
    """Once a 碰 is taken, a lower-priority 吃 is refused with LOWER_PRIORITY, a claim on the
    closed window with WINDOW_CLOSED, an out-of-turn discard with NOT_YOUR_TURN; no 臭 recorded."""
    hands = {
        0: "x2 x9 d9",
        1: "x1 x3 x6 x6 x8 x8 d5 d5 d6 d8 d8 d9 x10 x10 d4 d4 x5 d1 d1 x4",
        2: "x2 x2 x5 x7 x9 d2 d3 d5 d6 d7 d9 x10 d10 d10 x4 x6 d1 d3 d7 x7",
    }
    state = deal(Config(), hands, "d4", "x2")
    act(state, 0, {"type": "discard", "card": "x2"})
    act(state, 2, {"type": "peng"})  # decides first: the 吃 of seat 1 cannot win any more
    assert state.turn == 2 and state.phase == "discard"
    refused(state, 1, {"type": "chi", "groups": [["x1", "x2", "x3"]]}, ErrorCode.LOWER_PRIORITY)
    refused(state, 0, {"type": "peng"}, ErrorCode.WINDOW_CLOSED)
    refused(state, 1, {"type": "discard", "card": "x1"}, ErrorCode.NOT_YOUR_TURN)
    assert state.chou[1] == []


def test_nobody_takes_his_own_discard_kind() -> None:
    """003: 任何人也不能吃或者碰自己曾經打出過的牌 — the dealer later draws 二 himself."""
    hands = {0: "x2 x2 x9 d9 x1 x3 d8 d8", 1: "x6 x6 x8 x8 d5 d5 d6 d9 x10 x10 d4 d4 x5 d1"}
    state = deal(Config(), hands, "d4", "d8 d8 x2")
    act(state, 0, {"type": "discard", "card": "x2"})
    seen = False
    for _ in range(20):
        w = state.window
        if w is not None and w["card"] == parse_card("x2") and w["from"] == 0:
            seen = True
            assert not w["options"][0] or all(o["type"] != "chi" for o in w["options"][0])
            break
        if state.phase == "discard":
            act(state, state.turn, RULESET.legal_actions(state, state.turn)[-1])
        else:
            pass_others(state)
    assert seen or parse_card("x2") in state.piles[0]
    assert parse_card("x2") in state.discarded[0]


# -- 提 and 跑 -------------------------------------------------------------------------------


def test_ti_at_the_deal_and_follow_on() -> None:
    """提 ①: four in hand are laid out after the 亮張; a 閑家 with a 提 needs no discard
    after his first intake only if he had two (steady count)."""
    hands = {0: "x5 x5 x5 x5 x9", 1: "d7 d7 d7 d7 x1"}
    state = deal(Config(), hands, "d1", "")
    assert melds(state, 0) == [("ti", "x5 x5 x5 x5")]
    assert melds(state, 1) == [("ti", "d7 d7 d7 d7")]
    assert state.phase == "discard" and state.turn == 0  # the dealer holds 21 with one 提


def test_dealer_second_ti_by_liang_means_no_discard() -> None:
    """003: 庄家原來有一門提牌，亮張構成第二門提牌，則亮張後庄家不用打牌。"""
    hands = {0: "x5 x5 x5 x5 d3 d3 d3 x9"}
    state = deal(Config(), hands, "d3", "")
    assert [m[0] for m in melds(state, 0)] == ["ti", "ti"]
    assert state.turn == 1  # seat 1 drew: no discard by the dealer


def test_ti_from_kan_and_from_wei_on_own_draw() -> None:
    """提 ② (坎 + own draw) and 提 ③ (偎 + own draw); the drawn card is not shown, the 提 is.
    The first 提 is followed by a discard; a second is 八塊 (no discard)."""
    hands = {1: "d6 d6 d6 x3 x3 x9 x10", 0: "x1 d9"}
    state = deal(Config(), hands, "x2", "d6 x4 x3 x5 x3")
    act(state, 0, {"type": "discard", "card": "x1"})
    pass_others(state)
    # seat 1 drew d6 onto his 坎: 提 ②, then discards
    assert ("ti", "d6 d6 d6 d6") in melds(state, 1)
    assert state.phase == "discard" and state.turn == 1
    assert RULESET.view(state, 2)["current"] is None  # the drawn card was not shown
    act(state, 1, {"type": "discard", "card": "x9"})
    pass_others(state)
    # seat 2 draws x4, nobody takes it; seat 0 draws x3 (seat 1 holds x3 x3: 碰 possible)
    while state.phase == "claim" and state.window and state.window["card"] != parse_card("x3"):
        pass_others(state)
    assert state.window is not None and state.window["card"] == parse_card("x3")


def test_wei_then_ti_third_way() -> None:
    """偎 on own draw (hidden), then 提 ③ on a later own draw."""
    hands = {1: "d6 d6 x9 x9 x9 x10 d1 d2", 0: "x1 d9 x8 x8"}
    state = deal(Config(), hands, "x2", "d6 x4 x5 d6 x7 x7")
    act(state, 0, {"type": "discard", "card": "x1"})
    pass_others(state)
    assert ("wei", "d6 d6 d6") in melds(state, 1)
    assert RULESET.view(state, 0)["seats"][1]["melds"][0]["cards"] is None  # 偎 is face down
    assert state.melds[1][0]["open"] is False
    discard = next(a for a in RULESET.legal_actions(state, 1) if a["card"] == "d1")
    act(state, 1, discard)
    while not (state.turn == 1 and state.phase == "discard") and state.phase != "over":
        if state.phase == "discard":
            act(state, state.turn, RULESET.legal_actions(state, state.turn)[0])
        else:
            pass_others(state)
        if any(m["t"] == "ti" for m in state.melds[1]):
            break
    assert ("ti", "d6 d6 d6 d6") in melds(state, 1)


def test_pao_first_way_on_discard_and_not_peng_on_discard() -> None:
    """跑 ①: a 坎 and another's discard. A 碰 on the table is not run by a discard."""
    hands = {0: "d8 x9", 1: "d8 d8 d8 x1 x1", 2: "x9 x9 d1"}
    state = deal(Config(), hands, "x2", "x4")
    act(state, 0, {"type": "discard", "card": "d8"})
    assert ("pao", "d8 d8 d8 d8") in melds(state, 1)  # forced, applied by the engine
    assert state.phase == "discard" and state.turn == 1  # a first 跑 is followed by a discard


def _run_until(state, pred, limit: int = 60) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        if pred(state) or state.phase == "over":
            return
        if state.phase == "discard":
            act(state, state.turn, RULESET.legal_actions(state, state.turn)[-1])
        else:
            pass_others(state)


def test_pao_second_way_peng_and_draw() -> None:
    """跑 ②: a 碰 on the table runs when anyone draws the fourth card."""
    hands = {0: "x9 d9 x1", 1: "x9 x9 d5 d5 d1", 2: "x2 x3"}
    state = deal(Config(), hands, "x4", "x9")
    act(state, 0, {"type": "discard", "card": "x9"})
    act(state, 1, {"type": "peng"})
    assert ("peng", "x9 x9 x9") in melds(state, 1)
    act(state, 1, {"type": "discard", "card": "d1"})
    pass_others(state)
    # seat 2 drew the last x9: seat 1's 碰 became a 跑, and seat 1 discards (his first 跑)
    assert ("pao", "x9 x9 x9 x9") in melds(state, 1)
    assert state.phase == "discard" and state.turn == 1


def test_a_discard_never_runs_a_peng() -> None:
    """A fourth card discarded by another seat never turns a 碰 into a 跑: the 碰 stays three
    cards and the card goes to the discarder's pile."""
    hands = {0: "x9 d9 x1", 1: "x9 x9 d5 d5 d1", 2: "x9 x2 x3"}
    state = deal(Config(), hands, "x4", "")
    act(state, 0, {"type": "discard", "card": "x9"})
    act(state, 1, {"type": "peng"})
    state.phase, state.turn = "discard", 2  # let seat 2 discard the fourth x9
    act(state, 2, {"type": "discard", "card": "x9"})
    assert ("peng", "x9 x9 x9") in melds(state, 1)
    assert state.window is None or state.window["card"] != parse_card("x9")
    assert parse_card("x9") in state.piles[2]


def test_pao_third_way_wei_and_other_draw() -> None:
    """偎 on one's own draw (face down), then 跑 ③ when another draws the fourth."""
    hands = {0: "x1 d9", 1: "d6 d6 x9 x10 d1 d2"}
    state = deal(Config(), hands, "x2", "d6 d6")
    act(state, 0, {"type": "discard", "card": "x1"})
    pass_others(state)
    assert ("wei", "d6 d6 d6") in melds(state, 1) and state.melds[1][0]["open"] is False
    assert RULESET.view(state, 0)["seats"][1]["melds"][0]["cards"] is None
    assert RULESET.view(state, 0)["seats"][1]["melds"][0]["huxi"] is None
    act(state, 1, {"type": "discard", "card": "x9"})
    pass_others(state)
    assert ("pao", "d6 d6 d6 d6") in melds(state, 1)
    assert state.phase == "discard" and state.turn == 1


def test_baikuai_second_ti_no_discard() -> None:
    """八塊: a 閑家 with a 提 from the deal makes a second 提: he does not discard."""
    hands = {0: "x1 d9", 1: "x5 x5 x5 x5 d6 d6 d6 x9 x10"}
    state = deal(Config(), hands, "x2", "d6")
    act(state, 0, {"type": "discard", "card": "x1"})
    pass_others(state)
    assert [m[0] for m in melds(state, 1)] == ["ti", "ti"]
    assert not (state.phase == "discard" and state.turn == 1)
    assert state.turn == 2  # seat 2 drew next


def test_baikuai_pao_after_ti() -> None:
    """八塊 / 重跑: a 跑 after a 提 is not followed by a discard."""
    hands = {0: "d6 x1 d9", 1: "x5 x5 x5 x5 d6 d6 d6 x9 x10"}
    state = deal(Config(), hands, "x2", "x8")
    act(state, 0, {"type": "discard", "card": "d6"})
    assert [m[0] for m in melds(state, 1)] == ["ti", "pao"]
    assert state.turn == 2 and not (state.phase == "discard" and state.turn == 1)


def test_non_dealer_with_two_ti_skips_first_discard() -> None:
    """003: 有兩門提牌 … 第一次進牌後不用出牌."""
    hands = {0: "x1 d9", 1: "x5 x5 x5 x5 d6 d6 d6 d6 x2 x3"}
    state = deal(Config(), hands, "x8", "")
    act(state, 0, {"type": "discard", "card": "x1"})
    assert RULESET.to_act(state) == {1}
    chi = next(a for a in RULESET.legal_actions(state, 1) if a["type"] == "chi")
    act(state, 1, chi)
    assert not (state.phase == "discard" and state.turn == 1)
    assert state.turn == 2


# -- hu and its priorities ----------------------------------------------------------------


def _to_first_draw(wall: str) -> object:
    state = deal(Config(), {0: H0, 1: H1, 2: H2}, "d5", wall)
    act(state, 0, {"type": "discard", "card": "d1"})
    pass_others(state)
    return state


def test_own_draw_hu_first_and_zimo_scoring() -> None:
    """On his own draw the drawer decides 胡 first (another seat's hu waits); 自摸 scoring: 18 息
    → 底數 (18 − 12) ÷ 3 + 1 = 3, 平胡 ×1, each other seat pays 9, zero-sum, 絞 line shown."""
    state = _to_first_draw("x9")
    assert RULESET.to_act(state) == {1, 2}
    act(state, 2, {"type": "hu"})
    assert state.phase == "claim"  # the drawer decides first
    act(state, 1, {"type": "hu"})
    assert state.phase == "over" and state.hu["seat"] == 1
    result = RULESET.result(state)
    # 18 + 絞 0 … the 絞 x9 x9 d9 → 18 息; 自摸: (18−12)÷3 + 1 = 3; 平胡 (5 red? count) …
    hu = state.hu
    assert hu["huxi"] == 18 and hu["self_drawn"] and hu["base_value"] == 3
    f = hu["fan"]
    assert f == 1  # 8 red, 10 大, 11 小: 平胡
    assert result.scores == (-3 * f * 3, 2 * 3 * f * 3, -3 * f * 3)
    assert sum(result.scores) == 0
    assert result.extra["payments"] == [
        {"from": 0, "to": 1, "points": 9 * f},
        {"from": 2, "to": 1, "points": 9 * f},
    ]
    labels = [line.label for line in result.lines]
    assert any(label.startswith("絞") for label in labels)


def test_other_seat_wins_when_drawer_passes_then_chou_hu() -> None:
    """When every seat that could 胡 on a drawn card passes, the card is recorded as 臭胡 for
    each of them with their current 胡息."""
    state = _to_first_draw("x9")
    act(state, 1, {"type": "pass"})
    assert state.phase == "claim"
    act(state, 2, {"type": "pass"})
    # both passed: 臭胡 recorded for both with their current 胡息
    assert [parse_card("x9"), 0] in state.chou_hu[1] and [parse_card("x9"), 0] in state.chou_hu[2]


def test_xiajia_first_when_dealer_draws() -> None:
    """On a card the dealer draws and shows, the 下家 decides first: the 上家's hu waits until
    the 下家 passes, then wins (not 自摸) with a positive, zero-sum score."""
    state = _to_first_draw("d8 d8 x9")
    while state.phase == "claim" and (
        state.window is None or state.window["card"] != parse_card("x9")
    ):
        pass_others(state)
    assert state.window["from"] == 0 and RULESET.to_act(state) == {1, 2}
    act(state, 2, {"type": "hu"})
    assert state.phase == "claim"  # 下家 (seat 1) first
    act(state, 1, {"type": "pass"})
    assert state.phase == "over" and state.hu["seat"] == 2 and not state.hu["self_drawn"]
    result = RULESET.result(state)
    assert result.scores[2] > 0 and sum(result.scores) == 0


def test_chou_hu_refused_until_huxi_changes() -> None:
    """003 臭胡: a passed hu is not offered again on that card until the 胡息 changes."""
    state = _to_first_draw("x9")
    x9 = parse_card("x9")
    act(state, 1, {"type": "pass"})
    act(state, 2, {"type": "pass"})
    assert [x9, 0] in state.chou_hu[1]
    assert RULESET._hu_on(state, 1, x9, "draw", 1) is None
    state.melds[1].append({"t": "peng", "c": [parse_card("d8")] * 3, "open": True})
    assert RULESET._hu_on(state, 1, x9, "draw", 1, config=Config(min_huxi=0)) is not None


def test_no_hu_on_a_discard_in_hunan() -> None:
    """In the 湖南 rules nobody may 胡 on a discarded (打出) card: the hu is refused with
    ILLEGAL naming the discard and changes nothing."""
    hands = {0: H0.replace("x8 x8", "x9 x8"), 1: H1, 2: H2.replace("x10 d10", "x8 d10")}
    state = deal(Config(), {0: H0, 1: H1, 2: H2}, "d5", "x9")
    act(state, 0, {"type": "discard", "card": "d1"})
    # seat 1 holds a 吃 option on d1 only; a hu on the discard is refused
    err = refused(state, 1, {"type": "hu"}, ErrorCode.ILLEGAL)
    assert "打出" in err.message or "discard" in err.message
    del hands


def test_po_pao_hu() -> None:
    """破跑胡: seat 2 holds a 坎 of x9 and wins on the drawn x9 instead of running it."""
    h2 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x9 x9 x9 d5 d6 d7 x8 x10"
    h1 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d8 d6 x5 d9"
    h0 = "x1 x1 x3 x3 x4 x4 x6 x6 x8 x8 d1 d3 d4 d4 d6 d9 d8 d8 d10 d10"
    state = deal(Config(), {0: h0, 1: h1, 2: h2}, "d5", "x9")
    act(state, 0, {"type": "discard", "card": "d1"})
    pass_others(state)
    assert state.window["card"] == parse_card("x9")
    assert RULESET.legal_actions(state, 2) == [{"type": "hu"}, {"type": "pao"}]
    act(state, 2, {"type": "hu"})
    assert state.hu["seat"] == 2 and state.hu["join"] == "free"
    assert ["kan", [8, 8, 8]] in state.hu["groups"]


def test_pao_applied_when_nobody_hus() -> None:
    """A drawn card matching a seat's 坎 becomes a 跑 (four x9) when nobody wins on it."""
    h2 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x9 x9 x9 d5 d6 d7 x8 x10"
    h1 = "x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d8 d6 x5 d9"
    h0 = "x1 x1 x3 x3 x4 x4 x6 x6 x8 x8 d1 d3 d4 d4 d6 d9 d8 d8 d10 d10"
    state = deal(Config(), {0: h0, 1: h1, 2: h2}, "d5", "x9")
    act(state, 0, {"type": "discard", "card": "d1"})
    pass_others(state)
    act(state, 2, {"type": "pao"})
    assert ("pao", "x9 x9 x9 x9") in melds(state, 2)


# -- 天胡 ---------------------------------------------------------------------------------------


def test_forced_tianhu_three_ti_dealer_first() -> None:
    """A dealer dealt three 提 wins a forced 天胡 at once: 底數 (息 × 2 − 12) ÷ 3 + 1 for the
    dealer's 自摸, zero-sum."""
    hands = {0: "x1 x1 x1 x1 x2 x2 x2 x2 x3 x3 x3 x3", 1: "d1 d1 d1 d1 d2 d2 d2 d2 d3 d3 d3 d3"}
    state = deal(Config(), hands, "x9", "")
    assert state.phase == "over" and state.hu["seat"] == 0 and state.hu["tianhu"]
    # 息: 3 提 (27) → 天胡 底數 (27×2 − 12) ÷ 3 = 14, +1 自摸 (the dealer)
    assert state.hu["huxi"] >= 27
    assert state.hu["base_value"] == (state.hu["huxi"] * 2 - 12) // 3 + 1
    assert sum(RULESET.result(state).scores) == 0


def test_forced_tianhu_five_kan_for_xiajia() -> None:
    """A 閑家 dealt five 坎 wins a forced 天胡 at the deal (not 自摸), with at least the 息 of
    his 坎."""
    hands = {1: "x4 x4 x4 x5 x5 x5 x6 x6 x6 d4 d4 d4 d5 d5 d5"}
    state = deal(Config(), hands, "x9", "")
    assert state.phase == "over" and state.hu["seat"] == 1 and not state.hu["self_drawn"]
    assert state.hu["huxi"] >= 3 * 3 + 6 * 2


def test_chosen_tianhu_on_liang() -> None:
    """天胡 ②: seat 1 may win on the 亮張 (chosen; the 15 息 minimum holds)."""
    state = deal(Config(), {0: H0, 1: H1, 2: H2.replace("x8", "x4")}, "x9", "")
    assert RULESET.to_act(state) == {1}
    assert RULESET.legal_actions(state, 1) == [{"type": "hu"}, {"type": "pass"}]
    act(state, 1, {"type": "hu"})
    hu = state.hu
    assert hu["tianhu"] and hu["huxi"] == 18 and hu["base_value"] == (18 * 2 - 12) // 3
    assert RULESET.result(state).scores[1] > 0


def test_liang_passed_then_dealer_discards() -> None:
    """When the seat that could win on the dealer's 亮張 passes, play goes on with the dealer's
    discard."""
    state = deal(Config(), {0: H0, 1: H1, 2: H2.replace("x8", "x4")}, "x9", "")
    act(state, 1, {"type": "pass"})
    assert state.phase == "discard" and state.turn == 0


# -- bad input ------------------------------------------------------------------------------


def test_discard_of_kan_or_ti_card_refused() -> None:
    """A card of a 坎 may not be discarded (ILLEGAL), nor a card of a 提 (no longer in hand,
    NOT_HELD), a bad card name (MALFORMED), out of turn (NOT_YOUR_TURN), nor a hu with no
    window (WINDOW_CLOSED); each refusal changes nothing."""
    hands = {0: "x5 x5 x5 x5 d3 d3 d3 x9"}
    state = deal(Config(), hands, "x2", "")
    assert state.phase == "discard"
    refused(state, 0, {"type": "discard", "card": "d3"}, ErrorCode.ILLEGAL)
    refused(state, 0, {"type": "discard", "card": "x5"}, ErrorCode.NOT_HELD)
    refused(state, 0, {"type": "discard", "card": "x0"}, ErrorCode.MALFORMED)
    refused(state, 1, {"type": "discard", "card": "x9"}, ErrorCode.NOT_YOUR_TURN)
    refused(state, 0, {"type": "hu"}, ErrorCode.WINDOW_CLOSED)


def test_below_fifteen_refused() -> None:
    """A hand under 15 胡息 is not offered hu and the hu is refused with ILLEGAL naming 15."""
    low = "x1 x2 x3 d3 d4 d5 x2 x7 x10 d2 d7 d10 x4 x5 x6 d4 d5 d6 x9 d9"  # 12 息
    state = deal(Config(), {0: H0, 1: low, 2: H2}, "d5", "x9")
    act(state, 0, {"type": "discard", "card": "d1"})
    if 1 in RULESET.to_act(state):
        act(state, 1, {"type": "pass"})
    pass_others(state, keep={1})
    assert state.window is not None and state.window["card"] == parse_card("x9")
    assert 1 in RULESET.to_act(state) and {"type": "hu"} not in RULESET.legal_actions(state, 1)
    err = refused(state, 1, {"type": "hu"}, ErrorCode.ILLEGAL)
    assert "15" in err.message
