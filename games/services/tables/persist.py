"""A move's writes as plain statements: through the ORM they cost about 1.8 ms of a server's
CPU per move (query compilation; ``bench/table_load.py --micro``), like this 0.4."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils import timezone

from games.models import Hand, HandEvent, Seat, Table
from games.services.tables.clocks import deadlines_save


def event_append(
    table: Table, hand: Hand, seat: int, action: dict, *, action_id: str | None, by: str
) -> None:
    """Append the move to the event log (``HandEvent``) at the table's new seq."""
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {HandEvent._meta.db_table} "
            f"(table_id, hand_id, seq, seat, action, action_id, {ops.quote_name('by')}, "
            "created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                table.pk,
                hand.pk,
                table.seq,
                seat,
                ops.adapt_json_value(action, None),
                action_id,
                by,
                ops.adapt_datetimefield_value(timezone.now()),
            ],
        )


def move_save(
    table: Table,
    hand: Hand,
    seats: list[Seat],
    event: tuple[int, dict, str | None, str],
    *,
    seq_was: int,
) -> bool:
    """Write a move that goes on: its event (engine seat, action, action id, by), the seats'
    turn clocks, the hand's state and the table's seq; return False (nothing written) if the
    table's seq was no longer ``seq_was``.

    On PostgreSQL one statement does it all (data-modifying CTEs, each joined to the table's
    row as updated, so none writes unless the seq moved from ``seq_was`` to ``table.seq``; the
    UPDATE's row lock orders it with every other writer of the table, as ``table_lock`` does).
    A move was seven round trips before (BEGIN, lock, event, clocks, hand, table, COMMIT) and
    each one, in a loaded clock process, waits for the GIL again. Elsewhere (SQLite, whose
    writers the IMMEDIATE transaction already serialises) the statements one by one.
    """
    seat, action, action_id, by = event
    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    if connection.vendor != "postgresql":
        event_append(table, hand, seat, action, action_id=action_id, by=by)
        deadlines_save(seats)
        hand_state_and_seq_save(table, hand)
        return True
    params: list[Any] = [table.seq, table.move_seq, table.pk, seq_was]
    params += [table.pk, hand.pk, table.seq, seat, ops.adapt_json_value(action, None)]
    params += [action_id, by, now, ops.adapt_json_value(hand.state, None), hand.pk]
    clocks = ""
    if seats:
        rows = ", ".join(["(%s::bigint, %s::timestamptz, %s::bigint)"] * len(seats))
        clocks = (
            f", c AS (UPDATE {Seat._meta.db_table} s SET deadline = v.deadline, "
            "deadline_seq = v.deadline_seq FROM t, (VALUES "
            f"{rows}) AS v(id, deadline, deadline_seq) WHERE s.id = v.id)"
        )
        for row in seats:
            params += [row.pk, ops.adapt_datetimefield_value(row.deadline), row.deadline_seq]
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH t AS (UPDATE {Table._meta.db_table} SET seq = %s, move_seq = %s "
            "WHERE id = %s AND seq = %s RETURNING id), "
            f"e AS (INSERT INTO {HandEvent._meta.db_table} "
            f"(table_id, hand_id, seq, seat, action, action_id, {ops.quote_name('by')}, "
            "created_at) SELECT %s, %s, %s, %s, %s, %s, %s, %s FROM t), "
            f"h AS (UPDATE {Hand._meta.db_table} SET state = %s FROM t "
            f"WHERE {Hand._meta.db_table}.id = %s){clocks} "
            "SELECT count(*) FROM t",
            params,
        )
        return bool(cursor.fetchone()[0])


def hand_state_and_seq_save(table: Table, hand: Hand) -> None:
    """Save the hand's engine state and the table's seq (a move changes nothing else)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Hand._meta.db_table} SET state = %s WHERE id = %s",
            [connection.ops.adapt_json_value(hand.state, None), hand.pk],
        )
        cursor.execute(
            f"UPDATE {Table._meta.db_table} SET seq = %s, move_seq = %s WHERE id = %s",
            [table.seq, table.move_seq, table.pk],
        )
