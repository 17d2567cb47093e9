"""The hall's pages and buttons through the real views: POST only, clear errors, nothing
changed by bad input (issue #15 §3–§5)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import selectors as account_selectors
from accounts.models import CheckinReward, Follow, Invitation
from games.models import Seat, Table
from ledger.models import Transfer
from lobby import services

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_follow_buttons_are_post_only_and_bad_targets_change_nothing(make_user):
    """GET is refused (405), an unknown action is 404, following oneself or nobody shows an
    error and writes nothing; follow / unfollow work and come back to the profile."""
    a, b = make_user(), make_user()
    client = _client(a)
    url = reverse("accounts:relation", args=[b.pk, "follow"])
    assert client.get(url).status_code == 405
    assert client.post(reverse("accounts:relation", args=[b.pk, "adore"])).status_code == 404
    response = client.post(reverse("accounts:relation", args=[a.pk, "follow"]), follow=True)
    assert "不能關注自己" in response.content.decode()
    response = client.post(reverse("accounts:relation", args=[99999, "follow"]), follow=True)
    assert "沒有這位玩家" in response.content.decode()
    assert Follow.objects.count() == 0
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:public_profile", args=[b.pk])
    assert Follow.objects.filter(follower=a, followee=b).exists()
    evil = client.post(url, {"next": "https://evil.example/"})
    assert evil["Location"] == reverse("accounts:public_profile", args=[b.pk])
    client.post(reverse("accounts:relation", args=[b.pk, "unfollow"]))
    assert Follow.objects.count() == 0
    assert Client().post(url).status_code == 302 and Follow.objects.count() == 0  # login page


def test_lobby_shows_the_hall_and_checkin_twice_pays_once(make_user):
    """The lobby shows 簽到, tasks and friends; a second 簽到 the same day says so and pays
    nothing."""
    CheckinReward.objects.create(day=1, beans=80)
    user = make_user()
    client = _client(user)
    html = client.get(reverse("lobby:home")).content.decode()
    assert 'id="checkin-button"' in html and 'id="tasks"' in html and 'id="friend-list"' in html
    client.post(reverse("lobby:checkin"))
    html = client.post(reverse("lobby:checkin"), follow=True).content.decode()
    assert "今天已經簽到過了" in html
    assert Transfer.objects.filter(kind=Transfer.Kind.CHECKIN).count() == 1
    html = client.post(reverse("lobby:task_claim", args=[424242]), follow=True).content.decode()
    assert "沒有這個任務" in html


def test_accepting_by_htmx_redirects_to_the_table_and_a_stranger_cannot(make_user, room):
    """The pushed 加入 button (hx-post) answers with HX-Redirect to the table, seating the
    invitee; someone else posting the same invitation gets the lobby and no seat; an
    invitation to a table that closed is no longer listed."""
    owner, friend, stranger = make_user(beans=5000), make_user(beans=5000), make_user(beans=5000)
    Follow.objects.create(follower=owner, followee=friend)
    table = services.private_create(user=owner, room_id=room.pk)
    response = _client(owner).post(
        reverse("lobby:invite", args=[friend.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and response["HX-Redirect"] == reverse("lobby:home")
    invitation = Invitation.objects.get()
    url = reverse("lobby:invitation_accept", args=[invitation.pk])
    response = _client(stranger).post(url, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == reverse("lobby:home")
    assert not Seat.objects.filter(user=stranger).exists()
    response = _client(friend).post(url, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == reverse("games:table", args=[table.pk])
    assert Seat.objects.get(user=friend).table_id == table.pk
    Follow.objects.create(follower=owner, followee=stranger)
    services.invitation_send(user=owner, recipient_id=stranger.pk)
    assert len(account_selectors.invitations_for_user(stranger)) == 1
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    assert account_selectors.invitations_for_user(stranger) == []  # a closed table's: gone


def test_table_panel_is_refused_like_the_table_and_offers_follow_from_a_seat(make_user, room):
    """A private table's hall panel is 404 to a stranger; its players see each other with a
    關注 button, and the owner sees his followed friends to invite."""
    owner, friend, stranger = make_user(beans=5000), make_user(beans=5000), make_user(beans=5000)
    Follow.objects.create(follower=owner, followee=stranger)
    table = services.private_create(user=owner, room_id=room.pk)
    Follow.objects.create(follower=owner, followee=friend)
    services.invitation_send(user=owner, recipient_id=friend.pk)
    services.invitation_accept(user=friend, invitation_id=Invitation.objects.get().pk)
    url = reverse("lobby:table_panel", args=[table.pk])
    assert _client(stranger).get(url).status_code == 404
    html = _client(friend).get(url).content.decode()
    assert f'data-user="{owner.pk}"' in html and "seat-follow" in html
    html = _client(owner).get(url).content.decode()
    assert "已關注" in html  # he follows the friend at his table
    assert f'invite-button" data-user="{stranger.pk}"' in html
