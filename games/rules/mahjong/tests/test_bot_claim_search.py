"""樂清's bot chooses among pass / 碰 / 吃 by simulating the rest of the hand (``play`` option
``mc_claim``; issue #16 §2; measured: docs/performance.md, 5 Dec 2026, branch mc2)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.rules.mahjong import baseline, play
from games.rules.mahjong import bot as botlib
from games.rules.mahjong.core import MahjongRuleset, State
from games.rules.mahjong.tests.helpers import tuned

GAME = "mahjong_yueqing"
SEARCH = {"mc_claim": 300, "mc_claim_sh": 3, "mc_stop": 2.0}

pytestmark = pytest.mark.skipif(botlib.native is None, reason="the C extension is not built")


@pytest.fixture
def search_on() -> Iterator[None]:
    with tuned(GAME, **SEARCH):
        yield


def _claim_decision(seed: str, nth: int) -> tuple[MahjongRuleset, State]:
    """The bot's (seat 0, baselines around it) ``nth`` claim decision of the seeded hand."""
    r = registry.get(GAME)
    assert isinstance(r, MahjongRuleset)
    state = r.new_game(r.config_from_params({}), seed, 4)
    seen = 0
    while not r.is_over(state):
        seat = min(r.to_act(state))
        if seat == 0 and state.phase == "claim":
            seen += 1
            if seen == nth:
                return r, state
        act = play.bot_action if seat == 0 else baseline.baseline_action
        r.apply(state, seat, act(r, state, seat))
    raise AssertionError("the hand ended before that decision")


def test_the_simulation_passes_a_chi_the_rule_would_take(search_on: None) -> None:
    """Seed claims-25, the bot's first claim window: T2 off the left seat with B1 B6 B6 B7 B7
    J2 T3 T4 T5 T6 T8 T9 W3 W7 W8 W9 (財神 W7). The claim rule takes 吃 T3 T4 (it lowers
    the shanten); played out on the same 300 deals, passing wins clearly more (paired z above
    1), so the bot passes."""
    r, state = _claim_decision("claims-25", 1)
    assert sorted(state.hands[0]) == ("B1 B6 B6 B7 B7 J2 T3 T4 T5 T6 T8 T9 W3 W7 W8 W9".split())
    assert state.claim is not None and state.claim["tile"] == "T2"
    assert r.bot_action(state, 0) == {"type": "pass"}
    play.TUNING[GAME]["mc_claim"] = 0
    assert r.bot_action(state, 0) == {"type": "chi", "tiles": ["T3", "T4"]}


def test_claim_search_is_deterministic_and_reads_no_hidden_tile(search_on: None) -> None:
    """The same claim state gives the same answer, also when the tiles the bot cannot see
    are dealt differently (the seed is made of what it sees)."""
    r, state = _claim_decision("claims-25", 1)
    action = r.bot_action(state, 0)
    assert r.bot_action(state, 0) == action
    for k in range(3):
        assert r.bot_action(r.resample_hidden(state, 0, f"other-{k}"), 0) == action


def test_without_the_extension_claims_follow_the_rule(
    search_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``_mjsim`` missing the claim search is skipped: the rule's 吃."""
    r, state = _claim_decision("claims-25", 1)
    monkeypatch.setattr(botlib, "native", None)
    assert r.bot_action(state, 0) == {"type": "chi", "tiles": ["T3", "T4"]}


def test_yueqing_searches_its_claims() -> None:
    """樂清's bot plays with the simulated claim search on (switched on by measurement), and
    the simulated discard search only when a discard leaves the hand ready (with the redeal on
    tiles let pass — a 胡 or, since later that day, a 碰 it would have made — and the warm-up
    counting claimed discards: measured together, 6 Dec 2026);
    further from ready it did not gain."""
    for name, value in SEARCH.items():
        assert play.option(GAME, name) == value
    assert (play.option(GAME, "mc"), play.option(GAME, "mc_max_sh")) == (200, 0)
    assert play.option(GAME, "mc_passed") == 10 and play.option(GAME, "warm_claimed")
    assert play.option(GAME, "mc_passed_peng")
    for other in ("mahjong_huanle", "mahjong_yongzhou"):
        assert play.option(other, "mc") == 0 and play.option(other, "mc_passed") == 0
        assert not play.option(other, "mc_passed_peng")
    assert play.option("mahjong_huanle", "mc_claim") == 0
    assert play.option("mahjong_yongzhou", "mc_claim") == 0
