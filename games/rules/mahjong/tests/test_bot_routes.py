"""樂清's bot counts the claim routes of its 進張 (``play`` options ``peng_w`` / ``chi_w``;
issue #16 §2).

Not yet ready, a 進張 kind the bot holds a pair of can also come as a 碰 off any of three
seats, and one that completes a run as a 吃 off the left seat: 樂清 counts each copy of the
first 1 + 3 and of the second 1 + 1 (measured: docs/performance.md, 5 Dec 2026, branch lq21)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.rules.mahjong import play
from games.rules.mahjong.core import MahjongRuleset, State
from games.rules.mahjong.tests.helpers import tuned, turn

# seed "routes": 財神 B3, 明牌 B2, flower J3. Two shanten-2 discards: T3 (one of the T3 pair)
# leaves one tile more to draw (38 against 37), B4 keeps the pair, which a 碰 off any seat
# can make a set
HAND = "B4 B8 B8 B8 B9 T1 T2 T3 T3 T6 T7 W1 W3 W4 W5 W6 W7"
GAME = "mahjong_yueqing"


def _turn() -> tuple[MahjongRuleset, State]:
    r, state = turn(GAME, HAND, "routes")
    assert state.vars["wild"] == ["B3"]
    assert {state.vars["indicator"], state.vars["flower_kind"]} == {"B2", "J3"}
    return r, state


@pytest.fixture
def no_routes() -> Iterator[None]:
    with tuned(GAME, peng_w=0.0, chi_w=0.0):
        yield


def _rest(tile: str) -> list[str]:
    rest = HAND.split()
    rest.remove(tile)
    return rest


def test_yueqing_counts_claim_routes() -> None:
    """樂清's bot plays with the claim routes on (switched on by measurement)."""
    assert play.option(GAME, "peng_w") == 3.0
    assert play.option(GAME, "chi_w") == 1.0


def test_keeps_the_pair_a_peng_can_complete() -> None:
    """With the routes counted the bot throws B4 and keeps the T3 pair (a 碰 off any seat)."""
    r, state = _turn()
    d = play.Decision(r, state, 0)
    assert d.shanten(_rest("T3")) == d.shanten(_rest("B4")) == 2
    assert d.ukeire(_rest("B4"), 2) > d.ukeire(_rest("T3"), 2)
    assert r.bot_action(state, 0) == {"type": "discard", "tile": "B4"}


def test_draws_only_without_the_routes(no_routes: None) -> None:
    """Counting draws alone, T3 leaves more 進張, and the bot breaks the pair."""
    r, state = _turn()
    d = play.Decision(r, state, 0)
    assert d.ukeire(_rest("T3"), 2) > d.ukeire(_rest("B4"), 2)
    assert r.bot_action(state, 0) == {"type": "discard", "tile": "T3"}
