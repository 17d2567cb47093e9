"""Conservation over random sequences of grants and transfers (Hypothesis, real database)."""

from __future__ import annotations

import itertools

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services import user_register
from ledger import services
from ledger.exceptions import InsufficientBeans, UnbalancedTransfer
from ledger.models import Account, Posting, Transfer
from ledger.selectors import ledger_drift

pytestmark = pytest.mark.django_db

_names = itertools.count(1)
PLAYERS = 4

grant = st.tuples(st.just("grant"), st.integers(0, PLAYERS - 1), st.integers(-3000, 5000))
move = st.tuples(
    st.just("move"), st.integers(0, PLAYERS - 1), st.integers(0, PLAYERS - 1), st.integers(0, 20000)
)
settle = st.tuples(
    st.just("settle"), st.integers(0, PLAYERS - 1), st.integers(0, 8000), st.integers(0, 500)
)
bad = st.tuples(
    st.just("bad"), st.integers(0, PLAYERS - 1), st.integers(0, PLAYERS - 1), st.integers(0, 100)
)
operations = st.lists(st.one_of(grant, move, settle, bad), min_size=1, max_size=12)


class _Rollback(Exception):
    pass


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=operations)
def test_random_grants_and_transfers_conserve_beans(db, ops):
    """Whatever is granted or moved (or refused), balances match a model and sum to zero."""
    try:
        with transaction.atomic():  # each example starts from the same database
            users = [
                user_register(username=f"cons{next(_names)}", password="pw-123456")
                for _ in range(PLAYERS)
            ]
            accounts = [services.account_for_user(u) for u in users]
            model = [a.balance for a in accounts]
            rake = services.system_account(services.RAKE)
            for op in ops:
                transfers_before = Transfer.objects.count()
                try:
                    if op[0] == "grant":
                        _, i, amount = op
                        services.staff_grant(
                            staff=None, user=users[i], amount=amount, reason="prop", correction=True
                        )
                        model[i] += amount
                    elif op[0] == "move":
                        _, i, j, amount = op
                        services.transfer_create(
                            postings=[(accounts[i], -amount), (accounts[j], amount)],
                            kind="stake",
                        )
                        model[i] -= amount
                        model[j] += amount
                    elif op[0] == "settle":
                        _, loser, amount, cut = op
                        winners = [s for s in range(PLAYERS) if s != loser]
                        to_rake = min(cut, amount)
                        share, left = divmod(amount - to_rake, len(winners))
                        legs = [(accounts[loser], -amount), (rake, to_rake)]
                        legs += [(accounts[w], share) for w in winners]
                        legs.append((accounts[winners[0]], left))
                        services.transfer_create(postings=legs, kind="settlement")
                        model[loser] -= amount
                        for w in winners:
                            model[w] += share
                        model[winners[0]] += left
                    else:
                        _, i, j, amount = op
                        services.transfer_create(
                            postings=[(accounts[i], -amount), (accounts[j], amount + 1)],
                            kind="stake",
                        )
                        raise AssertionError("an unbalanced transfer was accepted")
                except InsufficientBeans:
                    assert Transfer.objects.count() == transfers_before
                except UnbalancedTransfer:
                    assert op[0] == "bad" or (op[0] == "grant" and op[2] == 0)
                    assert Transfer.objects.count() == transfers_before
                for account, expected in zip(accounts, model):
                    account.refresh_from_db()
                    assert account.balance == expected >= 0
                assert Account.objects.aggregate(s=Sum("balance"))["s"] == 0
            assert ledger_drift() == []
            assert Posting.objects.aggregate(s=Sum("amount"))["s"] in (0, None)
            raise _Rollback
    except _Rollback:
        pass
