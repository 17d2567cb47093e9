"""How long a table waits for its bot when T tables are due at once (issue #16 §3).

Benchmark, not a test. T 斗地主 tables on PostgreSQL, each a player in 托管 and two bots (the
clock plays all three seats with the game's bot). A round sets every running turn clock to the
same moment, then runs the clock's step: ``serial`` (``BOT_DECISION_WORKERS`` 0: each due seat
decided and applied in turn, in one thread, as before) or ``pool`` (``games.decisions``: every
due seat handed to worker processes at once, each move applied as it comes back by apply
threads, the fallback past the budget). The wait of a move is from that moment to its
``HandEvent.created_at``; printed per mode and T as p50 / p95 / p99 / max over all moves and over
the moves of the play (出牌 / 過, where the search runs), with the share of fallbacks. Hands that
end are dealt again between rounds (not timed).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/leyou_x \\
        .venv/bin/python bench/bot_latency.py --tables 20,100,300 --rounds 12

The database is migrated and gets new rows (rooms, users, tables) each run; nothing is
dropped. Every run is bounded (``--max-seconds`` per mode and T). JSON lines are appended to
``var/bench/bot_latency.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.pop("REDIS_URL", None)  # in-memory layer, eager settlement: one process
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database")
    import psycopg

    server, _, name = url.rpartition("/")
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def make_tables(count: int, tag: str) -> list[int]:
    from accounts import services as accounts
    from games.models import Seat
    from games.services import seating
    from ledger import services as ledger
    from lobby import services as lobby
    from lobby.models import Room

    room = Room.objects.create(
        name=f"延遲{tag}",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        turn_seconds=30,
        bot_wait_seconds=0,
    )
    ids = []
    for i in range(count):
        user = accounts.user_register(
            username=f"lat{tag}_{i}", password="pw-123456", nickname=f"延{i}"
        )
        account = ledger.account_for_user(user)
        ledger.transfer_create(
            postings=[(ledger.system_account(ledger.MINT), -100_000), (account, 100_000)],
            kind=ledger.TransferKind.STAFF_GRANT,
            reason="bench",
        )
        table = lobby.quick_join(user=user, room_id=room.pk)
        seating.bots_fill(table_id=table.pk)
        Seat.objects.filter(table=table, user=user).update(auto=True, connections=1)
        ids.append(table.pk)
    return ids


def redeal(table_ids: list[int]) -> None:
    """Deal again at the tables whose hand ended (not timed)."""
    from django.utils import timezone

    from games.models import Table
    from games.services import seating

    ended = list(
        Table.objects.filter(pk__in=table_ids, next_hand_at__isnull=False).values_list(
            "pk", flat=True
        )
    )
    Table.objects.filter(pk__in=ended).update(next_hand_at=timezone.now())
    for table_id in ended:
        seating.table_tick(table_id=table_id)


def run(mode: str, table_ids: list[int], rounds: int, max_seconds: float, pool) -> dict:
    from django.utils import timezone

    from games import clock
    from games.models import HandEvent, Seat

    waits: list[float] = []
    play_waits: list[float] = []
    by: dict[str, int] = {}
    started = time.monotonic()
    for _ in range(rounds):
        if time.monotonic() - started > max_seconds:
            break
        redeal(table_ids)
        due_at = timezone.now()
        n = Seat.objects.filter(table_id__in=table_ids, deadline__isnull=False).update(
            deadline=due_at
        )
        if not n:
            continue
        # as the clock would: sweep again while seats of this moment are left (the serial
        # sweep takes at most 500 seats, the pool's 1000)
        for _sweep in range(20):
            clock.sweep(pool)
            if pool is not None:
                end = time.monotonic() + 120
                while pool.busy() and time.monotonic() < end:
                    time.sleep(0.005)
            if not Seat.objects.filter(table_id__in=table_ids, deadline__lte=due_at).exists():
                break
        for created, action, who in HandEvent.objects.filter(
            table_id__in=table_ids, created_at__gte=due_at
        ).values_list("created_at", "action", "by"):
            wait = (created - due_at).total_seconds()
            waits.append(wait)
            by[who] = by.get(who, 0) + 1
            if action.get("type") in ("play", "pass"):
                play_waits.append(wait)
    fallbacks = sum(v for k, v in by.items() if k.endswith("-fb"))

    def summary(values: list[float]) -> dict:
        return {
            "n": len(values),
            "p50": pct(values, 50),
            "p95": pct(values, 95),
            "p99": pct(values, 99),
            "max": max(values) if values else float("nan"),
            "mean": statistics.fmean(values) if values else float("nan"),
        }

    return {
        "mode": mode,
        "tables": len(table_ids),
        "all": summary(waits),
        "play": summary(play_waits),
        "by": by,
        "fallback_share": fallbacks / len(waits) if waits else 0.0,
        "seconds": time.monotonic() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="20,100,300")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--modes", default="serial,pool")
    parser.add_argument("--max-seconds", type=float, default=240)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--apply-threads", type=int, default=None)
    parser.add_argument("--json", default=str(ROOT / "var/bench/bot_latency.jsonl"))
    args = parser.parse_args()
    setup()
    from django.conf import settings

    from games.decisions import DecisionPool

    conf = settings.LEYOU
    # a move's next clock is never due within the round: only this moment's seats are timed
    conf["BOT_THINK_SECONDS"] = conf["AUTO_PLAY_SECONDS"] = 3600
    workers = args.workers or conf["BOT_DECISION_WORKERS"] or 2
    budget = args.budget or conf["BOT_DECISION_BUDGET_SECONDS"]
    threads = args.apply_threads or conf["BOT_APPLY_THREADS"]
    tag = f"{int(time.time())}"
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    print(
        f"workers {workers}, budget {budget:.2f}s, apply threads {threads}; load {os.getloadavg()}"
    )
    print(
        "mode    T    moves  p50    p95    p99    max   | play: n   p50    p95    p99    max  | fb"
    )
    for count in [int(t) for t in args.tables.split(",")]:
        for mode in args.modes.split(","):
            table_ids = make_tables(count, f"{tag}_{mode}_{count}")
            pool = None
            if mode == "pool":
                pool = DecisionPool(workers=workers, budget=budget, apply_threads=threads)
                pool.timings = []
                pool.warm()
            try:
                result = run(mode, table_ids, args.rounds, args.max_seconds, pool)
            finally:
                if pool is not None:
                    pool.stop()
            result.update(workers=workers, budget=budget, apply_threads=threads)
            result["load"] = os.getloadavg()
            a, p = result["all"], result["play"]
            print(
                f"{mode:6s} {count:4d} {a['n']:6d} {a['p50']:.3f}  {a['p95']:.3f}  {a['p99']:.3f}"
                f"  {a['max']:.3f} | {p['n']:5d} {p['p50']:.3f}  {p['p95']:.3f}  {p['p99']:.3f}"
                f"  {p['max']:.3f} | {result['fallback_share']:.1%}",
                flush=True,
            )
            if pool is not None and pool.timings:
                parts = list(zip(*pool.timings, strict=True))
                result["pool_parts"] = {
                    name: {"p50": pct(list(v), 50), "p95": pct(list(v), 95), "max": max(v)}
                    for name, v in zip(("deciding", "queued", "applying"), parts, strict=True)
                }
                print(
                    "        pool: "
                    + "; ".join(
                        f"{k} p50 {v['p50']:.3f} p95 {v['p95']:.3f} max {v['max']:.3f}"
                        for k, v in result["pool_parts"].items()
                    ),
                    flush=True,
                )
            with out.open("a") as fh:
                fh.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
