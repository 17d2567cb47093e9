"""How long a table waits for its bot: T tables in play, bots and 托管 seats (issue #16 §3).

Benchmark, not a test. T 斗地主 tables on PostgreSQL, each a player in 托管 and two bots (the
clock plays all three seats with the game's bot). Two kinds of run:

``paced`` (the realistic case): the clock's own loop (``clock.run_until``, a ``DecisionPool``)
runs for ``--seconds`` with the think times of the settings (``BOT_THINK_SECONDS`` 0.8 s,
``AUTO_PLAY_SECONDS`` 1.0 s), so each seat comes due at its own time, think time after the move
before it; hands end and the clock deals the next ones. A move's *wait* is how long after its
seat's turn clock its transaction committed (the wait beyond think time; the issue's bound is
the decision budget, 0.2 s). Printed: p50 / p95 / p99 / max of it, the fallback share and the
decisions' CPU (``time.process_time`` in the worker) p50 / p95 / p99.

``pool`` / ``serial`` (the synthetic worst case): every running turn clock set to one moment,
then the clock's step: ``pool`` hands every due seat to the decision pool at once, ``serial``
(``BOT_DECISION_WORKERS`` 0, the old clock) decides and applies each in turn. The wait of a move
is from that moment to its ``HandEvent.created_at``; rounds are repeated (hands that end are
dealt again between rounds, not timed).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/leyou_x nice -n 19 \\
        .venv/bin/python bench/bot_latency.py

(defaults: ``--tables 20,100,300 --modes paced,pool --seconds 60 --rounds 8
--max-seconds 120``). The database is migrated and gets new rows (rooms, users, tables) each
run; the tables of earlier runs are parked (their clocks cleared), nothing is dropped. JSON lines
are appended to ``var/bench/bot_latency.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    os.environ.pop("REDIS_URL", None)  # in-memory layer: one process
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


def summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50": pct(values, 50),
        "p95": pct(values, 95),
        "p99": pct(values, 99),
        "max": max(values) if values else float("nan"),
        "mean": statistics.fmean(values) if values else float("nan"),
    }


def make_tables(count: int, tag: str) -> list[int]:
    """T tables, each a player in 托管 and two bots, the hand dealt (not timed; a cheap password
    hash, since hashing 300 passwords the production way was most of what timed out before)."""
    from django.test.utils import override_settings

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
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
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


def park_others(table_ids: list[int]) -> None:
    """Clear the clocks of every other table in the database (earlier runs' tables), so the
    clock plays only this run's."""
    from games.models import Seat, Table

    Seat.objects.exclude(table_id__in=table_ids).filter(deadline__isnull=False).update(
        deadline=None
    )
    Table.objects.exclude(pk__in=table_ids).update(fill_deadline=None, next_hand_at=None)


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


def run_synthetic(mode: str, table_ids: list[int], rounds: int, max_seconds: float, pool) -> dict:
    """Every running turn clock at one moment, then the clock's step, ``rounds`` times."""
    from django.db.models import F
    from django.utils import timezone

    from games import clock
    from games.models import HandEvent, Seat, Table

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
        # a writer of seats moves the table's seq (the invariant the rows a move reuses rely on)
        Table.objects.filter(pk__in=table_ids).update(seq=F("seq") + 1)
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
    return {
        "mode": mode,
        "tables": len(table_ids),
        "all": summary(waits),
        "play": summary(play_waits),
        "by": by,
        "fallback_share": fallbacks / len(waits) if waits else 0.0,
        "seconds": time.monotonic() - started,
    }


APPLIED = ("decided", "capped", "fallback", "step")


def cpu_by_kind(clock_ppid: int) -> dict[str, float]:
    """CPU seconds so far of every process on the machine, summed by kind: ``clock`` (the
    bench's clock processes: the children of ``clock_ppid``), ``workers`` (their decision
    processes), ``postgres``, ``redis`` and ``other`` (everything else, e.g. others' work)."""
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, str, float]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        comm = raw[raw.index("(") + 1 : raw.rindex(")")]
        rest = raw[raw.rindex(")") + 2 :].split()
        procs[int(entry.name)] = (int(rest[1]), comm, (int(rest[11]) + int(rest[12])) / tick)
        if int(rest[1]) == clock_ppid:  # the clocks' system time apart (thread hand-offs)
            procs[-int(entry.name)] = (-1, "clock-sys", int(rest[12]) / tick)
    clocks = {pid for pid, (ppid, _, _) in procs.items() if ppid == clock_ppid}
    totals = dict.fromkeys(("clock", "clock-sys", "workers", "postgres", "redis", "other"), 0.0)
    for pid, (ppid, comm, cpu) in procs.items():
        if comm == "clock-sys":
            totals["clock-sys"] += cpu
            continue
        if pid in clocks:
            kind = "clock"
        elif ppid in clocks:
            kind = "workers"
        elif comm.startswith("postgres"):
            kind = "postgres"
        elif comm.startswith("redis"):
            kind = "redis"
        else:
            kind = "other"
        totals[kind] += cpu
    return totals


def _profiled(target, out: str):
    """``target`` run under a cProfile of its own thread, dumped to ``out`` when it returns."""
    import cProfile

    def run(*args, **kwargs):
        profile = cProfile.Profile(time.thread_time)  # CPU: waits and GIL queues not counted
        profile.enable()
        try:
            return target(*args, **kwargs)
        finally:
            profile.disable()
            profile.dump_stats(out)

    return run


def _with_idle(timings: list) -> list:
    """The timings, each stamps tuple extended by the time its decision waited while the
    shard's decision processes had nothing to do (the hand-over's own delay; exact with one
    worker per shard, the bench's default): start − max(given, the latest end before it)."""
    out, last_end = [], 0.0
    for t in sorted(timings, key=lambda t: (t.stamps[2] or float("inf")) if t.stamps else 0.0):
        idle = 0.0
        if len(t.stamps) == 5 and t.stamps[1] and t.stamps[2]:
            idle = max(0.0, t.stamps[2] - max(t.stamps[1], last_end))
            last_end = max(last_end, t.stamps[3])
        out.append(replace(t, stamps=(*t.stamps, idle)))
    return out


def _hops(stamps: tuple) -> list:
    """submit, to_worker, in_worker, back (seconds, None: not reached) and the idle wait."""
    if len(stamps) != 6 or not stamps[1]:
        return [None] * 5
    hops = [b - a if a and b else None for a, b in zip(stamps[:4], stamps[1:5], strict=True)]
    return [*hops, stamps[5] if stamps[2] else None]


def paced_clock(shard: tuple[int, int], options: dict, out: str) -> None:
    """One clock process of a paced run (spawned): the clock's loop on its own pool for the
    warm-up and the timed seconds; its applied jobs' timings go to ``out`` as JSON."""
    setup()
    from collections import Counter

    from django.conf import settings

    from games import clock
    from games.decisions import DecisionPool
    from games.services.tables import due_apply

    paths: Counter[str] = Counter()  # how the moves were written (counted by wrapping)
    unlocked, alongside = due_apply.due_seat_apply_unlocked, due_apply.answered_alongside

    def unlocked_counted(due, action, how):
        outcome = unlocked(due, action, how)
        paths["unlocked" if outcome is not None else "locked"] += 1
        return outcome

    def alongside_counted(work, due):
        answer = alongside(work, due)
        paths["alongside" if answer else "moved"] += 1
        return answer

    due_apply.due_seat_apply_unlocked = unlocked_counted
    due_apply.answered_alongside = alongside_counted
    if options.get("switch_interval"):
        sys.setswitchinterval(options["switch_interval"])
    profile_dir = options.get("profile")
    run_until = clock.run_until
    if profile_dir:  # each thread of the clock (its loop, the apply threads) profiled apart
        apply_loop = DecisionPool._apply_loop
        count = iter(range(1000))
        DecisionPool._apply_loop = lambda self: _profiled(  # type: ignore[method-assign]
            apply_loop, f"{profile_dir}/clock{shard[0]}-apply{next(count)}.prof"
        )(self)
        run_until = _profiled(clock.run_until, f"{profile_dir}/clock{shard[0]}-loop.prof")
    pool = DecisionPool(
        workers=options["workers"],
        budget=options["budget"],
        apply_threads=options["threads"],
        nice=options["nice"],
        lead=options.get("lead"),
    )
    pool.timings = []
    pool.warm()
    stop = threading.Event()
    loop = threading.Thread(
        target=run_until,
        args=(stop, settings.LEYOU["CLOCK_INTERVAL_SECONDS"], pool, shard),
        name="bench-clock",
    )
    loop.start()
    time.sleep(options["warmup"])  # the first sweep finds every first clock due at once
    del pool.timings[:]
    parent = os.getppid()
    machine = cpu_by_kind(parent) if shard[0] == 0 else None
    cpu, wall, began = time.process_time(), time.monotonic(), time.time()
    time.sleep(options["seconds"])
    share = (time.process_time() - cpu) / (time.monotonic() - wall)
    window = [began, time.time()]
    if machine is not None:
        after = cpu_by_kind(parent)
        machine = {kind: (after[kind] - machine[kind]) / (window[1] - window[0]) for kind in after}
    stop.set()
    loop.join(timeout=30)
    pool.stop()
    timings = [
        [
            t.outcome,
            t.deciding,
            t.queued,
            t.applying,
            t.decision_cpu,
            t.late,
            *_hops(t.stamps),
            t.ahead,
        ]
        for t in _with_idle(pool.timings)
    ]
    Path(out).write_text(
        json.dumps(
            {
                "timings": timings,
                "cpu_share": share,
                "window": window,
                "machine": machine,
                "paths": dict(paths),
            }
        )
    )


def run_paced(table_ids: list[int], options: dict, clocks: int) -> dict:
    """``clocks`` clock processes (``runclock --shard i/n``'s loop) for ``options["seconds"]``:
    every seat due think time after the move before it."""
    import multiprocessing
    import tempfile
    from datetime import UTC, datetime

    from games.models import HandEvent

    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        outs = [f"{tmp}/clock{i}.json" for i in range(clocks)]
        procs = [
            spawn.Process(target=paced_clock, args=((i, clocks), options, outs[i]))
            for i in range(clocks)
        ]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(timeout=options["seconds"] + options["warmup"] + 120)
        results = [json.loads(Path(out).read_text()) for out in outs if Path(out).exists()]
    if not results:
        raise RuntimeError("no clock process finished")
    first = max(result["window"][0] for result in results)
    last = min(result["window"][1] for result in results)
    rows = [row for result in results for row in result["timings"]]
    if options.get("rows"):
        Path(options["rows"]).write_text(json.dumps(rows))
    applied = [row for row in rows if row[0] in APPLIED and row[5] is not None]
    outcomes: dict[str, int] = {}
    for row in rows:
        outcomes[row[0]] = outcomes.get(row[0], 0) + 1
    moves = HandEvent.objects.filter(
        table_id__in=table_ids,
        created_at__gte=datetime.fromtimestamp(first, UTC),
        created_at__lte=datetime.fromtimestamp(last, UTC),
    ).count()
    return {
        "mode": "paced",
        "tables": len(table_ids),
        "clocks": clocks,
        "late": summary([row[5] for row in applied]),
        "decision_cpu": summary([row[4] for row in applied if row[4] is not None]),
        "outcomes": outcomes,
        "fallback_share": outcomes.get("fallback", 0) / len(applied) if applied else 0.0,
        "moves_per_second": moves / max(1.0, last - first),
        "clock_cpu_share": [result["cpu_share"] for result in results],
        "paths": {
            key: sum(r.get("paths", {}).get(key, 0) for r in results)
            for key in ("unlocked", "locked", "alongside", "moved")
        },
        # cores used in the window by kind of process (measured by the first clock)
        "machine_cores": next((r["machine"] for r in results if r.get("machine")), None),
        "parts": {
            name: summary([row[i] for row in applied])
            for i, name in ((1, "deciding"), (2, "queued"), (3, "applying"))
        },
        # "deciding" in hops: the executor's submit, to the worker, in it, back to the clock
        "hops": {
            name: summary([row[i] for row in applied if len(row) > i and row[i] is not None])
            for i, name in (
                (6, "submit"),
                (7, "to_worker"),
                (8, "in_worker"),
                (9, "back"),
                (10, "worker_idle_meanwhile"),
                (11, "handed_ahead"),
            )
        },
        "seconds": options["seconds"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="20,100,300")
    parser.add_argument("--modes", default="paced,pool", help="paced, pool, serial")
    parser.add_argument("--seconds", type=float, default=60, help="paced: timed seconds per T")
    parser.add_argument("--warmup", type=float, default=10, help="paced: untimed first seconds")
    parser.add_argument(
        "--clocks", type=int, default=1, help="paced: clock processes (runclock --shard i/n)"
    )
    parser.add_argument("--rounds", type=int, default=8, help="pool, serial: rounds per T")
    parser.add_argument("--max-seconds", type=float, default=120, help="pool, serial: bound")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--apply-threads", type=int, default=None)
    parser.add_argument("--json", default=str(ROOT / "var/bench/bot_latency.jsonl"))
    parser.add_argument(
        "--lead",
        type=float,
        default=None,
        help="paced: the pool's lead (default: the settings' BOT_DECISION_LEAD_SECONDS)",
    )
    parser.add_argument(
        "--rows",
        default="",
        help="paced: a file for every applied job's timings (outcome, deciding, queued, "
        "applying, decision CPU, late, submit, to_worker, in_worker, back, idle, ahead)",
    )
    parser.add_argument(
        "--nice", type=int, default=None, help="the decision workers' nice (default: settings)"
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=0.0,
        help="paced: sys.setswitchinterval in the clock processes (0: Python's default)",
    )
    parser.add_argument(
        "--profile",
        default="",
        help="paced: a directory for a cProfile of each clock thread (inflates their CPU)",
    )
    args = parser.parse_args()
    setup()
    from django.conf import settings

    from games.decisions import DecisionPool

    conf = settings.LEYOU
    think = conf["BOT_THINK_SECONDS"], conf["AUTO_PLAY_SECONDS"]
    workers = args.workers or conf["BOT_DECISION_WORKERS"] or 2
    budget = args.budget or conf["BOT_DECISION_BUDGET_SECONDS"]
    threads = args.apply_threads or conf["BOT_APPLY_THREADS"]
    nice = conf["BOT_DECISION_NICE"] if args.nice is None else args.nice
    tag = f"{int(time.time())}"
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    print(
        f"workers {workers} (nice {nice}), budget {budget:.2f}s, apply threads {threads}, "
        f"think {think}; "
        f"load {os.getloadavg()}",
        flush=True,
    )
    for count in [int(t) for t in args.tables.split(",")]:
        for mode in args.modes.split(","):
            made = time.monotonic()
            table_ids = make_tables(count, f"{tag}_{mode}_{count}")
            made = time.monotonic() - made
            park_others(table_ids)
            pool = None
            if mode == "pool":
                pool = DecisionPool(workers=workers, budget=budget, apply_threads=threads)
                pool.timings = []
                pool.warm()
            try:
                if mode == "paced":
                    options = {
                        "workers": max(1, workers // args.clocks),
                        "budget": budget,
                        "threads": threads,
                        "warmup": args.warmup,
                        "seconds": args.seconds,
                        "profile": args.profile,
                        "switch_interval": args.switch_interval,
                        "nice": nice,
                        "lead": conf["BOT_DECISION_LEAD_SECONDS"]
                        if args.lead is None
                        else args.lead,
                        "rows": args.rows,
                    }
                    result = run_paced(table_ids, options, args.clocks)
                else:
                    # a move's next clock is never due within the round: only this moment's
                    conf["BOT_THINK_SECONDS"] = conf["AUTO_PLAY_SECONDS"] = 3600
                    result = run_synthetic(mode, table_ids, args.rounds, args.max_seconds, pool)
            finally:
                conf["BOT_THINK_SECONDS"], conf["AUTO_PLAY_SECONDS"] = think
                if pool is not None:
                    pool.stop()
            result.update(
                lead=conf["BOT_DECISION_LEAD_SECONDS"] if args.lead is None else args.lead,
                workers=workers,
                budget=budget,
                apply_threads=threads,
                nice=nice,
                tables_made_seconds=made,
            )
            result["load"] = os.getloadavg()
            report(result, pool)
            with out.open("a") as fh:
                fh.write(json.dumps(result) + "\n")


def report(result: dict, pool) -> None:
    f = "{n:6d}  {p50:.3f}  {p95:.3f}  {p99:.3f}  {max:.3f}".format
    if result["mode"] == "paced":
        c = result["decision_cpu"]
        print(
            f"paced  T {result['tables']:4d}  wait beyond think: n p50 p95 p99 max "
            f"{f(**result['late'])} | fb {result['fallback_share']:.1%} | decision CPU p50 "
            f"{c['p50'] * 1000:.1f} p95 {c['p95'] * 1000:.1f} p99 {c['p99'] * 1000:.1f} ms | "
            f"{result['moves_per_second']:.0f} moves/s, {result['clocks']} clock(s) "
            f"{'+'.join(f'{x:.2f}' for x in result['clock_cpu_share'])} CPU | "
            f"load {result['load'][0]:.1f}",
            flush=True,
        )
        print(f"        writes (whole run): {result['paths']}", flush=True)
        cores = result.get("machine_cores")
        if cores:
            moves = max(1e-9, result["moves_per_second"])
            print(
                "        machine CPU in the window (cores; ms per move): "
                + ", ".join(f"{k} {v:.2f} ({v / moves * 1000:.2f})" for k, v in cores.items()),
                flush=True,
            )
        parts = result["parts"]
    else:
        print(
            f"{result['mode']:6s} T {result['tables']:4d}  wait from the moment: n p50 p95 p99 "
            f"max {f(**result['all'])} | play {f(**result['play'])} | "
            f"fb {result['fallback_share']:.1%} | load {result['load'][0]:.1f}",
            flush=True,
        )
        if pool is None or not pool.timings:
            return
        timings = [t for t in pool.timings if t.outcome in APPLIED]
        parts = {
            name: summary([getattr(t, name) for t in timings])
            for name in ("deciding", "queued", "applying")
        }
        result["parts"] = parts
    for key in ("hops",):
        if result.get(key):
            print(
                f"        {key}: "
                + "; ".join(
                    f"{k} p50 {v['p50']:.4f} p95 {v['p95']:.4f} max {v['max']:.4f}"
                    for k, v in result[key].items()
                ),
                flush=True,
            )
    print(
        "        parts: "
        + "; ".join(
            f"{k} p50 {v['p50']:.3f} p95 {v['p95']:.3f} max {v['max']:.3f}"
            for k, v in parts.items()
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
