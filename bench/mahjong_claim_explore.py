"""Randomised claim decisions of the mahjong bot, for an unbiased claim rule (issue #16 §2).

A value fitted on the bot's own positions compares positions the bot chose; whether a 吃 / 碰
beats passing cannot be read from them (the bot claims by a rule, so the hands it claimed in
and the hands it passed in differ). Here, in hand h of the bench's mixed table (bot in seat
h mod 4, three baselines), one of the bot's claim decisions — the k-th at which it may 吃 /
碰, k from 0 to 3 drawn from the seed — is made by a coin (also from the seed) between the
present bot's choice and the other one (pass, or the present best claim); every other decision
is the present bot's. One JSON line per explored hand: the decision's features, the arm
(claimed or not), what the present bot would do, and whether the bot won the hand.

Usage: python bench/mahjong_claim_explore.py --start 310000 --hands 10000 --out var/claims.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bots_vs_baseline import play, setup  # noqa: E402

from games.rules.mahjong import play as mjplay  # noqa: E402


def _coin(seed: str) -> tuple[int, int]:
    digest = hashlib.sha256(seed.encode()).digest()
    return digest[0] % 4, digest[1] % 2


def _best_claim(d: mjplay.Decision, legal: list[dict[str, Any]]) -> tuple[Any, ...] | None:
    """(action, shanten, 進張) of the best 碰 / 吃 by the present key, or None."""
    state = d.state
    hand = state.hands[d.seat]
    tile = (state.claim or {})["tile"]
    best: tuple[Any, ...] | None = None
    for a in legal:
        if a["type"] not in ("peng", "chi"):
            continue
        sh, uk, _after = d.meld_discard(mjplay._rest_after_claim(hand, a, tile))
        if best is None or (sh, -uk) < (best[1], -best[2]):
            best = (a, sh, uk)
    return best


def draws_left(d: mjplay.Decision, ahead: int) -> int:
    """The bot's own draws left before 流局 when ``ahead`` other draws come before its next
    one (claims, 槓 and flowers aside): the wall's count is public."""
    free = len(d.state.wall) - d.r.reserve(d.state)
    return max(0, (free - ahead + 3) // 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="mahjong_yueqing")
    ap.add_argument("--seed", default="ab")
    ap.add_argument("--start", type=int, required=True)
    ap.add_argument("--hands", type=int, required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    ruleset, config, seats, bot, base = setup(args.game)
    with open(args.out, "a") as fh:
        for h in range(args.start, args.start + args.hands):
            seed = f"{args.seed}-{h}"
            target, arm = _coin(seed)
            ctx: dict[str, Any] = {"h": h, "target": target, "arm": arm, "seen": 0}
            rec: dict[str, Any] = {}

            def explored(
                rs: Any, st: Any, s: int, rec: dict[str, Any] = rec, ctx: dict[str, Any] = ctx
            ) -> Any:
                action = bot(rs, st, s)
                if st.phase != "claim" or rec or action["type"] in ("hu", "gang"):
                    return action
                legal = rs.legal_actions(st, s)
                d = mjplay.Decision(rs, st, s)
                best = _best_claim(d, legal)
                if best is None:
                    return action
                ctx["seen"] += 1
                if ctx["seen"] - 1 != ctx["target"]:
                    return action
                hand = st.hands[s]
                now = d.shanten(hand)
                claimed = action["type"] in ("peng", "chi")
                if claimed:
                    rest = list(hand)
                    tile = st.claim["tile"]
                    for t in action["tiles"] if action["type"] == "chi" else [tile, tile]:
                        rest.remove(t)
                    sh, uk, _after = d.meld_discard(rest)
                    option = (action, sh, uk)
                else:
                    option = best
                ahead = (s - st.claim["from"] - 1) % seats
                rec.update(
                    {
                        "h": ctx["h"],
                        "type": option[0]["type"],
                        "from": (st.claim["from"] - s) % seats,
                        "now": now,
                        "uk_now": d.ukeire(hand, now),
                        "after": option[1],
                        "uk_after": option[2],
                        "d_pass": draws_left(d, ahead),
                        "d_claim": draws_left(d, 3),
                        "melds": len(st.melds[s]),
                        "present": int(claimed),
                        "arm": ctx["arm"],
                    }
                )
                return option[0] if ctx["arm"] else {"type": "pass"}

            me = h % seats
            players = [explored if s == me else base for s in range(seats)]
            res = play(ruleset, config, seed, seats, players)
            if rec:
                rec["won"] = int(me in res.winners)
                fh.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
