"""The lobby socket pushes live seat and table counts (and never the join forms)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from lobby import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_lobby_socket_pushes_counts_when_a_player_sits(room, make_user):
    """A player sitting down updates the room's live count for every lobby visitor."""
    from asgiref.sync import sync_to_async

    user = await sync_to_async(make_user)(beans=5000)
    comm = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://127.0.0.1:8000")]
    )
    connected, _ = await comm.connect()
    assert connected
    await sync_to_async(services.quick_join)(user=user, room_id=room.pk)
    frame = await comm.receive_from(timeout=5)
    assert f'id="room-live-{room.pk}"' in frame and 'hx-swap-oob="true"' in frame
    assert '<span class="players">1</span>' in frame
    assert "csrfmiddlewaretoken" not in frame and "<form" not in frame
    await comm.disconnect()
