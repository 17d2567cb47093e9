"""Presence as a lease (出席租約): who is at the table, surviving a dead server process.

Every open socket holds a ``SeatLease`` naming its server process (``PROCESS_ID``) and renewed
by that process's heartbeat (``heartbeat``: one UPDATE for the leases of the sockets the process
holds open now, and nothing else — a lease whose socket is gone, whatever became of its close,
is closed by that same beat). A seat is online
(在線) while any of its user's leases exists; ``Seat.connections`` is their count, kept here
under the table lock. When the last lease goes — the socket closed, the process gave its leases
up on SIGTERM (``process_release``), the process's heartbeat found its socket gone, another
process on the same machine found the lease's process dead, or the clock found them stale
after a ``kill -9`` (``leases_expire``) — the same disconnect is applied: 托管 at once, 逃跑
after the grace (``grace_expire``), standing up between hands, closing an empty private table.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.exceptions import TooManySockets, UnknownTable
from games.models import Seat, SeatLease, Table


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid").strip("pid:[]")
    except OSError:
        return "-"


# host:pid:random@pid-namespace — the namespace tells two containers sharing a host name apart
PROCESS_ID = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}@{_pid_namespace()}"


def process_dead(process: str) -> bool:
    """A server process on this machine (same host name and pid namespace) that no longer runs.

    Its leases are gone at once rather than when they go stale: after a ``kill -9`` the
    returning player is counted once, not twice for the lease's length. A process elsewhere
    (or a reused pid) is never called dead here; its leases wait for the clock's expiry.
    """
    if process == PROCESS_ID:
        return False
    head, _, namespace = process.partition("@")
    mine_head, _, mine_namespace = PROCESS_ID.partition("@")
    parts = head.split(":")
    if namespace != mine_namespace or len(parts) != 3 or parts[0] != mine_head.split(":")[0]:
        return False
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except (PermissionError, ValueError, OverflowError):
        return False
    return False


def _missed_beats() -> timedelta:
    """A lease not renewed for two heartbeats and a second: its process is dead or stalled (a
    stalled one finds the lease gone at its next beat and closes that socket 1012)."""
    return timedelta(seconds=2 * _conf("PRESENCE_HEARTBEAT_SECONDS") + 1)


def _conf(name: str):
    return settings.LEYOU[name]


def lease_key_new() -> str:
    return secrets.token_hex(16)


def _lease_count(table_id: int, user_id: int) -> int:
    return SeatLease.objects.filter(table_id=table_id, user_id=user_id).count()


def connection_open(
    *,
    table_id: int,
    user,
    lease_key: str | None = None,
    process: str | None = None,
    listed: Callable[[str], bool] | None = None,
) -> int | None:
    """A socket of the user opened: take a lease; back to the seat, 托管 from a disconnect ends.

    Returns the user's seat index (None: not seated). Raises UnknownTable, or TooManySockets
    when the user already holds ``SOCKETS_PER_USER_TABLE`` live sockets here (nothing changes).
    Only live sockets count: the user's leases here whose process is dead (this machine) or
    has missed two heartbeats are given up first, and so are this process's own leases whose
    socket it no longer lists (``listed``: the registry of open sockets; their close did not
    finish, and the next beat would have closed them).
    """
    process = process or PROCESS_ID
    from games.services import tables

    with transaction.atomic():
        work = tables.table_lock(table_id)  # raises UnknownTable: the socket is refused
        table = work.table
        now = timezone.now()
        rows = list(
            SeatLease.objects.filter(table_id=table_id, user_id=user.pk).values_list(
                "pk", "key", "process", "renewed_at"
            )
        )
        gone = [
            pk
            for pk, key, owner, renewed_at in rows
            if renewed_at < now - _missed_beats()
            or process_dead(owner)
            or (listed is not None and owner == process and not listed(key))
        ]
        if gone:
            SeatLease.objects.filter(pk__in=gone).delete()
        held = len(rows) - len(gone)
        if held >= _conf("SOCKETS_PER_USER_TABLE"):
            raise TooManySockets(format_lazy(_("同一牌桌最多 {held} 個連線"), held=held))
        SeatLease.objects.create(
            key=lease_key or lease_key_new(),
            table_id=table_id,
            user_id=user.pk,
            process=process,
            renewed_at=now,
        )
        seat = work.seat_find(user)
        if seat is None:
            return None
        online_now = seat.connections == 0  # the seat's 離線 mark changes for everyone
        if seat.disconnected_at is not None:
            seat.auto = False  # back from a disconnect: 托管 ends
        seat.connections = held + 1
        seat.disconnected_at = None
        seat.save()
        if online_now:
            tables.seq_bump(table)
            table.save(update_fields=["seq"])
            tables.table_notify(table)
        return seat.index


def connection_close(*, table_id: int, user, lease_key: str | None = None) -> None:
    """A socket closed: its lease goes; with none left the seat is played by 托管 (not 逃跑).

    Without ``lease_key`` (older callers) one of the user's leases at the table goes.
    """
    _close(table_id, user.pk, [lease_key] if lease_key else None)


def _close(table_id: int, user_id: int, keys: list[str] | None) -> None:
    from games.services import tables

    with transaction.atomic():
        try:
            table = tables.table_lock(table_id).table  # also drops the rows kept for a move
        except UnknownTable:
            SeatLease.objects.filter(table_id=table_id, user_id=user_id).delete()
            return
        leases = SeatLease.objects.filter(table_id=table_id, user_id=user_id)
        if keys is not None:
            leases.filter(key__in=keys).delete()
        else:
            first = leases.values_list("pk", flat=True).first()
            if first is not None:
                SeatLease.objects.filter(pk=first).delete()
        seat = table.seats.select_related("user").filter(user_id=user_id).first()
        if seat is None or seat.is_bot:
            return
        left = _lease_count(table_id, user_id)
        was_online = seat.connections > 0 or seat.disconnected_at is None
        seat.connections = left
        if left == 0 and was_online:
            now = timezone.now()
            seat.disconnected_at = now
            seat.auto = True
            if seat.deadline is not None:
                seat.deadline = min(
                    seat.deadline, now + timedelta(seconds=_conf("AUTO_PLAY_SECONDS"))
                )
            tables.seq_bump(table)
            table.save(update_fields=["seq"])
            tables.table_notify(table)
        seat.save()


def lease_renew(keys: Iterable[str], process: str | None = None) -> set[str]:
    """Renew the leases of the sockets this process holds open now (``keys``), in one UPDATE;
    return the keys whose lease still exists.

    Only those: a lease of this process whose socket is gone is not renewed, whatever became
    of its close. A key missing from the answer was expired (the process stalled past the
    lease): its socket should be closed so that its client reconnects with a new lease.
    """
    keys = list(keys)
    if not keys:
        return set()
    leases = SeatLease.objects.filter(process=process or PROCESS_ID, key__in=keys)
    if not leases.update(renewed_at=timezone.now()):
        return set()
    return set(leases.values_list("key", flat=True))


def leases_orphaned_close(
    live: Iterable[str], *, before: datetime, process: str | None = None
) -> int:
    """Close the leases of this process whose socket it no longer holds: not in ``live`` (the
    sockets open when the beat began, at ``before``) and not renewed since ``before`` (a socket
    opened during the beat took its lease after it). Their close did not finish — Redis was
    down during it, or the server killed a slow handler — so the disconnect is made here."""
    orphans = SeatLease.objects.filter(process=process or PROCESS_ID, renewed_at__lt=before)
    return _close_groups(orphans.exclude(key__in=list(live)))


def leases_of_dead_close() -> int:
    """Close the leases of server processes on this machine that no longer run."""
    dead = [
        process
        for process in SeatLease.objects.values_list("process", flat=True).distinct()
        if process_dead(process)
    ]
    return _close_groups(SeatLease.objects.filter(process__in=dead)) if dead else 0


def heartbeat(live: Iterable[str], *, before: datetime) -> set[str]:
    """A server process's beat: renew its open sockets' leases (``lease_renew``), close its
    orphaned ones (``leases_orphaned_close``) and those of dead neighbours; return the keys
    still held."""
    live = list(live)
    held = lease_renew(live)
    leases_orphaned_close(live, before=before)
    leases_of_dead_close()
    return held


def _close_groups(leases) -> int:
    groups: dict[tuple[int, int], list[str]] = {}
    for table_id, user_id, key in leases.values_list("table_id", "user_id", "key"):
        groups.setdefault((table_id, user_id), []).append(key)
    for (table_id, user_id), keys in groups.items():
        _close(table_id, user_id, keys)
    return sum(len(keys) for keys in groups.values())


def leases_expire(now=None) -> int:
    """The clock's step: leases not renewed within the lease length are closed; return how many."""
    now = now or timezone.now()
    lease = timedelta(seconds=_conf("PRESENCE_LEASE_SECONDS"))
    stale = SeatLease.objects.filter(renewed_at__lt=now - lease)
    closed = _close_groups(stale)
    # an absent player at a table that has not started stands up once a lease would have run out
    for table_id, index in Seat.objects.filter(
        table__status=Table.Status.WAITING,
        connections=0,
        is_bot=False,
        user__isnull=False,
        disconnected_at__lte=now - lease,
    ).values_list("table_id", "index")[:200]:
        closed += grace_expire(table_id=table_id, seat_index=index)
    return closed


def process_release(process: str | None = None) -> int:
    """A process stopping normally gives up all its leases (after closing its sockets 1012)."""
    return _close_groups(SeatLease.objects.filter(process=process or PROCESS_ID))


def leases_by_process() -> dict[str, int]:
    """Read for operators, metrics and tests: open leases per server process."""
    return dict(
        SeatLease.objects.values_list("process").annotate(n=Count("pk")).values_list("process", "n")
    )


def grace_expire(*, table_id: int, seat_index: int) -> bool:
    """A player disconnected for longer than the grace period during a hand escapes (逃跑);
    at a table that has not started he stands up after the lease length."""
    from games.services import tables

    with transaction.atomic():
        work = tables.table_lock(table_id)
        table = work.table
        seat = table.seats.select_related("user").filter(index=seat_index).first()
        if (
            seat is None
            or seat.user is None
            or seat.connections > 0
            or seat.disconnected_at is None
        ):
            return False
        if SeatLease.objects.filter(table_id=table_id, user_id=seat.user_id).exists():
            return False  # a socket came back (its count not yet written): not away
        limit = timedelta(seconds=_conf("DISCONNECT_GRACE_SECONDS"))
        if table.status == Table.Status.WAITING and work.hand is None:
            limit = timedelta(seconds=_conf("PRESENCE_LEASE_SECONDS"))  # nothing to play for him
        if timezone.now() - seat.disconnected_at < limit:
            return False
        tables.hand_escape(work, seat)  # as the game's table_type.escape says
        tables.seat_vacate(seat)
        seat.save()
        tables.seq_bump(table)
        tables.table_close_if_empty(work)
        table.save()
        tables.table_notify(table, lobby=True)  # a seat freed, maybe a table closed
        return True
