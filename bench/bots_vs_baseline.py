"""Issue #16 §2: each game's bot against its baseline (``games/rules/<game>/baseline.py``).

Pure engine, no Django. For hand h (seed ``f"{seed}-{h}"``) the bot sits in seat h mod seats
and the baseline fills every other seat. Reported per game:

* the bot's share of wins — of the hands somebody won, the share the bot won (一炮多響: the
  hand counts once, for the bot if it is among the winners) — with a 95 % Wilson interval,
  beside the fair share 1/seats and the 1.5× target of the issue; also its wins per hand;
* the bot's score per hand (三張: beans; others: the game's points) with a 95 % normal CI;
* the no-winner (荒莊 / 流局) rate of the same seeds with the bot in every seat and with the
  baseline in every seat;
* the bot's decision time p50 / p95 / p99 / max over every bot decision of the run, in wall
  time and in the process's CPU time (``time.process_time``), and the
  machine load (``os.getloadavg``) at the start and the end (2 cores shared by 8 engineers).

Usage: python bench/bots_vs_baseline.py --game paohuzi_hunan --hands 1000 --seed b16
Games: paohuzi_hunan paohuzi_shuangwang mahjong_huanle mahjong_yongzhou mahjong_yueqing
zhajinhua (``--seats`` for 三張, default 4), or ``all``. Prints a line per game and appends JSON
to var/bench/bots_vs_baseline.jsonl.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import registry

Player = Callable[[Any, Any, int], dict[str, Any]]
GAMES = (
    "paohuzi_hunan",
    "paohuzi_shuangwang",
    "mahjong_huanle",
    "mahjong_yongzhou",
    "mahjong_yueqing",
    "zhajinhua",
)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def setup(game: str) -> tuple[Any, Any, int, Player, Player]:
    """(ruleset, config, seats, bot, baseline) of a bench game name."""
    if game.startswith("paohuzi"):
        from games.rules.paohuzi.baseline import baseline_action as pbase

        r = registry.get("paohuzi")
        cfg = r.config_from_params({"variant": game.split("_")[1]})
        return r, cfg, 3, lambda rs, st, s: rs.bot_action(st, s), pbase
    if game.startswith("mahjong"):
        from games.rules.mahjong.baseline import baseline_action as mbase

        r = registry.get(game)
        cfg = r.config_from_params({})
        return r, cfg, 4, lambda rs, st, s: rs.bot_action(st, s), mbase
    if game == "zhajinhua":
        from games.rules.zhajinhua.baseline import choose as zbase

        r = registry.get("zhajinhua")
        cfg = r.config_from_params({})
        return r, cfg, 4, lambda rs, st, s: rs.bot_action(st, s), zbase
    raise SystemExit(f"unknown game {game}")


def play(
    ruleset: Any,
    config: Any,
    seed: str,
    seats: int,
    players: list[Player],
    times: list[float] | None = None,
    timed: int = -1,
    cpu: list[float] | None = None,
) -> Any:
    """Play one hand, seat s by players[s]; return the Result. Bot times go to ``times``
    (wall) and ``cpu`` (this process's CPU time, ``time.process_time``)."""
    state = ruleset.new_game(config, seed, seats)
    for _ in range(5000):
        if ruleset.is_over(state):
            return ruleset.result(state)
        seat = min(ruleset.to_act(state))
        t0 = time.perf_counter()
        c0 = time.process_time()
        action = players[seat](ruleset, state, seat)
        if seat == timed and times is not None:
            times.append(time.perf_counter() - t0)
            if cpu is not None:
                cpu.append(time.process_time() - c0)
        ruleset.apply(state, seat, action)
    raise RuntimeError(f"hand {seed} did not end")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else 0.0


def run(game: str, hands: int, seed: str, seats_arg: int | None) -> dict[str, Any]:
    ruleset, config, seats, bot, base = setup(game)
    if seats_arg and game == "zhajinhua":
        seats = seats_arg
    load0 = os.getloadavg()[0]
    t_start = time.perf_counter()
    wins = 0
    decided = 0
    scores: list[float] = []
    times: list[float] = []
    cpu: list[float] = []
    for h in range(hands):
        me = h % seats
        players = [bot if s == me else base for s in range(seats)]
        res = play(ruleset, config, f"{seed}-{h}", seats, players, times, me, cpu)
        wins += me in res.winners
        decided += bool(res.winners)
        scores.append(res.scores[me])
        if (h + 1) % 250 == 0 or h + 1 == hands:
            # the headline so far, before the slower all-bot / all-baseline runs
            lo, hi = wilson(wins, decided)
            print(
                f"{game:20s} mixed {h + 1} hands: bot {wins}/{decided} = "
                f"{wins / max(1, decided):.1%} [{lo:.1%}, {hi:.1%}] | decision ms p50 "
                f"{pct(times, 0.5):.2f} p95 {pct(times, 0.95):.2f} p99 {pct(times, 0.99):.2f} "
                f"(cpu p95 {pct(cpu, 0.95):.2f} p99 {pct(cpu, 0.99):.2f}) "
                f"| {time.perf_counter() - t_start:.0f}s",
                flush=True,
            )
    nowin = {"bots": 0, "baselines": 0}
    for h in range(hands):
        for name, p in (("bots", bot), ("baselines", base)):
            res = play(ruleset, config, f"{seed}-{h}", seats, [p] * seats)
            nowin[name] += not res.winners
    lo, hi = wilson(wins, decided)
    share = wins / decided if decided else 0.0
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.pstdev(scores) / math.sqrt(hands)
    out = {
        "game": game,
        "hands": hands,
        "seed": seed,
        "seats": seats,
        "wins": wins,
        "decided": decided,
        "win_share": share,
        "wilson95": [lo, hi],
        "wins_per_hand": wins / hands,
        "nowin_mixed": 1 - decided / hands,
        "fair": 1 / seats,
        "target": 1.5 / seats,
        "score_per_hand": mean,
        "score_ci95": [mean - half, mean + half],
        "nowin_bots": nowin["bots"] / hands,
        "nowin_baselines": nowin["baselines"] / hands,
        "decisions": len(times),
        "p50_ms": pct(times, 0.5),
        "p95_ms": pct(times, 0.95),
        "p99_ms": pct(times, 0.99),
        "max_ms": max(times) * 1000 if times else 0.0,
        "cpu_p50_ms": pct(cpu, 0.5),
        "cpu_p95_ms": pct(cpu, 0.95),
        "cpu_p99_ms": pct(cpu, 0.99),
        "cpu_max_ms": max(cpu) * 1000 if cpu else 0.0,
        "load_start": load0,
        "load_end": os.getloadavg()[0],
        "wall_s": time.perf_counter() - t_start,
    }
    print(
        f"{game:20s} n={hands} bot share of wins {share:6.1%} [{lo:.1%}, {hi:.1%}] "
        f"({wins}/{decided} won hands; {wins / hands:.1%} of hands) "
        f"(fair {1 / seats:.1%}, target {1.5 / seats:.1%}) score/hand {mean:+.2f} "
        f"[{mean - half:+.2f}, {mean + half:+.2f}] no-winner bots {out['nowin_bots']:.1%} "
        f"baselines {out['nowin_baselines']:.1%} | decision ms p50 {out['p50_ms']:.2f} "
        f"p95 {out['p95_ms']:.2f} p99 {out['p99_ms']:.2f} max {out['max_ms']:.1f} "
        f"(cpu p50 {out['cpu_p50_ms']:.2f} p95 {out['cpu_p95_ms']:.2f} "
        f"p99 {out['cpu_p99_ms']:.2f} max {out['cpu_max_ms']:.1f}) "
        f"| load {load0:.1f}->{out['load_end']:.1f} {out['wall_s']:.0f}s",
        flush=True,
    )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="all")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", default="b16")
    ap.add_argument("--seats", type=int, default=None)
    args = ap.parse_args()
    games = GAMES if args.game == "all" else tuple(args.game.split(","))
    outdir = ROOT / "var" / "bench"
    outdir.mkdir(parents=True, exist_ok=True)
    for g in games:
        out = run(g, args.hands, args.seed, args.seats)
        with open(outdir / "bots_vs_baseline.jsonl", "a") as fh:
            fh.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
