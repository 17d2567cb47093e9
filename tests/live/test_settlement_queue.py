"""The settlement queue through Redis faults, with real processes on a private Redis.

(a) With no worker running, the clock's re-sends leave one task per hand in the queue, not
one per re-send; a worker started later settles each hand once and the marks are gone.
(b) The worker as the shipped systemd unit runs it (its ExecStart, supervised as its
``Restart=`` / ``RestartSec=`` say) settles every hand, each once, through Redis restarts
that come back empty while it works.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Hand
from ledger.models import Transfer
from ledger.selectors import ledger_drift
from tests.live.conftest import BIN, ROOT, _child_env, _log
from tests.live.test_settlement_worker import _finished_hands

pytestmark = [pytest.mark.live, pytest.mark.slow]
UNIT = os.path.join(ROOT, "deploy", "systemd", "leyou-worker.service")


@pytest.fixture
def quick_resend(monkeypatch):
    """The clock re-sends after 1 s, and publishes its tasks to the broker (not in place)."""
    monkeypatch.setenv("LEYOU_RESETTLE_AFTER_SECONDS", "1")
    monkeypatch.setenv("CELERY_TASK_ALWAYS_EAGER", "0")


def _settled() -> int:
    return Hand.objects.filter(settled_at__isnull=False).count()


def _until(check, timeout: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():
            return time.monotonic() - start
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s")


def test_re_sends_of_one_hand_do_not_multiply_in_the_queue(
    own_redis, servers, make_user, quick_resend
):
    """Five finished hands, no worker, the clock re-sending every second for 6 s: five tasks
    wait in the queue (it used to be one more per hand per re-send). A worker then settles
    each hand once and clears every mark."""
    _users, _table, hands = _finished_hands(make_user, 5)
    Hand.objects.update(finished_at=timezone.now() - timedelta(seconds=5))
    redis = own_redis.client()
    servers.clock()
    _until(lambda: redis.llen("celery") >= 5, 15)
    time.sleep(6)
    queued = redis.llen("celery")
    print(f"\nqueued after 6 s of 1 s re-sends: {queued} tasks for 5 hands")
    assert queued == 5
    servers.worker()
    took = _until(lambda: _settled() == 5, 60)
    print(f"worker settled the 5 hands in {took:.2f} s")
    assert Transfer.objects.filter(idempotency_key__startswith="hand:").count() == 5
    _until(lambda: not redis.keys("leyou:settle-queued:*"), 5)
    assert ledger_drift() == []


class _Supervised:
    """The worker as the shipped unit runs it: its ExecStart, restarted as ``Restart=`` and
    ``RestartSec=`` say (what systemd does; there is no systemd in the test)."""

    def __init__(self) -> None:
        lines = dict(
            line.split("=", 1)
            for line in open(UNIT, encoding="utf-8").read().splitlines()
            if "=" in line and not line.startswith("#")
        )
        assert lines["Restart"] == "always", "the worker's unit must restart it"
        self.pause = float(lines["RestartSec"])
        self.argv = [
            os.path.join(BIN, os.path.basename(arg)) if arg.startswith("/srv/") else arg
            for arg in shlex.split(lines["ExecStart"])
        ]
        self.exits: list[int] = []
        self.stopping = threading.Event()
        self.proc: subprocess.Popen | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.proc = subprocess.Popen(
                self.argv,
                cwd=ROOT,
                env=_child_env({"CELERY_TASK_ALWAYS_EAGER": "0"}),
                stdout=subprocess.DEVNULL,
                stderr=_log("unit-worker"),
            )
            code = self.proc.wait()
            if self.stopping.is_set():
                return
            self.exits.append(code)
            time.sleep(self.pause)

    def stop(self) -> None:
        self.stopping.set()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.thread.join(timeout=5)


def test_the_units_worker_settles_every_hand_once_through_redis_restarts(
    own_redis, servers, make_user, quick_resend
):
    """Four rounds of: eight more hands finish, the worker (prefork, as the unit runs it)
    takes them, Redis is killed and comes back empty (and once the worker is killed with it,
    as kombu's prefork consumer sometimes dies of a dropped connection). The clock sends the
    lost tasks again; every hand is settled exactly once, the ledger balances, and the worker
    is working again within seconds of the last restart (surviving it, or restarted as its
    unit says)."""
    servers.clock()
    worker = _Supervised()
    try:
        total = 0
        for round_ in range(4):
            _finished_hands(make_user, 8)
            total += 8
            time.sleep(1.5)  # the clock sends them; the worker is in the middle of them
            own_redis.kill()
            time.sleep(1.0)
            own_redis.start()
            if round_ == 1:  # the worker dies as kombu's consumer sometimes does here
                worker.proc.kill()
        back = time.monotonic()
        took = _until(lambda: _settled() == total, 90)
        print(
            f"\n{total} hands through 4 Redis restarts: all settled {took:.2f} s after the last; "
            f"worker exits {worker.exits}"
        )
        assert time.monotonic() - back < 60
        assert -9 in worker.exits  # it died once, and its unit brought it back
    finally:
        worker.stop()
    assert Transfer.objects.filter(idempotency_key__startswith="hand:").count() == total
    assert ledger_drift() == []
