"""Where a browser's action spends the server's CPU: the move, the push, the three HTML boards.

Benchmark, not a test. Plays whole 斗地主 hands at ``--tables`` tables through the services on
the database of ``DATABASE_URL`` (its own room, players and tables are left there) and, for
every action, does in this one process what the Daphne serving the table's three sockets does:
``tables.move_submit`` (lock, apply, event, state, clocks, the snapshot encoded for the
broadcast — which is not sent: nothing leaves this process), then for each
of the three seats the pushed snapshot (decoded once per process) rendered as that seat's HTML
board (``rendering.render_html`` under the player's language), as ``TableConsumer.table_changed``
does. The tables' actions interleave, so the board fragment store sees what a server sees.

Prints process-CPU milliseconds per action for each part (median of ``--rounds`` rounds of
the whole run), and with ``--profile`` a cProfile table of the largest cumulative entries.
What it leaves out: Channels, Redis and Twisted (the sockets' frames and the channel layer's
receive), which only a profile of a loaded server shows (``table_load.py --profile``).

    DATABASE_URL=... REDIS_URL=... .venv/bin/python bench/action_cpu.py --tables 20 --rounds 3
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
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="runs of --tables hands each")
    parser.add_argument("--language", default="zh-hant")
    parser.add_argument("--profile", action="store_true", help="print a cProfile table")
    parser.add_argument("--profile-out", default="", help="also save the cProfile stats here")
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() after start-up: whether the collector's walks of start-up's objects cost",
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.utils import translation
    from table_load import choose

    from accounts import services as accounts
    from games import realtime, rendering
    from games.engine import registry
    from games.selectors import tables as table_selectors
    from games.services import tables
    from lobby import services as lobby
    from lobby.models import Room

    ruleset = registry.get("doudizhu")
    tag = f"ac{int(time.time())}"
    room = Room.objects.create(
        name="動作測量",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=10,
        rake=5,
        min_beans=0,
        turn_seconds=20,
        bot_wait_seconds=30,
    )
    pushed: list[tuple[int, int, str]] = []  # what the broadcasts carried: (table, seq, JSON)
    original_changed = realtime.table_changed

    def table_changed(table_id, seq, *, lobby=False, snapshot=None):
        t0 = time.process_time()
        original_changed(table_id, seq, lobby=lobby, snapshot=snapshot)
        parts["broadcast"] += time.process_time() - t0
        if snapshot is not None:
            encoded = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
            pushed.append((table_id, seq, encoded))

    realtime.table_changed = table_changed
    # Nothing leaves this process: the broadcast is encoded (the writer's part of it, timed)
    # but not sent, so a load run sharing the channel layer's Redis db never gets these
    # tables' snapshots (their ids and users are another database's).
    realtime.publish = lambda group, message: None
    import gc

    from games.board_jinja import env as board_env

    board_env.get_template("doudizhu.jinja")  # compiled at start-up in a server
    if args.gc_freeze:
        gc.collect()
        gc.freeze()
    # the collector's own CPU, by generation: (collections, ms)
    gc_cpu: dict[int, list[float]] = {0: [0, 0.0], 1: [0, 0.0], 2: [0, 0.0]}
    gc_started = [0.0]
    playing = [False]  # only the collections while the hands are played count

    def gc_timer(phase: str, info: dict) -> None:
        if not playing[0]:
            return
        if phase == "start":
            gc_started[0] = time.process_time()
        else:
            entry = gc_cpu[info["generation"]]
            entry[0] += 1
            entry[1] += 1000 * (time.process_time() - gc_started[0])

    gc.callbacks.append(gc_timer)
    parts: dict[str, float] = {}
    per_round: list[dict[str, float]] = []
    profiler = cProfile.Profile(time.process_time) if args.profile else None

    for round_no in range(args.rounds):
        parts.update(dict.fromkeys(("move_submit", "broadcast", "decode", "render_html"), 0.0))
        users_by_table = []
        for t in range(args.tables):
            users = [
                accounts.user_register(
                    username=f"{tag}r{round_no}t{t}s{i}", password="pw-123456", nickname=f"測{i}"
                )
                for i in range(3)
            ]
            for user in users:
                table = lobby.quick_join(user=user, room_id=room.pk)
            users_by_table.append((table.pk, {u.pk: u for u in users}))
        actions = 0
        step = 0
        live = list(users_by_table)
        if profiler is not None:
            profiler.enable()
        playing[0] = True
        while live:
            still = []
            for table_id, users in live:  # one action per table in turn: tables interleave
                snapshot = table_selectors.table_snapshot_in_cache(table_id, 0)
                if snapshot is None:
                    snapshot = table_selectors.table_snapshot_cached(table_id, None)
                hand = snapshot["hand"]
                if hand is None or hand["status"] != "playing":
                    continue
                state = ruleset.state_from_json(hand["state"])
                e = min(ruleset.to_act(state))
                actor = users[hand["players"][e]["user_id"]]
                # the bench client's choice (table_load.choose: the smallest play, else call,
                # no 明牌, ready, no rob, no 加倍), from the seat's own view
                action = choose(json.loads(json.dumps(ruleset.view(state, e))), e)
                step += 1
                pushed.clear()
                t0 = time.process_time()
                tables.move_submit(
                    table_id=table_id,
                    user=actor,
                    action=action,
                    expected_seq=snapshot["table"]["seq"],
                    action_id=f"{tag}-{round_no}-{step}",
                )
                parts["move_submit"] += time.process_time() - t0
                actions += 1
                for pushed_table, seq, encoded in list(pushed):
                    t0 = time.process_time()
                    fresh = table_selectors.table_snapshot_pushed(pushed_table, seq, encoded)
                    parts["decode"] += time.process_time() - t0
                    t0 = time.process_time()
                    for seat in fresh["seats"]:
                        viewer = users.get(seat["user_id"])
                        with translation.override(args.language):
                            rendering.render_html(fresh, seat["index"], viewer)
                    parts["render_html"] += time.process_time() - t0
                still.append((table_id, users))
            live = still
        playing[0] = False
        if profiler is not None:
            profiler.disable()
        # move_submit's time includes the broadcast's (it runs on commit inside the call)
        parts["move_submit"] -= parts["broadcast"]
        per_round.append({k: 1000 * v / actions for k, v in parts.items()} | {"actions": actions})

    result = {
        key: round(statistics.median(r[key] for r in per_round), 3)
        for key in ("move_submit", "broadcast", "decode", "render_html")
    }
    result["total_ms_per_action"] = round(sum(result.values()), 3)
    total_actions = sum(r["actions"] for r in per_round)
    result["gc_frozen"] = gc.get_freeze_count()
    result["gc_ms_per_action"] = round(sum(ms for _, ms in gc_cpu.values()) / total_actions, 3)
    result["gc_collections"] = {gen: n for gen, (n, _) in gc_cpu.items()}
    result["gc_full_ms_mean"] = round(gc_cpu[2][1] / gc_cpu[2][0], 2) if gc_cpu[2][0] else None
    result["actions_per_round"] = [r["actions"] for r in per_round]
    result["tables"] = args.tables
    result["rounds"] = args.rounds
    result["load"] = [round(x, 1) for x in os.getloadavg()]
    result["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(json.dumps(result, ensure_ascii=False))
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(60)
        if args.profile_out:
            stats.dump_stats(args.profile_out)
        print(out.getvalue())


if __name__ == "__main__":
    main()
