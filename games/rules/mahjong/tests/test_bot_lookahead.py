"""The mahjong bot's two-step 進張 discard and 永州's tuning (issue #16 §2, docs/performance.md).

The two-step count ranks the few best discards (by one-step 進張) by the ways to go two steps
down: for each kind whose draw lowers the shanten, its copies left × the 進張 of the best hand
after that draw. 永州 now plays the options measured for 樂清 (進張 over every tied discard, 槓
only when the shanten does not rise, dead kinds, the wider claims)."""

from __future__ import annotations

import time

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.rules.mahjong import play
from games.rules.mahjong.core import State


def _yongzhou_turn(hand: str) -> tuple[object, State]:
    """A fresh 永州 hand with seat 0 (the dealer) to discard from ``hand`` (14 tiles, the
    last one drawn), nothing on the table."""
    r = registry.get("mahjong_yongzhou")
    state = r.new_game(r.config_from_params({}), "lookahead", 4)
    state.hands[0] = hand.split()
    state.melds = [[] for _ in range(4)]
    state.discards = [[] for _ in range(4)]
    state.current = 0
    state.drawn = [state.hands[0][-1], None, None, None]
    state.phase = "turn"
    state.claim = None
    return r, state


# four from ready; discarding B1 or J1 leaves the same one-step 進張 (70 copies left) and the
# keep value (an isolated terminal before an honour) picks B1; the two-step count picks J1:
# B1 still pairs or joins with B4 / B6 into shapes whose second draws are more
TWO_STEP_HAND = "B1 B4 B6 B8 J1 J2 J3 T1 T4 T4 T7 W6 W7 W8"


def test_two_step_count_picks_a_different_discard_than_the_one_step_count() -> None:
    """On TWO_STEP_HAND the one-step count alone discards B1 (a 進張 tie, then the keep
    value); the two-step count discards J1, the hand with more ways to get two steps closer
    (and 永州 plays the two-step count)."""
    r, state = _yongzhou_turn(TWO_STEP_HAND)
    d = play.Decision(r, state, 0)
    without_b1 = TWO_STEP_HAND.split()
    without_b1.remove("B1")
    without_j1 = TWO_STEP_HAND.split()
    without_j1.remove("J1")
    assert d.shanten(without_b1) == d.shanten(without_j1) == 4
    assert d.ukeire(without_b1, 4) == d.ukeire(without_j1, 4)
    assert d.two_step(without_j1, 4) > d.two_step(without_b1, 4)
    assert r.bot_action(state, 0) == {"type": "discard", "tile": "J1"}
    saved = dict(play.TUNING["mahjong_yongzhou"])
    try:
        play.TUNING["mahjong_yongzhou"]["two_step"] = 0
        assert r.bot_action(state, 0) == {"type": "discard", "tile": "B1"}
    finally:
        play.TUNING["mahjong_yongzhou"] = saved


def test_two_step_of_a_ready_hand_is_its_one_step_count() -> None:
    """A ready hand (shanten 0) counts its winning tiles only: two-step = one-step 進張."""
    r, state = _yongzhou_turn("W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 W9")
    d = play.Decision(r, state, 0)
    rest = state.hands[0][:-1]
    assert d.shanten(rest) == 0
    assert d.two_step(rest, 0) == d.ukeire(rest, 0) == 4  # F1 ×2 and J1 ×2 left


def test_yongzhou_bot_declines_a_concealed_kong_that_raises_the_shanten() -> None:
    """永州 now checks a 暗槓: with W2 W3 W3 W3 W3 W4 the four W3 are a chow and a pung of a
    ready hand; the 槓 would break the chow and leave it one from ready, so the bot discards."""
    r, state = _yongzhou_turn("W2 W3 W3 W3 W3 W4 T1 T2 T3 B5 B6 B7 F1 F2")
    assert {"type": "angang", "tile": "W3"} in r.legal_actions(state, 0)
    action = r.bot_action(state, 0)
    assert action["type"] == "discard" and action["tile"] in ("F1", "F2")


def test_lookahead_decisions_are_deterministic_and_inside_the_budget() -> None:
    """Whole 永州 and 樂清 hands between bots: the same seed gives the same decisions twice,
    every decision under 200 ms of CPU and the median under 20 ms (the bench measures the
    real p95 / p99)."""
    for game in ("mahjong_yongzhou", "mahjong_yueqing"):
        r = registry.get(game)
        config = r.config_from_params({})
        runs: list[list[dict[str, object]]] = []
        times: list[float] = []
        for _ in range(2):
            state = r.new_game(config, "lookahead-budget", 4)
            actions = []
            while not r.is_over(state):
                seat = min(r.to_act(state))
                t0 = time.process_time()
                action = r.bot_action(state, seat)
                times.append(time.process_time() - t0)
                actions.append(action)
                r.apply(state, seat, action)
            runs.append(actions)
        assert runs[0] == runs[1]
        times.sort()
        assert times[-1] < 0.2
        assert times[len(times) // 2] < 0.02
