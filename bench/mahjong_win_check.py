"""Win check and best-fan search of 歡樂麻將 on random hands with 0, 1, 2 and 4 財神.

Prints, per number of 財神, the median and worst time per call of
* the shape check (``hands.is_win``) on random 14-tile hands (most are not wins), and
* the best-fan search (``HuanleRuleset.evaluate_win``: every substitution → PyMahjongGB) on
  random *winning* hands, where the work is.

Each call is timed cold (every memo cleared first) and, because the machine is shared, as the
lowest of a few runs; wall and CPU time are both printed. A last row has the 財神 as the drawn
winning tile. Goal (issue 6): under 2 ms median and under 50 ms worst with four 財神.
Run: ``.venv/bin/python bench/mahjong_win_check.py [hands] [runs per hand]`` (300, 3).
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
from games.rules.mahjong import gb, hands  # noqa: E402
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


def clear_caches() -> None:
    """Forget every memo, so that each call is timed cold (the worst case of a fresh hand)."""
    for fn in (hands._regular_plain, hands._regular_wild, hands._wild_only, gb.gb_fans_unchecked):
        fn.cache_clear()


def timed(fn, items, repeat: int) -> tuple[list[float], list[float]]:
    """Per item: (wall ms, CPU ms) of one cold call, the lowest of ``repeat`` runs.

    The machine is shared: other processes steal the CPU in bursts, so one run's wall time
    measures the neighbours as much as the call. The lowest of a few cold runs is the cost of
    the call; ``repeat=1`` gives the raw single-run figures.
    """
    walls, cpus = [], []
    for item in items:
        wall = cpu = float("inf")
        for _ in range(repeat):
            clear_caches()
            start, start_cpu = time.perf_counter(), time.process_time()
            fn(item)
            wall = min(wall, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
        walls.append(wall * 1000)
        cpus.append(cpu * 1000)
    return walls, cpus


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ruleset = HuanleRuleset()
    config = ruleset.config_from_params({})
    base = ruleset.new_game(config, "bench", 4)
    base.vars["wild"] = [WILD]
    print(
        f"{n} hands per row, each call cold, the lowest of {repeat} runs; ms per call "
        "(wall; CPU in brackets)"
    )
    print(
        f"{'財神':>6} {'check median':>16} {'check worst':>16} "
        f"{'best-fan median':>16} {'best-fan worst':>16} {'substitutions':>14}"
    )
    rows = [(0, False), (1, False), (2, False), (4, False), (4, True)]
    for wilds, drawn_wild in rows:
        chance = Chance(f"bench-{wilds}", "bench")

        def check(tiles: list[str]) -> bool:
            naturals = [t for t in tiles if t != WILD]
            counts = counts_of(naturals)
            return is_win(counts, len(tiles) - len(naturals), full_caps(counts), 4, SHAPES)

        checks, check_cpu = timed(check, [random_hand(chance, wilds) for _ in range(n)], repeat)

        def best(tiles: list[str]) -> None:
            base.hands[0] = list(tiles)
            base.drawn[0] = tiles[-1]
            base.phase = "turn"
            base.current = 0
            ctx = ruleset.win_context(base, 0)
            assert ruleset.evaluate_win(base, ctx) is not None

        winners = []
        for _ in range(n):
            tiles = winning_hand(chance, wilds)
            if drawn_wild:  # the last tile is the drawn one: here a 財神
                tiles = [t for t in tiles if t != WILD] + [WILD] * wilds
            winners.append(tiles)
        fans, fans_cpu = timed(best, winners, repeat)
        subs = []
        for tiles in winners:
            naturals = [t for t in tiles if t != WILD]
            counts = counts_of(naturals)
            subs.append(
                len(assignments(counts, len(tiles) - len(naturals), full_caps(counts), 4, SHAPES))
            )
        label = f"{wilds}{'*' if drawn_wild else ''}"
        cells = [
            (statistics.median(checks), statistics.median(check_cpu)),
            (max(checks), max(check_cpu)),
            (statistics.median(fans), statistics.median(fans_cpu)),
            (max(fans), max(fans_cpu)),
        ]
        print(
            f"{label:>6} "
            + " ".join(f"{w:>7.3f} ({c:>6.3f})" for w, c in cells)
            + f" {statistics.median(subs):>5.0f} / {max(subs):<5}"
        )
    print("* the winning tile is a drawn 財神 (it may stand for any of its kinds)")


if __name__ == "__main__":
    main()
