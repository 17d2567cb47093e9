"""How the 斗地主 bot's bidding, 明牌 and 加倍 decisions turn out (issue #16 §1).

Each seeded deal is played from the start with the bot (games/rules/doudizhu/bot.py) in all
three seats, every decision its own: 明牌開始 / 發牌明牌, 叫地主, 搶地主, 加倍, 倒拉壘沃 (悶抓場)
and the play. Printed per variant: how many deals had a landlord without a redeal, the landlord's
win rate when he had called (叫) and when he had robbed (搶), the win rate of the side of each
加倍 (landlord's and farmers'), of each 明牌, with 95 % Wilson intervals, and the decision times
of the bidding phases. Self-play measures the decisions against an opponent as strong as the
bot; the win rates against RLCard's rule agent are in bench/doudizhu_bot_rlcard.py. Prints
figures, asserts nothing. Usage::

    python bench/doudizhu_bot_bidding.py [--deals 500] [--variants classic,laizi,menzhua]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doudizhu_bot_rlcard import pct, wilson

from games.rules.doudizhu import RULESET, Config
from games.rules.doudizhu.bot import choose


def line(label: str, wins: int, n: int) -> str:
    if n == 0:
        return f"    {label:28s} —"
    lo, hi = wilson(wins, n)
    return f"    {label:28s} {wins / n:6.1%} of {n:5d}  [{lo:.1%}, {hi:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--variants", default="classic,laizi,menzhua")
    parser.add_argument(
        "--sampled",
        action="store_true",
        help="bid from sampled play-outs (bot.BID_SEARCH) instead of the score",
    )
    args = parser.parse_args()
    if args.sampled:
        from games.rules.doudizhu import bot

        bot.BID_SEARCH = True
    for variant in args.variants.split(","):
        stats = {
            k: [0, 0]
            for k in ("called", "robbed", "ll_double", "farmer_double", "mingpai", "menzhua")
        }
        redeals = 0
        times: list[float] = []
        t0 = time.perf_counter()
        load0 = os.getloadavg()[0]
        for i in range(args.deals):
            st = RULESET.new_game(
                Config(variant=variant, seat_beans=(10000, 10000, 10000), double_threshold=1),
                f"bid-{variant}-{i}",
                3,
            )
            while st.phase != "over":
                acting = sorted(RULESET.to_act(st))
                seat = acting[0]
                phase = st.phase
                c0 = time.thread_time()
                action = choose(RULESET, st, seat)
                if phase != "playing":
                    times.append(time.thread_time() - c0)
                RULESET.apply(st, seat, action)
            ll = st.landlord
            ll_won = st.winner == ll
            redeals += st.deal_no

            def count(key: str, hit: bool, won: bool, stats: dict[str, list[int]] = stats) -> None:
                if hit:
                    stats[key][1] += 1
                    stats[key][0] += won

            count("called", st.caller == ll, ll_won)
            count("robbed", ll in st.robbers, ll_won)
            count("menzhua", bool(st.menzhua_blind), ll_won)
            for s in range(3):
                doubled = st.doubles[s] > 1
                if s == ll:
                    count("ll_double", doubled, ll_won)
                else:
                    count("farmer_double", doubled, not ll_won)
                count("mingpai", st.mingpai[s] > 0, (s == ll) == ll_won)
        dt = time.perf_counter() - t0
        print(
            f"{variant}: {args.deals} deals, {redeals} redeals (all 不叫), {dt:.0f} s, load "
            f"{load0:.2f} → {os.getloadavg()[0]:.2f}"
        )
        print(line("landlord who called 叫 wins", *stats["called"]))
        print(line("landlord who robbed 搶 wins", *stats["robbed"]))
        print(line("悶抓 landlord wins", *stats["menzhua"]))
        print(line("landlord's 加倍 side wins", *stats["ll_double"]))
        print(line("farmer's 加倍 side wins", *stats["farmer_double"]))
        print(line("明牌 seat's side wins", *stats["mingpai"]))
        print(
            f"    bidding-phase decisions {len(times)} (cpu): p50 {pct(times, 0.5) * 1e3:.2f} "
            f"ms  p95 {pct(times, 0.95) * 1e3:.2f} ms  p99 {pct(times, 0.99) * 1e3:.2f} ms"
        )


if __name__ == "__main__":
    main()
