"""Presence as a lease (出席租約) on the real database: a dead process's sockets are expired by
the clock into exactly what a disconnect applies; a normal stop gives its leases up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games.exceptions import TooManySockets
from games.models import Hand, Seat, SeatLease, Table
from games.services import presence, tables
from lobby import services as lobby_services

pytestmark = pytest.mark.django_db


def _full_table(room, make_user):
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    return table, users


def _seat(table, user) -> Seat:
    return Seat.objects.get(table=table, user=user)


def _age(process: str, seconds: float) -> None:
    SeatLease.objects.filter(process=process).update(
        renewed_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_dead_process_leases_expire_into_a_disconnect(room, make_user):
    """Sockets of a killed process (no close ever ran) are 離線 + 托管 after the lease; the
    seat of a player on a live process is untouched, and the table seq moved for each."""
    table, users = _full_table(room, make_user)
    for user in users[:2]:
        presence.connection_open(table_id=table.pk, user=user, process="dead:1:aa")
    presence.connection_open(table_id=table.pk, user=users[2], process="live:2:bb")
    assert [_seat(table, u).connections for u in users] == [1, 1, 1]
    seq = Table.objects.get(pk=table.pk).seq
    lease = presence._conf("PRESENCE_LEASE_SECONDS")

    _age("dead:1:aa", lease - 1)  # still fresh: nothing happens
    assert presence.leases_expire() == 0
    assert [_seat(table, u).connections for u in users] == [1, 1, 1]

    _age("dead:1:aa", lease + 1)
    assert presence.leases_expire() == 2
    for user in users[:2]:
        seat = _seat(table, user)
        assert (seat.connections, seat.auto, seat.disconnected_at is not None) == (0, True, True)
    alive = _seat(table, users[2])
    assert (alive.connections, alive.auto, alive.disconnected_at) == (1, False, None)
    assert Table.objects.get(pk=table.pk).seq == seq + 2
    assert presence.leases_by_process() == {"live:2:bb": 1}
    assert presence.leases_expire() == 0  # done once


def test_a_seat_stays_online_while_any_lease_is_fresh(room, make_user):
    """When one of a seat's two processes dies its lease expires alone: the seat keeps one
    connection, stays out of 托管, and the table's seq (what clients see) does not move."""
    table, users = _full_table(room, make_user)
    presence.connection_open(table_id=table.pk, user=users[0], process="dead:1:aa")
    presence.connection_open(table_id=table.pk, user=users[0], process="live:2:bb")
    seq = Table.objects.get(pk=table.pk).seq
    _age("dead:1:aa", 3600)
    assert presence.leases_expire() == 1
    seat = _seat(table, users[0])
    assert (seat.connections, seat.auto, seat.disconnected_at) == (1, False, None)
    assert Table.objects.get(pk=table.pk).seq == seq  # nobody saw a change


def test_the_heartbeat_renews_only_its_process_in_one_update(room, make_user):
    """A heartbeat renews the leases of its own process only and returns their keys; the other
    process's stale lease still expires; an unknown process renews nothing."""
    table, users = _full_table(room, make_user)
    mine = presence.lease_key_new()
    presence.connection_open(table_id=table.pk, user=users[0], lease_key=mine, process="me:1:a")
    presence.connection_open(table_id=table.pk, user=users[1], process="other:2:b")
    _age("me:1:a", 3600)
    _age("other:2:b", 3600)
    assert presence.lease_renew([mine], "me:1:a") == {mine}
    assert presence.leases_expire() == 1  # the other process's, not the renewed one
    assert _seat(table, users[0]).connections == 1
    assert _seat(table, users[1]).connections == 0
    assert presence.lease_renew([mine], "nobody:0:0") == set()


def test_a_normal_stop_gives_up_its_leases_as_disconnects(room, make_user):
    """A process that stops normally releases all its leases at once: no lease rows remain and
    each of its seats is disconnected and put in 托管."""
    table, users = _full_table(room, make_user)
    for user in users:
        presence.connection_open(table_id=table.pk, user=user, process="stopping:1:a")
    assert presence.process_release("stopping:1:a") == 3
    assert SeatLease.objects.count() == 0
    assert [(_seat(table, u).connections, _seat(table, u).auto) for u in users] == [(0, True)] * 3


@override_settings(LEYOU={**presence.settings.LEYOU, "DISCONNECT_GRACE_SECONDS": 0})
def test_a_player_who_never_returns_escapes_once_after_the_grace(room, make_user):
    """A player whose lease expired and who does not return is escaped (逃跑) once when the
    grace ends: the hand is ESCAPED, the seat freed, and a second expiry does nothing."""
    table, users = _full_table(room, make_user)
    presence.connection_open(table_id=table.pk, user=users[0], process="dead:1:aa")
    hand = Hand.objects.get(table=table, status=Hand.Status.PLAYING)
    _age("dead:1:aa", 3600)
    presence.leases_expire()
    seat = _seat(table, users[0])
    assert presence.grace_expire(table_id=table.pk, seat_index=seat.index) is True
    assert presence.grace_expire(table_id=table.pk, seat_index=seat.index) is False
    hand.refresh_from_db()
    assert hand.status == Hand.Status.ESCAPED
    assert not Seat.objects.filter(table=table, user=users[0]).exists()


def test_grace_does_not_escape_a_player_with_a_lease(room, make_user):
    """Escape needs no lease at all, even when the seat's count says 0 (e.g. stood up, sat)."""
    table, users = _full_table(room, make_user)
    presence.connection_open(table_id=table.pk, user=users[0], process="p:1:a")
    seat = _seat(table, users[0])
    Seat.objects.filter(pk=seat.pk).update(
        connections=0, disconnected_at=timezone.now() - timedelta(hours=1)
    )
    assert presence.grace_expire(table_id=table.pk, seat_index=seat.index) is False
    assert Seat.objects.get(pk=seat.pk).user_id == users[0].pk


def test_back_after_an_expired_lease_ends_the_auto_play(room, make_user):
    """A player who reconnects after his lease expired gets his seat back: one connection, 托管
    off, no disconnect time."""
    table, users = _full_table(room, make_user)
    presence.connection_open(table_id=table.pk, user=users[0], process="dead:1:aa")
    _age("dead:1:aa", 3600)
    presence.leases_expire()
    assert _seat(table, users[0]).auto is True
    index = presence.connection_open(table_id=table.pk, user=users[0])
    seat = _seat(table, users[0])
    assert (index, seat.connections, seat.auto, seat.disconnected_at) == (
        seat.index,
        1,
        False,
        None,
    )


def test_one_user_may_hold_only_so_many_sockets_on_a_table(room, make_user):
    """One user may open only SOCKETS_PER_USER_TABLE sockets on a table: the next raises
    TooManySockets and changes nothing (leases, connections, seq); a close frees a place."""
    table, users = _full_table(room, make_user)
    cap = presence._conf("SOCKETS_PER_USER_TABLE")
    for _ in range(cap):
        presence.connection_open(table_id=table.pk, user=users[0])
    seq = Table.objects.get(pk=table.pk).seq
    with pytest.raises(TooManySockets):
        presence.connection_open(table_id=table.pk, user=users[0])
    assert SeatLease.objects.filter(user=users[0]).count() == cap
    assert _seat(table, users[0]).connections == cap
    assert Table.objects.get(pk=table.pk).seq == seq
    presence.connection_close(table_id=table.pk, user=users[0])
    presence.connection_open(table_id=table.pk, user=users[0])  # room again after a close


def test_a_toggle_that_changes_nothing_costs_nothing(room, make_user):
    """Setting 托管 to the value it already has writes nothing (the seq does not move); a real
    change bumps the seq once."""
    table, users = _full_table(room, make_user)
    seq = Table.objects.get(pk=table.pk).seq
    tables.auto_set(table_id=table.pk, user=users[0], on=False)  # already off
    assert Table.objects.get(pk=table.pk).seq == seq
    tables.auto_set(table_id=table.pk, user=users[0], on=True)
    assert Table.objects.get(pk=table.pk).seq == seq + 1
    tables.auto_set(table_id=table.pk, user=users[0], on=True)
    assert Table.objects.get(pk=table.pk).seq == seq + 1


def test_another_seats_auto_and_presence_do_not_make_a_move_stale(room, make_user):
    """A move made at seq S is applied although other seats toggled 托管 and came and went
    since (the table's seq moved, the hand did not); a move made before the hand moved is stale."""
    import json

    from games import rendering
    from games.exceptions import StaleSeq
    from games.selectors import tables as table_selectors
    from tests.live.test_live_table import choose

    table, users = _full_table(room, make_user)
    view_seq = Table.objects.get(pk=table.pk).seq
    by_seat = {Seat.objects.get(table=table, user=u).index: u for u in users}
    snapshot = table_selectors.table_snapshot(table.pk)
    actor, action = None, None
    for index, user in by_seat.items():
        view = json.loads(rendering.render_json(snapshot, index, user))["view"]
        action = choose(view, index)
        if action is not None:
            actor = index
            break
    others = [u for i, u in by_seat.items() if i != actor]
    tables.auto_set(table_id=table.pk, user=others[0], on=True)
    tables.auto_set(table_id=table.pk, user=others[0], on=False)
    presence.connection_open(table_id=table.pk, user=others[1])
    presence.connection_close(table_id=table.pk, user=others[1])
    assert Table.objects.get(pk=table.pk).seq > view_seq
    outcome = tables.move_submit(
        table_id=table.pk,
        user=by_seat[actor],
        action=action,
        expected_seq=view_seq,
        action_id="a-1",
    )
    assert outcome.seq > view_seq
    with pytest.raises(StaleSeq):  # the hand moved after view_seq: now it is stale
        tables.move_submit(
            table_id=table.pk,
            user=by_seat[actor],
            action=action,
            expected_seq=view_seq,
            action_id="a-2",
        )
    with pytest.raises(StaleSeq):  # a seq from the future is not accepted either
        tables.move_submit(
            table_id=table.pk,
            user=by_seat[actor],
            action=action,
            expected_seq=outcome.seq + 5,
            action_id="a-3",
        )


class _OpenSocket:
    """What the heartbeat reads of a socket this process holds open (a consumer's fields)."""

    socket_kind = "table"
    lease_taken = True
    closing = False
    cap_member = None
    cap_user_id = None

    def __init__(self, user) -> None:
        self.user = user


def _dead_pid() -> int:
    import subprocess

    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _dead_neighbour() -> str:
    """The process id of a server process on this machine that no longer runs."""
    host, _pid, _rest = presence.PROCESS_ID.partition("@")[0].split(":")
    namespace = presence.PROCESS_ID.partition("@")[2]
    return f"{host}:{_dead_pid()}:dead@{namespace}"


@pytest.mark.django_db(transaction=True)
def test_a_beat_renews_only_the_sockets_held_open_and_closes_the_others(room, make_user):
    """Two leases of this process, one whose socket is listed open and one whose socket went
    without its close finishing (Redis down during it, a killed handler): one beat renews the
    first and closes the second as a disconnect — it is not renewed for ever."""
    import asyncio

    from games import presence_server

    table, users = _full_table(room, make_user)
    open_key, gone_key = presence.lease_key_new(), presence.lease_key_new()
    presence.connection_open(table_id=table.pk, user=users[0], lease_key=open_key)
    presence.connection_open(table_id=table.pk, user=users[1], lease_key=gone_key)
    _age(presence.PROCESS_ID, 4)  # both last renewed before this beat
    presence_server.socket_add(open_key, _OpenSocket(users[0]))
    try:
        asyncio.run(presence_server.beat(first=True))
    finally:
        presence_server.socket_remove(open_key)
    assert set(SeatLease.objects.values_list("key", flat=True)) == {open_key}
    renewed = SeatLease.objects.get(key=open_key).renewed_at
    assert timezone.now() - renewed < timedelta(seconds=2)
    assert (_seat(table, users[0]).connections, _seat(table, users[0]).auto) == (1, False)
    gone = _seat(table, users[1])
    assert (gone.connections, gone.auto, gone.disconnected_at is not None) == (0, True, True)


@pytest.mark.django_db(transaction=True)
def test_a_dead_neighbours_leases_close_at_the_next_beat(room, make_user):
    """A server process on this machine that was killed (its pid gone): the next beat of any
    other process closes its leases, long before they would go stale."""
    import asyncio

    from games import presence_server

    table, users = _full_table(room, make_user)
    dead = _dead_neighbour()
    presence.connection_open(table_id=table.pk, user=users[0], process=dead)
    presence.connection_open(table_id=table.pk, user=users[1], process="elsewhere:7:a@1")
    asyncio.run(presence_server.beat(first=True))
    assert presence.leases_by_process() == {"elsewhere:7:a@1": 1}  # another machine's: kept
    assert _seat(table, users[0]).connections == 0


def test_after_a_kill_9_a_returning_player_is_counted_once(room, make_user):
    """The player's three sockets died with their process (kill -9, leases fresh); he comes
    back through another: every new socket is let in (the cap counts live sockets only) and
    his seat counts the new ones once — the dead ones are not counted beside them."""
    table, users = _full_table(room, make_user)
    for _ in range(3):
        presence.connection_open(table_id=table.pk, user=users[0], process="then:1:a@1")
    SeatLease.objects.filter(process="then:1:a@1").update(process=_dead_neighbour())  # killed
    assert _seat(table, users[0]).connections == 3
    presence.connection_open(table_id=table.pk, user=users[0], process="me:1:a@1")
    assert _seat(table, users[0]).connections == 1
    presence.connection_open(table_id=table.pk, user=users[0], process="me:1:a@1")
    presence.connection_open(table_id=table.pk, user=users[0], process="me:1:a@1")
    assert _seat(table, users[0]).connections == 3
    assert presence.leases_by_process() == {"me:1:a@1": 3}


def test_a_lease_that_missed_two_beats_does_not_count_toward_the_cap(room, make_user):
    """Leases of a process elsewhere that stopped renewing them (two beats and a second) do
    not hold the user's places at the table."""
    table, users = _full_table(room, make_user)
    for _ in range(3):
        presence.connection_open(table_id=table.pk, user=users[0], process="gone:9:z@1")
    with pytest.raises(TooManySockets):
        presence.connection_open(table_id=table.pk, user=users[0], process="me:1:a@1")
    _age("gone:9:z@1", 2 * 5 + 2)  # the default heartbeat is 5 s
    presence.connection_open(table_id=table.pk, user=users[0], process="me:1:a@1")
    assert _seat(table, users[0]).connections == 1


def test_a_lease_of_this_process_whose_socket_is_gone_does_not_count(room, make_user):
    """Three leases of this process whose sockets it no longer lists (their close never
    finished): the player's next socket here is let in at once, without waiting for a beat."""
    table, users = _full_table(room, make_user)
    keys = [presence.lease_key_new() for _ in range(3)]
    for key in keys:
        presence.connection_open(table_id=table.pk, user=users[0], lease_key=key)
    listed = {presence.lease_key_new()}
    new = next(iter(listed))
    presence.connection_open(
        table_id=table.pk, user=users[0], lease_key=new, listed=listed.__contains__
    )
    assert list(SeatLease.objects.filter(user=users[0]).values_list("key", flat=True)) == [new]
    assert _seat(table, users[0]).connections == 1
