"""The ledger in the admin: read-only for everyone; grants only through the user grant form."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import Account, Posting, Transfer
from ledger.selectors import balance_for_user, ledger_drift

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(make_user):
    user = make_user()
    user.is_staff = user.is_superuser = True
    user.save()
    return user


@pytest.fixture
def staff_client(superuser):
    client = Client()
    client.force_login(superuser)
    return client


@pytest.mark.parametrize("model", [Account, Transfer, Posting])
def test_ledger_models_cannot_be_added_changed_or_deleted(model, superuser, rf):
    """Even a superuser may only view ledger rows: no add, change or delete permission."""
    model_admin = admin.site._registry[model]
    request = rf.get("/")
    request.user = superuser
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert model_admin.has_view_permission(request)


def test_ledger_admin_pages_refuse_writes(staff_client, make_user):
    """The add page is forbidden, a change POST or a delete changes nothing."""
    player = make_user(beans=700)
    transfer = Transfer.objects.filter(postings__account__user=player).first()
    account = services.account_for_user(player)
    assert staff_client.get(reverse("admin:ledger_transfer_changelist")).status_code == 200
    assert staff_client.get(reverse("admin:ledger_transfer_add")).status_code == 403
    assert staff_client.get(reverse("admin:ledger_account_add")).status_code == 403
    page = staff_client.get(reverse("admin:ledger_transfer_change", args=[transfer.pk]))
    assert page.status_code == 200 and b'name="_save"' not in page.content
    response = staff_client.post(
        reverse("admin:ledger_account_change", args=[account.pk]),
        {"kind": "player", "balance": "999999"},
    )
    assert response.status_code == 403
    response = staff_client.post(
        reverse("admin:ledger_transfer_delete", args=[transfer.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert Transfer.objects.filter(pk=transfer.pk).exists()
    assert balance_for_user(player) == 700


def test_non_staff_user_is_sent_to_the_admin_login(make_user):
    """A signed-in player who is not staff gets the admin login, and cannot grant himself beans."""
    player = make_user(beans=100)
    client = Client()
    client.force_login(player)
    for url in (
        reverse("admin:index"),
        reverse("admin:ledger_transfer_changelist"),
        reverse("admin:accounts_user_grant", args=[player.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("admin:login"))
    before = Transfer.objects.count()
    response = client.post(
        reverse("admin:accounts_user_grant", args=[player.pk]),
        {"amount": "100000", "reason": "free beans"},
    )
    assert response.status_code == 302 and response.url.startswith(reverse("admin:login"))
    assert Transfer.objects.count() == before and balance_for_user(player) == 100


def test_staff_grant_form_creates_a_balanced_transfer(staff_client, superuser, make_user):
    """The user page's grant form posts a balanced staff grant with its reason and staff user."""
    player = make_user(beans=100)
    url = reverse("admin:accounts_user_grant", args=[player.pk])
    assert staff_client.get(url).status_code == 200
    response = staff_client.post(url, {"amount": "2500", "reason": "客服補償"})
    assert response.status_code == 302
    assert response.url == reverse("admin:accounts_user_change", args=[player.pk])
    transfer = Transfer.objects.get(reason="客服補償")
    assert transfer.kind == Transfer.Kind.STAFF_GRANT and transfer.staff_id == superuser.pk
    assert sum(p.amount for p in transfer.postings.all()) == 0
    assert balance_for_user(player) == 2600
    # a correction that would overdraw is refused with a message and writes nothing
    before = Transfer.objects.count()
    response = staff_client.post(url, {"amount": "-5000", "reason": "扣回", "correction": "on"})
    assert response.status_code == 200 and "未執行".encode() in response.content
    assert Transfer.objects.count() == before and balance_for_user(player) == 2600
    assert ledger_drift() == []


def test_staff_without_permission_cannot_grant(make_user):
    """A staff member without the right to change users cannot mint beans through the form."""
    clerk = make_user()
    clerk.is_staff = True
    clerk.save()
    player = make_user(beans=100)
    client = Client()
    client.force_login(clerk)
    url = reverse("admin:accounts_user_grant", args=[player.pk])
    response = client.post(url, {"amount": "100000", "reason": "self-service"})
    assert response.status_code == 403
    assert balance_for_user(player) == 100


def test_grant_form_for_an_unknown_user_is_not_found(staff_client):
    """A grant URL for a user that does not exist is a 404, not a server error."""
    response = staff_client.get(reverse("admin:accounts_user_grant", args=[987654]))
    assert response.status_code == 404
