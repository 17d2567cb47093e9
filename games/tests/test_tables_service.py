"""The tables service on the real database: joins, moves, clocks, settlement, escape."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.exceptions import (
    BeansOutOfRange,
    DuplicateAction,
    NotSeated,
    SeatUnavailable,
    StaleSeq,
    UnknownTable,
)
from games.models import Hand, HandEvent, HandSeat, Seat, Table
from games.services import items, seating, settlement, tables
from games.tests.helpers import current_state
from ledger.selectors import balance_for_user, ledger_drift
from lobby import services as lobby_services
from lobby.exceptions import RoomUnavailable

pytestmark = pytest.mark.django_db


def _full_table(room, make_user):
    users = [make_user(beans=5000) for _ in range(3)]
    table = None
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    return table, users


def _drive_one(table_id: int) -> bool:
    """Let the clock act for every seat that is due now (as if its deadline passed)."""
    table, hand, state = current_state(table_id)
    if hand is None:
        return False
    ruleset = registry.get(hand.game)
    for index in sorted(ruleset.to_act(state)):
        Seat.objects.filter(table=table, index=index).update(deadline=timezone.now())
        tables.due_seat_act(table_id=table_id, seat_index=index)
        break
    return True


def _play_out(table_id: int, limit: int = 400) -> None:
    for _ in range(limit):
        if not _drive_one(table_id):
            return
    raise AssertionError("hand did not finish")


def test_three_quick_joins_fill_a_table_and_start_a_hand(room, make_user):
    """Three players quick-join: one table, seats 0-2, a hand dealt with a committed seed."""
    table, users = _full_table(room, make_user)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert [s.user_id for s in table.seats.order_by("index")] == [u.pk for u in users]
    hand = table.hands.get()
    assert len(hand.seed) == 64 and len(hand.seed_hash) == 64 and hand.seed != hand.seed_hash
    assert hand.params["seat_beans"] == [5000, 5000, 5000]


def test_stale_seq_is_rejected_and_changes_nothing(room, make_user):
    """An action made against an old seq gets stale_seq; the log and state are unchanged."""
    table, users = _full_table(room, make_user)
    table.refresh_from_db()
    before = (table.seq, HandEvent.objects.count(), table.hands.get().state)
    with pytest.raises(StaleSeq):
        tables.move_submit(
            table_id=table.pk,
            user=users[0],
            action={"type": "start", "mingpai": False},
            expected_seq=table.seq - 1,
            action_id="a1",
        )
    table.refresh_from_db()
    assert (table.seq, HandEvent.objects.count(), table.hands.get().state) == before


def test_duplicate_action_id_is_rejected(room, make_user):
    """The same client action id twice: the second is refused and nothing changes."""
    table, users = _full_table(room, make_user)
    table.refresh_from_db()
    tables.move_submit(
        table_id=table.pk,
        user=users[0],
        action={"type": "start", "mingpai": False},
        expected_seq=table.seq,
        action_id="same-id",
    )
    table.refresh_from_db()
    seq = table.seq
    with pytest.raises(DuplicateAction):
        tables.move_submit(
            table_id=table.pk,
            user=users[0],
            action={"type": "start", "mingpai": False},
            expected_seq=None,
            action_id="same-id",
        )
    table.refresh_from_db()
    assert table.seq == seq and HandEvent.objects.count() == 1


def test_action_out_of_turn_and_for_another_seat(room, make_user):
    """Acting when not to act is refused; a user not at the table cannot act at all."""
    table, users = _full_table(room, make_user)
    for user in users:
        table.refresh_from_db()
        tables.move_submit(
            table_id=table.pk,
            user=user,
            action={"type": "start", "mingpai": False},
            expected_seq=table.seq,
            action_id=None,
        )
    table, hand, state = current_state(table.pk)
    ruleset = registry.get("doudizhu")
    # the deal phase: everyone readies
    for user, seat in zip(users, range(3)):
        if seat in ruleset.to_act(state):
            tables.move_submit(
                table_id=table.pk,
                user=user,
                action={"type": "ready"},
                expected_seq=None,
                action_id=None,
            )
    table, hand, state = current_state(table.pk)
    to_act = ruleset.to_act(state)
    assert len(to_act) == 1
    idle = next(u for i, u in enumerate(users) if i not in to_act)
    seq = table.seq
    with pytest.raises(IllegalAction) as error:
        tables.move_submit(
            table_id=table.pk,
            user=idle,
            action={"type": "bid", "call": True},
            expected_seq=seq,
            action_id=None,
        )
    assert error.value.code == ErrorCode.NOT_YOUR_TURN
    stranger = lobby_services  # a user with no seat
    from accounts.services import user_register

    outsider = user_register(username="outsider", password="pw-123456")
    with pytest.raises(NotSeated):
        tables.move_submit(
            table_id=table.pk,
            user=outsider,
            action={"type": "bid", "call": True},
            expected_seq=seq,
            action_id=None,
        )
    with pytest.raises(UnknownTable):
        tables.move_submit(
            table_id=999999,
            user=idle,
            action={"type": "bid", "call": True},
            expected_seq=seq,
            action_id=None,
        )
    table.refresh_from_db()
    assert table.seq == seq
    del stranger


def test_malformed_and_illegal_plays_change_nothing(room, make_user):
    """Garbage actions and cards not held are refused with clear codes."""
    table, users = _full_table(room, make_user)
    table.refresh_from_db()
    seq = table.seq
    for bad in (None, "play", {"type": 3}, {"cards": "33"}):
        with pytest.raises(IllegalAction) as error:
            tables.move_submit(
                table_id=table.pk, user=users[0], action=bad, expected_seq=seq, action_id=None
            )
        assert error.value.code == ErrorCode.MALFORMED
    table.refresh_from_db()
    assert table.seq == seq and HandEvent.objects.count() == 0


def test_too_few_beans_full_and_closed_rooms(room, make_user):
    """Joining with too few beans, a closed room or a full table is refused."""
    poor = make_user(beans=50)
    with pytest.raises(BeansOutOfRange):
        lobby_services.quick_join(user=poor, room_id=room.pk)
    assert not Seat.objects.filter(user=poor).exists()
    room.max_beans = 1000
    room.save()
    rich = make_user(beans=5000)
    with pytest.raises(BeansOutOfRange):
        lobby_services.quick_join(user=rich, room_id=room.pk)
    room.is_open = False
    room.save()
    ok = make_user(beans=500)
    with pytest.raises(RoomUnavailable):
        lobby_services.quick_join(user=ok, room_id=room.pk)
    with pytest.raises(RoomUnavailable):
        lobby_services.quick_join(user=ok, room_id=987654)
    room.is_open, room.max_beans = True, None
    room.save()
    table = lobby_services.private_create(user=ok, room_id=room.pk)
    for _ in range(2):
        lobby_services.private_join(user=make_user(beans=500), code=table.invite_code)
    with pytest.raises(SeatUnavailable):
        lobby_services.private_join(user=make_user(beans=500), code=table.invite_code)
    with pytest.raises(lobby_services.UnknownInvite):
        lobby_services.private_join(user=make_user(beans=500), code="NOPE99")


def test_whole_hand_by_clock_settles_once_and_conserves_beans(
    room, make_user, django_capture_on_commit_callbacks
):
    """A hand played by the clock (托管) ends, settles through the ledger exactly once."""
    table, users = _full_table(room, make_user)
    Seat.objects.filter(table=table).update(auto=True)  # all three in 托管
    with django_capture_on_commit_callbacks(execute=True):
        _play_out(table.pk)
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.FINISHED and hand.settled_at is not None
    beans = [balance_for_user(u) for u in users]
    assert sum(beans) - 15000 == -hand.result["rake"]
    assert hand.result["beans"] == [b - 5000 for b in beans]
    assert HandSeat.objects.filter(hand=hand).count() == 3
    assert settlement.hand_settle(hand.pk) is False  # a retried task pays nothing twice
    assert [balance_for_user(u) for u in users] == beans
    assert ledger_drift() == []
    scores = hand.result["scores"]
    assert sum(scores) == 0
    for user, score in zip(users, scores):
        assert user.game_stats.get(game="doudizhu").score == score


def test_timeout_plays_the_auto_action_and_a_missed_start_prompt_counts_nothing(room, make_user):
    """A seat whose clock runs out gets 托管's move; a missed short prompt (斗地主's 開始) is
    not a missed turn (a missed turn clock counts: games/tests/test_newcomer.py)."""
    table, users = _full_table(room, make_user)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.deadline is not None
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now())
    assert tables.due_seat_act(table_id=table.pk, seat_index=0) is True
    event = HandEvent.objects.get()
    assert event.by == "auto" and event.seat == 0
    seat.refresh_from_db()
    assert seat.timeouts == 0 and not seat.auto
    # a seat not due is not touched
    assert tables.due_seat_act(table_id=table.pk, seat_index=0) is False


def test_escape_during_a_hand_settles_the_penalty(
    room, make_user, django_capture_on_commit_callbacks
):
    """Leaving mid-hand is 逃跑: the hand ends with the escape result and the escaper pays."""
    table, users = _full_table(room, make_user)
    with django_capture_on_commit_callbacks(execute=True):
        assert seating.seat_leave(table_id=table.pk, user=users[1]) is True
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.ESCAPED and hand.result["escaped_seat"] == 1
    assert balance_for_user(users[1]) < 5000
    assert balance_for_user(users[0]) > 5000 - 1 and balance_for_user(users[2]) > 5000 - 1
    assert ledger_drift() == []
    assert not Seat.objects.filter(user=users[1]).exists()


def test_counter_is_bought_through_the_ledger_once_and_not_without_beans(room, make_user):
    """The 記牌器 costs beans in a room that sells it: paid once, refused without the beans."""
    from games import rendering
    from games.selectors import tables as table_selectors
    from ledger.models import Transfer

    room.extra = {"counter_price": 300}
    room.save()
    table, users = _full_table(room, make_user)
    snapshot = table_selectors.table_snapshot(table.pk)
    assert rendering.viewer_model(snapshot, 0)["view"]["counter_owned"] is False
    items.counter_buy(table_id=table.pk, user=users[0])
    assert balance_for_user(users[0]) == 4700
    with pytest.raises(DuplicateAction):
        items.counter_buy(table_id=table.pk, user=users[0])
    snapshot = table_selectors.table_snapshot(table.pk)
    assert rendering.viewer_model(snapshot, 0)["view"]["counter_owned"] is True
    assert rendering.viewer_model(snapshot, 1)["view"]["counter_owned"] is False
    assert rendering.viewer_model(snapshot, 1)["view"]["counter"] is None
    from ledger import services as ledger

    ledger.staff_grant(staff=None, user=users[1], amount=-4900, reason="test", correction=True)
    with pytest.raises(BeansOutOfRange):
        items.counter_buy(table_id=table.pk, user=users[1])
    assert balance_for_user(users[1]) == 100
    assert Transfer.objects.filter(kind=Transfer.Kind.PURCHASE).count() == 1
    assert ledger_drift() == []
