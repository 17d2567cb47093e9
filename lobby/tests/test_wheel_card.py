"""A 大豐收 room's lobby card: the betting window, chips and limits, the live round's bettor
count and 進入轉盤; never the table-game text (底分, 係數, 人在座). Other cards unchanged."""

from __future__ import annotations

import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games.services import dafengshou
from lobby.models import Room


def wheel_room(**extra) -> Room:
    return Room.objects.create(
        name="豐收轉盤",
        game="dafengshou",
        seats=1,
        base_score=1,
        factor=1,
        min_beans=0,
        extra={
            "bet_seconds": 12,
            "chips": [10, 100, 1000, 10000],
            "player_limit": 100000,
            "round_limit": 10000000,
            **extra,
        },
    )


def card(html: str, room: Room) -> str:
    match = re.search(
        rf'<div class="room-card[^"]*" data-room="{room.pk}">(.*?)\n    </div>', html, re.S
    )
    assert match, html
    return match.group(1)


def bet(room: Room, user, amount: int = 10) -> None:
    rnd = dafengshou.round_enter(room_id=room.pk)
    dafengshou.bet_place(
        room_id=room.pk,
        user=user,
        round_number=rnd.number,
        object="apple",
        amount=amount,
        action_id=uuid.uuid4().hex,
    )


@pytest.mark.django_db
def test_the_wheel_card_shows_what_fits_a_wheel_room(room, make_user):
    """Window seconds, chip sizes, the per-player limit, the bettors now, 進入轉盤; the table
    room beside it keeps 底分 · 係數 and 人在座."""
    wheel = wheel_room()
    user = make_user(beans=5000)
    client = Client()
    client.force_login(user)
    html = client.get(reverse("lobby:home")).content.decode()
    text = card(html, wheel)
    assert "每局押注 12 秒" in text and "最高 ×100" in text
    assert "籌碼 10 / 100 / 1K / 10K" in text and "每人每局上限 10萬 豆" in text
    assert "轉盤待開" in text  # nobody has opened a round yet
    assert "進入轉盤" in text and reverse("games:dafengshou", args=[wheel.pk]) in text
    for table_text in ("底分", "係數", "人在座", "桌進行中", "快速開始", "入場"):
        assert table_text not in text
    other = card(html, room)
    assert "底分 1 · 係數 10" in other and "人在座" in other and "快速開始" in other

    bet(wheel, user)
    bet(wheel, user)
    bet(wheel, make_user(beans=100))
    text = card(client.get(reverse("lobby:home")).content.decode(), wheel)
    assert '本局 <span class="players">2</span> 人押注' in text


@pytest.mark.django_db
def test_a_wheel_room_with_a_broken_odds_table_still_lists(make_user):
    """The card drops the wheel details it cannot read instead of breaking the lobby."""
    wheel = wheel_room(odds=[1, 2])
    text = card(Client().get(reverse("lobby:home")).content.decode(), wheel)
    assert "豐收轉盤" in text and "底分" not in text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_pushes_the_wheel_bettor_count(make_user):
    """A player's first bet in the round updates the wheel card's live count for every lobby
    visitor (the count fragment only, no forms)."""
    from config.asgi import application

    wheel = await sync_to_async(wheel_room)()
    user = await sync_to_async(make_user)(beans=5000)
    comm = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://127.0.0.1:8000")]
    )
    connected, _ = await comm.connect()
    assert connected
    await sync_to_async(bet)(wheel, user)
    frame = await comm.receive_from(timeout=5)
    while '<span class="players">1</span> 人押注' not in frame:
        frame = await comm.receive_from(timeout=5)
    assert f'id="room-live-{wheel.pk}" hx-swap-oob="true"' in frame
    assert "<form" not in frame and "csrfmiddlewaretoken" not in frame
    await comm.disconnect()
