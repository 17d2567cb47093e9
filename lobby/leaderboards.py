"""排行榜 (leaderboards): per game, by 積分 today / this week / all time, by beans this week.

Read from the rows the settlement keeps per player from each settled hand, in the hand's own
transaction (``accounts.services.hand_record``): ``accounts.Standing`` per day and per week,
``accounts.GameStat`` for all time (its score is the sum of the player's hand scores). A
board is then an index read of its top ``TOP`` rows plus the viewer's own row and one count
for his rank, whatever the size of the history. Summing ``HandSeat`` over 100,000 hands at
each lobby view measured 160–330 ms at p95 (docs/architecture.md, "Leaderboards"). Ranks are
competition ranks (equal totals share a rank). Bots are not ranked. A period starts at local
midnight (today) or local Monday midnight (this week). After a settlement the cached top rows
are shown for at most ``LEYOU["LEADERBOARD_REFRESH_SECONDS"]``; the viewer's own row and rank
are always current (docs/architecture.md, "The hall").
"""

from __future__ import annotations

import time
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts import selectors as account_selectors
from accounts.models import GameStat, Standing, User

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


# A board's top rows stay cached this long at most, even if no settlement says they changed
# (a standings row edited by hand in the admin, say).
CACHE_SECONDS = 60


def refresh_seconds() -> float:
    """After a settlement of the game, a board's cached top rows and totals are still shown
    for at most this long since they were read (``LEYOU["LEADERBOARD_REFRESH_SECONDS"]``)."""
    return float(settings.LEYOU["LEADERBOARD_REFRESH_SECONDS"])


_clock = time.time  # wall clock shared by the processes (the tests move it)


def _board(game: str, period: str, metric: str, now: datetime | None) -> tuple[QuerySet, str]:
    """The board's rows as a queryset, and the column ranked (the bench reads its plans)."""
    if period == "all":
        rows = GameStat.objects.filter(game=game, user__is_bot=False, hands__gt=0)
        return rows, "score"
    start = period_start(period, now)
    kind = Standing.Period.DAY if period == "today" else Standing.Period.WEEK
    return Standing.objects.filter(game=game, period=kind, start=start), metric


def _board_sql(
    game: str, period: str, metric: str, now: datetime | None, alias: str = "s"
) -> tuple[str, str, list, str]:
    """The board's rows as SQL: FROM (the rows aliased ``alias``), WHERE, its parameters, and
    the column ranked."""
    if period == "all":
        bots = f"{alias}_user"  # all time: the players' GameStat rows, bots left out
        return (
            f"{GameStat._meta.db_table} {alias} JOIN {User._meta.db_table} {bots} "
            f"ON {bots}.id = {alias}.user_id AND NOT {bots}.is_bot",
            f"{alias}.game = %s AND {alias}.hands > 0",
            [game],
            "score",
        )
    kind = Standing.Period.DAY if period == "today" else Standing.Period.WEEK
    return (
        f"{Standing._meta.db_table} {alias}",
        f'{alias}.game = %s AND {alias}.period = %s AND {alias}."start" = %s',
        [game, str(kind), period_start(period, now)],
        metric,
    )


def board_statement(
    game: str, period: str, metric: str, now: datetime | None, viewer_id: int | None, top: bool
) -> tuple[str, list]:
    """The board's one statement and its parameters.

    Its rows: ``(0, user id, nickname, username, total, hands, NULL)`` for each of the top
    ``TOP`` (when ``top``); ``(1, …, NULL)`` for the viewer's own row; and (when ``top``) one
    ``(2, NULL …, totals)`` with every total of the board, descending, from which any viewer's
    rank is counted without another statement (it is cached with the top rows).
    """
    rows_from, where, params, column = _board_sql(game, period, metric, now)
    users = User._meta.db_table
    name = (
        f"JOIN LATERAL (SELECT nickname, username FROM {users} WHERE id = {{0}}.user_id) u ON true"
    )
    own = (
        f"SELECT 1, s.user_id, u.nickname, u.username, s.{column}, s.hands, NULL::bigint[] "
        f"FROM {rows_from} {name.format('s')} WHERE {where} AND s.user_id = %s"
    )
    if not top:
        return own, [*params, viewer_id or 0]
    sql = (
        f"SELECT 0, t.user_id, u.nickname, u.username, t.total, t.hands, NULL::bigint[] FROM "
        f"(SELECT s.user_id, s.{column} AS total, s.hands FROM {rows_from} WHERE {where} "
        f"ORDER BY s.{column} DESC, s.user_id LIMIT {TOP}) t {name.format('t')} "
        f"UNION ALL ({own}) UNION ALL "
        # in the index's order (no sort): descending, reversed in Python
        f"SELECT 2, NULL, NULL, NULL, NULL, NULL, array_agg(d.total) FROM "
        f"(SELECT s.{column} AS total FROM {rows_from} WHERE {where} "
        f"ORDER BY s.{column} DESC) d"
    )
    return sql, [*params, *params, viewer_id or 0, *params]


def own_statement(
    game: str, period: str, metric: str, now: datetime | None, viewer_id: int
) -> tuple[str, list]:
    """The viewer's own row and, last column, how many rows of the board are above his total
    (counted through the board's index, from his total up): ``(user id, nickname, username,
    total, hands, above)``. Read when the cached top is older than the last settlement."""
    rows_from, where, params, column = _board_sql(game, period, metric, now, alias="s")
    above_from, above_where, above_params, _ = _board_sql(game, period, metric, now, alias="a")
    users = User._meta.db_table
    sql = (
        f"SELECT s.user_id, u.nickname, u.username, s.{column}, s.hands, "
        f"(SELECT count(*) FROM {above_from} WHERE {above_where} AND a.{column} > s.{column}) "
        f"FROM {rows_from} JOIN LATERAL (SELECT nickname, username FROM {users} "
        f"WHERE id = s.user_id) u ON true WHERE {where} AND s.user_id = %s"
    )
    return sql, [*above_params, *params, viewer_id]


def _read_own_ranked(
    game: str, period: str, metric: str, now: datetime | None, viewer_id: int
) -> tuple[tuple | None, int]:
    """The viewer's current row (or None) and how many rows are above it, in one statement."""
    if connection.vendor != "postgresql":
        return _read_own_ranked_orm(game, period, metric, now, viewer_id)
    sql, args = own_statement(game, period, metric, now, viewer_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, args)
        found = cursor.fetchone()
    if found is None:
        return None, 0
    return tuple(found[:5]), int(found[5])


def _read(
    game: str, period: str, metric: str, now: datetime | None, viewer_id: int | None, top: bool
) -> tuple[list[tuple], list[int] | None, tuple | None]:
    """Run the board's statement: (top rows, every total ascending, the viewer's row); rows are
    (user id, nickname, username, total, hands); without ``top`` only the viewer's row."""
    if connection.vendor != "postgresql":
        return _read_orm(game, period, metric, now, viewer_id, top)
    sql, args = board_statement(game, period, metric, now, viewer_id, top)
    with connection.cursor() as cursor:
        cursor.execute(sql, args)
        found = cursor.fetchall()
    rows = sorted((tuple(r[1:6]) for r in found if r[0] == 0), key=lambda r: (-r[3], r[0]))
    totals = next((list(reversed(r[6] or [])) for r in found if r[0] == 2), None)
    mine = next((tuple(r[1:6]) for r in found if r[0] == 1), None)
    return rows, totals, mine


# The statements above are PostgreSQL's (LATERAL, arrays: one round trip for a board). The
# embedded default (SQLite) reads the same rows through the ORM in a few statements; both
# are run by the suite (the PostgreSQL run and the embedded-default run of ./leyou test).
_ROW = ("user_id", "user__nickname", "user__username")


def _read_orm(
    game: str, period: str, metric: str, now: datetime | None, viewer_id: int | None, top: bool
) -> tuple[list[tuple], list[int] | None, tuple | None]:
    """``_read`` for a database without PostgreSQL's statement."""
    rows, column = _board(game, period, metric, now)
    fields = (*_ROW, column, "hands")
    mine = rows.filter(user_id=viewer_id or 0).values_list(*fields).first()
    if not top:
        return [], None, mine
    best = list(rows.order_by(f"-{column}", "user_id").values_list(*fields)[:TOP])
    totals = list(rows.order_by(column).values_list(column, flat=True))
    return best, totals, mine


def _read_own_ranked_orm(
    game: str, period: str, metric: str, now: datetime | None, viewer_id: int
) -> tuple[tuple | None, int]:
    """``_read_own_ranked`` for a database without PostgreSQL's statement."""
    rows, column = _board(game, period, metric, now)
    mine = rows.filter(user_id=viewer_id).values_list(*_ROW, column, "hands").first()
    if mine is None:
        return None, 0
    return mine, rows.filter(**{f"{column}__gt": mine[3]}).count()


# This process's copy of the boards it read lately, by the same key (which names the
# standings version): a warm read then costs one cache round trip (the version) instead of two.
_local: dict[str, tuple[float, tuple]] = {}
_LOCAL_MAX = 256


def _local_get(key: str) -> tuple | None:
    entry = _local.get(key)
    if entry is None or entry[0] < time.monotonic():
        return None
    return entry[1]


def _local_put(key: str, board: tuple) -> None:
    if len(_local) >= _LOCAL_MAX:
        _local.clear()
    _local[key] = (time.monotonic() + CACHE_SECONDS, board)


def _cache_key(game: str, period: str, metric: str, now: datetime | None) -> str:
    return f"lb:{game}:{period}:{metric}:{period_start(period, now)}"


def _usable(entry: tuple | None, version: int, refresh: float) -> tuple | None:
    """A cached ``(version, read at, top, totals)`` if it is of the game's current standings
    version, or older but read less than ``refresh`` seconds ago; else None (read again)."""
    if entry is None or len(entry) != 4:
        return None
    if entry[0] == version or _clock() - entry[1] < refresh:
        return entry
    return None


def leaderboard(
    *,
    game: str,
    period: str = "week",
    metric: str = "score",
    viewer_id: int | None = None,
    now: datetime | None = None,
) -> dict:
    """The board's top rows and the viewer's own row (``mine``: None without a hand in it).

    At most one statement. Uncached: the top rows, the viewer's row and every total of the
    board (his rank is counted from those), cached per board in the shared cache with the
    game's standings version and the time read, for at most ``CACHE_SECONDS``. Cached and of
    the current version: only the viewer's row, by its unique key (none for a viewer in the
    top). Cached but a hand of the game settled since (another version), read less than
    ``refresh_seconds()`` ago: the cached top is shown as it was, and the viewer's current
    row with the count of the rows above it through the board's index (so his own row and
    rank are always current); older than that, read again as uncached. Raises BadBoard for
    an unknown game, period or metric (beans are ranked per day and week).
    """
    if game not in GAMES:
        raise BadBoard(gettext("沒有這個遊戲的排行榜"))
    if period not in PERIODS:
        raise BadBoard(gettext("沒有這個時段"))
    if metric not in METRICS or (metric == "beans" and period == "all"):
        raise BadBoard(gettext("沒有這個排行"))
    cache = caches[account_selectors.STANDINGS_CACHE]
    # the version first: an entry never claims a newer version than the rows it holds
    version = account_selectors.standings_version(game)
    key = _cache_key(game, period, metric, now)
    refresh = refresh_seconds()
    entry = _usable(_local_get(key), version, refresh)
    if entry is None:
        entry = _usable(cache.get(key), version, refresh)
        if entry is not None:
            _local_put(key, entry)
    own = None
    above: int | None = None  # rows above the viewer, counted now (the cached top is older)
    if entry is None:
        top, totals, own = _read(game, period, metric, now, viewer_id, top=True)
        entry = (version, _clock(), top, totals)
        cache.set(key, entry, timeout=CACHE_SECONDS)
        _local_put(key, entry)
    elif entry[0] == version:
        top, totals = entry[2], entry[3]
        if viewer_id and not any(r[0] == viewer_id for r in top):
            _, _, own = _read(game, period, metric, now, viewer_id, top=False)
    else:  # a hand settled since the top was read, less than `refresh` seconds ago
        top, totals = entry[2], entry[3]
        if viewer_id:
            own, above = _read_own_ranked(game, period, metric, now, viewer_id)
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
    mine = None if above is not None else next((r for r in out if r.is_viewer), None)
    if mine is None and own is not None:
        uid, nickname, username, total, hands = own
        # competition rank: 1 + how many totals of the board are above his
        if above is not None:
            better = above
        else:
            better = len(totals or ()) - bisect_right(totals or (), total)
        mine = Row(
            rank=better + 1,
            user_id=uid,
            name=nickname or username,
            total=total,
            hands=hands,
            is_viewer=True,
        )
    return {"game": game, "period": period, "metric": metric, "rows": out, "mine": mine}
