"""A 大豐收 round: bets, limits, the house's close, payouts, views and the invariant kit."""

from __future__ import annotations

import json

import pytest

from games.engine.errors import ErrorCode, IllegalAction
from games.engine.testing import check_game
from games.rules.dafengshou import HOUSE, RING, RULESET, Config, spin

CLOSE = {"type": "close"}


def bet(crop: str, amount: int) -> dict:
    return {"type": "bet", "object": crop, "amount": amount}


def dump(state) -> str:
    return json.dumps(RULESET.state_to_json(state), sort_keys=True)


def rejects(state, seat: int, action: object, code: ErrorCode) -> None:
    before = dump(state)
    with pytest.raises(IllegalAction) as info:
        RULESET.apply(state, seat, action)  # type: ignore[arg-type]
    assert info.value.code == code, info.value
    assert dump(state) == before


def seed_landing(config: Config, want) -> str:
    """The first test seed whose spin satisfies ``want(outcome)``."""
    for i in range(10_000):
        seed = f"round-{i}"
        if want(spin(config, seed)):
            return seed
    raise AssertionError("no such seed")


def test_a_round_pays_the_lit_crop() -> None:
    """Bets are taken as made (stake events); the close spins and pays the lit cell's odds."""
    config = Config()
    seed = seed_landing(config, lambda o: o[1] is None and RING[o[0]] == ("big", "orange"))
    state = RULESET.new_game(config, seed, 3)
    assert RULESET.to_act(state) == {HOUSE, 0, 1, 2}
    events = RULESET.apply(state, 0, bet("orange", 100))
    assert [(e.type, e.data) for e in events if e.type == "stake"] == [
        ("stake", {"seat": 0, "amount": 100})
    ]
    RULESET.apply(state, 0, bet("orange", 10))
    RULESET.apply(state, 0, bet("apple", 1000))
    RULESET.apply(state, 1, bet("rice", 10))
    RULESET.apply(state, 2, {"type": "done"})
    assert RULESET.to_act(state) == {HOUSE, 0, 1}
    events = RULESET.apply(state, HOUSE, CLOSE)
    assert RULESET.is_over(state) and RULESET.to_act(state) == frozenset()
    paid = [(e.data["seat"], e.data["amount"]) for e in events if e.type == "payout"]
    assert paid == [(0, 1100)]
    result = RULESET.result(state)
    assert result.scores == (1100 - 1110, -10, 0)
    assert result.winners == ()
    assert result.extra["stakes"] == [1110, 10, 0]
    assert result.extra["house_net"] == 20
    assert result.extra["winning_objects"] == ["orange"]
    assert result.lines[0].value == "橘子（大）"


def test_a_luck_special_pays_several_cells() -> None:
    """A 好運 cell landing on the special 大四喜 lights four cells (1, 4, 8, 15) and pays each
    lit cell's odds on the player's stake: 10 on 蘋果 pays 200, net 190."""
    config = Config()
    seed = seed_landing(config, lambda o: o[1] == "dasixi")
    state = RULESET.new_game(config, seed, 1)
    RULESET.apply(state, 0, bet("apple", 10))
    RULESET.apply(state, HOUSE, CLOSE)
    assert RULESET.result(state).scores == (4 * 50 - 10,)
    view = RULESET.view(state, 0)
    assert view["result"]["special_name"] == "大四喜"
    assert view["result"]["lit"] == [1, 4, 8, 15]
    assert view["result"]["payout"] == 200 and view["result"]["net"] == 190


def test_limits_and_chips() -> None:
    """Bets come in chip sizes within the per-player and per-round limits."""
    config = Config(chips=(10, 100), player_limit=150, round_limit=250)
    state = RULESET.new_game(config, "limits", 3)
    RULESET.apply(state, 0, bet("apple", 100))
    RULESET.apply(state, 0, bet("rice", 10))
    assert RULESET.bet_room(state, 0) == 40
    assert {a.get("amount") for a in RULESET.legal_actions(state, 0)} == {10, None}
    rejects(state, 0, bet("apple", 100), ErrorCode.OVER_LIMIT)  # 210 > player limit 150
    RULESET.apply(state, 1, bet("corn", 100))
    rejects(state, 2, bet("corn", 100), ErrorCode.OVER_LIMIT)  # 310 > round limit 250
    RULESET.apply(state, 2, bet("corn", 10))
    rejects(state, 2, bet("corn", 50), ErrorCode.ILLEGAL)  # not a chip
    assert RULESET.view(state, 1)["totals"]["corn"] == 110


def test_bad_bets() -> None:
    """Bad bets are refused with their error code and change nothing: an unknown crop (ILLEGAL),
    a non-integer or missing amount (MALFORMED), a bet from no seat, after 'done' or by the
    house (NOT_YOUR_TURN), a bet after the window closed (WINDOW_CLOSED), a second close."""
    state = RULESET.new_game(Config(), "bad", 2)
    rejects(state, 0, bet("durian", 10), ErrorCode.ILLEGAL)  # unknown object
    rejects(state, 0, bet("apple", "10"), ErrorCode.MALFORMED)
    rejects(state, 0, {"type": "bet", "object": "apple"}, ErrorCode.MALFORMED)
    rejects(state, 0, {"type": "spin"}, ErrorCode.MALFORMED)
    rejects(state, 0, "bet", ErrorCode.MALFORMED)
    rejects(state, 5, bet("apple", 10), ErrorCode.MALFORMED)  # no such slot (the shared guard)
    rejects(state, 0, CLOSE, ErrorCode.NOT_YOUR_TURN)  # only the house closes
    RULESET.apply(state, 1, {"type": "done"})
    rejects(state, 1, bet("apple", 10), ErrorCode.NOT_YOUR_TURN)
    rejects(state, HOUSE, bet("apple", 10), ErrorCode.NOT_YOUR_TURN)
    RULESET.apply(state, HOUSE, CLOSE)
    rejects(state, 0, bet("apple", 10), ErrorCode.WINDOW_CLOSED)  # after the window
    rejects(state, HOUSE, CLOSE, ErrorCode.GAME_OVER)


def test_views_show_own_bets_and_public_totals_only() -> None:
    """A player's view shows his own bets and the public totals per crop, the 24-cell ring and
    the phase, never the other players' bets or the seed; spectators see the totals only."""
    state = RULESET.new_game(Config(), "views", 3)
    RULESET.apply(state, 0, bet("apple", 100))
    RULESET.apply(state, 1, bet("apple", 10))
    RULESET.apply(state, 1, bet("peach", 1000))
    view = RULESET.view(state, 0)
    assert view["my_bets"]["apple"] == 100 and view["my_bets"]["peach"] == 0
    assert view["totals"]["apple"] == 110 and view["totals"]["peach"] == 1000
    assert view["round_total"] == 1110
    assert "bets" not in view and "seed" not in json.dumps(view)
    assert len(view["ring"]) == 24 and view["ring"][7] == {
        "cell": 7,
        "kind": "luck",
        "name": "好運",
    }
    assert view["ring"][3] == {
        "cell": 3,
        "kind": "big",
        "object": "rice",
        "name": "稻穗",
        "odds": 100,
    }
    assert view["phase"] == "betting" and "result" not in view
    spectator = RULESET.spectator_view(state)
    assert "my_bets" not in spectator and spectator["totals"] == view["totals"]
    assert RULESET.view(state, HOUSE)["legal_actions"] == [CLOSE]


def test_auto_and_bot_actions() -> None:
    """The timeout action is 'done' for a player and 'close' for the house; bots place one to
    three bets then finish, and a player who escapes mid-round scores 0 with his bets standing."""
    state = RULESET.new_game(Config(), "bots", 4)
    assert RULESET.auto_action(state, HOUSE) == CLOSE
    assert RULESET.auto_action(state, 2) == {"type": "done"}
    for seat in range(4):
        for _ in range(10):
            if state.done[seat]:
                break
            RULESET.apply(state, seat, RULESET.bot_action(state, seat))
        assert state.done[seat] and 1 <= len(state.bets[seat]) <= 3
    assert RULESET.to_act(state) == {HOUSE}
    RULESET.apply(state, HOUSE, RULESET.bot_action(state, HOUSE))
    assert RULESET.is_over(state)
    escaped = RULESET.escape_result(state, 1)
    assert escaped.scores == (0, 0, 0, 0) and escaped.extra["bets_stand"]


def test_check_game() -> None:
    """The shared ruleset kit (check_game) passes for 大豐收 with 1, 4 and 5 seats, including
    chip and per-player / per-round limits; the round is not zero-sum (the house banks)."""
    for slots in (1, 5):
        check_game(
            RULESET,
            Config(),
            slots,
            [f"kit-{slots}-{i}" for i in range(4)],
            zero_sum=False,
            use_bots=True,
        )
    check_game(
        RULESET,
        Config(chips=(10, 100), player_limit=200, round_limit=300),
        4,
        [f"kit-lim-{i}" for i in range(4)],
        zero_sum=False,
        use_bots=True,
    )
