"""The clock wakes at the next stored deadline, not at its next fixed poll (issue #16 §3)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import clock
from games.models import Seat, Table
from lobby import services as lobby_services

pytestmark = pytest.mark.django_db


def _table(room: Any, make_user: Any) -> Table:
    user = make_user(beans=5000)
    table = lobby_services.quick_join(user=user, room_id=room.pk)
    Seat.objects.filter(table=table).update(deadline=None)
    Table.objects.filter(pk=table.pk).update(fill_deadline=None, next_hand_at=None)
    return table


def test_without_deadlines_the_clock_sleeps_its_interval(room: Any, make_user: Any) -> None:
    """With no deadline stored anywhere the clock sleeps its whole interval."""
    _table(room, make_user)
    assert clock.next_wait(2.0) == 2.0


@pytest.mark.parametrize("field", ["seat", "fill_deadline", "next_hand_at"])
def test_the_clock_wakes_at_the_next_deadline(room: Any, make_user: Any, field: str) -> None:
    """A bot's think time (a seat's deadline), a table's fill or next hand 0.3 s away: the
    clock sleeps until then, not the 2 s of its interval."""
    table = _table(room, make_user)
    at = timezone.now() + timedelta(seconds=0.3)
    if field == "seat":
        Seat.objects.filter(table=table, index=0).update(deadline=at)
    else:
        Table.objects.filter(pk=table.pk).update(**{field: at})
    wait = clock.next_wait(2.0)
    assert 0.0 < wait <= 0.3


def test_a_deadline_already_past_does_not_spin_the_loop(room: Any, make_user: Any) -> None:
    """A due seat the sweep could not resolve is retried at the interval, not in a busy loop."""
    table = _table(room, make_user)
    Seat.objects.filter(table=table, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert clock.next_wait(2.0) == 2.0
