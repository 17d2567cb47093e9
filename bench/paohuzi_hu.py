"""Bench the 跑胡子 hu / 胡息 finder on random 21-card hands with 0, 1 and 2 王.

Goal (issue 5): median under 1 ms without 王, under 5 ms with two. Run:
``.venv/bin/python bench/paohuzi_hu.py [hands]``. Prints the median, p90 and max per call, and
how many hands were complete, for random hands and for random complete-ish hands (built from
groups, where the search has most to do).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from games.rules.paohuzi.cards import WANG, counts_of
from games.rules.paohuzi.hu import find_hu
from games.rules.paohuzi.params import Config

HUNAN = Config()
SHUANGWANG = Config(variant="shuangwang", base=1)

GROUPS = (
    [(s + i, s + i + 1, s + i + 2) for s in (0, 10) for i in range(8)]
    + [(s + 1, s + 6, s + 9) for s in (0, 10)]
    + [(r, r, r + 10) for r in range(10)]
    + [(r, r + 10, r + 10) for r in range(10)]
)


def random_hand(rng: random.Random, wangs: int) -> list[int]:
    cards = [k for k in range(20) for _ in range(4)]
    rng.shuffle(cards)
    return cards[: 21 - wangs] + [WANG] * wangs


def grouped_hand(rng: random.Random, wangs: int) -> list[int]:
    """Seven random groups (one card replaced at random 30% of the time), then 王 put in."""
    while True:
        left = [4] * 20
        hand: list[int] = []
        for _ in range(7):
            group = rng.choice(GROUPS)
            if all(left[k] >= group.count(k) for k in group):
                for k in group:
                    left[k] -= 1
                hand.extend(group)
        if len(hand) == 21:
            break
    if rng.random() < 0.3:
        hand[rng.randrange(21)] = rng.choice([k for k in range(20) if left[k]])
    for i in rng.sample(range(21), wangs):
        hand[i] = WANG
    counts = counts_of(hand)
    if any(counts[k] > 4 for k in range(20)):
        return grouped_hand(rng, wangs)
    return hand


def bench(kind: str, maker, wangs: int, n: int) -> None:
    rng = random.Random(1000 + wangs)
    config = HUNAN if wangs == 0 else SHUANGWANG
    times = []
    wins = 0
    for _ in range(n):
        counts = counts_of(maker(rng, wangs))
        start = time.perf_counter()
        hu = find_hu(counts, config=config)
        times.append(time.perf_counter() - start)
        wins += hu is not None
    times.sort()
    print(
        f"{kind:8s} {wangs} 王: median {statistics.median(times) * 1e3:7.3f} ms  "
        f"p90 {times[int(0.9 * n)] * 1e3:7.3f} ms  max {times[-1] * 1e3:7.3f} ms  "
        f"hu {wins}/{n}"
    )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for wangs in (0, 1, 2):
        bench("random", random_hand, wangs, n)
        bench("grouped", grouped_hand, wangs, n)


if __name__ == "__main__":
    main()
