"""Presence leases with real processes: two Daphnes, the clock, PostgreSQL and Redis.

(a) ``kill -9`` a Daphne under live sockets: within the lease its seats are 離線 and 托管
plays them; the players reconnect through the other Daphne and are back in their seats.
(b) SIGTERM: the clients get close 1012 at once, the leases are given up, and they are back.
(c) A player who never returns escapes (逃跑) once, after the grace.
Short lease / grace settings go to the server processes by environment.
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from websockets.exceptions import ConnectionClosed

from games.models import Hand, HandEvent, Seat, SeatLease
from tests.live.conftest import login_cookie, recv_json, ws_connect
from tests.live.test_live_table import _seat_three, choose

pytestmark = [pytest.mark.live, pytest.mark.slow]
LEASE = 3


@pytest.fixture
def short_leases(monkeypatch):
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two processes need the Redis channel layer (REDIS_URL)")
    monkeypatch.setenv("LEYOU_PRESENCE_LEASE_SECONDS", str(LEASE))
    monkeypatch.setenv("LEYOU_PRESENCE_HEARTBEAT_SECONDS", "0.5")
    monkeypatch.setenv("LEYOU_PRESENCE_SWEEP_SECONDS", "0.5")


def _seat_state(table, user):
    seat = Seat.objects.filter(table=table, user=user).first()
    return None if seat is None else (seat.connections, seat.auto)


def _pump(ws, seat: int, latest: dict, act: bool = True) -> None:
    """Read what the socket has; answer for a seat whose turn it is (a live honest client),
    unless ``act`` is False (a player thinking: the hand waits at his turn)."""
    while True:
        try:
            frame = recv_json(ws, timeout=0.05)
        except TimeoutError:
            return
        if frame["type"] != "table" or frame["view"] is None:
            continue
        latest["frame"] = frame
        action = choose(frame["view"], seat) if act else None
        if action is not None and latest.get("acted") != frame["seq"]:
            latest["acted"] = frame["seq"]
            ws.send(
                json.dumps(
                    {
                        "kind": "move",
                        "action": action,
                        "seq": frame["seq"],
                        "action_id": f"{seat}-{frame['seq']}",
                    }
                )
            )


def _until(check, timeout: float, pump=None) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if pump:
            pump()
        if check():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s")


def _setup(servers, room, make_user):
    port_a, port_b = servers.daphne("a"), servers.daphne("b")
    servers.clock()
    table, users = _seat_three(room, make_user)
    cookies = [login_cookie(u) for u in users]
    sockets = {
        0: ws_connect(port_a, table.pk, cookies[0]),
        1: ws_connect(port_a, table.pk, cookies[1]),
        2: ws_connect(port_b, table.pk, cookies[2]),
    }
    for ws in sockets.values():
        recv_json(ws)
    _until(lambda: [_seat_state(table, u) for u in users] == [(1, False)] * 3, 10)
    return port_b, table, users, cookies, sockets


def test_kill_9_a_daphne_marks_its_seats_away_within_the_lease(
    servers, room, make_user, short_leases
):
    """After kill -9 of a Daphne process its players' seats go away within the lease — at the
    next heartbeat of a process on the same machine, which sees the dead pid —, the other
    process's clients see them 離線 and 托管 plays; they return via process B."""
    port_b, table, users, cookies, sockets = _setup(servers, room, make_user)
    latest: dict = {}
    servers.kill("a", signal.SIGKILL)  # no close frame, no disconnect(): only the lease knows
    took = _until(
        lambda: [_seat_state(table, u) for u in users[:2]] == [(0, True)] * 2,
        LEASE + 5,
        pump=lambda: _pump(sockets[2], 2, latest),
    )
    print(f"\nkill -9: seats away after {took:.2f} s (lease {LEASE} s)")
    assert took <= LEASE + 1
    assert _seat_state(table, users[2]) == (1, False)
    # the honest client on the other process sees them 離線, and 托管 plays for them
    _until(
        lambda: (
            latest.get("frame")
            and [s["online"] for s in latest["frame"]["seats"] if s["index"] in (0, 1)]
            == [False, False]
        ),
        5,
        pump=lambda: _pump(sockets[2], 2, latest),
    )
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    _until(
        lambda: HandEvent.objects.filter(hand=hand, by="auto", seat__in=[0, 1]).exists(),
        30,
        pump=lambda: _pump(sockets[2], 2, latest),
    )
    # back through the other process: in their seats, 托管 over
    back = {i: ws_connect(port_b, table.pk, cookies[i]) for i in (0, 1)}
    for i, ws in back.items():
        frame = recv_json(ws)
        assert frame["type"] == "table" and frame["seat"] == i
    _until(lambda: [_seat_state(table, u) for u in users[:2]] == [(1, False)] * 2, 5)
    assert set(SeatLease.objects.values_list("user_id", flat=True)) == {u.pk for u in users}


def test_sigterm_closes_1012_and_gives_up_the_leases_at_once(
    servers, room, make_user, short_leases
):
    """SIGTERM to a Daphne closes its sockets with 1012 within 3 s and releases the leases at
    once (not by expiry); the players are back in their seats through the other process."""
    port_b, table, users, cookies, sockets = _setup(servers, room, make_user)
    start = time.monotonic()
    servers.procs["a"].send_signal(signal.SIGTERM)
    codes = []
    for i in (0, 1):
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                sockets[i].recv(timeout=5)
        codes.append(closed.value.rcvd.code if closed.value.rcvd else None)
    closed_after = time.monotonic() - start
    assert codes == [1012, 1012]
    # the leases were given up by the stopping process, not left to expire
    gone = _until(lambda: [_seat_state(table, u) for u in users[:2]] == [(0, True)] * 2, 2)
    assert servers.procs["a"].wait(timeout=10) is not None
    back = {i: ws_connect(port_b, table.pk, cookies[i]) for i in (0, 1)}
    for i, ws in back.items():
        assert recv_json(ws)["seat"] == i
    again = _until(lambda: [_seat_state(table, u) for u in users[:2]] == [(1, False)] * 2, 5)
    print(
        f"\nSIGTERM: 1012 after {closed_after:.2f} s, leases given up "
        f"{closed_after + gone:.2f} s, back in {time.monotonic() - start:.2f} s"
    )
    assert closed_after < 3 and again < 5
    servers.procs.pop("a")


def test_a_player_who_never_returns_escapes_once_after_the_grace(
    servers, room, make_user, short_leases, monkeypatch
):
    """After a Daphne is killed, a player who never returns is escaped once, after the lease
    plus the grace; waiting longer escapes no second hand."""
    monkeypatch.setenv("LEYOU_DISCONNECT_GRACE_SECONDS", "2")
    port_b, table, users, cookies, sockets = _setup(servers, room, make_user)
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    servers.kill("a", signal.SIGKILL)
    latest: dict = {}
    # the one player left thinks (his turn lasts the room's 20 s): 托管 plays the two away
    # seats at once, and had he answered too the hand could end before the grace did (a
    # finished hand has nobody to escape from; CI once saw that)
    took = _until(
        lambda: Hand.objects.get(pk=hand.pk).status == Hand.Status.ESCAPED,
        LEASE + 10,
        pump=lambda: _pump(sockets[2], 2, latest, act=False),
    )
    print(f"\nescaped {took:.2f} s after the kill (at most lease {LEASE} s + grace 2 s)")
    assert took >= 2 - 0.5  # not before the grace
    time.sleep(2 * LEASE)
    assert Hand.objects.filter(table=table, status=Hand.Status.ESCAPED).count() == 1
    assert Hand.objects.get(pk=hand.pk).result["escaped_seat"] in (0, 1)
