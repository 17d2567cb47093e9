"""The economy report for operators (issue #15 §6): the figures behind each chart, read-only.

Each chart is one or two aggregate statements over the window (``days`` local days ending
today), whatever the size of the history: they group by local day (``TruncDate`` in the
site's time zone) on indexed columns (``Transfer.created_at``, ``Hand.settled_at``).

The ledger depends only on the user model; the hand counts and the rake per room read the
games' and lobby's tables through ``apps.get_model`` (read-only, no import of those apps).

* beans created: every posting out of the mint, by transfer kind (註冊贈送, 救濟, 簽到, 任務,
  客服贈送 / 更正);
* beans taken back: every posting into the rake (回收), escape (逃跑罰款) and shop (記牌器 …)
  accounts; 大豐收's house accounts (one per room, ``house:wheel:<room>``) win and lose and
  are shown apart, as their net (what players staked minus what was paid to them);
* held by players: the sum of the player accounts at the end of each day. Bots are not
  players: the beans the mint gives them (``bot_topup``) and what they hold are their own
  lines, outside the players' figures.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django.apps import apps
from django.db.models import BigIntegerField, Count, Exists, OuterRef, Q, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, TruncDate
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from ledger.models import Account, Posting, Transfer
from ledger.services import ESCAPE, HOUSE, MINT, RAKE, SHOP

TAKEN_BACK = {
    RAKE: gettext_noop("回收 (抽水)"),
    ESCAPE: gettext_noop("逃跑罰款"),
    SHOP: gettext_noop("道具 (記牌器)"),
}
# the names of the transfer kinds the mint pays out, as the report words them in the admin's
# language (the model's choices are the stored 繁體 labels)
KIND_WORDS = {
    Transfer.Kind.SIGNUP: gettext_noop("註冊贈送"),
    Transfer.Kind.RELIEF: gettext_noop("救濟"),
    Transfer.Kind.STAFF_GRANT: gettext_noop("客服贈送"),
    Transfer.Kind.STAFF_CORRECTION: gettext_noop("客服更正"),
    Transfer.Kind.CHECKIN: gettext_noop("每日簽到"),
    Transfer.Kind.TASK: gettext_noop("每日任務"),
}
# the house accounts of house-banked games: the shared one and 大豐收's, one per room
HOUSE_PREFIX = f"{HOUSE}:"


def window(days: int, today: date | None = None) -> tuple[list[date], datetime]:
    """The window's local days (oldest first) and its first instant."""
    today = today or timezone.localdate()
    first = today - timedelta(days=days - 1)
    since = timezone.make_aware(datetime.combine(first, time.min))
    return [first + timedelta(days=i) for i in range(days)], since


def hands_per_day(days: list[date], since: datetime) -> dict[str, dict[date, int]]:
    """Settled hands per local day per game (one statement)."""
    hand = apps.get_model("games", "Hand")
    rows = (
        hand.objects.filter(settled_at__gte=since)
        .annotate(day=TruncDate("settled_at"))
        .values("day", "game")
        .annotate(n=Count("id"))
    )
    out: dict[str, dict[date, int]] = {}
    for row in rows:
        out.setdefault(row["game"], dict.fromkeys(days, 0))[row["day"]] = row["n"]
    return dict(sorted(out.items()))


def players_per_day(days: list[date], since: datetime) -> dict[date, int]:
    """Players (not bots) dealt into a settled hand, per local day (one statement).

    Read from the per-day standings the settlement keeps (``accounts.Standing``, one row per
    player, game and day; bots have none) rather than the seat rows of every hand: 2 ms
    instead of 0.9 s for 30 days of 100,000 hands."""
    standing = apps.get_model("accounts", "Standing")
    rows = (
        standing.objects.filter(period="day", start__gte=days[0], start__lte=days[-1])
        .values("start")
        .annotate(n=Count("user_id", distinct=True))
    )
    out = dict.fromkeys(days, 0)
    for row in rows:
        out[row["start"]] = row["n"]
    return out


def rake_per_room(since: datetime) -> list[dict[str, Any]]:
    """回收 taken per room over the window, largest first (one statement, one for names)."""
    hand = apps.get_model("games", "Hand")
    rows = (
        hand.objects.filter(settled_at__gte=since)
        .values("table__room_id")
        .annotate(
            rake=Sum(Cast(KeyTextTransform("rake", "result"), BigIntegerField())), hands=Count("id")
        )
        .order_by("-rake")
    )
    rows = [r for r in rows if r["rake"]]
    room = apps.get_model("lobby", "Room")
    names = dict(
        room.objects.filter(pk__in=[r["table__room_id"] for r in rows]).values_list("pk", "name")
    )
    return [
        {
            "room_id": r["table__room_id"],
            "name": names.get(r["table__room_id"], "私人桌 / 已刪除"),
            "rake": int(r["rake"]),
            "hands": r["hands"],
        }
        for r in rows
    ]


def _to_bot() -> Exists:
    """Whether a posting's transfer credits or debits a bot's account."""
    return Exists(Posting.objects.filter(transfer=OuterRef("transfer"), account__user__is_bot=True))


def beans_flow(days: list[date], since: datetime) -> dict[str, Any]:
    """Beans created (out of the mint, by kind; what went to bots apart) against beans taken
    back, per day (one statement), and the house accounts' net (大豐收)."""
    codes = [MINT, HOUSE, *TAKEN_BACK]
    rows = (
        Posting.objects.filter(
            Q(account__code__in=codes) | Q(account__code__startswith=HOUSE_PREFIX),
            transfer__created_at__gte=since,
        )
        .annotate(day=TruncDate("transfer__created_at"), bot=_to_bot())
        .values("day", "account__code", "transfer__kind", "bot")
        .annotate(s=Sum("amount"))
    )
    kinds = dict(Transfer.Kind.choices)
    created: dict[str, dict[date, int]] = {}
    taken: dict[str, dict[date, int]] = {}
    house = dict.fromkeys(days, 0)
    bots = dict.fromkeys(days, 0)
    for row in rows:
        code, day, amount = row["account__code"], row["day"], int(row["s"])
        if code == MINT and row["bot"]:
            bots[day] += -amount
        elif code == MINT:
            kind = row["transfer__kind"]
            label = gettext(KIND_WORDS[kind]) if kind in KIND_WORDS else str(kinds.get(kind, kind))
            created.setdefault(label, dict.fromkeys(days, 0))[day] += -amount
        elif code == HOUSE or code.startswith(HOUSE_PREFIX):
            house[day] += amount
        else:
            taken.setdefault(gettext(TAKEN_BACK[code]), dict.fromkeys(days, 0))[day] += amount
    created_total = {d: sum(series[d] for series in created.values()) for d in days}
    taken_total = {d: sum(series[d] for series in taken.values()) for d in days}
    return {
        "created": created,
        "taken": taken,
        "created_total": created_total,
        "taken_total": taken_total,
        "house": house,
        "bots": bots,
    }


def _held(days: list[date], since: datetime, who: Q) -> dict[date, int]:
    """Beans held by the accounts ``who`` at the end of each day (two statements)."""
    before = (
        Posting.objects.filter(who, transfer__created_at__lt=since).aggregate(s=Sum("amount"))["s"]
        or 0
    )
    rows = (
        Posting.objects.filter(who, transfer__created_at__gte=since)
        .annotate(day=TruncDate("transfer__created_at"))
        .values("day")
        .annotate(s=Sum("amount"))
    )
    moved = {row["day"]: int(row["s"]) for row in rows}
    out, running = {}, int(before)
    for d in days:
        running += moved.get(d, 0)
        out[d] = running
    return out


def players_hold(days: list[date], since: datetime) -> dict[date, int]:
    """Beans held by all players (not bots) at the end of each day (two statements)."""
    return _held(days, since, Q(account__kind=Account.Kind.PLAYER, account__user__is_bot=False))


def bots_hold(days: list[date], since: datetime) -> dict[date, int]:
    """Beans held by the bots at the end of each day (two statements)."""
    return _held(days, since, Q(account__kind=Account.Kind.PLAYER, account__user__is_bot=True))


def economy_report(days: int = 30, today: date | None = None) -> dict[str, Any]:
    """Every chart's figures for the window."""
    day_list, since = window(days, today)
    return {
        "days": day_list,
        "hands": hands_per_day(day_list, since),
        "players": players_per_day(day_list, since),
        "rake": rake_per_room(since),
        "flow": beans_flow(day_list, since),
        "held": players_hold(day_list, since),
        "bots_held": bots_hold(day_list, since),
    }


def csv_rows(report: dict[str, Any], chart: str) -> list[list[object]]:
    """The figures behind one chart as CSV rows (a header first). Raises KeyError."""
    days: list[date] = report["days"]
    if chart == "hands":
        games = list(report["hands"])
        return [["day", *games]] + [
            [d.isoformat(), *(report["hands"][g][d] for g in games)] for d in days
        ]
    if chart == "players":
        return [["day", "players"]] + [[d.isoformat(), report["players"][d]] for d in days]
    if chart == "rake":
        return [["room_id", "room", "hands", "rake"]] + [
            [r["room_id"], r["name"], r["hands"], r["rake"]] for r in report["rake"]
        ]
    if chart == "flow":
        flow = report["flow"]
        created, taken = list(flow["created"]), list(flow["taken"])
        header = [
            "day",
            *(f"created:{k}" for k in created),
            *(f"taken:{k}" for k in taken),
            "created_total",
            "taken_total",
            "house_net",
            "created_for_bots",
        ]
        return [header] + [
            [
                d.isoformat(),
                *(flow["created"][k][d] for k in created),
                *(flow["taken"][k][d] for k in taken),
                flow["created_total"][d],
                flow["taken_total"][d],
                flow["house"][d],
                flow["bots"][d],
            ]
            for d in days
        ]
    if chart == "held":
        return [["day", "held_by_players", "held_by_bots"]] + [
            [d.isoformat(), report["held"][d], report["bots_held"][d]] for d in days
        ]
    raise KeyError(chart)


CHARTS = ("hands", "players", "rake", "flow", "held")
