"""Paired comparison of two ``bench/doudizhu_bot_rlcard.py --log`` files (issue #16 §1).

Each log has one line per deal and role: ``deal role won``. On the deals and roles both logs
hold, prints per role the wins of each run, the deals only one of them won, and the pooled
figure of several logs of one run (``--pool``) with its 95 % Wilson interval. Usage::

    python bench/doudizhu_paired_logs.py before.txt after.txt
    python bench/doudizhu_paired_logs.py --pool run_0.txt run_1000.txt run_2000.txt
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path


def read_log(path: str) -> dict[tuple[int, str], int]:
    """{(deal, role): 1 if the bot's side won}."""
    out = {}
    for line in Path(path).read_text().splitlines():
        deal, role, won = line.split()
        out[(int(deal), role)] = int(won)
    return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of wins / n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--pool", action="store_true", help="logs of one run, disjoint deals")
    args = parser.parse_args()
    if args.pool:
        merged: dict[tuple[int, str], int] = {}
        for path in args.logs:
            merged.update(read_log(path))
        for role in sorted({r for _, r in merged}):
            results = [w for (_, r), w in merged.items() if r == role]
            deals = sorted(d for d, r in merged if r == role)
            lo, hi = wilson(sum(results), len(results))
            print(
                f"{role}: {sum(results)} / {len(results)} = {sum(results) / len(results):.1%} "
                f"[{lo:.1%}, {hi:.1%}] (deals {deals[0]}–{deals[-1]})"
            )
        return
    first, second = (read_log(p) for p in args.logs[:2])
    common = sorted(set(first) & set(second))
    for role in sorted({r for _, r in common}):
        keys = [k for k in common if k[1] == role]
        a = sum(first[k] for k in keys)
        b = sum(second[k] for k in keys)
        only_a = sum(1 for k in keys if first[k] and not second[k])
        only_b = sum(1 for k in keys if second[k] and not first[k])
        print(
            f"{role}, {len(keys)} deals: first {a} ({a / len(keys):.1%}), second {b} "
            f"({b / len(keys):.1%}); only the first won {only_a}, only the second {only_b}"
        )


if __name__ == "__main__":
    main()
