"""排行榜 (leaderboards): per game, by 積分 today / this week / all time, by beans this week.

Read from the rows the settlement keeps per player from each settled hand, in the hand's own
transaction (``accounts.services.hand_record``): ``accounts.Standing`` per day and per week,
``accounts.GameStat`` for all time (its score is the sum of the player's hand scores). A
board is then an index read of its top ``TOP`` rows plus the viewer's own row and one count
for his rank, whatever the size of the history. Summing ``HandSeat`` over 100,000 hands at
each lobby view measured 160–330 ms at p95 (docs/architecture.md, "Leaderboards"). Ranks are
competition ranks (equal totals share a rank). Bots are not ranked. A period starts at local
midnight (today) or local Monday midnight (this week).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import GameStat, Standing

TOP = 100
PERIODS = ("today", "week", "all")
METRICS = ("score", "beans")
GAMES = (
    "doudizhu",
    "zhajinhua",
    "paohuzi",
    "mahjong_huanle",
    "mahjong_yongzhou",
    "mahjong_yueqing",
)  # 大豐收 has no hands: no board


class BadBoard(ValueError):
    """An unknown game, period or metric (the page says so; nothing is read)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    user_id: int
    name: str
    total: int
    hands: int
    is_viewer: bool


def period_start(period: str, now: datetime | None = None) -> date | None:
    """The first local day of the period (None: all time)."""
    today = timezone.localdate(now)
    if period == "today":
        return today
    if period == "week":
        return today - timedelta(days=today.weekday())
    return None


def _board(game: str, period: str, metric: str, now: datetime | None) -> tuple[QuerySet, str]:
    if period == "all":
        rows = GameStat.objects.filter(game=game, user__is_bot=False, hands__gt=0)
        return rows, "score"
    start = period_start(period, now)
    kind = Standing.Period.DAY if period == "today" else Standing.Period.WEEK
    return Standing.objects.filter(game=game, period=kind, start=start), metric


def leaderboard(
    *,
    game: str,
    period: str = "week",
    metric: str = "score",
    viewer_id: int | None = None,
    now: datetime | None = None,
) -> dict:
    """The board's top rows and the viewer's own row (``mine``: None without a hand in it).

    Raises BadBoard for an unknown game, period or metric (beans are ranked per day and week).
    """
    if game not in GAMES:
        raise BadBoard(gettext("沒有這個遊戲的排行榜"))
    if period not in PERIODS:
        raise BadBoard(gettext("沒有這個時段"))
    if metric not in METRICS or (metric == "beans" and period == "all"):
        raise BadBoard(gettext("沒有這個排行"))
    rows, column = _board(game, period, metric, now)
    fields = ("user_id", "user__nickname", "user__username", column, "hands")
    top = list(rows.order_by(f"-{column}", "user_id").values_list(*fields)[:TOP])
    out: list[Row] = []
    rank = 0
    previous: int | None = None
    for i, (uid, nickname, username, total, hands) in enumerate(top, start=1):
        if total != previous:
            rank, previous = i, total
        out.append(
            Row(
                rank=rank,
                user_id=uid,
                name=nickname or username,
                total=total,
                hands=hands,
                is_viewer=uid == viewer_id,
            )
        )
    mine = next((r for r in out if r.is_viewer), None)
    if mine is None and viewer_id:
        own = rows.filter(user_id=viewer_id).values_list(*fields).first()
        if own is not None:
            uid, nickname, username, total, hands = own
            better = rows.filter(**{f"{column}__gt": total}).count()
            mine = Row(
                rank=better + 1,
                user_id=uid,
                name=nickname or username,
                total=total,
                hands=hands,
                is_viewer=True,
            )
    return {"game": game, "period": period, "metric": metric, "rows": out, "mine": mine}
