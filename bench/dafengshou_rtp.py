"""Simulate 大豐收 rounds and print the measured return-to-player against the exact one.

Usage: python bench/dafengshou_rtp.py [--rounds N] [--seed S] [--params room.json]

``--params`` takes a JSON object of room parameters (the odds table etc., as the admin stores
them); without it the defaults are used. The bettor stakes one bean on every crop each round.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.dafengshou import (  # noqa: E402
    OBJECTS,
    config_from_params,
    expected_rtp,
    object_rtp,
    outcome_probabilities,
    payout,
    simulate_rtp,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--params", type=Path)
    args = parser.parse_args()
    params = json.loads(args.params.read_text()) if args.params else {}
    config = config_from_params(params)

    started = time.perf_counter()
    measured = simulate_rtp(config, args.rounds, args.seed)
    elapsed = time.perf_counter() - started
    expected = expected_rtp(config)

    # the standard error of the per-round return, for judging the gap
    probs = outcome_probabilities(config)
    unit = {crop: 1 for crop, _zh in OBJECTS}
    second = sum(float(p) * (payout(config, unit, o) / len(OBJECTS)) ** 2 for o, p in probs.items())
    stderr = math.sqrt(max(second - expected**2, 0.0) / args.rounds)

    print(f"大豐收 RTP, {args.rounds:,} rounds, seed {args.seed!r}, one bean on each crop")
    print(f"  measured  {measured:.5f}")
    print(f"  expected  {expected:.5f}   (exact, from the outcome probabilities)")
    print(
        f"  gap       {measured - expected:+.5f}   ({(measured - expected) / stderr:+.2f} σ, "
        f"σ = {stderr:.5f})"
    )
    print(f"  time      {elapsed:.2f} s   ({elapsed / args.rounds * 1e6:.2f} µs per round)")
    print("  per crop (exact):")
    for crop, rtp in object_rtp(config).items():
        name = dict(OBJECTS)[crop]
        index = [c for c, _ in OBJECTS].index(crop)
        print(f"    {name} {crop:<10} odds ×{config.odds[index]:<4} RTP {rtp:.4f}")


if __name__ == "__main__":
    main()
