"""Bots: win when possible, discard toward the fewest tiles from a win, claim when it helps."""

from __future__ import annotations

from games.engine.testing import playout
from games.rules.mahjong.tests.helpers import huanle, make_state

OTHERS = [
    "W3 W4 T7 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
    "W5 W5 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2",
    "T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W5",
]


def test_bot_wins_when_it_can() -> None:
    """With a complete winning hand (胡) the bot and the timeout action both declare hu rather
    than discard."""
    ruleset = huanle()
    state = make_state(["W1 W2 W3 T4 T5 T6 B7 B8 B9 F4 F4 J1 J1 J1"] + OTHERS, wild=None)
    assert ruleset.bot_action(state, 0) == {"type": "hu"}
    assert ruleset.auto_action(state, 0) == {"type": "hu"}


def test_bot_discards_toward_a_ready_hand() -> None:
    """The isolated tile goes; the 財神 is kept."""
    ruleset = huanle()
    state = make_state(["W1 W2 W3 T4 T5 T6 B7 B8 J3 F4 F4 J1 W9 J1"] + OTHERS, wild="J3")
    action = ruleset.bot_action(state, 0)
    assert action == {"type": "discard", "tile": "W9"}
    # 托管 discards the drawn tile instead
    assert ruleset.auto_action(state, 0) == {"type": "discard", "tile": "J1"}


def test_bot_claims_only_when_it_helps() -> None:
    """碰 that brings the hand closer is taken; a useless 吃 is passed."""
    ruleset = huanle()
    hands = [
        "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J1 W5 J2",
        "W3 W4 W7 W9 B1 B1 B5 B9 F2 F3 F4 J1 J2",
        "W5 W5 B4 B5 B6 T7 T8 W7 W8 F3 J1 B9 W2",
        "T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W6",
    ]
    state = make_state(hands, wild="J3")
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    assert ruleset.bot_action(state, 2) == {"type": "peng"}
    assert ruleset.auto_action(state, 2) == {"type": "pass"}


def test_bots_finish_hands_and_win_some() -> None:
    """Four bots play whole hands; some end in a win with a settlement."""
    ruleset = huanle()
    config = ruleset.config_from_params({})
    wins = 0
    for i in range(6):
        state, _ = playout(ruleset, config, f"bots-{i}", 4, use_bots=True, deep_checks=False)
        result = ruleset.result(state)
        assert sum(result.scores) == 0
        wins += bool(result.winners)
    assert wins >= 2
