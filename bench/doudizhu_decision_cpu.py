"""CPU per 斗地主 bot decision on a fixed, recorded set of decisions (issue #16 §3).

Benchmark, not a test. ``--record FILE`` plays ``--hands`` seeded hands per variant (classic,
癩子, 悶抓) with the bot (``bot.choose``) in all three seats from the deal, bidding included,
and writes every decision as a JSON line: the state (``state_to_json``), the seat and the
action chosen. ``--replay FILE`` decides each recorded state again in this process and prints
the CPU per decision (``time.process_time``: mean, p50, p95, p99, max; all decisions and the
play phase alone), how many actions differ from the recorded ones (must be 0: the same
choices), and with ``--profile`` a cProfile table of the replay. ``LEYOU_NATIVE=0`` or
``--python`` runs it on the Python reference (``patterns.NATIVE`` and ``bot_search.NATIVE``
off). The module-level caches warm up along the replay, as they do in a decision worker.

    .venv/bin/python bench/doudizhu_decision_cpu.py --record var/bench/ddz_decisions.jsonl
    nice -n 19 .venv/bin/python bench/doudizhu_decision_cpu.py \
        --replay var/bench/ddz_decisions.jsonl
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.rules.doudizhu import RULESET, Config, bot_search, patterns  # noqa: E402
from games.rules.doudizhu.bot import choose  # noqa: E402


def record(path: Path, hands: int, variants: list[str], prefix: str) -> None:
    """Play the hands with the bot in every seat and write every decision."""
    count = 0
    with path.open("w") as out:
        for variant in variants:
            for i in range(hands):
                st = RULESET.new_game(
                    Config(variant=variant, seat_beans=(0, 0, 0), double_threshold=1),
                    f"{prefix}-{variant}-{i}",
                    3,
                )
                while st.phase != "over":
                    acting = sorted(RULESET.to_act(st))
                    if not acting:
                        break
                    seat = acting[0]
                    action = choose(RULESET, st, seat)
                    row = {
                        "variant": variant,
                        "seat": seat,
                        "phase": st.phase,
                        "state": RULESET.state_to_json(st),
                        "action": action,
                    }
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    count += 1
                    RULESET.apply(st, seat, action)
    print(f"recorded {count} decisions of {hands} hands x {len(variants)} variants to {path}")


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(label: str, ms: list[float]) -> str:
    return (
        f"{label:10s} n={len(ms):6d}  mean {statistics.fmean(ms):7.3f}  p50 {pct(ms, 0.5):7.3f}  "
        f"p95 {pct(ms, 0.95):7.3f}  p99 {pct(ms, 0.99):7.3f}  max {max(ms):8.3f} ms CPU"
    )


def replay(path: Path, profile: bool, limit: int) -> None:
    rows = [json.loads(line) for line in path.open()]
    if limit:
        rows = rows[:limit]
    states = [(RULESET.state_from_json(r["state"]), r["seat"]) for r in rows]
    every: list[float] = []
    play: list[float] = []
    differ = 0
    prof = cProfile.Profile(time.process_time) if profile else None
    load0 = os.getloadavg()[0]
    wall0 = time.perf_counter()
    for row, (st, seat) in zip(rows, states, strict=True):
        if prof is not None:
            prof.enable()
        t0 = time.process_time()
        action = choose(RULESET, st, seat)
        dt = (time.process_time() - t0) * 1000
        if prof is not None:
            prof.disable()
        every.append(dt)
        if row["phase"] == "playing":
            play.append(dt)
        differ += action != row["action"]
    wall = time.perf_counter() - wall0
    searched_in_c = getattr(bot_search, "NATIVE", False)  # False before the C search existed
    print(
        f"native movegen {patterns.NATIVE}, native play-outs and solver {searched_in_c}; "
        f"{len(rows)} decisions in {wall:.1f} s wall; load average {load0:.2f} -> "
        f"{os.getloadavg()[0]:.2f}; actions differing from the record: {differ}"
    )
    print(summary("all", every))
    print(summary("playing", play))
    if prof is not None:
        stats = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--record", type=Path)
    parser.add_argument("--replay", type=Path)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--variants", default="classic,laizi,menzhua")
    parser.add_argument("--seed", default="cpu21")
    parser.add_argument("--limit", type=int, default=0, help="replay only the first N")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--python", action="store_true", help="the Python reference code")
    args = parser.parse_args()
    if args.python:
        patterns.NATIVE = False
        bot_search.NATIVE = False
    if args.record:
        args.record.parent.mkdir(parents=True, exist_ok=True)
        record(args.record, args.hands, args.variants.split(","), args.seed)
    if args.replay:
        replay(args.replay, args.profile, args.limit)


if __name__ == "__main__":
    main()
