"""歡樂三張 on the live table: stakes through the ledger as made, 2–6 seats, escape, settlement."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import registry
from games.engine.errors import ErrorCode, IllegalAction
from games.models import Hand, HandEvent, HandSeat, Seat, Table
from games.services import seating, settlement, tables
from games.tests.helpers import current_state
from ledger import services as ledger
from ledger.models import Account, Transfer
from ledger.selectors import balance_for_user, ledger_drift
from lobby import services as lobby_services
from lobby.models import Room

pytestmark = pytest.mark.django_db

RULES = registry.get("zhajinhua")


def _pot_balance() -> int:
    account = Account.objects.filter(code=ledger.POT).first()
    return account.balance if account else 0


@pytest.fixture
def zroom(db):
    return Room.objects.create(
        name="三張測試",
        game="zhajinhua",
        variant="classic",
        seats=6,
        base_score=1,
        factor=1,
        rake=5,
        min_beans=0,
        max_beans=None,
        turn_seconds=15,
        bot_wait_seconds=0,
        extra={
            "ante": 10,
            "chip_levels": [10, 20, 50, 100],
            "unit_cap": 200,
            "round_cap": 3,
            "compare_from_round": 2,
            "escape_penalty": 50,
            "target_players": 2,
        },
    )


def _join(room, users) -> Table:
    table = lobby_services.quick_join(user=users[0], room_id=room.pk)
    for user in users[1:]:
        seating.seat_take(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table


def _user_at(table, e: int):
    _, hand, _ = current_state(table.pk)
    return hand.players[e]["user_id"]


def _move(table, e: int, action: dict):
    from accounts.models import User

    _, hand, _ = current_state(table.pk)
    user = User.objects.get(pk=hand.players[e]["user_id"])
    table.refresh_from_db()
    return tables.move_submit(
        table_id=table.pk, user=user, action=action, expected_seq=table.seq, action_id=None
    )


def _drive(table_id: int, limit: int = 300) -> None:
    """Let the clock act for the due seat until the hand is over."""
    for _ in range(limit):
        table, hand, state = current_state(table_id)
        if hand is None:
            return
        index = min(tables.table_seats(hand, RULES.to_act(state)))
        Seat.objects.filter(table=table, index=index).update(deadline=timezone.now())
        assert tables.due_seat_act(table_id=table_id, seat_index=index)
    raise AssertionError("hand did not finish")


def test_two_seated_start_a_hand_and_the_antes_go_into_the_pot(zroom, make_user):
    """With two seated the hand is dealt to them only; both 底注 are debited at once."""
    users = [make_user(beans=1000) for _ in range(2)]
    table = _join(zroom, users)
    hand = table.hands.get()
    assert hand.status == Hand.Status.PLAYING and len(hand.players) == 2
    assert [p["table_seat"] for p in hand.players] == [0, 1]
    assert [balance_for_user(u) for u in users] == [990, 990]
    assert _pot_balance() == 20
    assert Transfer.objects.filter(idempotency_key=f"pot:{hand.pk}:ante").count() == 1
    assert ledger_drift() == []


def test_each_stake_is_debited_as_it_is_made(zroom, make_user):
    """跟注 and 加注 move beans from the player to the pot in the move's own transaction."""
    users = [make_user(beans=1000) for _ in range(3)]
    table = _join(zroom, users[:2])
    seating.seat_take(table_id=table.pk, user=users[2])  # waits for the next hand
    _, hand, state = current_state(table.pk)
    first = state.current
    uid = _user_at(table, first)
    outcome = _move(table, first, {"type": "call"})
    assert Account.objects.get(user_id=uid).balance == 1000 - 10 - 10
    assert _pot_balance() == 30
    assert Transfer.objects.filter(idempotency_key=f"pot:{hand.pk}:{outcome.seq}").exists()
    second = 1 - first
    _move(table, second, {"type": "look"})  # 看牌 costs nothing
    _move(table, second, {"type": "raise", "to": 20})  # seen: 2 × 20
    assert Account.objects.get(user_id=_user_at(table, second)).balance == 1000 - 10 - 40
    assert _pot_balance() == 70
    _, _, state = current_state(table.pk)
    assert sum(state.stakes) == _pot_balance()
    assert ledger_drift() == []


def test_cannot_stake_more_than_you_have(zroom, make_user):
    """The engine refuses a bet above the beans left; the ledger refuses it too; nothing moves."""
    rich, poor = make_user(beans=1000), make_user(beans=25)
    table = _join(zroom, [rich, poor])
    _, hand, state = current_state(table.pk)
    e_poor = next(e for e, p in enumerate(hand.players) if p["user_id"] == poor.pk)
    if state.current != e_poor:
        _move(table, state.current, {"type": "call"})
    table.refresh_from_db()
    before = (table.seq, balance_for_user(poor), _pot_balance(), HandEvent.objects.count())
    with pytest.raises(IllegalAction) as error:
        _move(table, e_poor, {"type": "raise", "to": 20})  # 20 blind, 15 left
    assert error.value.code == ErrorCode.OVER_LIMIT
    table.refresh_from_db()
    assert (table.seq, balance_for_user(poor), _pot_balance(), HandEvent.objects.count()) == before
    # the ledger is the last word: beans taken away elsewhere cannot be staked
    ledger.staff_grant(staff=None, user=poor, amount=-10, reason="test", correction=True)
    with pytest.raises(IllegalAction) as error:
        _move(table, e_poor, {"type": "call"})  # 10 blind: the engine thinks 15 are left
    assert error.value.code == ErrorCode.OVER_LIMIT
    assert balance_for_user(poor) == 5 and ledger_drift() == []


def test_a_whole_six_seat_hand_conserves_beans_and_settles_once(
    zroom, make_user, django_capture_on_commit_callbacks
):
    """Six seats played by 托管/bots to the end: the pot to the winner minus A, exactly once."""
    users = [make_user(beans=2000) for _ in range(6)]
    zroom.extra = {**zroom.extra, "min_players": 6}
    zroom.save()
    with django_capture_on_commit_callbacks(execute=True):
        table = _join(zroom, users)
        hand = table.hands.get()
        assert len(hand.players) == 6
        Seat.objects.filter(table=table).update(auto=True)
        _drive(table.pk)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.settled_at is not None
    beans = [balance_for_user(u) for u in users]
    stakes = hand.result["extra"]["stakes"]
    winner = hand.result["winners"][0]
    pot_total = sum(stakes)
    assert _pot_balance() == 0
    assert sum(beans) == 12000 - min(5, pot_total)
    for e, p in enumerate(hand.players):
        expected = 2000 - stakes[e] + (pot_total - min(5, pot_total) if e == winner else 0)
        assert balance_for_user(p["user_id"]) == expected
        assert hand.result["beans"][e] == expected - 2000
    assert hand.result["rake"] == min(5, pot_total)
    assert HandSeat.objects.filter(hand=hand).count() == 6
    assert settlement.hand_settle(hand.pk) is False
    assert [balance_for_user(u) for u in users] == beans
    assert ledger_drift() == []
    table.refresh_from_db()
    assert table.dealer == hand.players[winner]["table_seat"]


def test_escape_is_a_fold_plus_the_penalty_and_the_hand_goes_on(
    zroom, make_user, django_capture_on_commit_callbacks
):
    """Leaving while in the hand: 棄牌 (stakes stay in the pot) + the room's penalty."""
    users = [make_user(beans=1000) for _ in range(3)]
    zroom.extra = {**zroom.extra, "min_players": 3}
    zroom.save()
    with django_capture_on_commit_callbacks(execute=True):
        table = _join(zroom, users)
        _, hand, state = current_state(table.pk)
        leaver = next(e for e in range(3) if e != state.current)  # off turn
        leaver_user = users[[u.pk for u in users].index(hand.players[leaver]["user_id"])]
        assert seating.seat_leave(table_id=table.pk, user=leaver_user) is True
        _, hand, state = current_state(table.pk)
        assert hand is not None and hand.status == Hand.Status.PLAYING  # goes on
        assert state.status[leaver] == "folded"
        assert balance_for_user(leaver_user) == 1000 - 10 - 50
        assert Account.objects.get(code=ledger.ESCAPE).balance == 50
        assert not Seat.objects.filter(user=leaver_user).exists()
        Seat.objects.filter(table=table).update(auto=True)
        _drive(table.pk)
    hand = Hand.objects.get(table=table)
    assert hand.settled_at is not None and hand.result["escaped_seat"] == leaver
    assert hand.result["beans"][leaver] == -60
    assert HandSeat.objects.get(hand=hand, seat=leaver).escaped
    assert balance_for_user(leaver_user) == 940
    assert ledger_drift() == []


def test_a_fold_that_leaves_one_ends_the_hand_and_a_folded_seat_leaves_freely(
    zroom, make_user, django_capture_on_commit_callbacks
):
    """Two players: the one who escapes hands the pot to the other at once."""
    users = [make_user(beans=1000) for _ in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        table = _join(zroom, users)
        assert seating.seat_leave(table_id=table.pk, user=users[0]) is True
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.FINISHED and hand.settled_at is not None
    assert balance_for_user(users[0]) == 1000 - 10 - 50
    assert balance_for_user(users[1]) == 1000 + 10 - 5
    assert _pot_balance() == 0 and ledger_drift() == []


def test_sit_down_mid_hand_waits_and_sit_or_stand_between_hands(
    zroom, make_user, django_capture_on_commit_callbacks
):
    """A player sitting down during a hand is dealt in the next; one who stands up is not.

    The players hold far more than a hand can cost: 托管 plays hand 2, and with 1,000 beans a
    seat lost everything but the 底注 in about 3 % of such hands (2.8 % of 3,000 engine hands),
    so hand 3 was not dealt to it and the test failed by luck (seen once in the full suite)."""
    users = [make_user(beans=100_000) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        table = _join(zroom, users[:2])
        seating.seat_take(table_id=table.pk, user=users[2])
        hand = table.hands.get()
        assert len(hand.players) == 2 and balance_for_user(users[2]) == 100_000
        table.refresh_from_db()
        with pytest.raises(IllegalAction):
            tables.move_submit(
                table_id=table.pk,
                user=users[2],
                action={"type": "look"},
                expected_seq=table.seq,
                action_id=None,
            )
        assert seating.seat_leave(table_id=table.pk, user=users[2]) is False  # not in the hand
        seating.seat_take(table_id=table.pk, user=users[2])
        Seat.objects.filter(table=table).update(auto=True)
        _drive(table.pk)
        Seat.objects.filter(table=table).update(connections=1)
        Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(1))
        seating.table_tick(table_id=table.pk)
    second = Hand.objects.get(table=table, number=2)
    assert {p["user_id"] for p in second.players} == {u.pk for u in users}
    assert balance_for_user(users[2]) == 100_000 - 10
    with django_capture_on_commit_callbacks(execute=True):
        _drive(table.pk)
        seating.seat_leave(table_id=table.pk, user=users[0])  # stands up between hands
        Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() - timedelta(1))
        seating.table_tick(table_id=table.pk)
    third = Hand.objects.get(table=table, number=3)
    assert {p["user_id"] for p in third.players} == {users[1].pk, users[2].pk}
    assert ledger_drift() == []


def test_the_board_shows_only_the_viewers_cards_and_legal_buttons(zroom, make_user):
    """The HTML for a seat: its own cards face down until 看牌, buttons for legal actions."""
    from games import rendering
    from games.selectors import tables as table_selectors

    users = [make_user(beans=1000) for _ in range(3)]
    table = _join(zroom, users[:2])
    seating.seat_take(table_id=table.pk, user=users[2])
    _, hand, state = current_state(table.pk)
    actor = state.current
    ts = hand.players[actor]["table_seat"]
    html = rendering.render_html(table_selectors.table_snapshot(table.pk), ts, users[ts])
    assert "跟注 10" in html and "加注到 20" in html and "看牌" in html and "棄牌" in html
    assert "比牌（" in html and "和 " in html  # two left: 比牌 is always allowed
    assert 'data-looked=""' in html  # three backs until 看牌
    _move(table, actor, {"type": "look"})
    _, hand, state = current_state(table.pk)
    html = rendering.render_html(table_selectors.table_snapshot(table.pk), ts, users[ts])
    assert 'data-looked="1"' in html
    other = hand.players[1 - actor]["table_seat"]
    html_other = rendering.render_html(
        table_selectors.table_snapshot(table.pk), other, users[other]
    )
    assert 'data-looked="1"' not in html_other
    waiting = rendering.render_html(table_selectors.table_snapshot(table.pk), 2, users[2])
    assert "請等下一局" in waiting and 'id="actions"' not in waiting


@pytest.mark.parametrize("aim,seated", [(4, 4), (6, 6), (2, 2), (9, 6)])
def test_the_bots_fill_a_table_to_the_players_it_aims_for(
    zroom, make_user, django_capture_on_commit_callbacks, aim, seated
):
    """A lone player at a 6-seat 三張 table: the bots fill it to the room's 目標人數 (at most
    the seats), so he is not always heads-up."""
    zroom.extra = {**zroom.extra, "target_players": aim}
    zroom.save()
    user = make_user(beans=1000)
    with django_capture_on_commit_callbacks(execute=True):
        table = lobby_services.quick_join(user=user, room_id=zroom.pk)
        seating.bots_fill(table_id=table.pk)
    assert Seat.objects.filter(table=table, user__isnull=False).count() == seated
    assert len(table.hands.get().players) == seated
