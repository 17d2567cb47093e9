"""Leaderboards from settled hands: totals, competition ranks, own rank beyond the top, bad
input (issue #15 §4)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Count, F, Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.models import Standing
from games.models import HandSeat, Seat
from games.tests.test_tables_service import _full_table, _play_out
from lobby import leaderboards

pytestmark = pytest.mark.django_db

# Statements of a read: one on PostgreSQL (its own statement); through the ORM on the embedded
# default (SQLite): the top rows, every total and the viewer's row; his row and the count above
COLD = 1 if connection.vendor == "postgresql" else 3
OWN_RANKED = 1 if connection.vendor == "postgresql" else 2


def _play_hands(room, make_user, capture, n: int):
    players = []
    for _ in range(n):
        table, users = _full_table(room, make_user)
        Seat.objects.filter(table=table).update(auto=True)
        with capture(execute=True):
            _play_out(table.pk)
        Seat.objects.filter(table=table).update(user=None)  # they stand up
        players += users
    return players


def test_boards_equal_the_sums_of_the_hand_history(
    room, make_user, django_capture_on_commit_callbacks
):
    """Every board (today, week by 積分 and beans, all time) lists exactly the per-player sums
    of the settled hands, best first, with competition ranks."""
    _play_hands(room, make_user, django_capture_on_commit_callbacks, 3)
    sums = {
        row["user_id"]: row
        for row in HandSeat.objects.filter(hand__game="doudizhu")
        .values("user_id")
        .annotate(score=Sum("score"), beans=Sum("beans"), hands=Count("id"))
    }
    for period, metric in (
        ("today", "score"),
        ("week", "score"),
        ("week", "beans"),
        ("all", "score"),
    ):
        board = leaderboards.leaderboard(game="doudizhu", period=period, metric=metric)
        got = {r.user_id: (r.total, r.hands) for r in board["rows"]}
        assert got == {uid: (s[metric], s["hands"]) for uid, s in sums.items()}
        totals = [r.total for r in board["rows"]]
        assert totals == sorted(totals, reverse=True)
        for i, row in enumerate(board["rows"]):
            assert row.rank == 1 + sum(t > row.total for t in totals)
            if i:
                assert row.rank >= board["rows"][i - 1].rank


def test_own_rank_is_shown_when_not_in_the_top(make_user, monkeypatch):
    """With a top of 2, a viewer in 4th place gets his own row with rank 4; equal totals
    share a rank; a week's board ignores last week's rows."""
    today = timezone.localdate()
    week = today - timedelta(days=today.weekday())
    users = [make_user() for _ in range(5)]
    for user, score in zip(users, (50, 40, 40, 10, 5)):
        Standing.objects.create(
            user=user,
            game="doudizhu",
            period="week",
            start=week,
            score=score,
            beans=score * 10,
            hands=1,
        )
    Standing.objects.create(
        user=users[4],
        game="doudizhu",
        period="week",
        start=week - timedelta(days=7),
        score=999,
        hands=1,
    )
    monkeypatch.setattr(leaderboards, "TOP", 2)
    board = leaderboards.leaderboard(game="doudizhu", period="week", viewer_id=users[3].pk)
    assert [(r.user_id, r.rank) for r in board["rows"]] == [(users[0].pk, 1), (users[1].pk, 2)]
    assert board["mine"].rank == 4 and board["mine"].total == 10
    board = leaderboards.leaderboard(game="doudizhu", period="week", viewer_id=users[2].pk)
    assert board["mine"].rank == 2  # tied with the second: same rank
    nobody = make_user()
    assert leaderboards.leaderboard(game="doudizhu", viewer_id=nobody.pk)["mine"] is None


def test_bad_board_input_is_refused_clearly(make_user):
    """An unknown game, period or metric (or beans all time) raises BadBoard; the page answers
    400 with the message and no table."""
    for kwargs in (
        {"game": "chess"},
        {"game": "doudizhu", "period": "year"},
        {"game": "doudizhu", "metric": "luck"},
        {"game": "doudizhu", "period": "all", "metric": "beans"},
    ):
        with pytest.raises(leaderboards.BadBoard):
            leaderboards.leaderboard(**kwargs)
    client = Client()
    client.force_login(make_user())
    response = client.get(reverse("lobby:leaderboard"), {"game": "chess"})
    assert response.status_code == 400
    assert "沒有這個遊戲的排行榜" in response.content.decode()


def test_leaderboard_page_links_rows_to_profiles_and_shows_my_rank(make_user, monkeypatch):
    """The page lists the rows, each linking to the player's profile, and the viewer's rank."""
    today = timezone.localdate()
    users = [make_user() for _ in range(3)]
    for user, score in zip(users, (30, 20, 10)):
        Standing.objects.create(
            user=user, game="paohuzi", period="day", start=today, score=score, hands=2
        )
    monkeypatch.setattr(leaderboards, "TOP", 2)
    client = Client()
    client.force_login(users[2])
    html = client.get(
        reverse("lobby:leaderboard"), {"game": "paohuzi", "period": "today"}
    ).content.decode()
    assert reverse("accounts:public_profile", args=[users[0].pk]) in html
    assert "第 3 名" in html


def test_a_board_is_one_statement_then_cached_until_a_hand_settles(
    room, make_user, django_capture_on_commit_callbacks, django_assert_num_queries, monkeypatch
):
    """Cold, a board (top rows, the viewer's row and his rank) is one SQL statement; warm,
    a viewer in the top reads nothing and one outside it only his row and rank (one
    statement); a settled hand of the game changes the standings' version, so the next read
    shows the viewer's new rank at once; another game's settlement leaves this board cached."""
    players = _play_hands(room, make_user, django_capture_on_commit_callbacks, 1)
    monkeypatch.setattr(leaderboards, "TOP", len(players))  # the outsider is below the top
    outsider = make_user()
    Standing.objects.create(
        user=outsider,
        game="doudizhu",
        period="day",
        start=timezone.localdate(),
        score=-10_000,
        hands=1,
    )
    with django_assert_num_queries(COLD):
        cold = leaderboards.leaderboard(game="doudizhu", period="today", viewer_id=outsider.pk)
    assert cold["mine"].rank == len(players) + 1
    with django_assert_num_queries(0):
        warm = leaderboards.leaderboard(game="doudizhu", period="today", viewer_id=players[0].pk)
    assert warm["mine"] is not None and warm["mine"].user_id == players[0].pk
    with django_assert_num_queries(1):
        again = leaderboards.leaderboard(game="doudizhu", period="today", viewer_id=outsider.pk)
    assert again["rows"] == cold["rows"] and again["mine"] == cold["mine"]
    version = account_selectors.standings_version("doudizhu")
    account_services.standings_changed("paohuzi")
    assert account_selectors.standings_version("doudizhu") == version
    with django_assert_num_queries(0):
        leaderboards.leaderboard(game="doudizhu", period="today")
    more = _play_hands(room, make_user, django_capture_on_commit_callbacks, 1)
    assert account_selectors.standings_version("doudizhu") != version
    with django_assert_num_queries(OWN_RANKED):
        fresh = leaderboards.leaderboard(game="doudizhu", period="today", viewer_id=outsider.pk)
    assert {r.user_id for r in fresh["rows"]} <= {u.pk for u in players + more}
    assert fresh["mine"].rank == len(players) + len(more) + 1


def test_after_a_settlement_own_row_is_current_and_the_top_converges_within_the_bound(
    room,
    make_user,
    django_capture_on_commit_callbacks,
    django_assert_num_queries,
    monkeypatch,
    settings,
):
    """Right after a settlement of the game a read is one statement (the viewer's current row
    and the count above it), whether he is in the top or far below: his total and rank are
    the current ones, while the top rows are the cached ones, for at most
    LEADERBOARD_REFRESH_SECONDS; the first read after that reads the whole board again (one
    statement) and shows the new top; once read, the new version is served from the cache."""
    settings.LEYOU = {**settings.LEYOU, "LEADERBOARD_REFRESH_SECONDS": 5}
    clock = [1_000_000.0]
    monkeypatch.setattr(leaderboards, "_clock", lambda: clock[0])
    players = _play_hands(room, make_user, django_capture_on_commit_callbacks, 1)
    monkeypatch.setattr(leaderboards, "TOP", len(players))
    today = timezone.localdate()
    outsider = make_user()
    Standing.objects.create(
        user=outsider, game="doudizhu", period="day", start=today, score=-10_000, hands=1
    )
    board = {"game": "doudizhu", "period": "today"}
    with django_assert_num_queries(COLD):
        before = leaderboards.leaderboard(**board, viewer_id=outsider.pk)
    assert before["mine"].rank == len(players) + 1

    more = _play_hands(room, make_user, django_capture_on_commit_callbacks, 1)  # a settlement
    leader = players[-1]  # a player of the cached top, who now jumps far ahead
    Standing.objects.filter(user=leader, game="doudizhu", period="day", start=today).update(
        score=F("score") + 100_000
    )
    account_services.standings_changed("doudizhu")
    expected = sorted(
        Standing.objects.filter(game="doudizhu", period="day", start=today).values_list(
            "score", "user_id"
        ),
        key=lambda r: (-r[0], r[1]),
    )[: len(players)]
    clock[0] += 4.9  # within the bound
    with django_assert_num_queries(OWN_RANKED):
        stale = leaderboards.leaderboard(**board, viewer_id=outsider.pk)
    assert stale["rows"] == before["rows"]  # the cached top, as it was
    assert stale["mine"].rank == len(players) + len(more) + 1  # but his rank is current
    assert stale["mine"].total == -10_000
    with django_assert_num_queries(OWN_RANKED):
        mine = leaderboards.leaderboard(**board, viewer_id=leader.pk)["mine"]
    own = Standing.objects.get(user=leader, game="doudizhu", period="day", start=today)
    assert (mine.total, mine.rank, mine.hands) == (own.score, 1, own.hands)

    clock[0] += 0.2  # past the bound: the whole board again, once
    with django_assert_num_queries(COLD):
        after = leaderboards.leaderboard(**board, viewer_id=outsider.pk)
    assert [(r.user_id, r.total) for r in after["rows"]] == [(u, t) for t, u in expected]
    assert after["rows"][0].user_id == leader.pk
    assert after["mine"].rank == len(players) + len(more) + 1
    with django_assert_num_queries(0):
        top = leaderboards.leaderboard(**board, viewer_id=leader.pk)
    assert [(r.user_id, r.total, r.rank) for r in top["rows"]] == [
        (r.user_id, r.total, r.rank) for r in after["rows"]
    ]
    assert top["mine"].rank == 1 and top["mine"].total == own.score
