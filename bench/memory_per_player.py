"""Memory per connected player: RSS of ONE Daphne holding idle sockets of seated players.

Benchmark, not a test. Starts one Daphne (``--backend sqlite``: the embedded default with the
in-memory channel layer; ``--backend pg``: PostgreSQL + Redis) on a fresh bench database (see
``table_load.py``), seats ``--max`` players at tables of 3 (``lobby.services.quick_join``, so
each table's hand has started) and opens their sockets (``?format=json``) in steps of
``--step`` players. After each step it waits ``--settle`` s and reads the server's VmRSS. The
clock is deliberately NOT running, so nobody is played by 托管 and the sockets stay idle (each
got its snapshot on connect). At the end it holds all sockets ``--hold`` s, checks how many are
still open and that each got its own seat's snapshot.

Reports RSS before / at the end, the least-squares slope KiB per player over the steps, and the
end-to-end delta per player.

    .venv/bin/python bench/memory_per_player.py --max 3000 --step 300
    .venv/bin/python bench/memory_per_player.py --backend pg --max 3000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import table_load as tl  # noqa: E402


def slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0


async def open_socket(
    port: int, table_id: int, cookie: str, seat: int, sem, state
) -> object | None:
    from websockets.asyncio.client import connect

    async with sem:
        try:
            ws = await connect(
                f"ws://127.0.0.1:{port}/ws/table/{table_id}/?format=json",
                additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
                open_timeout=60,
                max_size=2**22,
                compression=None,
                ping_interval=None,
            )
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if (
                frame.get("type") != "table"
                or frame.get("seat") != seat
                or (frame.get("view") and frame["view"].get("seat") != seat)
            ):
                state["wrong"] += 1
            return ws
        except Exception as error:
            state["fail"] += 1
            state["last_error"] = repr(error)
            return None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "pg"], default="sqlite")
    parser.add_argument("--max", type=int, default=3000, help="players (multiple of 3)")
    parser.add_argument("--step", type=int, default=300)
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--hold", type=float, default=5.0)
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument("--settings", default="config.settings.local")
    parser.add_argument(
        "--json", default=str(tl.ROOT / "var" / "bench" / "memory_per_player.jsonl")
    )
    args = parser.parse_args()
    tl.raise_nofile()
    if args.backend == "pg":
        tl.PG_DB = f"{tl.PG_DB}_mem"
    var_dir = Path(tempfile.mkdtemp(prefix=f"leyou-bench-mem-{args.backend}-"))
    env = tl.bench_env(args.backend, var_dir, args.settings)
    tl.log(f"preparing {args.backend} database")
    tl.prepare_database(args.backend, var_dir, env)
    tl.django_setup(env)
    from django.db import connection

    room = tl.make_room()
    n_tables = args.max // 3
    players = tl.make_players(3 * n_tables, prefix=f"m{int(time.time())}_")
    t0 = time.perf_counter()
    table_ids = [
        tl.seat_table(room.pk, [players[3 * t + s][0] for s in range(3)]) for t in range(n_tables)
    ]
    tl.log(f"{n_tables} tables seated in {time.perf_counter() - t0:.1f}s")
    connection.close()

    procs = tl.Procs(env, var_dir)
    try:
        port, pid = procs.daphne("daphne0")
        time.sleep(1.0)

        async def run() -> dict:
            sem = asyncio.Semaphore(args.connect_concurrency)
            state = {"fail": 0, "wrong": 0, "last_error": None}
            sockets = []
            xs, ys = [0], [tl.rss_kib(pid)]
            rss0 = ys[0]
            t_open = 0.0
            for start in range(0, 3 * n_tables, args.step):
                batch = range(start, min(start + args.step, 3 * n_tables))
                t = time.perf_counter()
                opened = await asyncio.gather(
                    *(
                        open_socket(port, table_ids[i // 3], players[i][1], i % 3, sem, state)
                        for i in batch
                    )
                )
                t_open += time.perf_counter() - t
                sockets += [ws for ws in opened if ws is not None]
                await asyncio.sleep(args.settle)
                xs.append(len(sockets))
                ys.append(tl.rss_kib(pid))
                tl.log(f"{len(sockets)} sockets: RSS {ys[-1] / 1024:.1f} MiB")
            await asyncio.sleep(args.hold)
            alive = 0
            for ws in sockets:
                try:
                    await asyncio.wait_for(ws.ping(), 10)
                    alive += 1
                except Exception:
                    pass
            rss_end = tl.rss_kib(pid)
            for ws in sockets:
                try:
                    await asyncio.wait_for(ws.close(), 5)
                except Exception:
                    pass
            return {
                "backend": args.backend,
                "players": 3 * n_tables,
                "held": alive,
                "connect_fail": state["fail"],
                "wrong_view": state["wrong"],
                "last_error": state["last_error"],
                "rss_before_mib": round(rss0 / 1024, 1),
                "rss_end_mib": round(rss_end / 1024, 1),
                "kib_per_player_slope": round(slope(xs, ys), 1),
                "kib_per_player_delta": round((rss_end - rss0) / max(1, len(sockets)), 1),
                "connect_seconds": round(t_open, 1),
                "steps": list(zip(xs, [round(y / 1024, 1) for y in ys])),
                "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
            }

        result = asyncio.run(asyncio.wait_for(run(), timeout=900))
    finally:
        procs.stop()
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    with open(args.json, "a") as fh:
        fh.write(json.dumps(result) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
