"""Speed of the 歡樂三張 engine: hand comparison, a whole bot hand, and views.

Usage: python bench/zhajinhua_compare.py
Prints medians over repeated batches (figures, not assertions).
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import suited_deck  # noqa: E402
from games.engine.chance import Chance  # noqa: E402
from games.rules.zhajinhua import RULESET, Config, compare  # noqa: E402
from games.rules.zhajinhua.hands import _key  # noqa: E402


def median_per_call(fn, calls: int, batches: int = 7) -> float:
    times = []
    for _ in range(batches):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def main() -> None:
    hands = list(combinations(suited_deck(), 3))
    pick = Chance("bench", "pairs")
    pairs = [(hands[pick.below(len(hands))], hands[pick.below(len(hands))]) for _ in range(20000)]

    def cold() -> None:
        _key.cache_clear()
        for a, b in pairs:
            compare(a, b)

    def warm() -> None:
        for a, b in pairs:
            compare(a, b)

    cold_t = median_per_call(cold, len(pairs))
    warm()
    warm_t = median_per_call(warm, len(pairs))

    def all_hands() -> None:
        _key.cache_clear()
        for hand in hands:
            _key(hand)

    classify_t = median_per_call(all_hands, len(hands), batches=3)

    def bot_hands(seats: int, count: int) -> tuple[float, float]:
        steps = 0
        start = time.perf_counter()
        for i in range(count):
            state = RULESET.new_game(Config(dealer=i), f"bench-{seats}-{i}", seats)
            while not RULESET.is_over(state):
                (seat,) = RULESET.to_act(state)
                RULESET.apply(state, seat, RULESET.bot_action(state, seat))
                steps += 1
        elapsed = time.perf_counter() - start
        return elapsed / count, elapsed / steps

    state = RULESET.new_game(Config(), "bench-view", 6)
    view_t = median_per_call(lambda: [RULESET.view(state, s) for s in range(6)], 6)

    print("歡樂三張 engine")
    print(f"  compare, cold cache   {cold_t * 1e6:8.2f} µs per call (median of 7 × 20,000)")
    print(f"  compare, warm cache   {warm_t * 1e6:8.2f} µs per call")
    print(f"  classify all 22,100   {classify_t * 1e6:8.2f} µs per hand")
    for seats in (2, 6):
        per_hand, per_step = bot_hands(seats, 300)
        print(
            f"  {seats}-seat bot hand      {per_hand * 1e3:8.2f} ms per hand "
            f"({per_step * 1e6:.1f} µs per action incl. the bot)"
        )
    print(f"  view (6 seats)        {view_t * 1e6:8.2f} µs per seat view")


if __name__ == "__main__":
    main()
