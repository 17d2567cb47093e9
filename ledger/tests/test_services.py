"""The ledger's writers on the real database: transfers, grants, relief, staff corrections."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger import services
from ledger.exceptions import InsufficientBeans, ReliefNotAvailable, UnbalancedTransfer
from ledger.models import Account, EconomySettings, Posting, Transfer
from ledger.selectors import balance_for_user, ledger_drift

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, int]:
    return Transfer.objects.count(), Posting.objects.count()


def test_balanced_transfer_moves_beans_and_records_balance_after(make_user):
    """A balanced transfer moves the beans and each posting records the balance after it."""
    alice, bob = make_user(beans=1000), make_user(beans=200)
    a, b = services.account_for_user(alice), services.account_for_user(bob)
    transfer = services.transfer_create(
        postings=[(a, -300), (b, 300)], kind="settlement", reason="test"
    )
    assert (balance_for_user(alice), balance_for_user(bob)) == (700, 500)
    legs = {p.account_id: (p.amount, p.balance_after) for p in transfer.postings.all()}
    assert legs == {a.pk: (-300, 700), b.pk: (300, 500)}
    assert ledger_drift() == []


def test_unbalanced_transfer_is_refused_and_writes_nothing(make_user):
    """Legs that do not sum to zero raise UnbalancedTransfer; no transfer, no balance change."""
    alice, bob = make_user(beans=1000), make_user(beans=0)
    a, b = services.account_for_user(alice), services.account_for_user(bob)
    before = _counts()
    with pytest.raises(UnbalancedTransfer):
        services.transfer_create(postings=[(a, -300), (b, 299)], kind="settlement")
    assert _counts() == before
    assert (balance_for_user(alice), balance_for_user(bob)) == (1000, 0)


def test_legs_on_one_account_are_merged_and_zero_legs_dropped(make_user):
    """Two legs on one account become one posting; a leg netting to zero writes no posting."""
    alice, bob, carol = make_user(beans=1000), make_user(beans=0), make_user(beans=50)
    a, b, c = (services.account_for_user(u) for u in (alice, bob, carol))
    transfer = services.transfer_create(
        postings=[(a, -100), (b, 60), (a, -50), (b, 90), (c, 0), (c, 20), (c, -20)],
        kind="settlement",
    )
    legs = sorted((p.account_id, p.amount) for p in transfer.postings.all())
    assert legs == sorted([(a.pk, -150), (b.pk, 150)])
    assert balance_for_user(carol) == 50
    assert not Posting.objects.filter(amount=0).exists()


def test_player_balance_never_goes_negative(make_user):
    """A transfer that would overdraw a player raises InsufficientBeans and changes nothing."""
    alice, bob = make_user(beans=100), make_user(beans=0)
    a, b = services.account_for_user(alice), services.account_for_user(bob)
    before = _counts()
    with pytest.raises(InsufficientBeans):
        services.transfer_create(postings=[(a, -101), (b, 101)], kind="settlement")
    assert _counts() == before
    assert (balance_for_user(alice), balance_for_user(bob)) == (100, 0)
    # exactly everything is fine: a player may reach zero
    services.transfer_create(postings=[(a, -100), (b, 100)], kind="settlement")
    assert balance_for_user(alice) == 0


def test_stale_account_object_cannot_overdraw(make_user):
    """The check uses the locked row, not the caller's possibly stale Account object."""
    alice, bob = make_user(beans=100), make_user(beans=0)
    stale = services.account_for_user(alice)
    services.staff_grant(staff=None, user=alice, amount=-90, reason="test", correction=True)
    assert stale.balance == 100  # the caller's copy is out of date
    with pytest.raises(InsufficientBeans):
        services.transfer_create(
            postings=[(stale, -50), (services.account_for_user(bob), 50)], kind="settlement"
        )
    assert balance_for_user(alice) == 10


def test_database_rejects_a_negative_player_balance_directly(make_user):
    """The CheckConstraint itself refuses a negative player balance, whoever writes it."""
    alice = make_user(beans=10)
    account = services.account_for_user(alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=account.pk).update(balance=-1)
    account.refresh_from_db()
    assert account.balance == 10
    # system accounts may be negative (the mint is minus everything granted)
    assert services.system_account(services.MINT).balance < 0


def test_idempotency_key_returns_the_same_transfer_and_writes_nothing_twice(make_user):
    """A second transfer with a used key returns the first one and moves no beans."""
    alice, bob = make_user(beans=1000), make_user(beans=0)
    a, b = services.account_for_user(alice), services.account_for_user(bob)
    first = services.transfer_create(
        postings=[(a, -300), (b, 300)], kind="settlement", idempotency_key="hand:test-1"
    )
    before = _counts()
    again = services.transfer_create(
        postings=[(a, -300), (b, 300)], kind="settlement", idempotency_key="hand:test-1"
    )
    assert again.pk == first.pk
    assert _counts() == before
    assert (balance_for_user(alice), balance_for_user(bob)) == (700, 300)
    # a different key is a different transfer
    services.transfer_create(
        postings=[(a, -300), (b, 300)], kind="settlement", idempotency_key="hand:test-2"
    )
    assert (balance_for_user(alice), balance_for_user(bob)) == (400, 600)


def test_signup_grant_is_paid_once_per_user(make_user):
    """Registration pays the operator-set grant; granting again returns the same transfer."""
    economy = EconomySettings.current()
    economy.signup_grant = 4321
    economy.save()
    user = make_user()
    assert balance_for_user(user) == 4321
    first = Transfer.objects.get(idempotency_key=f"signup:{user.pk}")
    assert first.kind == Transfer.Kind.SIGNUP
    before = _counts()
    assert services.grant_signup(user).pk == first.pk
    assert _counts() == before and balance_for_user(user) == 4321
    assert ledger_drift() == []


def test_relief_only_below_the_threshold(make_user):
    """A player at or above the relief threshold gets ReliefNotAvailable and nothing changes."""
    economy = EconomySettings.current()
    economy.relief_threshold, economy.relief_amount, economy.relief_per_day = 1000, 3000, 2
    economy.save()
    user = make_user(beans=1000)
    before = _counts()
    with pytest.raises(ReliefNotAvailable):
        services.relief_claim(user)
    assert _counts() == before and balance_for_user(user) == 1000
    services.staff_grant(staff=None, user=user, amount=-1, reason="test", correction=True)
    transfer = services.relief_claim(user)
    assert transfer.kind == Transfer.Kind.RELIEF
    assert balance_for_user(user) == 999 + 3000


def test_relief_at_most_n_times_a_day_and_again_the_next_day(make_user, monkeypatch):
    """The N-th relief of a day is the last; the next day the count starts again."""
    economy = EconomySettings.current()
    economy.relief_threshold, economy.relief_amount, economy.relief_per_day = 1000, 100, 3
    economy.save()
    user = make_user(beans=0)
    today = datetime.date(2025, 3, 1)
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: today)
    for _ in range(3):
        services.relief_claim(user)
    assert balance_for_user(user) == 300
    before = _counts()
    with pytest.raises(ReliefNotAvailable):
        services.relief_claim(user)
    assert _counts() == before and balance_for_user(user) == 300
    today = datetime.date(2025, 3, 2)
    services.relief_claim(user)
    assert balance_for_user(user) == 400
    assert Transfer.objects.filter(kind=Transfer.Kind.RELIEF).count() == 4
    assert ledger_drift() == []


def test_staff_grant_and_correction_record_reason_and_staff(make_user):
    """Staff grants and corrections are balanced transfers carrying the reason and staff user."""
    staff = make_user()
    player = make_user(beans=500)
    grant = services.staff_grant(staff=staff, user=player, amount=250, reason="活動獎勵")
    assert (grant.kind, grant.reason, grant.staff_id) == (
        Transfer.Kind.STAFF_GRANT,
        "活動獎勵",
        staff.pk,
    )
    assert sum(p.amount for p in grant.postings.all()) == 0
    correction = services.staff_grant(
        staff=staff, user=player, amount=-100, reason="誤發更正", correction=True
    )
    assert correction.kind == Transfer.Kind.STAFF_CORRECTION and correction.staff_id == staff.pk
    assert balance_for_user(player) == 650
    assert ledger_drift() == []


def test_staff_transfer_needs_a_reason_and_cannot_overdraw(make_user):
    """No reason, or a correction below zero, is refused and writes nothing."""
    player = make_user(beans=100)
    before = _counts()
    with pytest.raises(UnbalancedTransfer):
        services.staff_grant(staff=None, user=player, amount=100, reason="  ")
    with pytest.raises(InsufficientBeans):
        services.staff_grant(staff=None, user=player, amount=-101, reason="x", correction=True)
    assert _counts() == before and balance_for_user(player) == 100


def test_staff_grant_must_be_positive_and_no_staff_transfer_is_empty(make_user):
    """A grant takes nothing away (that is a correction) and a zero amount writes no transfer."""
    player = make_user(beans=100)
    before = _counts()
    with pytest.raises(UnbalancedTransfer):
        services.staff_grant(staff=None, user=player, amount=-10, reason="oops")
    for correction in (False, True):
        with pytest.raises(UnbalancedTransfer):
            services.staff_grant(
                staff=None, user=player, amount=0, reason="nothing", correction=correction
            )
    assert _counts() == before and balance_for_user(player) == 100
