"""The money property test (``games/tests/test_money_property.py``) with hundreds of hands a game.

Not part of the suite (the suite plays ``LEYOU_MONEY_HANDS`` = 15 a game). Runs that test through
``scripts/test.sh`` (PostgreSQL, Redis) with ``--hands`` per game and prints, per game, the hands
played and the checks made, and the wall time per game.

    .venv/bin/python bench/money_property.py --hands 300
    .venv/bin/python bench/money_property.py --hands 300 -k mahjong
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("-k", default="", help="pytest -k filter (a game id)")
    args = parser.parse_args()
    env = {**os.environ, "LEYOU_MONEY_HANDS": str(args.hands)}
    cmd = [
        "bash",
        "scripts/test.sh",
        "-q",
        "-s",
        "games/tests/test_money_property.py",
        "--durations=0",
    ]
    if args.k:
        cmd += ["-k", args.k]
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if re.match(r"^\S+: \d+ hands; checks", line) or re.search(r"\d+\.\d+s call", line):
            print(line)
    print(f"total {time.monotonic() - started:.0f} s, exit {proc.returncode}")
    if proc.returncode:
        print(proc.stdout[-4000:], proc.stderr[-2000:], file=sys.stderr)
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
