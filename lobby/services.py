"""Lobby writes: quick match and private rooms. Tables themselves belong to games.services."""

from __future__ import annotations

import secrets

from django.db import transaction

from games.engine import registry
from games.models import Seat, Table
from games.services import tables
from lobby.exceptions import RoomUnavailable, UnknownInvite
from lobby.models import Room

INVITE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"


def _open_room(room_id: int) -> Room:
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        raise RoomUnavailable("沒有這個場次")
    if not room.is_open:
        raise RoomUnavailable("這個場次暫時關閉")
    try:
        registry.get(room.game)
    except KeyError:
        raise RoomUnavailable("這個遊戲尚未開放") from None
    return room


def quick_join(*, user, room_id: int) -> Table:
    """快速開始: a seat at a waiting table of the room (a new table if none), start when full."""
    room = _open_room(room_id)
    current = Seat.objects.filter(user=user).select_related("table").first()
    if current is not None:
        if current.table.room_id == room.pk and current.table.status != Table.Status.CLOSED:
            return current.table
        raise RoomUnavailable("你已經在另一張牌桌上，請先離開")
    params = room.params()
    tables._check_beans(user, params)
    for _ in range(3):
        candidate = (
            Table.objects.filter(
                room_id=room.pk, is_private=False, status=Table.Status.WAITING,
                seats__user__isnull=True,
            ).order_by("created_at").first()
        )
        table = candidate or tables.table_create(
            game=room.game, params=params, seat_count=room.seats
        )
        try:
            tables.seat_take(table_id=table.pk, user=user)
        except tables.SeatUnavailable:
            continue  # someone took the last seat first: try the next table
        return table
    raise RoomUnavailable("暫時找不到座位，請再試一次")


def private_create(*, user, room_id: int) -> Table:
    """A private table of the room with an invite code; the owner sits at seat 0."""
    room = _open_room(room_id)
    if Seat.objects.filter(user=user).exists():
        raise RoomUnavailable("你已經在另一張牌桌上，請先離開")
    tables._check_beans(user, room.params())
    with transaction.atomic():
        for _ in range(10):
            code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(6))
            if not Table.objects.filter(invite_code=code).exists():
                break
        table = tables.table_create(
            game=room.game, params=room.params(), seat_count=room.seats, is_private=True,
            owner=user, invite_code=code,
        )
        tables.seat_take(table_id=table.pk, user=user)
    return table


def private_join(*, user, code: str) -> Table:
    """Join a friend's private table by its invite code."""
    code = (code or "").strip().upper()
    table = Table.objects.filter(invite_code=code).exclude(status=Table.Status.CLOSED).first()
    if table is None:
        raise UnknownInvite("邀請碼不存在或牌桌已關閉")
    tables.seat_take(table_id=table.pk, user=user)
    return table
