"""Register, log in, log out, profile and relief through the real views and database."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from accounts.models import User
from ledger import services as ledger
from ledger.models import EconomySettings, Posting, Transfer
from ledger.selectors import balance_for_user

pytestmark = pytest.mark.django_db

PASSWORD = "Kq9-very-secret"


def _register(client: Client, username: str, p1: str = PASSWORD, p2: str = PASSWORD, **extra):
    return client.post(
        reverse("accounts:register"),
        {
            "username": username,
            "nickname": extra.get("nickname", ""),
            "password1": p1,
            "password2": p2,
        },
    )


def test_register_creates_the_player_logs_in_and_grants_beans():
    """A valid registration creates the user, signs him in and pays the signup grant."""
    EconomySettings.objects.update_or_create(pk=1, defaults={"signup_grant": 8888})
    client = Client()
    response = _register(client, "newbie", nickname="小新")
    assert response.status_code == 302 and response.url == reverse("lobby:home")
    user = User.objects.get(username="newbie")
    assert user.nickname == "小新" and user.check_password(PASSWORD)
    assert int(client.session[SESSION_KEY]) == user.pk
    assert balance_for_user(user) == 8888
    signups = Transfer.objects.filter(kind=Transfer.Kind.SIGNUP, postings__account__user=user)
    assert signups.count() == 1


def test_taken_username_is_a_form_error_and_creates_nothing(make_user):
    """Registering a taken name shows an error on the name field; no user, no beans."""
    make_user(name="taken")
    users, transfers = User.objects.count(), Transfer.objects.count()
    client = Client()
    response = _register(client, "taken")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert 'class="error"' in response.content.decode()
    assert (User.objects.count(), Transfer.objects.count()) == (users, transfers)
    assert SESSION_KEY not in client.session


def test_mismatched_passwords_are_a_form_error_and_create_nothing():
    """Two different passwords: an error on the confirmation field and nothing created."""
    transfers = Transfer.objects.count()
    response = _register(Client(), "mismatch", PASSWORD, PASSWORD + "x")
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="mismatch").exists()
    assert Transfer.objects.count() == transfers


def test_login_with_the_wrong_password_fails_and_the_right_one_works(make_user):
    """A wrong password shows an error and leaves the visitor signed out."""
    user = make_user(name="loginer")
    client = Client()
    response = client.post(
        reverse("accounts:login"), {"username": "loginer", "password": "wrong-password"}
    )
    assert response.status_code == 200
    assert "帳號或密碼不正確" in response.content.decode()
    assert SESSION_KEY not in client.session
    response = client.post(
        reverse("accounts:login"), {"username": "loginer", "password": "pw-123456"}
    )
    assert response.status_code == 302
    assert int(client.session[SESSION_KEY]) == user.pk


def test_logout_ends_the_session(make_user):
    """Logging out (POST) signs the player out; the profile then asks for a login."""
    client = Client()
    client.force_login(make_user())
    assert client.get(reverse("accounts:profile")).status_code == 200
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert SESSION_KEY not in client.session
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302 and response.url.startswith(reverse("accounts:login"))


def test_profile_shows_the_ledger_balance(make_user):
    """The beans on the profile equal the ledger balance and the sum of the player's postings."""
    user, other = make_user(beans=1234), make_user(beans=5000)
    ledger.transfer_create(
        postings=[(ledger.account_for_user(other), -766), (ledger.account_for_user(user), 766)],
        kind="settlement",
    )
    client = Client()
    client.force_login(user)
    html = client.get(reverse("accounts:profile")).content.decode()
    shown = int(re.search(r'id="profile-beans">(\d+)<', html).group(1))
    posted = Posting.objects.filter(account__user=user).aggregate(s=Sum("amount"))["s"]
    assert shown == balance_for_user(user) == posted == 2000


def test_relief_button_pays_below_the_threshold_and_explains_otherwise(make_user):
    """The relief POST pays a poor player; a rich one gets the reason and nothing changes."""
    EconomySettings.objects.update_or_create(
        pk=1, defaults={"relief_threshold": 1000, "relief_amount": 300, "relief_per_day": 1}
    )
    poor, rich = make_user(beans=10), make_user(beans=5000)
    client = Client()
    client.force_login(rich)
    response = client.post(reverse("accounts:relief"), follow=True)
    assert "救濟只給" in response.content.decode() and balance_for_user(rich) == 5000
    client.force_login(poor)
    client.post(reverse("accounts:relief"))
    assert balance_for_user(poor) == 310
    response = client.post(reverse("accounts:relief"), follow=True)
    assert "今天的救濟已領" in response.content.decode() and balance_for_user(poor) == 310


def test_cross_site_register_post_is_refused():
    """A register POST without the CSRF token is 403 and creates no user."""
    client = Client(enforce_csrf_checks=True)
    response = _register(client, "csrfvictim")
    assert response.status_code == 403
    assert not User.objects.filter(username="csrfvictim").exists()


def test_cross_site_quick_join_post_is_refused(make_user, room):
    """A signed-in player's browser posting quick-join from another site gets 403, no seat."""
    from games.models import Seat

    user = make_user(beans=5000)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("lobby:quick_join", args=[room.pk]))
    assert response.status_code == 403
    assert not Seat.objects.filter(user=user).exists()
    # with the token from the page the same post works
    page = client.get(reverse("lobby:home"))
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else None
    token = token or client.cookies["csrftoken"].value
    response = client.post(reverse("lobby:quick_join", args=[room.pk]), HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 302 and Seat.objects.filter(user=user).exists()
