"""How often the landlord's greedy-farmer model is on (``bot.greedy_seats``), issue #16 §1.

The landlord's play-outs model a farmer as a greedy follower only when the hand's public moves
show it (``bot.LANDLORD_GREEDY_FARMERS = 2``). Per seeded classic deal (seat 0 landlord, as in
``bench/doudizhu_bot_rlcard.py``) the bot plays the landlord against RLCard's rule agent
(``--farmers rule``) or against our own bot (``--farmers ours``) and, at every landlord decision,
the detector is asked; prints the share of landlord decisions with the model on, the hands where
it ever came on and the median move at which it first did, and the landlord's wins. Asserts
nothing. The wall-clock cap is lifted (so load changes no decision). Usage::

    python bench/doudizhu_greedy_tells.py --farmers rule --start 23000 --deals 300
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import doudizhu_bot_rlcard as bench  # noqa: E402

from games.rules.doudizhu import RULESET, bot  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--farmers", choices=("rule", "ours"), default="rule")
    parser.add_argument("--start", type=int, default=23000)
    parser.add_argument("--deals", type=int, default=300)
    args = parser.parse_args()
    bot.SEARCH_CAP_MS = 100_000.0
    ours = bench.bot_player(bench.current_choose, timed=False)
    if args.farmers == "rule":
        sys.path.insert(0, str(ROOT / "var" / "bench-deps"))
        import numpy as np

        farmer = bench.rule_player({"refused": 0, "unreadable_target": 0})
    else:
        farmer = ours
    masks: Counter[int] = Counter()
    first_on: list[int] = []
    decisions = on = wins = 0
    for i in range(args.start, args.start + args.deals):
        if args.farmers == "rule":
            np.random.seed(i)  # as the win-rate bench seeds the rule agent's random fallback
        st = bench.to_play("classic", f"bench-classic-{i}")
        players = [ours, farmer, farmer]
        trace: list[tuple[int, str]] = []
        came_on = None
        while st.phase != "over":
            seat = st.turn
            if seat == st.landlord:
                mask = bot.greedy_seats(st)
                decisions += 1
                on += mask != 0
                if mask and came_on is None:
                    came_on = len(st.trail)
            action = players[seat](st, seat, trace)
            RULESET.apply(st, seat, action)
            played = action["type"] == "play"
            trace.append((seat, bench._sorted(action["cards"]) if played else "pass"))
        wins += st.winner == st.landlord
        masks[bot.greedy_seats(st)] += 1
        if came_on is not None:
            first_on.append(came_on)
    first_on.sort()
    median = first_on[len(first_on) // 2] if first_on else None
    print(
        f"farmers {args.farmers}, deals {args.start}…{args.start + args.deals - 1}: landlord won "
        f"{wins}; model on at {on} of {decisions} landlord decisions; on in {len(first_on)} "
        f"hands, first at move {median} (median); masks at the end {dict(masks)}"
    )


if __name__ == "__main__":
    main()
