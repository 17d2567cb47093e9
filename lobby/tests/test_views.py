"""The lobby pages: rooms grouped by game, quick join, private rooms, and refusals."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Seat, Table
from lobby import services
from lobby.models import Room

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _refused(client: Client, url: str, data: dict | None = None) -> str:
    """POST, follow the redirect home and return the page (with its message)."""
    response = client.post(url, data or {}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby:home")
    return response.content.decode()


def test_home_lists_rooms_grouped_by_game(room, make_user):
    """Each game has a heading followed by its own rooms, with live seat counts."""
    Room.objects.create(name="三張新手", game="zhajinhua", seats=5, min_beans=0)
    Room.objects.create(name="斗地主高手", game="doudizhu", seats=3, min_beans=0, sort_order=5)
    Room.objects.create(name="關閉的場", game="doudizhu", seats=3, is_open=False, sort_order=9)
    services.quick_join(user=make_user(beans=5000), room_id=room.pk)
    html = Client().get(reverse("lobby:home")).content.decode()
    order = re.findall(
        r'<h2 class="game-title">([^<]+)</h2>|<div class="room-name">([^<]+)</div>', html
    )
    flat = [h or r for h, r in order]
    assert flat == ["歡樂斗地主", "測試場", "斗地主高手", "關閉的場", "歡樂三張", "三張新手"]
    card = html[html.index(f'data-room="{room.pk}"') :]
    assert re.search(r'<span class="players">1</span>', card[:1500])
    assert "暫停開放" in html


def test_quick_join_redirects_to_the_table_and_seats_the_player(room, make_user):
    """快速開始 seats the player at a table of the room and sends him to it."""
    user = make_user(beans=5000)
    response = _client(user).post(reverse("lobby:quick_join", args=[room.pk]))
    seat = Seat.objects.get(user=user)
    assert seat.table.room_id == room.pk
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[seat.table_id])
    # the table page shows him seated
    page = _client(user).get(response.url)
    assert page.status_code == 200 and f'data-seat="{seat.index}"' in page.content.decode()


def test_quick_join_needs_a_login_and_a_post(room, make_user):
    """An anonymous visitor is sent to log in; a GET is not allowed; neither seats anyone."""
    response = Client().post(reverse("lobby:quick_join", args=[room.pk]))
    assert response.status_code == 302 and response.url.startswith(reverse("accounts:login"))
    user = make_user(beans=5000)
    assert _client(user).get(reverse("lobby:quick_join", args=[room.pk])).status_code == 405
    assert not Seat.objects.exists()


def test_too_few_beans_is_explained_and_seats_nobody(room, make_user):
    """Below the room's minimum: a clear message and no seat."""
    user = make_user(beans=room.min_beans - 1)
    html = _refused(_client(user), reverse("lobby:quick_join", args=[room.pk]))
    assert "歡樂豆不足" in html and str(room.min_beans) in html
    assert not Seat.objects.filter(user=user).exists() and not Table.objects.exists()


def test_too_many_beans_is_explained_and_seats_nobody(room, make_user):
    """Above the room's maximum: a clear message (go to a higher room) and no seat."""
    room.max_beans = 2000
    room.save()
    user = make_user(beans=2001)
    html = _refused(_client(user), reverse("lobby:quick_join", args=[room.pk]))
    assert "歡樂豆太多" in html
    assert not Seat.objects.filter(user=user).exists()
    html = _refused(_client(user), reverse("lobby:private_create", args=[room.pk]))
    assert "歡樂豆太多" in html and not Table.objects.exists()


def test_closed_room_is_explained_and_seats_nobody(room, make_user):
    """A room the operator closed refuses quick join and private tables."""
    room.is_open = False
    room.save()
    user = make_user(beans=5000)
    for name in ("lobby:quick_join", "lobby:private_create"):
        html = _refused(_client(user), reverse(name, args=[room.pk]))
        assert "暫時關閉" in html
    assert not Seat.objects.filter(user=user).exists() and not Table.objects.exists()


def test_unknown_room_is_explained_and_seats_nobody(make_user):
    """A room id that does not exist: a message, no table created."""
    user = make_user(beans=5000)
    html = _refused(_client(user), reverse("lobby:quick_join", args=[424242]))
    assert "沒有這個場次" in html
    assert not Table.objects.exists()


def test_private_table_by_invite_code_and_refusals(room, make_user):
    """Friends join by code; an unknown code or a full table is refused with a message."""
    owner = make_user(beans=5000)
    response = _client(owner).post(reverse("lobby:private_create", args=[room.pk]))
    table = Table.objects.get(owner=owner)
    assert table.is_private and response.url == reverse("games:table", args=[table.pk])
    stranger = make_user(beans=5000)
    html = _refused(_client(stranger), reverse("lobby:private_join"), {"code": "ZZZZ99"})
    assert "邀請碼不存在" in html
    assert not Seat.objects.filter(user=stranger).exists()
    for _ in range(2):
        friend = make_user(beans=5000)
        response = _client(friend).post(
            reverse("lobby:private_join"), {"code": table.invite_code.lower()}
        )
        assert response.url == reverse("games:table", args=[table.pk])
    # the right code for a full table: refused a seat, he may watch (docs/privacy.md)
    response = _client(stranger).post(
        reverse("lobby:private_join"), {"code": table.invite_code}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("games:table", args=[table.pk])
    assert "牌桌已滿" in response.content.decode()
    assert not Seat.objects.filter(user=stranger).exists()


def test_a_player_in_a_hand_cannot_quick_join_another_room(room, make_user):
    """Someone dealt into a hand elsewhere is told to finish or leave it first and keeps his
    one seat (at a table that has not started he would move: games/tests/test_between_hands)."""
    other = Room.objects.create(name="另一場", game="doudizhu", seats=3, min_beans=0)
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        services.quick_join(user=user, room_id=room.pk)
    html = _refused(_client(users[0]), reverse("lobby:quick_join", args=[other.pk]))
    assert "請先打完或離開" in html
    assert Seat.objects.filter(user=users[0]).count() == 1


def test_unknown_table_page_is_not_found(make_user):
    """A link to a table that does not exist is a 404 and seats nobody."""
    user = make_user(beans=5000)
    assert _client(user).get(reverse("games:table", args=[987654])).status_code == 404
    assert not Seat.objects.filter(user=user).exists()
