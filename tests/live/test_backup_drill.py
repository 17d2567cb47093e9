"""The backup drill during play: pg_dump while the clock plays hands, restore, verify there.

Three tables of three players each hold real sockets on a Daphne process (so they stay seated
between hands) while the clock plays every seat (their turn clocks pulled forward, as if each
player let his clock run out) and settles each hand. ``manage.py backup_drill`` runs meanwhile:
the restored copy passes ``ledger_verify`` and every finished hand in it replays from its seed
and log; the copy is dropped after; play went on during the dump.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time

import pytest
from django.db import connection, connections
from django.utils import timezone

from games.models import Hand, Seat, Table
from lobby import services as lobby_services
from tests.live.conftest import ROOT, _child_env, login_cookie, recv_json, ws_connect

pytestmark = [pytest.mark.live, pytest.mark.slow]


def _fast_forward(table_ids: list[int], stop: threading.Event) -> None:
    """Every turn clock and wait between hands of these tables runs out now (the clock then
    plays the seat as 托管 and deals the next hand)."""
    try:
        while not stop.is_set():
            now = timezone.now()
            Seat.objects.filter(table_id__in=table_ids, deadline__gt=now).update(deadline=now)
            Table.objects.filter(pk__in=table_ids, next_hand_at__gt=now).update(next_hand_at=now)
            time.sleep(0.2)
    finally:
        connections.close_all()


def _finished(table_ids: list[int]) -> int:
    return Hand.objects.filter(
        table_id__in=table_ids, status__in=[Hand.Status.FINISHED, Hand.Status.ESCAPED]
    ).count()


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="pg_dump needs PostgreSQL")
def test_a_backup_taken_during_play_restores_and_verifies(servers, room, make_user):
    """backup_drill while three tables play: exit 0, the restored copy's ledger verifies and
    every hand finished before the dump (at least) replays there; the copy is dropped; hands
    kept finishing during the drill."""
    port = servers.daphne("a")
    servers.clock()
    table_ids, sockets = [], []
    for _ in range(3):
        users = [make_user(beans=50_000) for _ in range(3)]
        table = None
        for user in users:
            table = lobby_services.quick_join(user=user, room_id=room.pk)
        table_ids.append(table.pk)
        for user in users:
            ws = ws_connect(port, table.pk, login_cookie(user))
            recv_json(ws)
            sockets.append(ws)
    stop = threading.Event()
    drainers = [threading.Thread(target=_drain, args=(ws, stop), daemon=True) for ws in sockets]
    player = threading.Thread(target=_fast_forward, args=(table_ids, stop), daemon=True)
    for thread in [*drainers, player]:
        thread.start()
    try:
        deadline = time.time() + 120
        while _finished(table_ids) < 3:
            assert time.time() < deadline, "the clock did not finish three hands"
            time.sleep(0.5)
        before = _finished(table_ids)
        started = time.monotonic()
        result = subprocess.run(
            [sys.executable, "manage.py", "backup_drill"],
            cwd=ROOT,
            env=_child_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        drill_seconds = time.monotonic() - started
        after = _finished(table_ids)
    finally:
        stop.set()
        player.join(10)
        for ws in sockets:
            ws.close()
    assert result.returncode == 0, result.stderr + result.stdout
    out = result.stdout
    assert "ledger OK" in out, out
    replayed = int(re.search(r"hands OK: (\d+) finished hands replayed", out)[1])
    assert replayed >= before, out  # every hand finished before the dump began, at least
    name = re.search(r"restored into (\S+) in", out)[1]
    with connection.cursor() as cursor:  # the restored copy was dropped
        cursor.execute("SELECT count(*) FROM pg_database WHERE datname = %s", [name])
        assert cursor.fetchone()[0] == 0
    print(
        f"\nbackup drill during play: {out.strip().splitlines()[-1]}; {drill_seconds:.1f} s; "
        f"finished hands {before} before the drill, {after} after it"
    )


def _drain(ws, stop: threading.Event) -> None:
    """Read the pushes of one socket (a client that reads nothing would be closed)."""
    while not stop.is_set():
        try:
            ws.recv(timeout=0.5)
        except TimeoutError:
            continue
        except Exception:
            return
