"""The money property test (``games/tests/test_money_property.py``) with hundreds of hands a game.

Not part of the suite (the suite plays ``LEYOU_MONEY_HANDS`` = 15 a game). Runs that test with
pytest, one game per pytest process (PostgreSQL and Redis from ``DATABASE_URL`` / ``REDIS_URL``,
as ``scripts/test.sh`` sets them), ``--hands`` per game, in keep-going mode: a hand whose checks
fail is counted and reported and the game plays on. ``--jobs 2`` plays two games at a time, the
second lane on its own test database (``DATABASE_URL`` + ``_b``; Redis is only the channel
layer here, whose groups are per table and die unheard). ``--until HH:MM`` (UTC) gives each game
an even share of its lane's time left: a game stops there after at least one hand and says so.
Prints as it goes — per game a progress line every ``--every`` hands and a closing line (hands,
checks, failures, wall time) — then the table of all games.

    nice -n 19 .venv/bin/python bench/money_property.py --hands 300 --jobs 2 --until 19:48
    nice -n 19 .venv/bin/python bench/money_property.py --hands 300 -k mahjong
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TEST = "games/tests/test_money_property.py"
SUMMARY = re.compile(r"^(\S+): (\d+) (?:hands|rounds); (?:checks (\{.*\})|(\d+) checks).*?(\d+) s$")
FAILURES = re.compile(r"failures (\d+);")
Row = tuple[str, int, int, int, int, str]  # game, hands, checks, failures, wall s, note

_print_lock = threading.Lock()


def _now() -> str:
    return datetime.now(UTC).strftime("%H:%M:%S")


def _say(text: str) -> None:
    with _print_lock:
        print(f"{_now()} {text}", flush=True)


def _game_ids() -> list[str]:
    """Every parametrised game of the test, then the wheel (collected by pytest, not guessed)."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider", TEST],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line for line in out.splitlines() if line.startswith(TEST + "::")]


def _run_game(node: str, env: dict[str, str], first: bool, rows: list[Row]) -> None:
    cmd = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", node]
    cmd.append("--create-db" if first else "--reuse-db")
    started = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert proc.stdout is not None
    tail: list[str] = []
    summary: Row | None = None
    note = ""
    for raw in proc.stdout:
        line = raw.rstrip("\n")
        tail = (tail + [line])[-40:]
        if "time budget" in line:
            note = "stopped by the time budget"
        if ": progress " in line or ": FAILED hand " in line or "time budget" in line:
            _say(line)
            continue
        match = SUMMARY.match(line)
        if match:
            game, hands, as_dict, as_count, seconds = match.groups()
            if as_dict:
                checks = sum(int(n) for n in re.findall(r": (\d+)", as_dict))
            else:
                checks = int(as_count)
            failed = FAILURES.search(line)
            summary = (
                game,
                int(hands),
                checks,
                int(failed.group(1)) if failed else 0,
                int(seconds),
                note,
            )
            _say(line)
    code = proc.wait()
    if summary is None:  # the game stopped before its closing line (an error, a hang)
        summary = (
            node.split("[")[-1].rstrip("]"),
            0,
            0,
            1,
            int(time.monotonic() - started),
            f"pytest exit {code}",
        )
        _say(f"{node}: no closing line, exit {code}:\n" + "\n".join(tail))
    elif code:
        _say(f"{node}: exit {code}:\n" + "\n".join(tail[-25:]))
    rows.append(summary)


def _lane(nodes: list[str], env: dict[str, str], until: float, rows: list[Row]) -> None:
    for i, node in enumerate(nodes):
        game_env = dict(env)
        if until:
            left = len(nodes) - i
            game_env["LEYOU_MONEY_UNTIL"] = str(time.time() + max(0.0, until - time.time()) / left)
        _run_game(node, game_env, i == 0, rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--every", type=int, default=25, help="a progress line every N hands")
    parser.add_argument("-k", default="", help="only the games whose id contains this")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--until", default="", help="HH:MM UTC today: the run's end")
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
        # commit as the services do (see the test's COMMIT): hand 300 as fast as hand 1
        "LEYOU_MONEY_COMMIT": "1",
    }
    nodes = [n for n in _game_ids() if args.k in n]
    _say(f"UTC start: {len(nodes)} games, {args.hands} hands a game, {args.jobs} lane(s)")
    started = time.monotonic()
    rows: list[Row] = []
    lanes = [nodes[i :: args.jobs] for i in range(args.jobs)]
    threads = []
    for i, lane in enumerate(lanes):
        lane_env = dict(env)
        if i and env.get("DATABASE_URL"):
            lane_env["DATABASE_URL"] = env["DATABASE_URL"] + "_b"
        threads.append(threading.Thread(target=_lane, args=(lane, lane_env, until, rows)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    order = {n.split("[")[-1].rstrip("]"): i for i, n in enumerate(nodes)}
    rows.sort(key=lambda r: order.get(r[0], len(order)))
    print(f"\n{'game':<20} {'hands':>6} {'checks':>7} {'failures':>8} {'wall s':>7}  note")
    for game, hands, checks, failed, seconds, note in rows:
        print(f"{game:<20} {hands:>6} {checks:>7} {failed:>8} {seconds:>7}  {note}")
    failed_total = sum(r[3] for r in rows)
    _say(f"UTC total {time.monotonic() - started:.0f} s, {failed_total} failures")
    sys.exit(1 if failed_total else 0)


if __name__ == "__main__":
    main()
