"""Settlement rate: finished 斗地主 hands settled per second by a real Celery worker.

Benchmark, not a test. PostgreSQL + Redis (as ``table_load.py --backend pg``: a fresh bench
database copied from a migrated template, REDIS_URL redis://127.0.0.1:6379/1 as broker).

1. Creates ``--tables`` tables of 3 players (signup grant) and ``--hands`` finished hands: each
   hand is a whole 斗地主 hand played by the engine's bot for every seat (``new_game`` +
   ``bot_action`` until over), stored as the tables service stores a finished hand (status
   finished, ``result`` as ``_result_json``, engine state, room params with factor N and rake A).
2. With no worker running, enqueues ``games.tasks.hand_settle_task`` for every hand on a queue of
   its own (``--queue``, so nothing else on the broker is touched or consumed).
3. Starts ``celery -A config worker`` (``--pool solo`` as ``runplatform`` does, or
   ``--pool prefork --concurrency N``) on that queue and polls ``Hand.settled_at`` until every
   hand is settled (bounded by ``--timeout``).

Reports hands/s from worker start and between the first and the last settlement, the worker's
CPU per hand, and checks that every hand is settled once (one transfer each, ``hand:<id>``
idempotency key) and that the ledger has no drift (``ledger_drift()``).

    .venv/bin/python bench/settlement_rate.py --hands 500
    .venv/bin/python bench/settlement_rate.py --hands 500 --pool prefork --concurrency 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import table_load as tl  # noqa: E402


def play_hand_with_bots(ruleset, params: dict, seed: str):
    config = ruleset.config_from_params(params)
    state = ruleset.new_game(config, seed, 3)
    for _ in range(1000):
        if ruleset.is_over(state):
            return state
        seat = min(ruleset.to_act(state))
        ruleset.apply(state, seat, ruleset.bot_action(state, seat))
    raise RuntimeError("hand did not finish")


def worker_cpu(pid: int) -> float:
    """CPU seconds of the worker and its pool processes (prefork children)."""
    children = []
    try:
        children = [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pass
    return tl.cpu_seconds(pid) + sum(tl.cpu_seconds(c) for c in children)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pool", default="solo", choices=["solo", "prefork", "threads"])
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--queue", default="bench_settle")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--json", default=str(tl.ROOT / "var" / "bench" / "settlement_rate.jsonl"))
    args = parser.parse_args()

    tl.PG_DB = f"{tl.PG_DB}_settle"  # its own database: a table_load run may use leyou_bench
    var_dir = Path(tempfile.mkdtemp(prefix="leyou-bench-settle-"))
    env = tl.bench_env("pg", var_dir)
    tl.log("preparing pg database")
    tl.prepare_database("pg", var_dir, env)
    tl.django_setup(env)

    from django.db import connection, transaction
    from django.utils import timezone

    from games.engine import registry
    from games.engine.chance import new_seed, seed_commitment
    from games.models import Hand, HandSeat
    from games.services import seating, tables
    from games.tasks import hand_settle_task
    from ledger.models import Transfer
    from ledger.selectors import balances_for_users, ledger_drift

    ruleset = registry.get("doudizhu")
    room = tl.make_room()
    players = tl.make_players(3 * args.tables, prefix=f"s{int(time.time())}_")
    t0 = time.perf_counter()
    tabs = []
    for t in range(args.tables):
        table = seating.table_create(game="doudizhu", params=room.params(), seat_count=3)
        tabs.append((table, [players[3 * t + s][0] for s in range(3)]))
    names = {}
    hand_ids = []
    with transaction.atomic():
        for i in range(args.hands):
            table, uids = tabs[i % args.tables]
            balances = balances_for_users(uids)
            params = {**table.params, "seat_beans": [balances[u] for u in uids], "dealer": 0}
            seed = new_seed()
            state = play_hand_with_bots(ruleset, params, seed)
            hand = Hand.objects.create(
                table=table,
                number=i // args.tables + 1,
                game="doudizhu",
                seed=seed,
                seed_hash=seed_commitment(seed),
                params=params,
                players=[
                    {"user_id": u, "name": names.get(u, f"p{u}"), "is_bot": False, "avatar": 0}
                    for u in uids
                ],
                state=ruleset.state_to_json(state),
                result=tables.result_json(ruleset.result(state)),
                status=Hand.Status.FINISHED,
                finished_at=timezone.now(),
            )
            hand_ids.append(hand.pk)
    tl.log(
        f"{args.hands} finished hands on {args.tables} tables in {time.perf_counter() - t0:.1f}s"
    )
    for hand_id in hand_ids:
        hand_settle_task.apply_async(args=[hand_id], queue=args.queue)
    tl.log(f"{len(hand_ids)} settle tasks enqueued on queue {args.queue!r}")
    connection.close()

    cmd = [
        str(tl.BIN / "celery"),
        "-A",
        "config",
        "worker",
        f"--pool={args.pool}",
        "--loglevel=WARNING",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-Q",
        args.queue,
    ]
    if args.pool != "solo":
        cmd.append(f"--concurrency={args.concurrency}")
    out = open(var_dir / "worker.log", "ab")
    start = time.perf_counter()
    worker = subprocess.Popen(cmd, cwd=tl.ROOT, env=env, stdout=out, stderr=out)
    first = last = None
    cpu_first = cpu_last = None
    settled = settled_first = 0
    try:
        while time.perf_counter() - start < args.timeout:
            time.sleep(0.2)
            settled = Hand.objects.filter(pk__in=hand_ids, settled_at__isnull=False).count()
            if settled and first is None:
                first = time.perf_counter()
                cpu_first, settled_first = worker_cpu(worker.pid), settled
            if settled == len(hand_ids):
                last = time.perf_counter()
                cpu_last = worker_cpu(worker.pid)
                break
            if worker.poll() is not None:
                break
    finally:
        cpu = worker_cpu(worker.pid)
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
    times = list(
        Hand.objects.filter(pk__in=hand_ids, settled_at__isnull=False)
        .order_by("settled_at")
        .values_list("settled_at", flat=True)
    )
    db_span = (times[-1] - times[0]).total_seconds() if len(times) > 1 else None
    transfers = Transfer.objects.filter(idempotency_key__in=[f"hand:{h}" for h in hand_ids]).count()
    seats = HandSeat.objects.filter(hand_id__in=hand_ids).count()
    drift = ledger_drift()
    result = {
        "hands": len(hand_ids),
        "settled": settled,
        "pool": args.pool,
        "concurrency": args.concurrency if args.pool != "solo" else 1,
        "from_worker_start_s": round((last or time.perf_counter()) - start, 2),
        "hands_per_s_from_start": round(settled / ((last or time.perf_counter()) - start), 1),
        "first_to_last_s": round(db_span, 2) if db_span else None,
        "hands_per_s_steady": round((len(times) - 1) / db_span, 1) if db_span else None,
        "worker_cpu_s": round(cpu, 2),
        "worker_cpu_ms_per_hand": round(1000 * cpu / max(1, settled), 1),
        # without the worker's start-up: CPU between the first and the last settlement polled
        "worker_cpu_ms_per_hand_steady": round(
            1000 * (cpu_last - cpu_first) / max(1, settled - settled_first), 1
        )
        if cpu_last is not None and cpu_first is not None
        else None,
        "transfers": transfers,
        "hand_seats": seats,
        "ledger_drift": len(drift),
        "loadavg_1m": round(__import__("os").getloadavg()[0], 2),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    with open(args.json, "a") as fh:
        fh.write(json.dumps(result) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
