"""Replays: every finished hand steps through from seed + log; a running hand has none."""

from __future__ import annotations

import hashlib

import pytest

from games.models import Hand, HandEvent, Seat
from games.tests.test_tables_service import _full_table, _play_out

pytestmark = pytest.mark.django_db


def test_replay_of_a_finished_hand_and_none_of_a_running_one(
    room, make_user, client, django_capture_on_commit_callbacks
):
    """A finished hand's replay shows every step and the seed that hashes to the commitment."""
    table, users = _full_table(room, make_user)
    hand = Hand.objects.get(table=table)
    client.force_login(users[0])
    assert client.get(f"/games/replay/{hand.pk}/").status_code == 404  # still playing
    Seat.objects.filter(table=table).update(auto=True)
    with django_capture_on_commit_callbacks(execute=True):
        _play_out(table.pk)
    hand.refresh_from_db()
    response = client.get(f"/games/replay/{hand.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert hand.seed in html and hand.seed_hash in html
    assert hashlib.sha256(hand.seed.encode()).hexdigest() == hand.seed_hash
    steps = HandEvent.objects.filter(hand=hand).count()
    assert f'data-last="{steps}"' in html  # the deal + one step per logged event
    last = client.get(f"/games/replay/{hand.pk}/step/{steps}/").content.decode()
    assert 'id="settlement"' in last
    # the profile links the hand's replay
    profile = client.get("/accounts/profile/").content.decode()
    assert f"/games/replay/{hand.pk}/" in profile
