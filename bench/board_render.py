"""CPU of the HTML board renders one action costs, with the fragment store off and on.

Benchmark, not a test. Plays one hand of a game through the services on the database of
``DATABASE_URL`` (a table, its players and its hand are left there), keeps the snapshot after
every action, then renders every snapshot for every seat in order — what the sockets of a table
do for each broadcast — with ``LEYOU["BOARD_MEMO"]`` off (every fragment rendered from the full
context, the path before the store) and on (the store emptied before each round, so each round
starts cold), alternating, and prints CPU milliseconds per render (process time, so that other
processes on a shared machine count less) as the median and minimum of the rounds:

    .venv/bin/python bench/board_render.py --game doudizhu --rounds 9
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="doudizhu")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--language", default="zh-hant")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.utils import translation

    from accounts import services as accounts
    from games import rendering
    from games.engine import registry
    from games.selectors.tables import table_snapshot
    from games.services import tables
    from games.templatetags import board_memo
    from lobby import services as lobby
    from lobby.models import Room

    ruleset = registry.get(args.game)
    tag = f"br{int(time.time())}"
    room = Room.objects.create(
        name="渲染測量",
        game=args.game,
        variant=ruleset.variants[0].id if ruleset.variants else "",
        seats=ruleset.min_seats,
        base_score=1,
        factor=10,
        rake=5,
        min_beans=0,
        turn_seconds=20,
        bot_wait_seconds=30,
    )
    users = [
        accounts.user_register(username=f"{tag}{i}", password="pw-123456", nickname=f"測{i}")
        for i in range(ruleset.min_seats)
    ]
    for user in users:
        table = lobby.quick_join(user=user, room_id=room.pk)
    snapshots, move_cpu = [], []
    for step in range(300):
        snapshot = table_snapshot(table.pk)
        snapshots.append(snapshot)
        hand = snapshot["hand"]
        if hand is None or hand["status"] != "playing":
            break
        state = ruleset.state_from_json(hand["state"])
        e = min(ruleset.to_act(state))
        actor = next(u for u in users if u.pk == hand["players"][e]["user_id"])
        t0 = time.process_time()
        tables.move_submit(
            table_id=table.pk,
            user=actor,
            action=ruleset.bot_action(state, e),
            expected_seq=snapshot["table"]["seq"],
            action_id=f"{tag}-{step}",
        )
        move_cpu.append(time.process_time() - t0)
    viewers = [
        (s["index"], next(u for u in users if u.pk == s["user_id"])) for s in snapshots[0]["seats"]
    ]

    def one_round() -> float:
        board_memo.memo_store_clear()
        t0 = time.process_time()
        with translation.override(args.language):
            for snapshot in snapshots:
                for seat, user in viewers:
                    rendering.render_html(snapshot, seat, user)
        return 1000 * (time.process_time() - t0) / (len(snapshots) * len(viewers))

    one_round()  # templates loaded, SVG cards cached
    per: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.rounds):
        for on in (False, True):
            settings.LEYOU["BOARD_MEMO"] = on
            per[on].append(one_round())
    off, on = statistics.median(per[False]), statistics.median(per[True])
    result = {
        "game": args.game,
        "snapshots": len(snapshots),
        "seats": len(viewers),
        "render_ms_off_median": round(off, 3),
        "render_ms_on_median": round(on, 3),
        "render_ms_off_min": round(min(per[False]), 3),
        "render_ms_on_min": round(min(per[True]), 3),
        "ratio_median": round(off / on, 2),
        "move_submit_cpu_ms_median": round(1000 * statistics.median(move_cpu), 2),
        "load": [round(x, 1) for x in os.getloadavg()],
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
