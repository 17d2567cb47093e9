"""CPU of the HTML board renders one action costs.

Benchmark, not a test. Plays one hand of a game through the services on the database of
``DATABASE_URL`` (a table, its players and its hand are left there), keeps the snapshot after
every action, then renders every snapshot for every seat in order — what the sockets of a table
do for each broadcast — ``--rounds`` times, and prints CPU milliseconds per render (process
time, so that other processes on a shared machine count less) as the median and minimum of the
rounds, with the part spent in the board's template (the rest: the view, the extras, the fx):

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
    from django.utils import translation

    from accounts import services as accounts
    from games import rendering
    from games.engine import registry
    from games.selectors.tables import table_snapshot
    from games.services import tables
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

    template_cpu = [0.0]
    board_render = rendering.board_render

    def timed_board(game: str, context: dict) -> str:
        t0 = time.process_time()
        try:
            return board_render(game, context)
        finally:
            template_cpu[0] += time.process_time() - t0

    rendering.board_render = timed_board

    def one_round() -> tuple[float, float]:
        template_cpu[0] = 0.0
        t0 = time.process_time()
        with translation.override(args.language):
            for snapshot in snapshots:
                for seat, user in viewers:
                    rendering.render_html(snapshot, seat, user)
        renders = len(snapshots) * len(viewers)
        return 1000 * (time.process_time() - t0) / renders, 1000 * template_cpu[0] / renders

    one_round()  # templates compiled, SVG cards cached
    per = [one_round() for _ in range(args.rounds)]
    result = {
        "game": args.game,
        "snapshots": len(snapshots),
        "seats": len(viewers),
        "render_ms_median": round(statistics.median(p[0] for p in per), 3),
        "render_ms_min": round(min(p[0] for p in per), 3),
        "template_ms_median": round(statistics.median(p[1] for p in per), 3),
        "move_submit_cpu_ms_median": round(1000 * statistics.median(move_cpu), 2),
        "load": [round(x, 1) for x in os.getloadavg()],
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
