"""Who sees which cards, in every case of the seed (歡樂三張 一、基本規則)."""

from __future__ import annotations

from games.rules.zhajinhua import RULESET

from .helpers import CALL, FOLD, LOOK, deal, play, vs

HANDS4 = ["As Kh 9d", "2s 4d 7c", "3c 5h 8d", "Qc Qh 9s"]


def shown(view: dict) -> set[int]:
    """The seats whose cards a view carries."""
    return {entry["seat"] for entry in view["seats"] if "cards" in entry}


def test_own_cards_only_after_look() -> None:
    """Before 看牌 the seat's own view has no cards; after it, exactly its own three."""
    state = deal(2, ["As Kh 9d", "2s 4d 7c"])
    view = RULESET.view(state, 0)
    assert view["hand"] is None and shown(view) == set()
    assert all(entry["card_count"] == 3 for entry in view["seats"])
    play(state, (0, LOOK))
    view = RULESET.view(state, 0)
    assert view["hand"] == ["As", "Kh", "9d"] and view["hand_class"] == "danzhang"
    assert shown(view) == {0}
    assert shown(RULESET.view(state, 1)) == set()
    assert shown(RULESET.spectator_view(state)) == set()


def test_a_compare_reveals_nothing_until_the_end() -> None:
    """比牌時雙方不能看到互相的牌: during the hand only the loser's name is public."""
    state = deal(4, HANDS4, compare_from_round=1)
    play(state, (1, LOOK), (1, vs(2)))
    assert state.status[1] == "lost"
    for seat in range(4):
        assert shown(RULESET.view(state, seat)) <= {seat}
    assert RULESET.view(state, 3)["log"][-1] == {
        "type": "compare",
        "seat": 1,
        "target": 2,
        "amount": 4,
        "loser": 1,
    }


def test_last_two_compared_everyone_sees_both() -> None:
    """只剩兩位玩家時，如果是比牌決定勝負的，則所有玩家（包括旁觀者）都可以看見此二人的底牌."""
    state = deal(4, HANDS4)
    play(state, (1, FOLD), (2, FOLD), (3, CALL), (0, vs(3)))
    assert state.winner == 3 and state.ended_by == "compare"
    assert shown(RULESET.spectator_view(state)) == {0, 3}
    assert shown(RULESET.view(state, 1)) == {0, 1, 3}  # plus its own at the end
    assert shown(RULESET.view(state, 2)) == {0, 2, 3}
    assert shown(RULESET.view(state, 0)) == {0, 3}
    view = RULESET.view(state, 1)
    assert view["seats"][3]["cards"] == ["Qc", "Qh", "9s"]
    assert view["seats"][3]["hand_class"] == "duizi"
    assert "cards" not in view["seats"][2]


def test_last_two_ended_by_fold_nothing_more_is_seen() -> None:
    """如果是一方放棄的情況，則仍不可見."""
    state = deal(2, ["As Kh 9d", "2s 4d 7c"])
    play(state, (1, CALL), (0, FOLD))
    assert state.winner == 1 and state.ended_by == "fold"
    assert shown(RULESET.spectator_view(state)) == set()
    assert shown(RULESET.view(state, 0)) == {0}
    assert shown(RULESET.view(state, 1)) == {1}


def test_each_player_sees_only_whom_he_compared_with() -> None:
    """每局結束時，所有玩家只能看見自己比過或跟自己比過的玩家的手牌 (fold ends the hand)."""
    state = deal(4, HANDS4, compare_from_round=1)
    play(state, (1, vs(2)))  # 1 asks 2, 1 loses
    play(state, (2, vs(3)))  # 2 asks 3, 2 loses
    play(state, (3, FOLD))  # last two: 0 and 3; a fold ends it
    assert state.winner == 0 and state.ended_by == "fold"
    assert shown(RULESET.view(state, 0)) == {0}
    assert shown(RULESET.view(state, 1)) == {1, 2}
    assert shown(RULESET.view(state, 2)) == {1, 2, 3}
    assert shown(RULESET.view(state, 3)) == {2, 3}
    assert shown(RULESET.spectator_view(state)) == set()


def test_earlier_compares_and_a_final_compare_add_up() -> None:
    """Cards shown in 比牌 add up: spectators see only the final compare's two hands, a player
    sees his own, the one he compared with, and the final compare's hands."""
    state = deal(4, HANDS4, compare_from_round=1)
    play(state, (1, vs(2)), (2, FOLD), (3, vs(0)))
    assert state.winner == 3 and state.ended_by == "compare"
    assert shown(RULESET.spectator_view(state)) == {0, 3}
    assert shown(RULESET.view(state, 1)) == {0, 1, 2, 3}
    assert shown(RULESET.view(state, 2)) == {0, 1, 2, 3}


def test_view_has_what_the_table_draws() -> None:
    """A seat's view carries every key the table draws (pot, caps, chip levels, seats, legal
    actions, costs, log); after the folds it shows the result: winner and scores."""
    state = deal(3, ["As Kh 9d", "2s 4d 7c", "3c 5h 8d"], seat_beans=(100, 100, 100))
    view = RULESET.view(state, 1)
    for key in (
        "phase",
        "to_act",
        "dealer",
        "ante",
        "unit",
        "unit_cap",
        "round_cap",
        "compare_from_round",
        "chip_levels",
        "pot",
        "seats",
        "legal_actions",
        "call_cost",
        "compare_fee",
        "round",
        "log",
    ):
        assert key in view, key
    assert view["phase"] == "betting" and view["to_act"] == [1] and view["pot"] == 3
    assert view["legal_actions"][0] == CALL
    assert view["seats"][0]["dealer"] and view["seats"][0]["beans_left"] == 99
    play(state, (1, FOLD), (2, FOLD))
    view = RULESET.view(state, 0)
    assert view["phase"] == "over" and view["result"]["winner"] == 0
    assert view["result"]["scores"] == [2, -1, -1]
