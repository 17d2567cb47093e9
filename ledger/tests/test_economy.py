"""The operators' economy report: figures per chart, few queries, staff only, CSV (§6)."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services as account_services
from accounts.models import CheckinReward
from games.models import Seat
from games.tests.test_tables_service import _full_table, _play_out
from ledger import economy
from ledger.models import EconomySettings

pytestmark = pytest.mark.django_db


def _history(room, make_user, capture):
    CheckinReward.objects.create(day=1, beans=100)
    table, users = _full_table(room, make_user)
    Seat.objects.filter(table=table).update(auto=True)
    with capture(execute=True):
        _play_out(table.pk)
    account_services.checkin_claim(user=users[0])
    return table, users


def test_report_figures_follow_the_ledger_and_the_hands(
    room, make_user, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    """Today's figures: 1 hand of 斗地主, 3 players, the hand's rake for its room, beans
    created = signup grants + staff corrections + check-in, taken back = the rake, and the
    players' total equals their balances. At most 10 statements for the five charts."""
    table, users = _history(room, make_user, django_capture_on_commit_callbacks)
    today = timezone.localdate()
    with django_assert_max_num_queries(10):
        report = economy.economy_report(days=7)
    hand = table.hands.get()
    assert report["hands"]["doudizhu"][today] == 1
    assert report["players"][today] == 3
    assert report["rake"] == [
        {"room_id": room.pk, "name": room.name, "rake": hand.result["rake"], "hands": 1}
    ]
    flow = report["flow"]
    grant = EconomySettings.current().signup_grant
    assert flow["created"]["註冊贈送"][today] == 3 * grant
    assert flow["created"]["每日簽到"][today] == 100
    assert flow["taken"]["回收 (抽水)"][today] == hand.result["rake"]
    assert flow["created_total"][today] == 3 * 5000 + 100  # grants + corrections to 5000 each
    from ledger.selectors import balance_for_user

    assert report["held"][today] == sum(balance_for_user(u) for u in users)
    assert report["held"][today] == flow["created_total"][today] - flow["taken_total"][today]


def test_economy_page_is_staff_only_and_draws_every_chart_and_csv(
    room, make_user, django_capture_on_commit_callbacks
):
    """Visitors and players are sent to the admin login; staff get five SVG charts with their
    series, and each chart's CSV carries the same figures; an unknown chart is 404."""
    table, users = _history(room, make_user, django_capture_on_commit_callbacks)
    url = reverse("ledger:economy")
    assert Client().get(url).status_code == 302
    player = Client()
    player.force_login(users[0])
    assert player.get(url).status_code == 302
    assert player.get(reverse("ledger:economy_csv", args=["hands"])).status_code == 302
    staff = make_user()
    staff.is_staff = True
    staff.save()
    client = Client()
    client.force_login(staff)
    html = client.get(url).content.decode()
    for chart in economy.CHARTS:
        assert f'id="chart-{chart}"' in html
    assert 'data-series="doudizhu"' in html and "<polyline" in html and 'class="bar"' in html
    response = client.get(reverse("ledger:economy_csv", args=["hands"]), {"days": 3})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["day", "doudizhu"] and rows[-1] == [timezone.localdate().isoformat(), "1"]
    assert len(rows) == 4
    rake = list(
        csv.reader(
            io.StringIO(client.get(reverse("ledger:economy_csv", args=["rake"])).content.decode())
        )
    )
    assert rake[1][1] == room.name and int(rake[1][3]) == table.hands.get().result["rake"]
    assert client.get("/admin/economy/nope.csv").status_code == 404
    assert client.get(url, {"days": "lots"}).status_code == 200  # bad input: the default


def test_house_net_and_the_bots_beans_are_their_own_lines(make_user):
    """大豐收's house (one account per room, ``house:wheel:<room>``): 900 staked, 700 paid, so
    the house is +200; a bot's beans from the mint are not 客服贈送 to players, and what bots
    hold is not in the players' holdings. The page shows both."""
    from games.services.bots import bot_user_for_seat
    from ledger import services as ledger

    player = make_user(beans=5000)
    account = ledger.account_for_user(player)
    house = ledger.system_account("house:wheel:7")
    ledger.transfer_create(postings=[(account, -900), (house, 900)], kind="stake")
    ledger.transfer_create(postings=[(house, -700), (account, 700)], kind="payout")
    bot = bot_user_for_seat({"min_beans": 1000, "max_beans": None})
    bot_beans = ledger.account_for_user(bot).balance
    assert bot_beans > 0
    today = timezone.localdate()
    report = economy.economy_report(days=3)
    flow = report["flow"]
    assert flow["house"][today] == 200
    assert flow["bots"][today] == bot_beans
    assert "客服贈送" not in flow["created"]  # the bot's beans are not a grant to players
    from ledger.selectors import balance_for_user

    assert report["held"][today] == balance_for_user(player)
    assert report["bots_held"][today] == bot_beans
    staff = make_user()
    staff.is_staff = True
    staff.save()
    client = Client()
    client.force_login(staff)
    html = client.get(reverse("ledger:economy")).content.decode()
    assert "大豐收莊家淨額：200" in html
    assert f"：{bot_beans}" in html
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("ledger:economy_csv", args=["held"])).content.decode())
        )
    )
    assert rows[0] == ["day", "held_by_players", "held_by_bots"]
    assert rows[-1][1:] == [str(balance_for_user(player) + balance_for_user(staff)), str(bot_beans)]
