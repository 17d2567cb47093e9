"""Invite-code guesses are rate-limited (per user and per address), and a repeated quick join
(快速開始) answers with the seat already held: never a 500, never an orphan table."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Seat, Table
from lobby import services

pytestmark = pytest.mark.django_db

LIMITS = {"INVITE_GUESSES_PER_USER": 10, "INVITE_GUESSES_PER_ADDRESS": 30}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _guess(client: Client, code: str, address: str = "10.0.0.1", **extra):
    return client.post(reverse("lobby:private_join"), {"code": code}, REMOTE_ADDR=address, **extra)


def test_ten_wrong_codes_then_429_even_for_the_right_code(room, make_user, settings):
    """After 10 wrong codes the user gets HTTP 429 with a clear message, even with the right
    code (so a guess learns nothing), and is not seated; others still join with it."""
    settings.LEYOU = {**settings.LEYOU, **LIMITS}
    table = services.private_create(user=make_user(beans=5000), room_id=room.pk)
    guesser = _client(make_user(beans=5000))
    for i in range(10):
        response = _guess(guesser, f"ZZZZ{i:02d}")
        assert response.status_code == 302  # refused with a message on the home page
    response = _guess(guesser, table.invite_code)
    assert response.status_code == 429
    assert "輸入錯誤的邀請碼太多次" in response.content.decode()
    assert Seat.objects.filter(table=table, user__isnull=False).count() == 1
    # a friend with a couple of typos, from another address, still joins with the right code
    friend = make_user(beans=5000)
    client = _client(friend)
    _guess(client, "WRONG1", address="10.0.0.2")
    response = _guess(client, table.invite_code, address="10.0.0.2")
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.pk])
    assert Seat.objects.get(user=friend).table_id == table.pk


def test_one_address_is_limited_across_users_and_a_forged_forwarded_for_is_ignored(
    room, make_user, settings
):
    """30 wrong codes from one address by many users: the next user there gets 429, also when
    he sends his own X-Forwarded-For (believed only from a trusted proxy)."""
    settings.LEYOU = {**settings.LEYOU, **LIMITS}
    for n in range(10):
        client = _client(make_user())
        for i in range(3):
            assert _guess(client, f"Q{n}W{i}", address="10.0.1.1").status_code == 302
    late = _client(make_user())
    response = _guess(late, "ANYONE", address="10.0.1.1", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert response.status_code == 429


def test_a_trusted_proxy_passes_on_the_client_address(room, make_user, settings):
    """Behind our own proxy every client shares its address: X-Forwarded-For tells them apart,
    by the entry the proxy appended (a client prepending another address changes nothing)."""
    settings.LEYOU = {**settings.LEYOU, **LIMITS}
    settings.LEYOU_TRUSTED_PROXIES = ["10.0.2.1"]
    for n in range(10):
        client = _client(make_user())
        for i in range(3):
            forged = f"198.51.100.{n * 3 + i}, 203.0.113.7"  # the client's own prefix varies
            assert (
                _guess(
                    client, f"P{n}X{i}", address="10.0.2.1", HTTP_X_FORWARDED_FOR=forged
                ).status_code
                == 302
            )
    response = _guess(
        _client(make_user()), "NOPE", address="10.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.7"
    )
    assert response.status_code == 429  # 203.0.113.7 used its 30
    table = services.private_create(user=make_user(beans=5000), room_id=room.pk)
    honest = make_user(beans=5000)
    response = _guess(
        _client(honest), table.invite_code, address="10.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.8"
    )
    assert response.status_code == 302 and Seat.objects.get(user=honest).table_id == table.pk


@pytest.mark.django_db(transaction=True)
def test_thirty_concurrent_quick_joins_from_one_session_hold_one_seat(room, make_user):
    """30 POSTs at once from one session: no 500, all sent to the same table, one seat, and
    no table left with nobody at it."""
    user = make_user(beans=5000)
    login = Client()
    login.force_login(user)
    cookie = login.cookies["sessionid"].value
    url = reverse("lobby:quick_join", args=[room.pk])
    barrier = threading.Barrier(30)
    answers: list[tuple[int, str]] = []

    def post() -> None:
        client = Client(raise_request_exception=False)
        client.cookies["sessionid"] = cookie
        try:
            barrier.wait(timeout=30)
            response = client.post(url)
            answers.append((response.status_code, response.get("Location", "")))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(answers) == 30
    seat = Seat.objects.get(user=user)
    assert [code for code, _ in answers] == [302] * 30
    assert {loc for _, loc in answers} == {reverse("games:table", args=[seat.table_id])}
    assert Table.objects.filter(room_id=room.pk).count() == 1
    empty = Table.objects.filter(room_id=room.pk).exclude(seats__user__isnull=False)
    assert not empty.exists()
