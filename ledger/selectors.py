"""Ledger reads."""

from __future__ import annotations

from django.db.models import Sum

from ledger.models import Account, Posting


def balance_for_user(user) -> int:
    account = Account.objects.filter(user=user).only("balance").first()
    return account.balance if account else 0


def balances_for_users(user_ids: list[int]) -> dict[int, int]:
    rows = Account.objects.filter(user_id__in=user_ids).values_list("user_id", "balance")
    found = dict(rows)
    return {uid: found.get(uid, 0) for uid in user_ids}


def balance_history_for_user(user, limit: int = 200) -> list[tuple]:
    """(time, balance after) for the user's latest postings, oldest first."""
    rows = (
        Posting.objects.filter(account__user=user)
        .select_related("transfer")
        .order_by("-id")[:limit]
    )
    return [(p.transfer.created_at, p.balance_after, p.transfer.get_kind_display()) for p in rows][
        ::-1
    ]


def ledger_drift() -> list[str]:
    """Every violation of the ledger invariants, as messages (empty when the ledger is sound)."""
    problems = []
    sums = dict(
        Posting.objects.values("account").annotate(s=Sum("amount")).values_list("account", "s")
    )
    for account in Account.objects.all():
        expected = sums.get(account.pk, 0) or 0
        if account.balance != expected:
            problems.append(f"{account}: balance {account.balance} ≠ postings {expected}")
        if account.kind == Account.Kind.PLAYER and account.balance < 0:
            problems.append(f"{account}: negative balance {account.balance}")
    unbalanced = Posting.objects.values("transfer").annotate(s=Sum("amount")).exclude(s=0)
    for row in unbalanced:
        problems.append(f"transfer {row['transfer']}: legs sum to {row['s']}")
    total = Account.objects.aggregate(s=Sum("balance"))["s"] or 0
    if total != 0:
        problems.append(f"sum of all balances is {total}, not 0")
    return problems
