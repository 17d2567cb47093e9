"""Where a bot's move at the clock spends CPU, by part, in one process (issue #16 §3).

Benchmark, not a test. Plays whole 斗地主 hands at ``--tables`` all-bot tables (a player in 托管
and two bots each, as ``bot_latency.py``) through the clock's own calls, one thread, no pool:
each step reads every due seat as the sweep does (``tables.due_seats_read``), decides each
(``ruleset.bot_action`` on the stored state, as a decision worker does, and the same call's
JSON decode) and applies it (``tables.due_seat_apply``: lock, apply, writes, snapshot and
broadcast encoding). Hands that end are dealt again (``seating.table_tick``, timed apart).

Prints, per applied move: this process's CPU by part (``time.process_time``), the statements
sent and the PostgreSQL backend's own CPU (its ``/proc/<pid>/stat``, so the database server's
share of a move is seen too), and with ``--profile`` a cProfile table of the apply.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/leyou_x \\
        .venv/bin/python bench/clock_cpu.py --tables 40 --moves 3000
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_latency import make_tables, park_others, setup  # noqa: E402 (bench/ on sys.path)


def backend_cpu(pid: int) -> float:
    """CPU seconds of the PostgreSQL backend process ``pid`` so far."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    rest = raw[raw.rindex(")") + 2 :].split()
    return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--moves", type=int, default=3000, help="stop after this many moves")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the apply")
    parser.add_argument("--json", default=str(Path("var/bench/clock_cpu.jsonl")))
    args = parser.parse_args()
    setup()
    from django.db import connection
    from django.db.models import F
    from django.utils import timezone

    from games.engine import registry
    from games.models import Seat, Table
    from games.services import seating, tables

    sent = [0]

    def count(execute, sql, params, many, context):
        sent[0] += 1  # a round trip (an executemany is one: psycopg pipelines it)
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(count)
    table_ids = make_tables(args.tables, f"cc{int(time.time())}")
    park_others(table_ids)
    connection.ensure_connection()
    backend = connection.connection.info.backend_pid
    ruleset = registry.get("doudizhu")
    parts = dict.fromkeys(("read", "decode", "decide", "apply", "deal"), 0.0)
    pg = dict.fromkeys(("read", "apply", "deal"), 0.0)
    statements = {"read": 0, "apply": 0}
    decide_each: list[float] = []
    applied = stale = 0
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    started = time.monotonic()
    while applied < args.moves:
        # every running clock due now: each step moves one seat at every table
        Seat.objects.filter(table_id__in=table_ids, deadline__isnull=False).update(
            deadline=timezone.now()
        )
        # a writer of seats moves the table's seq (the invariant the rows a move reuses rely
        # on): every move below writes from the rows this read returns
        Table.objects.filter(pk__in=table_ids).update(seq=F("seq") + 1)
        t0, p0 = time.process_time(), backend_cpu(backend)
        n0 = sent[0]
        due = tables.due_seats_read(now=timezone.now(), limit=5000)
        parts["read"] += time.process_time() - t0
        pg["read"] += backend_cpu(backend) - p0
        statements["read"] += sent[0] - n0
        done: set[int] = set()
        for seat in due:
            if seat.table_id in done or seat.kind == "timeout":
                continue  # one seat per table per step (an all-at-once phase: the next step)
            done.add(seat.table_id)
            t0 = time.process_time()
            state = ruleset.state_from_json(seat.state)
            t1 = time.process_time()
            action = ruleset.bot_action(state, seat.engine_seat)
            t2 = time.process_time()
            parts["decode"] += t1 - t0
            parts["decide"] += t2 - t1
            decide_each.append(t2 - t1)
            p0 = backend_cpu(backend)
            if profiler is not None:
                profiler.enable()
            n0 = sent[0]
            outcome = tables.due_seat_apply(due=seat, action=action)
            if profiler is not None:
                profiler.disable()
            parts["apply"] += time.process_time() - t2
            pg["apply"] += backend_cpu(backend) - p0
            statements["apply"] += sent[0] - n0
            if outcome == tables.DueApplied.APPLIED:
                applied += 1
            else:
                stale += 1
        ended = list(
            Table.objects.filter(pk__in=table_ids, next_hand_at__isnull=False).values_list(
                "pk", flat=True
            )
        )
        if ended:
            Table.objects.filter(pk__in=ended).update(next_hand_at=timezone.now())
            t0, p0 = time.process_time(), backend_cpu(backend)
            for table_id in ended:
                seating.table_tick(table_id=table_id)
            parts["deal"] += time.process_time() - t0
            pg["deal"] += backend_cpu(backend) - p0
    per = {k: round(1000 * v / applied, 3) for k, v in parts.items()}
    result = {
        "tables": args.tables,
        "moves": applied,
        "stale": stale,
        "ms_per_move": per,
        "pg_ms_per_move": {k: round(1000 * v / applied, 3) for k, v in pg.items()},
        "statements_per_move": {k: round(v / applied, 2) for k, v in statements.items()},
        "decide_ms": {
            "mean": round(1000 * statistics.fmean(decide_each), 3),
            "p50": round(1000 * statistics.median(decide_each), 3),
            "p95": round(1000 * sorted(decide_each)[int(0.95 * (len(decide_each) - 1))], 3),
        },
        "seconds": round(time.monotonic() - started, 1),
        "load": os.getloadavg(),
    }
    print(json.dumps(result, ensure_ascii=False), flush=True)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a") as fh:
        fh.write(json.dumps(result) + "\n")
    if profiler is not None:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(45)
        print(text.getvalue())


if __name__ == "__main__":
    main()
