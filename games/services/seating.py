"""Seats (座位): make a table, sit down, stand up, fill with bots, and the step between hands.

Every write goes through ``tables``' helpers under the table lock; a hand starts from here
(``tables.hand_start_if_ready``) when the table's seats allow it.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import registry
from games.engine.table_type import Seating
from games.exceptions import NotBetweenHands, SeatUnavailable
from games.models import Seat, Table
from games.services import between, tables
from games.services.between import beans_check

__all__ = [
    "beans_check",
    "bots_fill",
    "seat_leave",
    "seat_release",
    "seat_take",
    "table_create",
    "table_tick",
]


def table_create(
    *,
    game: str,
    params: dict,
    seat_count: int,
    is_private: bool = False,
    owner=None,
    invite_code: str | None = None,
) -> Table:
    """Create a waiting table with empty seats."""
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            room_id=params.get("room_id"),
            params=params,
            seat_count=seat_count,
            is_private=is_private,
            owner=owner,
            invite_code=invite_code,
        )
        Seat.objects.bulk_create([Seat(table=table, index=i) for i in range(seat_count)])
    return table


def seat_take(*, table_id: int, user, index: int | None = None) -> Seat:
    """Sit the user at the table (a free seat, or the given one); start the hand when full."""
    with transaction.atomic():
        work = tables.table_lock(table_id)
        table = work.table
        if table.status == Table.Status.CLOSED:
            raise SeatUnavailable(_("牌桌已關閉"))
        existing = table.seats.filter(user=user).first()
        if existing is not None:
            return existing
        if Seat.objects.filter(user=user).exists():
            raise SeatUnavailable(_("你已經在另一張牌桌上"))
        beans_check(user, table.params)
        free = table.seats.select_for_update().filter(user__isnull=True)
        if index is not None:
            free = free.filter(index=index)
        seat = free.order_by("index").first()
        if seat is None:
            raise SeatUnavailable(_("牌桌已滿"))
        tables.seat_vacate(seat, user=user)
        seat.save()
        tables.seq_bump(table)
        if not table.is_private and table.fill_deadline is None and not user.is_bot:
            wait = table.params.get("bot_wait_seconds", 5)
            table.fill_deadline = timezone.now() + timedelta(seconds=wait)
        table.save()
        tables.hand_start_if_ready(work)
        tables.table_notify(table, lobby=True)
    return seat


def bots_fill(*, table_id: int, by_user=None) -> int:
    """Fill every empty seat with a bot (the owner of a private table, or the clock)."""
    from games.services.bots import bot_user_for_seat

    with transaction.atomic():
        work = tables.table_lock(table_id)
        table = work.table
        if by_user is not None and table.owner_id != by_user.pk:
            raise SeatUnavailable(_("只有房主可以加入機器人"))
        if table.status == Table.Status.CLOSED:
            return 0
        if not table.seats.filter(user__isnull=False, is_bot=False).exists():
            table.fill_deadline = None
            table.save(update_fields=["fill_deadline"])
            return 0
        filled = 0
        free = table.seats.select_for_update().filter(user__isnull=True).order_by("index")
        if by_user is None and registry.get(table.game).table_type.seating is Seating.OPEN:
            free = free[: _bots_wanted(table, free.count())]  # the clock: to the players aimed for
        for seat in free:
            tables.seat_vacate(seat, user=bot_user_for_seat(table.params))
            seat.save()
            filled += 1
        table.fill_deadline = None
        tables.seq_bump(table)
        table.save()
        tables.hand_start_if_ready(work)
        tables.table_notify(table, lobby=True)
    return filled


def players_aimed(table: Table) -> int:
    """OPEN seating: how many players a table aims for (the room's ``target_players``, 目標人數,
    default 4), at least the room's minimum and at most the seats (#14 §7)."""
    try:
        wanted = int(table.params.get("target_players") or 4)
    except (TypeError, ValueError):
        wanted = 4
    return max(tables.min_players(table), min(wanted, table.seat_count))


def _bots_wanted(table: Table, free: int) -> int:
    """OPEN seating: how many empty seats the clock fills with bots (up to the players the
    table aims for, so a lone player is not always heads-up)."""
    seated = table.seats.filter(user__isnull=False).count()
    return max(0, min(free, players_aimed(table) - seated))


def seat_leave(*, table_id: int, user) -> bool:
    """Leave the table. Leaving during a hand is an escape (逃跑): returns True then."""
    with transaction.atomic():
        work = tables.table_lock(table_id)
        table = work.table
        seat = work.seat_get(user)
        escaped = tables.hand_escape(work, seat)
        tables.seat_vacate(seat)
        seat.save()
        tables.seq_bump(table)
        tables.table_close_if_empty(work)
        table.save()
        tables.table_notify(table, lobby=True)
    return escaped


def seat_release(*, user, keep_table_id: int | None = None) -> bool:
    """Stand the user up from a seat he holds elsewhere when he is not in a hand there.

    Joining another table (快速開始, another room, a friend's table) moves a player whose seat
    is at a table that has not started or is between hands; a player dealt into a hand in play
    is refused (NotBetweenHands: leaving it would be an escape). Returns True if a seat was
    given up.
    """
    held = Seat.objects.filter(user=user).exclude(table_id=keep_table_id).first()
    if held is None:
        return False
    with transaction.atomic():
        work = tables.table_lock(held.table_id)
        seat = work.seat_find(user)
        if seat is None:
            return False  # stood up meanwhile
        hand = work.hand
        if hand is not None and tables.engine_seat(hand, seat) is not None:
            raise NotBetweenHands(_("你已經在另一張牌桌的牌局中，請先打完或離開"))
        seat_leave(table_id=held.table_id, user=user)  # under the same lock: no deal between
    return True


def table_tick(*, table_id: int) -> None:
    """The clock's step for a table: fill with bots, start the next hand, or close it."""
    now = timezone.now()
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    if table.fill_deadline and table.fill_deadline <= now:
        bots_fill(table_id=table_id)
        return
    if table.next_hand_at and table.next_hand_at <= now:
        with transaction.atomic():
            work = tables.table_lock(table_id)
            table = work.table
            if not table.next_hand_at or table.next_hand_at > now:
                return
            between.next_hand_deal(work, now)
            table.save()
            tables.table_notify(table, lobby=True)
