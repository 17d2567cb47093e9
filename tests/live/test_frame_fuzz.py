"""Hostile frames over real sockets to a real Daphne on PostgreSQL + Redis (issue 12 §2).

``LEYOU_FUZZ_FRAMES`` (default 10,000) and ``LEYOU_FUZZ_SEED`` set the run; ``bench/frame_fuzz.py``
runs a longer one. The figures land in ``var/frame-fuzz.json``.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random

import pytest
from django.db import connection

from games.models import HandEvent, Seat, Table, WheelBet
from ledger.models import Transfer
from ledger.selectors import balance_for_user, ledger_drift
from lobby import services as lobby_services
from lobby.models import Room
from tests.live import frame_fuzz
from tests.live.conftest import ROOT, login_cookie
from tests.live.test_live_table import choose

pytestmark = [pytest.mark.live, pytest.mark.slow]

TABLES = 5  # 15 seated players, one socket each
WHEEL_PLAYERS = 15
LEGAL_MOVES_PER_TABLE = 8  # enough to show the table works, too few to end the hand


def _table_state(table_ids):
    return {
        t.pk: (
            t.seq,
            sorted(Seat.objects.filter(table=t).values_list("index", "user_id", "is_bot", "auto")),
        )
        for t in Table.objects.filter(pk__in=table_ids)
    }


def test_hostile_frames_get_error_frames_and_change_nothing(servers, room, make_user):
    """Every hostile frame on the table and wheel sockets is answered with an error frame; no
    socket is closed but for a flood (1008), the server logs no traceback, and the tables, the
    round and the ledger change only by the legal frames interleaved with them."""
    total = int(os.environ.get("LEYOU_FUZZ_FRAMES", "10000"))
    seed = int(os.environ.get("LEYOU_FUZZ_SEED", "12"))
    log_path = os.path.join(ROOT, "var", "live-fuzz.log")
    log_start = os.path.getsize(log_path) if os.path.exists(log_path) else 0
    port = servers.daphne("fuzz")
    origin = f"http://127.0.0.1:{port}"

    seats = []  # (table id, seat index, user)
    for _ in range(TABLES):
        users = [make_user(beans=5000) for _ in range(3)]
        for user in users:
            table = lobby_services.quick_join(user=user, room_id=room.pk)
        for seat in Seat.objects.filter(table=table).select_related("user"):
            seats.append((table.pk, seat.index, seat.user))
    table_ids = sorted({t for t, _s, _u in seats})
    assert len(table_ids) == TABLES
    wheel = Room.objects.create(
        name="豐收",
        game="dafengshou",
        seats=1,
        factor=1,
        turn_seconds=15,
        extra={
            "bet_seconds": 600,
            "spin_seconds": 2,
            "chips": [10, 100],
            "player_limit": 10**7,
            "round_limit": 10**9,
        },
    )
    wheel_users = [make_user(beans=100_000) for _ in range(WHEEL_PLAYERS)]

    stats = frame_fuzz.Stats()
    per_socket = math.ceil(total / (len(seats) + len(wheel_users)))
    budgets = {t: [LEGAL_MOVES_PER_TABLE] for t in table_ids}
    rng = random.Random(seed)
    cookies = {u.pk: login_cookie(u) for u in [u for _t, _s, u in seats] + wheel_users}
    table_sockets = [
        (
            frame_fuzz.Socket(
                f"ws://127.0.0.1:{port}/ws/table/{table_id}/?format=json",
                cookies[user.pk],
                origin,
                stats,
            ),
            table_id,
            index,
        )
        for table_id, index, user in seats
    ]
    wheel_sockets = [
        frame_fuzz.Socket(
            f"ws://127.0.0.1:{port}/ws/wheel/{wheel.pk}/?format=json",
            cookies[user.pk],
            origin,
            stats,
        )
        for user in wheel_users
    ]
    sockets = [s for s, _t, _i in table_sockets] + wheel_sockets
    marks = {}

    def mark(name: str) -> None:
        """The state the frames may change, once every socket is open (presence is settled)."""
        marks[name] = {
            "tables": _table_state(table_ids),
            "event": HandEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
            "balances": {
                u.pk: balance_for_user(u) for u in [u for _t, _s, u in seats] + wheel_users
            },
            "transfers": Transfer.objects.count(),
        }
        connection.close()  # this thread's connection: the test's own thread keeps its own

    async def run():
        await asyncio.gather(*(s.open() for s in sockets))
        await asyncio.sleep(0.5)  # the connects' pushes and presence changes are done
        await asyncio.to_thread(mark, "before")
        clients = [
            frame_fuzz.table_client(
                sock,
                index,
                per_socket,
                random.Random(rng.getrandbits(64)),
                choose,
                budgets[table_id],
            )
            for sock, table_id, index in table_sockets
        ] + [
            frame_fuzz.wheel_client(sock, per_socket, random.Random(rng.getrandbits(64)), f"w{n}")
            for n, sock in enumerate(wheel_sockets)
        ]
        await asyncio.gather(*clients)
        await asyncio.sleep(0.5)
        await asyncio.to_thread(mark, "after")
        await asyncio.gather(*(s.close() for s in sockets))

    asyncio.run(run())

    with open(log_path, "rb") as log:
        log.seek(log_start)
        server_log = log.read().decode("utf-8", "replace")
    figures = {
        **stats.as_dict(),
        "tracebacks": server_log.count("Traceback"),
        "frame_failed": server_log.count("frame failed"),
        "closes_1011": stats.closes.get(1011, 0),
    }
    os.makedirs(os.path.join(ROOT, "var"), exist_ok=True)
    with open(os.path.join(ROOT, "var", "frame-fuzz.json"), "w") as out:
        json.dump(figures, out, indent=1, ensure_ascii=False)
    print("frame fuzz:", json.dumps(figures, ensure_ascii=False))

    assert stats.sent >= total
    assert set(stats.closes) <= {1008}, figures
    assert figures["tracebacks"] == 0 and figures["frame_failed"] == 0, server_log[-3000:]
    assert stats.unanswered == 0, figures
    assert stats.errors == stats.hostile - sum(stats.closes.values()), figures

    # the tables moved only by the legal frames, each by one seq per accepted move
    before, after = marks["before"], marks["after"]
    new_events = list(
        HandEvent.objects.filter(pk__gt=before["event"], pk__lte=after["event"]).values_list(
            "table_id", "action_id"
        )
    )
    assert all((action_id or "").startswith("L-") for _t, action_id in new_events), new_events
    for table_id in table_ids:
        moved = sum(1 for t, _a in new_events if t == table_id)
        assert moved >= 1, "the legal frames were refused: the table no longer works"
        assert after["tables"][table_id][0] == before["tables"][table_id][0] + moved
        assert after["tables"][table_id][1] == before["tables"][table_id][1]

    # the round took only the legal bets, each staked once through the ledger; no table paid
    bets = list(
        WheelBet.objects.filter(round__room_id=wheel.pk).values_list(
            "user_id", "amount", "action_id"
        )
    )
    assert bets and all(action_id.startswith("L-") for _u, _a, action_id in bets)
    staked = {u.pk: sum(a for b, a, _i in bets if b == u.pk) for u in wheel_users}
    assert after["balances"] == {
        pk: balance - staked.get(pk, 0) for pk, balance in before["balances"].items()
    }
    assert after["transfers"] == before["transfers"] + len(bets)
    assert ledger_drift() == []
