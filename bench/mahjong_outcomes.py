"""How the mahjong bot's hands end, and what perfect defence would be worth (issue #16 §2).

Plays the bench's mixed table (``bench/bots_vs_baseline.py``: for hand h, seed ``f"{seed}-{h}"``,
the bot in seat h mod 4, the baseline in the other three) and sorts every hand by how it ended:
the bot won by 自摸 or on a baseline's discard; a baseline won by 自摸, on another baseline's
discard or on the bot's (點炮); 流局. Also the bot's wins by its seat.

``--oracle defence`` plays a bot that is told, before each discard, whether the discard would
let another seat 胡 (it copies the state and asks the engine), and then throws instead the best
discard that does not (lowest shanten, then the bot's own order) — an upper bound on what any
defence could gain, since no real reading knows the other hands. ``--oracle defence-same`` only
takes such a discard at the shanten of the bot's own choice (perfect defence as a tie-break).
Neither is a player: they read hidden tiles, and exist only to measure.

Usage: python bench/mahjong_outcomes.py --game mahjong_yueqing --seed ab --start 600000 \
    --hands 1000 [--oracle defence]
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bots_vs_baseline import setup, wilson  # noqa: E402

from games.rules.mahjong import play as mjplay  # noqa: E402


def lets_win(ruleset: Any, state: Any, seat: int, action: dict[str, Any]) -> bool:
    """Whether ``action`` (a discard) would let another seat 胡 at once (reads hidden tiles)."""
    after = copy.deepcopy(state)
    ruleset.apply(after, seat, action)
    if ruleset.is_over(after):
        return False
    return any(
        {"type": "hu"} in ruleset.legal_actions(after, o) for o in range(after.seats) if o != seat
    )


def oracle_bot(bot: Any, same_shanten: bool, tally: Counter[str]) -> Any:
    """The bot, with a perfect one-step defence (see the module docstring)."""

    def act(ruleset: Any, state: Any, seat: int) -> dict[str, Any]:
        action = bot(ruleset, state, seat)
        if action["type"] != "discard" or not lets_win(ruleset, state, seat, action):
            return action
        d = mjplay.Decision(ruleset, state, seat)
        hand = state.hands[seat]
        discards = [a for a in ruleset.legal_actions(state, seat) if a["type"] == "discard"]
        scored = mjplay.scored_discards(d, discards)
        safe = [x for x in scored if not lets_win(ruleset, state, seat, x[4])]
        own = min(x[0] for x in scored if x[3] == action["tile"])
        low = min((x[:2] for x in safe), default=None)
        if low is None or (same_shanten and low[0] > own):
            tally["no safe discard"] += 1
            return action
        tally["deal-in avoided"] += 1
        tied = [x for x in safe if x[:2] == low]
        return dict(mjplay._present_order(d, hand, tied)[0][3])

    return act


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="mahjong_yueqing")
    ap.add_argument("--seed", default="ab")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--oracle", choices=("", "defence", "defence-same"), default="")
    args = ap.parse_args()
    ruleset, config, seats, bot, base = setup(args.game)
    tally: Counter[str] = Counter()
    if args.oracle:
        bot = oracle_bot(bot, args.oracle == "defence-same", tally)
    ends: Counter[str] = Counter()
    won: list[int] = []
    for h in range(args.start, args.start + args.hands):
        me = h % seats
        players = [bot if s == me else base for s in range(seats)]
        state = ruleset.new_game(config, f"{args.seed}-{h}", seats)
        last_discarder = -1
        last_phase = "turn"
        while not ruleset.is_over(state):
            seat = min(ruleset.to_act(state))
            action = players[seat](ruleset, state, seat)
            last_phase = state.phase
            ruleset.apply(state, seat, action)
            if action["type"] == "discard":
                last_discarder = seat
        res = ruleset.result(state)
        ends[f"seat {me}: hands"] += 1
        if not res.winners:
            ends["流局"] += 1
            won.append(-1)
            continue
        who = "bot" if me in res.winners else "baseline"
        ends[f"seat {me}: {who} won"] += 1
        if last_phase == "turn":
            ends[f"{who} 自摸"] += 1
        elif last_phase == "robkong":
            ends[f"{who} 搶槓"] += 1
        else:
            ends[f"{who} on {'the bot' if last_discarder == me else 'a baseline'}'s discard"] += 1
        won.append(1 if who == "bot" else 0)
    wins = sum(1 for x in won if x == 1)
    decided = sum(1 for x in won if x >= 0)
    lo, hi = wilson(wins, decided)
    print(
        f"{args.game} {args.seed}-{args.start}…{args.start + args.hands - 1}"
        f"{' oracle ' + args.oracle if args.oracle else ''}: bot {wins}/{decided} = "
        f"{wins / max(1, decided):.1%} [{lo:.1%}, {hi:.1%}]"
    )
    print(json.dumps({**dict(sorted(ends.items())), **dict(tally)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
