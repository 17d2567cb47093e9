"""The hall in Chromium (issue #15 §3–§6): follow, invite, join by one click; the leaderboard
with one's own rank; check-in then a task's reward; the staff economy page and its CSV."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import CheckinReward, Follow, Standing, TaskDefinition, TaskProgress, User
from games.models import Seat
from ledger.selectors import balance_for_user, ledger_drift
from tests.browser.conftest import register, shot
from tests.browser.test_doudizhu_browser import make_room
from tests.live.conftest import login_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.slow]


def _as(browser, base: str, user):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies(
        [{"name": "sessionid", "value": login_cookie(user).split("=", 1)[1], "url": base}]
    )
    return context.new_page()


def test_follow_invite_and_join_by_one_click(servers, browser):
    """A follows B from B's profile, opens a private table and invites B from the table page;
    B, sitting in the lobby, sees the invitation arrive without reloading and joins with one
    click, landing in a seat at A's table; there B follows A back from A's seat."""
    room = make_room(name="好友測試場")
    base = f"http://127.0.0.1:{servers.daphne('web')}"
    page_a = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page_b = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    register(page_a, base, "hall_a")
    register(page_b, base, "hall_b")
    b = User.objects.get(username="hall_b")
    page_a.goto(f"{base}/accounts/u/{b.pk}/")
    page_a.click("#follow-button")
    page_a.wait_for_selector("#follow-button:has-text('取消關注')")
    page_a.goto(f"{base}/")
    page_a.wait_for_selector(f"#friends .friend[data-user='{b.pk}']")
    page_a.click(f".room-card[data-room='{room.pk}'] >> text=開好友房")
    page_a.wait_for_url(re.compile(r"/games/table/\d+/"))
    table_id = int(re.search(r"/games/table/(\d+)/", page_a.url).group(1))
    page_a.click(f"#hall-table-panel .invite-button[data-user='{b.pk}']", timeout=10000)
    page_a.wait_for_url(re.compile(rf"/games/table/{table_id}/"))
    assert "邀請已送出" in page_a.inner_text(".messages")
    page_b.wait_for_selector("#invitations .invitation-accept", timeout=10000)
    shot(page_b, "hall-invitation-phone")
    page_b.click("#invitations .invitation-accept")
    page_b.wait_for_url(re.compile(rf"/games/table/{table_id}/"), timeout=10000)
    assert Seat.objects.get(user=b).table_id == table_id
    # B follows A back from A's seat (the table page's hall panel)
    a = User.objects.get(username="hall_a")
    page_b.click(f"#hall-table-panel .panel-player[data-user='{a.pk}'] .seat-follow", timeout=10000)
    page_b.wait_for_url(re.compile(rf"/games/table/{table_id}/"))
    page_b.wait_for_selector(f"#hall-table-panel .panel-player[data-user='{a.pk}'] .muted")
    assert Follow.objects.filter(follower=b, followee=a).exists()


def test_leaderboard_shows_my_rank_outside_the_top_and_links_profiles(servers, browser, make_user):
    """With 100 players ahead of him this week, a player sees his own rank (第 101 名) under
    the top 100, and a row's name leads to that player's profile."""
    base = f"http://127.0.0.1:{servers.daphne('web')}"
    today = timezone.localdate()
    week = today - timedelta(days=today.weekday())
    ahead = [make_user() for _ in range(100)]
    Standing.objects.bulk_create(
        [
            Standing(user=u, game="doudizhu", period="week", start=week, score=1000 - i, hands=3)
            for i, u in enumerate(ahead)
        ]
    )
    me = make_user(name="rank_me")
    Standing.objects.create(user=me, game="doudizhu", period="week", start=week, score=-5, hands=1)
    page = _as(browser, base, me)
    page.goto(f"{base}/")
    page.click("#leaderboard-link")
    page.wait_for_selector("#leaderboard")
    assert "第 101 名" in page.inner_text("#my-rank")
    assert page.locator("table.board .board-row").count() == 100
    shot(page, "hall-leaderboard-phone")
    page.click("table.board .board-row >> nth=0 >> a")
    page.wait_for_url(re.compile(rf"/accounts/u/{ahead[0].pk}/"))
    assert str(ahead[0]) in page.inner_text("h1")


def test_checkin_then_claim_a_task(servers, browser, make_user):
    """The lobby's 簽到 pays the day-1 reward once (the button becomes the done line), and a
    finished task's 領取 pays its reward and shows 已領取; the ledger verifies."""
    CheckinReward.objects.create(day=1, beans=120)
    task = TaskDefinition.objects.create(
        code="play-one", title="玩 1 局斗地主", game="doudizhu", kind="play", target=1, reward=300
    )
    base = f"http://127.0.0.1:{servers.daphne('web')}"
    user = make_user(beans=1000)
    TaskProgress.objects.create(user=user, task=task, day=timezone.localdate(), count=1)
    page = _as(browser, base, user)
    page.goto(f"{base}/")
    page.click("#checkin-button")
    page.wait_for_selector("#checkin .checkin-done")
    assert "簽到成功" in page.inner_text(".messages")
    assert balance_for_user(user) == 1120
    page.click(".task[data-task='play-one'] .task-claim")
    page.wait_for_selector(".task[data-task='play-one'] .task-claimed")
    assert balance_for_user(user) == 1420
    assert page.locator("#checkin-button").count() == 0
    shot(page, "hall-tasks-phone")
    assert ledger_drift() == []


def test_staff_economy_page_renders_charts_and_csv(servers, browser, make_user):
    """A staff member opens the economy page from the admin index: five SVG charts drawn by
    the server, and a chart's CSV downloads with its figures."""
    base = f"http://127.0.0.1:{servers.daphne('web')}"
    staff = make_user(beans=500)
    staff.is_staff = staff.is_superuser = True
    staff.save()
    page = _as(browser, base, staff)
    page.goto(f"{base}/admin/")
    page.click(".economy-link a")
    page.wait_for_selector("#economy")
    for chart in ("hands", "players", "rake", "flow", "held"):
        assert page.locator(f"svg#chart-{chart}").count() == 1
    assert page.locator("svg#chart-held polyline.series").count() == 1
    shot(page, "hall-economy")
    with page.expect_download() as info:
        page.click("a.csv[href*='held.csv']")
    path = info.value.path()
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0] == "day,held_by_players"
    assert lines[-1] == f"{timezone.localdate().isoformat()},500"
