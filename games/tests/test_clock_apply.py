"""The clock's apply path (issue #16 §3): a due bot move writes from the rows the clock read,
reads them again when the table changed since, and a seat read ahead of its clock is decided
during its think time but applied only when the clock runs out (the fallback at the clock plus
the budget if the decision is slow). Real PostgreSQL, real worker processes."""

from __future__ import annotations

import os
import re
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import clock
from games.engine import registry
from games.models import HandEvent, Seat, Table
from games.services import seating, tables
from lobby import services as lobby_services
from lobby.models import Room


def _room() -> Room:
    return Room.objects.create(
        name="時鐘",
        game="doudizhu",
        variant="classic",
        seats=3,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        turn_seconds=30,
        bot_wait_seconds=0,
    )


def _table(make_user: Any) -> tuple[Table, Seat]:
    """A dealt 斗地主 table: a player in 托管 and two bots; returns it and the player's seat."""
    user = make_user(beans=100_000)
    table = lobby_services.quick_join(user=user, room_id=_room().pk)
    seating.bots_fill(table_id=table.pk)
    Seat.objects.filter(table=table, user=user).update(auto=True, connections=1)
    return table, Seat.objects.get(table=table, user=user)


def _due(table: Table, seat_index: int) -> tables.DueSeat:
    """Only this seat due now, read as the clock reads it (after a writer moved the seq)."""
    Seat.objects.filter(table=table).update(deadline=None)
    Seat.objects.filter(table=table, index=seat_index).update(deadline=timezone.now())
    Table.objects.filter(pk=table.pk).update(seq=F("seq") + 1)
    (due,) = tables.due_seats_read(now=timezone.now(), only=(table.pk, seat_index))
    return due


# The move written without the lock, in one statement, is PostgreSQL's (elsewhere the clock
# decides every move under the table's lock, as ``due_seat_apply`` says)
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the unlocked one-statement move is PostgreSQL's"
)


def _statements(captured: CaptureQueriesContext) -> list[str]:
    """The statements sent (not BEGIN / SAVEPOINT …); an ``executemany`` (logged as ``N times:
    …``, one pipelined round trip) counts once."""
    sqls = [re.sub(r"^\d+ times: ", "", q["sql"]) for q in captured.captured_queries]
    return [sql for sql in sqls if sql.split(" ", 1)[0] in ("SELECT", "INSERT", "UPDATE", "DELETE")]


@postgresql_only
@pytest.mark.django_db
def test_a_due_move_writes_from_the_rows_the_clock_read(make_user: Any) -> None:
    """A 托管 seat's decision applied on the table as the clock read it: one statement — the
    table's seq moved on from the seq of the read, the event, the turn clocks and the hand
    written by it — and no read (no lock taken, the seats and the hand not read again); the
    move is the one recorded."""
    table, seat = _table(make_user)
    due = _due(table, seat.index)
    assert due.kind == "auto" and due.rows is not None
    ruleset = registry.get(due.game)
    action = ruleset.bot_fallback_action(ruleset.state_from_json(due.state), due.engine_seat)
    with CaptureQueriesContext(connection) as captured:
        assert tables.due_seat_apply(due=due, action=action) == tables.DueApplied.APPLIED
    (statement,) = [q["sql"] for q in captured.captured_queries]
    assert statement.startswith("WITH t AS (UPDATE games_table "), statement
    assert f"AND seq = {due.seq} " in statement
    event = HandEvent.objects.filter(table=table).latest("seq")
    assert (event.seat, event.by, event.action["type"]) == (
        due.engine_seat,
        "auto",
        action["type"],
    )
    after = Table.objects.get(pk=table.pk)
    assert after.move_seq == after.seq == event.seq == due.seq + 1
    assert Seat.objects.get(pk=seat.pk).deadline_seq in (None, event.seq)


@postgresql_only
@pytest.mark.django_db(transaction=True)  # each move commits: its rows are kept on commit
def test_answers_to_one_all_at_once_question_are_applied_without_the_lock(
    make_user: Any,
) -> None:
    """Two bot seats due at once in the 開始 window, read together and decided on the same
    state: the first answer moves the hand, and the second — every move since its read being
    another seat's answer to the same question, as this process knows from the moves it made —
    is applied as ``bot-sim`` in one statement too (no lock, no read of the event log)."""
    table, _seat = _table(make_user)
    Seat.objects.filter(table=table, is_bot=True).update(deadline=timezone.now())
    Seat.objects.filter(table=table, is_bot=False).update(deadline=None)
    Table.objects.filter(pk=table.pk).update(seq=F("seq") + 1)
    first, second = tables.due_seats_read(now=timezone.now())
    ruleset = registry.get(first.game)
    state = ruleset.state_from_json(first.state)
    assert {first.engine_seat, second.engine_seat} <= set(ruleset.to_act(state))
    for due in (first, second):
        action = ruleset.bot_action(state, due.engine_seat)
        with CaptureQueriesContext(connection) as captured:
            assert tables.due_seat_apply(due=due, action=action) == tables.DueApplied.APPLIED
        (statement,) = [q["sql"] for q in captured.captured_queries]
        assert statement.startswith("WITH t AS (UPDATE games_table "), statement
    events = list(HandEvent.objects.filter(table=table).order_by("-seq")[:2])
    assert [e.by for e in events] == ["bot-sim", "bot"]
    assert {e.seat for e in events} == {first.engine_seat, second.engine_seat}


@pytest.mark.django_db(transaction=True)
def test_a_move_without_the_lock_waits_for_a_writer_and_writes_nothing_after_it(
    make_user: Any,
) -> None:
    """Another writer holds the table's lock when the clock's one-statement move comes: the
    statement waits for its commit (its row lock orders it with every writer, as the lock
    does), finds the seq moved, and writes nothing from the rows it had; the move is then
    decided under the lock on the rows as they are — here STALE, since the writer switched
    the seat's 托管 off. One writer at a time, and never a write from rows another replaced."""
    table, seat = _table(make_user)
    due = _due(table, seat.index)
    ruleset = registry.get(due.game)
    action = ruleset.bot_fallback_action(ruleset.state_from_json(due.state), due.engine_seat)
    before = HandEvent.objects.filter(table=table).count()
    holding = threading.Event()

    def writer() -> None:
        try:
            with transaction.atomic():
                tables.auto_set(table_id=table.pk, user=seat.user, on=False)
                holding.set()
                time.sleep(0.5)  # the clock's statement comes while the lock is held
        finally:
            connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    assert holding.wait(10)
    started = time.monotonic()
    outcome = tables.due_seat_apply(due=due, action=action)
    waited = time.monotonic() - started
    thread.join(10)
    assert outcome == tables.DueApplied.STALE
    assert waited >= 0.2  # it waited for the writer's commit
    assert HandEvent.objects.filter(table=table).count() == before
    assert not Seat.objects.get(pk=seat.pk).auto


@pytest.mark.django_db
def test_rows_read_before_a_change_are_read_again(make_user: Any) -> None:
    """The player switches 托管 off after the clock read his seat (a write that moves the
    table's seq), and his clock then runs out: the decision made on the read is not applied —
    the seat's row is read again under the lock and it is no longer the bot's (STALE)."""
    table, seat = _table(make_user)
    due = _due(table, seat.index)
    ruleset = registry.get(due.game)
    action = ruleset.bot_fallback_action(ruleset.state_from_json(due.state), due.engine_seat)
    tables.auto_set(table_id=table.pk, user=seat.user, on=False)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now())  # his turn's clock ran out
    before = HandEvent.objects.filter(table=table).count()
    with CaptureQueriesContext(connection) as captured:
        assert tables.due_seat_apply(due=due, action=action) == tables.DueApplied.STALE
    assert any('FROM "games_seat"' in sql for sql in _statements(captured))
    assert HandEvent.objects.filter(table=table).count() == before


def _bot_due_soon(make_user: Any) -> tuple[Table, Any, int]:
    """A table whose first bot's turn clock runs out in 0.4 s (no other seat due; the seq
    moved, as by a move): the table, that deadline and the table's count of events."""
    table, _seat = _table(make_user)
    bot = Seat.objects.filter(table=table, is_bot=True).order_by("index").first()
    assert bot is not None
    Seat.objects.filter(table=table).update(deadline=None)
    deadline = timezone.now() + timedelta(seconds=0.4)
    Seat.objects.filter(pk=bot.pk).update(deadline=deadline)
    Table.objects.filter(pk=table.pk).update(seq=F("seq") + 1)
    return table, deadline, HandEvent.objects.filter(table=table).count()


def _wait_until_idle(pool: Any, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while pool.busy() and time.monotonic() < end:
        time.sleep(0.01)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slow", [False, True], ids=["decided", "slow-fallback"])
def test_a_seat_read_ahead_moves_at_its_clock_not_before(
    make_user: Any, pool_factory: Any, slow: bool
) -> None:
    """A bot seat whose clock runs out 0.4 s from now is taken by the sweep (the pool's lead is
    0.6 s) and decided during its think time; its move is applied after the clock, never before,
    within the budget (+ slack for the machine's load). A decision slowed to 2 s (the test-only
    setting) gets the fallback, counted from the clock, not from the read."""
    pool = pool_factory(
        workers=1, apply_threads=2, lead=0.6, test_delay={"doudizhu": 2.0} if slow else {}
    )
    table, deadline, before = _bot_due_soon(make_user)
    assert clock.sweep(pool) == 1  # taken 0.4 s early
    _wait_until_idle(pool)
    (event,) = HandEvent.objects.filter(table=table)[before:]
    assert event.created_at >= deadline
    slack = 0.5 + 0.08 * os.getloadavg()[0]
    assert (event.created_at - deadline).total_seconds() <= 0.25 + slack
    if slow:
        assert event.by == "bot-fb" and pool.stats["fallback"] == 1
    else:
        assert event.by in ("bot", "bot-cap") and pool.stats["fallback"] == 0


@pytest.mark.django_db(transaction=True)
def test_the_clock_hands_a_seat_over_well_before_its_clock(
    make_user: Any, monkeypatch: Any
) -> None:
    """The clock's pool (``from_settings``) takes a seat ``BOT_DECISION_LEAD_SECONDS`` (0.5 s)
    before its clock, longer than the budget (0.2 s): at 300 tables on a loaded machine the
    clock's loop, busy with the rest of a sweep for 0.1–0.4 s, handed seats over after their
    clock had run out with the lead at the budget. A seat due in 0.4 s is taken now and its
    move still applied at its clock, not before."""
    from django.conf import settings

    from games.decisions import DecisionPool

    monkeypatch.setitem(settings.LEYOU, "BOT_DECISION_WORKERS", 1)
    pool = DecisionPool.from_settings()
    assert pool is not None
    try:
        pool.warm()
        assert pool.lead == 0.5 > pool.budget
        table, deadline, before = _bot_due_soon(make_user)
        assert clock.sweep(pool) == 1  # taken 0.4 s early (the budget's lead took nothing)
        _wait_until_idle(pool)
        (event,) = HandEvent.objects.filter(table=table)[before:]
        assert event.created_at >= deadline
    finally:
        pool.stop()


@pytest.mark.django_db
def test_clock_shards_split_the_tables(make_user: Any) -> None:
    """Two clock processes (``runclock --shard 0/2`` and ``1/2``): each reads the due seats of
    the tables whose id is its index modulo 2, so every due seat is read by exactly one; a bad
    shard is refused."""
    made = [_table(make_user)[0] for _ in range(4)]
    Seat.objects.filter(table__in=made, deadline__isnull=False).update(deadline=timezone.now())
    due = Seat.objects.filter(table__in=made, deadline__isnull=False)
    expected = set(due.values_list("table_id", "index"))
    read = [
        {(d.table_id, d.seat_index) for d in tables.due_seats_read(now=timezone.now(), shard=s)}
        for s in ((0, 2), (1, 2))
    ]
    assert read[0] | read[1] == expected and not read[0] & read[1]
    assert {t % 2 for t, _ in read[0]} == {0} and {t % 2 for t, _ in read[1]} == {1}
    assert clock.shard_parse("1/2") == (1, 2) and clock.shard_parse("") == (0, 1)
    with pytest.raises(ValueError):
        clock.shard_parse("2/2")
