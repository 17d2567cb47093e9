"""A greedy user cannot hold the server: every kind of socket is capped per user (table,
大豐收, lobby; counted over every process), and a socket closed 1008 for its rate may not
come back at once — the server refuses it until the user's wait is over.

Real Daphne processes on a private Redis (the counts live there); small caps by environment.
"""

from __future__ import annotations

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from lobby.models import Room
from tests.live.conftest import login_cookie, recv_json, ws_connect
from tests.live.test_live_table import _seat_three

pytestmark = [pytest.mark.live, pytest.mark.slow]
COOLDOWN = 2.0


@pytest.fixture
def small_caps(monkeypatch):
    monkeypatch.setenv("LEYOU_SOCKETS_PER_USER_TABLES", "2")
    monkeypatch.setenv("LEYOU_SOCKETS_PER_USER_WHEEL", "2")
    monkeypatch.setenv("LEYOU_SOCKETS_PER_USER_LOBBY", "2")
    monkeypatch.setenv("LEYOU_WS_RATE_COOLDOWN_SECONDS", str(COOLDOWN))
    monkeypatch.setenv("LEYOU_PRESENCE_HEARTBEAT_SECONDS", "0.5")


def _lobby(port: int, cookie: str):
    return connect(
        f"ws://127.0.0.1:{port}/ws/lobby/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=10,
    )


def _wheel(port: int, room_id: int, cookie: str):
    return connect(
        f"ws://127.0.0.1:{port}/ws/wheel/{room_id}/?format=json",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=10,
        max_size=2**22,
    )


def _closed_with(ws, timeout: float = 5.0) -> tuple[int | None, list[str]]:
    """Read until the server closes; (close code, the frames' error codes)."""
    errors = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                text = ws.recv(timeout=max(0.05, deadline - time.monotonic()))
            except TimeoutError:
                break
            frame = json.loads(text) if text.startswith("{") else {}
            if frame.get("type") == "error":
                errors.append(frame["code"])
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), errors
    raise AssertionError("the socket stayed open")


def _still_open(ws, seconds: float = 1.0) -> bool:
    try:
        while True:
            ws.recv(timeout=seconds)
    except TimeoutError:
        return True
    except ConnectionClosed:
        return False


def test_each_kind_of_socket_is_capped_per_user_over_every_process(
    own_redis, servers, room, make_user, small_caps
):
    """Two Daphnes; caps of 2 per user for lobby, 大豐收 and tables (over every table): the
    third socket of each kind is refused with 1008 whichever process it reaches; closing one
    makes room again (only open sockets count); another user is not affected."""
    port_a, port_b = servers.daphne("a"), servers.daphne("b")
    table, users = _seat_three(room, make_user)
    wheel_room = Room.objects.create(
        name="豐收",
        game="dafengshou",
        seats=1,
        factor=1,
        turn_seconds=15,
        extra={"bet_seconds": 4, "spin_seconds": 2, "chips": [10, 100], "player_limit": 150},
    )
    greedy, other = login_cookie(users[0]), login_cookie(users[1])

    lobby = [_lobby(port_a, greedy), _lobby(port_b, greedy)]
    assert all(_still_open(ws, 0.5) for ws in lobby)
    assert _closed_with(_lobby(port_b, greedy))[0] == 1008
    assert _still_open(_lobby(port_a, other), 0.5)  # another user has his own count
    lobby[0].close()
    time.sleep(0.3)
    assert _still_open(_lobby(port_a, greedy), 0.5)  # a closed socket no longer counts

    wheel = [_wheel(port_a, wheel_room.pk, greedy), _wheel(port_b, wheel_room.pk, greedy)]
    assert [recv_json(ws)["type"] for ws in wheel] == ["wheel", "wheel"]
    assert _closed_with(_wheel(port_a, wheel_room.pk, greedy)) == (1008, ["too_many_sockets"])
    wheel[1].close()
    time.sleep(0.3)
    assert recv_json(_wheel(port_a, wheel_room.pk, greedy))["type"] == "wheel"

    # tables: 2 over every table (the table's own cap, 3, is not reached)
    tables = [ws_connect(port_a, table.pk, greedy), ws_connect(port_b, table.pk, greedy)]
    assert [recv_json(ws)["type"] for ws in tables] == ["table", "table"]
    assert _closed_with(ws_connect(port_b, table.pk, greedy)) == (1008, ["too_many_sockets"])
    assert recv_json(ws_connect(port_a, table.pk, other))["type"] == "table"


def test_a_socket_closed_for_its_rate_must_wait_before_it_comes_back(
    own_redis, servers, room, make_user, small_caps
):
    """A table socket flooding frames is closed 1008; reconnecting at once — through either
    process — is refused (``reconnect_too_soon``, 1008) until the wait is over, then let in.
    The same holds for 大豐收's socket."""
    port_a, port_b = servers.daphne("a"), servers.daphne("b")
    table, users = _seat_three(room, make_user)
    cookie = login_cookie(users[0])
    ws = ws_connect(port_a, table.pk, cookie)
    recv_json(ws)
    closed_at = None
    try:
        for _ in range(200):
            ws.send(json.dumps({"kind": "resync"}))
    except ConnectionClosed:
        pass
    code, _errors = _closed_with(ws)
    closed_at = time.monotonic()
    assert code == 1008
    for port in (port_a, port_b):
        # the same session: refused at the handshake, before any lookup
        with pytest.raises(InvalidStatus) as refused:
            ws_connect(port, table.pk, cookie)
        assert refused.value.response.status_code == 403
        # the same player logged in afresh: refused after the lookup, with the reason
        fresh = login_cookie(users[0])
        assert _closed_with(ws_connect(port, table.pk, fresh)) == (1008, ["reconnect_too_soon"])
    assert recv_json(ws_connect(port_a, table.pk, login_cookie(users[1])))["type"] == "table"
    time.sleep(max(0.0, COOLDOWN + 0.3 - (time.monotonic() - closed_at)))
    assert recv_json(ws_connect(port_b, table.pk, cookie))["type"] == "table"

    wheel_room = Room.objects.create(
        name="豐收",
        game="dafengshou",
        seats=1,
        factor=1,
        turn_seconds=15,
        extra={"bet_seconds": 4, "spin_seconds": 2, "chips": [10, 100], "player_limit": 150},
    )
    wheel = _wheel(port_a, wheel_room.pk, cookie)
    recv_json(wheel)
    try:
        for _ in range(200):
            wheel.send(json.dumps({"kind": "ping"}))
    except ConnectionClosed:
        pass
    assert _closed_with(wheel)[0] == 1008
    refused = _closed_with(_wheel(port_b, wheel_room.pk, login_cookie(users[0])))
    assert refused == (1008, ["reconnect_too_soon"])
    assert recv_json(ws_connect(port_a, table.pk, cookie))["type"] == "table"  # other kinds
