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
    # the players' holdings and, on their own line, the bots'
    assert page.locator("svg#chart-held polyline.series").count() == 2
    shot(page, "hall-economy")
    with page.expect_download() as info:
        page.click("a.csv[href*='held.csv']")
    path = info.value.path()
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0] == "day,held_by_players,held_by_bots"
    assert lines[-1] == f"{timezone.localdate().isoformat()},500,0"


def _watch_room(name: str = "觀戰大廳場"):
    return make_room(name=name, turn_seconds=600, bot_wait_seconds=0)


def test_watch_list_is_live_and_a_player_turns_watching_off_on_his_profile(
    servers, browser, make_user
):
    """A watcher's lobby, never reloaded, lists a public table the moment it starts, shows
    "1 人觀戰" once he opens it, and its 觀戰 link opens the spectator view; back in the lobby,
    the seated player turns 允許觀戰 off on his profile page: the table leaves the watcher's
    list at once (no reload) and the watcher's page is refused with the reason."""
    from games.services import seating

    room = _watch_room()
    base = f"http://127.0.0.1:{servers.daphne('web', 8122)}"
    player, watcher = make_user(beans=5000, name="watch_p"), make_user(beans=5000, name="watch_w")
    lobby = _as(browser, base, watcher)
    lobby.goto(f"{base}/")
    lobby.wait_for_selector("#watch-list .watch-none")
    lobby.wait_for_timeout(500)  # the lobby socket is open
    from lobby import services as lobby_services

    table = lobby_services.quick_join(user=player, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    row = f"#watch-list .watch-table[data-table='{table.pk}']"
    lobby.wait_for_selector(row, timeout=10000)
    assert "0 人觀戰" in lobby.inner_text(row) and "watch_p" in lobby.inner_text(row)
    spectator = _as(browser, base, watcher)
    spectator.goto(f"{base}/")
    spectator.click(f"{row} .watch-link")
    spectator.wait_for_url(re.compile(rf"/games/table/{table.pk}/"))
    spectator.wait_for_selector("#board", timeout=10000)
    lobby.wait_for_selector(f"{row}[data-watchers='1']", timeout=10000)
    assert "1 人觀戰" in lobby.inner_text(row)
    shot(lobby, "hall-watch-list-phone")

    own = _as(browser, base, player)
    own.goto(f"{base}/accounts/profile/")
    assert own.locator("#watching-form input[value='1']").is_checked()
    own.check("#watching-form input[value='0']")
    own.click("#watching-save")
    own.wait_for_url(f"{base}/accounts/profile/")
    assert "已關閉觀戰" in own.inner_text(".messages")
    assert own.locator("#watching-form input[value='0']").is_checked()
    shot(own, "hall-profile-privacy-phone")
    lobby.wait_for_selector(row, state="detached", timeout=10000)
    spectator.wait_for_selector("#conn.down", timeout=10000)
    response = spectator.goto(f"{base}/games/table/{table.pk}/")
    assert response is not None and response.status == 403
    assert "這桌有玩家不允許觀戰" in spectator.inner_text("#watch-refused")
    # and the lobby shows his table again when he allows it
    own.check("#watching-form input[value='1']")
    own.click("#watching-save")
    lobby.wait_for_selector(row, timeout=10000)


AUDIT_SIZES = ((390, 844), (1280, 800))


def _unnamed(html: str) -> str:
    """The page without the players' names (bots are named in Chinese; a name is no string to
    translate)."""
    for name in User.objects.exclude(nickname="").values_list("nickname", flat=True):
        html = html.replace(name, "NAME")
    return html


AUDIT_LANGUAGES = ("zh-hant", "zh-hans", "en")

# what the page shows that does not fit: the page wider than the window, an element sticking
# out of it, or text clipped by a box that hides its overflow (without a scroller of its own)
_LAYOUT_JS = """() => {
  const w = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > w + 1)
    out.push('page ' + document.documentElement.scrollWidth + ' > ' + w);
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className.trim()
      ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  for (const e of document.querySelectorAll('main *, header *, nav *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden' || s.position === 'fixed') continue;
    let scrolled = false;
    for (let p = e.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') { scrolled = true; break; }
    }
    if (!scrolled && r.right > w + 1)
      out.push(name(e) + ' right ' + Math.round(r.right) + ' > ' + w);
    if (['hidden', 'clip'].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1 &&
        e.innerText && e.innerText.trim())
      out.push(name(e) + ' clips ' + e.scrollWidth + ' > ' + e.clientWidth);
  }
  return out.slice(0, 20);
}"""

# option texts a player reads in a select (the language switch names each language in itself)
_OPTIONS_JS = """() => Array.from(document.querySelectorAll('select:not([name=language]) option'))
  .map(o => o.textContent.trim())"""


def test_every_hall_page_fits_and_is_translated_at_phone_and_desktop_sizes(
    servers, browser, make_user
):
    """The lobby (rooms, invitations, check-in, tasks, friends with where each is, the live
    watch list), the profile, another player's page, the leaderboard and the spectator view, at
    390×844 and 1280×800 in 繁體中文, 简体中文 and English: the page is no wider than the
    window, no element sticks out or is clipped, no string is left untranslated (the checker of
    tests/test_i18n_pages.py, plus the options of the page's selects), also after the lobby
    socket pushed its lists in the player's language. Screenshots: var/shots/hall-audit-*."""
    from accounts import services as account_services
    from accounts.models import Invitation
    from games.services import seating
    from lobby import services as lobby_services
    from tests.test_i18n_pages import problems

    room = _watch_room("Audit room")  # operators' words (rooms, tasks) are ASCII here
    make_room(name="Beginners", factor=10)
    base = f"http://127.0.0.1:{servers.daphne('web', 8123)}"
    me = make_user(beans=5000, name="audit_me")
    friends = [make_user(beans=5000, name=f"audit_friend_{i}") for i in range(3)]
    for friend in friends:
        account_services.follow_create(user=me, other_id=friend.pk)
        account_services.follow_create(user=friend, other_id=me.pk)
    account_services.privacy_set(user=friends[2], presence="nobody")
    table = lobby_services.quick_join(user=friends[0], room_id=room.pk)
    seating.bots_fill(table_id=table.pk)  # a running public table: the watch list has a row
    owner = friends[1]
    lobby_services.private_create(user=owner, room_id=room.pk)
    Invitation.objects.create(
        sender=owner, recipient=me, table_id=Seat.objects.get(user=owner).table_id
    )
    CheckinReward.objects.create(day=1, beans=120)
    TaskDefinition.objects.create(
        code="audit-play", title="Play 3", game="doudizhu", kind="play", target=3, reward=300
    )
    today = timezone.localdate()
    week = today - timedelta(days=today.weekday())
    Standing.objects.bulk_create(
        [
            Standing(user=u, game="doudizhu", period="week", start=week, score=100 - i, hands=4)
            for i, u in enumerate([me, *friends])
        ]
    )
    pages = {
        "lobby": "/",
        "profile": "/accounts/profile/",
        "public-profile": f"/accounts/u/{friends[0].pk}/",
        "leaderboard": "/leaderboard/",
        "watch": f"/games/table/{table.pk}/",
    }
    failures: list[str] = []
    for language in AUDIT_LANGUAGES:
        User.objects.filter(pk=me.pk).update(language=language)
        for width, height in AUDIT_SIZES:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies(
                [{"name": "sessionid", "value": login_cookie(me).split("=", 1)[1], "url": base}]
            )
            page = context.new_page()
            for label, url in pages.items():
                response = page.goto(f"{base}{url}")
                where = f"{label} {language} {width}×{height}"
                if response is None or response.status != 200:
                    failures.append(f"{where}: HTTP {response and response.status}")
                    continue
                page.wait_for_load_state("networkidle")
                if label == "lobby":
                    page.wait_for_selector("#friends .friend")
                if label == "watch":
                    page.wait_for_selector("#board", timeout=10000)
                failures += [f"{where}: {p}" for p in page.evaluate(_LAYOUT_JS)]
                failures += [f"{where}: {p}" for p in problems(_unnamed(page.content()), language)]
                texts = "".join(f"<p>{o}</p>" for o in page.evaluate(_OPTIONS_JS))
                options = f"<html lang='{language}'><body>{texts}</body></html>"
                failures += [f"{where}: option {p}" for p in problems(options, language)]
                shot(page, f"hall-audit-{label}-{language}-{width}")
            context.close()
    # the lobby socket's pushes come in the player's language too (a friend sits down)
    User.objects.filter(pk=me.pk).update(language="en")
    page = _as(browser, base, me)
    page.goto(f"{base}/")
    page.wait_for_selector("#friends .friend")
    page.wait_for_timeout(800)  # the socket has rendered its first friends list
    seating.seat_leave(table_id=table.pk, user=friends[0])
    page.wait_for_selector(f"#watch-list .watch-table[data-table='{table.pk}']", state="detached")
    page.wait_for_selector(f"#friends .friend[data-user='{friends[0].pk}'] .presence-offline")
    failures += [f"lobby after push en: {p}" for p in problems(_unnamed(page.content()), "en")]
    assert not failures, "\n".join(failures[:60])
