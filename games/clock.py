"""The clock: sweeps stored deadlines and applies what is due through the tables service.

Turn clocks are rows (``Seat.deadline``), not timers in a socket, so they fire within about one
sweep interval, exactly once (each step re-checks under the table lock), across restarts and
with any number of clock processes.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, connection
from django.db.models import Min, Q, QuerySet
from django.db.models.functions import Mod
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import realtime, tasks
from games.decisions import DecisionPool
from games.models import Hand, Seat, Table
from games.services import dafengshou, presence, seating, tables

logger = logging.getLogger("leyou.clock")
_resent: dict[int, float] = {}
_leases_checked = -1e9
# the shortest sleep between sweeps (two deadlines a few ms apart are one sweep)
_MIN_SLEEP = 0.005


def _in_shard(rows: QuerySet, shard: tuple[int, int], field: str) -> QuerySet:
    """The rows of this clock's tables: with ``shard`` (index, count) of several clock
    processes, the tables whose id is ``index`` modulo ``count`` (each table has one clock)."""
    if shard[1] <= 1:
        return rows
    return rows.annotate(clock_shard=Mod(field, shard[1])).filter(clock_shard=shard[0])


def shard_parse(text: str | None) -> tuple[int, int]:
    """``"i/n"`` (the i-th of n clock processes, from 0) → (i, n); empty → (0, 1)."""
    if not text:
        return (0, 1)
    index, _, count = text.partition("/")
    shard = (int(index), int(count))
    if not 0 <= shard[0] < shard[1]:
        raise ValueError(f"shard {text!r}: want i/n with 0 <= i < n")
    return shard


def sweep(pool: DecisionPool | None = None, shard: tuple[int, int] = (0, 1)) -> int:
    """Run everything due now; return how many steps were taken (or handed to ``pool``).

    With a pool every due seat is handed over at once (decided in parallel, each move applied
    as its decision comes back, the fallback past the budget: ``games.decisions``); without
    one each is decided and applied here, one after another. With ``shard`` (i, n) this clock
    is one of n processes: it runs the seats and tables whose table id is i modulo n, and the
    first (i = 0) also what belongs to no table's seats (大豐收 rounds, leases, settlements).
    """
    now = timezone.now()
    steps = 0
    if pool is not None:
        steps += _seats_submit(pool, shard, now)
    else:
        due = list(
            _in_shard(Seat.objects.filter(deadline__lte=now), shard, "table_id")
            .order_by("deadline")
            .values_list("table_id", "index")[:500]
        )
        for table_id, index in due:
            try:
                steps += bool(tables.due_seat_act(table_id=table_id, seat_index=index))
            except Exception:
                logger.exception("clock: seat %s of table %s failed", index, table_id)
    for table_id in _in_shard(
        Table.objects.filter(Q(fill_deadline__lte=now) | Q(next_hand_at__lte=now)), shard, "id"
    ).values_list("pk", flat=True)[:500]:
        try:
            seating.table_tick(table_id=table_id)
            steps += 1
        except Exception:
            logger.exception("clock: table %s tick failed", table_id)
    grace = timedelta(seconds=settings.LEYOU["DISCONNECT_GRACE_SECONDS"])
    for table_id, index in _in_shard(
        Seat.objects.filter(
            connections=0, is_bot=False, user__isnull=False, disconnected_at__lte=now - grace
        ),
        shard,
        "table_id",
    ).values_list("table_id", "index")[:200]:
        try:
            steps += bool(presence.grace_expire(table_id=table_id, seat_index=index))
        except Exception:
            logger.exception("clock: grace of seat %s table %s failed", index, table_id)
    if shard[0] == 0:
        steps += _sweep_unsharded(now)
    return steps


def _seats_submit(pool: DecisionPool, shard: tuple[int, int], now) -> int:
    """Hand the pool every seat due now or within its lead (decided during the think time,
    applied when the clock runs out) that it does not hold already; return how many."""
    ahead = now + timedelta(seconds=pool.lead)
    steps = 0
    for due in tables.due_seats_read(now=ahead, limit=1000, skip=pool.busy(), shard=shard):
        steps += pool.submit(due)
    return steps


def _sweep_unsharded(now) -> int:
    """What the first clock process runs alone: what belongs to no table's seats."""
    steps = dafengshou.due_rounds_run(now)  # 大豐收: close due windows, pay stopped spins
    global _leases_checked
    if time.monotonic() - _leases_checked >= settings.LEYOU["PRESENCE_SWEEP_SECONDS"]:
        _leases_checked = time.monotonic()
        try:  # a dead process's leases: the disconnect its sockets could not make
            steps += presence.leases_expire(now)
        except Exception:
            logger.exception("clock: lease expiry failed")
    # A settlement task lost with a worker (or never sent) is sent again; it is idempotent,
    # and one still waiting in the queue is not sent twice (``tasks.settle_resend``).
    resettle = settings.LEYOU["RESETTLE_AFTER_SECONDS"]
    for hand_id in (
        Hand.objects.filter(
            settled_at__isnull=True, finished_at__lte=now - timedelta(seconds=resettle)
        )
        .exclude(status=Hand.Status.PLAYING)
        .values_list("pk", flat=True)[:100]
    ):
        if time.monotonic() - _resent.get(hand_id, -1e9) > resettle:
            _resent[hand_id] = time.monotonic()
            try:
                tasks.settle_resend(hand_id)
            except Exception:  # the broker is down: the next sweep tries again
                logger.warning("clock: re-sending the settlement of hand %s failed", hand_id)
    return steps


_last_settled_check = None


def _push_new_settlements(now) -> None:
    """Push tables whose hand was settled since the last sweep (the worker may be another
    process with no way to reach these sockets, as on the embedded default)."""
    global _last_settled_check
    since = _last_settled_check or now - timedelta(seconds=5)
    _last_settled_check = now
    for table_id, seq in Hand.objects.filter(settled_at__gt=since, settled_at__lte=now).values_list(
        "table_id", "table__seq"
    )[:500]:
        realtime.table_changed(table_id, seq)


async def run_in_server(interval: float | None = None) -> None:
    """The clock inside the ASGI server's process (the embedded default).

    With the in-memory channel layer only this process can reach its sockets, so the clock's
    moves (bots, 托管, new hands) must be made here to be pushed. The loop runs in a thread of
    its own (as ``run_forever``) with the bot decision pool, so neither a sweep nor a bot's
    search holds the consumers' database thread; the server's loop only starts it, and the
    server's normal stop ends it (``in_server_stop``) before the interpreter shuts the decision
    pool's processes down under a sweep.
    """
    threading.Thread(
        target=run_forever,
        args=(interval,),
        kwargs={"stop": _server_stop},
        name="leyou-clock",
        daemon=True,
    ).start()


_server_stop = threading.Event()


def in_server_stop() -> None:
    """Stop the clock started by ``run_in_server`` (the server process is stopping)."""
    _server_stop.set()


def _sweep_and_push(
    interval: float, pool: DecisionPool | None = None, shard: tuple[int, int] = (0, 1)
) -> float:
    """One sweep and its pushes; return how long to sleep before the next one."""
    sweep(pool, shard)
    if shard[0] == 0:
        _push_new_settlements(timezone.now())
    return next_wait(interval, ahead=pool.lead if pool is not None else 0.0, shard=shard)


def next_wait(interval: float, *, ahead: float = 0.0, shard: tuple[int, int] = (0, 1)) -> float:
    """Seconds until the next stored deadline (a seat's turn or bot think time, a table's fill
    or next hand), at most ``interval``: the clock wakes at the deadline, not at the next fixed
    poll, so a bot's move is not up to a whole interval late. A deadline already past (its step
    failed, the sweep's limit left it, or its decision is in the pool) waits for the regular
    interval, so it cannot spin the loop (a move the pool applies wakes the loop sooner).
    ``ahead``: the pool takes seats that long before their clock, so it wakes that much earlier
    for a seat's (those within it are in the pool already). ``shard``: this clock's tables."""
    return min(_seat_wait(interval, ahead=ahead, shard=shard), _table_wait(interval, shard))


def _seat_wait(interval: float, *, ahead: float, shard: tuple[int, int]) -> float:
    """``next_wait`` for the seats' clocks alone (one plain statement: the clock asks it after
    every batch of applied moves, and the ORM's compilation cost more than the query)."""
    now = timezone.now()
    sql = f"SELECT min(deadline) FROM {Seat._meta.db_table} WHERE deadline > %s"
    params: list = [connection.ops.adapt_datetimefield_value(now + timedelta(seconds=ahead))]
    if shard[1] > 1:
        sql += " AND MOD(table_id, %s) = %s"
        params += [shard[1], shard[0]]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        seat_at = _datetime_read(cursor.fetchone()[0])
    if seat_at is None:
        return interval
    return max(0.0, min(interval, (seat_at - timedelta(seconds=ahead) - now).total_seconds()))


def _datetime_read(value) -> datetime | None:
    """A datetime column read by a plain statement, as an aware datetime on every database.

    PostgreSQL's driver returns an aware datetime; SQLite keeps datetimes as text in UTC and
    its driver hands an aggregate of them (``min``) back as that text, where the ORM would
    have converted it.
    """
    if value is None or isinstance(value, datetime):
        return value
    parsed = parse_datetime(str(value))
    if parsed is None:
        raise ValueError(f"not a datetime: {value!r}")
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, UTC)


def _table_wait(interval: float, shard: tuple[int, int]) -> float:
    """``next_wait`` for the tables' deadlines alone (a fill, a next hand)."""
    now = timezone.now()
    rows = _in_shard(Table.objects.all(), shard, "id")
    wait = interval
    for at in (
        rows.filter(fill_deadline__gt=now).aggregate(m=Min("fill_deadline"))["m"],
        rows.filter(next_hand_at__gt=now).aggregate(m=Min("next_hand_at"))["m"],
    ):
        if at is not None:
            wait = min(wait, (at - now).total_seconds())
    return max(0.0, wait)


def run_forever(
    interval: float | None = None,
    shard: tuple[int, int] = (0, 1),
    *,
    stop: threading.Event | None = None,
) -> None:
    """The clock's loop: sweep, push, sleep until the next deadline (or a move applied), until
    ``stop`` is set (never, without one)."""
    interval = interval or settings.LEYOU["CLOCK_INTERVAL_SECONDS"]
    pool = DecisionPool.from_settings()
    if pool is not None:
        pool.warm()
    logger.info(
        "clock %d/%d running every %.2fs, bot decisions %s",
        shard[0],
        shard[1],
        interval,
        f"in {pool.workers} processes, budget {pool.budget:.2f}s" if pool else "serial",
    )
    try:
        run_until(stop or threading.Event(), interval, pool, shard)
    finally:
        if pool is not None:
            pool.stop()


def run_until(
    stop: threading.Event,
    interval: float,
    pool: DecisionPool | None,
    shard: tuple[int, int] = (0, 1),
) -> None:
    """The loop of ``run_forever`` on a pool it is given, until ``stop`` is set (the bench
    runs the clock this way, in a thread, for a bounded time).

    With a pool, a wake by applied moves before the next full sweep is due (at most
    ``interval`` after the last one, sooner for a table's deadline) reads only the seats: what
    those moves can have made due is the next seats' clocks (a hand's end sets its next deal
    seconds away, which the next full sweep sees in time). The ticks, the disconnect grace,
    大豐收 rounds, leases, settlements and the tables' deadlines were a dozen statements per
    wake, and the moves wake the clock up to twenty times a second per shard.
    """
    full_at = 0.0  # time.monotonic() of the next full sweep
    while not stop.is_set():
        close_old_connections()
        wait = interval
        try:
            if pool is not None and time.monotonic() < full_at:
                _seats_submit(pool, shard, timezone.now())
                wait = min(
                    full_at - time.monotonic(), _seat_wait(interval, ahead=pool.lead, shard=shard)
                )
            else:
                sweep(pool, shard)
                if shard[0] == 0:
                    _push_new_settlements(timezone.now())
                ahead = pool.lead if pool is not None else 0.0
                tables_in = _table_wait(interval, shard)
                wait = min(tables_in, _seat_wait(interval, ahead=ahead, shard=shard))
                full_at = time.monotonic() + tables_in
        except Exception:
            if stop.is_set():
                break  # the process is stopping: what failed was cut off, not a fault
            logger.exception("clock sweep failed")
        if pool is not None:
            pool.wait_changed(max(wait, _MIN_SLEEP))
        else:
            stop.wait(max(wait, _MIN_SLEEP))
