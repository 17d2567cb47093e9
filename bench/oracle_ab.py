"""Paired A/B of mahjong bot options (issue #16 §2): the same seeds, the bench's mixed table.

For hand h (seed ``f"{seed}-{h}"``) the bot sits in seat h mod 4 and the baseline
(``games/rules/mahjong/baseline.py``) fills the other three seats, exactly as in
``bench/bots_vs_baseline.py``'s mixed run, but with ``play.TUNING`` of the game overridden by
``--set name=value`` (JSON values). Prints the bot's share of won hands and, per hand, whether
the bot won, as one JSON line (``--out`` appends it), so two runs on the same seeds can be paired.

Usage: python bench/mahjong_bot_ab.py --game mahjong_yueqing --hands 400 --seed ab \
    --set lookahead=true --label look
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bots_vs_baseline import play, setup, wilson  # noqa: E402

from games.rules.mahjong import play as mjplay  # noqa: E402
from games.rules.mahjong.tiles import KIND_INDEX

def oracle(d, others, unseen, flowers):
    st = d.state
    rem = list(unseen)
    order = []
    for o in others:
        for t in st.hands[o]:
            k = KIND_INDEX[t]; order.append(k); rem[k] -= 1
    for o in others:
        for m in st.melds[o]:
            if m["kind"] == "angang":
                for t in m["tiles"]:
                    k = KIND_INDEX[t]; order.append(k); rem[k] -= 1
    for k in range(34):
        if not (flowers >> k) & 1:
            order += [k] * rem[k]
    assert min(rem) >= 0, rem
    return bytes(order)

import os
if os.environ.get("ORACLE"): mjplay.ORACLE = oracle


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", default="ab")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--label", default="")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    over = {}
    for item in args.set:
        k, v = item.split("=", 1)
        over[k] = json.loads(v)
    mjplay.TUNING[args.game] = {**mjplay.TUNING.get(args.game, {}), **over}
    ruleset, config, seats, bot, base = setup(args.game)
    won: list[int] = []
    wins = decided = 0
    times: list[float] = []
    c0 = time.process_time()
    for h in range(args.start, args.start + args.hands):
        me = h % seats
        players = [bot if s == me else base for s in range(seats)]
        res = play(ruleset, config, f"{args.seed}-{h}", seats, players, times, me)
        mark = 1 if me in res.winners else (0 if res.winners else -1)
        won.append(mark)
        wins += mark == 1
        decided += mark >= 0
    lo, hi = wilson(wins, decided)
    times.sort()
    p95 = times[int(0.95 * len(times))] * 1000 if times else 0.0
    out = {
        "label": args.label,
        "game": args.game,
        "seed": args.seed,
        "start": args.start,
        "hands": args.hands,
        "tuning": mjplay.TUNING[args.game],
        "wins": wins,
        "decided": decided,
        "share": wins / decided if decided else 0.0,
        "wilson95": [lo, hi],
        "p95_wall_ms": p95,
        "cpu_s": time.process_time() - c0,
        "won": won,
    }
    print(
        f"{args.label:16s} {args.game} {wins}/{decided} = {out['share']:.1%} "
        f"[{lo:.1%}, {hi:.1%}] p95 {p95:.1f} ms cpu {out['cpu_s']:.0f}s",
        flush=True,
    )
    if args.out:
        with open(args.out, "a") as fh:
            fh.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
