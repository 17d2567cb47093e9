"""Win rate of the 斗地主 bot against a random legal-play player, per role and room kind.

For each seeded hand the bidding is scripted so that a fixed seat is landlord (it calls, the
others decline, nobody doubles); then, in one run the bot is the landlord against two random
farmers, in the other the two farmers are bots against a random landlord. The random player
picks uniformly among its legal plays (never 明牌). Prints figures, asserts nothing.
Usage: python bench/doudizhu_bot_winrate.py [--hands 500] [--variants classic,laizi,menzhua]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.chance import Chance  # noqa: E402
from games.rules.doudizhu import RULESET, Config  # noqa: E402


def to_play(variant: str, seed: str):
    st = RULESET.new_game(Config(variant=variant, seat_beans=(0, 0, 0), double_threshold=1), seed, 3)
    while st.phase != "playing":
        seat = min(RULESET.to_act(st))
        if st.phase == "start":
            action = {"type": "start", "mingpai": False}
        elif st.phase == "dealing":
            action = {"type": "ready"}
        elif st.phase == "bidding":
            if variant == "menzhua" and not st.looked[seat]:
                action = {"type": "look"}
            else:
                action = {"type": "bid", "call": True}
        elif st.phase == "robbing":
            action = {"type": "rob", "rob": False}
        elif st.phase == "dou":
            action = RULESET.auto_action(st, seat)
        else:
            action = RULESET.auto_action(st, seat)
        RULESET.apply(st, seat, action)
    return st


def play_out(st, bots: set[int], rng: Chance) -> int:
    while st.phase != "over":
        seat = st.turn
        if seat in bots:
            action = RULESET.bot_action(st, seat)
        else:
            options = [a for a in RULESET.legal_actions(st, seat) if a["type"] != "mingpai"]
            action = options[rng.below(len(options))]
        RULESET.apply(st, seat, action)
    return st.winner


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--variants", default="classic,laizi,menzhua")
    args = parser.parse_args()
    print(f"bot vs random legal player, {args.hands} seeded hands per role and room")
    for variant in args.variants.split(","):
        t0 = time.perf_counter()
        wins = {"landlord": 0, "farmers": 0}
        for i in range(args.hands):
            seed = f"bench-{variant}-{i}"
            st = to_play(variant, seed)
            ll = st.landlord
            farmers = {s for s in range(3) if s != ll}
            if play_out(to_play(variant, seed), {ll}, Chance(seed, "random")) == ll:
                wins["landlord"] += 1
            if play_out(to_play(variant, seed), farmers, Chance(seed, "random")) != ll:
                wins["farmers"] += 1
        dt = time.perf_counter() - t0
        print(f"  {variant:8s} bot as landlord wins {wins['landlord'] / args.hands:6.1%}   "
              f"bots as farmers win {wins['farmers'] / args.hands:6.1%}   ({dt:.0f} s)")


if __name__ == "__main__":
    main()
