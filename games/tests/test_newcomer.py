"""A new player is not trapped: the plain 開始 is the primary choice and 明牌開始 says what it
risks; a missed start prompt takes its default without 托管; a returning player hears what
托管 did; a room may cap what one hand costs (單局封頂), and the demo 新手場 does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import rendering
from games.boards.doudizhu import extras
from games.engine import registry
from games.models import Hand, HandSeat, Seat
from games.selectors import hands as hand_selectors
from games.services import seating, settlement, tables
from games.services.settlement import bean_moves
from games.tests.helpers import current_state
from games.tests.test_between_hands import _finished, _room
from lobby import services as lobby_services
from lobby.models import Room

pytestmark = pytest.mark.django_db


def test_plain_start_is_primary_and_mingpai_start_says_its_risk():
    """On 斗地主's start screen the plain 開始 is the primary button and 明牌開始 says
    what it risks."""
    buttons = extras(
        {
            "phase": "start",
            "options": [
                {"type": "start", "mingpai": False},
                {"type": "start", "mingpai": True},
            ],
        },
        0,
    )["buttons"]
    plain, shown = buttons
    assert plain["primary"] and not plain["muted"] and not plain["risk"]
    assert not shown["primary"] and "×5" in shown["risk"]


def test_a_missed_start_prompt_takes_the_default_without_tuoguan(room, make_user):
    """Both short prompts (開始, then 明牌 during the deal) run out: the seat starts plainly and
    is not put in 托管 (today two missed prompts made 托管 15 s into the hand)."""
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    Seat.objects.filter(table=table).update(connections=1)
    ruleset = registry.get("doudizhu")
    for _ in range(6):  # every seat's two prompts (start, dealing)
        _, hand, state = current_state(table.pk)
        if state.phase not in ("start", "dealing"):
            break
        for index in sorted(ruleset.to_act(state)):
            Seat.objects.filter(table=table, index=index).update(
                deadline=timezone.now() - timedelta(seconds=1)
            )
            tables.due_seat_act(table_id=table.pk, seat_index=index)
    _, hand, state = current_state(table.pk)
    assert state.phase not in ("start", "dealing")
    assert not any(state.mingpai)
    seats = Seat.objects.filter(table=table)
    assert [(s.auto, s.timeouts) for s in seats] == [(False, 0)] * 3


def test_a_missed_turn_clock_still_counts_toward_tuoguan(room, make_user):
    """A missed turn clock (not a short start prompt) still counts toward 托管."""
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    ruleset = registry.get("doudizhu")
    for _ in range(40):
        _, hand, state = current_state(table.pk)
        index = min(ruleset.to_act(state))
        Seat.objects.filter(table=table, index=index).update(
            deadline=timezone.now() - timedelta(seconds=1)
        )
        tables.due_seat_act(table_id=table.pk, seat_index=index)
        if state.phase == "bidding":
            break
    assert Seat.objects.filter(table=table, timeouts__gte=1).exists()


def test_bean_moves_cap_what_one_hand_costs_and_wins():
    """單局封頂 1000: a farmer owing 6000 pays 1000; a landlord winning 2 × 3000 gets 1000."""
    payments = [{"from": 1, "to": 0, "points": 60}, {"from": 2, "to": 0, "points": 60}]
    balances = {0: 10000, 1: 10000, 2: 10000}
    free, _ = bean_moves(payments, 50, 10, balances)
    assert free == {0: 5990, 1: -3010, 2: -3010}
    capped, rake = bean_moves(payments, 50, 10, balances, cap=1000)
    assert capped == {0: 990, 1: -510, 2: -510}
    assert rake == 30 and sum(capped.values()) == -rake
    lost, _ = bean_moves(
        [{"from": 0, "to": 1, "points": 120}, {"from": 0, "to": 2, "points": 120}],
        50,
        10,
        balances,
        cap=1000,
    )
    assert lost == {0: -1010, 1: 490, 2: 490}


def test_the_settlement_applies_the_rooms_cap_and_says_so(make_user, monkeypatch):
    """A room's 單局封頂 caps what a hand moves, and the settlement panel says 封頂."""
    room = _room("封頂場", hand_cap=20)
    table_id, users = _finished(room, make_user, monkeypatch)
    hand = Hand.objects.get(table_id=table_id)
    assert settlement.hand_settle(hand.pk)
    hand.refresh_from_db()
    beans = hand.result["beans"]
    assert all(abs(b + 5) <= 20 for b in beans), beans  # 回收 A (5) comes on top of the cap
    assert hand.result["cap"] == 20
    assert set(hand.result["capped"]) <= {0, 1, 2}
    assert [r.beans for r in HandSeat.objects.filter(hand=hand).order_by("seat")] == beans
    from games.selectors import tables as table_selectors

    snapshot = table_selectors.table_snapshot(table_id)
    html = rendering.render_html(snapshot, 0, users[0])
    assert "單局封頂" in html


def test_the_demo_novice_room_caps_a_hand():
    """The demo 新手場 caps a hand at 1,000 beans and its settings pass the room's checks."""
    call_command("seed_demo")
    novice = Room.objects.get(name="新手場")
    assert novice.params()["hand_cap"] == 1000
    novice.full_clean()


def test_a_returning_player_is_told_what_tuoguan_did(make_user, monkeypatch):
    """Away for a hand that 托管 finished, he is told on return: hands and beans."""
    room = _room("回來場")
    table_id, users = _finished(room, make_user, monkeypatch)
    hand = Hand.objects.get(table_id=table_id)
    Seat.objects.filter(user=users[0]).update(
        connections=0, disconnected_at=hand.started_at - timedelta(seconds=1)
    )
    settlement.hand_settle(hand.pk)
    away = hand_selectors.away_summary(user=users[0], table_id=table_id)
    row = HandSeat.objects.get(hand=hand, user=users[0])
    assert away == {"hands": 1, "beans": row.beans}
    note = rendering.render_away(away["hands"], away["beans"])
    assert "托管替你打了 1 局" in note and 'id="away-note"' in note
    assert hand_selectors.away_summary(user=users[1], table_id=table_id) is None
    seating.seat_leave(table_id=table_id, user=users[1])
