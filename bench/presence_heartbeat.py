"""What presence leases cost a server: the heartbeat's UPDATE and the clock's expiry sweep.

Benchmark, not a test. On the database of ``DATABASE_URL`` it makes ``--tables`` tables of three
seated users with one lease per seat, split over ``--processes`` server processes as the load
bench's sockets are, then times, ``--repeat`` times each:

* ``lease_renew(keys, process)``: a heartbeat (one UPDATE of its leases + the keys read);
* ``leases_expire()`` with nothing stale: the clock's sweep on every loop.

It prints the median / p95 wall and CPU milliseconds of each (CPU: this process's; wall also
holds PostgreSQL's work on the rows, so the share by wall is an upper bound), and what they
come to per second at the configured intervals (``PRESENCE_HEARTBEAT_SECONDS`` per process, the
clock's sweep interval ``--sweep``), beside the CPU of the actions those tables make at human
pace (``--action-ms`` of Daphne CPU per action, ``--actions-per-second``), so the heartbeat's
share of the server's work is a measured ratio, not a whole-system run's noise. The rows it made
are deleted afterwards.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/leyou_render \\
        .venv/bin/python bench/presence_heartbeat.py --tables 300 --repeat 200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")


def _timed(fn, repeat: int) -> dict[str, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpus.append((time.process_time() - c0) * 1000)
        walls.append((time.perf_counter() - w0) * 1000)
    walls.sort()
    cpus.sort()
    p95 = max(0, int(len(walls) * 0.95) - 1)
    return {
        "wall_ms_p50": round(statistics.median(walls), 3),
        "wall_ms_p95": round(walls[p95], 3),
        "cpu_ms_p50": round(statistics.median(cpus), 3),
        "cpu_ms_p95": round(cpus[p95], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--sweep", type=float, default=2.0, help="the clock's sweep interval, s")
    parser.add_argument("--action-ms", type=float, default=21.6, help="Daphne CPU per action")
    parser.add_argument("--actions-per-second", type=float, default=100.0)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Seat, SeatLease, Table
    from games.services import presence

    tag = f"hb{os.getpid()}"
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"{tag}-{i}") for i in range(args.tables * 3)]
    )
    tables = Table.objects.bulk_create(
        [Table(game="doudizhu", seat_count=3) for _ in range(args.tables)]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=t, index=i, user=users[n * 3 + i], connections=1)
            for n, t in enumerate(tables)
            for i in range(3)
        ]
    )
    processes = [f"{tag}:p{k}" for k in range(args.processes)]
    now = timezone.now()
    SeatLease.objects.bulk_create(
        [
            SeatLease(
                key=f"{tag}-{n}-{i}",
                table=t,
                user=users[n * 3 + i],
                process=processes[(n * 3 + i) % args.processes],
                renewed_at=now,
            )
            for n, t in enumerate(tables)
            for i in range(3)
        ]
    )
    try:
        keys = list(SeatLease.objects.filter(process=processes[0]).values_list("key", flat=True))
        renew = _timed(lambda: presence.lease_renew(keys, processes[0]), args.repeat)
        sweep = _timed(lambda: presence.leases_expire(), args.repeat)
    finally:
        SeatLease.objects.filter(process__in=processes).delete()
        Table.objects.filter(pk__in=[t.pk for t in tables]).delete()
        get_user_model().objects.filter(username__startswith=f"{tag}-").delete()

    beat = settings.LEYOU["PRESENCE_HEARTBEAT_SECONDS"]
    # per second, over the whole set: every process beats every `beat` s; one clock sweeps
    heartbeat_cpu_per_s = renew["cpu_ms_p50"] * args.processes / beat
    sweep_cpu_per_s = sweep["cpu_ms_p50"] / args.sweep
    actions_cpu_per_s = args.action_ms * args.actions_per_second
    # wall time includes PostgreSQL's own work on the rows (another process): an upper bound
    heartbeat_wall_per_s = renew["wall_ms_p50"] * args.processes / beat
    sweep_wall_per_s = sweep["wall_ms_p50"] / args.sweep
    out = {
        "tables": args.tables,
        "leases": args.tables * 3,
        "processes": args.processes,
        "heartbeat_seconds": beat,
        "lease_seconds": settings.LEYOU["PRESENCE_LEASE_SECONDS"],
        "renew": renew,
        "sweep": sweep,
        "heartbeat_cpu_ms_per_s": round(heartbeat_cpu_per_s, 3),
        "sweep_cpu_ms_per_s": round(sweep_cpu_per_s, 3),
        "share_of_action_cpu_pct": round(
            100 * (heartbeat_cpu_per_s + sweep_cpu_per_s) / actions_cpu_per_s, 3
        ),
        "heartbeat_wall_ms_per_s": round(heartbeat_wall_per_s, 3),
        "sweep_wall_ms_per_s": round(sweep_wall_per_s, 3),
        "share_of_action_cpu_pct_by_wall": round(
            100 * (heartbeat_wall_per_s + sweep_wall_per_s) / actions_cpu_per_s, 3
        ),
        "load": [round(x, 2) for x in os.getloadavg()],
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
