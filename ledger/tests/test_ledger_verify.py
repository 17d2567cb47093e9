"""``manage.py ledger_verify``: silent success on a sound ledger, a failure on any drift."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError

from ledger import services
from ledger.models import Account, Posting, Transfer

pytestmark = pytest.mark.django_db


def _verify() -> str:
    out = io.StringIO()
    call_command("ledger_verify", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _exit_code() -> int:
    try:
        execute_from_command_line(["manage.py", "ledger_verify"])
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return 0


def test_passes_on_a_sound_ledger(make_user):
    """Grants, transfers and corrections leave a ledger the command accepts (exit 0)."""
    alice, bob = make_user(beans=1000), make_user(beans=20)
    services.transfer_create(
        postings=[(services.account_for_user(alice), -400), (services.account_for_user(bob), 400)],
        kind="settlement",
    )
    assert "ledger OK" in _verify()
    assert _exit_code() == 0


def test_fails_when_a_balance_drifts_from_its_postings(make_user, capsys):
    """A balance changed behind the ledger's back makes the command fail, naming the account."""
    alice = make_user(beans=1000)
    account = services.account_for_user(alice)
    Account.objects.filter(pk=account.pk).update(balance=1001)
    with pytest.raises(CommandError):
        _verify()
    assert _exit_code() != 0
    assert f"player:{alice.pk}" in capsys.readouterr().err


def test_fails_when_a_transfer_does_not_balance(make_user):
    """A posting altered after the fact (legs no longer sum to zero) is reported."""
    alice, bob = make_user(beans=1000), make_user(beans=0)
    transfer = services.transfer_create(
        postings=[(services.account_for_user(alice), -5), (services.account_for_user(bob), 5)],
        kind="settlement",
    )
    posting = transfer.postings.get(amount=5)
    Posting.objects.filter(pk=posting.pk).update(amount=6)
    Account.objects.filter(pk=posting.account_id).update(balance=6)  # balance matches postings
    with pytest.raises(CommandError, match="problem"):
        _verify()


def test_fails_when_beans_appear_from_nowhere(make_user):
    """An account with a balance but no postings at all breaks conservation and is reported."""
    make_user(beans=100)
    Account.objects.create(kind=Account.Kind.SYSTEM, code="stray", balance=50)
    with pytest.raises(CommandError):
        _verify()
    assert Transfer.objects.exists()
