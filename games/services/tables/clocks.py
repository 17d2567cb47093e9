"""Turn clocks: stored deadlines on the seats to act, swept by the clock process."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import Seat
from games.services.tables.seatmap import table_seats
from games.services.tables.working import WorkingSet


def deadline_for(seat: Seat, work: WorkingSet, state: Any) -> Any:
    now = timezone.now()
    if seat.is_bot:
        return now + timedelta(seconds=settings.LEYOU["BOT_THINK_SECONDS"])
    if seat.auto or (seat.connections == 0 and seat.disconnected_at is not None):
        return now + timedelta(seconds=settings.LEYOU["AUTO_PLAY_SECONDS"])
    # the game's own clock for this moment (e.g. a short all-at-once phase), else the room's
    seconds = work.ruleset.turn_seconds(state) or work.table.params.get("turn_seconds", 20)
    return now + timedelta(seconds=seconds)


def deadlines_set(work: WorkingSet, previous: frozenset[int], actor: int | None) -> None:
    deadlines_save(deadlines_changed(work, previous, actor))


def deadlines_changed(work: WorkingSet, previous: frozenset[int], actor: int | None) -> list[Seat]:
    """Set the turn clocks of the seats to act in the working state (not saved); return the
    seats whose clock changed."""
    state, hand, table = work.state, work.hand, work.table
    assert hand is not None
    to_act = table_seats(hand, work.ruleset.to_act(state))
    changed = []
    for seat in work.seats:
        if seat.index in to_act:
            if seat.index in previous and seat.index != actor and seat.deadline is not None:
                continue  # still deciding; its clock keeps running
            seat.deadline, seat.deadline_seq = deadline_for(seat, work, state), table.seq
        elif seat.deadline is None:
            continue
        else:
            seat.deadline, seat.deadline_seq = None, None
        changed.append(seat)
    return changed


def deadlines_save(seats: list[Seat]) -> None:
    """Write the seats' turn clocks in one round trip (psycopg pipelines ``executemany``).

    ``bulk_update`` built a CASE expression per field through the ORM: 8–11 % of a loaded
    server's samples for what is one UPDATE per seat by primary key.
    """
    if not seats:
        return
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {Seat._meta.db_table} SET deadline = %s, deadline_seq = %s WHERE id = %s",
            [(adapt(seat.deadline), seat.deadline_seq, seat.pk) for seat in seats],
        )
