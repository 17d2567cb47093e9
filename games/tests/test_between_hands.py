"""Nobody is stuck at a table, and between hands the player decides (繼續 / 換桌 / 離開).

On the real database through the real services: a seat not in a hand can always be left (the
board shows 離開 before the first deal too), an absent player at a table that has not started
stands up when his lease would have run out, joining elsewhere moves a player who is not in a
hand, the next hand waits for every human's 繼續 (or the room's wait), and a player who never
answers is stood up after the room's number of hands.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import rendering, tasks
from games.engine import registry
from games.exceptions import NotBetweenHands
from games.models import Hand, Seat, Table
from games.selectors import tables as table_selectors
from games.services import between, presence, seating, tables
from games.tests.helpers import current_state, doudizhu_room, seat_user
from games.tests.test_query_budgets import _bot_move
from lobby import services as lobby_services
from lobby.exceptions import RoomUnavailable
from lobby.models import Room

pytestmark = pytest.mark.django_db


def _room(name: str, **extra: Any) -> Room:
    """A 斗地主 room whose bots wait 30 s (the tests seat the players themselves)."""
    return doudizhu_room(name, bot_wait_seconds=30, **extra)


def _board(table_id: int, user) -> str:
    snapshot = table_selectors.table_snapshot(table_id)
    assert snapshot is not None
    seat = table_selectors.seat_in_snapshot(snapshot, user.pk)
    return rendering.render_html(snapshot, seat, user)


def _finished(room: Room, make_user: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list]:
    """A full table (three players) whose first hand has just ended."""
    monkeypatch.setattr(tasks.hand_settle_task, "delay", lambda hand_id: None)
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    assert table is not None
    Seat.objects.filter(table=table).update(connections=1)
    n = 0
    while Hand.objects.filter(table=table, status=Hand.Status.PLAYING).exists():
        _bot_move(table.pk, n)()
        n += 1
        assert n < 600
    return table.pk, users


# -- nobody is stuck --------------------------------------------------------------------------


def test_a_private_table_before_its_first_deal_shows_leave_and_leaves(make_user):
    """A 好友房 waiting for its players offers 離開, and the leave frame's service frees the
    seat (the table, empty, closes)."""
    room = _room("好友場")
    owner = make_user(beans=5000)
    table = lobby_services.private_create(user=owner, room_id=room.pk)
    html = _board(table.pk, owner)
    assert "data-exit" in html and "離開" in html
    assert seating.seat_leave(table_id=table.pk, user=owner) is False  # not an escape
    assert not Seat.objects.filter(user=owner).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


def test_an_absent_player_at_a_table_not_started_stands_up_after_the_lease(make_user):
    """He closed the browser at a waiting table: after the lease length (not the two-minute
    grace of a hand) the clock's lease expiry stands him up; a reload in time keeps the seat."""
    room = _room("等待場")
    gone, staying = make_user(beans=5000), make_user(beans=5000)
    table = lobby_services.quick_join(user=gone, room_id=room.pk)
    lobby_services.quick_join(user=staying, room_id=room.pk)
    for user in (gone, staying):
        presence.connection_open(table_id=table.pk, user=user, lease_key=f"k{user.pk}")
        presence.connection_close(table_id=table.pk, user=user, lease_key=f"k{user.pk}")
    lease = presence._conf("PRESENCE_LEASE_SECONDS")
    Seat.objects.filter(user=gone).update(
        disconnected_at=timezone.now() - timedelta(seconds=lease + 1)
    )
    Seat.objects.filter(user=staying).update(
        disconnected_at=timezone.now() - timedelta(seconds=lease - 5)
    )
    presence.leases_expire()
    assert not Seat.objects.filter(user=gone).exists()
    assert Seat.objects.filter(user=staying, table_id=table.pk).exists()


def test_joining_elsewhere_moves_a_player_whose_table_has_not_started(make_user):
    """Seated at a waiting table, 快速開始 in another room, a 好友房 of his own, or a friend's
    code take him there instead of refusing 「你已經在另一張牌桌上」."""
    first, second = _room("甲場"), _room("乙場")
    user, friend = make_user(beans=5000), make_user(beans=5000)
    waiting = lobby_services.quick_join(user=user, room_id=first.pk)
    moved = lobby_services.quick_join(user=user, room_id=second.pk)
    assert moved.room_id == second.pk
    assert list(Seat.objects.filter(user=user).values_list("table_id", flat=True)) == [moved.pk]
    assert Table.objects.get(pk=waiting.pk).status == Table.Status.CLOSED
    own = lobby_services.private_create(user=user, room_id=first.pk)
    assert Seat.objects.get(user=user).table_id == own.pk
    friends = lobby_services.private_create(user=friend, room_id=first.pk)
    lobby_services.private_join(user=user, code=friends.invite_code or "")
    assert Seat.objects.get(user=user).table_id == friends.pk


def test_joining_elsewhere_from_a_hand_in_play_is_refused_and_changes_nothing(room, make_user):
    """Dealt into a hand, he is refused (leaving would be an escape): his seat stays."""
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    other = _room("乙場")
    with pytest.raises(NotBetweenHands):
        lobby_services.quick_join(user=users[0], room_id=other.pk)
    assert Seat.objects.get(user=users[0]).table_id == table.pk
    assert not Table.objects.filter(room_id=other.pk).exists()


def _play_out_idle(table_id: int, idle) -> None:
    """Play the hand out: the others move themselves, the idle player's seat by the clock."""
    n = 0
    while hand := Hand.objects.filter(table_id=table_id, status=Hand.Status.PLAYING).first():
        table, _, state = current_state(table_id)
        index = min(registry.get(hand.game).to_act(state))
        if seat_user(table_id, index) == idle:
            Seat.objects.filter(user=idle).update(deadline=timezone.now() - timedelta(seconds=1))
            assert tables.due_seat_act(table_id=table_id, seat_index=index)
        else:
            _bot_move(table_id, 5000 + n)()
        n += 1
        assert n < 600


# -- between hands ----------------------------------------------------------------------------


def test_the_next_hand_waits_for_every_players_continue(make_user, monkeypatch):
    """After a hand nobody is ready and the wait is the room's; the last 繼續 deals at once."""
    room = _room("繼續場", between_hands_seconds=40)
    table_id, users = _finished(room, make_user, monkeypatch)
    table = Table.objects.get(pk=table_id)
    assert table.next_hand_at is not None
    wait = (table.next_hand_at - timezone.now()).total_seconds()
    assert 35 < wait <= 40
    assert not Seat.objects.filter(table_id=table_id, ready=True).exists()
    html = _board(table_id, users[0])
    assert "data-ready" in html and "data-switch" in html and "data-exit" in html
    assert between.seat_ready(table_id=table_id, user=users[0]) is False
    assert "data-ready-done" in _board(table_id, users[0])
    seating.table_tick(table_id=table_id)  # not due yet: nothing
    assert Hand.objects.filter(table_id=table_id).count() == 1
    assert between.seat_ready(table_id=table_id, user=users[1]) is False
    assert between.seat_ready(table_id=table_id, user=users[2]) is True
    assert Hand.objects.filter(table_id=table_id, status=Hand.Status.PLAYING).count() == 1
    with pytest.raises(NotBetweenHands):  # 繼續 in a hand: refused, nothing changes
        between.seat_ready(table_id=table_id, user=users[0])


def test_a_player_who_never_answers_is_stood_up_after_the_rooms_hands(make_user, monkeypatch):
    """Dealt in without 繼續 once (the wait ran out), he is stood up at the room's limit (2)
    instead of being played by 托管 for ever; the players who answered stay."""
    room = _room("掛機場", idle_hands_limit=2)
    table_id, users = _finished(room, make_user, monkeypatch)
    idle = users[0]
    for _ in range(2):
        for user in users[1:]:
            between.seat_ready(table_id=table_id, user=user)
        Table.objects.filter(pk=table_id).update(next_hand_at=timezone.now() - timedelta(seconds=1))
        seating.table_tick(table_id=table_id)
        if Seat.objects.filter(user=idle).exists():
            assert Seat.objects.get(user=idle).hands_unanswered == 1
            _play_out_idle(table_id, idle)
    assert not Seat.objects.filter(user=idle).exists()
    assert Seat.objects.filter(table_id=table_id, user__in=users[1:]).count() == 2


def test_switching_tables_between_hands_takes_another_table_of_the_room(make_user, monkeypatch):
    """換桌 between hands: a seat at another table of the same room, the old one freed."""
    room = _room("換桌場")
    table_id, users = _finished(room, make_user, monkeypatch)
    new = lobby_services.table_switch(user=users[0], table_id=table_id)
    assert new.pk != table_id and new.room_id == room.pk
    assert Seat.objects.get(user=users[0]).table_id == new.pk


def test_switching_tables_is_refused_in_a_hand_and_at_a_private_table(room, make_user):
    """換桌 while dealt into a hand in play, or at a private table, is refused; the seat
    stays."""
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    with pytest.raises(NotBetweenHands):
        lobby_services.table_switch(user=users[0], table_id=table.pk)
    assert Seat.objects.get(user=users[0]).table_id == table.pk
    owner = make_user(beans=5000)
    private = lobby_services.private_create(user=owner, room_id=room.pk)
    with pytest.raises(RoomUnavailable):
        lobby_services.table_switch(user=owner, table_id=private.pk)
