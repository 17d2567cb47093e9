"""The tiles a seat let pass (``state.vars["passed"]``) and the simulator's redeal on them.

A seat that did not 胡 on a discard cannot hold a hand that wins on it (a baseline 胡 whenever it
can). The engine keeps, per seat, the discards since it last drew or claimed; the bot's
simulated deals (``_mjsim.search`` with ``passed`` and ``redeal``) deal again a determinisation
that gives a seat a hand winning on one of them (樂清's ``mc_passed``)."""

from __future__ import annotations

import pytest

from games.rules.mahjong import bot, play
from games.rules.mahjong.tests.helpers import huanle, make_state

native = bot.native

# seat 0 discards W5; nobody 吃 / 碰 / 胡 it here, so seat 1 draws next
HANDS = [
    "W1 W1 W1 T7 T8 T9 B5 B6 B7 F4 J2 J2 J1 W5",
    "W3 W7 T1 T8 B1 B1 B2 B3 F2 F3 F4 J1 J2",
    "W9 W9 B4 B4 T9 T9 W2 W2 F2 F3 F4 J1 J2",
    "T1 T2 T3 T4 T5 T6 B7 B8 B9 F1 F1 F1 W4",
]


def test_the_engine_keeps_what_each_seat_let_pass_since_it_last_moved() -> None:
    """A discard joins every other seat's list; a seat's own draw or claim (動牌) empties its
    list."""
    ruleset = huanle()
    state = make_state(HANDS, wild="J3")
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    assert state.phase == "turn" and state.current == 1  # no claim: seat 1 drew
    assert state.vars["passed"] == [[], [], ["W5"], ["W5"]]
    ruleset.apply(state, 1, {"type": "discard", "tile": "W7"})
    # seat 2 may 碰 nothing and 吃 nothing (no W6/W8 pairs): it draws, its list starts again
    assert state.current == 2
    assert state.vars["passed"] == [["W7"], [], [], ["W5", "W7"]]


def test_a_claim_empties_the_claimers_list() -> None:
    """碰 is 動牌: the claimer's list starts again; the others keep theirs."""
    ruleset = huanle()
    hands = list(HANDS)
    hands[2] = "W5 W5 B4 B4 T9 T9 W2 W2 F2 F3 F4 J1 J2"
    state = make_state(hands, wild="J3")
    ruleset.apply(state, 0, {"type": "discard", "tile": "W5"})
    assert state.phase == "claim"
    for seat in sorted(ruleset.to_act(state)):
        action = {"type": "peng"} if seat == 2 else {"type": "pass"}
        ruleset.apply(state, seat, action)
    assert state.current == 2 and state.melds[2]
    assert state.vars["passed"] == [[], ["W5"], [], ["W5"]]


def test_the_bot_reads_the_lists_without_the_tile_still_in_the_claim_window() -> None:
    """The masks the bot passes to the simulator: every tile a seat let pass, but not the
    discard now in the claim window (the seats have not answered it yet)."""
    ruleset = huanle()
    state = make_state(HANDS, wild="J3")
    state.vars["passed"] = [["W5"], ["B9"], ["W5", "T3"], ["T3"]]
    state.phase = "claim"
    state.claim = {"tile": "T3", "from": 1, "kind": "discard"}
    d = play.Decision(ruleset, state, 0)
    w5, t3, b9 = 1 << 4, 1 << 11, 1 << 26  # the kinds' indices: W 0–8, T 9–17, B 18–26
    assert play._passed(d, [1, 2, 3]) == (b9, w5, 0)
    state.claim = None
    assert play._passed(d, [1, 2, 3]) == (b9, w5 | t3, t3)


def _search(passed: tuple[int, int, int] | None, redeal: int) -> bytes:
    """The bot (seat 0) holds W1 and T1 and discards W1; each other seat holds one tile out of
    three W1, three T1 and three B1 (a single tile is ready, waiting on its pair)."""
    w1, t1, b1 = 0, 9, 18
    hand = [0] * 34
    hand[w1] = hand[t1] = 1
    unseen = [0] * 34
    unseen[w1] = unseen[t1] = unseen[b1] = 3
    args = [
        bytes(hand), 0, 0, bytes([1, 1, 1]), bytes(3), bytes(3), bytes(unseen),
        0, 6, 0, -1, 0, 0, 0, 0, bytes([w1]), 300, 12345, 0.0, 0.0,
    ]  # fmt: skip
    if passed is not None:
        args += [passed, redeal]
    return native.search(*args)


@pytest.mark.skipif(native is None, reason="the C extension is not built")
def test_the_simulator_redeals_a_hand_that_wins_on_a_tile_it_let_pass() -> None:
    """Every seat let T1 and B1 pass, so each holds the W1 (the only single that does not win
    on them): with the redeal the bot's W1 is always won by the next seat (2 in every
    determinisation). Without it the deals are random and the bot sometimes wins (1); with
    the masks but no redeal they change nothing."""
    let_pass = (1 << 9) | (1 << 18)
    plain = _search(None, 0)
    assert 1 in plain and 2 in plain
    assert _search((let_pass, let_pass, let_pass), 0) == plain
    redealt = _search((let_pass, let_pass, let_pass), 5000)
    assert set(redealt) == {2}


def _search_peng(peng_passed: bool) -> list[int]:
    """The bot holds W1 and B5 and throws B5, ready on W1 alone. Two W1 and twelve single
    terminals and honours are unseen: three opponents hold four each, two are in the wall. An
    opponent with both W1 keeps its pair and nobody can throw W1 again (流局); an opponent with
    one W1 throws it as its lowest single and the bot wins. Every opponent let W1 pass.
    Returns the counts of 流局, the bot's wins and the others' wins over 400 deals."""
    w1, b5 = 0, 22
    hand = [0] * 34
    hand[w1] = hand[b5] = 1
    unseen = [0] * 34
    unseen[w1] = 2
    for k in (8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
        unseen[k] = 1
    let_pass = 1 << w1
    out = native.search(
        bytes(hand), 0, 0, bytes([4, 4, 4]), bytes([1, 1, 1]), bytes(3), bytes(unseen),
        0, 2, 0, -1, 0, 0, 0, 0, bytes([b5]), 400, 777, 0.0, 0.0,
        (let_pass, let_pass, let_pass), 50, peng_passed,
    )  # fmt: skip
    return [out.count(v) for v in (0, 1, 2)]


@pytest.mark.skipif(native is None, reason="the C extension is not built")
def test_the_simulator_redeals_a_hand_that_would_have_claimed_a_tile_it_let_pass() -> None:
    """A baseline 碰 whenever the meld lowers its shanten, so a seat that let W1 pass holds no
    pair of it beside two singles (樂清's ``mc_passed_peng``). Without the check a third of the
    deals give one opponent both W1 and end in 流局; with it those deals are dealt again, and a
    流局 is left only where no seat holding a W1 gets a turn before the two wall tiles run out."""
    drawn, won, lost = _search_peng(False)
    assert lost == 0 and drawn > 90
    redealt = _search_peng(True)
    assert redealt[2] == 0 and redealt[0] < drawn / 2
