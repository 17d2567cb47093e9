"""The mahjong bot's fitted win-chance value (``play`` options ``value_step``, ``value_claim``,
``look``; issue #16 §2).

``play.win_chance`` is a logistic per shanten class fitted on the 樂清 bot's own positions
(``bench/mahjong_value_fit.py``). Discards one shanten higher by the value, claims by the
value and the one-from-ready look-ahead were A/B-tested in 樂清 and none gained
(docs/performance.md, 5 Dec 2026, branch dp), so no variant plays them; these tests keep the
value sane and the options deterministic for a later session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.rules.mahjong import play
from games.rules.mahjong.tests.helpers import turn

GAME = "mahjong_yueqing"
OPTIONS = ("value_step", "value_claim", "look")


def test_value_options_are_off_in_every_variant() -> None:
    """No variant decides by the fitted value: it lost or did nothing in 樂清's A/B."""
    for game in play.TUNING:
        for name in OPTIONS:
            assert not play.option(game, name), (game, name)


@pytest.mark.parametrize("cls", [0, 1, 2, 3])
def test_win_chance_rises_with_ukeire(cls: int) -> None:
    """At every shanten, with four or more own draws left, more 進張 means a higher chance."""
    for draws in (4, 8, 12):
        low = play.win_chance([float(cls), 8.0, 3.0, float(draws), 0.0, 1.0])
        high = play.win_chance([float(cls), 40.0, 3.0, float(draws), 0.0, 1.0])
        assert 0.0 < low < high < 1.0


def test_ready_beats_one_from_ready_of_the_same_width() -> None:
    """A ready hand is worth more than a hand one from ready with as many 進張."""
    for uk in (4.0, 12.0, 30.0):
        ready = play.win_chance([0.0, uk, 3.0, 8.0, 0.0, 1.0])
        one = play.win_chance([1.0, uk, 3.0, 8.0, 0.0, 1.0])
        assert ready > one


def test_draws_left_counts_the_bot_s_own_draws_before_the_reserve() -> None:
    """The horizon: of the draws left before 樂清's 16-tile reserve, the bot's are every fourth,
    starting after the ``ahead`` draws of the other seats."""
    r, state = turn(GAME, "B4 B8 B8 B8 B9 T1 T2 T3 T3 T6 T7 W1 W3 W4 W5 W6 W7", "routes")
    state.wall = state.wall[: 16 + 13]
    d = play.Decision(r, state, 0)
    assert d.draws_left(0) == 4  # draws 1, 5, 9, 13 of 13
    assert d.draws_left(3) == 3  # draws 4, 8, 12
    state.wall = state.wall[:16]
    assert play.Decision(r, state, 0).draws_left(0) == 0


@pytest.fixture
def value_on() -> Iterator[None]:
    saved = dict(play.TUNING[GAME])
    play.TUNING[GAME].update(value_step=True, value_claim=True, look=4, look_race=0.12)
    yield
    play.TUNING[GAME] = saved


def _actions(seed: str) -> list[dict[str, object]]:
    r = registry.get(GAME)
    state = r.new_game(r.config_from_params({}), seed, 4)
    out = []
    for _ in range(2000):
        if r.is_over(state):
            break
        seat = min(r.to_act(state))
        action = r.bot_action(state, seat)
        out.append(action)
        r.apply(state, seat, action)
    assert r.is_over(state)
    return out


def test_value_options_play_whole_hands_deterministically(value_on: None) -> None:
    """With every value option on, four bots finish 樂清 hands, the same way twice."""
    for seed in ("value-1", "value-2"):
        assert _actions(seed) == _actions(seed)
