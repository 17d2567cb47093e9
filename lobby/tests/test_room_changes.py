"""An operator's change to a room in the admin applies from the next hand, never mid-hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import registry
from games.models import Hand, Seat, Table
from games.services import seating, settlement, tables
from lobby import services
from lobby.models import Room

pytestmark = pytest.mark.django_db


def _admin_edit(room: Room, staff, **changes) -> None:
    """Save the room through the admin change form, as an operator would."""
    fields = {
        "name": room.name,
        "game": room.game,
        "variant": room.variant,
        "seats": room.seats,
        "base_score": room.base_score,
        "factor": room.factor,
        "rake": room.rake,
        "min_beans": room.min_beans,
        "max_beans": room.max_beans or "",
        "double_threshold": room.double_threshold,
        "turn_seconds": room.turn_seconds,
        "bot_wait_seconds": room.bot_wait_seconds,
        "is_open": "on" if room.is_open else "",
        "sort_order": room.sort_order,
        # the game's own typed parameters (lobby/forms.py), at their defaults
        **{p.name: p.default for p in registry.get(room.game).room_params},
    }
    fields.update(changes)
    client = Client()
    client.force_login(staff)
    response = client.post(reverse("admin:lobby_room_change", args=[room.pk]), fields)
    assert response.status_code == 302, response.content.decode()[:2000]


def _play_out(table_id: int) -> None:
    """Let the clock (托管) play every due seat until the hand ends."""
    for _ in range(400):
        table = Table.objects.get(pk=table_id)
        hand = table.hands.filter(status=Hand.Status.PLAYING).first()
        if hand is None:
            return
        ruleset = registry.get(hand.game)
        index = min(ruleset.to_act(ruleset.state_from_json(hand.state)))
        Seat.objects.filter(table=table, index=index).update(deadline=timezone.now())
        tables.due_seat_act(table_id=table_id, seat_index=index)
    raise AssertionError("hand did not finish")


def test_room_change_applies_from_the_next_hand(room, make_user):
    """底分 and N changed during hand 1: hand 1 keeps its snapshot (and settles with it);
    hand 2, started by the clock, uses the new values."""
    staff = make_user()
    staff.is_staff = staff.is_superuser = True
    staff.save()
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = services.quick_join(user=user, room_id=room.pk)
    first = Hand.objects.get(table=table)
    ruleset = registry.get("doudizhu")
    assert first.params["base_score"] == 1 and first.params["factor"] == 10

    _admin_edit(room, staff, base_score=7, factor=20)
    room.refresh_from_db()
    assert (room.base_score, room.factor) == (7, 20)

    first.refresh_from_db()
    assert first.params["base_score"] == 1 and first.params["factor"] == 10
    assert ruleset.state_from_json(first.state).config.base_score == 1

    Seat.objects.filter(table=table).update(auto=True, connections=1)  # all online, in 托管
    _play_out(table.pk)
    first.refresh_from_db()
    assert first.status == Hand.Status.FINISHED
    assert settlement.hand_settle(first.pk) is True
    first.refresh_from_db()
    assert first.result["factor"] == 10  # settled with the hand's own N, not the new one

    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(seconds=1))
    seating.table_tick(table_id=table.pk)
    second = Hand.objects.get(table=table, number=2)
    assert second.params["base_score"] == 7 and second.params["factor"] == 20
    assert ruleset.state_from_json(second.state).config.base_score == 7
    first.refresh_from_db()
    assert first.params["base_score"] == 1  # the finished hand's snapshot is untouched


def test_closing_a_room_does_not_stop_the_running_hand(room, make_user):
    """Closing a room refuses new players at once but the hand in progress plays on."""
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = services.quick_join(user=user, room_id=room.pk)
    Room.objects.filter(pk=room.pk).update(is_open=False)
    Seat.objects.filter(table=table).update(auto=True, connections=1)
    _play_out(table.pk)
    assert Hand.objects.get(table=table).status == Hand.Status.FINISHED


def test_admin_refuses_a_room_the_rules_cannot_deal(room, make_user):
    """A seat count or variant the game does not have is a form error; the room is unchanged."""
    staff = make_user()
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    base = {
        "name": room.name,
        "game": room.game,
        "variant": room.variant,
        "seats": 3,
        "base_score": 1,
        "factor": 10,
        "rake": 5,
        "min_beans": 100,
        "max_beans": "",
        "double_threshold": 1000,
        "turn_seconds": 20,
        "bot_wait_seconds": 0,
        "is_open": "on",
        "sort_order": 0,
        **{p.name: p.default for p in registry.get(room.game).room_params},
    }
    url = reverse("admin:lobby_room_change", args=[room.pk])
    for bad in ({"seats": 4}, {"variant": "no-such-variant"}):
        response = client.post(url, {**base, **bad})
        assert response.status_code == 200
        assert response.context["adminform"].form.errors
    room.refresh_from_db()
    assert (room.seats, room.variant) == (3, "classic")
    assert client.post(url, {**base, "base_score": 2}).status_code == 302
