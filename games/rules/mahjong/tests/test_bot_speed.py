"""The bot's shanten search (per-suit tables, 進張 by one combination, dead kinds) and 樂清's
out-of-play kinds in the bot's count (issue #16 §2)."""

from __future__ import annotations

import time
from functools import cache

import games.rules.mahjong  # noqa: F401  (registers)
from games.engine import registry
from games.engine.chance import Chance
from games.engine.tiles import standard_wall
from games.rules.mahjong import play
from games.rules.mahjong.bot import regular_shanten, shanten_after_draws
from games.rules.mahjong.tiles import KIND_INDEX, counts_of, is_suited_index


@cache
def _whole(counts: tuple[int, ...], start: int) -> dict[tuple[int, int], int]:
    """Oracle: the same count over the whole 34-kind array at once (no per-suit split)."""
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i >= 34:
        return {(0, 0): 0}
    out: dict[tuple[int, int], int] = {}

    def go(ks: tuple[int, ...], dm: int, dp: int, dt: int) -> None:
        lst = list(counts)
        for k in ks:
            lst[k] -= 1
        for (m, p), t in _whole(tuple(lst), i).items():
            if p + dp <= 1 and out.get((m + dm, p + dp), -1) < t + dt:
                out[(m + dm, p + dp)] = t + dt

    suited, pos = is_suited_index(i), i % 9
    if counts[i] >= 3:
        go((i, i, i), 1, 0, 0)
    if suited and pos <= 6 and counts[i + 1] and counts[i + 2]:
        go((i, i + 1, i + 2), 1, 0, 0)
    if counts[i] >= 2:
        go((i, i), 0, 1, 0)
        go((i, i), 0, 0, 1)
    if suited and pos <= 7 and counts[i + 1]:
        go((i, i + 1), 0, 0, 1)
    if suited and pos <= 6 and counts[i + 2]:
        go((i, i + 2), 0, 0, 1)
    go((i,), 0, 0, 0)
    return out


def _oracle(counts: tuple[int, ...], wilds: int, sets: int) -> int:
    best = 99
    for (m, p), t in _whole(counts, 0).items():
        m = min(m, sets)
        best = min(best, 2 * (sets - m) - min(t, sets - m) - p)
    return max(-1, best - wilds)


def _hands(n: int) -> list[tuple[tuple[int, ...], int, int]]:
    wall = standard_wall(with_flowers=False)
    out = []
    for i in range(n):
        ch = Chance(f"shanten-{i}", "t")
        size = (1, 4, 7, 10, 13, 14, 16, 17)[ch.below(8)]
        tiles = ch.shuffled(wall)[:size]
        out.append((counts_of(tiles), ch.below(4), 1 + ch.below(5)))
    return out


def test_per_suit_search_equals_the_whole_hand_search() -> None:
    """On 600 seeded hands of 1–17 tiles, 0–3 wilds and 1–5 sets the per-suit count equals the
    search over the whole counts array (so splitting by suit changed no bot decision)."""
    for counts, wilds, sets in _hands(600):
        assert regular_shanten(counts, wilds, sets) == _oracle(counts, wilds, sets)


def test_shanten_after_draws_equals_adding_each_tile() -> None:
    """The 進張 shortcut gives, for every kind, the count of the hand with that tile added."""
    for counts, wilds, sets in _hands(150):
        got = shanten_after_draws(counts, wilds, sets, list(range(34)))
        for k in range(34):
            plus = list(counts)
            plus[k] += 1
            assert got[k] == regular_shanten(tuple(plus), wilds, sets)


def test_a_partial_set_waiting_on_a_dead_kind_is_no_partial_set() -> None:
    """W4 W6 waits on W5 only: with every W5 out of play it counts as two singles; a pair whose
    third copy is gone still serves as the pair."""
    hand = counts_of("W1 W2 W3 T1 T2 T3 B1 B2 B3 W4 W6 F1 F1".split())
    live = regular_shanten(hand, 0, 4)
    dead_w5 = 1 << KIND_INDEX["W5"]
    assert live == 0
    assert regular_shanten(hand, 0, 4, dead_w5) == 1
    assert regular_shanten(hand, 0, 4, 1 << KIND_INDEX["F1"]) == 0


def test_yueqing_bot_treats_gangtou_waits_as_dead() -> None:
    """In 樂清 the 明牌's kind (here B3: 財神 B4, the other B3 are 杠頭 flowers) and the flower
    kind (白板) never stay in a hand: the bot counts every copy as seen, so B1 B2 waiting on
    B3 alone is no wait — the hand is one from ready, not ready — while the 財神 kind is
    never dead."""
    r = registry.get("mahjong_yueqing")
    state = r.new_game(r.config_from_params({}), "bot-dead", 4)
    state.vars.update(indicator="B3", wild=["B4"], set_aside=["B3"], flower_kind="J3")
    rest = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 F2 F2 B1 B2".split()
    state.hands[0] = rest + ["J2"]
    state.melds = [[] for _ in range(4)]
    state.flowers = [[] for _ in range(4)]
    state.discards = [[] for _ in range(4)]
    state.current = 0
    state.drawn = ["J2", None, None, None]
    d = play.Decision(r, state, 0)
    assert d.seen("B3") == 4 and d.seen("J3") == 4
    assert d.dead >> KIND_INDEX["B3"] & 1 and d.dead >> KIND_INDEX["J3"] & 1
    assert not d.dead >> KIND_INDEX["B4"] & 1
    assert regular_shanten(counts_of(rest), 0, 5) == 0  # blind to the 杠頭: "ready on B3"
    assert d.shanten(rest) == 1
    assert r.bot_action(state, 0) == {"type": "discard", "tile": "J2"}


def test_yueqing_decisions_stay_inside_the_budget() -> None:
    """Whole 樂清 hands between bots (財神, 17-tile hands): every decision under 200 ms of CPU
    and the median under 20 ms (the bench measures the real p95 / p99)."""
    r = registry.get("mahjong_yueqing")
    config = r.config_from_params({})
    times: list[float] = []
    for i in range(3):
        state = r.new_game(config, f"budget-{i}", 4)
        while not r.is_over(state):
            seat = min(r.to_act(state))
            t0 = time.process_time()
            action = r.bot_action(state, seat)
            times.append(time.process_time() - t0)
            r.apply(state, seat, action)
    times.sort()
    assert times[-1] < 0.2
    assert times[len(times) // 2] < 0.02
