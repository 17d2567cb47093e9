"""The bean (歡樂豆) economy as a double-entry ledger.

Invariants (checked by ``manage.py ledger_verify`` and the tests):

1. Every movement is a :class:`Transfer` whose :class:`Posting` amounts sum to zero.
2. Postings and transfers are append-only; corrections are new transfers.
3. ``Account.balance`` equals the sum of the account's postings; it is updated in the same
   transaction as the postings (``ledger.services.transfer_create`` is the only writer).
4. A player's balance is never negative (a database CheckConstraint); system accounts (the mint,
   the rake 回收, escape compensation, the shop) may be.
5. Conservation: the sum of all balances is zero — beans enter through the mint, whose balance
   is minus everything ever granted.
6. A transfer with an idempotency key (e.g. ``hand:42``) is written at most once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Account(models.Model):
    """A bean account: one per player, plus named system accounts."""

    class Kind(models.TextChoices):
        PLAYER = "player", "玩家"
        SYSTEM = "system", "系統"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bean_account",
    )
    code = models.CharField(max_length=32, unique=True, null=True, blank=True)
    balance = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("帳戶")
        verbose_name_plural = _("帳戶")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="system") | Q(balance__gte=0), name="player_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=(Q(kind="player", user__isnull=False, code__isnull=True))
                | Q(kind="system", user__isnull=True, code__isnull=False),
                name="account_owner_matches_kind",
            ),
        ]

    def __str__(self) -> str:
        return self.code or f"player:{self.user_id}"


class Transfer(models.Model):
    """One balanced movement of beans."""

    class Kind(models.TextChoices):
        SIGNUP = "signup", "註冊贈送"
        RELIEF = "relief", "救濟"
        STAFF_GRANT = "staff_grant", "客服贈送"
        STAFF_CORRECTION = "staff_correction", "客服更正"
        SETTLEMENT = "settlement", "牌局結算"
        ESCAPE = "escape", "逃跑賠付"
        STAKE = "stake", "下注"
        PAYOUT = "payout", "派彩"
        PURCHASE = "purchase", "購買道具"
        CHECKIN = "checkin", "每日簽到"
        TASK = "task", "每日任務"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    reason = models.CharField(max_length=200, blank=True)
    idempotency_key = models.CharField(max_length=80, unique=True, null=True, blank=True)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("轉帳")
        verbose_name_plural = _("轉帳")

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()} {self.reason}"


class Posting(models.Model):
    """One leg of a transfer: ``amount`` beans into (positive) or out of (negative) an account."""

    transfer = models.ForeignKey(Transfer, on_delete=models.PROTECT, related_name="postings")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="postings")
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField()

    class Meta:
        verbose_name = _("分錄")
        verbose_name_plural = _("分錄")
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="posting_not_zero")]
        indexes = [models.Index(fields=["account", "id"])]

    def __str__(self) -> str:
        return f"{self.account} {self.amount:+d}"


class EconomySettings(models.Model):
    """Operator-set economy values (a single row, edited in the admin)."""

    signup_grant = models.PositiveBigIntegerField("註冊贈送", default=10000)
    relief_threshold = models.PositiveBigIntegerField("救濟門檻", default=1000)
    relief_amount = models.PositiveBigIntegerField("救濟金額", default=3000)
    relief_per_day = models.PositiveSmallIntegerField("每日救濟次數", default=2)

    class Meta:
        verbose_name = verbose_name_plural = "經濟設定"

    def __str__(self) -> str:
        return "經濟設定"

    @classmethod
    def current(cls) -> EconomySettings:
        settings_row, _ = cls.objects.get_or_create(pk=1)
        return settings_row
