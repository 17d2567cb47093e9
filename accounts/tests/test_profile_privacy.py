"""The profile page's 隱私 settings (issue #15 §2–§3): 允許觀戰 and 誰能看到我在哪裡, set by
the player himself through the real views on PostgreSQL; bad input gets a clear message and
changes nothing; a friend's table gets a 觀戰 link only while it may be watched."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import selectors, services
from accounts.models import PresenceVisibility
from games.exceptions import BadWatchChoice
from games.models import WatchPreference
from games.selectors import spectating
from games.services import seating, spectators
from lobby import services as lobby_services

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_profile_shows_both_settings_with_the_current_choice(make_user):
    """The profile has the 允許觀戰 radios (on by default, then off once chosen) and the
    presence select with the player's setting selected, each a POST form with a CSRF token."""
    user = make_user()
    client = _client(user)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert 'id="watching-form"' in html and 'action="/accounts/watching/"' in html
    assert 'name="allow" value="1" checked' in html
    assert 'id="presence-form"' in html and 'value="friends" selected' in html
    assert html.count("csrfmiddlewaretoken") >= 3  # relief, presence, watching
    WatchPreference.objects.create(user=user, allow_watching=False)
    services.privacy_set(user=user, presence=PresenceVisibility.NOBODY)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert 'name="allow" value="0" checked' in html
    assert 'value="nobody" selected' in html


def test_turning_watching_off_on_the_profile_refuses_watchers_and_the_watch_list(
    make_user, room, django_capture_on_commit_callbacks, monkeypatch
):
    """A seated player posts 允許觀戰 = 0 from his profile: it is stored, he is told, his
    running table leaves the lobby's watch list and may no longer be watched (the table page
    refuses a watcher with 403 and the reason), the lobby is told at once (``lobby.changed``
    after commit); = 1 brings it back."""
    player, watcher = make_user(beans=5000), make_user(beans=5000)
    table = lobby_services.quick_join(user=player, room_id=room.pk)
    seating.bots_fill(table_id=table.pk)
    assert [t["id"] for t in spectating.tables_watchable()] == [table.pk]
    client = _client(player)
    published = []
    from games import realtime

    monkeypatch.setattr(
        realtime, "publish", lambda group, message: published.append((group, message["type"]))
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:watching"), {"allow": "0"}, follow=True)
    monkeypatch.undo()
    assert response.redirect_chain[-1][0] == reverse("accounts:profile")
    assert "已關閉觀戰：沒有人能觀看你的牌桌" in _messages(response)
    assert spectating.watch_preference(player) is False
    assert (realtime.LOBBY_GROUP, "lobby.changed") in published
    assert (realtime.table_group(table.pk), "table.watch_closed") in published
    assert spectating.tables_watchable() == []
    assert not spectating.watching_allowed(table.pk)
    page = _client(watcher).get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 403 and "不允許觀戰" in page.content.decode()
    client.post(reverse("accounts:watching"), {"allow": "1"})
    assert spectating.watch_preference(player) is True
    assert [t["id"] for t in spectating.tables_watchable()] == [table.pk]
    assert _client(watcher).get(reverse("games:table", args=[table.pk])).status_code == 200


@pytest.mark.parametrize("bad", ["", "yes", "2", "on", "0 ", "１"])
def test_a_bad_watching_choice_is_refused_and_changes_nothing(make_user, bad):
    """Anything but 1 or 0 is answered 沒有這個觀戰選項 and leaves the choice as it was; the
    service refuses a non-bool too (BadWatchChoice, a stable code)."""
    user = make_user()
    WatchPreference.objects.create(user=user, allow_watching=False)
    response = _client(user).post(reverse("accounts:watching"), {"allow": bad}, follow=True)
    assert "沒有這個觀戰選項" in _messages(response)
    assert WatchPreference.objects.get(user=user).allow_watching is False
    with pytest.raises(BadWatchChoice) as error:
        spectators.watching_set(user=user, allow=bad)
    assert error.value.code == "bad_watch_choice"
    assert WatchPreference.objects.get(user=user).allow_watching is False


def test_watching_and_privacy_need_a_logged_in_post(make_user):
    """GET is not allowed (405) and a visitor is sent to log in; nothing is stored."""
    user = make_user()
    assert _client(user).get(reverse("accounts:watching")).status_code == 405
    response = Client().post(reverse("accounts:watching"), {"allow": "0"})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert not WatchPreference.objects.exists()


def test_presence_set_on_the_profile_returns_there_and_refuses_bad_input(make_user):
    """誰能看到我在哪裡 posted from the profile comes back to the profile; an unknown choice
    is refused with a message and keeps the setting; an off-site ``next`` is ignored."""
    user = make_user()
    client = _client(user)
    response = client.post(
        reverse("accounts:privacy"), {"presence": "nobody", "next": "/accounts/profile/"}
    )
    assert response.status_code == 302 and response.url == "/accounts/profile/"
    assert selectors.presence_setting(user.pk) == PresenceVisibility.NOBODY
    response = client.post(
        reverse("accounts:privacy"),
        {"presence": "everyone", "next": "/accounts/profile/"},
        follow=True,
    )
    assert "沒有這個隱私選項" in _messages(response)
    assert selectors.presence_setting(user.pk) == PresenceVisibility.NOBODY
    response = client.post(
        reverse("accounts:privacy"), {"presence": "friends", "next": "https://evil.example/"}
    )
    assert response.url == reverse("lobby:home")


def test_a_friends_watch_link_only_while_his_table_may_be_watched(make_user, room):
    """A mutual friend at a public table has a 觀戰 link (``watchable``) until a player seated
    there turns 允許觀戰 off; a friend at a private table never has one."""
    viewer, friend, owner = make_user(beans=5000), make_user(beans=5000), make_user(beans=5000)
    for a, b in ((viewer, friend), (friend, viewer), (viewer, owner), (owner, viewer)):
        services.follow_create(user=a, other_id=b.pk)
    lobby_services.quick_join(user=friend, room_id=room.pk)
    lobby_services.private_create(user=owner, room_id=room.pk)

    def where() -> dict[int, dict]:
        return {row["user"].pk: row["presence"] for row in selectors.friends_for_user(viewer)}

    assert where()[friend.pk]["watchable"] is True
    assert where()[owner.pk]["kind"] == "table" and where()[owner.pk]["watchable"] is False
    spectators.watching_set(user=friend, allow=False)
    assert where()[friend.pk]["watchable"] is False
    html = _client(viewer).get(reverse("lobby:home")).content.decode()
    friend_row = html[html.index(f'data-user="{friend.pk}"') :]
    assert 'class="watch"' not in friend_row[: friend_row.index("</li>")]
