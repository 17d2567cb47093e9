"""A bot-filled hand of every game and 玩法, watched through the table's socket to its settlement.

The player quick-joins, opens the table's socket (the whole ASGI application: origin check,
session, consumer), turns 托管 on over it, and the clock's sweep (``games.clock.sweep``, as the
clock runs it) plays every seat; the socket must be pushed the settled end of the hand. Run on
PostgreSQL and Redis, and again on the embedded default (SQLite and the in-memory layer, the
second part of ``./leyou test``), where every push crosses the in-memory layer.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import clock
from games.engine import registry
from games.models import Hand
from lobby import services as lobby_services
from lobby.models import Room


def _cases() -> list[Any]:
    cases = []
    for game_id in registry.GAME_MODULES:
        if game_id == "dafengshou":  # no seats: its rounds are tested in test_dafengshou_*
            continue
        for variant in [v.id for v in registry.get(game_id).variants] or [""]:
            cases.append(pytest.param(game_id, variant, id=f"{game_id}-{variant}"))
    return cases


def _seated(game_id: str, variant: str, make_user: Any) -> tuple[int, str, int]:
    """A room of the game, the player at a table of it: (table id, his cookie, his id)."""
    from tests.live.conftest import login_cookie

    ruleset = registry.get(game_id)
    seats = min(ruleset.max_seats, 4) if game_id == "zhajinhua" else ruleset.min_seats
    room = Room.objects.create(
        name="插座",
        game=game_id,
        variant=variant,
        seats=seats,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        max_beans=None,
        turn_seconds=15,
        bot_wait_seconds=0,
        extra={"target_players": seats} if game_id == "zhajinhua" else {},
    )
    user = make_user(beans=100_000)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    return table.pk, login_cookie(user), user.pk


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game_id,variant", _cases())
async def test_a_bot_filled_hand_reaches_the_socket_settled(
    game_id: str, variant: str, make_user: Any
) -> None:
    """The player in 托管 and the bots, moved by the clock's sweep, finish a hand whose settled
    end reaches the player's socket through the channel layer; the hand is stored settled."""
    from config.asgi import application

    table_id, cookie, user_id = await sync_to_async(_seated)(game_id, variant, make_user)
    comm = WebsocketCommunicator(
        application,
        f"/ws/table/{table_id}/?format=json",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())],
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    await comm.send_to(text_data=json.dumps({"kind": "auto", "on": True}))
    sweep = sync_to_async(clock.sweep, thread_sensitive=False)
    settled = None
    deadline = time.monotonic() + 90
    while settled is None and time.monotonic() < deadline:
        await sweep()
        # (a receive that times out cancels the application: ask first whether one is there)
        while not await comm.receive_nothing(timeout=0.05):
            frame = json.loads(await comm.receive_from(timeout=5))
            view, hand = frame.get("view"), frame.get("hand")
            if frame.get("type") == "table" and view and hand:
                if view.get("phase") == "over" and hand.get("settled"):
                    settled = frame
                    break
    await comm.disconnect()
    assert settled is not None, f"{game_id}/{variant}: no settled hand was pushed"
    hand = await sync_to_async(
        lambda: Hand.objects.filter(table_id=table_id).order_by("number").first()
    )()
    assert hand is not None and hand.settled_at is not None
    seat = settled["seat"]
    assert seat is not None and settled["view"]["phase"] == "over"
    assert (
        user_id
        in await sync_to_async(lambda: list(hand.seat_results.values_list("user_id", flat=True)))()
    )
