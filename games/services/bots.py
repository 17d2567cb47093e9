"""Bot players: ordinary users flagged ``is_bot`` with a bean account kept topped up."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef

from games.models import Seat
from ledger import services as ledger

BOT_NAMES = [
    "小白兔",
    "老頑童",
    "張三豐",
    "牌神",
    "阿福",
    "小燕子",
    "李大嘴",
    "王大錘",
    "趙小寶",
    "錢多多",
    "孫悟飯",
    "周伯通",
    "吳老二",
    "鄭小妹",
    "馮鞏",
    "陳大發",
    "楚留香",
    "韋小寶",
    "令狐沖",
    "黃蓉",
]


def bot_user_for_seat(params: dict) -> Any:
    """A bot not seated anywhere, with enough beans for the room (created when none is free)."""
    User = get_user_model()  # noqa: N806 — the user model, through auth (not accounts.models)
    seated = Seat.objects.filter(user=OuterRef("pk"))
    bot = (
        User.objects.filter(is_bot=True)
        .annotate(busy=Exists(seated))
        .filter(busy=False)
        .order_by("?")
        .first()
    )
    if bot is None:
        n = User.objects.filter(is_bot=True).count()
        name = BOT_NAMES[n % len(BOT_NAMES)] + ("" if n < len(BOT_NAMES) else str(n))
        bot = User.objects.create(
            username=f"bot{n + 1}", nickname=name, is_bot=True, avatar_seed=(n * 7919) % 9973
        )
        bot.set_unusable_password()
        bot.save()
    bot_topup(bot, params)
    return bot


def bot_topup(bot: Any, params: dict) -> None:
    """Give a bot beans from the mint so it can sit in the room (bots never run dry)."""
    account = ledger.account_for_user(bot)
    low = int(params.get("min_beans") or 0)
    high = params.get("max_beans")
    target = max(low * 3, 20000)
    if high is not None:
        target = min(target, int(high))
    if account.balance < max(low, target // 2):
        ledger.transfer_create(
            postings=[
                (ledger.system_account(ledger.MINT), -(target - account.balance)),
                (account, target - account.balance),
            ],
            kind=ledger.TransferKind.STAFF_GRANT,
            reason="機器人補充歡樂豆",
        )
