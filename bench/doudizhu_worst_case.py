"""The 20-card hands with four 癩子 that give legal_plays the most readings when leading.

The issue's goal for legal_plays is under 1 ms for any 20-card hand; the median is far below
it, so what decides it are the few hands with the most distinct readings. This searches for
them: seeded random restarts, each a hill-climb on the number of plays legal_plays returns when
leading (one card swapped for another, or the 癩子 rank moved to another rank; a change is kept
when the count does not drop), counted with the C generator when it is built (else Python),
for --seconds in all. Then the --top hands found are timed, best of --repeat cold calls, with
the C generator and the Python reference. Prints the hands, reading counts, times in µs and
the load average; asserts nothing.
Usage: python bench/doudizhu_worst_case.py [--seconds 60] [--seed 1] [--top 8] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.doudizhu import legal_plays, patterns
from games.rules.doudizhu.patterns import RANKS

HAND_SIZE = 20
WILD = 4


def hand_of(counts: list[int]) -> str:
    return "".join(RANKS[r] * n for r, n in enumerate(counts))


def random_hand(rng: random.Random) -> tuple[list[int], int]:
    """Counts of a 20-card hand with all four cards of a random 癩子 rank."""
    lz = rng.randrange(13)
    deck = [r for r in range(13) if r != lz for _ in range(4)] + [13, 14]
    counts = [0] * 15
    counts[lz] = WILD
    for r in rng.sample(deck, HAND_SIZE - WILD):
        counts[r] += 1
    return counts, lz


def neighbour(rng: random.Random, counts: list[int], lz: int) -> tuple[list[int], int]:
    """One card swapped for another one not in hand, or (one time in eight) the 癩子 rank
    exchanged with another rank's count."""
    c = counts[:]
    if rng.random() < 0.125:
        r = rng.randrange(13)
        if r != lz:
            c[r], c[lz] = c[lz], c[r]
            return c, r
    out = rng.choice([r for r in range(15) if c[r] and r != lz])
    room = [r for r in range(15) if r != lz and r != out and c[r] < (1 if r >= 13 else 4)]
    c[out] -= 1
    c[rng.choice(room)] += 1
    return c, lz


def readings(counts: list[int], lz: int) -> int:
    return len(legal_plays(hand_of(counts), None, RANKS[lz]))


def search(seconds: float, seed: int, keep: int) -> list[tuple[int, str, str]]:
    """The ``keep`` distinct (readings, hand, laizi) with the most readings found."""
    rng = random.Random(seed)
    found: dict[tuple[str, str], int] = {}
    end = time.monotonic() + seconds
    climbs = evals = 0
    while time.monotonic() < end:
        climbs += 1
        counts, lz = random_hand(rng)
        score = readings(counts, lz)
        stale = 0
        while stale < 300 and time.monotonic() < end:
            c2, lz2 = neighbour(rng, counts, lz)
            s2 = readings(c2, lz2)
            evals += 1
            if s2 >= score:
                stale = 0 if s2 > score else stale + 1
                counts, lz, score = c2, lz2, s2
            else:
                stale += 1
        found[(hand_of(counts), RANKS[lz])] = score
    print(f"search: {climbs} hill-climbs, {evals} hands tried in {seconds:.0f} s (seed {seed})")
    best = sorted(((s, h, lz) for (h, lz), s in found.items()), reverse=True)
    return best[:keep]


def best_time(hand: str, laizi: str, repeat: int) -> float:
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        legal_plays(hand, None, laizi)
        dt = time.perf_counter_ns() - t0
        best = dt if best is None else min(best, dt)
    return best / 1e3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0, help="time for the search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=8, help="hands to print")
    parser.add_argument("--repeat", type=int, default=5, help="timed calls per hand (best)")
    args = parser.parse_args()
    native = patterns.NATIVE
    print(
        f"worst-case legal_plays, 20-card hands with four 癩子, leading; load average "
        f"{os.getloadavg()[0]:.2f}" + ("" if native else " (the C extension is not in use)")
    )
    top = search(args.seconds, args.seed, args.top)
    print(
        f"load average after the search {os.getloadavg()[0]:.2f}; times: best of {args.repeat}, µs"
    )
    print(f"  {'hand':22s} 癩子 readings {'C µs':>8s} {'ns/reading':>10s} {'Python µs':>10s}")
    for score, hand, laizi in top:
        c_us = None
        if native:
            patterns.NATIVE = True
            c_us = best_time(hand, laizi, args.repeat)
        patterns.NATIVE = False
        py_us = best_time(hand, laizi, args.repeat)
        patterns.NATIVE = native
        c_text = f"{c_us:8.1f} {1e3 * c_us / score:10.1f}" if c_us is not None else f"{'-':>19s}"
        print(f"  {hand:22s} {laizi:4s} {score:8d} {c_text} {py_us:10.1f}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
