"""The mahjong bot's two-step 進張 discard option (``play`` option ``two_step``; issue #16 §2).

With ``two_step`` N the N best discards by one-step 進張 are re-ranked by the ways to go two
steps down: for each kind whose draw lowers the shanten, its copies left × the copies left of
the kinds whose second draw lowers it again. No variant plays it by default: on fresh seeds it
did not move the bot's share of wins (docs/performance.md, 4 Dec 2026); these tests keep the
option correct, deterministic and inside the budget for a later session."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.rules.mahjong import play
from games.rules.mahjong.tests.helpers import tuned, yongzhou_turn


@pytest.fixture
def two_step() -> Iterator[None]:
    """永州 and 樂清 rank their three best discards by the two-step count for one test."""
    with tuned("mahjong_yongzhou", "mahjong_yueqing", two_step=3):
        yield


# four from ready; discarding B1 or J1 leaves the same one-step 進張 and the keep value (an
# isolated terminal before an honour) picks B1; the two-step count picks J1: B1 still joins
# B4 / B6 into shapes with more second draws
TWO_STEP_HAND = "B1 B4 B6 B8 J1 J2 J3 T1 T4 T4 T7 W6 W7 W8"


def test_two_step_count_picks_a_different_discard_than_the_one_step_count(
    two_step: None,
) -> None:
    """On TWO_STEP_HAND the one-step count alone discards B1 (a 進張 tie, then the keep
    value); with ``two_step`` the bot discards J1, the hand with more ways two steps down."""
    r, state = yongzhou_turn(TWO_STEP_HAND, "lookahead")
    d = play.Decision(r, state, 0)
    without_b1 = TWO_STEP_HAND.split()
    without_b1.remove("B1")
    without_j1 = TWO_STEP_HAND.split()
    without_j1.remove("J1")
    assert d.shanten(without_b1) == d.shanten(without_j1) == 4
    assert d.ukeire(without_b1, 4) == d.ukeire(without_j1, 4)
    assert d.two_step(without_j1, 4) > d.two_step(without_b1, 4)
    assert r.bot_action(state, 0) == {"type": "discard", "tile": "J1"}
    play.TUNING["mahjong_yongzhou"]["two_step"] = 0
    assert r.bot_action(state, 0) == {"type": "discard", "tile": "B1"}


def test_two_step_of_a_ready_hand_is_its_one_step_count() -> None:
    """A ready hand (shanten 0) counts its winning tiles only: two-step = one-step 進張."""
    r, state = yongzhou_turn("W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1 W9", "lookahead")
    d = play.Decision(r, state, 0)
    rest = state.hands[0][:-1]
    assert d.shanten(rest) == 0
    assert d.two_step(rest, 0) == d.ukeire(rest, 0) == 4  # F1 ×2 and J1 ×2 left


def test_two_step_decisions_are_deterministic_and_inside_the_budget(two_step: None) -> None:
    """Whole 永州 and 樂清 hands between two-step bots: the same seed gives the same decisions
    twice, every decision under 200 ms of CPU and the median under 20 ms (the bench
    measures the real p95 / p99)."""
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
