"""Win rate of the 斗地主 bot against a random legal-play player and the classic-room bot.

The classic-room bot of the platform issue (issue 2 item 10) is the heuristic bot as it was
first committed (``--baseline`` commit, default ef31d9b): there was never another one, so it is
read from git history at run time and run as a separate player; nothing of it is copied here.

For each seeded hand the bidding is scripted so that seat 0 is landlord (it calls, the others
decline, nobody doubles); then the player under test sits in one seat — the landlord, the farmer
after him (下家) or the farmer before him (上家) — and the opponent type fills the other two. The
same deals are also played with the opponent type in all three seats, so each figure has its
reference: how that seat does when the tested player is replaced by the opponent type. The
random player picks uniformly among its legal plays (never 明牌); a bot may 明牌 (it changes
the stakes, not who wins). Prints figures, asserts
nothing. Usage:
    python bench/doudizhu_bot_winrate.py [--hands 2000] [--variants classic,laizi,menzhua]
        [--opponents random,classic] [--baseline ef31d9b]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine.chance import Chance  # noqa: E402
from games.rules.doudizhu import RULESET, Config  # noqa: E402
from games.rules.doudizhu.bot import choose as current_choose  # noqa: E402

SEATS = {"landlord": 0, "下家 farmer": 1, "上家 farmer": 2}


def load_baseline(commit: str):
    """The bot module as committed at ``commit``, imported under its own name."""
    source = subprocess.run(
        ["git", "show", f"{commit}:games/rules/doudizhu/bot.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType("doudizhu_bot_baseline")
    exec(compile(source, f"{commit}:bot.py", "exec"), module.__dict__)
    return module.choose


def to_play(variant: str, seed: str):
    st = RULESET.new_game(
        Config(variant=variant, seat_beans=(0, 0, 0), double_threshold=1), seed, 3
    )
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
                action = {"type": "bid", "call": seat == 0}
        elif st.phase == "robbing":
            action = {"type": "rob", "rob": False}
        else:
            action = RULESET.auto_action(st, seat)
        RULESET.apply(st, seat, action)
    return st


def random_player(rng: Chance):
    def act(st, seat):
        options = [a for a in RULESET.legal_actions(st, seat) if a["type"] != "mingpai"]
        return options[rng.below(len(options))]

    return act


def bot_player(choose):
    def act(st, seat):
        return choose(RULESET, st, seat)

    return act


def play_out(st, players) -> int:
    while st.phase != "over":
        seat = st.turn
        RULESET.apply(st, seat, players[seat](st, seat))
    return st.winner


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--variants", default="classic,laizi,menzhua")
    parser.add_argument("--opponents", default="random,classic")
    parser.add_argument("--baseline", default="ef31d9b")
    args = parser.parse_args()
    baseline = load_baseline(args.baseline)
    print(
        f"斗地主 bot (working tree) vs opponents, {args.hands} seeded hands per seat; baseline "
        f"classic bot = bot.py at {args.baseline}; load average {os.getloadavg()[0]:.2f}"
    )
    for variant in args.variants.split(","):
        deals = [f"bench-{variant}-{i}" for i in range(args.hands)]
        for opponent in args.opponents.split(","):
            t0 = time.perf_counter()

            def other(seed: str, opponent: str = opponent):
                if opponent == "random":
                    return random_player(Chance(seed, "random"))
                return bot_player(baseline)

            line = []
            for label, seat in SEATS.items():
                wins = ref = 0
                for seed in deals:
                    tested = [other(seed) for _ in range(3)]
                    tested[seat] = bot_player(current_choose)
                    winner = play_out(to_play(variant, seed), tested)
                    wins += (winner == 0) == (seat == 0)
                    if opponent == "classic":
                        reference = [other(seed) for _ in range(3)]
                    else:  # the reference for 'vs random' is random in that seat too
                        rng = Chance(seed, "random")
                        reference = [random_player(rng)] * 3
                    winner = play_out(to_play(variant, seed), reference)
                    ref += (winner == 0) == (seat == 0)
                line.append(f"{label} {wins / len(deals):6.1%} (ref {ref / len(deals):6.1%})")
            dt = time.perf_counter() - t0
            print(
                f"  {variant:8s} vs {opponent:7s}  " + "   ".join(line) + f"   ({dt:.0f} s, "
                f"load {os.getloadavg()[0]:.2f})"
            )


if __name__ == "__main__":
    main()
