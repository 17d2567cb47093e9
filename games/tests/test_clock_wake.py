"""The clock wakes at the next stored deadline, not at its next fixed poll (issue #16 §3)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
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


class _BusyPool:
    """A stand-in for the decision pool whose applied moves wake the clock every 10 ms (as at
    hundreds of bot tables) and which holds no seat."""

    lead = 0.2

    def busy(self) -> set[tuple[int, int]]:
        return set()

    def submit(self, due: Any) -> bool:
        return False

    def wait_changed(self, timeout: float) -> None:
        time.sleep(min(timeout, 0.01))


@pytest.mark.django_db(transaction=True)
def test_wakes_by_applied_moves_read_only_the_seats(monkeypatch: Any) -> None:
    """Woken by applied moves many times a second, the clock's loop reads the due seats at
    every wake but makes its full sweep (ticks, grace, 大豐收, leases, settlements, the tables'
    deadlines) at most once per interval."""
    calls = {"full": 0, "seats": 0}
    sweep, seats_submit = clock.sweep, clock._seats_submit

    def counted_sweep(*args: Any, **kwargs: Any) -> int:
        calls["full"] += 1
        return sweep(*args, **kwargs)

    def counted_seats(*args: Any, **kwargs: Any) -> int:
        calls["seats"] += 1
        return seats_submit(*args, **kwargs)

    monkeypatch.setattr(clock, "sweep", counted_sweep)
    monkeypatch.setattr(clock, "_seats_submit", counted_seats)
    stop = threading.Event()

    def loop() -> None:
        try:
            clock.run_until(stop, 0.25, _BusyPool())  # type: ignore[arg-type]
        finally:
            connection.close()

    thread = threading.Thread(target=loop)
    thread.start()
    time.sleep(1.0)
    stop.set()
    thread.join(10)
    assert calls["seats"] >= 20, calls  # every wake read the seats
    assert calls["full"] <= 1.0 / 0.25 + 2, calls  # the rest once per interval
