"""歡樂麻將's best-fan search against the brute-force oracle, on many more wins than the suite.

The suite (``games/rules/mahjong/tests/test_huanle_oracle.py``) checks 150 seeded wins; this
plays ``--hands`` more (another seed, more of them with three and four 財神) through the engine
and checks each the same way (``check``: the engine's total is the oracle's best over every
reading, with a reading the oracle finds best and the same fans). ``--unfiltered N`` also
scores the first N hands with every reading sent to PyMahjongGB (the oracle's shape check off)
and asserts the same best: slow, about 66 000 PyMahjongGB calls for a hand with four 財神.

    nice -n 19 .venv/bin/python bench/huanle_oracle.py --hands 600 --unfiltered 20

Prints a line per 50 hands, then per number of 財神 and per event: hands, wins, failures, time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")


def main() -> None:
    import django

    django.setup()
    from games.rules.mahjong.tests.huanle_oracle import oracle_best
    from games.rules.mahjong.tests.huanle_scenarios import scenarios
    from games.rules.mahjong.tests.test_huanle_oracle import check

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--seed", default="huanle-oracle-bench")
    parser.add_argument("--unfiltered", type=int, default=0)
    args = parser.parse_args()
    started = time.monotonic()
    played = scenarios(args.seed, args.hands, {0: 1, 1: 2, 2: 2, 3: 3, 4: 3})
    print(f"{args.hands} scenarios dealt and played in {time.monotonic() - started:.1f} s")
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    seconds: Counter[str] = Counter()
    failures: list[str] = []
    labels: Counter[str] = Counter()
    for i, p in enumerate(played, 1):
        t0 = time.monotonic()
        try:
            total = check(p)
            if i <= args.unfiltered:
                fast = oracle_best(p.win)
                slow = oracle_best(p.win, prefilter=False)
                assert (fast.total, fast.readings) == (slow.total, slow.readings), "prefilter"
                rows["unfiltered"]["hands"] += 1
        except AssertionError as error:
            failures.append(f"{p.labels}: {str(error)[:600]}")
            print("FAILED", failures[-1], flush=True)
            total = None
        spent = time.monotonic() - t0
        for key in (f"{p.win.wilds} 財神", p.event):
            rows[key]["hands"] += 1
            rows[key]["wins"] += total is not None and total >= 0
            rows[key]["failures"] += total is None
            seconds[key] += spent
        if total is not None and total >= 0:
            labels.update(p.labels)
        if i % 50 == 0:
            print(
                f"{i} hands, {len(failures)} failures, {time.monotonic() - started:.0f} s",
                flush=True,
            )
    print(f"\n{'':<14} {'hands':>6} {'wins':>6} {'failures':>8} {'s':>8}")
    for key, row in rows.items():
        print(
            f"{key:<14} {row['hands']:>6} {row['wins']:>6} {row['failures']:>8} "
            f"{seconds[key]:>8.1f}"
        )
    print("wins covered:", dict(labels))
    print(f"total {time.monotonic() - started:.0f} s, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
