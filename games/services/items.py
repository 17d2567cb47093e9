"""Items bought at the table: the 記牌器 (card counter), once per seat and hand."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.exceptions import BeansOutOfRange, DuplicateAction, NoHand, SeatUnavailable
from games.services import tables


def counter_buy(*, table_id: int, user) -> None:
    """Buy the 記牌器 for this hand through the ledger (once per seat and hand)."""
    from ledger import services as ledger
    from ledger.exceptions import InsufficientBeans

    with transaction.atomic():
        work = tables.table_lock(table_id)
        table, seat, hand = work.table, work.seat_get(user), work.hand
        if hand is None:
            raise NoHand(_("現在沒有進行中的牌局"))
        price = int(hand.params.get("counter_price") or 0)
        if price <= 0:
            raise SeatUnavailable(_("本場記牌器免費"), code="not_for_sale")
        if seat.index in hand.counter_seats:
            raise DuplicateAction(_("這一局已經買過記牌器了"))
        try:
            ledger.transfer_create(
                postings=[
                    (ledger.account_for_user(user), -price),
                    (ledger.system_account(ledger.SHOP), price),
                ],
                kind=ledger.TransferKind.PURCHASE,
                reason=f"記牌器 牌局 #{hand.pk}",
                idempotency_key=f"counter:{hand.pk}:{seat.index}",
            )
        except InsufficientBeans:
            raise BeansOutOfRange(
                format_lazy(_("歡樂豆不足，記牌器要 {price} 豆"), price=price)
            ) from None
        hand.counter_seats = [*hand.counter_seats, seat.index]
        hand.save(update_fields=["counter_seats"])
        tables.seq_bump(table)
        table.save(update_fields=["seq"])
        tables.table_notify(table)
