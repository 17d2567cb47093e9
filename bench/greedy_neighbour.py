"""The greedy neighbour: do honest tables slow down while a few users flood the servers?

Benchmark, not a test; loopback only, bounded in time (a few seconds of load per window).
Starts its own Daphnes (``--procs``, default 2), the clock and a Celery worker on PostgreSQL
and Redis (``BENCH_PG_DB`` / ``BENCH_PG_TEMPLATE`` / ``BENCH_REDIS_URL`` as bench/table_load.py,
whose set-up it reuses), seats ``--tables`` honest tables of three scripted players who answer
at once when it is their turn, and measures each honest move's latency: from the move sent to
its own socket's first frame at a later seq.

Two windows of ``--duration`` seconds: honest play alone, then honest play while ``--greedy``
users (seated at tables of their own) each try to hold ``--sockets`` sockets of every kind —
table, 大豐收, lobby — spread over the processes, flood frames on every one as fast as the
socket takes them, and reconnect at once whenever one is closed. The result line gives the
honest p50 / p95 of both windows, and what the greedy users got: the most sockets of each kind
one of them held at once, frames sent, 1008 closes, refused handshakes.

    BENCH_PG_DB=leyou_me_bench BENCH_PG_TEMPLATE=leyou_me_tpl \\
    BENCH_REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/greedy_neighbour.py --tables 4 --greedy 5 --duration 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import table_load as tl  # noqa: E402  (the shared set-up of the live benchmarks)


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Window:
    def __init__(self) -> None:
        self.name = "warmup"
        self.latency: dict[str, list[float]] = defaultdict(list)


async def honest_seat(url: str, cookie: str, seat: int, window: Window, stop: asyncio.Event):
    from websockets.asyncio.client import connect

    origin = url.split("/ws/")[0].replace("ws://", "http://")
    sent: dict[int, tuple[float, str]] = {}
    while not stop.is_set():
        try:
            async with connect(
                url, additional_headers={"Cookie": cookie, "Origin": origin}, max_size=2**22
            ) as ws:
                acted = -1
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                    except TimeoutError:
                        continue
                    frame = json.loads(raw)
                    if frame.get("type") != "table":
                        continue
                    now = time.monotonic()
                    for seq in [s for s in sent if s < frame["seq"]]:
                        at, name = sent.pop(seq)
                        window.latency[name].append(now - at)
                    action = tl.choose(frame["view"], seat) if frame.get("view") else None
                    if action is not None and acted != frame["seq"]:
                        acted = frame["seq"]
                        sent[frame["seq"]] = (time.monotonic(), window.name)
                        await ws.send(
                            json.dumps(
                                {
                                    "kind": "move",
                                    "action": action,
                                    "seq": frame["seq"],
                                    "action_id": f"h{seat}-{frame['seq']}-{time.monotonic()}",
                                }
                            )
                        )
        except Exception:  # closed: reconnect as the browser does
            await asyncio.sleep(0.5)


class Greed:
    def __init__(self) -> None:
        self.open: dict[tuple[int, str], int] = defaultdict(int)
        self.peak: dict[str, int] = defaultdict(int)
        self.frames = 0
        self.closed_1008 = 0
        self.refused = 0
        self.attempts = 0


async def greedy_socket(url: str, cookie: str, kind: str, user: int, g: Greed, stop):
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    origin = url.split("/ws/")[0].replace("ws://", "http://")
    frame = json.dumps({"kind": "resync" if kind == "table" else "ping"})
    while not stop.is_set():
        g.attempts += 1
        counted = False
        try:
            async with connect(
                url,
                additional_headers={"Cookie": cookie, "Origin": origin},
                max_size=2**22,
                open_timeout=5,
            ) as ws:
                if kind != "lobby":
                    first = json.loads(await asyncio.wait_for(ws.recv(), timeout=5))
                    if first.get("type") == "error":
                        g.refused += 1
                        continue
                else:  # the lobby says nothing at first: open if not closed within a second
                    try:
                        await asyncio.wait_for(ws.recv(), timeout=1.0)
                    except TimeoutError:
                        pass
                counted = True
                g.open[(user, kind)] += 1
                g.peak[kind] = max(g.peak[kind], g.open[(user, kind)])
                while not stop.is_set():
                    if kind == "lobby":
                        await asyncio.wait_for(ws.recv(), timeout=30)
                        continue
                    await ws.send(frame)
                    g.frames += 1
                    if g.frames % 20 == 0:
                        await asyncio.sleep(0)
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == 1008:
                g.closed_1008 += 1
        except Exception:
            g.refused += 1
            await asyncio.sleep(0.05)
        finally:
            if counted:
                g.open[(user, kind)] -= 1


async def server_counts(user_ids: list[int], held: dict) -> None:
    """What the servers count, sampled every 0.2 s: the most live sockets one greedy user
    held of each kind (table: his leases, one per open table socket; 大豐收 and lobby: his
    live members in Redis, as the caps count them)."""
    from django.db.models import Count

    from games.models import SeatLease

    try:
        from games import socket_limits
    except ImportError:  # a checkout before the caps: leases only
        socket_limits = None

    def sample() -> None:
        rows = (
            SeatLease.objects.filter(user_id__in=user_ids)
            .values("user_id")
            .annotate(n=Count("pk"))
            .values_list("n", flat=True)
        )
        held["table_leases"] = max([held["table_leases"], *rows])
        for kind in ("table", "wheel", "lobby") if socket_limits is not None else ():
            for uid in user_ids:
                held[kind] = max(held[kind], socket_limits.held(kind, uid))

    while True:
        await asyncio.get_running_loop().run_in_executor(None, sample)
        await asyncio.sleep(0.2)


def greedy_child(plan_file: str) -> None:
    """The greedy users' process: every planned socket floods and reconnects for the window;
    prints what they got as one JSON line."""
    plan = json.loads(Path(plan_file).read_text())
    g = Greed()

    async def run() -> None:
        stop = asyncio.Event()
        tasks = [
            asyncio.ensure_future(greedy_socket(url, cookie, kind, uid, g, stop))
            for url, cookie, kind, uid in plan["sockets"]
        ]
        await asyncio.sleep(plan["duration"])
        stop.set()
        await asyncio.wait(tasks, timeout=10)

    asyncio.run(run())
    print(
        json.dumps(
            {
                "most_sockets_one_user_held": dict(g.peak),
                "frames_sent": g.frames,
                "closed_1008": g.closed_1008,
                "refused": g.refused,
                "attempts": g.attempts,
            }
        )
    )


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--greedy-child":
        greedy_child(sys.argv[2])
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=4, help="honest tables (3 players each)")
    parser.add_argument("--greedy", type=int, default=5, help="greedy users")
    parser.add_argument("--sockets", type=int, default=5, help="sockets each tries, per kind")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--kinds", default="table,wheel,lobby", help="the greedy sockets' kinds")
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=4.0)
    args = parser.parse_args()
    tl.raise_nofile()
    var_dir = Path(tempfile.mkdtemp(prefix="leyou-bench-greedy-"))
    env = tl.bench_env("pg", var_dir)
    tl.log(f"preparing the database (var dir {var_dir})")
    tl.prepare_database("pg", var_dir, env)
    tl.django_setup(env)
    from django.db import connection

    from lobby.models import Room

    room = tl.make_room()
    wheel = Room.objects.create(
        name="豐收",
        game="dafengshou",
        seats=1,
        factor=1,
        turn_seconds=15,
        extra={"bet_seconds": 10, "spin_seconds": 2, "chips": [10, 100], "player_limit": 150},
    )
    greedy_n = -(-args.greedy // 3) * 3  # greedy users sit at tables of their own
    players = tl.make_players(3 * args.tables + greedy_n, prefix=f"g{int(time.time())}_")
    honest, greedy = players[: 3 * args.tables], players[3 * args.tables :][: args.greedy]
    tables = [
        tl.seat_table(room.pk, [uid for uid, _ in honest[3 * t : 3 * t + 3]])
        for t in range(args.tables)
    ]
    greedy_all = players[3 * args.tables :]
    greedy_tables = [
        tl.seat_table(room.pk, [uid for uid, _ in greedy_all[3 * t : 3 * t + 3]])
        for t in range(greedy_n // 3)
    ]
    connection.close()
    procs = tl.Procs(env, var_dir)
    try:
        ports = [procs.daphne(f"daphne{i}")[0] for i in range(args.procs)]
        procs.clock()
        procs.worker()
        time.sleep(1.0)
        window, greed, held = Window(), {}, defaultdict(int)

        async def run() -> None:
            stop_honest = asyncio.Event()
            tasks = [
                asyncio.ensure_future(
                    honest_seat(
                        f"ws://127.0.0.1:{ports[(t + seat) % len(ports)]}/ws/table/{table}/"
                        "?format=json",
                        honest[3 * t + seat][1],
                        seat,
                        window,
                        stop_honest,
                    )
                )
                for t, table in enumerate(tables)
                for seat in range(3)
            ]
            await asyncio.sleep(args.warmup)
            window.name = "alone"
            await asyncio.sleep(args.duration)
            window.name = "greedy"
            plan = []
            for g, (uid, cookie) in enumerate(greedy):
                table = greedy_tables[g // 3]
                paths = {
                    "table": f"/ws/table/{table}/?format=json",
                    "wheel": f"/ws/wheel/{wheel.pk}/?format=json",
                    "lobby": "/ws/lobby/",
                }
                for kind, path in paths.items():
                    if kind not in args.kinds.split(","):
                        continue
                    for i in range(args.sockets):
                        url = f"ws://127.0.0.1:{ports[i % len(ports)]}{path}"
                        plan.append([url, cookie, kind, uid])
            plan_file = var_dir / "greedy-plan.json"
            plan_file.write_text(json.dumps({"duration": args.duration, "sockets": plan}))
            # the greedy users in a process of their own, niced: their client's CPU is not
            # taken from the servers (as attackers on other machines), only their frames
            child = await asyncio.create_subprocess_exec(
                "nice",
                "-n",
                "19",
                tl.PY,
                __file__,
                "--greedy-child",
                str(plan_file),
                stdout=asyncio.subprocess.PIPE,
            )
            sampler = asyncio.ensure_future(server_counts([uid for uid, _ in greedy], held))
            out, _ = await child.communicate()
            sampler.cancel()
            greed.update(json.loads(out.decode().strip().splitlines()[-1]))
            window.name = "done"
            stop_honest.set()
            await asyncio.wait(tasks, timeout=10)

        asyncio.run(run())
    finally:
        procs.stop()
    alone, busy = window.latency["alone"], window.latency["greedy"]
    result = {
        "bench": "greedy_neighbour",
        "tables": args.tables,
        "greedy_users": args.greedy,
        "sockets_tried_per_kind": args.sockets,
        "procs": args.procs,
        "kinds": args.kinds,
        "duration_s": args.duration,
        "alone": {
            "moves": len(alone),
            "p50_ms": _ms(pct(alone, 0.5)),
            "p95_ms": _ms(pct(alone, 0.95)),
        },
        "greedy": {
            "moves": len(busy),
            "p50_ms": _ms(pct(busy, 0.5)),
            "p95_ms": _ms(pct(busy, 0.95)),
        },
        "greedy_got": greed,
        "server_counted_most_per_user": dict(held),
    }
    p95a, p95b = result["alone"]["p95_ms"], result["greedy"]["p95_ms"]
    if p95a and p95b:
        result["p95_ratio"] = round(p95b / p95a, 2)
    print(json.dumps(result, ensure_ascii=False))


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


if __name__ == "__main__":
    main()
