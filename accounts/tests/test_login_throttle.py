"""Login throttling (登入鎖定, django-axes): wrong passwords lock the username + address pair;
the lockout is shown clearly, listed in the admin and lifted by deleting the attempt there."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _login(client: Client, username: str, password: str, address: str = "10.1.0.1"):
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_forty_wrong_passwords_lock_out_the_right_one_until_staff_reset(make_user):
    """40 wrong passwords, then the right one is refused (HTTP 429, a clear message, no
    session); the attempt is listed in the admin; deleting it there lets the player in."""
    user = make_user(name="victim")
    client = Client()
    answers = [_login(client, "victim", f"wrong-{i}").status_code for i in range(40)]
    assert answers[:9] == [200] * 9  # the form again, "帳號或密碼不正確"
    assert set(answers[9:]) == {429}  # from the 10th failure on: locked
    response = _login(client, "victim", "pw-123456")
    assert response.status_code == 429
    assert "密碼錯誤次數太多" in response.content.decode()
    assert "請 30 分鐘後再試" in response.content.decode()
    assert SESSION_KEY not in client.session
    # the same user from another address is not locked out by the attacker's address
    other = Client()
    assert _login(other, "victim", "pw-123456", address="10.1.0.2").status_code == 302

    staff = make_user(name="staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    admin = Client()
    admin.force_login(staff)
    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200 and "victim" in listing.content.decode()
    attempt = AccessAttempt.objects.get(username="victim", ip_address="10.1.0.1")
    assert attempt.failures_since_start >= 10
    response = admin.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="victim", ip_address="10.1.0.1").exists()
    response = _login(client, "victim", "pw-123456")
    assert response.status_code == 302 and int(client.session[SESSION_KEY]) == user.pk
