"""Pair two runs of ``bench/mahjong_bot_ab.py`` hand by hand (issue #16 §2).

Reads the JSON lines of ``--out`` files and, for two labels on the same game, seed and range,
prints each run's share of the won hands, then *gained* (hands the second run's bot won and the
first's did not), *lost* (the reverse) and z = (gained − lost) / √(gained + lost), the sign test
of the paired difference.

Usage: python bench/mahjong_ab_pair.py var/ab.jsonl base variant
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any


def main() -> None:
    path, a_label, b_label = sys.argv[1:4]
    runs: dict[str, dict[str, Any]] = {}
    with open(path) as fh:
        for line in fh:
            rec = json.loads(line)
            runs[rec["label"]] = rec
    a, b = runs[a_label], runs[b_label]
    same = ("game", "seed", "start", "hands")
    if any(a[k] != b[k] for k in same):
        raise SystemExit("the two runs are not on the same hands")
    gained = sum(1 for x, y in zip(a["won"], b["won"]) if y == 1 and x != 1)
    lost = sum(1 for x, y in zip(a["won"], b["won"]) if x == 1 and y != 1)
    z = (gained - lost) / math.sqrt(gained + lost) if gained + lost else 0.0
    print(
        f"{a['game']} {a['seed']}-{a['start']}…{a['start'] + a['hands'] - 1}: "
        f"{a_label} {a['wins']}/{a['decided']} = {a['share']:.1%} → "
        f"{b_label} {b['wins']}/{b['decided']} = {b['share']:.1%} | "
        f"gained {gained} lost {lost} z {z:+.2f}"
    )


if __name__ == "__main__":
    main()
