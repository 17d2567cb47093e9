"""The money property test (``games/tests/test_money_property.py``) with hundreds of hands a game.

Not part of the suite (the suite plays ``LEYOU_MONEY_HANDS`` = 15 a game). Runs that test with
pytest (PostgreSQL and Redis from ``DATABASE_URL`` / ``REDIS_URL``, as ``scripts/test.sh`` sets
them) with ``--hands`` per game, in keep-going mode: a hand whose checks fail is counted and
reported and the game plays on. Prints as it goes, per game, a progress line every ``--every``
hands and a closing line (hands, checks, failures, wall time), then the table of all games.

    nice -n 19 .venv/bin/python bench/money_property.py --hands 300 | tee var/money.log
    nice -n 19 .venv/bin/python bench/money_property.py --hands 300 -k mahjong
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST = "games/tests/test_money_property.py"
SUMMARY = re.compile(r"^(\S+): (\d+) (?:hands|rounds); (?:checks (\{.*\})|(\d+) checks).*?(\d+) s$")
FAILURES = re.compile(r"failures (\d+);")


def _now() -> str:
    return datetime.now(UTC).strftime("%H:%M:%S")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--every", type=int, default=25, help="a progress line every N hands")
    parser.add_argument("-k", default="", help="pytest -k filter (a game id)")
    parser.add_argument(
        "--until",
        default="",
        help="HH:MM UTC today: each game stops early at its even share of the time left",
    )
    args = parser.parse_args()
    until = 0.0
    if args.until:
        hour, minute = map(int, args.until.split(":"))
        end = datetime.now(UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
        until = end.timestamp()
    env = {
        **os.environ,
        "LEYOU_MONEY_HANDS": str(args.hands),
        "LEYOU_MONEY_EVERY": str(args.every),
        "LEYOU_MONEY_KEEP_GOING": "1",
        "LEYOU_MONEY_UNTIL": str(until),
    }
    cmd = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", TEST]
    if args.k:
        cmd += ["-k", args.k]
    print(f"{_now()} UTC start: {' '.join(cmd[2:])}, {args.hands} hands a game", flush=True)
    started = time.monotonic()
    rows: list[tuple[str, int, int, int, int]] = []
    tail: list[str] = []
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert proc.stdout is not None
    for raw in proc.stdout:
        line = raw.rstrip("\n")
        tail = (tail + [line])[-60:]
        if ": progress " in line or ": FAILED hand " in line or "time budget" in line:
            print(f"{_now()} {line}", flush=True)
            continue
        match = SUMMARY.match(line)
        if match:
            game, hands, as_dict, as_count, seconds = match.groups()
            if as_dict:
                checks = sum(int(n) for n in re.findall(r": (\d+)", as_dict))
            else:
                checks = int(as_count)
            failed = FAILURES.search(line)
            rows.append(
                (game, int(hands), checks, int(failed.group(1)) if failed else 0, int(seconds))
            )
            print(f"{_now()} {line}", flush=True)
        elif re.search(r"\b(passed|failed|error)\b", line) and "==" in line or "FAILED " in line:
            print(f"{_now()} {line}", flush=True)
    code = proc.wait()
    print(f"\n{'game':<20} {'hands':>6} {'checks':>7} {'failures':>8} {'wall s':>7}")
    for game, hands, checks, failed, seconds in rows:
        print(f"{game:<20} {hands:>6} {checks:>7} {failed:>8} {seconds:>7}")
    print(f"{_now()} UTC total {time.monotonic() - started:.0f} s, pytest exit {code}")
    if code:
        print("\n".join(tail[-40:]), file=sys.stderr)
    sys.exit(code)


if __name__ == "__main__":
    main()
