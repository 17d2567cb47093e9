"""Every claim that pays beans, sent 20 times at once on real PostgreSQL connections.

Each claim checks its condition (below the relief threshold, not checked in today, task done and
unclaimed, 記牌器 not bought this hand) under the same lock as its transfer, so the 20 threads —
each with its own database connection, released together by a barrier — are paid once, and the
ledger verifies after. The relief goes through the real view (``POST /accounts/relief/``), as a
player's doubled clicks or a script would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.db import connection, connections  # noqa: F401  (connection: read by the skipif)
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services as account_services
from accounts.exceptions import AlreadyCheckedIn, TaskNotClaimable
from accounts.models import Checkin, CheckinReward, TaskDefinition, TaskProgress
from games.exceptions import DuplicateAction
from games.services import items
from ledger.models import EconomySettings, Transfer
from ledger.selectors import balance_for_user, ledger_drift
from lobby import services as lobby_services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "connection.vendor != 'postgresql'", reason="concurrent claims need PostgreSQL"
    ),
]

PARALLEL = 20


def _race(n: int, call: Callable[[], object]) -> list[object]:
    """Run ``call`` in n threads (one connection each) released together; what each returned
    or raised."""
    barrier = threading.Barrier(n)
    results: list[object] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        except Exception as error:  # noqa: BLE001 — the test inspects it
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a claim hung"
    return results


def test_twenty_parallel_relief_posts_pay_each_player_once(make_user):
    """Ten players at 0 beans each send 20 relief POSTs at once (two reliefs a day allowed):
    each is paid one relief, 3,000 beans, since after the first he is above the threshold."""
    economy = EconomySettings.current()
    economy.relief_threshold, economy.relief_amount, economy.relief_per_day = 1000, 3000, 2
    economy.save()
    users = [make_user(beans=0) for _ in range(10)]
    url = reverse("accounts:relief")
    paid: dict[int, int] = {}
    for user in users:
        browser = Client()
        browser.force_login(user)
        cookies = browser.cookies

        def post(cookies=cookies) -> int:
            client = Client()
            client.cookies = cookies
            return client.post(url).status_code

        statuses = _race(PARALLEL, post)
        assert statuses == [302] * PARALLEL, statuses  # each answered (a message), none failed
        paid[user.pk] = balance_for_user(user)
    assert paid == {user.pk: 3000 for user in users}, (
        f"relief paid per user: {sorted(paid.values())}"
    )
    assert Transfer.objects.filter(kind=Transfer.Kind.RELIEF).count() == len(users)
    assert ledger_drift() == []
    call_command("ledger_verify")


def test_parallel_relief_below_the_threshold_after_it_pays_at_most_the_days_count(make_user):
    """A relief too small to lift the player over the threshold may be paid again — but no more
    than the day's count, however many claims arrive together."""
    economy = EconomySettings.current()
    economy.relief_threshold, economy.relief_amount, economy.relief_per_day = 1000, 100, 3
    economy.save()
    user = make_user(beans=0)
    from ledger import services as ledger
    from ledger.exceptions import ReliefNotAvailable

    results = _race(PARALLEL, lambda: ledger.relief_claim(user))
    assert sum(isinstance(r, Transfer) for r in results) == 3
    assert sum(isinstance(r, ReliefNotAvailable) for r in results) == PARALLEL - 3
    assert balance_for_user(user) == 300
    assert ledger_drift() == []


def test_twenty_parallel_checkins_pay_once(make_user):
    """簽到 sent 20 times at once: one check-in, one reward, 19 already_checked_in."""
    CheckinReward.objects.create(day=1, beans=100)
    user = make_user(beans=0)
    results = _race(PARALLEL, lambda: account_services.checkin_claim(user=user))
    assert sum(isinstance(r, Checkin) for r in results) == 1
    assert sum(isinstance(r, AlreadyCheckedIn) for r in results) == PARALLEL - 1
    assert balance_for_user(user) == 100
    assert Transfer.objects.filter(kind=Transfer.Kind.CHECKIN).count() == 1
    call_command("ledger_verify")


def test_twenty_parallel_task_claims_pay_once(make_user):
    """A finished task claimed 20 times at once: one reward, 19 refused."""
    task = TaskDefinition.objects.create(
        code="p", title="玩 1 局", kind="play", target=1, reward=250
    )
    user = make_user(beans=0)
    TaskProgress.objects.create(user=user, task=task, day=timezone.localdate(), count=1)
    results = _race(PARALLEL, lambda: account_services.task_claim(user=user, task_id=task.pk))
    assert sum(isinstance(r, TaskProgress) for r in results) == 1
    assert sum(isinstance(r, TaskNotClaimable) for r in results) == PARALLEL - 1
    assert balance_for_user(user) == 250
    call_command("ledger_verify")


def test_twenty_parallel_counter_purchases_charge_once(room, make_user):
    """The 記牌器 bought 20 times at once by one seat: charged once, 19 duplicate_action."""
    room.extra = {"counter_price": 300}
    room.save()
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    assert table is not None
    results = _race(PARALLEL, lambda: items.counter_buy(table_id=table.pk, user=users[0]))
    assert sum(r is None for r in results) == 1, results
    assert sum(isinstance(r, DuplicateAction) for r in results) == PARALLEL - 1
    assert balance_for_user(users[0]) == 4700
    assert Transfer.objects.filter(kind=Transfer.Kind.PURCHASE).count() == 1
    call_command("ledger_verify")
