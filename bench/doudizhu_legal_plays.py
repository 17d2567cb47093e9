"""Median time per games.rules.doudizhu.legal_plays call over a fixed seeded set of cases.

Cases: random 17- and 20-card hands (seeded), half leading, half following a play drawn from
another random hand's legal plays; run with 0, 1 and 4 癩子 in hand. Figures for all cases, for
leading and following, and for the 20-card hands alone (the issue's goal is about any 20-card
hand). legal_plays keeps no cache between calls, so the best of --repeat is a cold call's time.
Each figure is given for the C generator (patterns.NATIVE, when the extension is built) and for
the Python reference generator (patterns.NATIVE switched off), on the same cases.
Prints figures and the load average, asserts nothing. The comparison with public generators is
bench/doudizhu_movegen_compare.py.
Usage: python bench/doudizhu_legal_plays.py [--cases 2000] [--repeat 3] [--python-only]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import doudizhu_deck  # noqa: E402
from games.rules.doudizhu import legal_plays, patterns  # noqa: E402
from games.rules.doudizhu.patterns import RANKS, sort_cards  # noqa: E402


def make_cases(n: int, wild: int, seed: int = 12345) -> list[tuple[str, str | None, str | None]]:
    rng = random.Random(seed * 10 + wild)
    cases = []
    for i in range(n):
        deck = doudizhu_deck()
        rng.shuffle(deck)
        size = 20 if i % 2 else 17
        laizi = None
        if wild:
            laizi = RANKS[rng.randrange(13)]
            others = [c for c in deck if c != laizi]
            hand = sort_cards("".join(others[: size - wild]) + laizi * wild)
            rest = others[size - wild :]
        else:
            hand = sort_cards("".join(deck[:size]))
            rest = deck[size:]
        last = None
        if i % 4 >= 2:
            other = sort_cards("".join(rest[:17]))
            options = [p for p in legal_plays(other) if "/" not in p]
            last = rng.choice(options)
        cases.append((hand, last, laizi))
    return cases


def run(cases, repeat: int) -> tuple[float, float, float, float]:
    times = []
    total_plays = 0
    for hand, last, laizi in cases:
        best = None
        for _ in range(repeat):
            t0 = time.perf_counter_ns()
            out = legal_plays(hand, last, laizi)
            dt = time.perf_counter_ns() - t0
            best = dt if best is None else min(best, dt)
        total_plays += len(out)
        times.append(best / 1e3)
    times.sort()
    return (
        statistics.median(times),
        times[int(len(times) * 0.95)],
        times[-1],
        total_plays / len(cases),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--python-only", action="store_true", help="only the Python reference generator"
    )
    args = parser.parse_args()
    native = patterns.NATIVE
    engines = ([("C", True)] if native and not args.python_only else []) + [("Python", False)]
    print(
        f"legal_plays: {args.cases} seeded cases (17/20-card hands, half leading), "
        f"best of {args.repeat} per case, times in µs; load average {os.getloadavg()[0]:.2f}"
        + ("" if native else " (the C extension is not in use)")
    )
    for wild in (0, 1, 4):
        cases = make_cases(args.cases, wild)
        for engine, flag in engines:
            patterns.NATIVE = flag
            for label, subset in (
                ("all", cases),
                ("lead", [c for c in cases if c[1] is None]),
                ("follow", [c for c in cases if c[1] is not None]),
                ("20 all", [c for c in cases if len(c[0]) == 20]),
                ("20 lead", [c for c in cases if len(c[0]) == 20 and c[1] is None]),
                ("20 fol.", [c for c in cases if len(c[0]) == 20 and c[1]]),
            ):
                med, p95, worst, avg = run(subset, args.repeat)
                print(
                    f"  {engine:6s} 癩子 in hand {wild}  {label:7s} median {med:8.1f}  "
                    f"p95 {p95:8.1f}  max {worst:9.1f}  plays/call {avg:7.1f}"
                )
        patterns.NATIVE = native
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
