"""The bot's discard tie-break (進張 / ukeire): tiles really left, 財神 kept, deterministic."""

from __future__ import annotations

from games.rules.mahjong.tests.helpers import huanle, make_state

OTHERS = [
    "W3 W4 T7 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
    "W5 W5 B4 B4 T9 T9 W9 W9 F2 F3 F4 J1 J2",
    "T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W5",
]


def test_bot_never_discards_a_wild_when_another_tile_keeps_the_shanten() -> None:
    """財神 (J3 here) stays in hand whatever the other tiles are."""
    ruleset = huanle()
    state = make_state(["W1 W2 W3 T4 T5 T6 B7 B8 J3 F4 F4 F1 W9 J1"] + OTHERS, wild="J3")
    action = ruleset.bot_action(state, 0)
    assert action["type"] == "discard"
    assert action["tile"] != "J3"


def test_ukeire_counts_only_tiles_really_left() -> None:
    """Two discards keep the same shanten; the one whose waits are all face up loses the tie."""
    ruleset = huanle()
    hand = "W1 W2 W3 T4 T5 T6 B7 B8 B9 F4 F4 W5 W6 F3"
    state = make_state([hand] + OTHERS, wild=None)
    rest_keep_w = hand.split()
    rest_keep_w.remove("F3")
    # W5 W6 waits on W4 / W7: counted while they are unseen, not once every copy is face up
    before = ruleset._ukeire(
        state,
        0,
        rest_keep_w,
        ruleset._shanten_of(state, 0, rest_keep_w),
        ruleset.wild_kinds(state),
        {},
    )
    assert before > 0
    for s in (1, 2, 3, 1):  # all four copies of W4 and of W7 face up
        state.discards[s] += ["W4", "W7"]
    after = ruleset._ukeire(
        state,
        0,
        rest_keep_w,
        ruleset._shanten_of(state, 0, rest_keep_w),
        ruleset.wild_kinds(state),
        {},
    )
    assert after < before


def test_bot_decisions_are_deterministic() -> None:
    """The same state gives the same action, every time and after a JSON round trip."""
    ruleset = huanle()
    state = make_state(["W1 W2 W4 T4 T5 T7 B7 B8 J3 F4 F2 F1 W9 J1"] + OTHERS, wild="J3")
    first = ruleset.bot_action(state, 0)
    again = ruleset.bot_action(ruleset.state_from_json(ruleset.state_to_json(state)), 0)
    assert first == again == ruleset.bot_action(state, 0)
