"""Ledger writes. :func:`transfer_create` is the only function that writes postings or balances."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from ledger.exceptions import InsufficientBeans, ReliefNotAvailable, UnbalancedTransfer
from ledger.models import Account, EconomySettings, Transfer

MINT = "mint"  # where granted beans come from
RAKE = "rake"  # 回收
ESCAPE = "escape"  # penalties not paid to a player
SHOP = "shop"  # items bought (記牌器 …)
HOUSE = "house"  # the bank of house-banked games (大豐收)
POT = "pot"  # stakes of a hand in play (歡樂三張), paid out to the winner at its end

# The kinds of transfer, for the apps that call transfer_create (they never import the models).
TransferKind = Transfer.Kind


def account_for_user(user: Any) -> Account:
    """Return the user's bean account, creating it (balance 0) on first use."""
    account, _ = Account.objects.get_or_create(user=user, defaults={"kind": Account.Kind.PLAYER})
    return account


def system_account(code: str) -> Account:
    account, _ = Account.objects.get_or_create(code=code, defaults={"kind": Account.Kind.SYSTEM})
    return account


def transfer_create(
    *,
    postings: Iterable[tuple[Account, int]],
    kind: str,
    reason: str = "",
    idempotency_key: str | None = None,
    staff: Any = None,
) -> Transfer:
    """Write one balanced transfer and update the balances, atomically.

    ``postings`` are (account, amount) legs; legs on the same account are merged and zero legs
    dropped. Raises UnbalancedTransfer if they do not sum to zero, InsufficientBeans if a player
    would go negative. With an ``idempotency_key`` already used, returns that transfer and writes
    nothing (a retried settlement never pays twice).
    """
    merged: dict[int, int] = defaultdict(int)
    accounts: dict[int, Account] = {}
    for account, amount in postings:
        merged[account.pk] += int(amount)
        accounts[account.pk] = account
    legs = {pk: amount for pk, amount in merged.items() if amount != 0}
    if sum(legs.values()) != 0:
        raise UnbalancedTransfer(f"legs sum to {sum(legs.values())}, not zero")
    with transaction.atomic():
        if idempotency_key is not None:
            existing = Transfer.objects.filter(idempotency_key=idempotency_key).first()
            if existing is not None:
                return existing
        locked = _accounts_lock(legs)
        for pk, amount in legs.items():
            account = locked[pk]
            if account.kind == Account.Kind.PLAYER and account.balance + amount < 0:
                raise InsufficientBeans(f"{account} has {account.balance} beans, needs {-amount}")
        try:
            with transaction.atomic():
                transfer = Transfer.objects.create(
                    kind=kind, reason=reason[:200], idempotency_key=idempotency_key, staff=staff
                )
        except IntegrityError:
            # Another process wrote the same key between our check and our insert.
            return Transfer.objects.get(idempotency_key=idempotency_key)
        rows = []
        for pk in sorted(legs):
            account = locked[pk]
            account.balance += legs[pk]
            account.save(update_fields=["balance"])
            rows.append(
                transfer.postings.model(
                    transfer=transfer,
                    account=account,
                    amount=legs[pk],
                    balance_after=account.balance,
                )
            )
        transfer.postings.model.objects.bulk_create(rows)
    return transfer


def _accounts_lock(pks: Iterable[int]) -> dict[int, Account]:
    # Lock the accounts in id order, so two transfers never wait on each other in a cycle.
    return {
        account.pk: account
        for account in Account.objects.select_for_update().filter(pk__in=list(pks)).order_by("pk")
    }


def balances_lock(accounts: Iterable[Account]) -> dict[int, int]:
    """Lock the accounts for the rest of the transaction; return their balances by account id.

    For a caller that must read what players hold before it decides a transfer (a loser pays
    at most what he has): the lock is taken in ``transfer_create``'s order, so the two never
    deadlock, and the balances cannot change until the caller's transfer commits.
    """
    return {pk: account.balance for pk, account in _accounts_lock(a.pk for a in accounts).items()}


def grant_signup(user: Any) -> Transfer:
    """Give a new player the operator-set signup grant (once per user)."""
    amount = EconomySettings.current().signup_grant
    return transfer_create(
        postings=[(system_account(MINT), -amount), (account_for_user(user), amount)],
        kind=Transfer.Kind.SIGNUP,
        reason="註冊贈送",
        idempotency_key=f"signup:{user.pk}",
    )


def relief_claim(user: Any) -> Transfer:
    """Pay the daily relief (救濟) to a player below the threshold; at most N times a day.

    The balance and the day's count are read under the lock of the accounts the transfer
    writes (taken in ``transfer_create``'s order): a second claim sent at the same moment
    waits for the first to commit, then sees the paid balance and is refused. Read before the
    lock, both would see the empty balance and the second would take the day's next relief.
    """
    economy = EconomySettings.current()
    account = account_for_user(user)
    mint = system_account(MINT)
    with transaction.atomic():
        balance = balances_lock([mint, account])[account.pk]
        if balance >= economy.relief_threshold:
            raise ReliefNotAvailable(
                format_lazy(
                    gettext_lazy("救濟只給歡樂豆少於 {relief_threshold} 的玩家"),
                    relief_threshold=economy.relief_threshold,
                )
            )
        today = timezone.localdate().isoformat()
        for n in range(1, economy.relief_per_day + 1):
            key = f"relief:{user.pk}:{today}:{n}"
            if not Transfer.objects.filter(idempotency_key=key).exists():
                return transfer_create(
                    postings=[(mint, -economy.relief_amount), (account, economy.relief_amount)],
                    kind=Transfer.Kind.RELIEF,
                    reason="每日救濟",
                    idempotency_key=key,
                )
    raise ReliefNotAvailable(
        format_lazy(
            gettext_lazy("今天的救濟已領 {relief_per_day} 次"),
            relief_per_day=economy.relief_per_day,
        )
    )


def staff_grant(
    *, staff: Any, user: Any, amount: int, reason: str, correction: bool = False
) -> Transfer:
    """A staff grant (positive) or correction (either sign), recorded with reason and staff."""
    if not reason.strip():
        raise UnbalancedTransfer("a staff transfer needs a reason")
    if amount == 0 or (amount < 0 and not correction):
        # a zero amount would record an empty transfer; taking beans away is a correction
        raise UnbalancedTransfer(
            gettext_lazy("贈送須為正數；扣除請用更正") if amount else gettext_lazy("金額不能為 0")
        )
    kind = Transfer.Kind.STAFF_CORRECTION if correction else Transfer.Kind.STAFF_GRANT
    return transfer_create(
        postings=[(system_account(MINT), -amount), (account_for_user(user), amount)],
        kind=kind,
        reason=reason,
        staff=staff,
    )


def account_for_user_id(user_id: int) -> Account:
    """Like account_for_user, by id."""
    account, _ = Account.objects.get_or_create(
        user_id=user_id, defaults={"kind": Account.Kind.PLAYER}
    )
    return account


def grant_checkin(*, user_id: int, day: str, amount: int, streak: int) -> Transfer:
    """Pay a 簽到 reward from the mint; key (user, day): a doubled check-in pays once."""
    return transfer_create(
        postings=[(system_account(MINT), -amount), (account_for_user_id(user_id), amount)],
        kind=Transfer.Kind.CHECKIN,
        reason=f"每日簽到 連續第 {streak} 天",
        idempotency_key=f"checkin:{user_id}:{day}",
    )


def grant_task(*, user_id: int, day: str, task_id: int, amount: int, title: str) -> Transfer:
    """Pay a daily task's reward from the mint; key (user, day, task): paid once."""
    return transfer_create(
        postings=[(system_account(MINT), -amount), (account_for_user_id(user_id), amount)],
        kind=Transfer.Kind.TASK,
        reason=f"每日任務 {title}",
        idempotency_key=f"task:{user_id}:{day}:{task_id}",
    )
