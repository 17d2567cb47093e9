"""大豐收 over real WebSockets: one room-wide round served to two players by a Daphne process."""

from __future__ import annotations

import json
import time

import pytest

from games.models import WheelRound, WheelWin
from ledger.selectors import balance_for_user
from lobby.models import Room
from tests.live.conftest import login_cookie, recv_json

pytestmark = [pytest.mark.live, pytest.mark.slow]


def connect(port: int, room_id: int, cookie: str):
    from websockets.sync.client import connect as ws_connect

    return ws_connect(
        f"ws://127.0.0.1:{port}/ws/wheel/{room_id}/?format=json",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=10,
        max_size=2**22,
    )


def until(ws, pred, timeout: float = 20.0) -> dict:
    """Read frames until one matches; every frame is checked on the way."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        frame = recv_json(ws, timeout=max(0.1, deadline - time.time()))
        if pred(frame):
            return frame
    raise AssertionError("no matching frame")


def test_two_sockets_share_one_round_and_bad_bets_change_nothing(servers, make_user):
    """Both sockets get the round; A's bet reaches B; bad bets get clear errors; the seed is
    absent until the round is settled; the payout lands exactly once."""
    room = Room.objects.create(
        name="豐收",
        game="dafengshou",
        seats=1,
        factor=1,
        turn_seconds=15,
        extra={"bet_seconds": 4, "spin_seconds": 2, "chips": [10, 100], "player_limit": 150},
    )
    alice, bob = make_user(beans=1000), make_user(beans=50)
    port = servers.daphne("web")
    servers.clock()
    with (
        connect(port, room.pk, login_cookie(alice)) as a,
        connect(port, room.pk, login_cookie(bob)) as b,
    ):
        first_a, first_b = recv_json(a), recv_json(b)
        assert first_a["type"] == first_b["type"] == "wheel"
        # wait for a fresh window so the bets fit in it
        n = first_a["number"] + 1
        start = until(a, lambda f: f.get("number") == n and f["phase"] == "betting")
        until(b, lambda f: f.get("number") == n and f["phase"] == "betting")
        seed = WheelRound.objects.get(room_id=room.pk, number=n).seed
        assert "seed" not in start and seed not in json.dumps(start)
        a.send(
            json.dumps(
                {"kind": "bet", "object": "apple", "amount": 100, "round": n, "action_id": "a1"}
            )
        )
        # A sees his own board at once; B gets only the public totals frame
        mine = until(a, lambda f: f.get("type") == "wheel" and f["my_total"] == 100)
        assert mine["objects"][0]["mine"] == 100
        seen = until(
            b,
            lambda f: (
                f.get("type") in ("wheel", "totals") and f.get("version", 0) >= mine["version"]
            ),
        )
        assert seen["type"] == "totals" and seen["totals"]["apple"] == 100
        assert "my_total" not in seen and seed not in json.dumps(seen)
        for bad, code, ws in (
            ({"object": "durian", "amount": 10}, "illegal", a),
            ({"object": "apple", "amount": 100}, "over_limit", a),  # 150 per player
            ({"object": "apple", "amount": 100}, "not_enough_beans", b),
            ({"object": "apple", "amount": 10, "round": n - 1}, "window_closed", a),
        ):
            ws.send(json.dumps({"kind": "bet", "round": n, "action_id": code, **bad}))
            error = until(ws, lambda f: f.get("type") == "error")
            assert error["code"] == code, error
        a.send(
            json.dumps(
                {"kind": "bet", "object": "apple", "amount": 100, "round": n, "action_id": "a1"}
            )
        )  # the same action id again
        assert until(a, lambda f: f.get("type") == "error")["code"] == "duplicate_action"
        spinning = until(a, lambda f: f.get("number") == n and f["phase"] == "spinning")
        assert spinning["result"]["lit"] and "seed" not in spinning
        nxt = until(b, lambda f: f.get("number") == n + 1, timeout=15)
        assert nxt["history"][0]["seed"] == seed
    win = WheelWin.objects.get(round__room_id=room.pk, round__number=n, user=alice)
    assert (win.staked, balance_for_user(alice)) == (100, 900 + win.payout)
    assert balance_for_user(bob) == 50
