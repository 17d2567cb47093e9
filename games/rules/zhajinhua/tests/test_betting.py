"""Betting flow of 歡樂三張: 2 and 6 players, caps, 比牌 (ties), all-in, bad input, 托管."""

from __future__ import annotations

from games.engine.errors import ErrorCode
from games.rules.zhajinhua import RULESET, ante_events

from .helpers import CALL, FOLD, LOOK, deal, play, raise_to, rejects, vs


def stakes_of(events: list) -> list[tuple[int, int]]:
    return [(e.data["seat"], e.data["amount"]) for e in events if e.type == "stake"]


def test_two_player_hand_blind_seen_raise_and_final_compare() -> None:
    """Blind pays u, seen 2u; a raise sets the unit; the 比牌 fee is twice the asker's bet."""
    state = deal(2, ["As Ah Ad", "Ks Qs Js"])
    assert state.stakes == [1, 1] and state.unit == 1
    assert RULESET.to_act(state) == {1}  # the seat after the dealer (0) acts first
    assert stakes_of(play(state, (1, CALL))) == [(1, 1)]
    assert play(state, (0, LOOK))[0].type == "look"  # 看牌 is not a turn
    assert RULESET.to_act(state) == {0}
    assert stakes_of(play(state, (0, CALL))) == [(0, 2)]  # 明注 = 2 × 暗注
    assert stakes_of(play(state, (1, raise_to(5)))) == [(1, 5)]
    assert state.unit == 5
    assert stakes_of(play(state, (0, raise_to(10)))) == [(0, 20)]  # 2 × 10 = 單注封頂 20
    assert [a for a in RULESET.legal_actions(state, 1) if a["type"] == "raise"] == []
    assert state.stakes == [23, 7]
    events = play(state, (1, vs(0)))  # blind asker: fee 2 × 10
    assert stakes_of(events) == [(1, 20)]
    assert [e.data for e in events if e.type == "compare"] == [
        {"seat": 1, "target": 0, "amount": 20, "loser": 1}
    ]
    assert RULESET.is_over(state) and RULESET.to_act(state) == frozenset()
    result = RULESET.result(state)
    assert result.winners == (0,)
    assert result.scores == (27, -27)
    assert result.extra["pot"] == 50
    assert result.extra["stakes"] == [23, 27]
    assert result.extra["payments"] == [{"from": 1, "to": 0, "points": 27}]
    assert result.lines[0].label == "鍋底"


def six_player_state():
    return deal(
        6,
        ["2c 3d 4h", "As Ah Ad", "2s 3h 5d", "Ks Kh 9d", "Ts Js Qs", "Th Tc Td"],
        round_cap=2,
        compare_from_round=3,
        dealer=2,
    )


def test_six_player_hand_to_the_round_cap_then_compares_only() -> None:
    """手數封頂 2: after two bets each only 比牌/棄牌; 235 wins the last 比牌 against 豹子."""
    state = six_player_state()
    assert RULESET.to_act(state) == {3}
    play(state, *[(s, CALL) for s in (3, 4, 5, 0, 1, 2)])
    rejects(state, 3, vs(4), ErrorCode.ILLEGAL)  # 可比手數 3: not on the 2nd turn
    play(state, (3, raise_to(2)), (4, CALL), (5, LOOK), (5, CALL), (0, FOLD), (1, CALL), (2, CALL))
    assert state.stakes == [2, 4, 4, 4, 4, 6]
    legal = RULESET.legal_actions(state, 3)
    assert {a["type"] for a in legal} == {"compare", "fold", "look"}
    assert [a["target"] for a in legal if a["type"] == "compare"] == [1, 2, 4, 5]
    rejects(state, 3, CALL, ErrorCode.ILLEGAL)
    rejects(state, 3, raise_to(5), ErrorCode.ILLEGAL)
    play(state, (3, vs(4)))  # 對子 loses to 順金, blind fee 2 × 2
    assert state.status[3] == "lost" and RULESET.to_act(state) == {4}
    play(state, (4, vs(5)))  # 順金 loses to 豹子
    play(state, (5, vs(1)))  # TTT loses to AAA; seen fee 2 × 2 × 2
    assert RULESET.to_act(state) == {1}
    play(state, (1, vs(2)))  # 豹子 loses to the mixed-suit 235
    assert state.compares == [[3, 4, 3], [4, 5, 4], [5, 1, 5], [1, 2, 1]]
    result = RULESET.result(state)
    assert result.winners == (2,)
    assert state.stakes == [2, 8, 4, 8, 8, 14]
    assert result.scores == (-2, -8, 40, -8, -8, -14)
    assert sum(result.scores) == 0
    assert result.extra["ended_by"] == "compare"


def test_compare_tie_loses_for_the_asker() -> None:
    """比牌時如出現雙方牌型及大小相同的情況，主動比牌者為負者 (both directions)."""
    for asker, target in ((1, 0), (0, 1)):
        state = deal(2, ["As Kh 9d", "Ad Ks 9c"], dealer=target)
        assert RULESET.to_act(state) == {asker}
        play(state, (asker, vs(target)))
        assert state.winner == target
    state = deal(3, ["As Kh 9d", "Ad Ks 9c", "2c 2d 4h"], compare_from_round=1)
    play(state, (1, vs(0)))
    assert state.status == ["in", "lost", "in"] and RULESET.to_act(state) == {2}


def test_compare_fee_blind_and_seen_and_two_left_any_round() -> None:
    """Fee 2u blind, 4u seen; with two players left 比牌 is allowed on the first turn."""
    state = deal(2, ["As Kh 9d", "2s 4d 7c"], compare_from_round=5)
    play(state, (1, LOOK))
    events = play(state, (1, vs(0)))
    assert stakes_of(events) == [(1, 4)]
    assert state.winner == 0
    state = deal(3, ["As Kh 9d", "2s 4d 7c", "3c 5h 8d"], compare_from_round=2)
    rejects(state, 1, vs(2), ErrorCode.ILLEGAL)  # first turn, three in: too early
    play(state, (1, CALL), (2, FOLD))
    play(state, (0, vs(1)))  # two left: allowed, even on seat 0's first turn
    assert state.winner == 0 and state.ended_by == "compare"


def test_raise_limits() -> None:
    """加注: a room chip level above the unit, 2 × level ≤ 單注封頂."""
    state = deal(2, ["As Kh 9d", "2s 4d 7c"], unit_cap=10)
    rejects(state, 1, raise_to(10), ErrorCode.OVER_LIMIT)  # seen equivalent 20 > 10
    rejects(state, 1, raise_to(3), ErrorCode.ILLEGAL)  # not a chip level
    rejects(state, 1, raise_to(1), ErrorCode.ILLEGAL)  # not above the unit
    rejects(state, 1, {"type": "raise", "to": "5"}, ErrorCode.MALFORMED)
    rejects(state, 1, {"type": "raise"}, ErrorCode.MALFORMED)
    assert [a["to"] for a in RULESET.legal_actions(state, 1) if a["type"] == "raise"] == [2, 5]
    play(state, (1, raise_to(5)))
    rejects(state, 0, raise_to(5), ErrorCode.ILLEGAL)  # equal to the unit


def test_out_of_turn_turn_actions_are_refused_but_look_and_fold_are_not() -> None:
    """跟注/加注/比牌 only on turn; 看牌 and 棄牌 any time."""
    state = deal(3, ["As Kh 9d", "2s 4d 7c", "3c 5h 8d"])
    assert RULESET.to_act(state) == {1}
    rejects(state, 0, CALL, ErrorCode.NOT_YOUR_TURN)
    rejects(state, 2, raise_to(2), ErrorCode.NOT_YOUR_TURN)
    rejects(state, 0, vs(1), ErrorCode.NOT_YOUR_TURN)
    rejects(state, 7, CALL, ErrorCode.MALFORMED)  # no such seat (the shared guard)
    assert RULESET.legal_actions(state, 0) == [FOLD, LOOK]
    events = play(state, (0, LOOK))
    private = [e for e in events if e.type == "cards"]
    assert private[0].to == frozenset({0}) and private[0].data["cards"] == ["As", "Kh", "9d"]
    rejects(state, 0, LOOK, ErrorCode.ILLEGAL)  # never undone, never twice
    play(state, (2, FOLD))  # off turn
    assert RULESET.to_act(state) == {1}
    rejects(state, 2, FOLD, ErrorCode.ILLEGAL)
    play(state, (1, CALL))
    assert RULESET.to_act(state) == {0}  # the folded seat 2 is skipped


def test_compare_targets() -> None:
    """比牌 against yourself, a folded or a beaten player, or no seat, is refused."""
    state = deal(4, ["As Kh 9d", "2s 4d 7c", "3c 5h 8d", "4c 6h 9s"], compare_from_round=1)
    play(state, (0, FOLD))
    rejects(state, 1, vs(1), ErrorCode.ILLEGAL)
    rejects(state, 1, vs(0), ErrorCode.ILLEGAL)
    rejects(state, 1, vs(9), ErrorCode.ILLEGAL)
    rejects(state, 1, {"type": "compare", "target": "2"}, ErrorCode.MALFORMED)
    play(state, (1, vs(2)))  # 2-4-7 loses to 3-5-8
    rejects(state, 1, CALL, ErrorCode.NOT_YOUR_TURN)  # beaten: out of the hand
    play(state, (2, CALL))
    rejects(state, 3, vs(1), ErrorCode.ILLEGAL)


def test_round_cap_allows_compare_even_before_compare_round() -> None:
    """At 手數封頂 only 比牌 is left, even if 可比手數 is not reached (比牌時仍要支付比牌費用)."""
    state = deal(3, ["As Kh 9d", "2s 4d 7c", "3c 5h 8d"], round_cap=1, compare_from_round=9)
    play(state, (1, CALL), (2, CALL), (0, CALL))
    rejects(state, 1, CALL, ErrorCode.ILLEGAL)
    events = play(state, (1, vs(0)))
    assert stakes_of(events) == [(1, 2)]


def test_beans_all_in_rule() -> None:
    """No seat stakes beans it does not have; short of a call, it may 比牌 for what is left."""
    state = deal(
        3,
        ["As Kh 9d", "2s 4d 7c", "3c 5h 8d"],
        seat_beans=(3, 50, 50),
        dealer=2,
        compare_from_round=3,
    )
    play(state, (0, CALL))  # 1 of its 2 left after the ante
    play(state, (1, raise_to(2)), (2, CALL))
    assert state.stakes[0] == 2
    rejects(state, 0, CALL, ErrorCode.OVER_LIMIT)  # 2 due, 1 left
    rejects(state, 0, raise_to(5), ErrorCode.OVER_LIMIT)
    legal = RULESET.legal_actions(state, 0)
    assert {a["type"] for a in legal} == {"compare", "fold", "look"}  # 全押比牌, any round
    view = RULESET.view(state, 0)
    assert view["compare_fee"] == 1 and view["seats"][0]["beans_left"] == 1
    events = play(state, (0, vs(2)))
    assert stakes_of(events) == [(0, 1)]
    assert state.stakes[0] == 3 and state.status[2] == "lost"


def test_all_in_with_nothing_left_compares_free() -> None:
    """A player with no beans left may still compare (比牌) at no cost; the winner takes the
    stakes, zero-sum (−2 / +2)."""
    state = deal(2, ["2s 4d 7c", "As Kh 9d"], seat_beans=(2, 20), dealer=0)
    play(state, (1, CALL), (0, CALL))
    play(state, (1, raise_to(2)))
    assert state.stakes == [2, 4]
    events = play(state, (0, vs(1)))
    assert stakes_of(events) == []
    assert state.winner == 1 and RULESET.result(state).scores == (-2, 2)


def test_game_over_and_malformed_actions() -> None:
    """Malformed actions (empty, unknown or non-string type, not a dict) are refused with
    MALFORMED; after the last fold any call or look is GAME_OVER and nothing is legal."""
    state = deal(2, ["As Kh 9d", "2s 4d 7c"])
    for bad in ({}, {"type": "bet"}, {"type": 3}, "call", None):
        rejects(state, 1, bad, ErrorCode.MALFORMED)  # type: ignore[arg-type]
    play(state, (1, FOLD))
    assert state.winner == 0 and state.ended_by == "fold"
    rejects(state, 0, CALL, ErrorCode.GAME_OVER)
    rejects(state, 0, LOOK, ErrorCode.GAME_OVER)
    assert RULESET.legal_actions(state, 0) == []


def test_dealer_sets_the_first_actor() -> None:
    """The seat after the dealer acts first, wrapping around the table (dealer 5 of 6 → seat
    0); a dealer index past the seat count is taken modulo it (dealer 8 of 6 → seat 3)."""
    for dealer, first in ((0, 1), (3, 4), (5, 0), (8, 3)):
        state = deal(
            6,
            ["As Kh 9d", "2s 4d 7c", "3c 5h 8d", "4c 6h 9s", "5c 7h Ts", "6c 8h Js"],
            dealer=dealer,
        )
        assert RULESET.to_act(state) == {first}


def test_auto_action_calls_while_cheap_then_folds_and_never_looks() -> None:
    """The timeout (托管) action calls while the call is the minimum, folds when raised or when
    only 比牌/棄牌 remain, and never looks at the cards."""
    state = deal(2, ["As Kh 9d", "2s 4d 7c"])
    assert RULESET.auto_action(state, 1) == CALL
    play(state, (1, CALL))
    play(state, (0, raise_to(5)))
    assert RULESET.auto_action(state, 1) == FOLD
    state = deal(2, ["As Kh 9d", "2s 4d 7c"], round_cap=1)
    play(state, (1, CALL), (0, CALL))
    assert RULESET.auto_action(state, 1) == FOLD  # only 比牌/棄牌 left: 托管 folds
    assert not any(state.looked)


def test_escape_forfeits_the_stakes() -> None:
    """A player who escapes loses the beans he staked and the hand goes on for the others; with
    two players the other wins, the same as the fold the service applies."""
    state = deal(3, ["As Kh 9d", "2s 4d 7c", "3c 5h 8d"])
    play(state, (1, CALL), (2, CALL))
    escaped = RULESET.escape_result(state, 1)
    assert escaped.scores == (0, -2, 0) and escaped.extra["hand_continues"]
    state = deal(2, ["As Kh 9d", "2s 4d 7c"])
    play(state, (1, CALL))
    escaped = RULESET.escape_result(state, 0)
    assert escaped.scores == (-1, 1) and escaped.winners == (1,)
    play(state, (0, FOLD))  # what the service applies for the escaper
    assert RULESET.result(state).scores == escaped.scores


def test_ante_events_and_config_from_params() -> None:
    """Room parameters map onto Config (ante, chip levels, caps, beans, dealer; unknown keys
    ignored) and a new hand emits one ante event per seat, the seat after the dealer to act."""
    config = RULESET.config_from_params(
        {
            "ante": 10,
            "chip_levels": [10, 20, 50],
            "unit_cap": 100,
            "round_cap": 5,
            "compare_from_round": 3,
            "seat_beans": [500, 600],
            "dealer": 1,
            "unknown": "x",
        }
    )
    assert config.chip_levels == (10, 20, 50) and config.seat_beans == (500, 600)
    state = RULESET.new_game(config, "abc", 2)
    assert [e.data for e in ante_events(state)] == [
        {"seat": 0, "amount": 10},
        {"seat": 1, "amount": 10},
    ]
    assert RULESET.to_act(state) == {0}
