"""A watcher sees the whole hand: in a bean room (delayed view) the last moves, the end and the
settlement of a hand show before the next deal, however soon that deal comes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import rendering
from games.models import Hand, HandEvent
from games.selectors import spectating
from games.services import between, settlement
from games.tests.test_between_hands import _finished, _room

pytestmark = pytest.mark.django_db


def test_the_watcher_sees_the_end_and_settlement_before_the_next_deal(make_user, monkeypatch):
    """A delayed watcher sees a hand's end and settlement before the next deal, even when
    it comes at once."""
    room = _room("觀戰場", spectator_delay_turns=1, spectator_delay_seconds=15)
    table_id, users = _finished(room, make_user, monkeypatch)
    first = Hand.objects.get(table_id=table_id)
    settlement.hand_settle(first.pk)
    for user in users:  # everyone answers 繼續 at once: the next deal comes right away
        between.seat_ready(table_id=table_id, user=user)
    second = Hand.objects.get(table_id=table_id, number=2)
    last = HandEvent.objects.filter(hand=first).order_by("-seq").first()
    assert last is not None

    # just after the deal: still the first hand, its last move not shown yet
    view, reveal = spectating.spectator_snapshot(
        table_id, now=last.created_at + timedelta(seconds=1)
    )
    assert view is not None and view["hand"]["number"] == 1
    assert view["hand"]["result"] is None and reveal is not None

    # the last move shows: the first hand's end with its settlement (beans) and no seat view
    at_end = last.created_at + timedelta(seconds=15.5)
    view, reveal = spectating.spectator_snapshot(table_id, now=at_end)
    assert view["hand"]["number"] == 1 and view["hand"]["result"]["beans"]
    html = rendering.render_html(view, None, make_user())
    assert 'id="settlement"' in html
    assert reveal is not None and reveal > at_end

    # the watcher's clock reaches the new deal: the second hand
    later = max(
        second.started_at + timedelta(seconds=16),
        last.created_at + timedelta(seconds=15 + spectating.END_SHOWN_SECONDS + 1),
    )
    view, _ = spectating.spectator_snapshot(table_id, now=later)
    assert view["hand"]["number"] == 2


def test_a_live_room_watcher_still_sees_the_end_for_a_moment(make_user, monkeypatch):
    """A room without delay shows the settlement for a few seconds after the next deal."""
    room = _room("即時場", spectator_delay_turns=1, spectator_delay_seconds=0)
    table_id, users = _finished(room, make_user, monkeypatch)
    for user in users:
        between.seat_ready(table_id=table_id, user=user)
    second = Hand.objects.get(table_id=table_id, number=2)
    last = HandEvent.objects.filter(hand__table_id=table_id, hand__number=1).order_by("-seq")[0]
    view, _ = spectating.spectator_snapshot(table_id, now=second.started_at)
    assert view["hand"]["number"] == 1 and view["hand"]["result"] is not None
    view, _ = spectating.spectator_snapshot(
        table_id, now=last.created_at + timedelta(seconds=spectating.END_SHOWN_SECONDS + 1)
    )
    assert view["hand"]["number"] == 2
