"""Redis failing under real server processes: a restart, a FLUSHALL, a kill -9 of a Daphne.

Each test runs its own redis-server (``own_redis``: a free port, no persistence, so a restart
comes back empty) and points the Daphnes and the clock it starts at it; the shared Redis is
never touched. Short heartbeats go to the processes by environment.
"""

from __future__ import annotations

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games.models import Seat, SeatLease, Table
from tests.live.conftest import login_cookie, recv_json, ws_connect
from tests.live.test_live_table import _seat_three

pytestmark = [pytest.mark.live, pytest.mark.slow]
BEAT = 0.5


@pytest.fixture
def fast_beats(monkeypatch):
    monkeypatch.setenv("LEYOU_PRESENCE_HEARTBEAT_SECONDS", str(BEAT))
    monkeypatch.setenv("LEYOU_PRESENCE_SWEEP_SECONDS", "0.5")
    monkeypatch.setenv("LEYOU_PRESENCE_LEASE_SECONDS", "15")  # the clock's expiry is not it


def close_code(ws, timeout: float = 10.0) -> int | None:
    """Read until the server closes the socket; its close code (None: no close frame)."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                ws.recv(timeout=max(0.05, deadline - time.monotonic()))
            except TimeoutError:
                break
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    raise AssertionError(f"still open after {timeout} s")


def until(check, timeout: float, every: float = 0.05) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():
            return time.monotonic() - start
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s")


def _connections(table, users) -> list[int]:
    return [Seat.objects.get(table=table, user=u).connections for u in users]


def test_a_redis_restart_closes_1012_answers_1013_and_leaks_no_lease(
    own_redis, servers, room, make_user, fast_beats
):
    """Redis killed under three open table sockets: each is closed with a code the htmx client
    reconnects on (1012/1013, not 1011); a handshake while it is down is answered 1013 (not
    HTTP 500); once it is back the players reconnect, and the leases are exactly the open
    sockets — none of the dead sockets' leases is renewed."""
    port = servers.daphne("a")
    table, users = _seat_three(room, make_user)
    cookies = [login_cookie(u) for u in users]
    sockets = [ws_connect(port, table.pk, c) for c in cookies]
    for ws in sockets:
        assert recv_json(ws)["type"] == "table"
    until(lambda: SeatLease.objects.count() == 3, 5)
    own_redis.kill()
    codes = [close_code(ws) for ws in sockets]
    print(f"\nRedis killed: close codes {codes}")
    assert all(code in (1012, 1013) for code in codes), codes
    try:
        refused = ws_connect(port, table.pk, cookies[0])
    except InvalidStatus as error:  # the old answer: HTTP 500
        raise AssertionError(f"handshake with Redis down: {error}") from None
    assert close_code(refused) == 1013
    time.sleep(1)
    own_redis.start()  # empty, on the same port
    started = time.monotonic()
    back = []
    for cookie in cookies:
        for _ in range(40):
            try:
                ws = ws_connect(port, table.pk, cookie)
                frame = recv_json(ws)
                if frame["type"] == "table":
                    back.append(ws)
                    break
            except (ConnectionClosed, InvalidStatus, TimeoutError):
                pass
            time.sleep(0.25)
    took = time.monotonic() - started
    assert len(back) == 3
    # every lease is an open socket's: none left of the sockets Redis took down
    settled = until(
        lambda: SeatLease.objects.count() == 3 and _connections(table, users) == [1, 1, 1],
        3 * BEAT + 2,
    )
    time.sleep(3 * BEAT)
    leases = SeatLease.objects.count()
    print(f"all back {took:.2f} s after Redis; leases {leases} (settled in {settled:.2f} s)")
    assert leases == 3 and _connections(table, users) == [1, 1, 1]
    # and the table is live through the new Redis: a change reaches every socket
    seq = Table.objects.get(pk=table.pk).seq
    back[0].send(json.dumps({"kind": "auto", "on": True}))
    for ws in back:
        until_frame(ws, lambda f: f.get("type") == "table" and f["seq"] > seq, 5)


def until_frame(ws, pred, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            frame = recv_json(ws, timeout=max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            break
        if pred(frame):
            return frame
    raise AssertionError(f"no such frame within {timeout} s")


def test_after_flushall_every_board_is_live_again_within_seconds(
    own_redis, servers, room, make_user, fast_beats
):
    """FLUSHALL drops every channel group; each process notices at its next beat, joins its
    sockets' groups again and sends fresh boards: a change made on one process reaches the
    socket on the other within seconds (it used to freeze until the socket closed)."""
    port_a, port_b = servers.daphne("a"), servers.daphne("b")
    table, users = _seat_three(room, make_user)
    cookies = [login_cookie(u) for u in users]
    sockets = {
        0: ws_connect(port_a, table.pk, cookies[0]),
        1: ws_connect(port_a, table.pk, cookies[1]),
        2: ws_connect(port_b, table.pk, cookies[2]),
    }
    for ws in sockets.values():
        recv_json(ws)
    time.sleep(3 * BEAT)  # each process's first beat has marked the layer
    own_redis.client().flushall()
    flushed = time.monotonic()
    seq = Table.objects.get(pk=table.pk).seq
    sockets[0].send(json.dumps({"kind": "auto", "on": True}))  # a change after the flush
    until(lambda: Table.objects.get(pk=table.pk).seq > seq, 5)
    changed = Table.objects.get(pk=table.pk).seq
    for i in (2, 1):  # the other process's socket, then one on the writer's process
        until_frame(sockets[i], lambda f: f.get("type") == "table" and f["seq"] >= changed, 8)
    took = time.monotonic() - flushed
    print(f"\nFLUSHALL: every board live again {took:.2f} s after")
    assert took < 5
    # and later changes flow as before
    seq = Table.objects.get(pk=table.pk).seq
    sockets[2].send(json.dumps({"kind": "auto", "on": True}))
    for ws in sockets.values():
        until_frame(ws, lambda f: f.get("type") == "table" and f["seq"] > seq, 5)


def test_after_a_kill_9_the_player_is_counted_once_and_let_back_in(
    servers, room, make_user, fast_beats
):
    """A player holds the table's cap of sockets (3) on Daphne A; A is killed -9; he comes
    straight back through B with three sockets: all let in (the cap counts live sockets only)
    and his seat counts 3, not 6 — the dead process's leases are gone, long before the lease
    (15 s) would have run out."""
    port_a, port_b = servers.daphne("a"), servers.daphne("b")
    table, users = _seat_three(room, make_user)
    cookie = login_cookie(users[0])
    held = [ws_connect(port_a, table.pk, cookie) for _ in range(3)]
    for ws in held:
        recv_json(ws)
    until(lambda: _connections(table, users[:1]) == [3], 5)
    servers.kill("a")
    killed = time.monotonic()
    back = [ws_connect(port_b, table.pk, cookie) for _ in range(3)]
    frames = [recv_json(ws) for ws in back]
    assert [f["type"] for f in frames] == ["table"] * 3, frames
    took = time.monotonic() - killed
    assert _connections(table, users[:1]) == [3]
    assert SeatLease.objects.filter(user=users[0]).count() == 3
    print(f"\nkill -9: back with 3 sockets {took:.2f} s after, counted 3 (lease 15 s)")
