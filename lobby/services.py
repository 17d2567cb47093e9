"""Lobby writes: quick match and private rooms. Tables themselves belong to games.services."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.cache import caches
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from accounts import selectors as account_selectors
from accounts.models import Invitation, User
from games import realtime
from games.engine import registry
from games.exceptions import NotSeated, SeatUnavailable
from games.models import Seat, Table
from games.services import seating
from lobby.exceptions import RoomUnavailable, TooManyGuesses, UnknownInvite
from lobby.models import Room
from lobby.realtime import user_group

INVITE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"


def _open_room(room_id: int) -> Room:
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        raise RoomUnavailable(gettext_lazy("沒有這個場次"))
    if not room.is_open:
        raise RoomUnavailable(gettext_lazy("這個場次暫時關閉"))
    try:
        registry.get(room.game)
    except KeyError:
        raise RoomUnavailable(gettext_lazy("這個遊戲尚未開放")) from None
    return room


def _seat_held(user, room: Room) -> Table | None:
    """The table of the room where the user already sits (a public one), or None.

    A seat at another table is given up when he is not in a hand there (he moves); in a hand
    in play he is refused (``seating.seat_release`` raises NotBetweenHands).
    """
    current = Seat.objects.filter(user=user).select_related("table").first()
    if current is None:
        return None
    table = current.table
    if table.room_id == room.pk and not table.is_private and table.status != Table.Status.CLOSED:
        return table
    seating.seat_release(user=user)
    return None


def quick_join(*, user, room_id: int, avoid: int | None = None) -> Table:
    """快速開始: a seat at a waiting table of the room (a new table if none), start when full.

    Repeated at once (double clicks, many tabs) it returns the seat already held: each try
    creates its table and takes the seat in one transaction, so a try that loses the race on
    the one-seat-per-user constraint rolls its new table back and answers with the winner's.
    A seat held at another table that has not started (or is between hands) is given up
    first. ``avoid``: a table not to be seated at (換桌).
    """
    room = _open_room(room_id)
    held = _seat_held(user, room)
    if held is not None:
        return held
    params = room.params()
    seating.beans_check(user, params)
    for _ in range(3):
        candidate = (
            Table.objects.filter(
                room_id=room.pk,
                is_private=False,
                status=Table.Status.WAITING,
                seats__user__isnull=True,
            )
            .exclude(pk=avoid)
            .order_by("created_at")
            .first()
        )
        try:
            with transaction.atomic():  # a table made for a seat we cannot take is undone
                table = candidate or seating.table_create(
                    game=room.game, params=params, seat_count=room.seats
                )
                seating.seat_take(table_id=table.pk, user=user)
        except SeatUnavailable:
            held = _seat_held(user, room)  # our own other request may have seated us
            if held is not None:
                return held
            continue  # someone took the last seat first: try the next table
        except IntegrityError:  # seat_one_per_user: a concurrent request of ours sat first
            held = _seat_held(user, room)
            if held is not None:
                return held
            continue
        return table
    raise RoomUnavailable(gettext_lazy("暫時找不到座位，請再試一次"))


def private_create(*, user, room_id: int) -> Table:
    """A private table of the room with an invite code; the owner sits at seat 0."""
    room = _open_room(room_id)
    seating.beans_check(user, room.params())
    seating.seat_release(user=user)  # a seat at a table not started moves with him
    with transaction.atomic():
        for _ in range(10):
            code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(6))
            if not Table.objects.filter(invite_code=code).exists():
                break
        table = seating.table_create(
            game=room.game,
            params=room.params(),
            seat_count=room.seats,
            is_private=True,
            owner=user,
            invite_code=code,
        )
        seating.seat_take(table_id=table.pk, user=user)
    return table


def _guess_keys(user, address: str) -> list[tuple[str, int]]:
    conf = settings.LEYOU
    keys = [(f"invite:user:{user.pk}", conf["INVITE_GUESSES_PER_USER"])]
    if address:
        keys.append((f"invite:addr:{address}", conf["INVITE_GUESSES_PER_ADDRESS"]))
    return keys


def private_join(*, user, code: str, address: str = "") -> Table:
    """Join a friend's private table by its invite code (邀請碼).

    Wrong codes are counted per user and per client ``address`` in a window
    (``LEYOU["INVITE_GUESSES_PER_USER"]`` / ``["INVITE_GUESSES_PER_ADDRESS"]`` per
    ``["INVITE_GUESS_WINDOW_SECONDS"]``, in the shared cache); past either limit every try is
    refused with ``TooManyGuesses`` before the code is looked at, so guessing learns nothing.
    """
    cache = caches["ratelimit"]
    keys = _guess_keys(user, address)
    window = settings.LEYOU["INVITE_GUESS_WINDOW_SECONDS"]
    counts = cache.get_many([key for key, _ in keys])
    if any(counts.get(key, 0) >= limit for key, limit in keys):
        raise TooManyGuesses(
            format_lazy(
                gettext_lazy("輸入錯誤的邀請碼太多次，請 {window} 分鐘後再試"), window=window // 60
            ),
            code="too_many_guesses",
        )
    code = (code or "").strip().upper()
    table = Table.objects.filter(invite_code=code).exclude(status=Table.Status.CLOSED).first()
    if table is None:
        for key, _ in keys:
            cache.add(key, 0, timeout=window)  # the window starts at the first wrong code
            cache.incr(key)
        raise UnknownInvite(gettext_lazy("邀請碼不存在或牌桌已關閉"))
    try:
        seating.seat_release(user=user, keep_table_id=table.pk)
        seating.seat_take(table_id=table.pk, user=user)
    except SeatUnavailable as error:
        error.table = table  # the code was right (a full table): he may watch it
        raise
    return table


def private_return(*, user: User, table_id: int) -> Table:
    """回到座位: a player dealt in at a private table, stood up since (he missed the hand's end,
    or left), sits down again from any session, with no code.

    Raises UnknownInvite (not a private table he played at: told as the code's unknown table,
    so a stranger learns nothing) or SeatUnavailable (full, closed, seated elsewhere).
    """
    from games.selectors import tables as table_selectors

    table = Table.objects.filter(pk=table_id, is_private=True).first()
    if table is None or not table_selectors.played_at(user, table):
        raise UnknownInvite(gettext_lazy("邀請碼不存在或牌桌已關閉"))
    seating.seat_take(table_id=table.pk, user=user)
    return table


def table_switch(*, user, table_id: int) -> Table:
    """換桌: leave this table (not in a hand) for another table of the same room.

    Raises NotSeated, RoomUnavailable (a private table has no other table of its room), or
    NotBetweenHands while he is dealt into a hand in play; nothing changes then.
    """
    seat = Seat.objects.filter(user=user, table_id=table_id).select_related("table").first()
    if seat is None:
        raise NotSeated(gettext_lazy("你不在這張牌桌"))
    if seat.table.is_private or not seat.table.room_id:
        raise RoomUnavailable(gettext_lazy("好友房不能換桌"))
    room_id = seat.table.room_id
    seating.seat_release(user=user)
    return quick_join(user=user, room_id=room_id, avoid=table_id)


# -- invitations to a private table (issue #15 §3) --------------------------------------------


def invitation_send(*, user: User, recipient_id: object) -> Invitation:
    """邀請: invite a player you follow to the private table you sit at (or own).

    He sees it in his lobby at once (pushed on commit to his lobby sockets, every process).
    Raises UnknownInvite (no such player, not someone you follow, he blocked you, you are not
    at a private table, the table is full); nothing is written then. Inviting the same player
    to the same table again re-sends the pending invitation.
    """
    try:
        recipient = User.objects.filter(pk=int(str(recipient_id)), is_active=True).first()
    except (TypeError, ValueError):
        recipient = None
    if recipient is None or recipient.is_bot:
        raise UnknownInvite(gettext("沒有這位玩家"), code="unknown_user")
    if recipient.pk == user.pk:
        raise UnknownInvite(gettext("不能邀請自己"), code="invite_self")
    if not account_selectors.is_following(user, recipient):
        raise UnknownInvite(gettext("只能邀請你關注的好友"), code="not_following")
    if account_selectors.is_blocked(recipient, user):
        raise UnknownInvite(gettext("無法邀請這位玩家"), code="invite_refused")
    seat = Seat.objects.filter(user=user).select_related("table").first()
    table = seat.table if seat else None
    if table is None or not table.is_private or table.status == Table.Status.CLOSED:
        raise UnknownInvite(gettext("請先開一張好友房再邀請"), code="no_private_table")
    if not table.seats.filter(user__isnull=True).exists():
        raise UnknownInvite(gettext("牌桌已滿"), code="table_full")
    if table.seats.filter(user=recipient).exists():
        raise UnknownInvite(gettext("他已經在這張牌桌上"), code="already_seated")
    with transaction.atomic():
        invitation = Invitation.objects.filter(
            sender=user,
            recipient=recipient,
            table_id=table.pk,
            status=Invitation.Status.PENDING,
        ).first()
        if invitation is None:
            try:
                with transaction.atomic():
                    invitation = Invitation.objects.create(
                        sender=user, recipient=recipient, table_id=table.pk, game=table.game
                    )
            except IntegrityError:  # a concurrent send of ours made it first
                invitation = Invitation.objects.get(
                    sender=user,
                    recipient=recipient,
                    table_id=table.pk,
                    status=Invitation.Status.PENDING,
                )
        invitation_id = invitation.pk
        # told only once the row is there for him to accept
        transaction.on_commit(
            lambda: realtime.publish(
                user_group(recipient.pk), {"type": "lobby.invitation", "invitation": invitation_id}
            )
        )
    return invitation


def _invitation_locked(user: User, invitation_id: object) -> Invitation:
    try:
        pk = int(str(invitation_id))
    except (TypeError, ValueError):
        pk = 0
    # lock it: a double click accepts once
    invitation = Invitation.objects.select_for_update().filter(pk=pk, recipient=user).first()
    if invitation is None or invitation.status != Invitation.Status.PENDING:
        raise UnknownInvite(gettext("邀請不存在或已失效"))
    return invitation


def invitation_accept(*, user: User, invitation_id: object) -> Table:
    """Join the table of an invitation with one click (a seat; a full table may be watched).

    Raises UnknownInvite (not his, not pending, table closed) or SeatUnavailable (full: then
    ``error.table`` is set, as for a right code at a full table); the invitation stays pending
    when no seat was taken.
    """
    with transaction.atomic():
        invitation = _invitation_locked(user, invitation_id)
        if account_selectors.is_blocked(user, invitation.sender_id):
            raise UnknownInvite(gettext("邀請不存在或已失效"))
        table = Table.objects.filter(pk=invitation.table_id).first()
        if table is None or table.status == Table.Status.CLOSED:
            raise UnknownInvite(gettext("牌桌已關閉"))
        try:
            seating.seat_release(user=user, keep_table_id=table.pk)
            seating.seat_take(table_id=table.pk, user=user)
        except SeatUnavailable as error:
            with translation.override(settings.LANGUAGE_CODE):  # the message's own words
                full = "已滿" in str(error.message)
            error.table = table if full else None
            raise
        invitation.status = Invitation.Status.ACCEPTED
        invitation.save(update_fields=["status"])
    return table


def invitation_decline(*, user: User, invitation_id: object) -> None:
    """Decline an invitation. Raises UnknownInvite."""
    with transaction.atomic():
        invitation = _invitation_locked(user, invitation_id)
        invitation.status = Invitation.Status.DECLINED
        invitation.save(update_fields=["status"])
