"""Between hands (局間): each player answers 繼續 (ready), 換桌 or 離開 before the next deal.

A hand's end (``tables.finish.hand_end``) marks every human seat not ready and sets the
table's ``next_hand_at`` from the room's ``between_hands_seconds``. The next hand is dealt as
soon as every human seat is ready (:func:`seat_ready`), else when the wait runs out (the
clock's ``seating.table_tick`` → :func:`next_hand_deal`). A player dealt in without answering
counts a hand (``Seat.hands_unanswered``; his own move or 繼續 resets it); at the room's
``idle_hands_limit`` he is stood up instead of being played by 托管 for ever.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.engine.params import table_params_read
from games.exceptions import BeansOutOfRange, NotBetweenHands
from games.models import Seat, Table
from games.services import tables
from ledger import selectors as ledger_selectors


def seat_ready(*, table_id: int, user) -> bool:
    """繼續: the player is ready for the next hand; deal it at once when every human is.

    Returns True if the next hand was dealt. Raises NotSeated, or NotBetweenHands while a
    hand is in play or before the table's first (nothing changes then).
    """
    with transaction.atomic():
        work = tables.table_lock(table_id)
        table = work.table
        seat = work.seat_get(user)
        if work.hand is not None or table.next_hand_at is None:
            raise NotBetweenHands(_("現在不是局間，無需準備"))
        if not seat.ready or seat.hands_unanswered:
            seat.ready, seat.hands_unanswered = True, 0
            seat.save(update_fields=["ready", "hands_unanswered"])
            tables.seq_bump(table)
        everyone = all(s.ready for s in work.seats if s.user_id is not None and not s.is_bot)
        dealt = False
        if everyone:
            dealt = next_hand_deal(work, timezone.now()) is not None
        table.save()
        tables.table_notify(table, lobby=everyone)
    return dealt


def next_hand_deal(work: tables.WorkingSet, now) -> object | None:
    """Under the table lock: stand up who should not be dealt in, then deal if the seats allow.

    Stood up: a player with no socket left, one who can no longer afford the room, and one who
    has not answered for the room's ``idle_hands_limit`` hands. Whoever is dealt in without
    having answered counts one more unanswered hand. Returns the new hand, or None.
    """
    table = work.table
    table.next_hand_at = None
    limit = table_params_read(table.params)["idle_hands_limit"]
    unanswered: list[int] = []
    for seat in work.seats:
        if seat.user_id is None:
            continue
        human = not seat.is_bot
        gone = human and seat.connections == 0
        idle = human and not seat.ready and seat.hands_unanswered + 1 >= limit
        if gone or idle or not _beans_ok(seat, table.params):
            # a player who left after a hand, idles, or can no longer afford the room stands up
            tables.seat_vacate(seat)
            seat.save()
        elif human and not seat.ready:
            unanswered.append(seat.pk)
    if unanswered:
        Seat.objects.filter(pk__in=unanswered).update(hands_unanswered=F("hands_unanswered") + 1)
    tables.seq_bump(table)
    if any(seat.user_id is None for seat in work.seats):
        table.status = Table.Status.WAITING
        if any(s.user_id is not None and not s.is_bot for s in work.seats):
            wait = table.params.get("bot_wait_seconds", 5)
            table.fill_deadline = now + timedelta(seconds=wait)
        tables.table_close_if_empty(work)
    table.save()
    return tables.hand_start_if_ready(work)


def beans_check(user, params: dict) -> None:
    """Refuse (BeansOutOfRange) a player whose beans are outside the room's range."""
    beans = ledger_selectors.balance_for_user(user)
    low, high = params.get("min_beans") or 0, params.get("max_beans")
    if beans < low:
        raise BeansOutOfRange(
            format_lazy(_("歡樂豆不足：本場需要至少 {low}，你有 {beans}"), low=low, beans=beans)
        )
    if high is not None and beans > high:
        raise BeansOutOfRange(
            format_lazy(
                _("歡樂豆太多：本場上限 {high}，你有 {beans}，請去更高的場次"),
                high=high,
                beans=beans,
            )
        )


def _beans_ok(seat: Seat, params: dict) -> bool:
    from games.services.bots import bot_topup

    if seat.is_bot:
        bot_topup(seat.user, params)
        return True
    try:
        beans_check(seat.user, params)
    except BeansOutOfRange:
        return False
    return True
