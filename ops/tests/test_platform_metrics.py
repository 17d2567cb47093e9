"""The platform's figures behind the metrics, from the real database (and Redis broker)."""

from __future__ import annotations

import os

import pytest

from lobby import services as lobby_services

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="the broker queue is Redis's")
def test_the_platform_figures_count_the_settlement_backlog_and_stale_leases(room, make_user):
    """A finished hand not settled is the backlog (with its age); a lease not renewed within
    the lease time is stale; a seat's overdue turn clock is the clock's lag."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Hand, Seat, SeatLease
    from ops import metrics

    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    hand = Hand.objects.get(table=table)
    Hand.objects.filter(pk=hand.pk).update(
        status=Hand.Status.FINISHED, finished_at=timezone.now() - timedelta(seconds=90)
    )
    SeatLease.objects.create(
        key="k-old",
        table=table,
        user=users[0],
        process="gone:1:x",
        renewed_at=timezone.now() - timedelta(minutes=5),
    )
    Seat.objects.filter(table=table, index=0).update(
        deadline=timezone.now() - timedelta(seconds=30)
    )
    figures = metrics.platform_read()
    assert figures["settlement_backlog"] == 1
    assert 89 <= figures["settlement_oldest_seconds"] < 200
    assert figures["leases_stale"] == 1 and figures["leases"] == 1
    assert 29 <= figures["clock_lag_seconds"] < 200
    assert figures["broker_queue"] is not None
    assert figures["player_beans"] + sum(figures["system_beans"].values()) == 0
