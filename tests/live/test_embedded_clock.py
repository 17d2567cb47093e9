"""The embedded default: in-memory channel layer, the clock inside the one server process."""

from __future__ import annotations

import time

import pytest

from games.models import Hand
from lobby import services as lobby_services
from lobby.models import Room
from tests.live.conftest import login_cookie, recv_json, ws_connect
from tests.live.test_live_table import play_hand

pytestmark = [pytest.mark.live, pytest.mark.slow]


def test_bots_and_settlement_are_pushed_by_the_in_server_clock(servers, make_user):
    """One player and two bots: bot moves and the settled beans reach the player's socket."""
    room = Room.objects.create(
        name="嵌入",
        game="doudizhu",
        variant="classic",
        seats=3,
        factor=10,
        rake=0,
        bot_wait_seconds=0,
        turn_seconds=30,
    )
    port = servers.daphne("web", embedded=True)
    user = make_user(beans=5000)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    ws = ws_connect(port, table.pk, login_cookie(user))  # the first connection starts the clock
    frames = {0: [recv_json(ws)]}
    seat = next(s.index for s in table.seats.all() if s.user_id == user.pk)
    deadline = time.time() + 30
    while not frames[0][-1].get("view") and time.time() < deadline:  # bots fill, hand starts
        frames[0].append(recv_json(ws))
    assert frames[0][-1]["view"], "the bots never filled the table"
    frames = {seat: frames[0]}
    last = play_hand({seat: ws}, frames)
    hand = Hand.objects.get(table=table)
    assert hand.settled_at is not None and last[seat]["hand"]["settled"]
    assert any(f.get("view") and f["view"]["last"][(seat + 1) % 3] for f in frames[seat]), (
        "no bot move was ever pushed"
    )
    ws.close()
