"""Settlement by a real Celery worker on Redis: killed mid-run and restarted, it pays once."""

from __future__ import annotations

import os
import time

import pytest
from django.utils import timezone

from config.celery import app
from games.models import Hand, Table
from games.services import seating
from ledger.models import Transfer
from ledger.selectors import balance_for_user, ledger_drift

pytestmark = [pytest.mark.live, pytest.mark.slow]
HANDS = 40


def _finished_hands(make_user, n: int):
    users = [make_user(beans=100000) for _ in range(3)]
    table = seating.table_create(game="doudizhu", params={"factor": 10, "rake": 2}, seat_count=3)
    hands = []
    for i in range(n):
        hands.append(
            Hand.objects.create(
                table=table,
                number=i + 1,
                game="doudizhu",
                seed="0" * 64,
                seed_hash="1" * 64,
                params={"factor": 10, "rake": 2},
                players=[{"user_id": u.pk, "name": u.nickname, "is_bot": False} for u in users],
                state={},
                status=Hand.Status.FINISHED,
                finished_at=timezone.now(),
                result={
                    "scores": [-2, 1, 1],
                    "winners": [1, 2],
                    "lines": [],
                    "extra": {
                        "payments": [
                            {"from": 0, "to": 1, "points": 1},
                            {"from": 0, "to": 2, "points": 1},
                        ]
                    },
                },
            )
        )
    return users, table, hands


def test_worker_killed_mid_run_and_restarted_settles_every_hand_exactly_once(
    servers, make_user, settings
):
    """40 hands queued; SIGKILL the worker mid-run; restart; re-send all: each paid once."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the Celery broker under test is Redis (REDIS_URL)")
    app.conf.task_always_eager = False
    try:
        app.control.purge()
        users, table, hands = _finished_hands(make_user, HANDS)
        for hand in hands:
            app.send_task("games.hand_settle", args=[hand.pk])
        servers.worker()
        deadline = time.time() + 60
        while Hand.objects.filter(settled_at__isnull=False).count() < 3:
            assert time.time() < deadline, "worker settled nothing"
            time.sleep(0.05)
        servers.kill("worker")  # SIGKILL, mid-run
        done = Hand.objects.filter(settled_at__isnull=False).count()
        assert ledger_drift() == []  # a killed settlement leaves nothing half-written
        assert Transfer.objects.filter(idempotency_key__startswith="hand:").count() == done
        servers.worker("worker2")
        for hand in hands:  # the clock's re-send (or Celery's redelivery) of every task
            app.send_task("games.hand_settle", args=[hand.pk])
        deadline = time.time() + 90
        while Hand.objects.filter(settled_at__isnull=True).exists():
            assert time.time() < deadline, "not every hand was settled after the restart"
            time.sleep(0.1)
        assert Transfer.objects.filter(idempotency_key__startswith="hand:").count() == HANDS
        # loser pays 2·10 + 2 per hand; each winner gets 10 − 2
        assert balance_for_user(users[0]) == 100000 - HANDS * 22
        assert balance_for_user(users[1]) == balance_for_user(users[2]) == 100000 + HANDS * 8
        assert ledger_drift() == []
        del table
        assert Table.objects.count() == 1
    finally:
        app.conf.task_always_eager = True
