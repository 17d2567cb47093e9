"""Win check and best-fan search of 歡樂麻將 on random hands with 0, 1, 2 and 4 財神.

Prints, per number of 財神, the median and worst time per call of
* the shape check (``hands.is_win``) on random 14-tile hands (most are not wins), and
* the best-fan search (``HuanleRuleset.evaluate_win``: every substitution → PyMahjongGB) on
  random *winning* hands, where the work is.

Goal (issue 6): under 2 ms median and under 50 ms worst with four 財神.
Run: ``.venv/bin/python bench/mahjong_win_check.py [hands]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.chance import Chance  # noqa: E402
from games.engine.tiles import KINDS  # noqa: E402
from games.rules.mahjong.hands import SPECIAL_SHAPES, assignments, full_caps, is_win  # noqa: E402
from games.rules.mahjong.tiles import counts_of  # noqa: E402
from games.rules.mahjong.variants.huanle import HuanleRuleset  # noqa: E402

WILD = "J3"
SHAPES = frozenset(SPECIAL_SHAPES)


def random_hand(chance: Chance, wilds: int) -> list[str]:
    """14 random tiles (no 白板, which is the 財神 here) with ``wilds`` of them 財神."""
    pool = [k for k in KINDS if k != WILD for _ in range(4)]
    return chance.shuffled(pool)[: 14 - wilds] + [WILD] * wilds


def winning_hand(chance: Chance, wilds: int) -> list[str]:
    """A random winning hand (sets + pair) with ``wilds`` tiles turned into 財神."""
    while True:
        tiles: list[str] = []
        for _ in range(4):
            if chance.below(3) == 0:
                tiles += [chance.choice(KINDS[:-1])] * 3
            else:
                suit = chance.choice("WTB")
                n = 1 + chance.below(7)
                tiles += [f"{suit}{n}", f"{suit}{n + 1}", f"{suit}{n + 2}"]
        tiles += [chance.choice(KINDS[:-1])] * 2
        if max(Counter(tiles).values()) <= 4:
            break
    tiles = chance.shuffled(tiles)
    for i in range(wilds):
        tiles[i] = WILD
    return tiles


def timed(fn, items) -> list[float]:
    out = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    ruleset = HuanleRuleset()
    config = ruleset.config_from_params({})
    base = ruleset.new_game(config, "bench", 4)
    base.vars["wild"] = [WILD]
    print(f"{n} hands per row; times in ms per call")
    print(f"{'財神':>4} {'check median':>13} {'check worst':>12} "
          f"{'best-fan median':>16} {'best-fan worst':>15} {'substitutions (median / max)':>30}")
    for wilds in (0, 1, 2, 4):
        chance = Chance(f"bench-{wilds}", "bench")

        def check(tiles: list[str]) -> bool:
            naturals = [t for t in tiles if t != WILD]
            counts = counts_of(naturals)
            return is_win(counts, len(tiles) - len(naturals), full_caps(counts), 4, SHAPES)

        checks = timed(check, [random_hand(chance, wilds) for _ in range(n)])
        subs: list[int] = []

        def best(tiles: list[str]) -> None:
            base.hands[0] = list(tiles)
            base.drawn[0] = tiles[-1]
            base.phase = "turn"
            base.current = 0
            ctx = ruleset.win_context(base, 0)
            ev = ruleset.evaluate_win(base, ctx)
            assert ev is not None
            naturals = [t for t in tiles if t != WILD]
            counts = counts_of(naturals)
            subs.append(len(assignments(counts, len(tiles) - len(naturals), full_caps(counts), 4,
                                        SHAPES)))

        fans = timed(best, [winning_hand(chance, wilds) for _ in range(n)])
        print(f"{wilds:>4} {statistics.median(checks):>13.3f} {max(checks):>12.3f} "
              f"{statistics.median(fans):>16.3f} {max(fans):>15.3f} "
              f"{statistics.median(subs):>7.0f} / {max(subs):<6}")


if __name__ == "__main__":
    main()
