"""The turn and claim flow: priorities, 一炮多響, 搶槓, bad input, views."""

from __future__ import annotations

import pytest

from games.engine.errors import ErrorCode, IllegalAction
from games.rules.mahjong.tests.helpers import dump, huanle, make_state, peng

# seat 0 discards W5: seat 1 may 吃 (W3 W4), seat 2 may 碰, seat 3 may 胡 (單釣 W5)
CLAIM_HANDS = [
    "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1 W5",
    "W3 W4 T7 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
    "W5 W5 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2",
    "T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W5",
]


def claim_state(**params):
    ruleset = huanle()
    state = make_state(CLAIM_HANDS, wild="J3", **params)
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    return ruleset, state


def test_claim_window_tells_each_seat_exactly_its_claims() -> None:
    """All claimants act at once, each with its own options and pass."""
    ruleset, state = claim_state()
    assert state.phase == "claim"
    assert ruleset.to_act(state) == {1, 2, 3}
    assert ruleset.legal_actions(state, 1) == [
        {"type": "chi", "tiles": ["W3", "W4"]},
        {"type": "pass"},
    ]
    assert ruleset.legal_actions(state, 2) == [{"type": "peng"}, {"type": "pass"}]
    assert ruleset.legal_actions(state, 3) == [{"type": "hu"}, {"type": "pass"}]
    view = ruleset.view(state, 1)
    assert view["claim"] == {"tile": "W5", "from": 0, "kind": "discard"}
    assert view["legal_actions"] == ruleset.legal_actions(state, 1)


def test_peng_beats_chi_and_hu_beats_peng() -> None:
    """吃 waits for the 碰 seat; 碰 waits for the 胡 seat; a pass by 胡 lets 碰 through."""
    ruleset, state = claim_state()
    ruleset.apply(state, 1, {"type": "chi", "tiles": ["W4", "W3"]})
    assert state.phase == "claim" and ruleset.to_act(state) == {2, 3}
    ruleset.apply(state, 2, {"type": "peng"})
    assert state.phase == "claim" and ruleset.to_act(state) == {3}
    ruleset.apply(state, 3, {"type": "pass"})
    assert state.phase == "turn" and state.current == 2 and state.must_discard
    assert state.melds[2] == [peng("W5", 0)]
    assert state.discards[0] == []
    assert ruleset.legal_actions(state, 2)[-1]["type"] == "discard"
    assert all(a["type"] == "discard" for a in ruleset.legal_actions(state, 2))


def test_hu_resolves_at_once() -> None:
    """A 胡 that nobody can outrank ends the hand at once; the discarder pays."""
    ruleset, state = claim_state()
    ruleset.apply(state, 3, {"type": "hu"})
    assert ruleset.is_over(state)
    result = ruleset.result(state)
    assert result.winners == (3,)
    assert [p["from"] for p in result.extra["payments"]] == [0]
    assert sum(result.scores) == 0


def test_claim_out_of_priority_is_refused() -> None:
    """After a 碰 is made, the 吃 seat may only pass; a 吃 is lower_priority."""
    ruleset, state = claim_state()
    ruleset.apply(state, 2, {"type": "peng"})
    assert ruleset.legal_actions(state, 1) == [{"type": "pass"}]
    before = dump(state)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 1, {"type": "chi", "tiles": ["W3", "W4"]})
    assert error.value.code == ErrorCode.LOWER_PRIORITY
    assert dump(state) == before


def test_chi_only_from_the_left() -> None:
    """Seat 2 cannot 吃 seat 0's discard (seat 0 is not its left)."""
    ruleset, state = claim_state()
    before = dump(state)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 2, {"type": "chi", "tiles": ["W4", "W6"]})
    assert error.value.code == ErrorCode.NOT_ALLOWED
    assert "left" in error.value.message
    assert dump(state) == before


def test_claim_after_the_window() -> None:
    """Once the window resolved, a 碰 is window_closed; a claim by a non-claimant not_your_turn."""
    ruleset, state = claim_state()
    ruleset.apply(state, 2, {"type": "peng"})
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 0, {"type": "peng"})
    assert error.value.code == ErrorCode.NOT_YOUR_TURN
    ruleset.apply(state, 3, {"type": "pass"})
    before = dump(state)
    for seat in (1, 3):
        with pytest.raises(IllegalAction) as error:
            ruleset.apply(state, seat, {"type": "pass"})
        assert error.value.code == ErrorCode.WINDOW_CLOSED
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 2, {"type": "chi", "tiles": ["W3", "W4"]})
    assert error.value.code == ErrorCode.WINDOW_CLOSED
    assert dump(state) == before


def test_caishen_never_in_chi_peng_gang() -> None:
    """With W5 as 財神: no 碰 / 吃 offered on it, and claiming one is not_allowed."""
    ruleset = huanle()
    state = make_state(CLAIM_HANDS, wild="W5")
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    # seat 3 still wins (a discarded 財神 is a natural tile for the claimer)
    assert state.phase == "claim" and ruleset.to_act(state) == {3}
    before = dump(state)
    for seat, action in ((2, {"type": "peng"}), (1, {"type": "chi", "tiles": ["W3", "W4"]})):
        with pytest.raises(IllegalAction) as error:
            ruleset.apply(state, seat, action)
        assert error.value.code in (ErrorCode.NOT_ALLOWED, ErrorCode.NOT_YOUR_TURN)
    assert dump(state) == before
    # a 吃 using a 財神 from the hand: W4 wild, discard W5 by seat 0 → no 吃 W3 W4 offered
    state = make_state(CLAIM_HANDS, wild="W4")
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    assert {"type": "chi", "tiles": ["W3", "W4"]} not in ruleset.legal_actions(state, 1)
    # 暗槓 of 財神 kind: refused
    hands = list(CLAIM_HANDS)
    hands[0] = "J3 J3 J3 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1 J3"
    state = make_state(hands, wild="J3")
    assert {"type": "angang", "tile": "J3"} not in ruleset.legal_actions(state, 0)
    before = dump(state)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 0, {"type": "angang", "tile": "J3"})
    assert error.value.code == ErrorCode.NOT_ALLOWED
    assert dump(state) == before


def test_caishen_claim_is_refused_as_not_allowed() -> None:
    """A seat holding two W5 cannot 碰 a discarded 財神 W5 even when also offered 胡."""
    ruleset = huanle()
    hands = list(CLAIM_HANDS)
    hands[3] = "T1 T2 T3 T4 T5 T6 B7 B8 B9 W5 W5 F1 F1"  # 胡 on W5 or F1, and two W5
    hands[2] = "W6 W6 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2"
    state = make_state(hands, wild="W5")
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    assert ruleset.legal_actions(state, 3) == [{"type": "hu"}, {"type": "pass"}]
    before = dump(state)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 3, {"type": "peng"})
    assert error.value.code == ErrorCode.NOT_ALLOWED
    assert dump(state) == before


def test_discard_not_held_and_bad_wins() -> None:
    """Discarding a tile not held; declaring a win that is not one."""
    ruleset = huanle()
    state = make_state(CLAIM_HANDS, wild="J3")
    before = dump(state)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 0, {"type": "discard", "tile": "B1"})
    assert error.value.code == ErrorCode.NOT_HELD
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 0, {"type": "discard", "tile": "X9"})
    assert error.value.code == ErrorCode.MALFORMED
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 0, {"type": "hu"})
    assert error.value.code == ErrorCode.ILLEGAL
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 0, {"type": "peng"})
    assert error.value.code == ErrorCode.WINDOW_CLOSED
    assert dump(state) == before
    # a 胡 claim on a discard that does not complete the hand
    ruleset, state = claim_state()
    before = dump(state)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(state, 2, {"type": "hu"})
    assert error.value.code == ErrorCode.ILLEGAL
    assert dump(state) == before


def test_below_the_room_minimum() -> None:
    """In an 8番場 a hand under 8 fans cannot win on a discard; in a 大眾場 it can."""
    ruleset = huanle()
    hands = list(CLAIM_HANDS)
    hands[3] = "T1 T2 T3 T5 T6 T7 B2 B2 B2 W6 W7 F2 F2"  # 胡 on W5: 門前清 + 無財神 …
    small = make_state(hands, wild="J3", room_kind="bafan")
    ruleset.apply(small, 0, {"type": "discard", "tile": "W5"})
    assert {"type": "hu"} not in ruleset.legal_actions(small, 3)
    ev = ruleset.evaluate_win(small, ruleset.win_context(small, 3))
    assert ev is not None and not ev["ok"] and ev["gb"] + ev["wucaishen"] < 8
    before = dump(small)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(small, 3, {"type": "hu"})
    assert error.value.code in (ErrorCode.NOT_ALLOWED, ErrorCode.NOT_YOUR_TURN)
    assert dump(small) == before
    # seat 3 is not even asked (nothing else to claim); a self-drawn try is refused too
    hands[0] = "T1 T2 T3 T5 T6 T7 B2 B2 B2 W6 W7 F2 F2 W5"
    hands[3] = "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1"
    hands[2] = "W3 W3 B4 B4 T9 T9 W9 W9 F3 F3 F4 J1 J2"
    own = make_state(
        hands,
        wild="J3",
        room_kind="bafan",
        melds=[
            [{"kind": "chi", "tiles": ["B7", "B8", "B9"], "from": 3, "claimed": "B7"}],
            [],
            [],
            [],
        ],
    )
    own.hands[0] = "T1 T2 T3 T5 T6 T7 W6 W7 F2 F2 W5".split()
    own.drawn[0] = "W5"
    ev = ruleset.evaluate_win(own, ruleset.win_context(own, 0))
    assert ev is not None and not ev["ok"]
    assert {"type": "hu"} not in ruleset.legal_actions(own, 0)
    before = dump(own)
    with pytest.raises(IllegalAction) as error:
        ruleset.apply(own, 0, {"type": "hu"})
    assert error.value.code == ErrorCode.NOT_ALLOWED
    assert "minimum" in error.value.message
    assert dump(own) == before
    big = make_state(CLAIM_HANDS[:3] + ["T1 T2 T3 T5 T6 T7 B2 B2 B2 W6 W7 F2 F2"], wild="J3")
    ruleset.apply(big, 0, {"type": "discard", "tile": "W5"})
    assert {"type": "hu"} in ruleset.legal_actions(big, 3)


def multi_state(**params):
    ruleset = huanle()
    hands = [
        "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1 W5",
        "W5 B1 B2 B3 B4 B5 B6 T7 T8 T9 F2 F2 F2",
        "W5 T1 T1 T1 T2 T3 T4 B7 B8 B9 F3 F3 F3",
        "W2 W3 W7 W8 B1 B1 B2 B3 F4 F4 J1 J2 J3",
    ]
    state = make_state(hands, wild="J3", **params)
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    return ruleset, state


def test_one_discard_several_winners_with_multi_win() -> None:
    """一炮多響: both seats win, the discarder pays each."""
    ruleset, state = multi_state(multi_win=True)
    assert ruleset.to_act(state) == {1, 2}
    ruleset.apply(state, 2, {"type": "hu"})
    assert not ruleset.is_over(state)  # seat 1 may still win too
    ruleset.apply(state, 1, {"type": "hu"})
    result = ruleset.result(state)
    assert result.winners == (1, 2)
    assert {(p["from"], p["to"]) for p in result.extra["payments"]} == {(0, 1), (0, 2)}
    assert result.scores[0] == -(result.scores[1] + result.scores[2])


def test_without_multi_win_the_first_from_the_discarder_wins() -> None:
    """截和: seat 1 (first after the discarder) takes the win; seat 2's 胡 waits for seat 1."""
    ruleset, state = multi_state()
    ruleset.apply(state, 2, {"type": "hu"})
    assert ruleset.to_act(state) == {1}
    ruleset.apply(state, 1, {"type": "hu"})
    assert ruleset.result(state).winners == (1,)
    ruleset, state = multi_state()
    ruleset.apply(state, 2, {"type": "hu"})
    ruleset.apply(state, 1, {"type": "pass"})
    assert ruleset.result(state).winners == (2,)


def test_lou_hu_bars_a_passed_win_until_the_seat_draws() -> None:
    """漏胡 (core option): after passing a win, the seat is not offered 胡 on discards."""
    ruleset, state = multi_state(lou_hu=True)
    ruleset.apply(state, 1, {"type": "pass"})
    ruleset.apply(state, 2, {"type": "pass"})
    assert state.current == 1  # seat 1 drew, so its bar is lifted; seat 2's stays
    assert not state.passed_hu[1] and state.passed_hu[2]
    ruleset.apply(state, 1, {"type": "discard", "tile": "W5"})
    assert state.phase == "turn" and state.current == 2  # seat 2 was not offered 胡 again
    ruleset, state = multi_state()
    ruleset.apply(state, 1, {"type": "pass"})
    ruleset.apply(state, 2, {"type": "pass"})
    ruleset.apply(state, 1, {"type": "discard", "tile": "W5"})
    assert state.phase == "claim" and {"type": "hu"} in ruleset.legal_actions(state, 2)


def rob_state():
    ruleset = huanle()
    hands = [
        "T1 T2 T3 B4 B5 B6 F1 F1 J1 J1 W5",
        "W1 W2 W3 T7 T8 B1 B1 B2 B3 F2 F3 F4 J2",
        "W9 W9 B4 B4 T9 T9 W8 W8 F2 F3 F4 J2 J2",
        "W4 W6 T4 T5 T6 B1 B2 B3 B7 B8 B9 F4 F4",
    ]
    melds = [[peng("W5", 2)], [], [], []]
    state = make_state(hands, wild="J3", melds=melds)
    return ruleset, state


def test_rob_the_kong() -> None:
    """搶槓: a 加槓 opens a window where only 胡 is possible; the robber wins with 搶槓和."""
    ruleset, state = rob_state()
    assert {"type": "jiagang", "tile": "W5"} in ruleset.legal_actions(state, 0)
    ruleset.apply(state, 0, {"type": "jiagang", "tile": "W5"})
    assert state.phase == "robkong" and ruleset.to_act(state) == {3}
    assert ruleset.legal_actions(state, 3) == [{"type": "hu"}, {"type": "pass"}]
    with pytest.raises(IllegalAction):
        ruleset.apply(state, 3, {"type": "peng"})
    ruleset.apply(state, 3, {"type": "hu"})
    result = ruleset.result(state)
    assert result.winners == (3,)
    assert state.outcome["rob_kong"]
    names = [f["name"] for f in result.extra["fans"][0]["fans"]]
    assert "抢杠和" in names
    assert result.extra["payments"][0]["from"] == 0


def test_rob_the_kong_passed_completes_the_kong() -> None:
    """When nobody robs the kong (搶槓), the added kong (加槓) completes with four W5 and the
    player draws the replacement tile from the back of the wall."""
    ruleset, state = rob_state()
    back = state.wall[-1]
    ruleset.apply(state, 0, {"type": "jiagang", "tile": "W5"})
    ruleset.apply(state, 3, {"type": "pass"})
    assert state.melds[0][0]["kind"] == "jiagang" and state.melds[0][0]["tiles"] == ["W5"] * 4
    assert state.phase == "turn" and state.current == 0
    assert state.drawn[0] == back and state.after_kong


def test_view_hides_others_and_shows_the_table() -> None:
    """A seat sees its own tiles (drawn apart), counts for others, hints and the 財神."""
    ruleset = huanle()
    hands = list(CLAIM_HANDS)
    hands[0] = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 W9"
    state = make_state(hands, wild="J3")
    view = ruleset.view(state, 0)
    assert view["drawn"] == "W9" and len(view["hand"]) == 13
    assert view["players"][1]["hand"] is None and view["players"][1]["hand_count"] == 13
    assert view["wild"] == ["J3"] and view["variant"]["caishen"] == "J3"
    assert view["tenpai"]["W9"] == ["F1", "J1"]
    assert view["wall_count"] == len(state.wall)
    other = ruleset.view(state, 1)
    assert other["drawn"] is None and other["legal_actions"] == []
    assert "T1 T2" not in str(other["players"][3])
    assert ruleset.spectator_view(state)["hand"] is None


def test_pre_deal_hook_reorders_the_wall_and_records_its_chance() -> None:
    """A variant's ``pre_deal`` sees the seeded shuffle and returns the wall to deal from and the
    vars to keep; the deal follows it and a replay of the seed gives the same state."""
    from games.engine.chance import Chance
    from games.rules.mahjong.core import MahjongRuleset

    class Reversed(MahjongRuleset):
        game_id = "mahjong_test_reversed"

        def pre_deal(self, config, seed, wall, dealer):
            cut = Chance(seed, "cut").below(len(wall))
            return list(reversed(wall[cut:] + wall[:cut])), {"cut": cut}

    r = Reversed()
    config = r.config_from_params({"dealer": 2})
    state = r.new_game(config, "pre-deal", 4)
    wall = Chance("pre-deal", "deal").shuffled(r.wall_tiles(config))
    cut = state.vars["cut"]
    expected = list(reversed(wall[cut:] + wall[:cut]))
    # 13 each from the dealer on, then the dealer's 14th
    assert sorted(state.hands[2]) == sorted(expected[:13] + [expected[52]])
    assert state.drawn[2] == state.hands[2][-1] == expected[52]
    assert state.hands[3] == expected[13:26]
    assert state.wall == expected[53:]
    again = r.new_game(config, "pre-deal", 4)
    assert r.state_to_json(again) == r.state_to_json(state)
