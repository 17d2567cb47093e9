"""The shared invariant kit and chip conservation over random betting sequences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import IllegalAction
from games.engine.testing import check_game
from games.rules.zhajinhua import RULESET, Config


def test_check_game_two_seats() -> None:
    """The shared ruleset kit check_game passes for 歡樂三張 with two seats and bots."""
    check_game(RULESET, Config(), 2, [f"two-{i}" for i in range(6)], use_bots=True)


def test_check_game_six_seats() -> None:
    """The shared ruleset kit check_game passes for 歡樂三張 with six seats and bots."""
    check_game(RULESET, Config(), 6, [f"six-{i}" for i in range(4)], use_bots=True)


def test_check_game_with_bean_limits() -> None:
    """check_game passes with uneven and short bean stacks, a round cap and 比牌 from round 3."""
    config = Config(seat_beans=(12, 30, 8, 50), round_cap=6, compare_from_round=3)
    check_game(RULESET, config, 4, [f"beans-{i}" for i in range(4)], use_bots=True)


def test_bots_finish_six_seat_hands() -> None:
    """Bots alone finish every one of 20 six-seat hands (any dealer) within 500 actions, and
    each hand's scores sum to zero."""
    for i in range(20):
        state = RULESET.new_game(Config(dealer=i), f"bots-{i}", 6)
        for _ in range(500):
            if RULESET.is_over(state):
                break
            (seat,) = RULESET.to_act(state)
            RULESET.apply(state, seat, RULESET.bot_action(state, seat))
        assert RULESET.is_over(state)
        assert sum(RULESET.result(state).scores) == 0


@settings(max_examples=150, deadline=None)
@given(
    seats=st.integers(2, 6),
    beans=st.lists(st.integers(1, 40), min_size=6, max_size=6),
    picks=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 999)), max_size=120),
    seed=st.text(alphabet="0123456789abcdef", min_size=1, max_size=8),
)
def test_chips_are_conserved(seats: int, beans: list[int], picks: list, seed: str) -> None:
    """Stakes only grow by the stake events, never past a seat's beans; the pot pays out whole."""
    config = Config(seat_beans=tuple(beans[:seats]), round_cap=8)
    state = RULESET.new_game(config, seed, seats)
    staked = [config.ante] * seats
    for who, index in picks:
        if RULESET.is_over(state):
            break
        (current,) = RULESET.to_act(state)
        seat = who % seats if who < seats else current
        legal = RULESET.legal_actions(state, seat)
        if not legal:
            continue
        try:
            events = RULESET.apply(state, seat, legal[index % len(legal)])
        except IllegalAction as error:  # pragma: no cover - a legal action must apply
            raise AssertionError(f"listed action refused: {error}") from error
        for event in events:
            if event.type == "stake":
                assert event.data["amount"] > 0
                staked[event.data["seat"]] += event.data["amount"]
        assert staked == state.stakes
        assert all(state.stakes[s] <= beans[s] for s in range(seats))
    while not RULESET.is_over(state):  # finish with 托管
        (current,) = RULESET.to_act(state)
        for event in RULESET.apply(state, current, RULESET.auto_action(state, current)):
            if event.type == "stake":
                staked[event.data["seat"]] += event.data["amount"]
    result = RULESET.result(state)
    assert sum(result.scores) == 0
    assert result.extra["pot"] == sum(state.stakes) == sum(staked)
    (winner,) = result.winners
    assert sum(p["points"] for p in result.extra["payments"]) == result.scores[winner]
    assert all(result.scores[s] >= -beans[s] for s in range(seats))
